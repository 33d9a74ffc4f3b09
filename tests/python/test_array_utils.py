"""wp.utils' array utilities against numpy: scans, sums, inner products, casts, radix and
segmented sorts and run-length encoding, on every device, with Warp's error messages."""

import numpy as np
import pytest

import treadle as wp

SIZES = (0, 1, 7, 64, 65, 1000, 4099)  # empty, one, odd, one chunk, past it, several levels


def _rng(*salt):
    return np.random.default_rng([12345, *salt])


def _sort_input(keys_np, values_np, device, key_dtype, value_dtype):
    """Arrays of twice the length (Warp's layout: the second half is scratch)."""
    n = len(keys_np)
    keys = wp.array(np.concatenate([keys_np, np.zeros(n, keys_np.dtype)]), dtype=key_dtype,
                    device=device)
    values = wp.array(np.concatenate([values_np, np.zeros(n, values_np.dtype)]),
                      dtype=value_dtype, device=device)
    return keys, values


# --- array_scan ----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [wp.int32, wp.int64, wp.float32, wp.float64, wp.vec3i, wp.vec2d])
@pytest.mark.parametrize("n", SIZES)
def test_array_scan_matches_cumsum(device, dtype, n):
    scalar = getattr(dtype, "_wp_scalar_type_", dtype)
    shape = (n, *getattr(dtype, "_shape", ()))
    # small integers: every float sum is exact, so results compare equal
    data = _rng(n).integers(-50, 50, size=shape).astype(scalar._np_dtype)
    values = wp.array(data, dtype=dtype, device=device) if n else wp.zeros(0, dtype, device)
    inclusive, exclusive = wp.zeros_like(values), wp.zeros_like(values)
    wp.utils.array_scan(values, inclusive, True)
    wp.utils.array_scan(values, exclusive, inclusive=False)
    expected = np.cumsum(data, axis=0, dtype=scalar._np_dtype)
    np.testing.assert_array_equal(inclusive.numpy(), expected)
    np.testing.assert_array_equal(exclusive.numpy(), expected - data)


def test_array_scan_in_place_and_strided(device):
    data = np.arange(1, 301, dtype=np.int32)
    a = wp.array(data, device=device)
    wp.utils.array_scan(a, a)
    np.testing.assert_array_equal(a.numpy(), np.cumsum(data))
    base = wp.array(np.full(600, -7, np.int32), device=device)
    wp.utils.array_scan(wp.array(data, device=device), base[1::2], False)
    out = base.numpy()
    np.testing.assert_array_equal(out[1::2], np.cumsum(data) - data)
    np.testing.assert_array_equal(out[::2], -7)


def test_array_scan_errors(device):
    a = wp.zeros(5, dtype=int, device=device)
    with pytest.raises(RuntimeError, match=r"^In and out array storage sizes do not match \(5 vs 6\)$"):
        wp.utils.array_scan(a, wp.zeros(6, dtype=int, device=device))
    with pytest.raises(RuntimeError, match=r"^In and out array data types do not match \(int32 vs float32\)$"):
        wp.utils.array_scan(a, wp.zeros(5, dtype=float, device=device))
    h = wp.zeros(5, dtype=wp.float16, device=device)
    with pytest.raises(RuntimeError, match=r"^Unsupported data type: float16$"):
        wp.utils.array_scan(h, h)


def test_utilities_are_not_recorded_on_a_tape(device):
    a = wp.array(np.ones(100, np.float32), device=device)
    with wp.Tape() as tape:
        wp.utils.array_scan(a, wp.zeros_like(a))
        wp.utils.array_sum(a)
    assert tape.launches == []


# --- radix_sort_pairs ------------------------------------------------------------------------

KEY_TYPES = [wp.int32, wp.uint32, wp.float32, wp.int64, wp.uint64, wp.float64]


def _random_keys(dtype, n, rng):
    if dtype in (wp.float32, wp.float64):
        return (rng.standard_normal(n) * 1e3).astype(dtype._np_dtype)
    info = np.iinfo(dtype._np_dtype)
    return rng.integers(info.min, info.max, size=n, dtype=dtype._np_dtype, endpoint=True)


