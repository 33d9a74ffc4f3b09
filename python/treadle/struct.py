"""@wp.struct: user-defined structs as host objects, numpy records and kernel types.

A struct class made by ``@wp.struct`` holds the compiler's interned struct type
(``_treadle.types.struct``: its module and qualified name, and the interned type of each
field), which lays the fields out by C rules; the numpy dtype here is built from that layout,
so it and the struct in generated code always agree. Instances hold their field values as
Python objects, converted on assignment; launches read them field by field.
"""

import builtins
import inspect
import numbers
import operator
import re
import sys
import typing

import numpy as np

from . import _treadle, scalar_types
from .context import get_device
from .scalar_types import scalar_base
from .shapes import shape_tuple
from .single_values import refused, warn_widening, widened
from .type_classes import class_of, register
from .vec_types import composite_base

_ARRAY_T_DTYPE = np.dtype(
    {
        "names": ["data", "grad", "shape", "strides", "ndim", "flags"],
        "formats": ["<u8", "<u8", ("<i4", (4,)), ("<i8", (4,)), "<i4", "<i4"],
        "offsets": [0, 8, 16, 32, 64, 68],
        "itemsize": 72,
    }
)
"""wp::array_t<T> (native/treadle/array.h) as a numpy record: an array field of a struct."""

_INDEXEDARRAY_T_DTYPE = np.dtype(
    {
        "names": ["arr", "indices", "shape"],
        "formats": [_ARRAY_T_DTYPE, ("<u8", (4,)), ("<i4", (4,))],
        "offsets": [0, 72, 104],
        "itemsize": 120,
    }
)
"""wp::indexedarray_t<T> (native/treadle/indexedarray.h) as a numpy record: the underlying
array, one index array address per dimension (0: the whole dimension) and the indexed shape."""

_FABRICARRAY_T_DTYPE = np.dtype(
    {"names": ["buckets", "nbuckets", "size"], "formats": ["<u8", "<u8", "<u8"],
     "offsets": [0, 8, 16], "itemsize": 24}
)
"""wp::fabricarray_t<T> (native/treadle/fabricarray.h) as a numpy record: the bucket table's
address, the number of buckets and of elements."""

_INDEXEDFABRICARRAY_T_DTYPE = np.dtype(
    {"names": ["fa", "indices", "size"], "formats": [_FABRICARRAY_T_DTYPE, "<u8", "<u8"],
     "offsets": [0, 24, 32], "itemsize": 40}
)
"""wp::indexedfabricarray_t<T> as a numpy record: the Fabric array, the index array's address
and its length."""

_FABRIC_KINDS = ("fabricarray", "indexedfabricarray")

_fabric_classes = {}
"""The Fabric array classes by field kind, set by fabricarray.py (register_fabric_classes), so
that records read back give annotation stubs of the field's type."""


def register_fabric_classes(fabricarray, indexedfabricarray):
    """Sets the classes of Fabric array fields (called once by fabricarray.py)."""
    _fabric_classes.update(fabricarray=fabricarray, indexedfabricarray=indexedfabricarray)


class _Field:
    """One field: its name, kind ("scalar", "composite", "array", "indexedarray",
    "fabricarray", "indexedfabricarray", "struct"), type and offset. For arrays, ``type`` is
    the element type (a class) and ``ndim`` the dimensions (typing.Any for a Fabric array
    field of any dimensions)."""

    __slots__ = ("kind", "name", "ndim", "offset", "type")

    def __init__(self, name, kind, type_, ndim=0):
        self.name, self.kind, self.type, self.ndim = name, kind, type_, ndim
        self.offset = 0


