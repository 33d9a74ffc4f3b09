"""wp.Bvh and the bvh_query_* builtins against numpy brute force."""

import numpy as np
import pytest

import treadle as wp


def _boxes(n, seed):
    rng = np.random.default_rng(seed)
    lo = rng.uniform(-10.0, 10.0, (n, 3)).astype(np.float32)
    hi = lo + rng.uniform(0.0, 1.5, (n, 3)).astype(np.float32)
    return lo, hi


def _overlaps(lo, hi, qlo, qhi):
    return set(np.nonzero(np.all((lo <= qhi) & (hi >= qlo), axis=1))[0].tolist())


@wp.kernel
def _aabb_while(
    bvh: wp.uint64,
    qlo: wp.vec3,
    qhi: wp.vec3,
    root: int,
    hits: wp.array(dtype=int),
    count: wp.array(dtype=int),
):
    q = wp.bvh_query_aabb(bvh, qlo, qhi, root)
    i = int(0)
    while wp.bvh_query_next(q, i):
        hits[i] = hits[i] + 1
        count[0] = count[0] + 1


@wp.kernel
def _aabb_for(bvh: wp.uint64, qlo: wp.vec3, qhi: wp.vec3, hits: wp.array(dtype=int)):
    q = wp.bvh_query_aabb(bvh, qlo, qhi)
    for i in q:
        hits[i] = hits[i] + 1


@wp.kernel
def _ray(bvh: wp.uint64, start: wp.vec3, d: wp.vec3, hits: wp.array(dtype=int)):
    q = wp.bvh_query_ray(bvh, start, d)
    i = int(0)
    while wp.bvh_query_next(q, i):
        hits[i] = 1


@pytest.mark.parametrize("constructor", [None, "sah", "median", "lbvh"])
def test_aabb_query_matches_brute_force(constructor, device):
    lo, hi = _boxes(500, 1)
    bvh = wp.Bvh(wp.array(lo, dtype=wp.vec3, device=device),
                 wp.array(hi, dtype=wp.vec3, device=device), constructor=constructor)
    qlo, qhi = np.array([-3.0, -2.0, -4.0], np.float32), np.array([2.0, 3.0, 1.0], np.float32)
    hits = wp.zeros(500, dtype=int, device=device)
    count = wp.zeros(1, dtype=int, device=device)
    wp.launch(_aabb_while, dim=1, inputs=[bvh.id, wp.vec3(*qlo), wp.vec3(*qhi), -1, hits, count],
              device=device)
    expect = _overlaps(lo, hi, qlo, qhi)
    assert expect
    assert set(np.nonzero(hits.numpy())[0].tolist()) == expect
    assert count.numpy()[0] == len(expect)
    hits2 = wp.zeros(500, dtype=int, device=device)
    wp.launch(_aabb_for, dim=1, inputs=[bvh.id, wp.vec3(*qlo), wp.vec3(*qhi), hits2],
              device=device)
    np.testing.assert_array_equal(hits2.numpy(), hits.numpy())


def test_ray_query_reports_boxes_the_ray_meets():
    lo, hi = _boxes(400, 2)
    bvh = wp.Bvh(wp.array(lo, dtype=wp.vec3), wp.array(hi, dtype=wp.vec3))
    # aimed through the centre of box 0, so at least that one is met
    start = np.array([-15.0, 0.5, -0.3])
    d = (lo[0] + hi[0]) / 2.0 - start
    hits = wp.zeros(400, dtype=int)
    wp.launch(_ray, dim=1, inputs=[bvh.id, wp.vec3(*start), wp.vec3(*d), hits])
    with np.errstate(divide="ignore", invalid="ignore"):
        t0 = (lo - start) / d
        t1 = (hi - start) / d
    near = np.minimum(t0, t1).max(axis=1)
    far = np.maximum(t0, t1).min(axis=1)
    expect = set(np.nonzero((near <= far) & (far >= 0))[0].tolist())
    assert expect
    assert set(np.nonzero(hits.numpy())[0].tolist()) == expect


