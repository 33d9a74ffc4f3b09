"""treadle._src.types: the type lists and helpers of Warp's private types module, bound to
treadle's types (a compatibility layer for programs written against Warp, not treadle's API).

As in Warp, ``scalar_types`` holds the integer and floating-point types but not ``bool``
(``scalar_and_bool_types`` adds it), and ``vector_types`` every named vector, matrix,
quaternion and transform type. numpy has no bfloat16: Warp's maps send it to uint16 (its bits).
``Vector[dtype, n]``, ``Matrix[dtype, r, c]``, ``Quaternion[dtype]`` and ``Transformation[dtype]``
are the subscript forms of the type factories; the array annotation names test for and make
treadle's annotations. Warp's fabric arrays do not exist in treadle: only their
``array_type_id`` numbers do.
"""

import typing

import numpy as np

from .. import quat_types as _quat_types
from .. import scalar_types as _scalar_types
from .. import types as _types
from .. import vec_types as _vec_types
from ..array import array as array
from ..geometry_types import hash_grid_query_type as hash_grid_query_type
from ..indexedarray import indexedarray as indexedarray
from ..quat_types import quaternion as quaternion
from ..quat_types import transformation as transformation
from ..types import bfloat16 as bfloat16
from ..types import bool as bool  # noqa: A004 - Warp's name
from ..types import float16 as float16
from ..types import float32 as float32
from ..types import float64 as float64
from ..types import int8 as int8
from ..types import int16 as int16
from ..types import int32 as int32
from ..types import int64 as int64
from ..type_queries import ARRAY_TYPE_FABRIC as ARRAY_TYPE_FABRIC
from ..type_queries import ARRAY_TYPE_FABRIC_INDEXED as ARRAY_TYPE_FABRIC_INDEXED
from ..type_queries import ARRAY_TYPE_INDEXED as ARRAY_TYPE_INDEXED
from ..type_queries import ARRAY_TYPE_REGULAR as ARRAY_TYPE_REGULAR
from ..type_queries import array_type_id as array_type_id
from ..type_queries import concrete_array_type as concrete_array_type
from ..type_queries import get_type_code as get_type_code
from ..type_queries import matches_array_class as matches_array_class
from ..types import is_array as is_array
from ..types import is_composite as is_composite
from ..types import is_float as is_float
from ..types import is_int as is_int
from ..types import is_matrix as is_matrix
from ..types import is_quaternion as is_quaternion
from ..types import is_scalar as is_scalar
from ..types import is_struct as is_struct
from ..types import is_tile as is_tile
from ..types import is_transformation as is_transformation
from ..types import is_value as is_value
from ..types import is_vector as is_vector
from ..types import type_ctype as type_ctype
from ..types import type_is_array as type_is_array
from ..types import type_is_composite as type_is_composite
from ..types import type_is_float as type_is_float
from ..types import type_is_int as type_is_int
from ..types import type_is_matrix as type_is_matrix
from ..types import type_is_quaternion as type_is_quaternion
from ..types import type_is_scalar as type_is_scalar
from ..types import type_is_struct as type_is_struct
from ..types import type_is_tile as type_is_tile
from ..types import type_is_transformation as type_is_transformation
from ..types import type_is_value as type_is_value
from ..types import type_is_vector as type_is_vector
from ..types import type_repr as type_repr
from ..types import type_size as type_size
from ..types import type_size_in_bytes as type_size_in_bytes
from ..types import types_equal as types_equal
from ..types import uint8 as uint8
from ..types import uint16 as uint16
from ..types import uint32 as uint32
from ..types import uint64 as uint64
from ..vec_types import matrix as matrix
from ..vec_types import vector as vector

int_types = _types.int_types
float_types = _types.float_types
scalar_types = (*int_types, *float_types)
scalar_and_bool_types = (*scalar_types, bool)
non_atomic_types = (int8, uint8, int16, uint16)
"""Scalar types that atomic read-modify-write builtins do not accept."""

vector_types = (
    *_vec_types.vector_types,
    *_vec_types.matrix_types,
    *_quat_types.quat_types,
    *_quat_types.transform_types,
)

_numpy_scalars = tuple(t for t in scalar_and_bool_types if t is not bfloat16)
np_dtype_to_warp_type = {
    **{t._np_dtype.type: t for t in _numpy_scalars},
    np.byte: int8,
    np.ubyte: uint8,
    **{np.dtype(t._np_dtype): t for t in _numpy_scalars},
}
"""numpy scalar types and dtypes (both, as keys) to treadle's scalar types (none gives
bfloat16, which numpy lacks)."""

_np_float32_to_bfloat16_bits = _scalar_types.float32_to_bfloat16_bits
"""Warp's helper: float32 values (a numpy array) to bfloat16 bits (uint16), nearest even."""
_np_bfloat16_bits_to_float32 = _scalar_types.bfloat16_bits_to_float32
"""Warp's helper: bfloat16 bits (a uint16 numpy array) to their float32 values."""

warp_type_to_np_dtype = {t: t._np_memory.type for t in scalar_and_bool_types}
"""treadle's scalar types to numpy scalar types (bfloat16 to uint16, its bits)."""


