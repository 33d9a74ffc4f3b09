#!/usr/bin/env bash
# examples/run_example_test.sh -- installs treadle from a build tree into a temporary prefix,
# moves the installed package elsewhere, builds the C++ example against the moved copy with
# find_package(treadle) and runs it with an empty kernel cache and no TREADLE_NATIVE_DIR: the
# package must carry everything it needs (its native headers travel inside the library).
# Usage: run_example_test.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work="$build/example-test"
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/installed" >/dev/null
mv "$work/installed" "$work/moved"
cp -r "$here/saxpy" "$work/saxpy"
cmake -S "$work/saxpy" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/moved" >/dev/null
cmake --build "$work/build" >/dev/null
env -u TREADLE_NATIVE_DIR TREADLE_CACHE_DIR="$work/cache" "$work/build/saxpy_example" \
    "$work/saxpy/kernels.py"
# the headers were written into the fresh cache, not read from a source or install tree
ls "$work"/cache/native/*/treadle/core.h >/dev/null