@pytest.mark.parametrize("key_dtype", KEY_TYPES)
@pytest.mark.parametrize("n", SIZES)
def test_radix_sort_pairs_is_a_stable_sort(device, key_dtype, n):
    rng = _rng(n, KEY_TYPES.index(key_dtype))
    keys_np = _random_keys(key_dtype, n, rng)
    if n > 10 and key_dtype not in (wp.float32, wp.float64):
        keys_np[::3] = keys_np[1]  # repeated keys: the values show whether the sort is stable
    values_np = np.arange(n, dtype=np.int32)
    keys, values = _sort_input(keys_np, values_np, device, key_dtype, wp.int32)
    wp.utils.radix_sort_pairs(keys, values, n)
    order = np.argsort(keys_np, kind="stable")
    np.testing.assert_array_equal(keys.numpy()[:n], keys_np[order])
    np.testing.assert_array_equal(values.numpy()[:n], values_np[order])


@pytest.mark.parametrize("value_dtype", [wp.float32, wp.uint64, wp.float64])
def test_radix_sort_pairs_moves_values_of_any_width(device, value_dtype):
    n = 777
    rng = _rng(7)
    keys_np = rng.integers(-20, 20, size=n).astype(np.int64)
    values_np = (rng.random(n) * 2**40).astype(value_dtype._np_dtype)
    keys, values = _sort_input(keys_np, values_np, device, wp.int64, value_dtype)
    wp.utils.radix_sort_pairs(keys, values, n)
    order = np.argsort(keys_np, kind="stable")
    np.testing.assert_array_equal(values.numpy()[:n], values_np[order])


@pytest.mark.parametrize(("begin_bit", "end_bit"), [(0, 2), (3, 11), (8, 32), (5, 5)])
def test_radix_sort_pairs_bit_range(device, begin_bit, end_bit):
    n = 500
    keys_np = _rng(begin_bit).integers(0, 2**31, size=n).astype(np.uint32)
    keys, values = _sort_input(keys_np, np.arange(n, dtype=np.int32), device, wp.uint32, wp.int32)
    wp.utils.radix_sort_pairs(keys, values, n, begin_bit=begin_bit, end_bit=end_bit)
    digits = (keys_np >> np.uint32(begin_bit)) & np.uint32((1 << (end_bit - begin_bit)) - 1)
    order = np.argsort(digits, kind="stable")
    np.testing.assert_array_equal(values.numpy()[:n], order)
    np.testing.assert_array_equal(keys.numpy()[:n], keys_np[order])


def test_radix_sort_pairs_errors(device):
    keys = wp.array([3, 1, 2], dtype=int, device=device)
    values = wp.array([0, 1, 2], dtype=int, device=device)
    with pytest.raises(RuntimeError, match=r"large enough to contain 2\*count elements$"):
        wp.utils.radix_sort_pairs(keys, values, 2)
    with pytest.raises(RuntimeError, match=r"^Unsupported keys and values data types: int32, float16$"):
        wp.utils.radix_sort_pairs(keys, wp.zeros(3, dtype=wp.float16, device=device), 1)
    with pytest.raises(RuntimeError, match=r"^Invalid radix sort bit range \[0, 33\) for 32-bit keys$"):
        wp.utils.radix_sort_pairs(keys, values, 1, end_bit=33)
    long = wp.array(np.arange(16, dtype=np.int32), device=device)
    with pytest.raises(RuntimeError, match=r"requires a contiguous keys array"):
        wp.utils.radix_sort_pairs(long[::2], long, 4)


# --- segmented_sort_pairs ------------------------------------------------------------------------


def _expected_segmented(keys_np, values_np, starts, ends):
    keys, values = keys_np.copy(), values_np.copy()
    for s, e in zip(starts, ends):
        order = np.argsort(keys_np[s:e], kind="stable")
        keys[s:e], values[s:e] = keys_np[s:e][order], values_np[s:e][order]
    return keys, values


