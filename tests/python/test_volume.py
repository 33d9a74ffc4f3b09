"""wp.Volume over NanoVDB grids: lookups and samples against numpy (nearest voxel and a
trilinear reference written here), the index/world map, vec3 and int32 grids, grid info, the
errors of bad buffers, and the CUDA compile of kernels calling the volume builtins."""

import io

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


RNG = np.random.default_rng(7)
FIELD = RNG.standard_normal((19, 11, 9)).astype(np.float32)
BG = -5.0


def _trilinear(field, p, bg):
    """Trilinear interpolation of `field` at index point p; voxels outside read bg."""
    base = np.floor(p).astype(int)
    t = p - base
    acc = 0.0
    for c in range(8):
        d = np.array([(c >> 2) & 1, (c >> 1) & 1, c & 1])
        q = base + d
        inside = np.all(q >= 0) and np.all(q < np.array(field.shape[:3]))
        v = field[tuple(q)] if inside else bg
        w = np.prod(np.where(d == 1, t, 1.0 - t))
        acc = acc + w * v
    return acc


@wp.kernel
def _lookup_f(vol: wp.uint64, ijk: wp.array(dtype=wp.vec3i), out: wp.array(dtype=float)):
    i = wp.tid()
    c = ijk[i]
    out[i] = wp.volume_lookup_f(vol, c[0], c[1], c[2])


