"""Volume builtins in kernels beyond plain reads: the dtype= forms, sample gradients against
finite differences, adjoints of samples (position, index-sample data and background) on a Tape,
stores, volumes allocated by tiles and voxels, save/load round trips, the errors of bad calls and
arguments, and the CUDA compile of these kernels."""

import os
import tempfile

import numpy as np
import pytest

import treadle as wp
from treadle import _treadle


@pytest.fixture(autouse=True)
def _on_the_cpu():
    """These tests build and query their volumes on the CPU, default arrays included (Warp's
    volume tests run on cuda:0 through the conformance runner)."""
    with wp.ScopedDevice("cpu"):
        yield


RNG = np.random.default_rng(11)
FIELD = RNG.standard_normal((14, 9, 12)).astype(np.float32)
VFIELD = RNG.standard_normal((9, 10, 11, 3)).astype(np.float32)


@wp.kernel
def _generic(vol: wp.uint64, pts: wp.array(dtype=wp.vec3), typed: wp.array(dtype=float),
             generic: wp.array(dtype=float), looked: wp.array(dtype=float)):
    i = wp.tid()
    p = pts[i]
    typed[i] = wp.volume_sample_f(vol, p, wp.Volume.LINEAR)
    generic[i] = wp.volume_sample(vol, p, wp.Volume.LINEAR, dtype=wp.float32)
    looked[i] = wp.volume_lookup(vol, int(p[0]), int(p[1]), int(p[2]), dtype=float)


