"""Warp's type introspection in wp.types (type_is_*/is_* predicates, type_repr, type_size,
type_ctype) and the names of Warp's private types module: get_type_code, array_type_id, the
subscript type factories (Vector[...]), the array annotation names and the tile annotation."""

import ctypes
from typing import Any, Literal, TypeVar, get_origin

import pytest

import treadle as wp
from treadle._src import types as src

vec8us = wp.types.vector(8, wp.uint16)
mat55d = wp.types.matrix((5, 5), wp.float64)


@wp.struct
class Foo:
    x: int


KINDS = ("int", "float", "vector", "matrix", "quaternion", "transformation", "struct", "array")
TYPE_PREDICATES = {
    "int": wp.types.type_is_int, "float": wp.types.type_is_float,
    "vector": wp.types.type_is_vector, "matrix": wp.types.type_is_matrix,
    "quaternion": wp.types.type_is_quaternion,
    "transformation": wp.types.type_is_transformation, "struct": wp.types.type_is_struct,
    "array": wp.types.type_is_array,
}
VALUE_PREDICATES = {
    "int": wp.types.is_int, "float": wp.types.is_float, "vector": wp.types.is_vector,
    "matrix": wp.types.is_matrix, "quaternion": wp.types.is_quaternion,
    "transformation": wp.types.is_transformation, "struct": wp.types.is_struct,
    "array": wp.types.is_array,
}
COMPOSITES = ("vector", "matrix", "quaternion", "transformation")

TYPES = [
    (int, "int"), (wp.int16, "int"), (wp.uint64, "int"), (float, "float"), (wp.float16, "float"),
    (wp.bfloat16, "float"), (wp.vec3, "vector"), (vec8us, "vector"),
    (wp.types.vector(3, wp.bool), "vector"), (wp.mat22, "matrix"), (mat55d, "matrix"),
    (wp.quath, "quaternion"), (wp.transformd, "transformation"), (Foo, "struct"),
    (wp.array, "array"), (wp.array2d, "array"), (wp.indexedarray, "array"),
]
VALUES = [
    (123, "int"), (wp.uint64(5), "int"), (1.5, "float"), (wp.bfloat16(1.5), "float"),
    (wp.vec3(1, 2, 3), "vector"), (vec8us(*range(8)), "vector"), (wp.mat33h(), "matrix"),
    (mat55d(), "matrix"), (wp.quat(), "quaternion"), (wp.transformd(), "transformation"),
    (Foo(), "struct"), (wp.zeros(2, dtype=int), "array"), (wp.array[float], "array"),
    (wp.indexedarray(dtype=wp.float16), "array"),
]


@pytest.mark.parametrize("t, kind", TYPES, ids=lambda x: getattr(x, "__name__", str(x)))
def test_type_predicates(t, kind):
    for k, pred in TYPE_PREDICATES.items():
        assert pred(t) == (k == kind), (k, t)
    for pred in VALUE_PREDICATES.values():
        assert not pred(t)
    assert wp.types.type_is_scalar(t) == (kind in ("int", "float"))
    assert wp.types.type_is_composite(t) == (kind in COMPOSITES)
    assert wp.types.type_is_value(t) == (kind in ("int", "float", *COMPOSITES))
    assert not wp.types.type_is_tile(t)


@pytest.mark.parametrize("x, kind", VALUES, ids=lambda x: type(x).__name__)
def test_value_predicates(x, kind):
    for k, pred in VALUE_PREDICATES.items():
        assert pred(x) == (k == kind), (k, x)
    for pred in TYPE_PREDICATES.values():
        assert not pred(x)
    assert wp.types.is_scalar(x) == (kind in ("int", "float"))
    assert wp.types.is_composite(x) == (kind in COMPOSITES)
    assert wp.types.is_value(x) == (kind in ("int", "float", *COMPOSITES))
    assert not wp.types.is_tile(x)


def test_bool_is_a_value_but_not_a_scalar():
    assert wp.types.type_is_value(wp.bool) and wp.types.type_is_value(bool)
    assert not wp.types.type_is_scalar(wp.bool) and not wp.types.type_is_int(bool)
    assert wp.types.is_value(True) and not wp.types.is_int(True)