def _field_of(owner, name, annotation):
    """The _Field for an annotation of class ``owner``; TypeError for unsupported types."""
    if isinstance(annotation, _treadle.Array):  # wp.array(dtype=..., ndim=...)
        if not annotation._is_annotation:
            raise TypeError(f"struct {owner}: field '{name}' is annotated with an array value")
        dtype = annotation._ann_dtype
        if not (is_struct_type(dtype) or isinstance(dtype, type)):
            raise TypeError(f"struct {owner}: field '{name}' needs a concrete array dtype")
        return _Field(name, "array", scalar_types.resolve_dtype(dtype), annotation._ann_ndim)
    if getattr(annotation, "_is_indexedarray", False):  # wp.indexedarray(dtype=..., ndim=...)
        if annotation.data is not None:
            raise TypeError(
                f"struct {owner}: field '{name}' is annotated with an indexedarray value")
        dtype = annotation._ann_dtype
        if not (is_struct_type(dtype) or isinstance(dtype, type)):
            raise TypeError(f"struct {owner}: field '{name}' needs a concrete indexedarray dtype")
        return _Field(name, "indexedarray", scalar_types.resolve_dtype(dtype), annotation._ann_ndim)
    if getattr(annotation, "_fabric_indexed", None) is not None:  # wp.fabricarray(dtype=...)
        kind = _FABRIC_KINDS[annotation._fabric_indexed]
        if annotation.device is not None:
            raise TypeError(f"struct {owner}: field '{name}' is annotated with a {kind} value")
        dtype = annotation.dtype
        if not isinstance(dtype, type):
            raise TypeError(f"struct {owner}: field '{name}' needs a concrete {kind} dtype")
        return _Field(name, kind, scalar_types.resolve_dtype(dtype), annotation.ndim)
    if is_struct_type(annotation):
        return _Field(name, "struct", annotation)
    if isinstance(annotation, type) and issubclass(annotation, composite_base) and \
            annotation._type is not None:
        return _Field(name, "composite", annotation)
    try:
        scalar = scalar_types.resolve_dtype(annotation)
    except TypeError:
        scalar = None
    if scalar is None or not issubclass(scalar, scalar_base):
        raise TypeError(
            f"struct {owner}: field '{name}' has an unsupported type "
            f"{getattr(annotation, '__name__', repr(annotation))} (expected a scalar, vector, "
            "matrix, quaternion or transform type, wp.array(dtype=...) or a @wp.struct)"
        )
    return _Field(name, "scalar", scalar)


def _field_type(f):
    """The compiler's interned type of a field."""
    if f.kind in ("array", "indexedarray"):
        return _treadle.types.array(f.type._type, f.ndim, indexed=f.kind == "indexedarray")
    if f.kind in _FABRIC_KINDS:  # any dimensions: the record is the same, launches check
        ndim = 1 if f.ndim is typing.Any else f.ndim
        return _treadle.types.array(f.type._type, ndim, indexed=f.kind == "indexedfabricarray",
                                    fabric=True)
    return f.type._type


def _numpy_format(f):
    if f.kind == "scalar":
        return f.type._np_memory
    if f.kind == "composite":
        return (f.type._np_memory, f.type._shape)
    if f.kind == "array":
        return _ARRAY_T_DTYPE
    if f.kind == "indexedarray":
        return _INDEXEDARRAY_T_DTYPE
    if f.kind == "fabricarray":
        return _FABRICARRAY_T_DTYPE
    if f.kind == "indexedfabricarray":
        return _INDEXEDFABRICARRAY_T_DTYPE
    return f.type._np_dtype


def _type_text(t):
    return getattr(t, "__name__", None) or repr(t)


