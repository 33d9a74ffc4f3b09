"""Scalar types of the kernel language (Warp's names), the generic markers, and the compiler
type (``_treadle.Type``) of an annotation. The lowest type module above type_classes: it knows
vectors, matrices, arrays and structs only through the ``_type`` they hold."""

import builtins
import ctypes
import operator
from typing import Any, TypeVar

import numpy as np

from . import _treadle
from .type_classes import register

Int = TypeVar("Int")
"""Generic marker: any integer scalar type."""
Float = TypeVar("Float")
"""Generic marker: any floating-point scalar type."""
Scalar = TypeVar("Scalar")
"""Generic marker: any scalar type."""


class scalar_base:
    """Base of the scalar type classes: ``wp.float32(1.5)`` is a host value with ``.value``."""

    _type = None  # the compiler's interned type (_treadle.Type); None on the base classes
    _np_dtype = None  # numpy dtype of host values
    _np_memory = None  # numpy dtype of a value in memory (arrays, struct records): _np_dtype,
    # except for bfloat16, which numpy lacks: its bits, as uint16
    _size: int = 0
    _type_ = None
    _length_ = 1

    def __init__(self, x=0):
        if isinstance(x, scalar_base):
            x = x.value
        self.value = self._convert(x)

    @classmethod
    def _convert(cls, x):
        return x

    @classmethod
    def _to_memory(cls, value):
        """A host value as memory holds it (bfloat16: its bits)."""
        return value

    @classmethod
    def _from_memory(cls, raw):
        """The host value of ``raw``, a value as memory holds it (a numpy scalar or a Python
        number)."""
        return raw.item() if isinstance(raw, np.generic) else raw

    def __float__(self):
        return builtins.float(self.value)

    def __int__(self):
        return builtins.int(self.value)

    def __bool__(self):
        return builtins.bool(self.value)

    def __repr__(self):
        return f"{type(self).__name__}({self.value!r})"

    def __str__(self):
        return str(self.value)

    def __hash__(self):
        return hash(self.value)

    def _other(self, other):
        if isinstance(other, scalar_base):
            if type(other) is not type(self):
                raise TypeError(
                    f"cannot combine {type(self).__name__} and {type(other).__name__} values; "
                    "convert one first"
                )
            return other.value
        if isinstance(other, (builtins.int, builtins.float, builtins.bool, np.generic)):
            return other
        return NotImplemented

    def _compare(self, other, op):
        # Comparisons, unlike arithmetic, take scalars of any type (int8(1) == float32(1.0));
        # a float scalar compares with an int as a float (2**1024: OverflowError, as in Warp)
        v = other.value if isinstance(other, scalar_base) else self._other(other)
        if v is NotImplemented:
            return NotImplemented
        if isinstance(self, float_base) and isinstance(v, builtins.int):
            v = builtins.float(v)
        return op(self.value, v)

    def __eq__(self, other):
        return self._compare(other, operator.eq)

    def __ne__(self, other):
        return self._compare(other, operator.ne)

    def __lt__(self, other):
        return self._compare(other, operator.lt)

    def __le__(self, other):
        return self._compare(other, operator.le)

    def __gt__(self, other):
        return self._compare(other, operator.gt)

    def __ge__(self, other):
        return self._compare(other, operator.ge)

    def _arith(self, other, op, reverse=False):
        v = self._other(other)
        if v is NotImplemented:
            return NotImplemented
        a, b = (v, self.value) if reverse else (self.value, v)
        return type(self)(op(a, b))

    def __add__(self, o):
        return self._arith(o, operator.add)

    def __radd__(self, o):
        return self._arith(o, operator.add, True)

    def __sub__(self, o):
        return self._arith(o, operator.sub)

    def __rsub__(self, o):
        return self._arith(o, operator.sub, True)

    def __mul__(self, o):
        return self._arith(o, operator.mul)

    def __rmul__(self, o):
        return self._arith(o, operator.mul, True)

    def __truediv__(self, o):
        return self._arith(o, self._div)

    def __rtruediv__(self, o):
        return self._arith(o, self._div, True)

    def __floordiv__(self, o):
        return self._arith(o, operator.floordiv)

    def __rfloordiv__(self, o):
        return self._arith(o, operator.floordiv, True)

    def __mod__(self, o):
        return self._arith(o, operator.mod)

    def __rmod__(self, o):
        return self._arith(o, operator.mod, True)

    def __neg__(self):
        return type(self)(-self.value)

    def __pos__(self):
        return type(self)(self.value)

    def __abs__(self):
        return type(self)(abs(self.value))

    _div = staticmethod(operator.truediv)


