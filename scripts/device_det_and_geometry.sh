#!/usr/bin/env bash
# scripts/device_det_and_geometry.sh -- on a GPU machine without network: deterministic mode's
# tests on cpu and cuda:0, Warp's deterministic/ tests through the conformance runner (with Warp
# as reference, see device_conformance.sh; carry build/conformance-cache/warp-1.17.0 and
# build/peers), then the deterministic, mesh and hash-grid benchmarks, treadle and Warp side by
# side. Output under $OUT (or ./out).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/out}
mkdir -p "$out"
export TREADLE_CACHE_DIR=$PWD/build-device/cache
CONF_FILES="${CONF_FILES:-deterministic/test_deterministic_scatter deterministic/test_deterministic_counter deterministic/test_deterministic_backward deterministic/test_deterministic_graph_capture deterministic/test_deterministic_options}" \
    CONF_JOBS=${CONF_JOBS:-8} bash scripts/device_conformance.sh 2>&1 | tail -40
echo "== deterministic tests"
PYTHONPATH=python python3 -m pytest -q -p no:cacheprovider tests/python/test_deterministic.py tests/python/test_deterministic_counters.py \
    ${PYTEST_ARGS:-} 2>&1 | tail -15
warp_path=
[ -d build/peers-warp/warp ] && warp_path=:$PWD/build/peers-warp
# BENCHES: which benchmarks (default all four)
IFS=';' read -r -a benches <<< "${BENCHES:-bench_deterministic.py --device cuda:0;bench_mesh.py --device cuda:0;bench_hash_grid.py --device cuda:0;bench_deterministic.py --device cpu --reps 3}"
for bench in "${benches[@]}"; do
    echo "== $bench"
    # shellcheck disable=SC2086 -- the benchmark and its arguments
    PYTHONPATH=python$warp_path timeout 300 python3 benchmarks/$bench 2>&1 | grep '^{' |
        tee -a "$out/bench.jsonl"
done
exit 0
