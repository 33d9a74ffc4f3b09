"""Vector and matrix types on the host (wp.vec3, wp.mat33, ...) and arrays of them."""

import numpy as np
import pytest

import treadle as wp
from treadle import _treadle
from treadle import resolver

SUFFIXES = {
    "h": np.float16,
    "f": np.float32,
    "d": np.float64,
    "b": np.int8,
    "ub": np.uint8,
    "s": np.int16,
    "us": np.uint16,
    "i": np.int32,
    "ui": np.uint32,
    "l": np.int64,
    "ul": np.uint64,
}

# --- the types ----------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("suffix", list(SUFFIXES))
def test_named_vector_types(n, suffix):
    cls = getattr(wp, f"vec{n}{suffix}")
    np_type = SUFFIXES[suffix]
    scalar = wp.dtype_from_numpy(np_type)
    assert cls._length == n and cls._shape == (n,)
    assert cls._wp_scalar_type_ is scalar
    assert cls._np_dtype == np.dtype(np_type)
    assert cls._size == n * np.dtype(np_type).itemsize
    assert cls._type == _treadle.types.vector(n, scalar._type)
    assert cls._type.key == f"vector:{n}:{scalar.__name__}"
    assert wp.types.vector(n, scalar) is cls
    assert getattr(wp.types, f"vec{n}{suffix}") is cls


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("suffix", ["h", "f", "d"])
def test_named_matrix_types(n, suffix):
    cls = getattr(wp, f"mat{n}{n}{suffix}")
    scalar = wp.dtype_from_numpy(SUFFIXES[suffix])
    assert cls._shape == (n, n) and cls._length == n * n
    assert cls._wp_scalar_type_ is scalar
    assert cls._size == n * n * scalar._size
    assert cls._type == _treadle.types.matrix(n, n, scalar._type)
    assert wp.types.matrix((n, n), scalar) is cls


def test_default_aliases_and_factories():
    assert wp.vec3 is wp.vec3f and wp.vec2 is wp.vec2f and wp.vec4 is wp.vec4f
    assert wp.mat22 is wp.mat22f and wp.mat33 is wp.mat33f and wp.mat44 is wp.mat44f
    assert wp.types.vector(3, float) is wp.vec3
    assert wp.types.vector(length=5, dtype=wp.float64)._type.key == "vector:5:float64"
    assert wp.types.matrix((2, 3), wp.float32)._type.key == "matrix:2:3:float32"
    assert wp.types.matrix(shape=(2, 3), dtype=float) is wp.types.matrix((2, 3), wp.float32)
    with pytest.raises(ValueError):
        wp.types.vector(-1, float)
    with pytest.raises(TypeError):
        wp.types.vector(3, wp.vec3)


# --- construction, indexing, repr ---------------------------------------------------------


def test_vector_construction():
    assert np.array(wp.vec3()).tolist() == [0.0, 0.0, 0.0]
    assert np.array(wp.vec3(1.5)).tolist() == [1.5, 1.5, 1.5]
    assert np.array(wp.vec3(1, 2, 3)).tolist() == [1.0, 2.0, 3.0]
    assert np.array(wp.vec3((4, 5, 6))).tolist() == [4.0, 5.0, 6.0]
    assert np.array(wp.vec3(np.array([7, 8, 9]))).tolist() == [7.0, 8.0, 9.0]
    assert wp.vec3d(wp.vec3(1, 2, 3)) == wp.vec3d(1, 2, 3)
    assert wp.vec2(wp.float32(2.5)) == wp.vec2(2.5, 2.5)
    assert np.array(wp.vec3(0.1)).dtype == np.float32
    assert wp.vec3(0.1)[0] == float(np.float32(0.1))
    assert wp.vec3ub(300, -1, 2) == (44, 255, 2)  # wraps like a C cast
    with pytest.raises(ValueError):
        wp.vec3(1, 2)
    with pytest.raises(ValueError):
        wp.vec3((1, 2, 3, 4))


