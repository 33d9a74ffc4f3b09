"""Deterministic mode's cost: a 10^6-element float atomic_add reduction into one cell, a
scatter into 1,024 bins, and cloth-spring forces (two vec3 atomics per spring, 128^2
particles), and a stream compaction of 10^6 values through a counter (an int32 atomic_add whose
result is the slot), each in the default mode and with wp.DeterministicMode.RUN_TO_RUN and
GPU_TO_GPU.

Prints one JSON object per line (treadle, then Warp when it is importable):

    PYTHONPATH=python python3 benchmarks/bench_deterministic.py [--device cpu] [--reps 10]
"""

import argparse
import json
import time

import numpy as np


def _kernels(wp, mode):
    options = {"deterministic": mode}

    @wp.kernel(module="unique", module_options=options)
    def reduce_one(data: wp.array(dtype=float), out: wp.array(dtype=float)):
        wp.atomic_add(out, 0, data[wp.tid()])

    @wp.kernel(module="unique", module_options=options)
    def scatter(data: wp.array(dtype=float), idx: wp.array(dtype=int), out: wp.array(dtype=float)):
        i = wp.tid()
        wp.atomic_add(out, idx[i], data[i])

    @wp.kernel(module="unique", module_options=options)
    def springs(x: wp.array(dtype=wp.vec3), pairs: wp.array(dtype=int, ndim=2),
                rest: wp.array(dtype=float), f: wp.array(dtype=wp.vec3)):
        s = wp.tid()
        a = pairs[s, 0]
        b = pairs[s, 1]
        d = x[b] - x[a]
        length = wp.length(d)
        force = d / length * ((length - rest[s]) * 100.0)
        wp.atomic_add(f, a, force)
        wp.atomic_sub(f, b, force)

    @wp.kernel(module="unique", module_options=options)
    def compact(data: wp.array(dtype=float), count: wp.array(dtype=wp.int32),
                out: wp.array(dtype=float)):
        i = wp.tid()
        if data[i] > 0.0:
            slot = wp.atomic_add(count, 0, 1)
            out[slot] = data[i]

    return reduce_one, scatter, springs, compact


def _cloth(n):
    grid = np.stack(np.meshgrid(np.arange(n), np.arange(n), indexing="ij"), -1).reshape(-1, 2)
    x = np.concatenate([grid, np.zeros((n * n, 1))], 1).astype(np.float32) * np.float32(0.1)
    ids = np.arange(n * n).reshape(n, n)
    pairs = np.concatenate([np.stack([ids[:-1, :].ravel(), ids[1:, :].ravel()], 1),
                            np.stack([ids[:, :-1].ravel(), ids[:, 1:].ravel()], 1)]).astype(np.int32)
    rest = np.full(len(pairs), 0.09, np.float32)
    return x, pairs, rest


def _time(wp, device, reps, launch):
    launch()
    wp.synchronize_device(device)
    t0 = time.perf_counter()
    for _ in range(reps):
        launch()
    wp.synchronize_device(device)
    return 1e3 * (time.perf_counter() - t0) / reps


def _bench(wp, name, device, reps):
    rng = np.random.default_rng(0)
    data = wp.array(rng.standard_normal(10**6).astype(np.float32), device=device)
    idx = wp.array(rng.integers(0, 1024, 10**6).astype(np.int32), device=device)
    out1 = wp.zeros(1, dtype=float, device=device)
    bins = wp.zeros(1024, dtype=float, device=device)
    xs, pairs_np, rest_np = _cloth(128)
    x = wp.array(xs, dtype=wp.vec3, device=device)
    pairs = wp.array(pairs_np, device=device)
    rest = wp.array(rest_np, device=device)
    f = wp.zeros(len(xs), dtype=wp.vec3, device=device)
    count = wp.zeros(1, dtype=wp.int32, device=device)
    compacted = wp.zeros(10**6, dtype=float, device=device)
    row = {"bench": "deterministic", "impl": name, "device": str(device)}
    for label, mode in (("default", wp.DeterministicMode.NOT_GUARANTEED),
                        ("run_to_run", wp.DeterministicMode.RUN_TO_RUN),
                        ("gpu_to_gpu", wp.DeterministicMode.GPU_TO_GPU)):
        reduce_one, scatter, springs, compact = _kernels(wp, mode)
        row[f"reduce_1e6_{label}_ms"] = _time(wp, device, reps, lambda: wp.launch(
            reduce_one, dim=10**6, inputs=[data, out1], device=device))
        row[f"scatter_1e6_1024_{label}_ms"] = _time(wp, device, reps, lambda: wp.launch(
            scatter, dim=10**6, inputs=[data, idx, bins], device=device))
        row[f"cloth_128_{label}_ms"] = _time(wp, device, reps, lambda: wp.launch(
            springs, dim=len(pairs_np), inputs=[x, pairs, rest, f], device=device))
        row[f"compact_1e6_{label}_ms"] = _time(wp, device, reps, lambda: (count.zero_(), wp.launch(
            compact, dim=10**6, inputs=[data, count, compacted], device=device)))
    print(json.dumps(row))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--reps", type=int, default=10)
    args = parser.parse_args()
    import treadle

    _bench(treadle, "treadle", args.device, args.reps)
    try:
        import warp
    except ImportError:
        return
    warp.init()
    if not hasattr(warp, "DeterministicMode"):
        return
    _bench(warp, "warp", args.device, args.reps)


if __name__ == "__main__":
    main()