def test_refit_and_groups(device):
    lo, hi = _boxes(300, 3)
    lows = wp.array(lo, dtype=wp.vec3, device=device)
    highs = wp.array(hi, dtype=wp.vec3, device=device)
    groups = np.arange(300, dtype=np.int32) % 3
    bvh = wp.Bvh(lows, highs, groups=wp.array(groups, dtype=wp.int32, device=device))
    first_id = bvh.id
    qlo, qhi = np.array([-5.0, -5.0, -5.0], np.float32), np.array([5.0, 5.0, 5.0], np.float32)
    for g in range(3):
        root = bvh._native.group_root(g)
        hits = wp.zeros(300, dtype=int, device=device)
        count = wp.zeros(1, dtype=int, device=device)
        wp.launch(
            _aabb_while, dim=1, inputs=[bvh.id, wp.vec3(*qlo), wp.vec3(*qhi), root, hits, count],
            device=device,
        )
        expect = {i for i in _overlaps(lo, hi, qlo, qhi) if groups[i] == g}
        assert set(np.nonzero(hits.numpy())[0].tolist()) == expect
    moved = lo * -0.5
    lows.assign(moved)
    highs.assign(moved + 0.5)
    for update in (bvh.refit, lambda: bvh.rebuild("median")):
        update()
        assert bvh.id == first_id
        hits = wp.zeros(300, dtype=int, device=device)
        count = wp.zeros(1, dtype=int, device=device)
        wp.launch(_aabb_while, dim=1,
                  inputs=[bvh.id, wp.vec3(*qlo), wp.vec3(*qhi), -1, hits, count], device=device)
        assert set(np.nonzero(hits.numpy())[0].tolist()) == _overlaps(moved, moved + 0.5, qlo,
                                                                       qhi)


def test_mistakes_raise():
    lo, hi = _boxes(4, 4)
    lows, highs = wp.array(lo, dtype=wp.vec3), wp.array(hi, dtype=wp.vec3)
    with pytest.raises(RuntimeError, match="same number"):
        wp.Bvh(lows, wp.array(hi[:2], dtype=wp.vec3))
    with pytest.raises(RuntimeError, match="wp.vec3"):
        wp.Bvh(wp.array(lo.astype(np.float64), dtype=wp.vec3d), highs)
    with pytest.raises(ValueError, match="leaf_size"):
        wp.Bvh(lows, highs, leaf_size=0)
    with pytest.raises(ValueError, match="constructor"):
        wp.Bvh(lows, highs, constructor="octree")
    with pytest.raises(RuntimeError, match="Grouped BVHs"):
        wp.Bvh(lows, highs, constructor="cubql", groups=wp.zeros(4, dtype=wp.int32))
    assert not wp.is_cubql_available()


@wp.kernel
def _sphere_and_capsule(bvh: wp.uint64, c: wp.vec3, r: float, d: wp.vec3, group: int,
                        sphere_hits: wp.array(dtype=int), capsule_hits: wp.array(dtype=int)):
    root = wp.bvh_get_group_root(bvh, group)
    q = wp.bvh_query_sphere(bvh, c, r, root)
    i = int(0)
    while wp.bvh_query_next(q, i):
        sphere_hits[i] = 1
    qc = wp.bvh_query_capsule(bvh, c, d, r)
    j = int(0)
    while wp.bvh_query_next(qc, j, 1.0):
        capsule_hits[j] = 1


def _segment_box_distance(p0, p1, lo, hi, steps=2001):
    t = np.linspace(0.0, 1.0, steps)[:, None]
    pts = p0 + t * (p1 - p0)
    out = []
    for l, h in zip(lo, hi):
        e = np.maximum(np.maximum(l - pts, pts - h), 0.0)
        out.append(np.sqrt((e * e).sum(axis=1)).min())
    return np.array(out)