def test_type_repr():
    cases = {
        wp.vec2i: "vec2i", wp.vec3f: "vec3f", wp.mat22h: "mat22h", wp.quatd: "quatd",
        wp.transformf: "transformf", wp.float32: "float32", wp.bfloat16: "bfloat16", int: "int",
        float: "float", bool: "bool", Any: "Any", wp.types.vector(3, wp.bfloat16): "vec3bf",
        wp.types.vector(5, float): "vector(length=5, dtype=float32)",
        wp.types.vector(3, wp.bool): "vector(length=3, dtype=bool)",
        wp.types.matrix((2, 5), wp.uint8): "matrix(shape=(2, 5), dtype=uint8)",
        wp.spatial_vector: "vector(length=6, dtype=float32)",
        tuple[int, wp.vec3]: "tuple(int, vec3f)",
        wp.array[wp.vec3]: "array(ndim=1, dtype=vec3f)",
        wp.array(dtype=float, ndim=3): "array(ndim=3, dtype=float32)",
        wp.indexedarray[wp.float64]: "indexedarray(ndim=1, dtype=float64)",
        wp.zeros((2, 3), dtype=wp.int8): "array(shape=(2, 3), dtype=int8)",
    }
    for t, text in cases.items():
        assert wp.types.type_repr(t) == text, t
    assert wp.types.type_repr(Foo) == f"{__name__}.Foo"


def test_type_size_and_ctype():
    assert wp.types.type_size(float) == 1 and wp.types.type_size(wp.float16) == 1
    assert wp.types.type_size(wp.vec3) == 3 and wp.types.type_size(wp.mat33) == 9
    assert wp.types.type_size(wp.transform) == 7 and wp.types.type_size(Foo) == 1
    assert wp.types.type_ctype(float) is ctypes.c_float
    assert wp.types.type_ctype(wp.int64) is ctypes.c_int64
    assert wp.types.type_ctype(wp.bfloat16) is ctypes.c_uint16
    vec = wp.types.type_ctype(wp.vec3d)
    assert ctypes.sizeof(vec) == 24 and vec._type_ is ctypes.c_double
    assert ctypes.sizeof(wp.types.type_ctype(wp.mat33h)) == wp.types.type_size_in_bytes(wp.mat33h)
    with pytest.raises(TypeError):
        wp.types.type_ctype(Foo)


def test_get_type_code():
    code = src.get_type_code
    assert code(tuple[float, float]) == "tpl2f4f4"
    assert code(tuple[float, wp.vec3f, wp.vec3f]) == "tpl3f4v3f4v3f4"
    assert code(tuple[wp.vec3f, ...]) == "tpl2v3f4?"
    assert code(tuple[wp.vec3f, wp.mat33f, wp.quatf]) == "tpl3v3f4m33f4qf4"
    assert code(wp.transformh) == "tf2" and code(wp.bfloat16) == "bf2" and code(Any) == "?"
    assert code(wp.array[wp.float32, 2]) == code(wp.array(dtype=wp.float32, ndim=2)) == "a2f4"
    assert code(wp.zeros((2, 2), dtype=wp.float32)) == "a2f4"
    assert code(wp.indexedarray[wp.float64]) == "ia1f8"
    assert code(wp.array[Any]) == "a1?"
    assert code(wp.types.vector(Any, wp.Float)) == "v?f?"
    assert code(wp.types.matrix((3, Any), wp.float64)) == "m3?f8"
    assert code(wp.Int) == "i?" and code(wp.Scalar) == "s?"
    assert code(Foo) == Foo._type.key
    assert code(wp.tile[float]) == "tr?f4" and code(wp.tile[float, 8, 4]) == "tr84f4"
    with pytest.raises(TypeError, match="Unrecognized type"):
        code(dict)
    with pytest.raises(TypeError, match="Union type annotations"):
        code(int | float)


