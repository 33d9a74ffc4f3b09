#!/usr/bin/env bash
# scripts/device_check.sh -- builds treadle on a machine with no network (the GPU host) and runs
# the Python suite and the CPU benchmarks there; results go to $OUT (or ./out) as files.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/out}
mkdir -p "$out"
export TREADLE_CACHE_DIR=$PWD/build-device/cache
cmake -S . -B build-device -G Ninja -DTREADLE_BUILD_TESTS=OFF \
      -DPython_EXECUTABLE="$(command -v python3)" > "$out/build.log" 2>&1 &&
    cmake --build build-device >> "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
echo "== nproc: $(nproc)"
PYTHONPATH=python python3 -m pytest -q tests/python 2>&1 | tee "$out/pytest.log" | tail -3
PYTHONPATH=python python3 benchmarks/bench_cpu.py 2>&1 | tee "$out/bench_cpu.jsonl"