def test_sphere_and_capsule_queries(device):
    lo, hi = _boxes(300, 5)
    bvh = wp.Bvh(wp.array(lo, dtype=wp.vec3, device=device),
                 wp.array(hi, dtype=wp.vec3, device=device))
    c, r = np.array([0.5, -1.0, 2.0], np.float32), 3.0
    d = np.array([4.0, 1.0, -2.0], np.float32)
    sphere = wp.zeros(300, dtype=int, device=device)
    capsule = wp.zeros(300, dtype=int, device=device)
    wp.launch(_sphere_and_capsule, dim=1,
              inputs=[bvh.id, wp.vec3(*c), r, wp.vec3(*d), 0, sphere, capsule], device=device)
    e = np.maximum(np.maximum(lo - c, c - hi), 0.0)
    near = np.sqrt((e * e).sum(axis=1))
    expect = set(np.nonzero(near <= r)[0].tolist())
    assert expect
    assert set(np.nonzero(sphere.numpy())[0].tolist()) == expect
    # the capsule query is conservative: everything within r of the segment, and only boxes
    # within r * sqrt(3) of it (the inflated boxes' corners)
    dist = _segment_box_distance(c, c + d, lo, hi)
    got = capsule.numpy().astype(bool)
    assert np.all(got[dist <= r * 0.999])
    assert not np.any(got[dist > r * np.sqrt(3.0) * 1.001])


def test_sparse_group_ids():
    # a group id as large as INT32_MAX costs no memory: roots are kept per group present
    lo, hi = _boxes(40, 6)
    groups = np.where(np.arange(40) < 20, 3, 2**31 - 1).astype(np.int32)
    bvh = wp.Bvh(wp.array(lo, dtype=wp.vec3), wp.array(hi, dtype=wp.vec3),
                 groups=wp.array(groups, dtype=wp.int32))
    qlo, qhi = np.full(3, -20.0, np.float32), np.full(3, 20.0, np.float32)
    for g in (3, 2**31 - 1):
        hits = wp.zeros(40, dtype=int)
        count = wp.zeros(1, dtype=int)
        root = bvh._native.group_root(g)
        wp.launch(_aabb_while, dim=1, inputs=[bvh.id, wp.vec3(*qlo), wp.vec3(*qhi), root, hits,
                                             count])
        np.testing.assert_array_equal(hits.numpy(), (groups == g).astype(int))
    assert bvh._native.group_root(4) == -1


@wp.kernel
def _shift_boxes(lo: wp.array(dtype=wp.vec3), hi: wp.array(dtype=wp.vec3), by: wp.vec3):
    i = wp.tid()
    lo[i] = lo[i] + by
    hi[i] = hi[i] + by


@pytest.mark.parametrize("update", ["refit", "rebuild"])
@pytest.mark.parametrize("leaf_size", [1, 4])
def test_refit_on_the_device_replays_in_a_graph(device, leaf_size, update):
    # the boxes move by a kernel; a refit (or an lbvh rebuild, on CUDA by kernels there) and a
    # query run in the same stream (on CUDA in one captured graph replayed several times);
    # every replay's query matches brute force
    lo, hi = _boxes(2000, 9)
    lows = wp.array(lo, dtype=wp.vec3, device=device)
    highs = wp.array(hi, dtype=wp.vec3, device=device)
    bvh = wp.Bvh(lows, highs, constructor="lbvh", leaf_size=leaf_size)
    qlo, qhi = np.array([-3.0, -2.0, -4.0], np.float32), np.array([2.0, 3.0, 1.0], np.float32)
    hits = wp.zeros(2000, dtype=int, device=device)
    count = wp.zeros(1, dtype=int, device=device)
    by = np.array([0.25, -0.5, 0.125], np.float32)

    def step():
        wp.launch(_shift_boxes, dim=2000, inputs=[lows, highs, wp.vec3(*by)], device=device)
        getattr(bvh, update)()
        hits.zero_()
        count.zero_()
        wp.launch(_aabb_while, dim=1,
                  inputs=[bvh.id, wp.vec3(*qlo), wp.vec3(*qhi), -1, hits, count], device=device)

    graph = None
    if wp.get_device(device).is_cuda:
        with wp.ScopedCapture(device=device) as capture:
            step()
        graph = capture.graph
    for k in range(1, 4):
        if graph is None:
            step()
        else:
            wp.capture_launch(graph)
        cur_lo, cur_hi = lo + k * by, hi + k * by
        np.testing.assert_allclose(lows.numpy(), cur_lo, rtol=0, atol=1e-5)
        expect = _overlaps(lows.numpy(), highs.numpy(), qlo, qhi)
        assert expect
        assert set(np.nonzero(hits.numpy())[0].tolist()) == expect
        assert count.numpy()[0] == len(expect)
    # a rebuild after device refits starts from the current boxes
    bvh.rebuild("sah")
    hits.zero_()
    count.zero_()
    wp.launch(_aabb_while, dim=1, inputs=[bvh.id, wp.vec3(*qlo), wp.vec3(*qhi), -1, hits, count],
              device=device)
    assert set(np.nonzero(hits.numpy())[0].tolist()) == expect


