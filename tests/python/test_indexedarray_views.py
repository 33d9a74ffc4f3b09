"""Indexed arrays made by indexing an array with index arrays (a[idx], a[idx, :, idx2]),
and their host operations: fill_, zero_, assign, contiguous, clone, *_like, wp.copy."""

from typing import Any

import numpy as np
import pytest

import treadle as wp


@wp.struct
class Pair:
    k: int
    v: wp.vec2
    a: wp.array(dtype=float)


@wp.kernel
def add_one(a: wp.indexedarray(dtype=float, ndim=2)):
    i, j = wp.tid()
    a[i, j] = a[i, j] + 1.0


@wp.kernel
def scale_generic(a: Any, s: float):
    i = wp.tid()
    a[i] = a[i] * s


def test_indexing_by_index_arrays_makes_an_indexedarray():
    data = np.arange(30, dtype=np.float32).reshape(5, 6)
    a = wp.array(data, device="cpu")
    rows = wp.array([4, 0, 2], dtype=wp.int32, device="cpu")
    cols = wp.array([5, 1], dtype=wp.int32, device="cpu")
    v = a[rows]
    assert isinstance(v, wp.indexedarray) and v.shape == (3, 6) and not v.is_contiguous
    np.testing.assert_array_equal(v.numpy(), data[[4, 0, 2]])
    np.testing.assert_array_equal(a[rows, cols].numpy(), data[np.ix_([4, 0, 2], [5, 1])])
    np.testing.assert_array_equal(a[1:4, cols].numpy(), data[1:4][:, [5, 1]])
    np.testing.assert_array_equal(a[2, cols].numpy(), data[2, [5, 1]])  # an int drops a dim
    wp.launch(add_one, (3, 2), inputs=[a[rows, cols]], device="cpu")
    want = data.copy()
    want[np.ix_([4, 0, 2], [5, 1])] += 1.0
    np.testing.assert_array_equal(a.numpy(), want)
    with pytest.raises(TypeError, match="index array 0 must be a 1-D int32 array"):
        a[wp.array([1.0], dtype=float, device="cpu")]
    with pytest.raises(TypeError, match="got str"):
        a["x"]


def test_generic_kernels_take_indexed_arrays():
    a = wp.array([1.0, 2.0, 3.0, 4.0], dtype=float, device="cpu")
    wp.launch(scale_generic, 2, inputs=[a[wp.array([3, 1], dtype=wp.int32, device="cpu")], 10.0],
              device="cpu")
    np.testing.assert_array_equal(a.numpy(), [1.0, 20.0, 3.0, 40.0])


def test_fill_zero_assign_and_copies():
    data = np.arange(12, dtype=np.float32).reshape(3, 4)
    a = wp.array(data, device="cpu")
    idx = wp.array([2, 0], dtype=wp.int32, device="cpu")
    v = a[idx]
    v.fill_(7.5)
    want = data.copy()
    want[[2, 0]] = 7.5
    np.testing.assert_array_equal(a.numpy(), want)
    v.zero_()
    want[[2, 0]] = 0.0
    np.testing.assert_array_equal(a.numpy(), want)
    v.assign(np.ones((2, 4), dtype=np.float32) * [[1.0], [2.0]])
    want[2], want[0] = 1.0, 2.0
    np.testing.assert_array_equal(a.numpy(), want)
    c = v.contiguous()
    assert isinstance(c, wp.array) and c.is_contiguous
    np.testing.assert_array_equal(c.numpy(), want[[2, 0]])
    np.testing.assert_array_equal(wp.clone(v).numpy(), want[[2, 0]])
    assert wp.zeros_like(v).shape == (2, 4) and wp.full_like(v, 3.0).numpy().min() == 3.0
    out = wp.zeros((2, 4), dtype=float, device="cpu")
    wp.copy(out, v)
    np.testing.assert_array_equal(out.numpy(), want[[2, 0]])
    wp.copy(v, wp.full((2, 4), 9.0, dtype=float, device="cpu"))
    want[[2, 0]] = 9.0
    np.testing.assert_array_equal(a.numpy(), want)
    with pytest.raises(RuntimeError, match="not supported when copying to/from non-contiguous "
                                           "indexed or Fabric arrays"):
        wp.copy(out, v, src_offset=1, count=1)
    with pytest.raises(ValueError, match=r"shape mismatch: destination \(2, 4\), source \(3,\)"):
        v.assign([1.0, 2.0, 3.0])


def test_fill_of_struct_and_vector_elements():
    data = wp.zeros(4, dtype=Pair, device="cpu")
    idx = wp.array([3, 1], dtype=wp.int32, device="cpu")
    s = Pair(k=5, v=wp.vec2(1.0, 2.0))
    data[idx].fill_(s)
    rec = data.numpy()
    assert rec["k"].tolist() == [0, 5, 0, 5]
    assert rec["v"].tolist() == [[0, 0], [1, 2], [0, 0], [1, 2]]
    assert rec["a"]["ndim"].tolist() == [0, 0, 0, 0]  # a None array field is all zeros
    vecs = wp.zeros(3, dtype=wp.vec3, device="cpu")
    vecs[wp.array([1], dtype=wp.int32, device="cpu")].fill_(wp.vec3(1.0, 2.0, 3.0))
    np.testing.assert_array_equal(vecs.numpy(), [[0, 0, 0], [1, 2, 3], [0, 0, 0]])
    empty = data[wp.empty(0, dtype=wp.int32, device="cpu")]
    empty.fill_(s)
    empty.zero_()
    assert empty.numpy().shape == (0,) and empty.numpy().dtype == Pair.numpy_dtype()
