"""Vector and matrix construction, indexing and assignment errors with Warp's exception types
and messages; from_ptr; matrix row and column accessors."""

import numpy as np
import pytest

import treadle as wp


def test_vector_errors():
    with pytest.raises(ValueError, match=r"Invalid number of arguments in vector constructor, "
                                         r"expected 3 elements, got 2$"):
        wp.vec3(1, 2)
    v = wp.vec3i(1, 2, 3)
    with pytest.raises(KeyError, match="Invalid key None, expected int or slice"):
        v[None]
    with pytest.raises(KeyError, match="Invalid key None, expected int or slice"):
        v[None] = 0
    with pytest.raises(TypeError, match="Expected to assign a `int32` value but got `str` instead"):
        v[0] = "123.0"
    with pytest.raises(TypeError, match="Expected to assign a slice from a sequence of `int32` "
                                        "values but got `vec3i` instead"):
        v[:1] = (v,)
    with pytest.raises(ValueError, match="Can only assign sequence of same size"):
        v[:1] = (1, 2)
    v[1:] = (7, 8)
    assert list(v) == [1, 7, 8]


def test_matrix_errors_and_rows():
    with pytest.raises(ValueError, match=r"Invalid number of arguments in matrix constructor, "
                                         r"expected 4 elements, got 3$"):
        wp.mat22(1, 2, 3)
    with pytest.raises(TypeError, match=r"Invalid argument in matrix constructor, expected row "
                                        r"of length 2, got \(1, 2, 3\)$"):
        wp.mat22((1, 2, 3), (3, 4, 5))
    m = wp.mat22h(1, 2, 3, 4)
    with pytest.raises(KeyError, match="Invalid key None, expected int or pair of ints"):
        m[None]
    with pytest.raises(KeyError, match="Invalid key, expected one or two indices, got 3"):
        m[0, 1, 2] = (0, 0)
    with pytest.raises(TypeError, match="Expected to assign a `float16` value but got `str`"):
        m[0, 0] = "1"
    with pytest.raises(TypeError, match="a sequence of `float16` values but got `mat22h`"):
        m[0] = (m,)
    with pytest.raises(IndexError, match="Invalid row index$"):
        m.set_row(2, (0, 0))
    m.set_row(1, (5, 6))
    m.set_col(0, (9, 8))
    assert m.get_row(1) == wp.vec2h(8, 6) and m.get_col(0) == wp.vec2h(9, 8)
    m[0] = wp.vec2h(1, 1)
    np.testing.assert_array_equal(np.array(m), [[1, 1], [8, 6]])


def test_from_ptr_reads_memory():
    with pytest.raises(RuntimeError, match="NULL pointer exception"):
        wp.vec3.from_ptr(0)
    a = wp.array([wp.vec3(1.0, 2.0, 3.0), wp.vec3(4.0, 5.0, 6.0)], dtype=wp.vec3, device="cpu")
    assert wp.vec3.from_ptr(a.ptr + 12) == wp.vec3(4.0, 5.0, 6.0)
    m = wp.array(np.arange(8, dtype=np.float64).reshape(2, 2, 2), dtype=wp.mat22d, device="cpu")
    assert wp.mat22d.from_ptr(m.ptr + 32) == wp.mat22d(4.0, 5.0, 6.0, 7.0)


def test_full_infers_vectors_and_matrices_from_sequences():
    a = wp.full(3, np.array([1, 2], dtype=np.int16), device="cpu")
    assert a.dtype is wp.vec2s and a.dtype._wp_generic_type_str_ == "vec_t"
    np.testing.assert_array_equal(a.numpy(), [[1, 2]] * 3)
    m = wp.full(2, [[1.5, 2.0], [3.0, 4.0]], device="cpu")
    assert m.dtype is wp.mat22d and m.dtype._wp_generic_type_str_ == "mat_t"
    np.testing.assert_array_equal(m.numpy()[1], [[1.5, 2.0], [3.0, 4.0]])
    assert wp.quat._wp_generic_type_str_ == "quat_t"
    assert wp.transform._wp_generic_type_str_ == "transform_t"
    with pytest.raises(ValueError, match=r"cannot make a vector or matrix of a value of shape "
                                         r"\(1, 1, 2\)"):
        wp.full(2, [[[1, 2]]], device="cpu")
    with pytest.raises(ValueError, match="Array shapes must be non-negative"):
        wp.zeros((10, -1), dtype=int, device="cpu")


def test_array_of_composites_from_flat_components():
    a = wp.array(np.arange(6, dtype=np.float32), dtype=wp.vec3, device="cpu")  # 6 = 2 x 3
    assert a.shape == (2,) and a.numpy().tolist() == [[0, 1, 2], [3, 4, 5]]
    m = wp.array(np.arange(12, dtype=np.float32).reshape(1, 3, 4), dtype=wp.mat22, device="cpu")
    assert m.shape == (1, 3) and m.numpy()[0, 2].tolist() == [[8, 9], [10, 11]]
    assert wp.array(np.ones(3, dtype=np.float32), dtype=wp.vec3, device="cpu").shape == (1,)
    with pytest.raises(ValueError, match=r"data of shape \(1, 5\) does not end in the shape"):
        wp.array(np.ones(5, dtype=np.float32), dtype=wp.vec3, device="cpu")


def test_array_of_composites_drops_trailing_unit_dimensions():
    x = np.arange(10, dtype=np.float64).reshape(5, 2, 1)  # column vectors, as Warp accepts
    a = wp.array(x, dtype=wp.vec2, device="cpu")
    assert a.shape == (5,) and np.array_equal(a.numpy(), x[..., 0])
    assert wp.array(np.ones((5, 4, 1)), dtype=wp.vec2, device="cpu").shape == (5, 2)
    assert wp.array(np.ones((6, 1)), dtype=wp.vec3, device="cpu").shape == (2,)
    assert wp.array(x.tolist(), dtype=wp.vec2, device="cpu").shape == (5,)
    with pytest.raises(ValueError, match=r"does not end in the shape \(2, 2\)"):
        wp.array(np.ones((3, 2, 1)), dtype=wp.mat22, device="cpu")


def test_arrays_without_elements_have_no_address():
    a = wp.empty((0, 3), dtype=float, device="cpu", requires_grad=True)
    assert a.ptr is None and a.grad.ptr is None and a.size == 0
    assert wp.zeros(2, dtype=float, device="cpu").ptr is not None


def test_transform_expand():
    t = wp.transform_expand((1.0, 2.0, 3.0, 4.0, 3.0, 2.0, 1.0))
    assert type(t) is wp.transformf
    assert t == wp.transformf(p=(1.0, 2.0, 3.0), q=(4.0, 3.0, 2.0, 1.0))
    assert wp.utils.transform_expand(np.arange(7.0)).q == wp.quat(3.0, 4.0, 5.0, 6.0)
    with pytest.raises(ValueError, match="expected 7 values, got 3"):
        wp.transform_expand((1.0, 2.0, 3.0))