def test_vector_indexing_and_components():
    v = wp.vec4(1, 2, 3, 4)
    assert (v[0], v[3], v[-1]) == (1.0, 4.0, 4.0)
    assert (v.x, v.y, v.z, v.w) == (1.0, 2.0, 3.0, 4.0)
    assert isinstance(v[0], float) and isinstance(wp.vec3i(1, 2, 3)[0], int)
    v[1] = 20
    v.z = 30
    assert list(v) == [1.0, 20.0, 30.0, 4.0]
    assert len(v) == 4
    assert v[1:3] == wp.vec2(20, 30)
    with pytest.raises(IndexError):
        v[4]
    with pytest.raises(AttributeError):
        _ = wp.vec2(1, 2).z
    with pytest.raises(AttributeError):
        wp.vec2().w = 1.0
    v.label = "tip"  # other attributes are kept, as on Warp's vectors
    assert v.label == "tip" and list(v) == [1.0, 20.0, 30.0, 4.0]
    m = wp.mat22(1.0, 2.0, 3.0, 4.0)
    m.foo = 123
    assert m.foo == 123


def test_matrix_construction_and_indexing():
    ref = np.arange(9, dtype=np.float32).reshape(3, 3)
    m = wp.mat33(*range(9))
    np.testing.assert_array_equal(np.array(m), ref)
    rows = wp.mat33(wp.vec3(0, 1, 2), wp.vec3(3, 4, 5), wp.vec3(6, 7, 8))
    assert rows == m
    assert wp.mat33(ref.tolist()) == m
    assert wp.mat33(ref) == m
    np.testing.assert_array_equal(np.array(wp.mat22(2.0)), np.full((2, 2), 2.0))
    np.testing.assert_array_equal(np.array(wp.mat22()), np.zeros((2, 2)))
    assert m[1] == wp.vec3(3, 4, 5) and isinstance(m[1], wp.vec3)
    assert m[1, 2] == 5.0 and m[-1, -1] == 8.0
    assert len(m) == 3
    assert [list(r) for r in m] == ref.tolist()
    m[0, 0] = 10
    m[2] = wp.vec3(1, 1, 1)
    ref[0, 0], ref[2] = 10, 1
    np.testing.assert_array_equal(np.array(m), ref)
    with pytest.raises(IndexError):
        m[3, 0]
    with pytest.raises(ValueError):
        wp.mat33(1, 2, 3)


def test_repr():
    assert repr(wp.vec3(1, 2, 3)) == "vec3f([1.0, 2.0, 3.0])"  # Warp's repr; str is the list
    assert str(wp.vec3(1, 2, 3)) == "[1.0, 2.0, 3.0]"
    assert repr(wp.vec2i(1, 2)) == "vec2i([1, 2])"
    assert repr(wp.vec4d(1, 2, 3, 4)) == ("vec4d([float64(1.0), float64(2.0), float64(3.0), "
                                          "float64(4.0)])")
    assert repr(wp.vec2ub(1, 2)) == "vec2ub([uint8(1), uint8(2)])"
    assert repr(wp.types.vector(5, float)(*range(5))) == (
        "vector(length=5, dtype=float32)([0.0, 1.0, 2.0, 3.0, 4.0])")
    assert repr(wp.spatial_vectord(1, 2, 3, 4, 5, 6)).startswith(
        "vector(length=6, dtype=float64)([float64(1.0), ")
    assert repr([wp.vec2i(1, 2)]) == "[vec2i([1, 2])]"
    assert str(wp.vec2i(1, -2)) == "[1, -2]"
    assert repr(wp.mat22(1, 2, 3, 4)) == "[[1.0, 2.0],\n [3.0, 4.0]]"


# --- arithmetic ---------------------------------------------------------------------------


