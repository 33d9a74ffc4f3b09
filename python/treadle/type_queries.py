"""Warp's type introspection over every type module: the ``wp.types.type_is_*`` predicates of
types and the ``is_*`` predicates of values, ``type_repr``, ``type_ctype``, and
the type codes Warp's private types module gives annotations (``get_type_code``).

Python's ``int``, ``float`` and ``bool`` count as int32, float32 and bool, as in Warp. treadle
does not support Warp's tiles: ``wp.tile[dtype, M, N]`` only makes an annotation object that
records them (and that no kernel accepts), so that code mentioning tiles still imports."""

import builtins
import types as pytypes
import typing
from typing import Any

from . import _treadle, scalar_types
from .array import array
from .fabricarray import _fabric_base, fabricarray, indexedfabricarray
from .indexedarray import indexedarray
from .quat_types import quat_base, transform_base
from .scalar_types import Float, Int, Scalar, scalar_base
from .struct import StructInstance, is_struct_type
from .type_classes import class_of
from .vec_types import composite_base, generic_composite, matrix_base, vector_base

_PYTHON_SCALARS = {
    builtins.int: scalar_types.int32,
    builtins.float: scalar_types.float32,
    builtins.bool: scalar_types.bool,
}


def _canonical(t):
    """Python's int/float/bool as Warp's int32/float32/bool; other types unchanged."""
    try:
        return _PYTHON_SCALARS.get(t, t)
    except TypeError:  # unhashable
        return t


def _composite_kind(t):
    """The Type kind ("vector", "matrix", "quat", "transform") of a composite class, or None."""
    if isinstance(t, type) and issubclass(t, composite_base) and t._type is not None:
        return t._type.kind
    return None


# --- types ----------------------------------------------------------------------------------


def type_is_int(t):
    """True for the integer scalar types (and Python int)."""
    return _canonical(t) in scalar_types.int_types


def type_is_float(t):
    """True for the floating-point scalar types (and Python float)."""
    return _canonical(t) in scalar_types.float_types


def type_is_scalar(t):
    """True for the integer and floating-point scalar types (not bool)."""
    return type_is_int(t) or type_is_float(t)


def type_is_vector(t):
    """True for vector types (not quaternions or transforms)."""
    return _composite_kind(t) == "vector"


def type_is_matrix(t):
    """True for matrix types."""
    return _composite_kind(t) == "matrix"


def type_is_quaternion(t):
    """True for quaternion types."""
    return _composite_kind(t) == "quat"


def type_is_transformation(t):
    """True for transform types."""
    return _composite_kind(t) == "transform"


def type_is_composite(t):
    """True for vector, matrix, quaternion and transform types."""
    return _composite_kind(t) is not None


def type_is_value(t):
    """True for value types: scalars (bool included), vectors, matrices, quaternions and
    transforms."""
    return _canonical(t) in scalar_types.scalar_types or type_is_composite(t)


def type_is_struct(t):
    """True for @wp.struct classes."""
    return is_struct_type(t)


def type_is_array(t):
    """True for the array classes (wp.array, wp.indexedarray and their 1-D to 4-D forms, the
    Fabric array classes)."""
    return isinstance(t, type) and issubclass(t, (array, indexedarray, _fabric_base))


def type_is_tile(t):
    """True for the tile annotation class (treadle does not support tiles in kernels)."""
    return t is tile


# --- values ---------------------------------------------------------------------------------


def is_int(x):
    """True for an integer value (a Python int or an integer scalar; not a bool)."""
    return type_is_int(type(x))


def is_float(x):
    """True for a floating-point value (a Python float or a float scalar)."""
    return type_is_float(type(x))


def is_scalar(x):
    """True for an integer or floating-point value (not a bool)."""
    return type_is_scalar(type(x))


def is_vector(x):
    """True for a vector value (not a quaternion or transform)."""
    return isinstance(x, vector_base) and type_is_vector(type(x))


def is_matrix(x):
    """True for a matrix value."""
    return isinstance(x, matrix_base)


def is_quaternion(x):
    """True for a quaternion value."""
    return isinstance(x, quat_base)


def is_transformation(x):
    """True for a transform value."""
    return isinstance(x, transform_base)


def is_composite(x):
    """True for a vector, matrix, quaternion or transform value."""
    return isinstance(x, composite_base)


