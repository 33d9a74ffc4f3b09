#!/usr/bin/env bash
# scripts/test.sh -- sets up treadle and runs every test: size, layer, format and lint checks, the
# check that generated files are current, the documentation build, C++ tests (plain, then under
# ASan and UBSan), Python tests
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/python_env.sh
bash scripts/setup.sh

echo "== file size check"
bash scripts/check_file_sizes.sh

echo "== layer check (includes in src/ point down, scripts/check_layers.py)"
"$PYTHON" scripts/check_layers.py

echo "== format and lint (clang-format, ruff)"
bash scripts/check_format.sh

echo "== generated stubs and builtin reference (python/treadle/__init__.pyi, docs/builtins.md)"
PYTHONPATH=python "$PYTHON" scripts/gen_reference.py --check

echo "== the status page is current (docs/status.md from docs/conformance/)"
"$PYTHON" scripts/gen_status_page.py --check

echo "== documentation (Sphinx, warnings as errors: scripts/build_docs.sh)"
bash scripts/build_docs.sh build/docs

echo "== C++ tests"
# A private kernel cache, so tests never see (or disturb) the user's cache.
export TREADLE_CACHE_DIR="${TREADLE_CACHE_DIR:-$PWD/build/test-cache}"
(cd build && ctest --output-on-failure -j2)

echo "== C++ tests under AddressSanitizer and UndefinedBehaviorSanitizer (build-sanitize/)"
bash scripts/test_sanitize.sh

echo "== Python tests"
# Two workers (pytest-xdist), each test file whole in one of them, in its order.
PYTHONPATH=python "$PYTHON" -m pytest -q -n 2 --dist loadfile --durations=15 tests/python
