#!/usr/bin/env bash
# scripts/device_check.sh -- the whole GPU check on a machine with CUDA and no network: builds
# treadle, runs the Python suite (parametrised over cpu and every CUDA device), the C++ CUDA
# smoke test, the CPU and CUDA benchmarks, and with SANITIZE=1 the C++ tests under ASan and
# UBSan. Logs and JSON lines go to $OUT (or ./out).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/out}
mkdir -p "$out"
export TREADLE_CACHE_DIR=$PWD/build-device/cache
bash scripts/device_build.sh "$out" || exit 1

echo "== C++ CUDA smoke test"
if [ -f tests/cpp/cuda/device_smoke.cpp ]; then
    g++ -std=c++20 -O2 -Iinclude -Isrc tests/cpp/cuda/device_smoke.cpp build-device/libtreadle.a \
        -DTREADLE_SOURCE_DIR="\"$PWD\"" -ldl -lpthread -o build-device/device_smoke &&
        ./build-device/device_smoke 2>&1 | tail -5
fi

echo "== C++ example on the GPU"
g++ -std=c++20 -O2 -Iinclude examples/saxpy/main.cpp build-device/libtreadle.a -ldl -lpthread \
    -o build-device/saxpy_example && ./build-device/saxpy_example examples/saxpy/kernels.py cuda:0

if [ "${SANITIZE:-0}" = 1 ]; then
    # SANITIZE=1: the C++ tests under ASan and UBSan, where their CUDA cases run too.
    echo "== C++ tests under ASan and UBSan"
    bash scripts/test_sanitize.sh > "$out/sanitize.log" 2>&1
    echo "exit status $?"; grep -v '^\[[0-9]*/' "$out/sanitize.log" | tail -8
fi

echo "== Python tests"
# PYTEST_ARGS narrows the run (e.g. -k cuda); SKIP_BENCH=1 leaves out the benchmarks.
PYTHONPATH=python python3 -m pytest -q tests/python ${PYTEST_ARGS:-} 2>&1 | tee "$out/pytest.log" |
    tail -15

echo "== differentiable example on the GPU"
(cd "$out" && PYTHONPATH=$OLDPWD/python python3 -m treadle.examples.bounce --device cuda:0 \
    --out "$out/bounce.png" 2>&1 | tail -4)

[ "${SKIP_BENCH:-0}" = 1 ] && exit 0
echo "== benchmarks"
PYTHONPATH=python python3 benchmarks/bench_grad.py 2>&1 | tee "$out/bench_grad.jsonl"
PYTHONPATH=python python3 benchmarks/bench_cpu.py 2>&1 | tee "$out/bench_cpu.jsonl" | tail -4
nvcc -O3 -arch=sm_90 -o build-device/cuda_reference benchmarks/cuda_reference.cu -lcuda \
    > "$out/nvcc.log" 2>&1 || tail -5 "$out/nvcc.log"
PYTHONPATH=python python3 benchmarks/bench_cuda.py --reference build-device/cuda_reference 2>&1 |
    tee "$out/bench_cuda.jsonl"