class int_base(scalar_base):
    """Integer scalar types: values wrap to the type's range like a C cast."""

    _bits = 32
    _signed = True

    @classmethod
    def _convert(cls, x):
        v = builtins.int(x) & ((1 << cls._bits) - 1)
        if cls._signed and v >= 1 << (cls._bits - 1):
            v -= 1 << cls._bits
        return v

    def __index__(self):
        return self.value

    @staticmethod
    def _div(a, b):
        # C semantics: truncate toward zero.
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b >= 0) else -q


class float_base(scalar_base):
    """Floating-point scalar types: values are rounded to the type's precision."""

    @classmethod
    def _convert(cls, x):
        return builtins.float(cls._np_dtype.type(x))

    def __pow__(self, o):  # integers have no ** (TypeError, as in Warp)
        return self._arith(o, _float_pow)

    def __rpow__(self, o):
        return self._arith(o, _float_pow, True)


def _float_pow(a, b):
    """``a ** b`` as kernels compute pow: a negative base with a non-integer power is NaN."""
    with np.errstate(all="ignore"):
        return builtins.float(np.power(np.float64(a), np.float64(b)))


# --- bfloat16 bits ---------------------------------------------------------------------------
# bfloat16 is the top half of a float32. These round exactly as the native headers do
# (native/treadle/core.h), so host and kernel conversions agree bit for bit.


def float32_to_bfloat16_bits(a):
    """The bfloat16 bits (uint16 array) of float32 values, rounded to nearest even; a NaN
    stays a NaN (the quiet bit is set, so no payload truncates to infinity)."""
    a = np.asarray(a, dtype=np.float32)
    bits = np.ascontiguousarray(a).view(np.uint32).reshape(a.shape)
    nan = (bits & np.uint32(0x7FFFFFFF)) > np.uint32(0x7F800000)
    with np.errstate(over="ignore"):
        rounded = (bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))) >> 16
    quiet = (bits >> np.uint32(16)) | np.uint32(0x40)
    return np.where(nan, quiet, rounded).astype(np.uint16)