class StructInstance:
    """Base of the classes ``@wp.struct`` makes. ``S()`` has every field zero (arrays None,
    nested structs their own zero instance) or its class-level default; ``S(x=1.0, ...)`` sets
    fields by name. Assigning a field converts the value to the field's type or raises
    TypeError."""

    _type = None  # the compiler's interned struct type (_treadle.Type); None on the base
    _fields = ()
    _field_map: typing.ClassVar[dict] = {}
    _defaults: typing.ClassVar[dict] = {}
    _np_dtype = None
    _size = 0
    _alignment = 1
    _shape = ()

    def __init__(self, **kwargs):
        cls = type(self)
        if cls._type is None:
            raise TypeError("StructInstance is the base of @wp.struct classes, not a struct")
        for f in cls._fields:
            if f.name in cls._defaults:
                value = cls._defaults[f.name]
                if f.kind == "composite":
                    value = f.type._new(np.array(value._data))
                object.__setattr__(self, f.name, value)
            else:
                object.__setattr__(self, f.name, _zero(f))
        for name, value in kwargs.items():
            setattr(self, name, value)

    def __setattr__(self, name, value):
        f = type(self)._field_map.get(name)
        if f is None:
            raise AttributeError(f"struct {type(self).__name__} has no field '{name}'")
        object.__setattr__(self, name, _convert(type(self), f, value))

    # --- numpy --------------------------------------------------------------------------------

    @classmethod
    def numpy_dtype(cls):
        """The numpy structured dtype of one struct, with the C layout kernels use (field
        offsets, padding and size); array fields are wp::array_t records."""
        return cls._np_dtype

    def numpy_value(self):
        """The value of this struct as a numpy record (a tuple, nested for nested structs):
        ``np.array(s.numpy_value(), dtype=S.numpy_dtype())``."""
        out = []
        for f in type(self)._fields:
            v = object.__getattribute__(self, f.name)
            if f.kind == "scalar":
                out.append(f.type._to_memory(v.value if isinstance(v, scalar_base) else v))
            elif f.kind == "composite":
                out.append(np.array(v._to_memory()))
            elif f.kind == "struct":
                out.append(v.numpy_value())
            elif f.kind == "indexedarray":
                out.append(_indexedarray_record(v, f.ndim))
            elif f.kind in _FABRIC_KINDS:
                out.append(_fabric_record(v, f.kind == "indexedfabricarray"))
            else:
                out.append(_array_record(v, f.ndim))
        return tuple(out)

    @classmethod
    def from_numpy(cls, record):
        """A new instance from a numpy record of ``numpy_dtype()`` (an element of a structured
        array) or a tuple in field order. Array fields become None: a record holds only the
        address of an array, not the array."""
        if isinstance(record, np.ndarray) and record.shape == ():
            record = record[()]
        if isinstance(record, tuple):
            record = np.array(record, dtype=cls._np_dtype)[()]
        if not isinstance(record, np.void) or record.dtype.names != cls._np_dtype.names:
            raise TypeError(
                f"{cls.__name__}.from_numpy(): expected a record of {cls.__name__}.numpy_dtype(), "
                f"got {type(record).__name__}"
            )
        out = cls()
        for f in cls._fields:
            v = record[f.name]
            if f.kind == "scalar":
                out.__setattr__(f.name, f.type._from_memory(v))
            elif f.kind == "composite":
                out.__setattr__(f.name, f.type._from_memory(np.asarray(v)))
            elif f.kind == "struct":
                out.__setattr__(f.name, f.type.from_numpy(v))
            elif f.kind in _FABRIC_KINDS and f.kind in _fabric_classes:
                stub = _fabric_classes[f.kind](dtype=f.type, ndim=f.ndim)
                object.__setattr__(out, f.name, stub)
        return out

    def to(self, device):
        """A copy of this struct with its array fields on ``device``: arrays already there
        are kept, others copied (an indexed array becomes a copy of its elements); Fabric
        arrays cannot move (their storage is not treadle's), so one on another device is a
        ValueError."""
        dev = get_device(device)
        out = type(self)()
        for f in type(self)._fields:
            v = object.__getattribute__(self, f.name)
            if v is None or f.kind in ("scalar", "composite"):
                pass
            elif f.kind == "struct":
                v = v.to(dev)
            elif f.kind in _FABRIC_KINDS:
                if v.device is not None and v.device != dev:
                    what = "an indexed Fabric" if f.kind == "indexedfabricarray" else "a Fabric"
                    raise ValueError(f"Cannot move struct field '{f.name}' containing {what} "
                                     f"array from device {v.device} to {dev}")
            elif v.device != dev:
                v = v.contiguous().to(dev) if f.kind == "indexedarray" else v.to(dev)
            object.__setattr__(out, f.name, v)
        return out

    @classmethod
    def _bytes_of(cls, data, shape):
        """``data`` as records (see records()) viewed as uint8 of shape (..., size), and
        whether that view aliases ``data``."""
        arr = records(data, cls, shape)
        raw = arr.view(np.uint8).reshape((*arr.shape, cls._size))
        return raw, arr is data and arr.flags.writeable

    @classmethod
    def _record_bytes(cls, value, what):
        return record_bytes(cls, value, what)

    def __repr__(self):
        parts = ", ".join(
            f"{f.name}={object.__getattribute__(self, f.name)!r}" for f in type(self)._fields
        )
        return f"{type(self).__name__}({parts})"


def _zero(f):
    if f.kind == "scalar":  # a scalar of the field's type, as in Warp
        return f.type(0)
    if f.kind == "composite":
        return f.type._new(np.zeros(f.type._shape, dtype=f.type._np_dtype))
    if f.kind == "struct":
        return f.type()
    return None


