"""Types cross between Python and the compiler as Type objects: constants of every type family
reach kernels with their value and type, arrays of every dtype family give back their class,
and one registry maps each Type to the class that stands for it."""

import numpy as np
import pytest

import treadle as wp
from treadle import _treadle, scalar_types
from treadle.type_classes import class_of

T = _treadle.types

# --- constants of every type family --------------------------------------------------------

C_BOOL = True
C_I8 = wp.int8(-100)
C_U8 = wp.uint8(250)
C_I16 = wp.int16(-30000)
C_U16 = wp.uint16(65000)
C_I32 = wp.int32(-(2**31))
C_U32 = wp.uint32(2**32 - 1)
C_I64 = wp.int64(-(2**62))
C_U64 = wp.uint64(2**64 - 1)
C_F16 = wp.float16(0.5)
C_F32 = wp.float32(1.25)
C_F64 = wp.float64(1.0 / 3.0)
NP_I16 = np.int16(-7)
NP_U32 = np.uint32(4000000000)
NP_F32 = np.float32(0.1)
NP_BOOL = np.bool_(True)
WEAK_INT = 7  # a Python int: its type follows the array it is stored into
WEAK_FLOAT = 0.1
BIG_INT = 2**40  # outside int32: an int64


@wp.kernel
def store_scalars(b: wp.array(dtype=wp.bool), i8: wp.array(dtype=wp.int8),
                  u8: wp.array(dtype=wp.uint8), i16: wp.array(dtype=wp.int16),
                  u16: wp.array(dtype=wp.uint16), i32: wp.array(dtype=wp.int32),
                  u32: wp.array(dtype=wp.uint32), i64: wp.array(dtype=wp.int64),
                  u64: wp.array(dtype=wp.uint64), f16: wp.array(dtype=wp.float16),
                  f32: wp.array(dtype=wp.float32), f64: wp.array(dtype=wp.float64)):
    b[0] = C_BOOL
    b[1] = NP_BOOL
    i8[0] = C_I8
    i8[1] = WEAK_INT
    u8[0] = C_U8
    i16[0] = C_I16
    i16[1] = NP_I16
    u16[0] = C_U16
    i32[0] = C_I32
    i32[1] = WEAK_INT
    u32[0] = C_U32
    u32[1] = NP_U32
    i64[0] = C_I64
    i64[1] = BIG_INT
    u64[0] = C_U64
    f16[0] = C_F16
    f16[1] = WEAK_FLOAT
    f32[0] = C_F32
    f32[1] = NP_F32
    f64[0] = C_F64
    f64[1] = WEAK_FLOAT


def test_scalar_constants_reach_kernels_with_their_type_and_value(device):
    dtypes = [wp.bool, wp.int8, wp.uint8, wp.int16, wp.uint16, wp.int32, wp.uint32, wp.int64,
              wp.uint64, wp.float16, wp.float32, wp.float64]
    arrays = [wp.zeros(2, dtype=t, device=device) for t in dtypes]
    wp.launch(store_scalars, 1, inputs=arrays, device=device)
    got = {t.__name__: a.numpy() for t, a in zip(dtypes, arrays)}
    assert got["bool"].tolist() == [True, True]
    assert got["int8"].tolist() == [-100, 7]
    assert got["uint8"][0] == 250 and got["int16"].tolist() == [-30000, -7]
    assert got["uint16"][0] == 65000 and got["int32"].tolist() == [-(2**31), 7]
    assert got["uint32"].tolist() == [2**32 - 1, 4000000000]
    assert got["int64"].tolist() == [-(2**62), 2**40]
    assert got["uint64"][0] == 2**64 - 1
    assert got["float16"].tolist() == [0.5, float(np.float16(0.1))]
    assert got["float32"].tolist() == [1.25, float(np.float32(0.1))]
    assert got["float64"].tolist() == [1.0 / 3.0, 0.1]  # a weak float keeps its float64 value