@wp.kernel
def _sample_grad(vol: wp.uint64, pts: wp.array(dtype=wp.vec3), val: wp.array(dtype=float),
                 grad: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    g = wp.vec3(0.0)
    val[i] = wp.volume_sample_grad(vol, pts[i], wp.Volume.LINEAR, g, dtype=float)
    grad[i] = g


@wp.kernel
def _sample_grad_v(vol: wp.uint64, pts: wp.array(dtype=wp.vec3), val: wp.array(dtype=wp.vec3),
                   grad: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    g = wp.mat33(0.0)
    val[i] = wp.volume_sample_grad(vol, pts[i], wp.Volume.LINEAR, g, dtype=wp.vec3)
    grad[i] = g


@wp.kernel
def _loss(vol: wp.uint64, pts: wp.array(dtype=wp.vec3), w: wp.vec3, out: wp.array(dtype=float)):
    i = wp.tid()
    g = wp.vec3(0.0)
    v = wp.volume_sample_grad_f(vol, pts[i], wp.Volume.LINEAR, g)
    out[i] = v * v + wp.dot(g, w)


@wp.kernel
def _store(vol: wp.uint64, ijk: wp.array(dtype=wp.vec3i), vals: wp.array(dtype=float),
           back: wp.array(dtype=float)):
    i = wp.tid()
    c = ijk[i]
    wp.volume_store(vol, c[0], c[1], c[2], vals[i])
    back[i] = wp.volume_lookup_f(vol, c[0], c[1], c[2])


@wp.kernel
def _index_sample(vol: wp.uint64, pts: wp.array(dtype=wp.vec3), data: wp.array(dtype=float),
                  bg: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = wp.volume_sample_index(vol, pts[i], wp.Volume.LINEAR, data, bg[0])


@wp.kernel
def _indices(vol: wp.uint64, ijk: wp.array2d(dtype=wp.int32), out: wp.array(dtype=wp.int32),
             count: wp.array(dtype=wp.int32)):
    i = wp.tid()
    out[i] = wp.volume_lookup_index(vol, ijk[i, 0], ijk[i, 1], ijk[i, 2])
    count[0] = wp.volume_voxel_count(vol)


@wp.kernel
def _map_d(vol: wp.uint64, pts: wp.array(dtype=wp.vec3d), w: wp.vec3d,
           out: wp.array(dtype=wp.float64), back: wp.array(dtype=wp.vec3d)):
    i = wp.tid()
    x = wp.volume_index_to_world(vol, pts[i])
    back[i] = wp.volume_world_to_index(vol, x)
    out[i] = wp.dot(x, w)


def _vol():
    return wp.Volume.load_from_numpy(FIELD, voxel_size=0.5, bg_value=2.0, device="cpu")


def _pts(n, hi):
    return RNG.uniform(0.2, hi, size=(n, 3)).astype(np.float32)


def test_dtype_forms_match_the_typed_builtins():
    vol = _vol()
    pts = _pts(64, 8.0)
    a, b, c = (wp.zeros(64, dtype=float, device="cpu") for _ in range(3))
    wp.launch(_generic, dim=64, inputs=[vol.id, wp.array(pts, dtype=wp.vec3), a, b, c])
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    ijk = pts.astype(int)
    np.testing.assert_array_equal(c.numpy(), FIELD[ijk[:, 0], ijk[:, 1], ijk[:, 2]])


def test_sample_gradient_matches_finite_differences():
    vol = _vol()
    pts = _pts(40, 8.0)
    h = 1e-2
    val, grad = wp.zeros(40, dtype=float, device="cpu"), wp.zeros(40, dtype=wp.vec3, device="cpu")
    wp.launch(_sample_grad, dim=40, inputs=[vol.id, wp.array(pts, dtype=wp.vec3), val, grad])
    fd = np.zeros((40, 3))
    for axis in range(3):
        d = np.zeros(3, dtype=np.float32)
        d[axis] = h
        up, dn = wp.zeros(40, dtype=float, device="cpu"), wp.zeros(40, dtype=float, device="cpu")
        g = wp.zeros(40, dtype=wp.vec3, device="cpu")
        wp.launch(_sample_grad, dim=40, inputs=[vol.id, wp.array(pts + d, dtype=wp.vec3), up, g])
        wp.launch(_sample_grad, dim=40, inputs=[vol.id, wp.array(pts - d, dtype=wp.vec3), dn, g])
        fd[:, axis] = (up.numpy() - dn.numpy()) / (2 * h)
    # the interpolant is smooth away from integer planes: skip points near one
    frac = np.abs(pts - np.round(pts))
    ok = np.all(frac > 2 * h, axis=1)
    np.testing.assert_allclose(grad.numpy()[ok], fd[ok], rtol=2e-3, atol=2e-3)


def test_vector_sample_gradient_rows_are_components():
    vol = wp.Volume.load_from_numpy(VFIELD, bg_value=(0.0, 0.0, 0.0), device="cpu")
    pts = _pts(16, 7.0)
    val, grad = wp.zeros(16, dtype=wp.vec3, device="cpu"), wp.zeros(16, dtype=wp.mat33, device="cpu")
    wp.launch(_sample_grad_v, dim=16, inputs=[vol.id, wp.array(pts, dtype=wp.vec3), val, grad])
    h = 1e-2
    for axis in range(3):
        d = np.zeros(3, dtype=np.float32)
        d[axis] = h
        up = wp.zeros(16, dtype=wp.vec3, device="cpu")
        dn = wp.zeros(16, dtype=wp.vec3, device="cpu")
        g = wp.zeros(16, dtype=wp.mat33, device="cpu")
        wp.launch(_sample_grad_v, dim=16, inputs=[vol.id, wp.array(pts + d, dtype=wp.vec3), up, g])
        wp.launch(_sample_grad_v, dim=16, inputs=[vol.id, wp.array(pts - d, dtype=wp.vec3), dn, g])
        fd = (up.numpy() - dn.numpy()) / (2 * h)
        ok = np.all(np.abs(pts - np.round(pts)) > 2 * h, axis=1)
        np.testing.assert_allclose(grad.numpy()[ok][:, :, axis], fd[ok], rtol=2e-3, atol=2e-3)


def test_adjoint_of_sample_and_its_gradient_matches_finite_differences():
    vol = _vol()
    pts = _pts(24, 8.0)
    w = wp.vec3(0.3, -0.7, 0.5)
    p = wp.array(pts, dtype=wp.vec3, device="cpu", requires_grad=True)
    out = wp.zeros(24, dtype=float, device="cpu", requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(_loss, dim=24, inputs=[vol.id, p, w, out])
    tape.backward(grads={out: wp.ones(24, dtype=float, device="cpu")})
    h = 1e-2
    fd = np.zeros((24, 3))
    for axis in range(3):
        d = np.zeros(3, dtype=np.float32)
        d[axis] = h
        vals = []
        for s in (1, -1):
            o = wp.zeros(24, dtype=float, device="cpu")
            wp.launch(_loss, dim=24, inputs=[vol.id, wp.array(pts + s * d, dtype=wp.vec3), w, o])
            vals.append(o.numpy())
        fd[:, axis] = (vals[0] - vals[1]) / (2 * h)
    ok = np.all(np.abs(pts - np.round(pts)) > 2 * h, axis=1)
    np.testing.assert_allclose(p.grad.numpy()[ok], fd[ok], rtol=5e-3, atol=5e-3)


def test_index_sample_adjoint_reaches_data_and_background():
    vol = _vol()
    voxels = vol.get_voxels()
    count = vol.get_voxel_count()
    idx, n = wp.zeros(count, dtype=wp.int32, device="cpu"), wp.zeros(1, dtype=wp.int32, device="cpu")
    wp.launch(_indices, dim=count, inputs=[vol.id, voxels, idx, n])
    np.testing.assert_array_equal(idx.numpy(), np.arange(count))
    assert n.numpy()[0] == count
    data_np = RNG.standard_normal(count).astype(np.float32)
    data = wp.array(data_np, dtype=float, device="cpu", requires_grad=True)
    bg = wp.array([4.0], dtype=float, device="cpu", requires_grad=True)
    pts = np.concatenate([_pts(20, 8.0), np.array([[100.0, 1.0, 1.0]], dtype=np.float32)])
    out = wp.zeros(21, dtype=float, device="cpu", requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(_index_sample, dim=21, inputs=[vol.id, wp.array(pts, dtype=wp.vec3), data, bg, out])
    tape.backward(grads={out: wp.ones(21, dtype=float, device="cpu")})
    # a sample is linear in the values it reads: sum(out) = grad . data + grad_bg * bg
    total = float(np.dot(data.grad.numpy(), data_np) + bg.grad.numpy()[0] * 4.0)
    np.testing.assert_allclose(out.numpy().sum(), total, rtol=1e-4)
    assert bg.grad.numpy()[0] == pytest.approx(1.0)  # the point outside every leaf


def test_store_round_trips_and_ignores_voxels_without_leaves():
    vol = _vol()
    ijk = np.array([(0, 0, 0), (13, 8, 11), (15, 15, 15), (-3, 0, 0)], dtype=np.int32)
    vals = wp.array([1.5, -2.5, 9.0, 7.0], dtype=float, device="cpu")
    back = wp.zeros(4, dtype=float, device="cpu")
    wp.launch(_store, dim=4, inputs=[vol.id, wp.array(ijk, dtype=wp.vec3i), vals, back])
    # (15, 15, 15) lies in the last leaf (its padding voxels are stored), (-3, 0, 0) in none
    np.testing.assert_array_equal(back.numpy(), [1.5, -2.5, 9.0, 2.0])


def test_allocate_by_tiles_and_voxels():
    tiles = np.array([[-9, 0, 3], [0, 0, 0], [130, 5000, -4100]], dtype=np.int32)
    vol = wp.Volume.allocate_by_tiles(wp.array(tiles, dtype=wp.vec3i, device="cpu"), 0.5, -1.0,
                                      device="cpu")
    got = vol.get_tiles().numpy()
    want = (tiles // 8) * 8
    np.testing.assert_array_equal(got[np.lexsort(got.T[::-1])], want[np.lexsort(want.T[::-1])])
    ijk = np.array([(-16, 0, 0), (130, 5000, -4100), (1, 1, 1), (100, 0, 0)], dtype=np.int32)
    vals = wp.array([3.0, 4.0, 5.0, 6.0], dtype=float, device="cpu")
    back = wp.zeros(4, dtype=float, device="cpu")
    wp.launch(_store, dim=4, inputs=[vol.id, wp.array(ijk, dtype=wp.vec3i), vals, back])
    np.testing.assert_array_equal(back.numpy(), [3.0, 4.0, 5.0, -1.0])
    pts = np.array([[3, 4, 5], [3, 4, 5], [-20, 7, 9]], dtype=np.int32)
    index = wp.Volume.allocate_by_voxels(wp.array(pts, dtype=wp.vec3i, device="cpu"), device="cpu")
    assert index.get_grid_info().type_str == "onindex" and index.get_voxel_count() == 2
    vox = index.get_voxels().numpy()
    idx, n = wp.zeros(2, dtype=wp.int32, device="cpu"), wp.zeros(1, dtype=wp.int32, device="cpu")
    wp.launch(_indices, dim=2, inputs=[index.id, index.get_voxels(), idx, n])
    assert sorted(map(tuple, vox)) == [(-20, 7, 9), (3, 4, 5)]
    np.testing.assert_array_equal(idx.numpy(), [0, 1])


def test_rebuild_keeps_the_id_and_reports_capacity():
    start = wp.array([[0, 0, 0]], dtype=wp.vec3i, device="cpu")
    status = wp.zeros(1, dtype=wp.uint32, device="cpu")
    vol = wp.Volume.allocate_by_voxels(start, device="cpu", rebuildable=True, max_active_voxels=4,
                                       max_leaf_nodes=2, max_lower_nodes=1, max_upper_nodes=1,
                                       status=status)
    vid, size = vol.id, vol.get_grid_info().size_in_bytes
    assert vol.get_rebuild_info() == wp.Volume.RebuildInfo("voxels", 4, 2, 1, 1)
    pts = np.array([[1, 2, 3], [9, 0, 0], [1, 2, 4], [0, 0, 0], [20, 0, 0]], dtype=np.int32)
    mask = wp.array([1, 1, 1, 0, 1], dtype=wp.int32, device="cpu")
    vol.rebuild(wp.array(pts, dtype=wp.vec3i, device="cpu"), status=status, point_mask=mask)
    # sorted: (1, 2, 3), (1, 2, 4) in leaf (0, 0, 0), (9, 0, 0) in leaf (8, 0, 0); (20, 0, 0)
    # would be a third leaf
    assert status.numpy()[0] == wp.Volume.REBUILD_LEAF_CAPACITY_EXCEEDED
    assert vol.id == vid and vol.get_grid_info().size_in_bytes == size
    assert vol.get_active_stats() == wp.Volume.ActiveStats(3, 2, 1, 1)
    assert sorted(map(tuple, vol.get_voxels().numpy())) == [(1, 2, 3), (1, 2, 4), (9, 0, 0)]
    idx, n = wp.zeros(3, dtype=wp.int32, device="cpu"), wp.zeros(1, dtype=wp.int32, device="cpu")
    wp.launch(_indices, dim=3, inputs=[vol.id, vol.get_voxels(), idx, n])
    np.testing.assert_array_equal(idx.numpy(), [0, 1, 2])
    with pytest.raises(RuntimeError, match="This volume is not rebuildable"):
        _vol().rebuild(start)


def test_double_map_and_its_adjoint():
    mat = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 2.0]])
    vol = wp.Volume.allocate_by_voxels(wp.array([[1, 1, 2]], dtype=wp.vec3i, device="cpu"),
                                       translation=(1.0, 2.0, 3.0), transform=mat, device="cpu")
    pts = RNG.uniform(-3.0, 3.0, size=(5, 3))
    p = wp.array(pts, dtype=wp.vec3d, device="cpu", requires_grad=True)
    out = wp.zeros(5, dtype=wp.float64, device="cpu", requires_grad=True)
    back = wp.zeros(5, dtype=wp.vec3d, device="cpu")
    w = np.array([0.5, -2.0, 1.5])
    tape = wp.Tape()
    with tape:
        wp.launch(_map_d, dim=5, inputs=[vol.id, p, wp.vec3d(*w), out, back])
    tape.backward(grads={out: wp.ones(5, dtype=wp.float64, device="cpu")})
    np.testing.assert_allclose(out.numpy(), (pts @ mat.T + [1.0, 2.0, 3.0]) @ w, rtol=1e-12)
    np.testing.assert_allclose(back.numpy(), pts, atol=1e-12)
    np.testing.assert_allclose(p.grad.numpy(), np.tile(mat.T @ w, (5, 1)), rtol=1e-12)


def test_save_and_load_round_trip():
    vol = _vol()
    back = wp.zeros(1, dtype=float, device="cpu")
    ijk = wp.array([(3, 4, 5)], dtype=wp.vec3i, device="cpu")
    wp.launch(_store, dim=1, inputs=[vol.id, ijk, wp.array([42.0], dtype=float, device="cpu"), back])
    for codec in ("none", "zip"):
        fd, path = tempfile.mkstemp(suffix=".nvdb")
        os.close(fd)
        try:
            vol.save_to_nvdb(path, codec=codec)
            again = wp.Volume.load_from_nvdb(path)
            # the file holds the value the kernel stored
            np.testing.assert_array_equal(again.array().numpy(), vol.array().numpy())
        finally:
            os.remove(path)
    with pytest.raises(RuntimeError, match="Unsupported codec requested: lz4"):
        vol.save_to_nvdb("unused.nvdb", codec="lz4")


def test_bad_arguments_raise():
    data = np.zeros((8, 8, 8), dtype=np.float32)
    with pytest.raises(ValueError, match="voxel_size must have 3 elements, got 2"):
        wp.Volume.load_from_numpy(data, voxel_size=(0.1, 0.2))
    with pytest.raises(ValueError, match="voxel_size must be positive and finite"):
        wp.Volume.load_from_numpy(data, voxel_size=-1.0)
    with pytest.raises(TypeError, match="voxel_size must be a number or a sequence"):
        wp.Volume.load_from_numpy(data, voxel_size="0.5")

    @wp.kernel
    def bad(vol: wp.uint64, out: wp.array(dtype=float)):
        out[0] = wp.volume_lookup(vol, 0, 0, 0, dtype=wp.mat33)[0, 0]

    with pytest.raises(Exception, match=r"volume_lookup\(\): no overload accepts \(uint64, int literal, "
                                        r"int literal, int literal, dtype=mat33f\)"):
        wp.launch(bad, dim=1, inputs=[_vol().id, wp.zeros(1, dtype=float, device="cpu")])


@pytest.mark.skipif(not _treadle.nvrtc_available(), reason="NVRTC is not installed")
@pytest.mark.parametrize("k", [_generic, _sample_grad, _sample_grad_v, _loss, _store,
                               _index_sample, _indices, _map_d])
def test_volume_kernels_compile_for_cuda(k):
    ok, log = _treadle.check_cuda_compile(k._function_source(), 90)
    assert ok, log