def test_array_kinds_and_annotation_names():
    assert (src.ARRAY_TYPE_REGULAR, src.ARRAY_TYPE_INDEXED) == (0, 1)
    assert (src.ARRAY_TYPE_FABRIC, src.ARRAY_TYPE_FABRIC_INDEXED) == (2, 3)
    assert src.array_type_id(wp.array[float]) == src.ARRAY_TYPE_REGULAR
    assert src.array_type_id(wp.zeros(1)) == src.ARRAY_TYPE_REGULAR
    assert src.array_type_id(wp.indexedarray[float, Literal[2]]) == src.ARRAY_TYPE_INDEXED
    assert src.array_type_id(wp.fabricarray[float]) == src.ARRAY_TYPE_FABRIC
    assert src.array_type_id(wp.indexedfabricarray[float]) == src.ARRAY_TYPE_FABRIC_INDEXED
    assert src.get_type_code(wp.fabricarray[wp.float32]) == "fa1f4"
    assert src.get_type_code(wp.indexedfabricarray(dtype=wp.float64, ndim=2)) == "ifa2f8"
    assert wp.types.is_array(wp.fabricarray[float])
    assert src.concrete_array_type(wp.indexedfabricarray[float]) is wp.indexedfabricarray
    with pytest.raises(ValueError):
        src.array_type_id(1.0)
    assert src.concrete_array_type(wp.array2d[float]) is wp.array
    assert src.concrete_array_type(wp.indexedarray2d(dtype=float)) is wp.indexedarray
    assert src.matches_array_class(wp.array[float], wp.array)
    assert not src.matches_array_class(wp.array[float], wp.indexedarray)
    ann = src._ArrayAnnotation(dtype=wp.float64, ndim=3)
    assert ann.dtype is wp.float64 and ann.ndim == 3
    assert isinstance(ann, src._ArrayAnnotation) and isinstance(ann, src._ArrayAnnotationBase)
    assert not isinstance(ann, src._IndexedArrayAnnotation)
    assert not isinstance(wp.zeros(1), src._ArrayAnnotationBase)  # an array, not an annotation
    ia = src._IndexedArrayAnnotation(dtype=float)
    assert isinstance(ia, src._IndexedArrayAnnotation) and isinstance(ia, src._ArrayAnnotationBase)
    assert wp.array[float, Literal[2]].ndim == 2
    with pytest.raises(TypeError, match="single Literal value"):
        wp.array[float, Literal[1, 2]]
    with pytest.raises(TypeError, match="single type parameter"):
        wp.array2d[float, 2]
    with pytest.raises(ValueError, match="ndim must be between 1 and 4"):
        wp.array[float, 5]


def test_subscript_type_factories():
    assert src.Vector[float, Literal[3]] is wp.vec3 and src.Vector[wp.float64, 4] is wp.vec4d
    assert src.Matrix[float, Literal[2], Literal[3]] is wp.types.matrix((2, 3), wp.float32)
    assert src.Quaternion[wp.float16] is wp.quath
    assert src.Transformation[wp.float64] is wp.transformd
    T, N = TypeVar("T"), TypeVar("N")
    assert get_origin(src.Vector[T, N]) is src.Vector  # for static type checkers
    for make, message in [
        (lambda: src.Vector[float], "requires 2 parameters"),
        (lambda: src.Vector[float, 0], "positive integer"),
        (lambda: src.Vector[float, Literal[2, 3]], "single Literal value"),
        (lambda: src.Matrix[float, 3], "requires 3 parameters"),
        (lambda: src.Matrix[float, -1, 3], "positive integer"),
    ]:
        with pytest.raises(TypeError, match=message):
            make()


def test_tile_annotations_record_but_do_not_compile():
    t = wp.tile[float]
    assert wp.types.is_tile(t) and wp.types.type_is_tile(wp.tile)
    assert t.dtype is wp.float32 and t.shape is Any and t.storage == "register"
    assert wp.tile[float, Literal[8], Literal[4]].shape == (8, 4)
    assert wp.tile[wp.float64, (4, 4)].shape == (4, 4)
    assert wp.tile(dtype=wp.float16, shape=(2, 2)).shape == (2, 2)
    with pytest.raises(TypeError, match="requires at least a dtype"):
        wp.tile[()]
    with pytest.raises(TypeError, match="positive integer"):
        wp.tile[float, -1, 4]
