#!/usr/bin/env bash
# scripts/test_sanitize.sh -- builds the C++ tests with AddressSanitizer and
# UndefinedBehaviorSanitizer in build-sanitize/ and runs them (two shards in parallel)
#
# The library and the test binary are instrumented (TREADLE_SANITIZE); the Python extension is
# not built. Kernels that the tests compile at run time are ordinary shared objects built by
# the host compiler, loaded with dlopen into the instrumented process: their own code is not
# checked, but every call into treadle from them is. They come from the same kernel cache as
# the plain build's tests (the cache is keyed by the generated source, which the sanitizers
# do not change). Any finding aborts the test binary with a report.
set -euo pipefail
cd "$(dirname "$0")/.."

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build-sanitize -G Ninja -DTREADLE_SANITIZE=ON -DTREADLE_BUILD_PYTHON=OFF \
    -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" "${launcher[@]}" >/dev/null
cmake --build build-sanitize --target treadle_tests

export TREADLE_CACHE_DIR="${TREADLE_CACHE_DIR:-$PWD/build/test-cache}"
# Leak checking stays on (the default on Linux). allocator_may_return_null: a failed allocation
# returns null as the C library's does, instead of aborting, so the tests of treadle's
# out-of-memory errors see what a real program sees. protect_shadow_gap=0: the CUDA driver maps
# memory where ASan would otherwise reserve its shadow gap (cuInit then fails with
# CUDA_ERROR_OUT_OF_MEMORY); needed on a machine with a GPU, harmless without one. UBSan prints
# where a finding came from.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1:protect_shadow_gap=0:strict_string_checks=1:detect_stack_use_after_return=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

shards=${TREADLE_SANITIZE_SHARDS:-2}
logs=()
pids=()
for ((k = 0; k < shards; ++k)); do
    log=build-sanitize/shard-$k.log
    logs+=("$log")
    GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$k \
        build-sanitize/tests/cpp/treadle_tests --gtest_brief=1 >"$log" 2>&1 &
    pids+=($!)
done
status=0
for ((k = 0; k < shards; ++k)); do
    if ! wait "${pids[$k]}"; then
        echo "sanitizer shard $k failed:"
        cat "${logs[$k]}"
        status=1
    fi
done
if [ $status -eq 0 ]; then
    tail -q -n 2 "${logs[@]}" | grep -E 'PASSED|SKIPPED' || true
    echo "C++ tests pass under ASan and UBSan"
fi
exit $status