@pytest.mark.parametrize("key_dtype", [wp.int32, wp.float32])
@pytest.mark.parametrize("n", [1, 7, 1000])
def test_segmented_sort_pairs_sorts_each_segment(device, key_dtype, n):
    rng = _rng(n, 3)
    keys_np = rng.integers(-30, 30, size=n).astype(key_dtype._np_dtype)
    values_np = np.arange(n, dtype=np.int32)
    # segments with a gap between two of them (left alone) and an empty one
    cuts = np.sort(rng.integers(0, n + 1, size=6)).astype(np.int32)
    starts, ends = cuts[[0, 2, 3, 4]], cuts[[1, 3, 3, 5]]
    keys, values = _sort_input(keys_np, values_np, device, key_dtype, wp.int32)
    wp.utils.segmented_sort_pairs(keys, values, n, wp.array(starts, device=device),
                                  wp.array(ends, device=device))
    expected_keys, expected_values = _expected_segmented(keys_np, values_np, starts, ends)
    np.testing.assert_array_equal(keys.numpy()[:n], expected_keys)
    np.testing.assert_array_equal(values.numpy()[:n], expected_values)


def test_segmented_sort_pairs_ends_default_to_the_next_start(device):
    n = 300
    keys_np = _rng(4).random(n).astype(np.float32)
    values_np = np.arange(n, dtype=np.int32)
    bounds = np.array([0, 10, 11, 200, 300], dtype=np.int32)
    keys, values = _sort_input(keys_np, values_np, device, wp.float32, wp.int32)
    wp.utils.segmented_sort_pairs(keys, values, n, wp.array(bounds, device=device))
    expected_keys, expected_values = _expected_segmented(keys_np, values_np, bounds[:-1],
                                                         bounds[1:])
    np.testing.assert_array_equal(keys.numpy()[:n], expected_keys)
    np.testing.assert_array_equal(values.numpy()[:n], expected_values)


def test_segmented_sort_pairs_errors(device):
    keys = wp.zeros(8, dtype=float, device=device)
    values = wp.zeros(8, dtype=int, device=device)
    starts, ends = wp.array([0], dtype=int, device=device), wp.array([4], dtype=int, device=device)
    with pytest.raises(RuntimeError, match=r"^Array storage must be large enough to contain 2\*count"):
        wp.utils.segmented_sort_pairs(keys, values, 5, starts, ends)
    with pytest.raises(RuntimeError, match=r"^Unsupported data type: float32$"):
        wp.utils.segmented_sort_pairs(keys, wp.zeros(8, dtype=float, device=device), 4, starts,
                                      ends)
    if device == "cpu":
        with pytest.raises(ValueError, match=r"segment 0 has invalid bounds \[0, 5\)"):
            wp.utils.segmented_sort_pairs(keys, values, 4, starts,
                                          wp.array([5], dtype=int, device=device))


# --- runlength_encode ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", SIZES)
def test_runlength_encode_matches_numpy(device, n):
    data = np.repeat(_rng(n).integers(-5, 5, size=n), _rng(n, 1).integers(1, 4, size=n))[:n]
    data = data.astype(np.int32)
    values = wp.array(data, dtype=int, device=device) if n else wp.zeros(0, int, device)
    run_values, run_lengths = wp.zeros_like(values), wp.zeros_like(values)
    count = wp.utils.runlength_encode(values, run_values, run_lengths)
    heads = np.flatnonzero(np.diff(data, prepend=data[:1] - 1)) if n else np.array([], int)
    lengths = np.diff(np.append(heads, n))
    assert count == len(heads)
    np.testing.assert_array_equal(run_values.numpy()[:count], data[heads])
    np.testing.assert_array_equal(run_lengths.numpy()[:count], lengths)