def test_vector_arithmetic_against_numpy():
    a, b = wp.vec3(1.5, -2, 3), wp.vec3(0.25, 4, -1)
    na, nb = np.array(a), np.array(b)
    np.testing.assert_array_equal(np.array(a + b), na + nb)
    np.testing.assert_array_equal(np.array(a - b), na - nb)
    np.testing.assert_array_equal(np.array(a * 2.0), na * np.float32(2))
    np.testing.assert_array_equal(np.array(3 * a), na * np.float32(3))
    np.testing.assert_array_equal(np.array(np.float32(3) * a), na * np.float32(3))
    np.testing.assert_array_equal(np.array(a / 2), na / np.float32(2))
    np.testing.assert_array_equal(np.array(2 / b), np.float32(2) / nb)
    np.testing.assert_array_equal(np.array(-a), -na)
    assert isinstance(a + b, wp.vec3) and isinstance(a * 2, wp.vec3)
    assert a == wp.vec3(a) and a != b
    assert a == (1.5, -2, 3) and a != (1.5, -2)
    with pytest.raises(TypeError):
        a * b
    with pytest.raises(TypeError):
        a + wp.vec3d(1, 2, 3)
    with pytest.raises(TypeError):
        a + 1.0


def test_integer_vector_arithmetic_wraps_and_truncates():
    v = wp.vec2b(120, -7)
    assert v + wp.vec2b(10, 0) == (-126, -7)
    assert v / 2 == (60, -3)  # C division truncates toward zero
    assert v * 3 == (104, -21)


def test_matrix_arithmetic_against_numpy():
    rng = np.random.default_rng(1)
    na = rng.standard_normal((3, 3)).astype(np.float32)
    nb = rng.standard_normal((3, 3)).astype(np.float32)
    nv = rng.standard_normal(3).astype(np.float32)
    a, b, v = wp.mat33(na), wp.mat33(nb), wp.vec3(nv)
    np.testing.assert_allclose(np.array(a + b), na + nb)
    np.testing.assert_allclose(np.array(a - b), na - nb)
    np.testing.assert_allclose(np.array(a * 2.0), na * 2)
    np.testing.assert_allclose(np.array(a * b), na @ nb, rtol=1e-6)
    np.testing.assert_allclose(np.array(a @ b), na @ nb, rtol=1e-6)
    np.testing.assert_allclose(np.array(a * v), na @ nv, rtol=1e-6)
    np.testing.assert_allclose(np.array(a @ v), na @ nv, rtol=1e-6)
    np.testing.assert_allclose(np.array(v * a), nv @ na, rtol=1e-6)
    assert isinstance(a * v, wp.vec3) and isinstance(a * b, wp.mat33)
    np.testing.assert_array_equal(np.array(-a), -na)
    rect = wp.types.matrix((2, 3), float)(*range(6))
    assert isinstance(rect * v, wp.vec2)
    with pytest.raises(TypeError):
        v * rect


def test_host_vector_builtins():
    a, b = wp.vec3(1, 2, 3), wp.vec3(4, 5, 6)
    assert wp.dot(a, b) == 32.0
    assert wp.cross(a, b) == wp.vec3(np.cross(np.array(a), np.array(b)))
    assert wp.length(wp.vec3(3, 4, 0)) == 5.0
    np.testing.assert_allclose(np.array(wp.normalize(wp.vec3(3, 4, 0))), [0.6, 0.8, 0.0])
    assert wp.cw_mul(a, b) == wp.vec3(4, 10, 18)


# --- arrays -------------------------------------------------------------------------------


def test_annotations_compiler_types():
    T = _treadle.types
    assert wp.array(dtype=wp.vec3)._type == T.array(wp.vec3._type, 1)
    assert wp.array(dtype=wp.mat33, ndim=2)._type == T.array(wp.mat33._type, 2)
    assert wp.array2d(dtype=wp.vec2i)._type == T.array(wp.vec2i._type, 2)
    assert wp.array[wp.mat44d]._type.key == "array:matrix:4:4:float64:1"
    assert wp.types.type_of(wp.vec4h) == T.vector(4, wp.float16._type)
    assert wp.types.types_equal(wp.vec3, wp.types.vector(3, float))