def is_value(x):
    """True for a value of a value type: a Python number or bool, a scalar, a vector, matrix,
    quaternion or transform."""
    numbers = (builtins.int, builtins.float, builtins.bool, scalar_base)
    return isinstance(x, numbers) or is_composite(x)


def is_struct(x):
    """True for an instance of a @wp.struct class."""
    return isinstance(x, StructInstance)


def is_array(x):
    """True for an array, indexed or Fabric array (or an annotation of one)."""
    return isinstance(x, (array, indexedarray, _fabric_base))


def is_tile(x):
    """True for a tile annotation (treadle does not support tiles in kernels)."""
    return isinstance(x, tile)


def _tile_dim(n):
    if typing.get_origin(n) is typing.Literal and len(typing.get_args(n)) == 1:
        n = typing.get_args(n)[0]
    if not isinstance(n, builtins.int) or isinstance(n, builtins.bool) or n < 1:
        raise TypeError(f"tile dimensions must be positive integers, got {n!r}")
    return n


class tile:
    """A Warp tile annotation: ``wp.tile[dtype]``, ``wp.tile[dtype, M, N]`` (ints or
    ``Literal[n]``), ``wp.tile[dtype, (M, N)]`` or ``wp.tile(dtype=..., shape=...)``: the type
    of a @wp.func parameter or result that is a tile. A dtype or shape left out (Any) takes
    every tile that fits the rest. (In kernels, ``wp.tile(x)`` is the builtin that makes a
    tile of per-thread values.)"""

    __slots__ = ("dtype", "shape", "storage")

    def __init__(self, dtype=Any, shape=Any, storage="register"):
        self.dtype = _canonical(dtype)
        self.shape = shape if shape is Any else tuple(_tile_dim(n) for n in shape)
        self.storage = storage

    def __class_getitem__(cls, params):
        params = params if isinstance(params, tuple) else (params,)
        if not params:
            raise TypeError("wp.tile[...] requires at least a dtype")
        dtype, dims = params[0], params[1:]
        if len(dims) == 1 and isinstance(dims[0], tuple):
            dims = dims[0]
        return cls(dtype, tuple(dims) if dims else Any)

    def __repr__(self):
        return f"tile(dtype={type_repr(self.dtype)}, shape={self.shape}, storage={self.storage!r})"

    @property
    def _type(self):
        """The compiler Type: a tile type, or the generic annotation of the tiles that fit."""
        dtype = None if self.dtype is Any else getattr(self.dtype, "_type", None)
        if self.dtype is not Any and dtype is None:
            generic = scalar_types.generic_type(self.dtype)
            if generic is None:
                raise TypeError(f"tile dtype must be a scalar, vector or matrix type, got "
                                f"{self.dtype!r}")
            dtype = scalar_types.type_of(self.dtype)
        shape = None if self.shape is Any else list(self.shape)
        return _treadle.types.tile(dtype, shape)


class tile_stack:
    """A Warp tile stack annotation: ``wp.tile_stack(capacity=64, dtype=int)`` as the type of a
    @wp.func parameter that takes a stack (the function pushes and pops the caller's stack).
    (In kernels, ``wp.tile_stack(capacity, dtype)`` is the builtin that makes a stack.)"""

    __slots__ = ("capacity", "dtype")

    def __init__(self, capacity, dtype):
        if isinstance(capacity, bool) or not hasattr(capacity, "__index__"):
            raise TypeError(f"tile_stack(): capacity must be a positive integer, got {capacity!r}")
        capacity = capacity.__index__()
        if capacity < 1:
            raise ValueError(f"tile_stack(): capacity must be a positive integer, got {capacity}")
        self.capacity = int(capacity)
        self.dtype = _canonical(dtype)

    def __repr__(self):
        return f"tile_stack(capacity={self.capacity}, dtype={type_repr(self.dtype)})"

    @property
    def _type(self):
        """The compiler Type of the stack."""
        dtype = getattr(self.dtype, "_type", None)
        if dtype is None:
            dtype = scalar_types.type_of(self.dtype)
        return _treadle.types.tile_stack(dtype, self.capacity)


# --- sizes, names, ctypes -------------------------------------------------------------------