def test_runlength_encode_run_count_array_and_value_count(device):
    values = wp.array([4, 4, 1, 1, 1, 2, 9, 9], dtype=int, device=device)
    run_values, run_lengths = wp.zeros_like(values), wp.zeros_like(values)
    run_count = wp.full(1, 77, dtype=int, device=device)
    out = wp.utils.runlength_encode(values, run_values, run_lengths, run_count=run_count,
                                    value_count=4)
    assert out is run_count and run_count.numpy()[0] == 2
    np.testing.assert_array_equal(run_values.numpy()[:2], [4, 1])
    np.testing.assert_array_equal(run_lengths.numpy()[:2], [2, 2])
    wp.utils.runlength_encode(values, run_values, run_lengths, run_count=run_count, value_count=0)
    assert run_count.numpy()[0] == 0


def test_runlength_encode_errors(device):
    values = wp.zeros(6, dtype=int, device=device)
    with pytest.raises(RuntimeError, match=r"^Output array storage sizes must be at least equal to value_count \(6\)$"):
        wp.utils.runlength_encode(values, wp.zeros(5, dtype=int, device=device), values)
    with pytest.raises(RuntimeError, match=r"^run_lengths array must be of type int32$"):
        wp.utils.runlength_encode(values, values, wp.zeros(6, dtype=float, device=device))
    with pytest.raises(RuntimeError, match=r"^value_count must be non-negative, got -1$"):
        wp.utils.runlength_encode(values, values, values, value_count=-1)


# --- array_sum and array_inner -----------------------------------------------------------------

REDUCE_TYPES = [wp.float32, wp.float64, wp.vec3, wp.mat22d]


def _reduce_data(dtype, shape, salt):
    scalar = getattr(dtype, "_wp_scalar_type_", dtype)
    full_shape = (*shape, *getattr(dtype, "_shape", ()))
    return _rng(*salt).integers(-8, 8, size=full_shape).astype(scalar._np_dtype)


def _scalar_axes(dtype):
    return tuple(range(-len(getattr(dtype, "_shape", ())), 0))


@pytest.mark.parametrize("dtype", REDUCE_TYPES)
@pytest.mark.parametrize("n", SIZES)
def test_array_sum_and_inner_of_whole_arrays(device, dtype, n):
    a_np, b_np = _reduce_data(dtype, (n,), (n, 1)), _reduce_data(dtype, (n,), (n, 2))
    a = wp.array(a_np, dtype=dtype, device=device) if n else wp.zeros(0, dtype, device)
    b = wp.array(b_np, dtype=dtype, device=device) if n else wp.zeros(0, dtype, device)
    np.testing.assert_array_equal(wp.utils.array_sum(a), a_np.sum(axis=0))
    assert wp.utils.array_inner(a, b) == (a_np * b_np).sum()
    part = n // 2
    np.testing.assert_array_equal(wp.utils.array_sum(a, value_count=part),
                                  a_np[:part].sum(axis=0))
    assert wp.utils.array_inner(a, b, count=part) == (a_np[:part] * b_np[:part]).sum()
    scalar = getattr(dtype, "_wp_scalar_type_", dtype)
    out = wp.full(1, 5, dtype=scalar, device=device)
    assert wp.utils.array_inner(a, b, out=out) is out
    assert out.numpy()[0] == (a_np * b_np).sum()


@pytest.mark.parametrize("dtype", [wp.float32, wp.vec2d])
@pytest.mark.parametrize("shape", [(5,), (3, 70), (4, 0, 2), (2, 3, 65), (2, 2, 2, 3)])
def test_array_sum_and_inner_along_an_axis(device, dtype, shape):
    a_np, b_np = _reduce_data(dtype, shape, (len(shape), 1)), _reduce_data(dtype, shape, (2,))
    a = wp.array(a_np, dtype=dtype, shape=shape, device=device)
    b = wp.array(b_np, dtype=dtype, shape=shape, device=device)
    for axis in range(-1, len(shape)):
        np_axis = axis % len(shape)  # numpy's arrays have the element dimensions too
        total = wp.utils.array_sum(a, axis=axis)
        np.testing.assert_array_equal(total.numpy(), a_np.sum(axis=np_axis, keepdims=True))
        inner = wp.utils.array_inner(a, b, axis=axis)
        products = (a_np * b_np).sum(axis=_scalar_axes(dtype))
        np.testing.assert_array_equal(inner.numpy(), products.sum(axis=np_axis, keepdims=True))


