"""Mesh benchmark on a 1-million-triangle surface: BVH build (wp.Mesh construction) and refit,
a wp.Bvh build and rebuild over the face boxes (the device's default constructor),
ray casts of a 1,024^2 image (mesh_query_ray), and closest points for 10^6 query points
(mesh_query_point_no_sign).

Prints one JSON object per line (treadle, then Warp when it is importable):

    PYTHONPATH=python python3 benchmarks/bench_mesh.py [--device cpu] [--side 708]
"""

import argparse
import json
import time

import numpy as np


def _surface(side):
    """A wavy height field of 2 * (side - 1)^2 triangles over [-1, 1]^2."""
    u = np.linspace(-1.0, 1.0, side, dtype=np.float32)
    gx, gy = np.meshgrid(u, u, indexing="ij")
    gz = 0.1 * np.sin(6.0 * gx) * np.cos(5.0 * gy)
    points = np.stack([gx, gy, gz], -1).reshape(-1, 3).astype(np.float32)
    ids = np.arange(side * side, dtype=np.int32).reshape(side, side)
    a, b, c, d = ids[:-1, :-1], ids[1:, :-1], ids[1:, 1:], ids[:-1, 1:]
    tris = np.concatenate([np.stack([a, b, c], -1).reshape(-1, 3),
                           np.stack([a, c, d], -1).reshape(-1, 3)])
    return points, tris.reshape(-1).astype(np.int32)


def _bench(wp, name, device, points, indices, reps):
    @wp.kernel
    def cast(mesh: wp.uint64, width: int, out: wp.array(dtype=float)):
        tid = wp.tid()
        px = float(tid % width) / float(width) * 2.0 - 1.0
        py = float(tid // width) / float(width) * 2.0 - 1.0
        q = wp.mesh_query_ray(mesh, wp.vec3(px, py, 2.0), wp.vec3(0.0, 0.0, -1.0), 10.0)
        out[tid] = wp.where(q.result, q.t, -1.0)

    @wp.kernel
    def closest(mesh: wp.uint64, pts: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
        tid = wp.tid()
        q = wp.mesh_query_point_no_sign(mesh, pts[tid], 10.0)
        out[tid] = wp.where(q.result, wp.length(wp.mesh_eval_position(mesh, q.face, q.u, q.v)
                                                - pts[tid]), -1.0)

    p = wp.array(points, dtype=wp.vec3, device=device)
    ix = wp.array(indices, dtype=int, device=device)
    mesh = wp.Mesh(points=p, indices=ix)
    wp.synchronize_device(device)
    t0 = time.perf_counter()
    for _ in range(reps):
        mesh = wp.Mesh(points=p, indices=ix)
    wp.synchronize_device(device)
    t_built = time.perf_counter()
    mesh.refit()  # warm: the refit's kernels are loaded
    wp.synchronize_device(device)
    t1 = time.perf_counter()
    for _ in range(10 * reps):
        mesh.refit()
    wp.synchronize_device(device)
    t2 = time.perf_counter()
    # the mesh with an lbvh face tree (on CUDA built on the device by both)
    lmesh = wp.Mesh(points=p, indices=ix, bvh_constructor="lbvh")
    wp.synchronize_device(device)
    tl0 = time.perf_counter()
    for _ in range(reps):
        lmesh = wp.Mesh(points=p, indices=ix, bvh_constructor="lbvh")
    wp.synchronize_device(device)
    tl1 = time.perf_counter()
    # wp.Bvh over the face boxes with the device's default constructor (lbvh on CUDA)
    tri = points[indices.reshape(-1, 3)]
    lows = wp.array(tri.min(axis=1), dtype=wp.vec3, device=device)
    highs = wp.array(tri.max(axis=1), dtype=wp.vec3, device=device)
    bvh = wp.Bvh(lows, highs)
    wp.synchronize_device(device)
    tb0 = time.perf_counter()
    for _ in range(reps):
        bvh = wp.Bvh(lows, highs)
    wp.synchronize_device(device)
    tb1 = time.perf_counter()
    for _ in range(reps):
        bvh.rebuild()
    wp.synchronize_device(device)
    tb2 = time.perf_counter()
    width = 1024
    image = wp.zeros(width * width, dtype=float, device=device)
    wp.launch(cast, dim=width * width, inputs=[mesh.id, width, image], device=device)
    wp.synchronize_device(device)
    t3 = time.perf_counter()
    for _ in range(reps):
        wp.launch(cast, dim=width * width, inputs=[mesh.id, width, image], device=device)
    wp.synchronize_device(device)
    t4 = time.perf_counter()
    wp.launch(cast, dim=width * width, inputs=[lmesh.id, width, image], device=device)
    wp.synchronize_device(device)
    tr0 = time.perf_counter()
    for _ in range(reps):
        wp.launch(cast, dim=width * width, inputs=[lmesh.id, width, image], device=device)
    wp.synchronize_device(device)
    tr1 = time.perf_counter()
    wp.launch(cast, dim=width * width, inputs=[mesh.id, width, image], device=device)
    queries = np.random.default_rng(0).uniform(-1.0, 1.0, (10**6, 3)).astype(np.float32)
    qp = wp.array(queries, dtype=wp.vec3, device=device)
    dist = wp.zeros(len(queries), dtype=float, device=device)
    wp.launch(closest, dim=len(queries), inputs=[mesh.id, qp, dist], device=device)
    wp.synchronize_device(device)
    t5 = time.perf_counter()
    for _ in range(reps):
        wp.launch(closest, dim=len(queries), inputs=[mesh.id, qp, dist], device=device)
    wp.synchronize_device(device)
    t6 = time.perf_counter()
    print(json.dumps({
        "bench": "mesh", "impl": name, "device": str(device), "triangles": len(indices) // 3,
        "bvh_build_ms": 1e3 * (t_built - t0) / reps, "refit_ms": 1e3 * (t2 - t1) / (10 * reps),
        "bvh_boxes_build_ms": 1e3 * (tb1 - tb0) / reps, "bvh_boxes_rebuild_ms": 1e3 * (tb2 - tb1) / reps,
        "rays_per_s": width * width * reps / (t4 - t3),
        "mesh_lbvh_build_ms": 1e3 * (tl1 - tl0) / reps,
        "rays_per_s_lbvh": width * width * reps / (tr1 - tr0),
        "query_point_per_s": len(queries) * reps / (t6 - t5),
        "hit_fraction": float((image.numpy() >= 0).mean()),
        "mean_distance": float(dist.numpy().mean())}))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--side", type=int, default=708)  # 2 * 707^2 = 999,698 triangles
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    points, indices = _surface(args.side)
    import treadle

    _bench(treadle, "treadle", args.device, points, indices, args.reps)
    try:
        import warp
    except ImportError:
        return
    warp.init()
    _bench(warp, "warp", args.device, points, indices, args.reps)


if __name__ == "__main__":
    main()