@wp.kernel
def _sample_f(vol: wp.uint64, pts: wp.array(dtype=wp.vec3), mode: int,
              out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = wp.volume_sample_f(vol, pts[i], mode)


@wp.kernel
def _maps(vol: wp.uint64, pts: wp.array(dtype=wp.vec3), world: wp.array(dtype=wp.vec3),
          back: wp.array(dtype=wp.vec3), wdir: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    w = wp.volume_index_to_world(vol, pts[i])
    world[i] = w
    back[i] = wp.volume_world_to_index(vol, w)
    wdir[i] = wp.volume_index_to_world_dir(vol, pts[i])


@wp.kernel
def _sample_v(vol: wp.uint64, pts: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = wp.volume_sample_v(vol, pts[i], 1)


@wp.kernel
def _lookup_i(vol: wp.uint64, ijk: wp.array(dtype=wp.vec3i), out: wp.array(dtype=int)):
    i = wp.tid()
    c = ijk[i]
    out[i] = wp.volume_lookup_i(vol, c[0], c[1], c[2])


def _volume():
    return wp.Volume.load_from_numpy(FIELD, min_world=(1.0, -2.0, 0.5), voxel_size=0.25,
                                     bg_value=BG, device="cpu")


def test_lookup_matches_the_array_and_background_outside():
    vol = _volume()
    ijk = np.array([(0, 0, 0), (18, 10, 8), (7, 3, 5), (-1, 0, 0), (19, 2, 2), (3, 11, 0),
                    (5000, 0, 0), (-9000, -9000, 3)], dtype=np.int32)
    out = wp.zeros(len(ijk), dtype=float, device="cpu")
    wp.launch(_lookup_f, dim=len(ijk), inputs=[vol.id, wp.array(ijk, dtype=wp.vec3i), out])
    expected = [FIELD[tuple(c)] if np.all(c >= 0) and np.all(c < FIELD.shape) else BG for c in ijk]
    np.testing.assert_array_equal(out.numpy(), np.array(expected, dtype=np.float32))


def test_sample_linear_and_closest_match_numpy():
    vol = _volume()
    pts = RNG.uniform(-1.5, 20.0, size=(200, 3)).astype(np.float32)
    out = wp.zeros(len(pts), dtype=float, device="cpu")
    wp.launch(_sample_f, dim=len(pts), inputs=[vol.id, wp.array(pts, dtype=wp.vec3),
                                                wp.Volume.LINEAR, out])
    ref = np.array([_trilinear(FIELD.astype(np.float64), p.astype(np.float64), BG) for p in pts])
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-4, atol=1e-4)
    wp.launch(_sample_f, dim=len(pts), inputs=[vol.id, wp.array(pts, dtype=wp.vec3),
                                                wp.Volume.CLOSEST, out])
    near = np.where(pts >= 0, np.floor(pts + 0.5), -np.floor(0.5 - pts)).astype(int)
    ref = [FIELD[tuple(c)] if np.all(c >= 0) and np.all(c < FIELD.shape) else BG for c in near]
    np.testing.assert_array_equal(out.numpy(), np.array(ref, dtype=np.float32))


def test_index_world_map_round_trips():
    vol = _volume()
    pts = RNG.uniform(-3.0, 12.0, size=(32, 3)).astype(np.float32)
    world, back, wdir = (wp.zeros(32, dtype=wp.vec3, device="cpu") for _ in range(3))
    wp.launch(_maps, dim=32, inputs=[vol.id, wp.array(pts, dtype=wp.vec3), world, back, wdir])
    np.testing.assert_allclose(world.numpy(), np.array([1.0, -2.0, 0.5]) + 0.25 * pts, rtol=1e-5,
                               atol=1e-5)
    np.testing.assert_allclose(back.numpy(), pts, rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(wdir.numpy(), 0.25 * pts, rtol=1e-6)


def test_vec3_and_int32_grids():
    field = RNG.standard_normal((9, 10, 17, 3)).astype(np.float32)
    vol = wp.Volume.load_from_numpy(field, bg_value=(1.0, 2.0, 3.0), device="cpu")
    assert vol.get_grid_info().type_str == "Vec3f"
    pts = RNG.uniform(0.0, 8.0, size=(40, 3)).astype(np.float32)
    out = wp.zeros(40, dtype=wp.vec3, device="cpu")
    wp.launch(_sample_v, dim=40, inputs=[vol.id, wp.array(pts, dtype=wp.vec3), out])
    ref = np.array([[_trilinear(field[..., c].astype(np.float64), p.astype(np.float64),
                                (1.0, 2.0, 3.0)[c]) for c in range(3)] for p in pts])
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-4, atol=1e-4)
    ints = RNG.integers(-1000, 1000, size=(12, 8, 20)).astype(np.int32)
    vol = wp.Volume.load_from_numpy(ints, bg_value=77, device="cpu")
    ijk = np.array([(0, 0, 0), (11, 7, 19), (4, 2, 9), (12, 0, 0), (0, -1, 0)], dtype=np.int32)
    out = wp.zeros(5, dtype=int, device="cpu")
    wp.launch(_lookup_i, dim=5, inputs=[vol.id, wp.array(ijk, dtype=wp.vec3i), out])
    np.testing.assert_array_equal(out.numpy(), [ints[0, 0, 0], ints[11, 7, 19], ints[4, 2, 9], 77,
                                                77])


def test_grid_info_and_raw_buffer_round_trip():
    vol = _volume()
    info = vol.get_grid_info()
    assert info.type_str == "float" and info.grid_count == 1 and info.grid_index == 0
    assert info.size_in_bytes == vol.array().shape[0]
    np.testing.assert_allclose(info.translation, [1.0, -2.0, 0.5])
    np.testing.assert_allclose(info.transform_matrix, 0.25 * np.eye(3))
    assert vol.get_voxel_size() == (0.25, 0.25, 0.25)
    assert vol.get_voxel_count() == 512 * vol.get_tile_count()  # every voxel of every leaf
    again = wp.Volume.load_from_nvdb(io.BytesIO(vol.array().numpy().tobytes()))
    assert again.get_grid_info().size_in_bytes == info.size_in_bytes


def test_bad_buffers_raise():
    with pytest.raises(RuntimeError, match="NanoVDB signature not found"):
        wp.Volume.load_from_nvdb(b"not a grid at all")
    with pytest.raises(RuntimeError, match="Only uint8 arrays are supported as volume data"):
        wp.Volume(wp.zeros(800, dtype=float, device="cpu"))
    with pytest.raises(RuntimeError, match="3-D array"):
        wp.Volume.load_from_numpy(np.zeros((4, 4)))


@pytest.mark.skipif(not _treadle.nvrtc_available(), reason="NVRTC is not installed")
@pytest.mark.parametrize("k", [_lookup_f, _sample_f, _maps, _sample_v, _lookup_i])
def test_volume_kernels_compile_for_cuda(k):
    ok, log = _treadle.check_cuda_compile(k._function_source(), 90)
    assert ok, log