def float64_to_bfloat16_bits(a):
    """The bfloat16 bits of float64 values, rounded once: round-to-odd to float32 first
    (float32 keeps 16 more bits than bfloat16), then to nearest even."""
    a = np.asarray(a, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        f = a.astype(np.float32)
        back = f.astype(np.float64)
        inexact = (back != a) & ~np.isnan(a)
        too_far = inexact & (np.abs(back) > np.abs(a))
    bits = np.ascontiguousarray(f).view(np.uint32).reshape(a.shape)
    bits = (bits - too_far.astype(np.uint32)) | inexact.astype(np.uint32)
    return float32_to_bfloat16_bits(np.ascontiguousarray(bits).view(np.float32).reshape(a.shape))


_UNSET = object()
_ml_bfloat16 = _UNSET


def ml_bfloat16():
    """numpy's dtype of ml_dtypes.bfloat16 when the ml_dtypes package is installed, else None
    (Warp's arrays show bfloat16 data as it then; as uint16 bits otherwise)."""
    global _ml_bfloat16
    if _ml_bfloat16 is _UNSET:
        try:
            import ml_dtypes

            _ml_bfloat16 = np.dtype(ml_dtypes.bfloat16)
        except ImportError:
            _ml_bfloat16 = None
    return _ml_bfloat16


def as_bits(arr):
    """``arr`` with ml_dtypes bfloat16 data seen as its uint16 bits (others as they are)."""
    ml = ml_bfloat16() if getattr(arr, "dtype", None) is not None and \
        arr.dtype.name == "bfloat16" else None
    return arr.view(np.uint16) if ml is not None and arr.dtype == ml else arr


def as_shown(dtype, bits):
    """Array data of ``dtype`` as ``numpy()`` shows it: bfloat16 bits as ml_dtypes bfloat16
    where that package is installed."""
    ml = ml_bfloat16() if holds_bits(dtype) else None
    return bits.view(ml) if ml is not None else bits


def bfloat16_bits_to_float32(b):
    """The float32 values of bfloat16 bits (exact; ml_dtypes bfloat16 data is taken as its
    bits)."""
    b = np.asarray(as_bits(np.asarray(b)), dtype=np.uint16)
    wide = b.astype(np.uint32) << np.uint32(16)
    return np.ascontiguousarray(wide).view(np.float32).reshape(b.shape)


def round_to_bfloat16(a):
    """Values rounded to bfloat16 precision, as float32."""
    return bfloat16_bits_to_float32(float64_to_bfloat16_bits(a))


def holds_bits(dtype):
    """Whether elements of ``dtype`` lie in memory as bits numpy cannot show as values
    (bfloat16, and vectors and matrices of it: their uint16 bits)."""
    return getattr(dtype, "_np_memory", None) is not getattr(dtype, "_np_dtype", None)


def to_memory(arr, target, raw_bits):
    """Numpy data ``arr`` as elements of ``target`` lie in memory: converted to its numpy
    dtype, or for bfloat16 rounded to its bits (uint16 data with ``raw_bits`` is taken as the
    bits already, as Warp does)."""
    if not holds_bits(target):
        return arr if arr.dtype == target._np_dtype else arr.astype(target._np_dtype)
    if arr.dtype.name == "bfloat16":  # ml_dtypes bfloat16: its memory is the bits
        return as_bits(arr)
    if raw_bits and arr.dtype == np.uint16:
        return arr
    return float64_to_bfloat16_bits(arr)



class bfloat16(float_base):
    """16-bit brain floating-point scalar type: float32's sign and exponent with 7 mantissa
    bits. Host values are floats rounded to it; arrays store its bits, which ``numpy()`` shows
    as uint16 (numpy has no bfloat16)."""

    __module__ = "treadle.types"
    _type = _treadle.types.scalar("bfloat16")
    _np_dtype = np.dtype(np.float32)
    _np_memory = np.dtype(np.uint16)
    _size = 2
    _type_ = ctypes.c_uint16

    @classmethod
    def _convert(cls, x):
        return builtins.float(round_to_bfloat16(builtins.float(x)))

    @classmethod
    def _to_memory(cls, value):
        return float64_to_bfloat16_bits(builtins.float(value))[()]

    @classmethod
    def _from_memory(cls, raw):
        return builtins.float(bfloat16_bits_to_float32(raw))


class bool(scalar_base):
    """Boolean scalar type (one byte)."""

    __module__ = "treadle.types"
    _type = _treadle.types.scalar("bool")
    _np_dtype = np.dtype(np.bool_)
    _np_memory = _np_dtype
    _size = 1
    _type_ = ctypes.c_bool

    @classmethod
    def _convert(cls, x):
        return builtins.bool(x)


def _int_type(name, bits, signed, ctype):
    return type(
        name,
        (int_base,),
        {
            "__doc__": f"{bits}-bit {'signed' if signed else 'unsigned'} integer scalar type.",
            "__module__": "treadle.types",
            "_type": _treadle.types.scalar(name),
            "_np_dtype": np.dtype(name),
            "_np_memory": np.dtype(name),
            "_size": bits // 8,
            "_type_": ctype,
            "_bits": bits,
            "_signed": signed,
        },
    )


def _float_type(name, bits, ctype):
    return type(
        name,
        (float_base,),
        {
            "__doc__": f"{bits}-bit IEEE floating-point scalar type.",
            "__module__": "treadle.types",
            "_type": _treadle.types.scalar(name),
            "_np_dtype": np.dtype(name),
            "_np_memory": np.dtype(name),
            "_size": bits // 8,
            "_type_": ctype,
        },
    )


int8 = _int_type("int8", 8, True, ctypes.c_int8)
uint8 = _int_type("uint8", 8, False, ctypes.c_uint8)
int16 = _int_type("int16", 16, True, ctypes.c_int16)
uint16 = _int_type("uint16", 16, False, ctypes.c_uint16)
int32 = _int_type("int32", 32, True, ctypes.c_int32)
uint32 = _int_type("uint32", 32, False, ctypes.c_uint32)
int64 = _int_type("int64", 64, True, ctypes.c_int64)
uint64 = _int_type("uint64", 64, False, ctypes.c_uint64)
float16 = _float_type("float16", 16, ctypes.c_uint16)
float32 = _float_type("float32", 32, ctypes.c_float)
float64 = _float_type("float64", 64, ctypes.c_double)

half = float16

int_types = (int8, uint8, int16, uint16, int32, uint32, int64, uint64)
float_types = (float16, bfloat16, float32, float64)
scalar_types = (bool, *int_types, *float_types)

for _t in scalar_types:
    register(_t)

_scalar_by_name = {t.__name__: t for t in scalar_types}
_scalar_by_np = {t._np_dtype: t for t in scalar_types if t is not bfloat16}
"""numpy dtype -> scalar type; numpy has no bfloat16 (its float32 host values and uint16 bits
are float32's and uint16's)."""
_python_scalars = {builtins.float: float32, builtins.int: int32, builtins.bool: bool}


def _type_name(t):
    return getattr(t, "__name__", None) or repr(t)


def is_type_class(t):
    """True for a class that holds a concrete value or struct type: a scalar, vector, matrix,
    quaternion, transform or @wp.struct class (not the base classes)."""
    return isinstance(t, type) and isinstance(getattr(t, "_type", None), _treadle.Type)


def resolve_dtype(dtype):
    """The type class named by ``dtype``: a scalar, vector, matrix, quaternion, transform or
    @wp.struct class, Python ``float``/``int``/``bool``, a numpy dtype (or its type) or a scalar
    name such as ``"float32"``. Raises TypeError for anything else."""
    if is_type_class(dtype):
        return dtype
    if isinstance(dtype, type) and dtype in _python_scalars:
        return _python_scalars[dtype]
    if isinstance(dtype, str) and dtype in _scalar_by_name:
        return _scalar_by_name[dtype]
    try:  # numpy reads a `.dtype` attribute too, and raises ValueError for one it cannot use
        np_dtype = np.dtype(dtype) if dtype is not None and not isinstance(dtype, str) else None
    except (TypeError, ValueError):
        np_dtype = None
    if np_dtype is not None and np_dtype in _scalar_by_np:
        return _scalar_by_np[np_dtype]
    raise TypeError(
        f"unsupported dtype {_type_name(dtype)}; expected one of "
        + ", ".join(t.__name__ for t in scalar_types)
        + " (or Python float, int, bool, a vector, matrix, quaternion or transform type, or a "
        "@wp.struct)"
    )


def dtype_from_numpy(numpy_dtype):
    """The scalar type class of a numpy dtype; TypeError when there is none."""
    np_dtype = np.dtype(numpy_dtype)
    if np_dtype.name == "bfloat16" and np_dtype == ml_bfloat16():
        return bfloat16
    t = _scalar_by_np.get(np_dtype if np_dtype.isnative else np_dtype.newbyteorder("="))
    if t is None:
        raise TypeError(f"numpy dtype {np_dtype} has no treadle equivalent")
    return t


def dtype_to_numpy(dtype):
    """The numpy scalar type (``np.int16``, as Warp gives) of a scalar type (or of Python
    float/int/bool) in memory (uint16 for bfloat16, as its arrays show it)."""
    return resolve_dtype(dtype)._np_memory.type




def type_size_in_bytes(t):
    """Size in bytes of one value of scalar type ``t``."""
    return resolve_dtype(t)._size


def type_size(t):
    """Number of scalar components of one value of ``t`` (Warp's ``wp.types.type_size``): 1
    for a scalar, the length of a vector, quaternion or transform, rows * cols of a matrix."""
    return getattr(resolve_dtype(t), "_length_", 1)


_generic_types = {
    Int: _treadle.types.generic("Int"),
    Float: _treadle.types.generic("Float"),
    Scalar: _treadle.types.generic("Scalar"),
    Any: _treadle.types.generic("Any"),
}


def generic_type(x):
    """The placeholder Type of a generic marker (wp.Int, wp.Float, wp.Scalar, typing.Any), or
    None for anything else."""
    try:
        return _generic_types.get(x)
    except TypeError:  # unhashable
        return None


def type_of(t):
    """The compiler's interned type (a ``_treadle.Type``) of an annotation ``t``: a scalar,
    vector, matrix, quaternion or transform class, Python ``float``/``int``/``bool``, an array
    annotation, a @wp.struct class or a generic marker (wp.Int, wp.Float, wp.Scalar,
    typing.Any). Raises TypeError for anything else."""
    bound = getattr(t, "_type", None)
    if isinstance(bound, _treadle.Type):
        return bound
    g = generic_type(t)
    if g is not None:
        return g
    try:
        return resolve_dtype(t)._type
    except TypeError:
        raise TypeError(
            f"unsupported type annotation {_type_name(t)}; expected a scalar type "
            "(float, int, bool, wp.float32, ...), wp.array(dtype=..., ndim=...) or a generic "
            "(wp.Int, wp.Float, wp.Scalar, typing.Any)"
        ) from None


def types_equal(a, b):
    """True when two annotations denote the same type."""
    return type_of(a) == type_of(b)