@pytest.mark.skipif(not wp._treadle.nvrtc_available(), reason="NVRTC is not installed")
def test_refit_kernels_compile_for_sm90(tmp_path):
    # the refit's kernel module is Python syntax: imported, its kernels are checked as any
    import importlib.util

    path = tmp_path / "treadle_bvh_refit_kernels.py"
    path.write_text(wp._treadle.bvh_refit_kernel_source())
    spec = importlib.util.spec_from_file_location("treadle_bvh_refit_kernels", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    kernels = [v for v in vars(module).values() if isinstance(v, wp.Kernel)]
    assert sorted(k.key.split(".")[-1] for k in kernels) == [
        "edge_mean", "edge_sums", "face_boxes", "first_bad_index", "refit_boxes", "refit_faces",
        "sum_chunks"]
    for k in kernels:
        ok, log = wp._treadle.check_cuda_compile(k._function_source(), 90)
        assert ok, f"{k.key}:\n{log}"


@pytest.mark.parametrize("leaf_size", [1, 2, 5])
def test_lbvh_is_the_cuda_default_and_matches_brute_force(device, leaf_size):
    # many equal centres (equal Morton codes) beside scattered ones
    lo, hi = _boxes(3001, 12)
    lo[::3] = lo[0]
    hi[::3] = hi[0]
    bvh = wp.Bvh(wp.array(lo, dtype=wp.vec3, device=device),
                 wp.array(hi, dtype=wp.vec3, device=device), leaf_size=leaf_size)
    assert bvh.constructor == ("lbvh" if wp.get_device(device).is_cuda else "sah")
    assert bvh._native.depth <= 64
    rng = np.random.default_rng(5)
    for _ in range(5):
        qlo = rng.uniform(-11.0, 9.0, 3).astype(np.float32)
        qhi = qlo + np.float32(3.0)
        hits = wp.zeros(3001, dtype=int, device=device)
        count = wp.zeros(1, dtype=int, device=device)
        wp.launch(_aabb_while, dim=1,
                  inputs=[bvh.id, wp.vec3(*qlo), wp.vec3(*qhi), -1, hits, count], device=device)
        expect = _overlaps(lo, hi, qlo, qhi)
        assert set(np.nonzero(hits.numpy())[0].tolist()) == expect
        assert count.numpy()[0] == len(expect)


@pytest.mark.skipif(not wp._treadle.nvrtc_available(), reason="NVRTC is not installed")
def test_build_and_sort_kernels_compile_for_sm90(tmp_path):
    import importlib.util

    for name, source, least in (
            ("treadle_bvh_lbvh_kernels", wp._treadle.bvh_lbvh_kernel_source(), 5),
            ("treadle_device_sort_kernels", wp._treadle.device_sort_kernel_source(), 5),
            ("treadle_device_sort_cuda_kernels", wp._treadle.device_sort_cuda_kernel_source(), 3),
            ("treadle_hash_grid_kernels", wp._treadle.hash_grid_kernel_source(), 6)):
        path = tmp_path / f"{name}.py"
        path.write_text(source)
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        kernels = [v for v in vars(module).values() if isinstance(v, wp.Kernel)]
        assert len(kernels) >= least
        for k in kernels:
            ok, log = wp._treadle.check_cuda_compile(k._function_source(), 90)
            assert ok, f"{k.key}:\n{log}"
