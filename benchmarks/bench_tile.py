"""Tile benchmarks on CUDA: a tile_matmul GEMM (C = A @ B, fp32 accumulation) against cuBLAS
through PyTorch and, where it imports, Warp running the same kernel source. Prints JSON lines.
Needs a GPU:

    PYTHONPATH=python python3 benchmarks/bench_tile.py [--size 4096] [--warp-path DIR]

`--warp-path` names a directory from which `import warp` gives a CUDA build of Warp (for
instance build/peers-warp from ../shared/peers/build_warp_cuda.sh); without it only treadle
and cuBLAS are measured.
"""

import argparse
import importlib
import json
import sys
import time

import numpy as np

TILE_M, TILE_N, TILE_K = 64, 64, 64
BLOCK_DIM = 256


def emit(**record):
    print(json.dumps(record), flush=True)


def make_gemm(wp, dtype):
    """The tiled GEMM of Warp's tile examples, for `wp` (treadle or Warp)."""
    tm, tn, tk = wp.constant(TILE_M), wp.constant(TILE_N), wp.constant(TILE_K)

    @wp.kernel(module="unique")
    def gemm(A: wp.array2d(dtype=dtype), B: wp.array2d(dtype=dtype), C: wp.array2d(dtype=float)):
        i, j = wp.tid()
        acc = wp.tile_zeros(shape=(tm, tn), dtype=wp.float32)
        count = int(A.shape[1] / tk)
        for k in range(count):
            a = wp.tile_load(A, shape=(tm, tk), offset=(i * tm, k * tk))
            b = wp.tile_load(B, shape=(tk, tn), offset=(k * tk, j * tn))
            wp.tile_matmul(a, b, acc)
        wp.tile_store(C, acc, offset=(i * tm, j * tn))

    return gemm


def time_cuda(run, sync, reps):
    run()
    sync()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        run()
        sync()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def bench_impl(name, wp, n, precision, reps, reference):
    dtype = wp.float16 if precision == "fp16" else wp.float32
    np_dtype = np.float16 if precision == "fp16" else np.float32
    rng = np.random.default_rng(1)
    a_np = rng.standard_normal((n, n)).astype(np_dtype)
    b_np = rng.standard_normal((n, n)).astype(np_dtype)
    A = wp.array(a_np, dtype=dtype, device="cuda:0")
    B = wp.array(b_np, dtype=dtype, device="cuda:0")
    C = wp.zeros((n, n), dtype=float, device="cuda:0")
    kernel = make_gemm(wp, dtype)
    grid = [n // TILE_M, n // TILE_N]

    def run():
        wp.launch_tiled(kernel, dim=grid, inputs=[A, B, C], block_dim=BLOCK_DIM, device="cuda:0")

    seconds = time_cuda(run, wp.synchronize, reps)
    err = None
    if reference is not None:
        got = C.numpy()[:256, :256]
        err = float(np.max(np.abs(got - reference)) / (np.max(np.abs(reference)) + 1e-30))
    emit(bench="tile_gemm", impl=name, precision=precision, n=n, ms=seconds * 1e3,
         tflops=2.0 * n**3 / seconds / 1e12, max_rel_err_256=err,
         tile=[TILE_M, TILE_N, TILE_K], block_dim=BLOCK_DIM)
    return seconds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--warp-path", default=None)
    args = ap.parse_args()
    n = args.size
    import torch

    import treadle

    peers = [("treadle", treadle)]
    if args.warp_path:
        sys.path.insert(0, args.warp_path)
        try:
            warp = importlib.import_module("warp")
            warp.init()
            peers.append(("warp", warp))
        except Exception as e:  # a missing or broken build: treadle and cuBLAS only
            emit(bench="tile_gemm", impl="warp", skipped=str(e)[:200])
    for precision in ("fp32", "fp16"):
        tdtype = torch.float16 if precision == "fp16" else torch.float32
        rng = np.random.default_rng(1)
        np_dtype = np.float16 if precision == "fp16" else np.float32
        a = torch.from_numpy(rng.standard_normal((n, n)).astype(np_dtype)).cuda()
        b = torch.from_numpy(rng.standard_normal((n, n)).astype(np_dtype)).cuda()
        reference = (a[:256].float() @ b[:, :256].float()).cpu().numpy()
        for tf32 in ((False, True) if precision == "fp32" else (False,)):
            torch.backends.cuda.matmul.allow_tf32 = tf32
            s = time_cuda(lambda: torch.matmul(a, b), torch.cuda.synchronize, args.reps)
            emit(bench="tile_gemm", impl="cublas" + ("_tf32" if tf32 else ""),
                 precision=precision, n=n, ms=s * 1e3, tflops=2.0 * n**3 / s / 1e12)
        torch.backends.cuda.matmul.allow_tf32 = False
        for name, mod in peers:
            try:
                bench_impl(name, mod, n, precision, args.reps, reference)
            except Exception as e:
                emit(bench="tile_gemm", impl=name, precision=precision, error=str(e)[:300])


if __name__ == "__main__":
    main()
