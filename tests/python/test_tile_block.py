"""Tile operations the whole block runs together: tile stacks, scans, sorts, random tiles,
tile_from_thread and block_dim(), plus slice() offsets of tile_view and len() of tiles in
wp.static. Results are compared with numpy (and, for random tiles, with the PCG sequence
computed here); on CUDA with the block semantics, on the CPU with a block of one thread."""

import inspect

import numpy as np
import pytest

import treadle as wp
from treadle import _treadle

CAP = wp.constant(8)
N = 37  # not a multiple of any block size


@pytest.fixture(autouse=True)
def _arrays_on_the_cpu(request):
    if "cuda" in request.node.name:
        yield
        return
    with wp.ScopedDevice("cpu"):
        yield


@wp.func
def push_twice(s: wp.tile_stack(capacity=CAP, dtype=int), value: int):
    wp.tile_stack_push(s, value, True)
    wp.tile_stack_push(s, value + 1, True)


@wp.kernel
def stack_ops(data: wp.array[int], out: wp.array[int], slots: wp.array[int],
              counts: wp.array[int]):
    _i, j = wp.tid()
    s = wp.tile_stack(capacity=CAP, dtype=int)
    pushed = wp.tile_stack_push(s, data[j], data[j] > 5)
    counts[0] = wp.tile_stack_count(s)
    v, slot = wp.tile_stack_pop(s)
    if slot != -1:
        out[slot] = v
    slots[j] = pushed
    counts[1] = wp.tile_stack_count(s)
    wp.tile_stack_clear(s)
    counts[2] = wp.tile_stack_count(s)
    push_twice(s, 40)
    counts[3] = wp.tile_stack_count(s)
    v2, slot2 = wp.tile_stack_pop(s)
    counts[4] = v2
    counts[5] = slot2


@wp.kernel
def stack_vec3(out: wp.array[wp.vec3], slots: wp.array[int]):
    _i, j = wp.tid()
    s = wp.tile_stack(capacity=CAP, dtype=wp.vec3)
    wp.tile_stack_push(s, wp.vec3(float(j), 2.0, 3.0), True)
    v, slot = wp.tile_stack_pop(s)
    empty_v, empty_slot = wp.tile_stack_pop(s)
    out[0] = v
    out[1] = empty_v
    slots[0] = slot
    slots[1] = empty_slot


def test_stack_on_a_one_thread_block():
    data = wp.array([9, 1, 8, 3, 7, 2, 6, 4], dtype=int)
    out = wp.full(8, -1, dtype=int)
    slots = wp.full(8, -2, dtype=int)
    counts = wp.zeros(6, dtype=int)
    wp.launch_tiled(stack_ops, dim=[1], inputs=[data, out, slots, counts], block_dim=8)
    # on the CPU a block is one thread (j == 0): it pushes 9, pops it back
    assert out.numpy().tolist() == [9, -1, -1, -1, -1, -1, -1, -1]
    assert slots.numpy()[0] == 0
    assert counts.numpy().tolist() == [1, 0, 0, 2, 41, 1]
    vout = wp.zeros(2, dtype=wp.vec3)
    vslots = wp.zeros(2, dtype=int)
    wp.launch_tiled(stack_vec3, dim=[1], inputs=[vout, vslots], block_dim=8)
    np.testing.assert_array_equal(vout.numpy(), [[0, 2, 3], [0, 0, 0]])
    assert vslots.numpy().tolist() == [0, -1]


@wp.kernel
def stack_overflow(slots: wp.array[int], counts: wp.array[int]):
    i, j = wp.tid()
    s = wp.tile_stack(capacity=2, dtype=float)
    for k in range(3):
        slots[k] = wp.tile_stack_push(s, float(k), True)
    counts[i] = wp.tile_stack_count(s)


def test_stack_overflow_and_many_blocks():
    slots = wp.zeros(3, dtype=int)
    counts = wp.zeros(4, dtype=int)
    wp.launch_tiled(stack_overflow, dim=[4], inputs=[slots, counts], block_dim=16)
    assert slots.numpy().tolist() == [0, 1, -1]
    assert counts.numpy().tolist() == [2, 2, 2, 2]


