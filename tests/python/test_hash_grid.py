"""wp.HashGrid against numpy brute force: neighbour sets for float16/32/64 points, point ids,
groups, strided and multi-dimensional points, reserve and rebuild, errors, the backward pass of
a kernel that queries, and the CUDA compile of the query header."""

from typing import Any

import numpy as np
import pytest

import treadle as wp
from treadle import _treadle

VEC3 = {wp.float16: wp.vec3h, wp.float32: wp.vec3f, wp.float64: wp.vec3d}


@wp.kernel
def neighbour_matrix(grid: wp.uint64, radius: Any, points: wp.array(dtype=Any),
                     hits: wp.array2d(dtype=int)):
    i = wp.tid()
    p = points[i]
    for j in wp.hash_grid_query(grid, p, radius):
        if wp.length(p - points[j]) <= radius:
            hits[i, j] = hits[i, j] + 1


@wp.kernel
def neighbour_matrix_next(grid: wp.uint64, radius: float, points: wp.array(dtype=wp.vec3),
                          hits: wp.array2d(dtype=int)):
    i = wp.tid()
    p = points[i]
    query = wp.hash_grid_query(grid, p, radius)
    j = int(0)
    while wp.hash_grid_query_next(query, j):
        if wp.length(p - points[j]) <= radius:
            hits[i, j] = hits[i, j] + 1


@wp.kernel
def point_ids(grid: wp.uint64, out: wp.array(dtype=int)):
    i = wp.tid()
    out[i] = wp.hash_grid_point_id(grid, i)


def _brute(points, radius):
    d = np.linalg.norm(points[:, None, :] - points[None, :, :], axis=-1)
    return d <= radius, np.abs(d - radius) < 1e-2 * radius


def _cloud(n, seed=1, scale=4.0):
    return np.random.default_rng(seed).uniform(-scale, scale, (n, 3))


@pytest.mark.parametrize("dtype", [wp.float16, wp.float32, wp.float64])
def test_neighbour_sets_match_brute_force(dtype):
    pts = _cloud(300, scale=3.0)
    radius = 0.9
    arr = wp.array(pts, dtype=VEC3[dtype], device="cpu")
    grid = wp.HashGrid(8, 8, 8, device="cpu", dtype=dtype)
    assert grid.dtype is dtype
    grid.build(arr, radius)
    hits = wp.zeros((300, 300), dtype=int, device="cpu")
    wp.launch(neighbour_matrix, dim=300, inputs=[wp.uint64(grid.id), dtype(radius), arr, hits],
              device="cpu")
    got = hits.numpy()
    assert got.max() == 1  # every point visited at most once
    ref, near = _brute(arr.numpy().astype(np.float64), radius)
    assert np.array_equal(got.astype(bool) | near, ref | near)
    assert ref.sum() > 600  # the cloud has real neighbourhoods


def test_query_next_loop_and_wrapping_grid():
    # a grid of 2 x 2 x 2 cells wraps the cloud many times over: queries still find each
    # neighbour once
    pts = _cloud(200, seed=2)
    arr = wp.array(pts, dtype=wp.vec3, device="cpu")
    grid = wp.HashGrid(2, 2, 2, device="cpu")
    grid.build(arr, 0.7)
    hits = wp.zeros((200, 200), dtype=int, device="cpu")
    wp.launch(neighbour_matrix_next, dim=200, inputs=[wp.uint64(grid.id), 0.7, arr, hits],
              device="cpu")
    ref, near = _brute(arr.numpy().astype(np.float64), 0.7)
    got = hits.numpy()
    assert got.max() == 1
    assert np.array_equal(got.astype(bool) | near, ref | near)


def test_point_ids_are_a_permutation_sorted_by_cell():
    pts = _cloud(500, seed=3)
    arr = wp.array(pts, dtype=wp.vec3, device="cpu")
    grid = wp.HashGrid(16, 16, 16, device="cpu")
    grid.build(arr, 0.5)
    out = wp.zeros(502, dtype=int, device="cpu")
    wp.launch(point_ids, dim=502, inputs=[wp.uint64(grid.id), out], device="cpu")
    ids = out.numpy()
    assert sorted(ids[:500]) == list(range(500))
    assert list(ids[500:]) == [-1, -1]
    c = np.floor(arr.numpy().astype(np.float64) / 0.5).astype(int) % 16
    cell = (c[:, 2] * 16 + c[:, 1]) * 16 + c[:, 0]
    assert np.all(np.diff(cell[ids[:500]]) >= 0)