def test_array_sum_of_a_strided_view_and_into_out(device):
    data = _reduce_data(wp.float64, (6, 9), (9,))
    a = wp.array(data, dtype=wp.float64, device=device).transpose()
    assert wp.utils.array_sum(a) == data.sum()
    out = wp.zeros((9, 1), dtype=wp.float64, device=device)
    assert wp.utils.array_sum(a, out=out, axis=1) is out
    np.testing.assert_array_equal(out.numpy(), data.T.sum(axis=1, keepdims=True))


def test_array_sum_and_inner_errors(device):
    a = wp.array([1.0, 2.0], dtype=float, device=device)
    with pytest.raises(RuntimeError, match=r"^Unsupported data type: int32$"):
        wp.utils.array_sum(wp.zeros(2, dtype=int, device=device))
    with pytest.raises(RuntimeError, match=r"^out array should have type float32$"):
        wp.utils.array_sum(a, out=wp.zeros(1, dtype=wp.float64, device=device))
    with pytest.raises(RuntimeError, match=r"^out array should have shape \(1,\)$"):
        wp.utils.array_inner(a, a, out=wp.zeros(2, dtype=float, device=device))
    with pytest.raises(RuntimeError, match=r"^A and b array storage sizes do not match \(2 vs 3\)$"):
        wp.utils.array_inner(a, wp.zeros(3, dtype=float, device=device))
    with pytest.raises(RuntimeError, match=r"^A and b array data types do not match \(float32 vs float64\)$"):
        wp.utils.array_inner(a, wp.zeros(2, dtype=wp.float64, device=device))


# --- array_cast ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("src_dtype", "dst_dtype"), [(wp.int32, wp.float32), (wp.float64, wp.int16),
                                                      (wp.vec3f, wp.vec3d), (wp.uint8, wp.uint8)])
@pytest.mark.parametrize("n", [0, 1, 65])
def test_array_cast_converts_each_element(device, src_dtype, dst_dtype, n):
    src_np = _reduce_data(src_dtype, (n,), (n,)) * 3.25 + 4.0
    src_np = src_np.astype(getattr(src_dtype, "_wp_scalar_type_", src_dtype)._np_dtype)
    src = wp.array(src_np, dtype=src_dtype, device=device) if n else wp.zeros(0, src_dtype, device)
    dst = wp.zeros(n, dtype=dst_dtype, device=device)
    wp.utils.array_cast(src, dst)
    scalar = getattr(dst_dtype, "_wp_scalar_type_", dst_dtype)
    np.testing.assert_array_equal(dst.numpy(), src_np.astype(scalar._np_dtype))


def test_array_cast_shapes_and_counts(device):
    flat = wp.array(np.arange(6, dtype=np.int32), device=device)
    grid = wp.zeros((2, 3), dtype=float, device=device)
    wp.utils.array_cast(flat, grid)  # other ndim: converted as flat scalars
    np.testing.assert_array_equal(grid.numpy(), np.arange(6).reshape(2, 3))
    vectors = wp.array(np.arange(6).reshape(3, 2), dtype=wp.vec2, device=device)
    scalars = wp.zeros(6, dtype=wp.float64, device=device)
    wp.utils.array_cast(vectors, scalars, count=2)  # count counts vec2 elements
    np.testing.assert_array_equal(scalars.numpy(), [0, 1, 2, 3, 0, 0])
    wp.utils.array_cast(flat, scalars, count=3)
    np.testing.assert_array_equal(scalars.numpy(), [0, 1, 2, 3, 0, 0])
    view = wp.zeros((3, 2), dtype=float, device=device).transpose()
    wp.utils.array_cast(wp.array(np.ones((2, 3), np.int32) * 7, device=device), view)
    np.testing.assert_array_equal(view.numpy(), np.full((2, 3), 7))
    with pytest.raises(RuntimeError, match="^Partial cast is not supported for arrays with more than one dimension$"):
        wp.utils.array_cast(grid, wp.zeros((2, 3), dtype=int, device=device), count=1)