def _kernel_error(fn):
    kernel = wp.kernel(module="unique")(fn)
    with pytest.raises(Exception) as info:
        kernel._compile("cpu")
    return info.value


def _line_of(fn, text):
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(lines) if text in line)


def test_stack_errors_name_the_argument():
    def bool_capacity():
        s = wp.tile_stack(capacity=True, dtype=int)  # noqa: F841

    err = _kernel_error(bool_capacity)
    assert isinstance(err, RuntimeError)
    assert ("tile_stack(): no overload takes this capacity: it must be a positive integer "
            "constant, not a bool") in str(err)
    assert f":{_line_of(bool_capacity, 'capacity=True')}:" in str(err)

    def zero_capacity():
        s = wp.tile_stack(capacity=0, dtype=int)  # noqa: F841

    err = _kernel_error(zero_capacity)
    assert isinstance(err, ValueError)
    assert "tile_stack(): capacity must be a positive integer (at most 1048576), got 0" in str(err)

    def mismatched_push():
        s = wp.tile_stack(capacity=4, dtype=int)
        wp.tile_stack_push(s, 1.0, True)

    err = _kernel_error(mismatched_push)
    assert ("tile_stack_push(): value type float32 does not match the stack's dtype int32"
            in str(err))
    assert f":{_line_of(mismatched_push, 'tile_stack_push')}:" in str(err)

    def not_a_stack():
        wp.tile_stack_count(3)

    assert "tile_stack_count(): expects a tile stack (from wp.tile_stack), got a constant" in str(
        _kernel_error(not_a_stack))


def test_stack_annotation_checks_its_arguments():
    assert repr(wp.tile_stack(capacity=4, dtype=float)) == "tile_stack(capacity=4, dtype=float32)"
    with pytest.raises(ValueError, match="positive integer"):
        wp.tile_stack(capacity=0, dtype=int)
    with pytest.raises(TypeError, match="positive integer"):
        wp.tile_stack(capacity=True, dtype=int)


@wp.kernel
def scans(a: wp.array[float], b: wp.array[int], out: wp.array2d[float], iout: wp.array2d[int]):
    t = wp.tile_load(a, shape=N)
    wp.tile_store(out[0], wp.tile_scan_inclusive(t))
    wp.tile_store(out[1], wp.tile_scan_exclusive(t))
    wp.tile_store(out[2], wp.tile_scan_max_inclusive(t))
    wp.tile_store(out[3], wp.tile_scan_min_inclusive(t))
    u = wp.tile_load(b, shape=N)
    wp.tile_store(iout[0], wp.tile_scan_inclusive(u))
    wp.tile_store(iout[1], wp.tile_scan_exclusive(u))


@wp.kernel
def scan_2d(a: wp.array2d[float], out: wp.array2d[float]):
    t = wp.tile_load(a, shape=(3, 5))
    wp.tile_store(out, wp.tile_scan_inclusive(t))


