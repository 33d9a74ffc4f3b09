#!/usr/bin/env bash
# examples/run_example_test.sh -- installs treadle from a build tree, builds the C++ example
# against it with find_package(treadle), and runs it. Usage: run_example_test.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
prefix="$build/example-install"
cmake --install "$build" --prefix "$prefix" >/dev/null
cmake -S "$here/saxpy" -B "$build/example-build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$build/example-build" >/dev/null
TREADLE_NATIVE_DIR="$prefix/share/treadle/native" "$build/example-build/saxpy_example" "$here/saxpy/kernels.py"