C_VEC3 = wp.vec3(1.0, 2.0, 3.0)
C_VEC2D = wp.vec2d(0.1, 0.2)
C_VEC4I = wp.vec4i(-1, 2, -3, 4)
C_VEC3UB = wp.vec3ub(1, 2, 255)
C_VEC5H = wp.types.vector(5, wp.float16)(1, 2, 3, 4, 5)
C_MAT22 = wp.mat22(1.0, 2.0, 3.0, 4.0)
C_MAT33D = wp.mat33d(*range(9))
C_MAT23 = wp.types.matrix((2, 3), wp.float32)(*range(6))
C_QUAT = wp.quat(0.0, 0.0, 0.6, 0.8)
C_QUATD = wp.quatd(0.1, 0.2, 0.3, 0.9)
C_XFORM = wp.transform(wp.vec3(1.0, 2.0, 3.0), wp.quat(0.0, 0.0, 0.0, 1.0))
C_XFORMH = wp.transformh(wp.vec3h(4.0, 5.0, 6.0), wp.quath(0.0, 1.0, 0.0, 0.0))
C_SPATIAL = wp.spatial_vectord(1, 2, 3, 4, 5, 6)
COMPOSITES = [C_VEC3, C_VEC2D, C_VEC4I, C_VEC3UB, C_VEC5H, C_MAT22, C_MAT33D, C_MAT23, C_QUAT,
              C_QUATD, C_XFORM, C_XFORMH, C_SPATIAL]


@wp.kernel
def store_composites(v3: wp.array(dtype=wp.vec3), v2d: wp.array(dtype=wp.vec2d),
                     v4i: wp.array(dtype=wp.vec4i), v3ub: wp.array(dtype=wp.vec3ub),
                     v5h: wp.array(dtype=wp.types.vector(5, wp.float16)),
                     m22: wp.array(dtype=wp.mat22), m33d: wp.array(dtype=wp.mat33d),
                     m23: wp.array(dtype=wp.types.matrix((2, 3), wp.float32)),
                     q: wp.array(dtype=wp.quat), qd: wp.array(dtype=wp.quatd),
                     x: wp.array(dtype=wp.transform), xh: wp.array(dtype=wp.transformh),
                     s: wp.array(dtype=wp.spatial_vectord)):
    v3[0] = C_VEC3
    v2d[0] = C_VEC2D
    v4i[0] = C_VEC4I
    v3ub[0] = C_VEC3UB
    v5h[0] = C_VEC5H
    m22[0] = C_MAT22
    m33d[0] = C_MAT33D
    m23[0] = C_MAT23
    q[0] = C_QUAT
    qd[0] = C_QUATD
    x[0] = C_XFORM
    xh[0] = C_XFORMH
    s[0] = C_SPATIAL


def test_vector_matrix_quat_and_transform_constants_reach_kernels(device):
    arrays = [wp.zeros(1, dtype=type(c), device=device) for c in COMPOSITES]
    wp.launch(store_composites, 1, inputs=arrays, device=device)
    for c, a in zip(COMPOSITES, arrays):
        assert a.dtype is type(c)
        np.testing.assert_array_equal(a.numpy()[0], np.asarray(c), err_msg=type(c).__name__)


def _store_into(value, dtype):
    @wp.kernel
    def store_one(out: wp.array(dtype=dtype)):
        out[0] = value

    return store_one


@pytest.mark.parametrize(
    "value, dtype, type_name",
    [(C_I8, wp.int16, "int8"), (C_F32, wp.float64, "float32"), (NP_I16, wp.int32, "int16"),
     (C_VEC3, wp.vec3d, "vec3f"), (C_MAT33D, wp.mat33, "mat33d"), (C_QUAT, wp.vec4, "quatf"),
     (C_XFORMH, wp.transform, "transformh"), (C_VEC4I, wp.quat, "vec4i")],
    ids=lambda x: getattr(x, "__name__", None) if isinstance(x, type) else None,
)
def test_a_typed_constant_keeps_its_type(value, dtype, type_name):
    with pytest.raises(wp.WarpCodegenTypeError) as e:
        wp.launch(_store_into(value, dtype), 1, inputs=[wp.zeros(1, dtype=dtype, device="cpu")],
                  device="cpu")
    assert f"cannot store a value of type {type_name} into an array of {dtype._type.name}" in str(
        e.value)


@wp.struct
class Pair:
    a: float
    b: wp.vec3


C_PAIR = Pair(a=1.0)


def test_struct_instances_are_constants():
    out = wp.zeros(1, dtype=Pair, device="cpu")
    wp.launch(_store_into(C_PAIR, Pair), 1, inputs=[out], device="cpu")
    assert out.numpy()[0]["a"] == 1.0 and list(out.numpy()[0]["b"]) == [0.0, 0.0, 0.0]


# --- arrays of every dtype family ----------------------------------------------------------


@wp.struct
class Particle:
    pos: wp.vec3
    mass: wp.float64
    alive: wp.bool


DTYPES = [
    *wp.types.scalar_types,
    wp.vec2, wp.vec3, wp.vec4, wp.vec3d, wp.vec2h, wp.vec4i, wp.vec3ub, wp.vec2ul,
    wp.types.vector(7, wp.int16),
    wp.mat22, wp.mat33d, wp.mat44h, wp.types.matrix((2, 5), wp.uint8),
    wp.quat, wp.quath, wp.quatd, wp.transform, wp.transformd,
    wp.spatial_vector, wp.spatial_matrixd,
    Particle,
]


