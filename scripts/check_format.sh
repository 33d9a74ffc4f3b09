#!/usr/bin/env bash
# scripts/check_format.sh -- fails when C/C++ sources disagree with .clang-format or Python with
# ruff; `--fix` rewrites them instead. The pinned clang-format and ruff come from
# requirements-dev.txt, so every machine formats alike.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
fix=0
[ "${1:-}" = "--fix" ] && fix=1

clang_format=$("$PYTHON" -c \
    "import clang_format, os; print(os.path.join(os.path.dirname(clang_format.__file__), 'data', 'bin', 'clang-format'))")
mapfile -t cxx < <(git ls-files -- src native include tests examples benchmarks \
    | grep -E '\.(h|hpp|cpp|cc|cu)$' | grep -v -E '(^|/)(golden|generated)/')
status=0
if [ $fix -eq 1 ]; then
    "$clang_format" -i "${cxx[@]}"
    "$PYTHON" -m ruff check --fix -q python tests benchmarks scripts
else
    bad=()
    for f in "${cxx[@]}"; do
        "$clang_format" "$f" | cmp -s - "$f" || bad+=("$f")
    done
    if [ ${#bad[@]} -gt 0 ]; then
        printf 'not clang-formatted: %s\n' "${bad[@]}"
        echo "(run: bash scripts/check_format.sh --fix)"
        status=1
    fi
    "$PYTHON" -m ruff check -q python tests benchmarks scripts || status=1
fi
[ $status -eq 0 ] && echo "C/C++ sources match .clang-format; Python passes ruff"
exit $status
