#!/usr/bin/env bash
# scripts/check_file_sizes.sh -- fails when a hand-written file exceeds 800 lines; warns about
# functions longer than 150 lines (C++ and Python)
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
file_limit=800
function_limit=150

mapfile -t files < <(git ls-files -- src native include python tests benchmarks examples scripts \
    cmake CMakeLists.txt | grep -E '(\.(h|hpp|cpp|cc|cu|py|sh|cmake)|CMakeLists\.txt)$' \
    | grep -v -E '(^|/)(golden|generated)/')
status=0
existing=()  # tracked files deleted in the working tree are left out
for f in "${files[@]}"; do
    [ -f "$f" ] || continue
    existing+=("$f")
    n=$(wc -l < "$f")
    if [ "$n" -gt $file_limit ]; then
        echo "file too large: $f has $n lines (limit $file_limit; split it by concept)"
        status=1
    fi
done
[ $status -eq 0 ] && echo "all hand-written files are within $file_limit lines"

warnings=$("$PYTHON" scripts/long_functions.py $function_limit "${existing[@]}")
if [ -n "$warnings" ]; then
    echo "warning: functions over $function_limit lines (split them when you next touch them):"
    echo "$warnings" | sed 's/^/  /'
fi
exit $status