def _array_record(a, ndim):
    if a is None:  # all zeros, ndim too, as Warp's default array_t
        return (0, 0, [0] * 4, [0] * 4, 0, 0)
    grad = a.grad
    shape = list(a.shape) + [0] * (4 - a.ndim)
    strides = list(a.strides) + [0] * (4 - a.ndim)
    flags = 1 if getattr(a, "retain_grad", False) else 0  # wp::array_retain_grad
    return (a.ptr or 0, (grad.ptr or 0) if grad is not None else 0, shape, strides, a.ndim, flags)


def _indexedarray_record(a, ndim):
    """The wp::indexedarray_t record of an indexed array (or of a plain array: no indices)."""
    if a is None:
        return (_array_record(None, ndim), [0] * 4, [0] * 4)
    if not getattr(a, "_is_indexedarray", False):
        return (_array_record(a, ndim), [0] * 4, list(a.shape) + [0] * (4 - a.ndim))
    indices = [0 if ix is None else (ix.ptr or 0) for ix in a.indices] + [0] * (4 - ndim)
    shape = list(a.shape) + [0] * (4 - ndim)
    return (_array_record(a.data, ndim), indices, shape)


def _fabric_record(a, indexed):
    """The wp::fabricarray_t (``indexed``: wp::indexedfabricarray_t) record of a Fabric array
    field (zeros for None or an annotation)."""
    buckets = getattr(a, "_fabric_buckets", None)
    fa = ((buckets.ptr or 0) if buckets is not None else 0,
          buckets.shape[0] if buckets is not None else 0, getattr(a, "_fabric_count", 0))
    if not indexed:
        return fa
    ix = getattr(a, "_fabric_indices", None)
    return (fa, (ix.ptr or 0) if ix is not None else 0, ix.size if ix is not None else 0)


def _convert_fabric(f, value):
    """``value`` for a Fabric array field: None or a Fabric array of the field's kind, dtype
    and dimensions (any for a field declared with ndim typing.Any)."""
    if value is None:
        return None
    indexed = f.kind == "indexedfabricarray"
    if getattr(value, "_fabric_indexed", None) is not indexed or value.device is None:
        what = "indexed Fabric array" if indexed else "Fabric array"
        raise TypeError(
            f"Struct field '{f.name}' expects a Warp {what}, got {type(value).__name__}")
    if value.dtype is not f.type:
        raise TypeError(f"Struct field '{f.name}' expects dtype {_type_text(f.type)}, got "
                        f"{_type_text(value.dtype)}")
    if f.ndim is not typing.Any and value.ndim != f.ndim:
        raise TypeError(f"Struct field '{f.name}' expects an array with {f.ndim} dimension(s), "
                        f"got {value.ndim} dimension(s)")
    return value


def _convert(cls, f, value):
    """``value`` converted for field ``f`` of struct class ``cls``; TypeError when it does not
    fit."""
    where = f"{cls.__name__}.{f.name}"
    if f.kind == "scalar":
        t = f.type
        if isinstance(value, scalar_base):  # a treadle scalar stays one, of the field's type
            return t(_convert(cls, f, value.value))
        elif isinstance(value, np.generic) or (isinstance(value, np.ndarray) and value.ndim == 0):
            value = value.item()
        if t is scalar_types.bool:
            ok = isinstance(value, (builtins.bool, builtins.int))
        elif issubclass(t, scalar_types.int_base):
            ok = isinstance(value, numbers.Integral)
            value = operator.index(value) if ok else value
        else:
            ok = isinstance(value, numbers.Real)
        if not ok:
            raise TypeError(f"{where}: expected {t.__name__}, got {type(value).__name__}")
        try:
            return t._convert(value)
        except OverflowError:  # a Python int past any float's range
            text = repr(value) if len(repr(value)) < 40 else repr(value)[:20] + "..."
            raise OverflowError(f"{where}: {text} does not fit {t.__name__}") from None
    if f.kind == "composite":
        t = f.type
        if value is None:  # zero-initialised, as in Warp
            return t()
        if widened(value):
            warn_widening(value, t.__name__, f"struct field '{f.name}'", 3)
            return t._new(t._convert_values([float(value)] * int(np.prod(t._shape)))
                          .reshape(t._shape))
        if refused(value):
            raise TypeError(
                f"Struct field '{f.name}' expects {t.__name__} but got a single value of type "
                f"{type(value).__name__}. Construct the value explicitly, e.g.: "
                f"{t.__name__}(...).")
        if isinstance(value, composite_base) and value._shape != t._shape:
            raise TypeError(f"{where}: expected {t.__name__}, got {type(value).__name__}")
        if isinstance(value, (composite_base, list, tuple, np.ndarray)):
            try:
                data = np.asarray(value, dtype=object).reshape(-1).tolist()
                if len(data) == np.prod(t._shape):
                    return t._new(t._convert_values(data).reshape(t._shape))
            except (TypeError, ValueError, OverflowError):
                pass
        raise TypeError(
            f"{where}: expected {t.__name__} ({int(np.prod(t._shape))} components), got "
            f"{_value_text(value)}"
        )
    if f.kind == "array":
        if value is None:
            return None
        if not isinstance(value, _treadle.Array) or value._is_null:
            raise TypeError(
                f"Struct field '{f.name}' expects a Warp array, got {type(value).__name__}")
        _check_array_field(f, value)
        return value
    if f.kind == "indexedarray":
        return _convert_indexed(where, f, value)
    if f.kind in _FABRIC_KINDS:
        return _convert_fabric(f, value)
    if isinstance(value, StructInstance) and type(value)._type == f.type._type:
        return value
    raise TypeError(f"{where}: expected a struct {f.type.__name__}, got {_value_text(value)}")