def _check_scans(device, block_dim):
    rng = np.random.default_rng(1)
    x = rng.uniform(-10, 10, N).astype(np.float32)
    y = rng.integers(-50, 50, N).astype(np.int32)
    out = wp.zeros((4, N), dtype=float, device=device)
    iout = wp.zeros((2, N), dtype=int, device=device)
    wp.launch_tiled(scans, dim=[1], inputs=[wp.array(x, device=device), wp.array(y, device=device),
                                           out, iout], block_dim=block_dim, device=device)
    o = out.numpy()
    np.testing.assert_allclose(o[0], np.cumsum(x), rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(o[1], np.concatenate([[0], np.cumsum(x)[:-1]]), rtol=1e-5,
                               atol=1e-4)
    np.testing.assert_array_equal(o[2], np.maximum.accumulate(x))
    np.testing.assert_array_equal(o[3], np.minimum.accumulate(x))
    np.testing.assert_array_equal(iout.numpy()[0], np.cumsum(y))
    np.testing.assert_array_equal(iout.numpy()[1], np.concatenate([[0], np.cumsum(y)[:-1]]))
    m = rng.random((3, 5)).astype(np.float32)
    out2 = wp.zeros((3, 5), dtype=float, device=device)
    wp.launch_tiled(scan_2d, dim=[1], inputs=[wp.array(m, device=device), out2],
                    block_dim=block_dim, device=device)
    np.testing.assert_allclose(out2.numpy(), np.cumsum(m).reshape(3, 5), rtol=1e-5)


def test_scans_match_numpy():
    _check_scans("cpu", 32)


@wp.kernel
def sort_pairs(keys: wp.array[float], values: wp.array[int], ikeys: wp.array[wp.int64]):
    k = wp.tile_load(keys, shape=N, storage="shared")
    v = wp.tile_arange(N, dtype=int, storage="shared")
    wp.tile_sort(k, v)
    wp.tile_store(keys, k)
    wp.tile_store(values, v)
    k64 = wp.tile_load(ikeys, shape=N)
    v2 = wp.tile_arange(N, dtype=float)
    wp.tile_sort(k64, v2)
    wp.tile_store(ikeys, k64)


def _check_sort(device, block_dim):
    rng = np.random.default_rng(2)
    x = rng.integers(0, 10, N).astype(np.float32)  # many equal keys: the sort is stable
    i64 = rng.integers(-(2**40), 2**40, N).astype(np.int64)
    keys = wp.array(x, device=device)
    values = wp.zeros(N, dtype=int, device=device)
    ikeys = wp.array(i64, dtype=wp.int64, device=device)
    wp.launch_tiled(sort_pairs, dim=[1], inputs=[keys, values, ikeys], block_dim=block_dim,
                    device=device)
    np.testing.assert_array_equal(keys.numpy(), np.sort(x))
    np.testing.assert_array_equal(values.numpy(), np.argsort(x, kind="stable"))
    np.testing.assert_array_equal(ikeys.numpy(), np.sort(i64))


def test_sort_is_stable_and_matches_numpy():
    _check_sort("cpu", 32)


def test_sort_refuses_unsorted_key_types():
    def bad_keys():
        k = wp.tile_zeros(shape=8, dtype=wp.float16)
        v = wp.tile_zeros(shape=8, dtype=int)
        wp.tile_sort(k, v)

    assert "tile_sort(): keys must be a tile of float32, int32, uint32, int64 or uint64" in str(
        _kernel_error(bad_keys))

    def bad_lengths():
        k = wp.tile_zeros(shape=8, dtype=float)
        v = wp.tile_zeros(shape=4, dtype=int)
        wp.tile_sort(k, v)

    assert "tile_sort(): keys and values must be 1-D tiles of one length" in str(
        _kernel_error(bad_lengths))


_M32 = 0xFFFFFFFF


def _pcg(s):
    b = (s * 747796405 + 2891336453) & _M32
    c = ((((b >> ((b >> 28) + 4)) ^ b)) * 277803737) & _M32
    return ((c >> 22) ^ c) & _M32


def _expected_rand(seed, shape, block_dim, draw):
    """Element e of a random tile: slot e // B of thread e % B, whose state is pcg(rng + lane)
    and advances once a slot."""
    rng = _pcg((seed + _pcg(0)) & _M32)
    size = int(np.prod(shape))
    out = np.zeros(size, dtype=object)
    for lane in range(min(block_dim, size)):
        state = _pcg((rng + lane) & _M32)
        for e in range(lane, size, block_dim):
            state = _pcg(state)
            out[e] = draw(state)
    return out.reshape(shape)


@wp.kernel
def rand_tiles(seed: int, x: wp.array2d[int], y: wp.array2d[float], z: wp.array2d[int]):
    rng = wp.rand_init(seed, 0)
    wp.tile_store(x, wp.tile_randi(shape=(3, 5), rng=rng))
    wp.tile_store(y, wp.tile_randf(shape=(3, 5), rng=rng))
    wp.tile_store(z, wp.tile_randi(shape=(3, 5), rng=rng, min=-5, max=5))


def _check_rand(device, block_dim):
    x = wp.zeros((3, 5), dtype=int, device=device)
    y = wp.zeros((3, 5), dtype=float, device=device)
    z = wp.zeros((3, 5), dtype=int, device=device)
    wp.launch_tiled(rand_tiles, dim=[1], inputs=[42, x, y, z], block_dim=block_dim,
                    device=device)
    bd = 1 if device == "cpu" else block_dim
    want_i = _expected_rand(42, (3, 5), bd, lambda s: s - (1 << 32) if s >= 1 << 31 else s)
    want_f = _expected_rand(42, (3, 5), bd, lambda s: (s >> 8) / 16777216.0)
    want_r = _expected_rand(42, (3, 5), bd, lambda s: s % 10 - 5)
    np.testing.assert_array_equal(x.numpy(), want_i.astype(np.int64))
    np.testing.assert_allclose(y.numpy(), want_f.astype(np.float64), rtol=1e-7)
    np.testing.assert_array_equal(z.numpy(), want_r.astype(np.int64))


def test_random_tiles_follow_the_pcg_sequence():
    _check_rand("cpu", 64)


@wp.kernel
def from_thread(out: wp.array2d[int], dims: wp.array[int]):
    i, j = wp.tid()
    value = i * 100 + j
    t = wp.tile_from_thread(shape=4, value=value, thread_idx=wp.block_dim() - 1)
    wp.tile_store(out[i], t + wp.tile_arange(4, dtype=int))
    dims[i] = wp.block_dim()


def test_tile_from_thread_and_block_dim():
    out = wp.zeros((2, 4), dtype=int)
    dims = wp.zeros(2, dtype=int)
    wp.launch_tiled(from_thread, dim=[2], inputs=[out, dims], block_dim=8)
    assert out.numpy().tolist() == [[0, 1, 2, 3], [100, 101, 102, 103]]
    assert dims.numpy().tolist() == [1, 1]


TILE = wp.constant(8)


@wp.kernel
def slice_views(src: wp.array[float], a: wp.array[float], b: wp.array[float],
                c: wp.array[float], lengths: wp.array[int]):
    t = wp.tile_load(src, shape=(TILE,))
    wp.tile_store(a, wp.tile_view(t, offset=(slice(0, -1, 1),)))
    wp.tile_store(b, wp.tile_view(t, offset=(slice(-3, TILE, 1),)))
    wp.tile_store(c, wp.tile_view(t, offset=(slice(6, 1, -2),)))
    lengths[0] = wp.static(len(t))
    m = wp.tile_zeros(shape=(TILE // 2 * 3, TILE % 5), dtype=float)
    lengths[1] = wp.static(len(m))


def test_tile_view_of_slices_and_static_len():
    x = np.arange(8, dtype=np.float32)
    a, b, c = wp.zeros(7), wp.zeros(3), wp.zeros(3)
    lengths = wp.zeros(2, dtype=int)
    wp.launch_tiled(slice_views, dim=[1], inputs=[wp.array(x), a, b, c, lengths], block_dim=8)
    np.testing.assert_array_equal(a.numpy(), x[0:-1])
    np.testing.assert_array_equal(b.numpy(), x[-3:])
    np.testing.assert_array_equal(c.numpy(), x[6:1:-2])
    assert lengths.numpy().tolist() == [8, 12]


def test_tile_view_offset_errors():
    def runtime_bound(n: int):
        t = wp.tile_ones(shape=(8,), dtype=float)
        v = wp.tile_view(t, offset=(slice(0, n, 1),))  # noqa: F841

    err = _kernel_error(runtime_bound)
    assert isinstance(err, ValueError)
    assert "tile_view(): slice bounds must be compile-time constant integers" in str(err)
    assert f":{_line_of(runtime_bound, 'slice(0, n')}:" in str(err)

    def with_shape():
        t = wp.tile_ones(shape=(4, 4), dtype=float)
        v = wp.tile_view(t, offset=(slice(0, 2, 1),), shape=(2, 3))  # noqa: F841

    assert "tile_view(): 'shape' together with a slice offset is not supported" in str(
        _kernel_error(with_shape))

    def out_of_bounds():
        t = wp.tile_ones(shape=(4, 4), dtype=float)
        v = wp.tile_view(t, offset=(4,))  # noqa: F841

    assert ("tile_view(): offset 4 is out of bounds for dimension 0 of a "
            "tile(dtype=float32, shape=(4, 4))") in str(_kernel_error(out_of_bounds))


def test_tile_atomic_add_refuses_narrow_integers():
    def narrow(a: wp.array[wp.int8]):
        wp.tile_atomic_add(a, wp.tile_load(a, shape=4))

    err = _kernel_error(narrow)
    assert isinstance(err, RuntimeError)
    assert "tile_atomic_add(): only supports tiles of int32, uint32, int64, uint64" in str(err)


@pytest.mark.skipif(not _treadle.nvrtc_available(), reason="NVRTC is not installed")
@pytest.mark.parametrize("kernel", ["stack_ops", "stack_vec3", "stack_overflow", "scans",
                                    "scan_2d", "sort_pairs", "rand_tiles", "from_thread", "element_accumulate", "scatters",
                                    "slice_views", "scatters_nd", "masked_reduction"])
def test_cuda_source_compiles(kernel):
    kernel = globals()[kernel]
    for adjoint in (False, True):
        ok, log = _treadle.check_cuda_compile(kernel._function_source(), 90, adjoint=adjoint)
        assert ok, log


@pytest.mark.skipif(not wp.is_cuda_available(), reason="CUDA is not available")
def test_block_operations_on_cuda():
    device = "cuda:0"
    for block_dim in (32, 64, 128):
        _check_scans(device, block_dim)
        _check_sort(device, block_dim)
        _check_rand(device, block_dim)
    # every thread of a 64-thread block pushes; the pops give back each value once
    data = wp.array(np.arange(64, dtype=np.int32) % 10, device=device)
    out = wp.full(64, -1, dtype=int, device=device)
    slots = wp.full(64, -2, dtype=int, device=device)
    counts = wp.zeros(6, dtype=int, device=device)
    wp.launch_tiled(stack_ops, dim=[1], inputs=[data, out, slots, counts], block_dim=64,
                    device=device)
    pushed = (np.arange(64) % 10)[np.arange(64) % 10 > 5]
    c = counts.numpy()
    assert c[0] == CAP and c[1] == 0 and c[2] == 0 and c[3] == CAP
    s = slots.numpy()
    assert sorted(s[s >= 0].tolist()) == list(range(CAP)) and (s[s < 0] == -1).all()
    got = out.numpy()
    # pops fill out[0:CAP] with pushed values; the rest stays untouched
    assert set(got[:CAP].tolist()) <= set(pushed.tolist()) and (got[CAP:] == -1).all()
    counts2 = wp.zeros(4, dtype=int, device=device)
    slots2 = wp.zeros(3, dtype=int, device=device)
    wp.launch_tiled(stack_overflow, dim=[4], inputs=[slots2, counts2], block_dim=16,
                    device=device)
    assert counts2.numpy().tolist() == [2, 2, 2, 2]
    fout = wp.zeros((2, 4), dtype=int, device=device)
    dims = wp.zeros(2, dtype=int, device=device)
    wp.launch_tiled(from_thread, dim=[2], inputs=[fout, dims], block_dim=8, device=device)
    assert fout.numpy().tolist() == [[7, 8, 9, 10], [107, 108, 109, 110]]
    assert dims.numpy().tolist() == [8, 8]
    x = np.arange(1, 9, dtype=np.float32)
    src = wp.array(x, requires_grad=True, device=device)
    acc = wp.zeros(3, requires_grad=True, device=device)
    with wp.Tape() as tape:
        wp.launch_tiled(element_accumulate, dim=[1], inputs=[src, acc], block_dim=8, device=device)
    np.testing.assert_allclose(acc.numpy(), [0.0, 2 * np.sum(x * x), -2 * np.sum(x)], rtol=1e-6)
    acc.grad = wp.ones_like(acc)
    tape.backward()
    np.testing.assert_allclose(src.grad.numpy(), 4 * x - 2, rtol=1e-6)
    y = np.array([2.0, 5.0, 6.0, 7.0, 1.0, 2.0, 3.0, 4.0], dtype=np.float32)
    src = wp.array(y, device=device)
    out = wp.zeros((3, 4), device=device)
    wp.launch_tiled(scatters, dim=[1], inputs=[src, out], block_dim=8, device=device)
    hist = np.zeros(4)
    np.add.at(hist, y.astype(int) % 4, y)
    np.testing.assert_allclose(out.numpy()[0], hist)
    np.testing.assert_array_equal(out.numpy()[1], [1, 1, 1, 1])
    np.testing.assert_array_equal(out.numpy()[2], (y[:4] * 10)[::-1])


def test_tile_reshape_refuses_strided_views():
    def strided():
        t = wp.tile_ones(shape=(4, 4), dtype=float)
        flat = wp.tile_reshape(t[::2, ::2], shape=(4,))  # noqa: F841

    err = _kernel_error(strided)
    assert isinstance(err, ValueError)
    assert "tile_reshape() requires a contiguous tile, not a strided view" in str(err)
    assert f":{_line_of(strided, 'tile_reshape')}:" in str(err)


@wp.kernel
def element_accumulate(src: wp.array[float], out: wp.array[float]):
    _i, j = wp.tid()
    t = wp.tile_zeros(shape=3, dtype=float)
    t[1] += src[j] * src[j]  # every thread of the block adds its value
    t[2] -= src[j]
    wp.tile_store(out, t * 2.0)


def test_tile_element_accumulates_every_thread():
    x = np.array([1.5, 2.0, 3.0], dtype=np.float32)
    src = wp.array(x, requires_grad=True)
    out = wp.zeros(3, requires_grad=True)
    with wp.Tape() as tape:
        wp.launch_tiled(element_accumulate, dim=[1], inputs=[src, out], block_dim=8)
    # on the CPU the block is thread 0 alone
    np.testing.assert_allclose(out.numpy(), [0.0, 2 * x[0] ** 2, -2 * x[0]])
    out.grad = wp.ones_like(out)
    tape.backward()
    np.testing.assert_allclose(src.grad.numpy(), [4 * x[0] - 2, 0, 0])


@wp.kernel
def scatters(src: wp.array[float], out: wp.array2d[float]):
    _i, j = wp.tid()
    hist = wp.tile_zeros(shape=4, dtype=float, storage="shared")
    wp.tile_scatter_add(hist, int(src[j]) % 4, src[j], True)
    wp.tile_store(out[0], hist)
    lanes = wp.tile_zeros(shape=4, dtype=float, storage="shared")
    wp.tile_scatter_add(lanes, j % 4, 1.0, j < 4, atomic=False)
    wp.tile_store(out[1], lanes)
    marks = wp.tile_full(shape=4, value=-1.0, dtype=float)
    wp.tile_scatter_masked(marks, 3 - j, src[j] * 10.0, j < 4)
    wp.tile_store(out[2], marks)


def test_scatters_into_tiles():
    x = np.array([2.0, 5.0, 6.0, 7.0, 1.0, 2.0, 3.0, 4.0], dtype=np.float32)
    src = wp.array(x, requires_grad=True)
    out = wp.zeros((3, 4), requires_grad=True)
    with wp.Tape() as tape:
        wp.launch_tiled(scatters, dim=[1], inputs=[src, out], block_dim=8)
    # the CPU block is thread 0: src[0] = 2 lands in bin 2, lane 0 in slot 0 and 3
    np.testing.assert_array_equal(out.numpy(), [[0, 0, 2, 0], [1, 0, 0, 0], [-1, -1, -1, 20]])
    out.grad = wp.ones_like(out)
    tape.backward()
    np.testing.assert_allclose(src.grad.numpy(), [11, 0, 0, 0, 0, 0, 0, 0])


@wp.kernel
def scatters_nd(src: wp.array[float], out2: wp.array2d[float], out3: wp.array3d[int]):
    _i, j = wp.tid()
    t = wp.tile_zeros(shape=(2, 3), dtype=float, storage="shared")
    wp.tile_scatter_add(t, 1, 2, src[j], True)
    wp.tile_scatter_add(t, 0, 1, 4.0, True, atomic=False)
    wp.tile_scatter_add(t, 2, 0, 100.0, True)  # outside the tile: changes nothing
    wp.tile_store(out2, t)
    m = wp.tile_full(shape=(2, 2, 2), value=-1, dtype=int)
    wp.tile_scatter_masked(m, 1, 0, 1, 7, True)
    wp.tile_scatter_masked(m, 0, 0, 0, 9, j > 0)
    wp.tile_store(out3, m)


def test_scatters_take_one_index_per_dimension():
    src = wp.array(np.array([3.0], dtype=np.float32), requires_grad=True)
    out2 = wp.zeros((2, 3), requires_grad=True)
    out3 = wp.zeros((2, 2, 2), dtype=int)
    with wp.Tape() as tape:
        wp.launch_tiled(scatters_nd, dim=[1], inputs=[src, out2, out3], block_dim=1)
    np.testing.assert_array_equal(out2.numpy(), [[0, 4, 0], [0, 0, 3]])
    expect = -np.ones((2, 2, 2), dtype=np.int32)
    expect[1, 0, 1] = 7
    np.testing.assert_array_equal(out3.numpy(), expect)
    out2.grad = wp.array(np.arange(6, dtype=np.float32).reshape(2, 3))
    tape.backward()
    np.testing.assert_allclose(src.grad.numpy(), [5.0])

    def too_few(a: wp.array[float]):
        t = wp.tile_zeros(shape=(2, 3), dtype=float)
        wp.tile_scatter_add(t, 1, a[0], True)

    err = _kernel_error(too_few)
    assert ("tile_scatter_add(): expects 2 indices (one per dimension of the "
            "tile(dtype=float32, shape=(2, 3))), then value and has_value; got 3 arguments "
            "after the tile") in str(err)
    assert f"test_tile_block.py:{_line_of(too_few, 'tile_scatter_add')}:" in str(err)


@wp.kernel
def bitwise_elements(a: wp.array[wp.uint32], v: wp.array[wp.vec3ui], out: wp.array[wp.uint32],
                     outv: wp.array[wp.vec3ui]):
    _i, j = wp.tid()
    s = wp.tile_zeros(shape=3, dtype=wp.uint32)
    s[0] = a[0]
    s[0] &= a[1]
    s[1] = a[0]
    s[1] |= a[1]
    s[2] = a[0]
    s[2] ^= a[1]
    wp.tile_store(out, s)
    t = wp.tile_zeros(shape=1, dtype=wp.vec3ui)
    t[0] = v[0]
    t[0] ^= v[1]
    wp.tile_store(outv, t)
    # whole tiles, element by element; a tile first bound in some branches only
    x = wp.tile_load(a, shape=2)
    y = wp.tile_load(a, shape=2, offset=1)
    if a[0] > wp.uint32(100):
        z = x & y
    elif a[0] > wp.uint32(1):
        z = x | y
    x ^= y
    wp.tile_store(out, wp.tile_map(wp.add, z, x), offset=3)


def test_bitwise_inplace_on_tile_elements():
    a = wp.array(np.array([0b1100, 0b1010], dtype=np.uint32))
    v = wp.array(np.array([[1, 2, 3], [3, 3, 3]], dtype=np.uint32), dtype=wp.vec3ui)
    out = wp.zeros(5, dtype=wp.uint32)
    outv = wp.zeros(1, dtype=wp.vec3ui)
    wp.launch_tiled(bitwise_elements, dim=[1], inputs=[a, v, out, outv], block_dim=1)
    # z = x | y = [0b1110, 0b1010 | 0] and x ^ y = [0b0110, 0b1010]
    np.testing.assert_array_equal(out.numpy(), [0b1000, 0b1110, 0b0110, 0b1110 + 0b0110,
                                                0b1010 + 0b1010])
    np.testing.assert_array_equal(outv.numpy(), [[2, 1, 0]])
    ok, log = (_treadle.check_cuda_compile(bitwise_elements._function_source(), 90)
               if _treadle.nvrtc_available() else (True, ""))
    assert ok, log

    def float_tile():
        t = wp.tile_zeros(shape=2, dtype=float)
        t[0] &= 1.0

    err = _kernel_error(float_tile)
    assert ("bitwise inplace '&=' on a tile element needs a tile of integers (or integer "
            "vectors or matrices), not a tile(dtype=float32, shape=(2,))") in str(err)


def _cuda_source_error(kernel, block_dim=64):
    """The error building `kernel`'s CUDA source for tiles of `block_dim` threads, or None."""
    try:
        _treadle.kernel_source(kernel._function_source(), cuda=True, block_dim=block_dim)
    except Exception as e:  # noqa: BLE001 - the error under test
        return e
    return None


@wp.kernel
def divergent_reduction(x: wp.array[float], y: wp.array[float]):
    i, j = wp.tid()
    t = wp.tile_load(x, shape=64, offset=64 * i)
    k = 32
    while k > 0:
        if j < k:
            t[j] += t[j + k]
        k //= 2
    wp.tile_store(y, wp.tile_view(t, offset=(0,), shape=(1,)), i)


@wp.kernel
def masked_reduction(x: wp.array[float], y: wp.array[float], counts: wp.array[int]):
    i, j = wp.tid()
    t = wp.tile_load(x, shape=64, offset=64 * i)
    k = 32
    while k > 0:
        wp.tile_scatter_add(t, j, t[j + k], j < k)
        k //= 2
    if i == 0:  # the same in every thread of the block
        wp.tile_store(y, wp.tile_sum(t), i)
    n = x.shape[0]
    for e in range(j, (n + 63) // 64 * 64, 64):  # Warp's strided loop
        v = wp.tile_max(wp.tile(x[e % n]))
    s = wp.tile_stack(capacity=4, dtype=int)
    wp.tile_stack_push(s, j, j < 2)
    if j == 0:
        counts[i] = wp.tile_stack_count(s)  # reads a settled count: no barrier


@wp.func
def block_total(t: wp.tile[float, 64]):
    return wp.tile_sum(t)[0]


@wp.kernel
def divergent_call(x: wp.array[float], y: wp.array[float]):
    i, j = wp.tid()
    t = wp.tile_load(x, shape=64)
    slot = wp.atomic_add(y, 0, 1.0)
    if slot > 2.0:
        return
    y[1] = block_total(t)


def test_block_operations_in_per_thread_branches_are_refused_on_cuda():
    err = _cuda_source_error(divergent_reduction)
    assert err is not None and "test_tile_block.py:" in str(err)
    assert str(err).split(": ", 1)[1].startswith(
        "divergent_reduction(): tile_extract() runs on every thread of the block together, but "
        "here it is inside a branch, loop or early exit on a value that differs between the "
        f"threads (line {_line_of(divergent_reduction.func, 'if j < k')})")
    assert f":{_line_of(divergent_reduction.func, 't[j] += t[j + k]')}:" in str(err)
    # an early return after an atomic's result makes the rest of the kernel per-thread
    err = _cuda_source_error(divergent_call)
    assert "divergent_call(): block_total() (it uses tiles) runs on every thread" in str(err)
    assert f"(line {_line_of(divergent_call.func, 'if slot > 2.0')})" in str(err)
    # masks instead of branches, uniform branches, strided loops and counts are fine
    assert _cuda_source_error(masked_reduction) is None
    # blocks of one thread (the CPU) have no divergence: they build and run
    assert _cuda_source_error(divergent_reduction, block_dim=1) is None
    x = wp.array(np.arange(64, dtype=np.float32))
    y = wp.zeros(1)
    wp.launch_tiled(divergent_reduction, dim=[1], inputs=[x, y], block_dim=64, device="cpu")
    assert y.numpy()[0] == 0.0 + 32.0 + 16.0 + 8.0 + 4.0 + 2.0 + 1.0  # thread 0 of a 1-thread block