def type_ctype(dtype):
    """The ctypes type of one value of ``dtype``: the scalar's ctypes type, or an array of it
    for vectors, matrices, quaternions and transforms (the same memory layout)."""
    dtype = _canonical(dtype)
    if isinstance(dtype, type) and issubclass(dtype, scalar_base):
        return dtype._type_
    if type_is_composite(dtype):
        return dtype._wp_scalar_type_._type_ * dtype._length_
    raise TypeError(f"type_ctype(): {type_repr(dtype)} has no ctypes equivalent")


_SHORT_NAMES = {
    "float16": "h", "bfloat16": "bf", "float32": "f", "float64": "d", "int8": "b", "int16": "s",
    "int32": "i", "int64": "l", "uint8": "ub", "uint16": "us", "uint32": "ui", "uint64": "ul",
}
"""Warp's suffixes of the scalar types in vector and matrix names (bool has none)."""


def _short_name(scalar):
    return _SHORT_NAMES.get(getattr(scalar, "__name__", None))


def _composite_repr(t):
    scalar = t._wp_scalar_type_
    sn = _short_name(scalar)
    kind = t._type.kind
    if kind in ("quat", "transform"):
        base = "quat" if kind == "quat" else "transform"
        return f"{base}{sn}" if sn else f"{base}(dtype={type_repr(scalar)})"
    if kind == "vector":
        n = t._shape[0]
        return f"vec{n}{sn}" if sn and n <= 4 else f"vector(length={n}, dtype={type_repr(scalar)})"
    rows, cols = t._shape
    if sn and rows <= 4 and cols <= 4:
        return f"mat{rows}{cols}{sn}"
    return f"matrix(shape=({rows}, {cols}), dtype={type_repr(scalar)})"


def _is_annotation(a):
    if isinstance(a, _fabric_base):
        return a.device is None
    return a.data is None if isinstance(a, indexedarray) else a._is_annotation or a._is_null


def _array_repr(a):
    name = "indexedarray" if isinstance(a, indexedarray) else "array"
    if isinstance(a, _fabric_base):
        name = type(a).__name__
    if _is_annotation(a):  # its ndim, not a shape
        return f"{name}(ndim={a.ndim}, dtype={type_repr(a.dtype)})"
    return f"{name}(shape={a.shape}, dtype={type_repr(a.dtype)})"


def type_repr(t):
    """How Warp writes a type in messages: "float32", "vec3f", "mat22h",
    "vector(length=5, dtype=float32)", "array(ndim=2, dtype=vec3f)", "tuple(float32, int32)";
    a struct (or any other class) by its module and qualified name."""
    if t is Any:
        return "Any"
    if is_array(t):
        return _array_repr(t)
    if is_tile(t):
        return f"tile(shape={t.shape}, dtype={type_repr(t.dtype)})"
    if typing.get_origin(t) is tuple:
        args = typing.get_args(t)
        return f"tuple({', '.join(type_repr(x) for x in args)})" if args else "tuple"
    if type_is_composite(t):
        return _composite_repr(t)
    if t in scalar_types.scalar_types:
        return t.__name__
    for py in (builtins.bool, builtins.float, builtins.int):
        if t is py:
            return py.__name__
    name = getattr(t, "__name__", None)
    if name is None:
        return repr(t)
    return f"{t.__module__}.{getattr(t, '__qualname__', name)}"


# --- type codes (warp._src.types.get_type_code) ---------------------------------------------

_SIMPLE_CODES = {
    builtins.int: "i4", builtins.float: "f4", builtins.bool: "b", str: "str",
    scalar_types.bool: "b", scalar_types.int8: "i1", scalar_types.int16: "i2",
    scalar_types.int32: "i4", scalar_types.int64: "i8", scalar_types.uint8: "u1",
    scalar_types.uint16: "u2", scalar_types.uint32: "u4", scalar_types.uint64: "u8",
    scalar_types.float16: "f2", scalar_types.bfloat16: "bf2", scalar_types.float32: "f4",
    scalar_types.float64: "f8",
}


def _dim_code(n):
    return "?" if n in (0, None) else str(n)


def _generic_code(bound):
    """The code of the Type of a generic vector/matrix annotation (vector(length=Any, ...))."""
    element = bound.dtype
    if element.kind == "generic":
        code = {"Float": "f?", "Int": "i?", "Scalar": "s?"}.get(element.name, "?")
    else:
        code = get_type_code(class_of(element))
    if bound.shape is not None:
        rows, cols = bound.shape
        return f"m{_dim_code(rows)}{_dim_code(cols)}{code}"
    return f"v{_dim_code(bound.length)}{code}"