def _convert_indexed(where, f, value):
    """``value`` for an indexedarray field: None, a wp.indexedarray or a plain wp.array (the
    whole array, no indices) of the field's dtype and dimensions."""
    if value is None:
        return None
    if getattr(value, "_is_indexedarray", False) and value.data is not None:
        data = value.data
    elif isinstance(value, _treadle.Array) and not value._is_null:
        data = value
    else:
        data = None
    if data is None:
        raise TypeError(
            f"Struct field '{f.name}' expects a Warp indexed array, got {type(value).__name__}")
    _check_array_field(f, data)
    return value


def _check_array_field(f, data):
    """Warp's TypeErrors for array `data` of the wrong dtype or dimensions for field `f`."""
    if data._dtype != f.type._type:
        raise TypeError(f"Struct field '{f.name}' expects dtype {_type_text(f.type)}, got "
                        f"{_type_text(class_of(data._dtype))}")
    if data._ndim != f.ndim:
        raise TypeError(f"Struct field '{f.name}' expects an array with {f.ndim} dimension(s), "
                        f"got {data._ndim} dimension(s)")


def _value_text(value):
    if isinstance(value, (list, tuple)):
        return f"{type(value).__name__} of length {len(value)}"
    return type(value).__name__


def is_struct_type(t):
    """True for a class made by @wp.struct."""
    return isinstance(t, type) and issubclass(t, StructInstance) and t._type is not None


def is_struct(x):
    """True for an instance of a @wp.struct class."""
    return isinstance(x, StructInstance)


def _annotations(c):
    get = getattr(inspect, "get_annotations", None)  # Python 3.10+: also lazy annotations
    ann = dict(get(c) if get else c.__dict__.get("__annotations__", {}))
    module = sys.modules.get(c.__module__)
    namespace = dict(vars(module)) if module is not None else {}
    for name, a in ann.items():
        if isinstance(a, str):  # from __future__ import annotations
            try:
                ann[name] = eval(a, namespace, dict(vars(c)))  # the user's own annotation text
            except Exception as e:  # noqa: BLE001 - any failure is reported the same way
                raise TypeError(
                    f"struct {c.__name__}: cannot evaluate the annotation of '{name}' "
                    f"({a!r}): {e}"
                ) from None
    return ann


