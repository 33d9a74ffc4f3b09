"""Tile benchmarks: a tile_matmul GEMM (C = A @ B, fp32 accumulation) against the vendor
library (cuBLAS through PyTorch on CUDA, numpy's BLAS on the CPU) and, where it imports, Warp
running the same kernel source. Prints JSON lines.

    PYTHONPATH=python python3 benchmarks/bench_tile.py [--size 4096] [--warp-path DIR]
    PYTHONPATH=python python3 benchmarks/bench_tile.py --device cpu [--size 512] [--warp-path DIR]

`--warp-path` names a directory from which `import warp` gives Warp (on CUDA a CUDA build, for
instance build/peers-warp from ../shared/peers/build_warp_cuda.sh; on the CPU the wheel's
site-packages, e.g. build/conformance-cache/reference-venv/lib/python3.11/site-packages);
without it only treadle and the vendor library are measured. The CPU run uses 32 x 32 tiles
and blocks of 64 threads (a CPU block is one thread either way).
"""

import argparse
import importlib
import json
import sys
import time

import numpy as np

TILE_M, TILE_N, TILE_K = 64, 64, 64
BLOCK_DIM = 256
CPU_TILE, CPU_BLOCK_DIM = 32, 64


def emit(**record):
    print(json.dumps(record), flush=True)


def make_gemm(wp, dtype, tile):
    """The tiled GEMM of Warp's tile examples, for `wp` (treadle or Warp)."""
    tm, tn, tk = wp.constant(tile[0]), wp.constant(tile[1]), wp.constant(tile[2])

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


def bench_impl(name, wp, n, precision, reps, reference, device):
    dtype = wp.float16 if precision == "fp16" else wp.float32
    np_dtype = np.float16 if precision == "fp16" else np.float32
    rng = np.random.default_rng(1)
    a_np = rng.standard_normal((n, n)).astype(np_dtype)
    b_np = rng.standard_normal((n, n)).astype(np_dtype)
    A = wp.array(a_np, dtype=dtype, device=device)
    B = wp.array(b_np, dtype=dtype, device=device)
    C = wp.zeros((n, n), dtype=float, device=device)
    cpu = device == "cpu"
    tile = (CPU_TILE,) * 3 if cpu else (TILE_M, TILE_N, TILE_K)
    block_dim = CPU_BLOCK_DIM if cpu else BLOCK_DIM
    kernel = make_gemm(wp, dtype, tile)
    grid = [n // tile[0], n // tile[1]]

    def run():
        wp.launch_tiled(kernel, dim=grid, inputs=[A, B, C], block_dim=block_dim, device=device)

    seconds = time_cuda(run, wp.synchronize, reps)
    err = None
    if reference is not None:
        got = C.numpy()[:256, :256]
        err = float(np.max(np.abs(got - reference)) / (np.max(np.abs(reference)) + 1e-30))
    emit(bench="tile_gemm", impl=name, device=device, precision=precision, n=n,
         ms=seconds * 1e3, tflops=2.0 * n**3 / seconds / 1e12, max_rel_err_256=err,
         tile=list(tile), block_dim=block_dim)
    return seconds


def vendor_rows(n, reps, device):
    """The vendor library's GEMM for each precision (cuBLAS with and without TF32 on CUDA,
    numpy on the CPU), and the reference block C[:256, :256] of each precision's inputs."""
    references = {}
    for precision in ("fp32", "fp16"):
        rng = np.random.default_rng(1)
        np_dtype = np.float16 if precision == "fp16" else np.float32
        a_np = rng.standard_normal((n, n)).astype(np_dtype)
        b_np = rng.standard_normal((n, n)).astype(np_dtype)
        references[precision] = a_np[:256].astype(np.float32) @ b_np[:, :256].astype(np.float32)
        if device == "cpu":
            a32, b32 = a_np.astype(np.float32), b_np.astype(np.float32)
            s = time_cuda(lambda: a32 @ b32, lambda: None, reps)
            emit(bench="tile_gemm", impl="numpy_blas", device=device, precision=precision,
                 n=n, ms=s * 1e3, tflops=2.0 * n**3 / s / 1e12, note="inputs as float32")
            continue
        import torch

        tdtype = torch.float16 if precision == "fp16" else torch.float32
        a = torch.from_numpy(a_np).to(tdtype).cuda()
        b = torch.from_numpy(b_np).to(tdtype).cuda()
        for tf32 in ((False, True) if precision == "fp32" else (False,)):
            torch.backends.cuda.matmul.allow_tf32 = tf32
            s = time_cuda(lambda: torch.matmul(a, b), torch.cuda.synchronize, reps)
            emit(bench="tile_gemm", impl="cublas" + ("_tf32" if tf32 else ""), device=device,
                 precision=precision, n=n, ms=s * 1e3, tflops=2.0 * n**3 / s / 1e12)
        torch.backends.cuda.matmul.allow_tf32 = False
    return references


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cuda:0", help="cuda:0 (default) or cpu")
    ap.add_argument("--size", type=int, default=None, help="n (4096 on CUDA, 512 on the CPU)")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--warp-path", default=None)
    args = ap.parse_args()
    device = args.device
    n = args.size or (512 if device == "cpu" else 4096)

    import treadle

    peers = [("treadle", treadle)]
    if args.warp_path:
        sys.path.insert(0, args.warp_path)
        try:
            warp = importlib.import_module("warp")
            warp.init()
            peers.append(("warp", warp))
        except Exception as e:  # a missing or broken build: treadle and the vendor only
            emit(bench="tile_gemm", impl="warp", skipped=str(e)[:200])
    references = vendor_rows(n, args.reps, device)
    for precision in ("fp32", "fp16"):
        for name, mod in peers:
            try:
                bench_impl(name, mod, n, precision, args.reps, references[precision], device)
            except Exception as e:
                emit(bench="tile_gemm", impl=name, device=device, precision=precision,
                     error=str(e)[:300])


if __name__ == "__main__":
    main()
