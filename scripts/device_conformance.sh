#!/usr/bin/env bash
# scripts/device_conformance.sh -- Warp's own tests on cuda:0, on a GPU machine without network.
# Builds treadle (scripts/device_build.sh), then runs scripts/conformance.py on cuda:0 from the
# unpacked test tree in build/conformance-cache (carry build/conformance-cache/warp-1.17.0 there:
# the wheel cannot be fetched). Where build/peers/ holds a copy of Warp's source tarball and its
# build script, that Warp is built (CUDA only) and run as the reference, per test id; where
# instead build/conformance-cache/reference-results/cuda_0 holds its saved results (from
# $OUT/reference_cuda.tgz of an earlier run), those are compared against.
#   CONF_FILES (default core), CONF_JOBS (default 8); results in $OUT/conformance_cuda.{json,txt}
# With FUZZ_COUNT=N it also runs N fuzz cases launching on cuda:0 (scripts/fuzz.py --device
# cuda:0; summary in $OUT/fuzz_cuda.json, minimised findings in $OUT/fuzz_cuda_findings.tgz).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/out}
mkdir -p "$out"
bash scripts/device_build.sh "$out" || exit 1
export TREADLE_CACHE_DIR=$PWD/build-device/cache
ref=()
if [ -d build/conformance-cache/reference-results/cuda_0 ] && [ ! -f build/peers/build_warp_cuda.sh ]; then
    # Warp's saved per-file results (carried in) are reused: no Warp build is needed.
    ref=(--reference --reference-path "$PWD/build/peers-warp")
elif [ -f build/peers/build_warp_cuda.sh ]; then
    if bash build/peers/build_warp_cuda.sh "$PWD/build/peers-warp" > "$out/warp_build.log" 2>&1; then
        ref=(--reference --reference-path "$PWD/build/peers-warp")
    else
        echo "== Warp reference build failed; running treadle alone"; tail -5 "$out/warp_build.log"
    fi
fi
# shellcheck disable=SC2086 -- CONF_FILES is a list of names
PYTHONPATH=python python3 scripts/conformance.py ${CONF_FILES:-core} --device cuda:0 \
    -j "${CONF_JOBS:-8}" --timeout "${CONF_TIMEOUT:-300}" "${ref[@]}" --json "$out/conformance_cuda.json" > "$out/conformance_cuda.txt" 2>&1
echo "conformance exit status $?"
grep -v "^  \[" "$out/conformance_cuda.txt" | tail -n 100
if [ "${FUZZ_COUNT:-0}" -gt 0 ]; then
    echo "== fuzz: $FUZZ_COUNT cases on cuda:0"
    rm -rf build/fuzz-cuda
    PYTHONPATH=python timeout "${FUZZ_TIMEOUT:-240}" python3 scripts/fuzz.py --device cuda:0 \
        --count "$FUZZ_COUNT" --jobs "${CONF_JOBS:-8}" --launch-rate 0.5 --out build/fuzz-cuda \
        2>&1 | tail -8
    [ -f build/fuzz-cuda/summary.json ] && cp build/fuzz-cuda/summary.json "$out/fuzz_cuda.json"
    [ -d build/fuzz-cuda ] && tar czf "$out/fuzz_cuda_findings.tgz" -C build fuzz-cuda
fi
# Warp's per-file results, to carry into a later run's cache (they are reused, Warp being pinned).
[ -d build/conformance-cache/reference-results/cuda_0 ] &&
    tar czf "$out/reference_cuda.tgz" -C build/conformance-cache reference-results/cuda_0
exit 0