def struct(c=None, *, module=None):
    """Declares a struct (Warp's ``@wp.struct``): a class whose annotated fields (scalars,
    vectors, matrices, quaternions, transforms, ``wp.array(dtype=...)``, other structs) kernels
    and functions take as parameters, build, read and update."""
    # `module` is accepted for Warp compatibility: kernels compile one by one, so a struct
    # belongs to no module.
    if c is None:
        return lambda cls: struct(cls, module=module)
    if any(is_struct_type(b) for b in c.__mro__[1:]):
        raise RuntimeError("Warp structs must be defined as base classes")
    fields = [_field_of(c.__name__, n, a) for n, a in _annotations(c).items()]
    bound = _treadle.types.struct(
        f"{c.__module__}.{c.__qualname__}",
        [(f.name, _field_type(f)) for f in fields],
    )
    for f, (_name, _type, offset) in zip(fields, bound.fields):
        f.offset = offset
    size, alignment = bound.size, bound.align
    np_dtype = np.dtype(
        {
            "names": [f.name for f in fields],
            "formats": [_numpy_format(f) for f in fields],
            "offsets": [f.offset for f in fields],
            "itemsize": size,
        }
    )
    ns = {
        "__module__": c.__module__,
        "__qualname__": c.__qualname__,
        "__doc__": c.__doc__,
        "_type": bound,
        "key": re.sub("[^0-9a-zA-Z_]+", "", c.__qualname__.replace(".", "__")),  # Warp's key
        "_fields": tuple(fields),
        "_field_map": {f.name: f for f in fields},
        "_np_dtype": np_dtype,
        "_size": size,
        "_alignment": alignment,
    }
    cls = type(c.__name__, (StructInstance,), ns)
    cls.cls = cls  # Warp's Struct.cls: the instances' class (here the struct class itself)
    defaults = {}
    for f in fields:
        if f.name in c.__dict__:
            defaults[f.name] = _convert(cls, f, c.__dict__[f.name])
    cls._defaults = defaults
    return register(cls)


# --- arrays of structs (used by array.py) ------------------------------------------------------


def struct_type_of_data(data, dtype):
    """The struct class an array of ``data`` holds: ``dtype`` when it is one, else that of
    struct instances in ``data`` when no dtype is given; None for other arrays."""
    if is_struct_type(dtype):
        return dtype
    if dtype is not None and dtype is not typing.Any:
        return None
    first = data
    while isinstance(first, (list, tuple)) and len(first) and not isinstance(first, StructInstance):
        first = first[0]
    return type(first) if isinstance(first, StructInstance) else None


def _record_values(x):
    if isinstance(x, StructInstance):
        return x.numpy_value()
    if isinstance(x, list):
        return [_record_values(y) for y in x]
    return x  # a tuple is a record already


def records(data, cls, shape=None):
    """``data`` (a structured numpy array, struct instances, records, or nested lists of
    them) as a contiguous numpy array of ``cls.numpy_dtype()`` with 1 to 4 dimensions."""
    if isinstance(data, np.ndarray):
        if data.dtype.names is None:
            raise TypeError(
                f"array(): data of dtype {data.dtype} cannot fill an array of struct "
                f"{cls.__name__}; give a structured array of {cls.__name__}.numpy_dtype()"
            )
        arr = data if data.dtype == cls._np_dtype else data.astype(cls._np_dtype)
    else:
        if isinstance(data, StructInstance):
            data = [data]
        elif isinstance(data, tuple) and data and isinstance(data[0], (StructInstance, list)):
            data = list(data)
        for x in _flatten(data):
            if isinstance(x, StructInstance) and type(x)._type != cls._type:
                raise TypeError(
                    f"array(): cannot store a struct {type(x).__name__} in an array of "
                    f"{cls.__name__}"
                )
        try:
            arr = np.array(_record_values(data), dtype=cls._np_dtype)
        except (TypeError, ValueError) as e:
            raise TypeError(f"array(): cannot convert the data to {cls.__name__} records: {e}") from None
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if shape is not None:
        arr = arr.reshape(shape_tuple(shape))
    if not 1 <= arr.ndim <= 4:
        raise ValueError(f"array(): data has {arr.ndim} dimensions; arrays have 1 to 4")
    return np.ascontiguousarray(arr)


def _flatten(x):
    if isinstance(x, list):
        for y in x:
            yield from _flatten(y)
    else:
        yield x


def record_bytes(cls, value, what):
    """The bytes of one struct value (an instance of ``cls`` or a record) for fills."""
    if isinstance(value, StructInstance) and type(value)._type != cls._type:
        raise TypeError(f"{what}: expected a struct {cls.__name__}, got {type(value).__name__}")
    if isinstance(value, StructInstance):
        value = value.numpy_value()
    try:
        return np.array(value, dtype=cls._np_dtype).tobytes()
    except (TypeError, ValueError) as e:
        raise TypeError(f"{what}: cannot convert {value!r} to a {cls.__name__} struct: {e}") from None