def test_resolver_descriptors():
    assert resolver.describe(wp.vec3) == ("type", _treadle.types.vector(3, wp.float32._type))
    assert resolver.describe(wp.mat22d) == ("type", _treadle.types.matrix(2, 2, wp.float64._type))
    assert resolver.describe(wp.vec3(1, 2, 3)) == ("const", wp.vec3._type, (1.0, 2.0, 3.0), False)
    assert resolver.describe(wp.mat22(1, 2, 3, 4)) == (
        "const",
        wp.mat22._type,
        (1.0, 2.0, 3.0, 4.0),
        False,
    )


@pytest.mark.parametrize(
    "dtype,inner", [(wp.vec3, (3,)), (wp.vec2d, (2,)), (wp.vec4ub, (4,)), (wp.mat33, (3, 3))]
)
def test_array_numpy_round_trip(device, dtype, inner):
    src = (np.arange(5 * int(np.prod(inner))) % 50).astype(dtype._np_dtype).reshape(5, *inner)
    a = wp.array(src, dtype=dtype, device=device)
    assert a.dtype is dtype
    assert a.shape == (5,) and a.ndim == 1 and a.size == 5
    assert a.strides == (dtype._size,)
    out = a.numpy()
    assert out.shape == (5, *inner) and out.dtype == dtype._np_dtype
    np.testing.assert_array_equal(out, src)
    b = wp.array(src.reshape(5 * int(np.prod(inner))), dtype=dtype, shape=5, device=device)
    np.testing.assert_array_equal(b.numpy(), src)
    back = a.to("cpu").to(device)
    np.testing.assert_array_equal(back.numpy(), src)
    assert a.list()[2] == dtype(src[2])


def test_array_2d_of_matrices(device):
    src = np.random.default_rng(0).standard_normal((2, 4, 3, 3)).astype(np.float32)
    a = wp.array(src, dtype=wp.mat33, device=device)
    assert a.shape == (2, 4) and a.dtype is wp.mat33
    np.testing.assert_array_equal(a.numpy(), src)
    np.testing.assert_array_equal(a[1].numpy(), src[1])
    np.testing.assert_array_equal(a[:, 1:3].numpy(), src[:, 1:3])


def test_zeros_empty_fill_full(device):
    a = wp.zeros(4, dtype=wp.vec3, device=device)
    assert a.dtype is wp.vec3 and a.shape == (4,)
    np.testing.assert_array_equal(a.numpy(), np.zeros((4, 3)))
    a.fill_(wp.vec3(1, 2, 3))
    np.testing.assert_array_equal(a.numpy(), np.tile([1, 2, 3], (4, 1)))
    a.fill_((4, 5, 6))
    np.testing.assert_array_equal(a.numpy(), np.tile([4, 5, 6], (4, 1)))
    a.fill_(7.0)
    np.testing.assert_array_equal(a.numpy(), np.full((4, 3), 7.0))
    a.zero_()
    np.testing.assert_array_equal(a.numpy(), np.zeros((4, 3)))
    m = wp.full(3, wp.mat22(1, 2, 3, 4), device=device)
    assert m.dtype is wp.mat22
    np.testing.assert_array_equal(m.numpy(), np.tile([[1, 2], [3, 4]], (3, 1, 1)))
    f = wp.full((2, 2), value=wp.vec2i(5, -1), device=device)
    assert f.dtype is wp.vec2i and f.shape == (2, 2)
    np.testing.assert_array_equal(f.numpy(), np.tile([5, -1], (2, 2, 1)))
    o = wp.ones(2, dtype=wp.vec4d, device=device)
    np.testing.assert_array_equal(o.numpy(), np.ones((2, 4)))
    e = wp.empty((0,), dtype=wp.mat44, device=device)
    assert e.numpy().shape == (0, 4, 4)
    with pytest.raises(ValueError):
        a.fill_((1, 2))


