#!/usr/bin/env bash
# scripts/check_file_sizes.sh -- fails when a hand-written source file exceeds 1,500 lines
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
while IFS= read -r f; do
    n=$(wc -l < "$f")
    if [ "$n" -gt 1500 ]; then
        echo "file too large: $f has $n lines (limit 1500; split it by concept)"
        status=1
    fi
done < <(git ls-files -- src native include python tests benchmarks examples \
         | grep -E '\.(h|hpp|cpp|cc|cu|py)$' | grep -v -E '(^|/)(golden|generated)/')
[ $status -eq 0 ] && echo "all source files are within 1500 lines"
exit $status
