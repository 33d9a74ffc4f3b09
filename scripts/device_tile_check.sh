#!/usr/bin/env bash
# scripts/device_tile_check.sh -- the tile checks on a GPU machine without network: builds
# treadle, runs the tile tests on CUDA, builds Warp from build/peers/ (when carried) for the
# GEMM benchmark, the upstream examples and as the conformance reference, then Warp's tile
# test files on cuda:0. STEPS (default "tests gemm examples conformance") picks the steps.
# Results under $OUT: tile_pytest.txt, bench_tile.jsonl, tile_examples.jsonl,
# conformance_cuda.{txt,json}. The examples come from
# build/conformance-cache/warp-1.17.0/warp/examples (scripts/tile_examples.py --unpack puts
# them there).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/out}
steps=" ${STEPS:-tests gemm examples conformance} "
mkdir -p "$out"
bash scripts/device_build.sh "$out" || exit 1
export TREADLE_CACHE_DIR=$PWD/build-device/cache
if [[ $steps == *" tests "* ]]; then
    echo "== tile tests (CUDA)"
    PYTHONPATH=python timeout 240 python3 -m pytest -q -p no:cacheprovider -n 8 \
        tests/python/test_tile.py tests/python/test_tile_block.py tests/python/test_tile_indexed.py \
        tests/python/test_tile_structs.py tests/python/test_tile_matmul.py \
        > "$out/tile_pytest.txt" 2>&1
    tail -15 "$out/tile_pytest.txt"
fi
warp=()
if [ -f build/peers/build_warp_cuda.sh ] &&
    bash build/peers/build_warp_cuda.sh "$PWD/build/peers-warp" > "$out/warp_build.log" 2>&1; then
    warp=(--warp-path "$PWD/build/peers-warp")
fi
if [[ $steps == *" gemm "* ]]; then
    echo "== GEMM"
    PYTHONPATH=python timeout 150 python3 benchmarks/bench_tile.py --size "${GEMM_SIZE:-4096}" \
        "${warp[@]}" > "$out/bench_tile.jsonl" 2>&1
    cat "$out/bench_tile.jsonl"
fi
examples=build/conformance-cache/warp-1.17.0/warp/examples/tile
if [[ $steps == *" examples "* ]] && [ -d "$examples" ]; then
    echo "== upstream tile examples"
    timeout "${EXAMPLES_LIMIT:-240}" python3 scripts/tile_examples.py --examples "$examples" \
        --device cuda:0 "${warp[@]}" --timeout 120 --out "$PWD/build/tile-examples" \
        > "$out/tile_examples.jsonl" 2>&1
    cat "$out/tile_examples.jsonl"
fi
if [[ $steps == *" conformance "* ]]; then
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
fi
exit 0