def test_point_id_of_an_unbuilt_grid_is_minus_one():
    grid = wp.HashGrid(4, 4, 4, device="cpu")
    out = wp.zeros(1, dtype=int, device="cpu")
    wp.launch(point_ids, dim=1, inputs=[wp.uint64(grid.id), out], device="cpu")
    assert out.numpy()[0] == -1


def test_strided_and_multidimensional_points():
    pts = _cloud(128, seed=4)
    ref_arr = wp.array(pts, dtype=wp.vec3, device="cpu")
    buf = wp.zeros(128 * 3, dtype=wp.vec3, device="cpu")
    strided = buf[::3]
    wp.copy(strided, ref_arr)
    nd = wp.array(pts.reshape(8, 16, 3), dtype=wp.vec3, device="cpu")
    ref, near = _brute(pts.astype(np.float32).astype(np.float64), 1.0)
    for points in (strided, nd):
        grid = wp.HashGrid(8, 8, 8, device="cpu")
        grid.build(points, 1.0)
        hits = wp.zeros((128, 128), dtype=int, device="cpu")
        wp.launch(neighbour_matrix, dim=128, inputs=[wp.uint64(grid.id), 1.0, ref_arr, hits],
                  device="cpu")
        assert np.array_equal(hits.numpy().astype(bool) | near, ref | near)


def test_reserve_and_rebuild_keep_the_id():
    grid = wp.HashGrid(8, 8, 8, device="cpu")
    assert not grid.reserved
    grid.reserve(1000)
    assert grid.reserved
    gid = grid.id
    for seed, n in ((5, 50), (6, 400), (7, 1500)):
        pts = _cloud(n, seed=seed)
        arr = wp.array(pts, dtype=wp.vec3, device="cpu")
        grid.build(arr, 0.8)
        assert grid.id == gid
        hits = wp.zeros((n, n), dtype=int, device="cpu")
        wp.launch(neighbour_matrix, dim=n, inputs=[wp.uint64(grid.id), 0.8, arr, hits],
                  device="cpu")
        ref, near = _brute(arr.numpy().astype(np.float64), 0.8)
        assert np.array_equal(hits.numpy().astype(bool) | near, ref | near)


@wp.kernel
def grouped_counts(grid: wp.uint64, radius: float, points: wp.array(dtype=wp.vec3),
                   groups: wp.array(dtype=int), counts: wp.array(dtype=int)):
    i = wp.tid()
    p = points[i]
    n = int(0)
    for j in wp.hash_grid_query(grid, p, radius, groups[i]):
        if wp.length(p - points[j]) <= radius:
            n += 1
    counts[i] = n


def test_groups_restrict_queries():
    pts = _cloud(200, seed=8)
    groups = np.random.default_rng(9).integers(0, 3, 200).astype(np.int32)
    arr = wp.array(pts, dtype=wp.vec3, device="cpu")
    g = wp.array(groups, dtype=int, device="cpu")
    grid = wp.HashGrid(8, 8, 8, device="cpu")
    grid.build(arr, 1.2, groups=g)
    counts = wp.zeros(200, dtype=int, device="cpu")
    wp.launch(grouped_counts, dim=200, inputs=[wp.uint64(grid.id), 1.1, arr, g, counts],
              device="cpu")
    ref, _ = _brute(arr.numpy().astype(np.float64), 1.1)
    ref &= groups[:, None] == groups[None, :]
    assert np.array_equal(counts.numpy(), ref.sum(1))