def _values(dtype, n):
    if dtype is Particle:
        return [Particle(pos=wp.vec3(i, 2 * i, 3), mass=0.5 * i, alive=i % 2 == 0)
                for i in range(n)]
    shape = (n, *getattr(dtype, "_shape", ()))
    return (np.arange(np.prod(shape)) % 100).reshape(shape).astype(dtype._np_dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: t.__name__)
def test_arrays_give_back_their_dtype_class(device, dtype):
    a = wp.array(_values(dtype, 4), dtype=dtype, device=device)
    assert a.dtype is dtype and a._dtype == dtype._type and class_of(a._dtype) is dtype
    for view in (a[1:], a.reshape((2, 2)), wp.clone(a), a.to("cpu"),
                 wp.zeros(3, dtype=dtype, device=device), wp.empty_like(a)):
        assert view.dtype is dtype
    assert a._type == T.array(dtype._type, 1)
    if dtype is Particle:
        back = a.list()
        assert isinstance(back[2], Particle) and back[2].mass == 1.0 and back[2].alive
        assert a.numpy().dtype == Particle.numpy_dtype()
    elif dtype is wp.bfloat16:  # numpy() shows its bits (as ml_dtypes.bfloat16 with that)
        bits = scalar_types.float32_to_bfloat16_bits(_values(dtype, 4))
        np.testing.assert_array_equal(a.numpy().view(np.uint16), bits)
    else:
        np.testing.assert_array_equal(a.numpy(), _values(dtype, 4))


def test_arrays_inferred_from_data_and_views_as_other_dtypes():
    assert wp.array([wp.vec3(1, 2, 3)]).dtype is wp.vec3
    assert wp.array([1.5, 2.5]).dtype is wp.float64
    assert wp.array(np.zeros(3, dtype=np.uint16)).dtype is wp.uint16
    assert wp.array([Particle()]).dtype is Particle
    a = wp.zeros(4, dtype=wp.vec4)
    assert a.view(wp.quat).dtype is wp.quat and a.view(wp.quat).view(wp.vec4).dtype is wp.vec4
    assert wp.zeros(2, dtype=wp.float32).view(wp.int32).dtype is wp.int32


# --- the registry ----------------------------------------------------------------------------


def test_every_type_class_is_the_class_of_its_type():
    for cls in DTYPES:
        assert class_of(cls._type) is cls
    assert class_of(T.scalar("float32")) is wp.float32


def test_classes_are_made_for_types_that_have_none_yet():
    v9 = class_of(T.vector(9, T.scalar("float64")))
    assert v9.__name__ == "vec9d" and v9 is wp.types.vector(9, wp.float64)
    m34 = class_of(T.matrix(3, 4, T.scalar("int8")))
    assert m34 is wp.types.matrix((3, 4), wp.int8) and m34._shape == (3, 4)
    assert class_of(T.quat(T.scalar("float16"))) is wp.quath
    assert class_of(T.transform(T.scalar("float64"))) is wp.transformd


def test_types_without_a_class_are_refused():
    s = T.struct("nowhere.Ghost", [("x", T.scalar("int32"))])
    with pytest.raises(TypeError, match=r"no @wp.struct class has the layout "
                                        r"'struct:nowhere.Ghost\{x=int32\}'"):
        class_of(s)
    with pytest.raises(TypeError, match="no treadle type class stands for array"):
        class_of(T.array(T.scalar("int32"), 1))


def test_a_struct_defined_again_replaces_the_class_of_its_type():
    def define():
        @wp.struct
        class Again:
            x: float

        return Again

    first, second = define(), define()
    assert first is not second and first._type == second._type
    assert class_of(second._type) is second
    assert wp.zeros(1, dtype=first).dtype is second  # the latest class with that layout


G_ARRAY = wp.zeros(3, dtype=float, device="cpu")


def test_arrays_are_not_constants():
    @wp.kernel
    def reads_global(out: wp.array(dtype=float)):
        out[0] = G_ARRAY[0]

    with pytest.raises(wp.WarpCodegenTypeError,
                       match="'G_ARRAY' is a Python array, which kernels cannot use"):
        reads_global._compile("cpu")

    @wp.kernel
    def makes_static(out: wp.array(dtype=float)):
        out[0] = wp.static(G_ARRAY)[0]

    with pytest.raises(wp.WarpCodegenTypeError, match="is a Python array, which kernels cannot"):
        makes_static._compile("cpu")