def dtype_from_numpy(numpy_dtype):
    """The treadle scalar type of a numpy dtype or scalar type (TypeError if there is none)."""
    t = np_dtype_to_warp_type.get(numpy_dtype)
    ml = _scalar_types.ml_bfloat16()
    if t is None and ml is not None and getattr(numpy_dtype, "__name__", None) == "bfloat16":
        numpy_dtype = np.dtype(numpy_dtype)  # ml_dtypes.bfloat16, the type
    if t is None and ml is not None and isinstance(numpy_dtype, np.dtype) and numpy_dtype == ml:
        return _scalar_types.bfloat16
    if t is None:
        raise TypeError(f"Cannot convert {numpy_dtype} to a Warp type")
    return t


def dtype_to_numpy(warp_dtype):
    """The numpy scalar type of a treadle scalar type (TypeError if there is none)."""
    t = warp_type_to_np_dtype.get(warp_dtype)
    if t is None:
        raise TypeError(f"Cannot convert {warp_dtype} to a NumPy type")
    return t


def type_scalar_type(dtype):
    """The scalar type of a vector, matrix, quaternion or transform type; a scalar type itself."""
    return getattr(dtype, "_wp_scalar_type_", dtype)


def strides_from_shape(shape, dtype):
    """The byte strides of a contiguous (row-major) array of `shape` with elements `dtype`."""
    strides = [0] * len(shape)
    step = type_size_in_bytes(dtype)
    for i in reversed(range(len(shape))):
        strides[i] = step
        step *= shape[i]
    return tuple(strides)


# --- subscript forms of the type factories (Vector[float32, Literal[3]], ...) ---------------


def _size_parameter(p, what):
    """An int from ``Literal[n]`` or a bare int; TypeError otherwise or when not positive."""
    if typing.get_origin(p) is typing.Literal:
        args = typing.get_args(p)
        if len(args) != 1:
            raise TypeError(f"Expected a single Literal value for {what}, got {p!r}")
        p = args[0]
    if not isinstance(p, int) or isinstance(p, bool) or p < 1:
        raise TypeError(f"{what} must be a positive integer, got {p!r}")
    return p


def _parameters(params, count, name, form):
    params = params if isinstance(params, tuple) else (params,)
    if len(params) != count:
        raise TypeError(f"{name}[...] requires {count} parameters ({form}), got {len(params)}")
    return params


class _SubscriptType(typing.Generic[typing.TypeVar("_T")]):
    """Base of Warp's subscript forms of the type factories: with concrete parameters the
    subscript is the factory's (cached) class; with type variables a typing alias, for static
    type checkers."""

    _count = 1

    def __class_getitem__(cls, params):
        items = params if isinstance(params, tuple) else (params,)
        if any(isinstance(p, typing.TypeVar) for p in items):
            return typing._GenericAlias(cls, items)
        return cls._make(*_parameters(params, cls._count, cls.__name__, cls._form))


class Vector(_SubscriptType):
    """``Vector[dtype, length]`` (length a ``Literal[n]`` or an int): ``vector(length, dtype)``."""

    _count, _form = 2, "dtype, length"

    @staticmethod
    def _make(dtype, length):
        return vector(_size_parameter(length, "Vector length"), dtype)


class Matrix(_SubscriptType):
    """``Matrix[dtype, rows, cols]``: ``matrix((rows, cols), dtype)``."""

    _count, _form = 3, "dtype, rows, cols"

    @staticmethod
    def _make(dtype, rows, cols):
        shape = (_size_parameter(rows, "Matrix rows"), _size_parameter(cols, "Matrix cols"))
        return matrix(shape, dtype)


class Quaternion(_SubscriptType):
    """``Quaternion[dtype]``: ``quaternion(dtype)``."""

    _count, _form = 1, "dtype"

    @staticmethod
    def _make(dtype):
        return quaternion(dtype)


class Transformation(_SubscriptType):
    """``Transformation[dtype]``: ``transformation(dtype)``."""

    _count, _form = 1, "dtype"

    @staticmethod
    def _make(dtype):
        return transformation(dtype)


# --- array annotations ---------------------------------------------------------------------
# In Warp these are classes of their own; treadle's annotations are arrays without data
# (``wp.array[float]``, ``wp.array(dtype=float, ndim=2)``). These names test for them and make
# them.


class _AnnotationClass(type):
    def __instancecheck__(cls, x):
        return cls._holds(x)


def _is_array_annotation(x):
    return isinstance(x, array) and x._is_annotation


def _is_indexed_annotation(x):
    return isinstance(x, indexedarray) and x.data is None


class _ArrayAnnotationBase(metaclass=_AnnotationClass):
    """isinstance() test of array and indexed array annotations."""

    @staticmethod
    def _holds(x):
        return _is_array_annotation(x) or _is_indexed_annotation(x)

    def __new__(cls, *args, **kwargs):
        raise TypeError(
            "_ArrayAnnotationBase is abstract: use wp.array[...] or wp.indexedarray[...]")


class _ArrayAnnotation(_ArrayAnnotationBase):
    """``_ArrayAnnotation(dtype, ndim)``: ``wp.array(dtype=dtype, ndim=ndim)``, an annotation."""

    _holds = staticmethod(_is_array_annotation)

    def __new__(cls, dtype, ndim=1):
        return array(dtype=dtype, ndim=ndim)


class _IndexedArrayAnnotation(_ArrayAnnotationBase):
    """``_IndexedArrayAnnotation(dtype, ndim)``: ``wp.indexedarray(dtype=dtype, ndim=ndim)``."""

    _holds = staticmethod(_is_indexed_annotation)

    def __new__(cls, dtype, ndim=1):
        return indexedarray(dtype=dtype, ndim=ndim)
