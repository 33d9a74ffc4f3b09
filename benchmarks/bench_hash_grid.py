"""Hash-grid benchmark: build and one neighbour-count query pass over a million particles.

Prints one JSON object per line (treadle, then Warp when it is importable):

    PYTHONPATH=python python3 benchmarks/bench_hash_grid.py [--device cpu] [--n 1000000]
"""

import argparse
import json
import time

import numpy as np


def _bench(wp, name, device, pts, radius, reps):
    @wp.kernel
    def count(grid: wp.uint64, x: wp.array(dtype=wp.vec3), r: float, out: wp.array(dtype=int)):
        t = wp.tid()
        i = wp.hash_grid_point_id(grid, t)
        p = x[i]
        c = int(0)
        for j in wp.hash_grid_query(grid, p, r):
            if wp.length(p - x[j]) <= r:
                c += 1
        out[i] = c

    x = wp.array(pts, dtype=wp.vec3, device=device)
    out = wp.zeros(len(pts), dtype=int, device=device)
    grid = wp.HashGrid(128, 128, 128, device=device)
    grid.build(x, radius)
    wp.launch(count, dim=len(pts), inputs=[grid.id, x, radius, out], device=device)
    wp.synchronize_device(device)
    t0 = time.perf_counter()
    for _ in range(reps):
        grid.build(x, radius)
    wp.synchronize_device(device)
    t1 = time.perf_counter()
    for _ in range(reps):
        wp.launch(count, dim=len(pts), inputs=[grid.id, x, radius, out], device=device)
    wp.synchronize_device(device)
    t2 = time.perf_counter()
    print(json.dumps({"bench": "hash_grid", "impl": name, "device": str(device),
                      "points": len(pts), "build_ms": 1e3 * (t1 - t0) / reps,
                      "query_ms": 1e3 * (t2 - t1) / reps,
                      "mean_neighbours": float(out.numpy().mean())}))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    side = 10.0
    pts = np.random.default_rng(0).uniform(0.0, side, (args.n, 3)).astype(np.float32)
    radius = side * (30.0 / (4.0 / 3.0 * np.pi * args.n)) ** (1.0 / 3.0)  # ~30 neighbours
    import treadle

    _bench(treadle, "treadle", args.device, pts, float(radius), args.reps)
    try:
        import warp
    except ImportError:
        return
    warp.init()
    _bench(warp, "warp", args.device, pts, float(radius), args.reps)


if __name__ == "__main__":
    main()