def test_errors():
    with pytest.raises(TypeError, match="HashGrid dtype must be float16, float32 or float64"):
        wp.HashGrid(4, 4, 4, device="cpu", dtype=wp.int32)
    with pytest.raises(ValueError, match=r"HashGrid dimensions must be positive integers, got "
                       r"\(0, 4, 4\)"):
        wp.HashGrid(0, 4, 4, device="cpu")
    with pytest.raises(RuntimeError, match="HashGrid cell count exceeds supported limit"):
        wp.HashGrid(1291, 1291, 1291, device="cpu")
    grid = wp.HashGrid(4, 4, 4, device="cpu")
    with pytest.raises(TypeError, match="HashGrid of dtype float32 expects points of type "
                       "vec3f, got vec3d"):
        grid.build(wp.zeros(3, dtype=wp.vec3d, device="cpu"), 1.0)
    with pytest.raises(ValueError, match="radius must be positive, got 0.0"):
        grid.build(wp.zeros(3, dtype=wp.vec3, device="cpu"), 0.0)
    with pytest.raises(ValueError, match="needs one group per point: 3 points, 2 groups"):
        grid.build(wp.zeros(3, dtype=wp.vec3, device="cpu"), 1.0,
                   groups=wp.zeros(2, dtype=int, device="cpu"))


@wp.kernel
def soft_density(grid: wp.uint64, radius: float, points: wp.array(dtype=wp.vec3),
                 rho: wp.array(dtype=float)):
    i = wp.tid()
    p = points[i]
    s = float(0.0)
    for j in wp.hash_grid_query(grid, p, radius):
        if j != i:
            d = wp.length(p - points[j])
            if d < radius:
                s += (radius - d) * (radius - d)
    rho[i] = s


def test_gradient_through_a_query_kernel():
    pts = _cloud(60, seed=10, scale=1.0)
    radius = 0.8
    arr = wp.array(pts, dtype=wp.vec3, device="cpu", requires_grad=True)
    grid = wp.HashGrid(8, 8, 8, device="cpu")
    grid.build(arr, radius)
    rho = wp.zeros(60, dtype=float, device="cpu", requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(soft_density, dim=60, inputs=[wp.uint64(grid.id), radius, arr, rho],
                  device="cpu")
    tape.backward(grads={rho: wp.ones(60, dtype=float, device="cpu")})
    grad = arr.grad.numpy().astype(np.float64)

    def total(x):
        d = np.linalg.norm(x[:, None] - x[None], axis=-1)
        return np.sum(np.where(d < radius, (radius - d) ** 2, 0.0))

    x0 = arr.numpy().astype(np.float64)
    for i, k in ((0, 0), (7, 1), (31, 2)):
        e = np.zeros_like(x0)
        e[i, k] = 1e-4
        fd = (total(x0 + e) - total(x0 - e)) / 2e-4
        assert abs(grad[i, k] - fd) < 1e-2 * max(1.0, abs(fd)), (i, k, grad[i, k], fd)


@pytest.mark.skipif(not _treadle.nvrtc_available(), reason="NVRTC is not installed")
def test_query_kernels_compile_for_sm90():
    for k in (neighbour_matrix_next, point_ids, grouped_counts, soft_density):
        ok, log = _treadle.check_cuda_compile(k._function_source(), 90)
        assert ok, f"{k.key}:\n{log}"
    ok, log = _treadle.check_cuda_compile(soft_density._function_source(), 90, adjoint=True)
    assert ok, log



def test_captured_build_and_later_builds_keep_the_descriptor_right(device):
    # a graph that builds over 60 points, builds over 40 outside it, replays, then the same
    # 40-point build again: the last build's grid is what queries see
    if not wp.get_device(device).is_cuda:
        pytest.skip("graph capture needs CUDA")
    rng = np.random.default_rng(9)
    big = wp.array(rng.uniform(0.0, 2.0, (60, 3)).astype(np.float32), dtype=wp.vec3,
                   device=device)
    small_np = rng.uniform(0.0, 2.0, (40, 3)).astype(np.float32)
    small = wp.array(small_np, dtype=wp.vec3, device=device)
    grid = wp.HashGrid(8, 8, 8, device=device)
    grid.reserve(60)
    with wp.ScopedCapture(device=device) as capture:
        grid.build(big, 0.5)
    grid.build(small, 0.5)
    wp.capture_launch(capture.graph)
    grid.build(small, 0.5)
    hits = wp.zeros((40, 40), dtype=int, device=device)
    wp.launch(neighbour_matrix, dim=40, inputs=[grid.id, 0.5, small, hits], device=device)
    near, edge = _brute(small_np, 0.5)
    got = hits.numpy()
    assert np.all(got[near & ~edge] == 1) and np.all(got[~near & ~edge] == 0)
