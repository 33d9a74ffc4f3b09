"""CUDA benchmarks: launch overhead against the driver floor and peers, graph-free saxpy
bandwidth against nvcc, compile/load times. Prints JSON lines. Needs a GPU:

    PYTHONPATH=python python3 benchmarks/bench_cuda.py [--reference path/to/cuda_reference]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time

import numpy as np

import treadle as wp


def emit(**record):
    print(json.dumps(record), flush=True)


@wp.kernel
def empty0():
    i = wp.tid()


@wp.kernel
def empty1(x: wp.array(dtype=float)):
    i = wp.tid()


@wp.kernel
def mixed12(a: wp.array(dtype=float), b: wp.array(dtype=float), c: wp.array(dtype=float),
            d: wp.array(dtype=float), n0: int, n1: int, n2: int, s0: float, s1: float,
            v0: wp.vec3, v1: wp.vec3, big: wp.int64):
    i = wp.tid()


@wp.kernel
def mat33x3(m0: wp.mat33, m1: wp.mat33, m2: wp.mat33):
    i = wp.tid()


def mixed12_args(a):
    """4 arrays, 3 ints, 2 floats, 2 vec3, 1 int64 (the raw floor's mixed_kernel has the same)."""
    return [a, a, a, a, 1, 2, 3, 1.0, 2.0, wp.vec3(1.0, 2.0, 3.0), wp.vec3(4.0, 5.0, 6.0), 5]


@wp.kernel
def saxpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = a * x[i] + y[i]


def time_loop(fn, iters=20000, reps=5, sync=None):
    best = float("inf")
    for _ in range(reps):
        if sync:
            sync()
        t0 = time.perf_counter()
        for _ in range(iters):
            fn()
        t1 = time.perf_counter()
        best = min(best, (t1 - t0) / iters)
    if sync:
        sync()
    return best * 1e6


def launch_overhead(dev):
    a = wp.zeros(1, dtype=wp.float32, device=dev)
    m = wp.mat33(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0)
    rows = ((empty0, [], 0, "no arguments"), (empty1, [a], 1, "1 array"),
            (mixed12, mixed12_args(a), 12, "4 arrays, 3 int, 2 float, 2 vec3, 1 int64"),
            (mat33x3, [m, m, m], 3, "3 mat33"))
    sync = wp.synchronize
    for kernel, inputs, count, what in rows:
        wp.launch(kernel, dim=1, inputs=inputs, device=dev)
        us = time_loop(lambda k=kernel, i=inputs: wp.launch(k, dim=1, inputs=i, device=dev),
                       sync=sync)
        emit(bench="launch_overhead", impl="treadle wp.launch", args=count, kinds=what,
             us=round(us, 3))
    try:
        import cupy as cp

        k = cp.RawKernel(r'extern "C" __global__ void e() {}', "e")
        k((1,), (32,), ())
        emit(bench="launch_overhead", impl="cupy RawKernel", args=0,
             us=round(time_loop(lambda: k((1,), (32,), ()), sync=cp.cuda.runtime.deviceSynchronize), 3))
    except Exception as e:  # noqa: BLE001 - a peer missing is not a failure
        emit(bench="launch_overhead", impl="cupy RawKernel", error=str(e)[:200])
    try:
        import torch

        t = torch.zeros(1, device="cuda")
        t.add_(1.0)
        emit(bench="launch_overhead", impl="torch add_ (1 element)", args=2,
             us=round(time_loop(lambda: t.add_(1.0), sync=torch.cuda.synchronize), 3))
    except Exception as e:  # noqa: BLE001
        emit(bench="launch_overhead", impl="torch add_", error=str(e)[:200])


def graph_replay(dev):
    """Cost per captured kernel when a graph of 10 empty launches is replayed."""
    a = wp.zeros(1, dtype=wp.float32, device=dev)
    args12 = mixed12_args(a)
    wp.launch(mixed12, dim=1, inputs=args12, device=dev)
    with wp.ScopedCapture(device=dev) as capture:
        for _ in range(10):
            wp.launch(mixed12, dim=1, inputs=args12, device=dev)
    graph = capture.graph
    wp.capture_launch(graph)
    us = time_loop(lambda: wp.capture_launch(graph), iters=5000, sync=wp.synchronize)
    emit(bench="graph_replay", impl="treadle capture_launch", kernels_per_graph=10,
         us_per_graph=round(us, 3), us_per_kernel=round(us / 10, 3))


def saxpy_bandwidth(dev):
    n = 1 << 28
    x = wp.zeros(n, dtype=wp.float32, device=dev)
    y = wp.zeros(n, dtype=wp.float32, device=dev)
    x.fill_(1.0)
    wp.launch(saxpy, dim=n, inputs=[2.0, x, y], device=dev)
    wp.synchronize()
    import cupy as cp  # its events time the legacy stream, which our blocking default stream joins

    start, stop = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for _ in range(10):
        start.record()
        wp.launch(saxpy, dim=n, inputs=[2.0, x, y], device=dev)
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop) * 1e-3)
    s = sorted(times)[len(times) // 2]
    emit(bench="saxpy_2p28", impl="treadle", ms=round(s * 1e3, 4), gb_s=round(12 * n / s / 1e9, 1),
         note="device-timed with events, median of 10")
    check = y.numpy()[:: n // 7]
    assert np.all(check == 2.0 * 11), check  # 11 launches of y += 2 * 1


@wp.kernel
def nbody(px: wp.array(dtype=float), py: wp.array(dtype=float), pz: wp.array(dtype=float),
          m: wp.array(dtype=float), ax: wp.array(dtype=float), ay: wp.array(dtype=float),
          az: wp.array(dtype=float), n: int, eps2: float):
    i = wp.tid()
    xi = px[i]
    yi = py[i]
    zi = pz[i]
    fx = 0.0
    fy = 0.0
    fz = 0.0
    for j in range(n):
        dx = px[j] - xi
        dy = py[j] - yi
        dz = pz[j] - zi
        r2 = dx * dx + dy * dy + dz * dz + eps2
        inv = 1.0 / wp.sqrt(r2)
        s = m[j] * inv * inv * inv
        fx += dx * s
        fy += dy * s
        fz += dz * s
    ax[i] = fx
    ay[i] = fy
    az[i] = fz


def nbody_throughput(dev):
    """All-pairs gravity on float arrays (vec3 arrives with the vector types)."""
    import cupy as cp

    n = 65536
    rng = np.random.default_rng(7)
    host = rng.random((4, n), dtype=np.float32)
    px, py, pz, m = (wp.array(host[k], device=dev) for k in range(4))
    ax, ay, az = (wp.zeros(n, dtype=wp.float32, device=dev) for _ in range(3))
    inputs = [px, py, pz, m, ax, ay, az, n, 0.01]
    wp.launch(nbody, dim=n, inputs=inputs, device=dev)
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for _ in range(5):
        start.record()
        wp.launch(nbody, dim=n, inputs=inputs, device=dev)
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop) * 1e-3)
    s = sorted(times)[len(times) // 2]
    emit(bench="nbody_65536", impl="treadle", ms=round(s * 1e3, 3),
         ginteractions_s=round(n * n / s / 1e9, 1))
    # check a few bodies against float64 numpy
    idx = np.arange(0, n, n // 16)
    d = host[:3, None, :].astype(np.float64) - host[:3, idx, None]
    r2 = (d ** 2).sum(axis=0) + 0.01
    ref = (d * (host[3][None, None, :] / r2 ** 1.5)).sum(axis=2)
    got = np.stack([ax.numpy()[idx], ay.numpy()[idx], az.numpy()[idx]])
    assert np.allclose(got, ref, rtol=1e-3, atol=1e-2), np.abs(got - ref).max()


CHILD = textwrap.dedent(
    """
    import json, time, treadle as wp
    @wp.kernel
    def saxpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        y[i] = a * x[i] + y[i]
    wp.init()
    wp.zeros(1, dtype=float, device="cuda:0")  # create the CUDA context outside the timing
    t0 = time.perf_counter()
    h = saxpy._compile("cuda:0")
    print(json.dumps({"ms": (time.perf_counter() - t0) * 1e3, "from_cache": h.from_cache}))
    """
)


def compile_times():
    with tempfile.TemporaryDirectory() as d:
        script = os.path.join(d, "k.py")
        with open(script, "w") as f:
            f.write(CHILD)
        env = dict(os.environ, TREADLE_CACHE_DIR=os.path.join(d, "cache"))
        for label in ("cold_compile_saxpy", "warm_load_saxpy"):
            out = subprocess.run([sys.executable, script], env=env, check=True,
                                 capture_output=True, text=True).stdout
            r = json.loads(out.strip().splitlines()[-1])
            emit(bench=label, device="cuda:0", ms=round(r["ms"], 2), from_cache=r["from_cache"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reference", help="the built cuda_reference binary")
    args = parser.parse_args()
    wp.init()
    dev = "cuda:0"
    emit(bench="device", name=wp.get_device(dev).name)
    compile_times()
    launch_overhead(dev)
    graph_replay(dev)
    saxpy_bandwidth(dev)
    nbody_throughput(dev)
    if args.reference:
        print(subprocess.run([args.reference], check=True, capture_output=True, text=True).stdout,
              end="", flush=True)


if __name__ == "__main__":
    main()