def test_assign_from_numpy_and_arrays(device):
    a = wp.zeros(3, dtype=wp.vec3, device=device)
    src = np.arange(9, dtype=np.float64).reshape(3, 3)
    a.assign(src)
    np.testing.assert_array_equal(a.numpy(), src)
    a.assign([(1, 1, 1), (2, 2, 2), (3, 3, 3)])
    np.testing.assert_array_equal(a.numpy(), [[1] * 3, [2] * 3, [3] * 3])
    b = wp.zeros(3, dtype=wp.vec3, device=device)
    b.assign(a)
    np.testing.assert_array_equal(b.numpy(), a.numpy())
    wp.copy(b, wp.zeros_like(a))
    np.testing.assert_array_equal(b.numpy(), np.zeros((3, 3)))
    with pytest.raises(TypeError):
        b.assign(wp.zeros(3, dtype=wp.vec3d, device=device))


def test_arrays_from_lists_of_vectors(device):
    a = wp.array([wp.vec3(1, 2, 3), wp.vec3(4, 5, 6)], device=device)
    assert a.dtype is wp.vec3 and a.shape == (2,)
    np.testing.assert_array_equal(a.numpy(), [[1, 2, 3], [4, 5, 6]])
    b = wp.array([(1, 2, 3), (4, 5, 6)], dtype=wp.vec3, device=device)
    assert b.dtype is wp.vec3
    np.testing.assert_array_equal(b.numpy(), a.numpy())
    c = wp.array([wp.mat22(1, 2, 3, 4)] * 3, device=device)
    assert c.dtype is wp.mat22 and c.shape == (3,)
    d = wp.array(wp.vec3(7, 8, 9), device=device)
    assert d.shape == (1,) and d.dtype is wp.vec3
    np.testing.assert_array_equal(d.numpy(), [[7, 8, 9]])
    with pytest.raises(ValueError):
        wp.array(np.zeros((4, 2)), dtype=wp.vec3, device=device)


def test_cpu_alias_and_interfaces():
    src = np.zeros((4, 3), dtype=np.float32)
    a = wp.array(src, dtype=wp.vec3, device="cpu", copy=False)
    src[1] = (1, 2, 3)
    np.testing.assert_array_equal(a.numpy()[1], [1, 2, 3])
    assert np.asarray(a).shape == (4, 3)
    assert a.__array_interface__["shape"] == (4, 3)
    strided = wp.zeros(6, dtype=wp.mat22, device="cpu")[::2]
    iface = strided.__array_interface__
    assert iface["shape"] == (3, 2, 2) and iface["strides"] == (32, 8, 4)
    np.testing.assert_array_equal(np.asarray(strided), np.zeros((3, 2, 2)))
    # Non-contiguous numpy data is packed before it becomes an array of vectors.
    t = np.arange(12, dtype=np.float32).reshape(3, 4).T
    np.testing.assert_array_equal(wp.array(t, dtype=wp.vec3).numpy(), t)


def test_cuda_array_interface_of_vectors():
    if not wp.is_cuda_available():
        pytest.skip("needs CUDA")
    a = wp.zeros(5, dtype=wp.vec3, device="cuda:0")
    iface = a.__cuda_array_interface__
    assert iface["shape"] == (5, 3) and iface["typestr"] == "<f4"
    b = wp.array(a, dtype=wp.vec3, device="cuda:0", copy=False)
    assert b.ptr == a.ptr


def test_requires_grad_and_view():
    a = wp.zeros(3, dtype=wp.vec3, requires_grad=True)
    assert a.grad.dtype is wp.vec3 and a.grad.shape == (3,)
    v = wp.zeros(2, dtype=wp.vec2).view(wp.float64)
    assert v.dtype is wp.float64 and v.shape == (2,)
    assert wp.zeros(2, dtype=wp.float64).view(wp.vec2i).dtype is wp.vec2i


def test_numpy_array_plus_vector_is_elementwise():
    v = wp.vec3(1.0, 2.0, 3.0)
    out = np.array([0.5, 1.0, 1.5]) * 2.0 + v
    assert isinstance(out, np.ndarray)
    np.testing.assert_array_equal(out, [2.0, 4.0, 6.0])
    np.testing.assert_array_equal(np.array([4.0, 4.0, 4.0]) - v, [3.0, 2.0, 1.0])
