"""The interned compiler type bound to Python: identity, properties and factory errors."""

import pytest

import treadle as wp
from treadle import _treadle

T = _treadle.types


def test_factories_intern_by_identity():
    f32 = T.scalar("float32")
    assert T.scalar("float32") is f32 or T.scalar("float32") == f32
    assert T.vector(3, f32) == T.vector(3, T.scalar("float32"))
    assert T.vector(3, f32) != T.vector(4, f32)
    assert T.vector(3, f32) != T.vector(3, T.scalar("float64"))
    assert hash(T.matrix(3, 3, f32)) == hash(T.matrix(3, 3, f32))
    assert len({T.array(f32, 1), T.array(f32, 1), T.array(f32, 2)}) == 2
    assert T.array(f32, 1) != T.array(f32, 1, indexed=True)
    assert T.vector(3, f32) != "vector:3:float32"
    assert T.named("vec3") == T.vector(3, f32)
    assert T.named("spatial_matrixd") == T.matrix(6, 6, T.scalar("float64"))
    assert T.named("vec9") is None


def test_properties_of_each_kind():
    f32, f64 = T.scalar("float32"), T.scalar("float64")
    assert (f32.kind, f32.name, f32.size, f32.align, f32.scalar) == ("scalar", "float32", 4, 4, f32)
    v = T.vector(3, f64)
    assert (v.kind, v.name, v.length, v.shape, v.scalar, v.size, v.align) == (
        "vector", "vec3d", 3, None, f64, 24, 8)
    m = T.matrix(2, 3, f32)
    assert (m.kind, m.name, m.shape, m.length, m.size) == ("matrix", "mat23f", (2, 3), None, 24)
    q, x = T.quat(f32), T.transform(f64)
    assert (q.kind, q.name, q.length, q.size) == ("quat", "quatf", 4, 16)
    assert (x.kind, x.name, x.length, x.scalar) == ("transform", "transformd", 7, f64)
    a = T.array(v, 2)
    assert (a.kind, a.dtype, a.ndim, a.indexed, a.size, a.scalar) == ("array", v, 2, False, 72, None)
    assert a.name == "array(dtype=vec3d, ndim=2)"
    ia = T.array(f32, 1, indexed=True)
    assert (ia.indexed, ia.size, ia.name) == (True, 120, "indexedarray(dtype=float32, ndim=1)")
    s = T.struct("mod.Body", [("flag", T.scalar("bool")), ("pos", v), ("xs", T.array(f32, 1))])
    assert (s.kind, s.name, s.size, s.align) == ("struct", "Body", 104, 8)
    assert s.fields == [("flag", T.scalar("bool"), 0), ("pos", v, 8), ("xs", T.array(f32, 1), 32)]
    assert T.struct("mod.Body", [("flag", T.scalar("bool")), ("pos", v), ("xs", T.array(f32, 1))]) == s
    assert T.struct("mod.Body", [("flag", T.scalar("bool"))]) != s
    assert T.void().kind == "void"
    assert repr(v) == "Type(vec3d)"


def test_generic_placeholders_match_concrete_types():
    anyt, flt = T.generic("Any"), T.generic("Float")
    assert (anyt.kind, anyt.name, anyt.is_generic) == ("generic", "Any", True)
    f16, i32 = T.scalar("float16"), T.scalar("int32")
    assert flt.matches(f16) and not flt.matches(i32)
    assert T.generic("Int").matches(i32) and not T.generic("Scalar").matches(T.scalar("bool"))
    arr = T.array(flt, 2)
    assert arr.is_generic and arr.matches(T.array(f16, 2)) and not arr.matches(T.array(f16, 1))
    gv = T.generic_vector(None, flt)
    assert gv.name == "vector(length=Any, dtype=Float)" and gv.length == 0
    assert gv.matches(T.vector(5, T.scalar("float64"))) and not gv.matches(T.vector(5, i32))
    gm = T.generic_matrix(3, None, anyt)
    assert gm.shape == (3, 0) and gm.matches(T.matrix(3, 2, i32)) and not gm.matches(T.matrix(2, 2, i32))
    assert not f16.is_generic


@pytest.mark.parametrize(
    "make, exc, message",
    [
        (lambda: T.scalar("float31"), ValueError,
         "scalar(): unknown scalar type 'float31' (expected bool, int8, uint8, int16, uint16, "
         "int32, uint32, int64, uint64, float16, float32, float64, bfloat16)"),
        (lambda: T.vector(-1, T.scalar("float32")), ValueError,
         "vector(): length must be 0..1024 (got -1)"),
        (lambda: T.vector(1025, T.scalar("float32")), ValueError,
         "vector(): length must be 0..1024 (got 1025)"),
        (lambda: T.vector(3, T.vector(3, T.scalar("float32"))), TypeError,
         "vector(): the element type must be a scalar (got vec3f)"),
        (lambda: T.matrix(3, 65, T.scalar("float32")), ValueError,
         "matrix(): shape must be within 0..64 x 0..64 (got (3, 65))"),
        (lambda: T.quat(T.scalar("int32")), TypeError,
         "quat(): the scalar must be a float type (got int32)"),
        (lambda: T.transform(T.array(T.scalar("float32"), 1)), TypeError,
         "transform(): the element type must be a scalar (got array(dtype=float32, ndim=1))"),
        (lambda: T.array(T.scalar("float32"), 5), ValueError, "array(): ndim must be 1..4 (got 5)"),
        (lambda: T.array(T.array(T.scalar("float32"), 1)), TypeError,
         "array(): dtype must be a value type, a struct or a generic placeholder "
         "(got array(dtype=float32, ndim=1))"),
        (lambda: T.array(T.generic("Any"), 1, indexed=True), TypeError,
         "array(): an indexed array needs a concrete dtype (got Any)"),
        (lambda: T.struct("mod.S", [("a", T.scalar("int8")), ("a", T.scalar("int8"))]), ValueError,
         "struct(): duplicate field 'a'"),
        (lambda: T.struct("mod.S", [("1a", T.scalar("int8"))]), ValueError,
         "struct(): invalid field name '1a'"),
        (lambda: T.struct("mod.S", [("a", T.generic("Any"))]), ValueError,
         "struct(): field 'a' has a type structs cannot hold"),
        (lambda: T.generic("Number"), ValueError,
         "generic(): unknown placeholder 'Number' (expected Any, Float, Int or Scalar)"),
        (lambda: T.generic_vector(3, T.vector(2, T.scalar("float32"))), TypeError,
         "generic_vector(): the element type must be a scalar or a placeholder (got vec2f)"),
    ],
)
def test_factory_errors(make, exc, message):
    with pytest.raises(exc) as e:
        make()
    assert str(e.value) == message


def test_python_type_classes_hold_their_type():
    f32 = T.scalar("float32")
    assert wp.float32._type == f32
    assert wp.uint8._type == T.scalar("uint8")
    assert wp.vec3._type == T.vector(3, f32)
    assert wp.mat22d._type == T.matrix(2, 2, T.scalar("float64"))
    assert wp.quath._type == T.quat(T.scalar("float16"))
    assert wp.transform._type == T.transform(f32)
    assert wp.spatial_vector._type == T.vector(6, f32)
    assert wp.array(dtype=wp.vec3, ndim=2)._type == T.array(T.vector(3, f32), 2)
    assert wp.indexedarray(dtype=float)._type == T.array(f32, 1, indexed=True)

    @wp.struct
    class Holder:
        x: float
        v: wp.vec3

    assert Holder._type.kind == "struct"
    assert Holder._type.fields == [("x", f32, 0), ("v", T.vector(3, f32), 4)]
