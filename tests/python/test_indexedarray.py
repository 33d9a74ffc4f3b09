"""wp.indexedarray: host attributes, kernel reads/writes/atomics/shape/len, views, gradients,
struct fields."""

import numpy as np
import pytest

import treadle as wp


@wp.kernel
def ia_read_1d(a: wp.indexedarray(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = a[i] * 2.0


@wp.kernel
def ia_write_1d(a: wp.indexedarray1d(dtype=float)):
    i = wp.tid()
    a[i] = float(i) + 10.0


@wp.kernel
def ia_copy_2d(a: wp.indexedarray2d(dtype=float), out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    out[i, j] = a[i, j]


@wp.kernel
def ia_shape(a: wp.indexedarray(dtype=float, ndim=2), out: wp.array(dtype=int)):
    out[0] = a.shape[0]
    out[1] = a.shape[1]
    out[2] = len(a)


@wp.kernel
def ia_atomic(a: wp.indexedarray(dtype=float), v: wp.array(dtype=float)):
    i = wp.tid()
    a[i % 2] += v[i]
    wp.atomic_max(a, 2, v[i])


@wp.kernel
def ia_vec(a: wp.indexedarray(dtype=wp.vec3), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = a[i] + wp.vec3(1.0, 2.0, 3.0)
    a[i] += wp.vec3(1.0, 1.0, 1.0)


@wp.func
def row_sum(r: wp.indexedarray(dtype=float)) -> float:
    s = 0.0
    for j in range(r.shape[0]):
        s += r[j]
    return s


@wp.kernel
def ia_rows(a: wp.indexedarray2d(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = row_sum(a[i])


@wp.kernel
def ia_square(a: wp.indexedarray(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = a[i] * a[i]


@wp.kernel
def ia_scatter(src: wp.array(dtype=float), a: wp.indexedarray(dtype=float)):
    i = wp.tid()
    a[i] = 3.0 * src[i]


def _idx(values, device):
    return wp.array(np.array(values, dtype=np.int32), dtype=wp.int32, device=device)


def test_host_attributes(device):
    data = wp.array(np.arange(10, dtype=np.float32), device=device)
    a = wp.indexedarray(data, [_idx([7, 1, 3], device)])
    assert a.shape == (3,) and a.size == 3 and a.ndim == 1 and len(a) == 3
    assert a.dtype is wp.float32 and a.device == data.device
    np.testing.assert_array_equal(a.numpy(), [7, 1, 3])
    assert a.list() == [7.0, 1.0, 3.0]
    # a single index array indexes the first dimension; numpy indices are copied over
    m = wp.array(np.arange(12, dtype=np.float32).reshape(3, 4), device=device)
    b = wp.indexedarray(m, np.array([2, 0]))
    assert b.shape == (2, 4)
    np.testing.assert_array_equal(b.numpy(), np.arange(12).reshape(3, 4)[[2, 0]])
    c = wp.indexedarray(m, [None, [3, 1]])
    assert c.shape == (3, 2)
    np.testing.assert_array_equal(c.numpy(), np.arange(12).reshape(3, 4)[:, [3, 1]])


def test_host_errors(device):
    data = wp.zeros(4, dtype=float, device=device)
    with pytest.raises(TypeError, match="index array 0 must be a 1-D int32 array"):
        wp.indexedarray(data, [wp.zeros(2, dtype=wp.float32, device=device)])
    with pytest.raises(ValueError, match="2 index arrays for a 1-D array"):
        wp.indexedarray(data, [None, None])
    with pytest.raises(TypeError, match="data must be a wp.array"):
        wp.indexedarray(np.zeros(3), [[0]])


def test_read_write_1d(device):
    src = np.arange(8, dtype=np.float32) * 1.5
    data = wp.array(src, device=device)
    idx = [5, 0, 7, 2]
    a = wp.indexedarray(data, [_idx(idx, device)])
    out = wp.zeros(4, dtype=float, device=device)
    wp.launch(ia_read_1d, dim=4, inputs=[a, out], device=device)
    np.testing.assert_allclose(out.numpy(), src[idx] * 2.0)

    wp.launch(ia_write_1d, dim=4, inputs=[a], device=device)
    expect = src.copy()
    expect[idx] = np.arange(4) + 10.0
    np.testing.assert_allclose(data.numpy(), expect)


def test_plain_array_to_indexed_parameter(device):
    data = wp.array(np.arange(4, dtype=np.float32), device=device)
    out = wp.zeros(4, dtype=float, device=device)
    wp.launch(ia_read_1d, dim=4, inputs=[data, out], device=device)
    np.testing.assert_allclose(out.numpy(), np.arange(4) * 2.0)


def test_indexed_to_plain_parameter_is_refused(device):
    data = wp.zeros(4, dtype=float, device=device)
    a = wp.indexedarray(data, [[0, 1]])
    with pytest.raises(TypeError, match=r"argument 'src' expects an array of type array\(ndim=1, "
                                        r"dtype=float32\), but passed value has type indexedarray"):
        wp.launch(ia_scatter, dim=2, inputs=[a, a], device=device)


def test_copy_2d(device):
    src = np.arange(30, dtype=np.float32).reshape(5, 6)
    data = wp.array(src, device=device)
    rows, cols = [4, 1, 1], [5, 0]
    a = wp.indexedarray(data, [_idx(rows, device), _idx(cols, device)])
    out = wp.zeros((3, 2), dtype=float, device=device)
    wp.launch(ia_copy_2d, dim=(3, 2), inputs=[a, out], device=device)
    np.testing.assert_array_equal(out.numpy(), src[np.ix_(rows, cols)])
    np.testing.assert_array_equal(a.numpy(), src[np.ix_(rows, cols)])
    # None keeps a whole dimension
    b = wp.indexedarray(data, [None, _idx(cols, device)])
    out = wp.zeros((5, 2), dtype=float, device=device)
    wp.launch(ia_copy_2d, dim=(5, 2), inputs=[b, out], device=device)
    np.testing.assert_array_equal(out.numpy(), src[:, cols])


def test_shape_and_len(device):
    data = wp.zeros((5, 6), dtype=float, device=device)
    a = wp.indexedarray(data, [_idx([0, 1, 2], device), None])
    out = wp.zeros(3, dtype=int, device=device)
    wp.launch(ia_shape, dim=1, inputs=[a, out], device=device)
    np.testing.assert_array_equal(out.numpy(), [3, 6, 3])


def test_atomics(device):
    data = wp.zeros(6, dtype=float, device=device)
    a = wp.indexedarray(data, [_idx([4, 1, 5], device)])
    v = np.arange(1, 9, dtype=np.float32)
    wp.launch(ia_atomic, dim=8, inputs=[a, wp.array(v, device=device)], device=device)
    expect = np.zeros(6, dtype=np.float32)
    expect[4] = v[0::2].sum()
    expect[1] = v[1::2].sum()
    expect[5] = v.max()
    np.testing.assert_allclose(data.numpy(), expect)


def test_vector_elements(device):
    src = np.arange(12, dtype=np.float32).reshape(4, 3)
    data = wp.array(src, dtype=wp.vec3, device=device)
    a = wp.indexedarray(data, [_idx([3, 0], device)])
    out = wp.zeros(2, dtype=wp.vec3, device=device)
    wp.launch(ia_vec, dim=2, inputs=[a, out], device=device)
    np.testing.assert_allclose(out.numpy(), src[[3, 0]] + [1, 2, 3])
    expect = src.copy()
    expect[[3, 0]] += 1.0
    np.testing.assert_allclose(data.numpy(), expect)


def test_views_into_functions(device):
    src = np.arange(20, dtype=np.float32).reshape(4, 5)
    data = wp.array(src, device=device)
    rows, cols = [3, 1], [0, 2, 4]
    a = wp.indexedarray(data, [_idx(rows, device), _idx(cols, device)])
    out = wp.zeros(2, dtype=float, device=device)
    wp.launch(ia_rows, dim=2, inputs=[a, out], device=device)
    np.testing.assert_allclose(out.numpy(), src[np.ix_(rows, cols)].sum(axis=1))


def test_checked_mode_bounds(device):
    old = wp.config.mode
    wp.config.mode = "checked"
    try:
        data = wp.zeros(4, dtype=float, device=device)
        out = wp.zeros(3, dtype=float, device=device)
        a = wp.indexedarray(data, [_idx([0, 1], device)])
        with pytest.raises(IndexError, match=r"index \(2,\) is out of bounds for an array of "
                                             r"shape \(2,\)"):
            wp.launch(ia_read_1d, dim=3, inputs=[a, out], device=device)
            wp.synchronize()
        bad = wp.indexedarray(data, [_idx([0, 9], device)])  # a bad value in the index array
        with pytest.raises(IndexError, match=r"index \(9,\) is out of bounds for an array of "
                                             r"shape \(4,\)"):
            wp.launch(ia_read_1d, dim=2, inputs=[bad, out], device=device)
            wp.synchronize()
    finally:
        wp.config.mode = old


def test_gradient_of_reads(device):
    src = np.array([1.0, 2.0, 3.0, 4.0, 5.0], dtype=np.float32)
    data = wp.array(src, device=device, requires_grad=True)
    idx = [4, 1, 4]  # a repeated index accumulates twice
    a = wp.indexedarray(data, [_idx(idx, device)])
    out = wp.zeros(3, dtype=float, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(ia_square, dim=3, inputs=[a, out], device=device)
    out.grad = wp.array(np.ones(3, dtype=np.float32), device=device)
    tape.backward()
    expect = np.zeros(5, dtype=np.float32)
    for i in idx:
        expect[i] += 2.0 * src[i]
    np.testing.assert_allclose(data.grad.numpy(), expect)
    np.testing.assert_allclose(a.grad.numpy(), expect[idx])


def test_gradient_of_writes(device):
    src = wp.array(np.array([1.0, 2.0, 3.0], dtype=np.float32), device=device, requires_grad=True)
    data = wp.zeros(6, dtype=float, device=device, requires_grad=True)
    a = wp.indexedarray(data, [_idx([5, 0, 2], device)])
    tape = wp.Tape()
    with tape:
        wp.launch(ia_scatter, dim=3, inputs=[src, a], device=device)
    data.grad = wp.array(np.arange(6, dtype=np.float32), device=device)
    tape.backward()
    np.testing.assert_allclose(src.grad.numpy(), 3.0 * np.array([5.0, 0.0, 2.0]))


# --- indexed arrays in struct fields ------------------------------------------------------


@wp.struct
class Gather:
    values: wp.indexedarray[float]
    scale: float


@wp.struct
class Outer:
    inner: Gather


@wp.kernel
def ia_in_struct(s: Gather, out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = s.values[i] * s.scale
    s.values[i] = 2.0 * s.values[i]
    wp.atomic_add(s.values, i, 1.0)


@wp.kernel
def ia_in_nested_struct(o: Outer, out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = o.inner.values[i] + float(o.inner.values.shape[0])


@wp.kernel
def ia_in_struct_array(many: wp.array(dtype=Gather), out: wp.array(dtype=float)):
    i = wp.tid()
    s = many[0]
    out[i] = s.values[i]
    wp.atomic_add(s.values, i, 10.0)


def test_indexed_arrays_in_struct_fields(device):
    assert Gather.numpy_dtype().fields["values"][0].itemsize == 120  # wp::indexedarray_t
    data = wp.array(np.arange(10, dtype=np.float32), device=device)
    ia = wp.indexedarray1d(data, [_idx([1, 3, 5, 7, 9], device)])
    s = Gather(values=ia, scale=0.5)
    out = wp.zeros(5, dtype=float, device=device)
    wp.launch(ia_in_struct, 5, inputs=[s, out], device=device)
    assert out.list() == [0.5, 1.5, 2.5, 3.5, 4.5]
    np.testing.assert_array_equal(data.numpy(), [0, 3, 2, 7, 4, 11, 6, 15, 8, 19])
    wp.launch(ia_in_nested_struct, 5, inputs=[Outer(inner=s), out], device=device)
    assert out.list() == [8.0, 12.0, 16.0, 20.0, 24.0]
    wp.launch(ia_in_struct_array, 5, inputs=[wp.array([s], dtype=Gather, device=device), out],
              device=device)
    assert out.list() == [3.0, 7.0, 11.0, 15.0, 19.0]
    np.testing.assert_array_equal(data.numpy(), [0, 13, 2, 17, 4, 21, 6, 25, 8, 29])
    s.values = data  # a plain array: the whole array, no indices
    wp.launch(ia_in_nested_struct, 5, inputs=[Outer(inner=s), out], device=device)
    assert out.list() == [10.0, 23.0, 12.0, 27.0, 14.0]
    with pytest.raises(TypeError, match=r"Struct field 'values' expects dtype float32, got int32"):
        s.values = wp.zeros(3, dtype=int, device=device)
    with pytest.raises(TypeError, match="annotated with an indexedarray value"):
        wp.struct(type("Bad", (), {"__annotations__": {"v": ia}}))