def get_type_code(arg_type):
    """Warp's short code of a type annotation, as its kernels' mangled names use: "f4" for
    float32, "v3f4" for vec3f, "m33f4", "qf4", "tf4", "a2f4" for a 2-D float array, "ia1f8",
    "tpl2f4i4" for tuple[float, int], "?" for Any. TypeError for anything else."""
    if arg_type is Any or arg_type is Ellipsis:
        return "?"
    if typing.get_origin(arg_type) is typing.Union or isinstance(arg_type, pytypes.UnionType):
        raise TypeError(
            "Union type annotations are only supported at Python scope and are invalid in Warp "
            "kernels/functions"
        )
    if typing.get_origin(arg_type) is tuple:
        args = typing.get_args(arg_type)
        return f"tpl{len(args)}{''.join(get_type_code(x) for x in args)}"
    kind = _composite_kind(arg_type)
    if kind is not None:
        dtype = get_type_code(arg_type._wp_scalar_type_)
        if kind == "quat":
            return f"q{dtype}"
        if kind == "transform":
            return f"t{dtype}"
        if kind == "vector":
            return f"v{_dim_code(arg_type._shape[0])}{dtype}"
        return f"m{_dim_code(arg_type._shape[0])}{_dim_code(arg_type._shape[1])}{dtype}"
    if is_array(arg_type):
        prefix = "a"
        if isinstance(arg_type, indexedarray):
            prefix = "ia"
        elif isinstance(arg_type, _fabric_base):
            prefix = "ifa" if arg_type._fabric_indexed else "fa"
        generic = arg_type.dtype in (Any, Int, Float, Scalar)
        dtype = "?" if generic else get_type_code(arg_type.dtype)
        ndim = "?" if arg_type.ndim is Any else arg_type.ndim
        return f"{prefix}{ndim}{dtype}"
    if is_struct_type(arg_type):
        return arg_type._type.key
    if is_tile(arg_type):
        shape = "?" if arg_type.shape is Any else "".join(str(n) for n in arg_type.shape)
        storage = "s" if arg_type.storage == "shared" else "r"
        dtype = "?" if arg_type.dtype is Any else get_type_code(arg_type.dtype)
        return f"t{storage}{shape}{dtype}"
    if arg_type is Scalar:
        return "s?"
    if arg_type is Float:
        return "f?"
    if arg_type is Int:
        return "i?"
    if isinstance(arg_type, generic_composite):
        return _generic_code(arg_type._type)
    try:
        code = _SIMPLE_CODES.get(arg_type)
    except TypeError:  # unhashable
        code = None
    if code is None:
        raise TypeError(f"Unrecognized type '{arg_type}'")
    return code


def array_type_id(a):
    """Warp's kind number of an array or its annotation: 0 for arrays, 1 for indexed arrays,
    2 for Fabric arrays and 3 for indexed Fabric arrays. ValueError for anything else."""
    if isinstance(a, array):
        return ARRAY_TYPE_REGULAR
    if isinstance(a, indexedarray):
        return ARRAY_TYPE_INDEXED
    if isinstance(a, indexedfabricarray):
        return ARRAY_TYPE_FABRIC_INDEXED
    if isinstance(a, fabricarray):
        return ARRAY_TYPE_FABRIC
    raise ValueError("Invalid array type")


ARRAY_TYPE_REGULAR = 0
"""array_type_id() of arrays."""
ARRAY_TYPE_INDEXED = 1
"""array_type_id() of indexed arrays."""
ARRAY_TYPE_FABRIC = 2
"""array_type_id() of Fabric arrays."""
ARRAY_TYPE_FABRIC_INDEXED = 3
"""array_type_id() of indexed Fabric arrays."""


def concrete_array_type(t):
    """The array class of an array or annotation: wp.array, wp.indexedarray (their 1-D to
    4-D forms included), wp.fabricarray or wp.indexedfabricarray."""
    if isinstance(t, indexedarray):
        return indexedarray
    if isinstance(t, _fabric_base):
        return type(t)
    if isinstance(t, array):
        return array
    return type(t)


def matches_array_class(t, cls):
    """Whether ``t`` (an array or annotation) is of array class ``cls``."""
    return concrete_array_type(t) is cls
