#!/usr/bin/env bash
# scripts/device_tile_check.sh -- the tile checks on a GPU machine without network: builds
# treadle, runs the tile tests on CUDA, builds Warp from build/peers/ (when carried) for the
# GEMM benchmark and as the conformance reference, then Warp's tile test files on cuda:0.
# Results under $OUT: tile_pytest.txt, bench_tile.jsonl, conformance_cuda.{txt,json}.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/out}
mkdir -p "$out"
bash scripts/device_build.sh "$out" || exit 1
export TREADLE_CACHE_DIR=$PWD/build-device/cache
echo "== tile tests (CUDA)"
PYTHONPATH=python timeout 240 python3 -m pytest -q -p no:cacheprovider -n 8 \
    tests/python/test_tile.py tests/python/test_tile_block.py tests/python/test_tile_indexed.py \
    tests/python/test_tile_structs.py tests/python/test_tile_matmul.py > "$out/tile_pytest.txt" 2>&1
tail -15 "$out/tile_pytest.txt"
warp=()
if [ -f build/peers/build_warp_cuda.sh ] &&
    bash build/peers/build_warp_cuda.sh "$PWD/build/peers-warp" > "$out/warp_build.log" 2>&1; then
    warp=(--warp-path "$PWD/build/peers-warp")
fi
echo "== GEMM"
PYTHONPATH=python timeout 150 python3 benchmarks/bench_tile.py --size "${GEMM_SIZE:-4096}" \
    "${warp[@]}" > "$out/bench_tile.jsonl" 2>&1
cat "$out/bench_tile.jsonl"
echo "== conformance (cuda:0)"
ref=()
[ ${#warp[@]} -gt 0 ] && ref=(--reference --reference-path "$PWD/build/peers-warp")
PYTHONPATH=python timeout "${CONF_LIMIT:-300}" python3 scripts/conformance.py ${CONF_FILES:-tile} \
    --device cuda:0 -j "${CONF_JOBS:-14}" --timeout "${CONF_TIMEOUT:-120}" "${ref[@]}" \
    --json "$out/conformance_cuda.json" > "$out/conformance_cuda.txt" 2>&1
echo "conformance exit status $?"
grep -v "^  \[" "$out/conformance_cuda.txt" | tail -n 60
[ -d build/conformance-cache/reference-results/cuda_0 ] &&
    tar czf "$out/reference_cuda.tgz" -C build/conformance-cache reference-results/cuda_0
exit 0
