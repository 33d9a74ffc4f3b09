#!/usr/bin/env bash
# scripts/setup.sh [TARGET...] -- installs treadle's build dependencies and builds it in build/
# (idempotent): the named CMake targets, or everything
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v cmake >/dev/null || need_apt+=(cmake)
command -v ninja >/dev/null || need_apt+=(ninja-build)
command -v c++ >/dev/null || need_apt+=(g++)
[ -f /usr/include/gtest/gtest.h ] || need_apt+=(libgtest-dev)
[ -f /usr/include/zlib.h ] || need_apt+=(zlib1g-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
    echo "setup: installing ${need_apt[*]} with apt-get"
    apt-get update -qq && apt-get install -y -qq "${need_apt[@]}"
fi

. scripts/python_env.sh
if ! "$PYTHON" -c "import nanobind, numpy, ml_dtypes, pytest, xdist, ruff, clang_format, sphinx, myst_parser" 2>/dev/null; then
    echo "setup: installing Python build and test dependencies"
    "$PYTHON" -m pip install -q -r requirements-dev.txt
fi

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE="$(command -v "$PYTHON")" \
    "${launcher[@]}" >/dev/null
# Targets may be named (the demo builds only the Python extension); none: everything.
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build "${targets[@]}"
