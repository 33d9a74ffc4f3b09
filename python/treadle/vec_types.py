"""Warp's vector and matrix types (wp.vec3, wp.mat33, wp.types.vector, ...) as host values."""

import builtins
import ctypes
import math
import numbers

import numpy as np

from . import _treadle, mat_slices, scalar_types
from .scalar_types import generic_type, scalar_base
from .type_classes import class_of, register, register_maker


def _is_scalar(x):
    if isinstance(x, (scalar_base, numbers.Number, np.generic)):
        return True
    # a 0-d numpy array, or another library's (a PyTorch tensor's element)
    return (isinstance(x, np.ndarray) or hasattr(x, "__array__")) and getattr(x, "ndim", -1) == 0


class composite_base:
    """Base of the vector and matrix classes: a fixed-size block of scalars of one type,
    stored as a numpy array (``np.array(v)`` gives a copy). Instances take other attributes
    too, as Warp's do (the ``__dict__`` slot is only filled when one is set)."""

    __slots__ = ("_data", "__dict__")
    __array_ufunc__ = None  # numpy scalars and arrays defer to these operators
    _wp_scalar_type_ = None
    _type = None  # the compiler's interned type (_treadle.Type); None on the base classes
    _np_dtype = None  # numpy dtype of the components held (float32 for bfloat16)
    _np_memory = None  # numpy dtype of a component in memory (uint16 bits for bfloat16)
    _size = 0
    _shape = ()
    _length = 0

    @classmethod
    def _convert_values(cls, values):
        """A numpy array of the class's scalar dtype from a flat list of values (integer
        types wrap like a C cast, floats round like the scalar types)."""
        conv = cls._wp_scalar_type_._convert
        out = []
        for x in values:
            if isinstance(x, scalar_base):
                x = x.value
            elif isinstance(x, np.ndarray):
                x = x.item()
            elif not isinstance(x, np.generic) and getattr(x, "ndim", -1) == 0 and \
                    hasattr(x, "__array__"):  # another library's 0-d array (a tensor element)
                x = np.asarray(x).item()
            out.append(conv(x))
        return np.array(out, dtype=cls._np_dtype)

    @classmethod
    def _new(cls, data):
        out = cls.__new__(cls)
        data = np.ascontiguousarray(data, dtype=cls._np_dtype).reshape(cls._shape)
        if cls._np_memory is not cls._np_dtype:  # bfloat16: results rounded to its precision
            data = scalar_types.round_to_bfloat16(data)
        out._data = data
        return out

    @classmethod
    def from_ptr(cls, ptr):
        """A copy of the value stored at address `ptr` (an int), as memory holds it;
        RuntimeError for a null pointer."""
        if not ptr:
            raise RuntimeError("NULL pointer exception")
        raw = (ctypes.c_uint8 * cls._size).from_address(builtins.int(ptr))
        return cls._from_memory(np.frombuffer(raw, dtype=cls._np_memory).copy())

    def _scalar_name(self):
        return self._wp_scalar_type_.__name__

    def _checked_value(self, value):
        """`value` converted to the scalar type; TypeError (Warp's message) when it is not a
        number."""
        if not _is_scalar(value):
            raise TypeError(f"Expected to assign a `{self._scalar_name()}` value but got "
                            f"`{type(value).__name__}` instead")
        return self._convert_values([value])[0]

    def _checked_values(self, values, count):
        """A sequence of `count` numbers converted for a slice or row assignment (Warp's
        messages: TypeError for a non-number, ValueError for another length)."""
        values = list(values)
        for v in values:
            if not _is_scalar(v):
                raise TypeError(f"Expected to assign a slice from a sequence of "
                                f"`{self._scalar_name()}` values but got `{type(v).__name__}` "
                                "instead")
        if len(values) != count:
            raise ValueError(f"Can only assign sequence of same size (expected {count}, got "
                             f"{len(values)})")
        return self._convert_values(values)

    @classmethod
    def _from_memory(cls, data):
        """A value from components as memory holds them (bfloat16 bits as uint16)."""
        if cls._np_memory is not cls._np_dtype:
            data = scalar_types.bfloat16_bits_to_float32(data)
        return cls._new(data)

    def _to_memory(self):
        """The components as memory holds them (bfloat16 as its uint16 bits)."""
        if self._np_memory is not self._np_dtype:
            return scalar_types.float32_to_bfloat16_bits(self._data)
        return self._data

    def _flat_from(self, args):
        n = self._length
        if len(args) == 0:
            return np.zeros(n, dtype=self._np_dtype)
        if len(args) == 1 and _is_scalar(args[0]):
            return np.full(n, self._convert_values(args)[0], dtype=self._np_dtype)
        if len(args) == n and all(_is_scalar(a) for a in args):
            return self._convert_values(args)
        if len(args) == 1:
            try:
                values = np.asarray(args[0], dtype=object)
            except (TypeError, ValueError):
                values = None
            if values is not None and values.size == n:
                return self._convert_values(values.reshape(-1).tolist())
        return None

    # --- numpy, sequence protocol ---------------------------------------------------------

    def __array__(self, dtype=None, copy=None):
        return self._data.astype(dtype) if dtype is not None else self._data.copy()

    def __len__(self):
        return self._shape[0]

    def __iter__(self):
        for i in range(self._shape[0]):
            yield self[i]

    def __eq__(self, other):
        if isinstance(other, composite_base):
            other = other._data
        try:
            o = np.asarray(other)
        except (TypeError, ValueError):
            return NotImplemented
        if o.shape != self._shape:
            return False
        return builtins.bool(np.all(self._data == o))

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    __hash__ = None

    # --- arithmetic -----------------------------------------------------------------------

    def _scalar(self, s):
        v = s.value if isinstance(s, scalar_base) else s
        return self._np_dtype.type(self._wp_scalar_type_._convert(v))

    def _same(self, other, what):
        if not isinstance(other, composite_base):
            return None
        if other._shape != self._shape or other._np_dtype != self._np_dtype:
            raise TypeError(
                f"cannot {what} {type(self).__name__} and {type(other).__name__}: the types "
                "must match"
            )
        return other._data

    def _elementwise(self, other, op, what, reverse=False):
        if reverse and isinstance(other, np.ndarray) and other.ndim > 0:
            # numpy_array + v: numpy's elementwise result, as with Warp's sequence vectors
            with np.errstate(over="ignore"):
                return op(other, self._data)
        o = self._same(other, what)
        if o is None:
            return NotImplemented
        with np.errstate(over="ignore"):
            return type(self)._new(op(o, self._data) if reverse else op(self._data, o))

    def __add__(self, other):
        return self._elementwise(other, np.add, "add")

    def __radd__(self, other):
        return self._elementwise(other, np.add, "add", True)

    def __sub__(self, other):
        return self._elementwise(other, np.subtract, "subtract")

    def __rsub__(self, other):
        return self._elementwise(other, np.subtract, "subtract", True)

    def __neg__(self):
        with np.errstate(over="ignore"):
            return type(self)._new(-self._data)

    def __pos__(self):
        return type(self)._new(self._data)

    def _scale(self, s):
        with np.errstate(over="ignore"):
            return type(self)._new(self._data * self._scalar(s))

    def __mul__(self, other):
        if _is_scalar(other):
            return self._scale(other)
        if isinstance(other, composite_base):
            return _mul(self, other)
        return NotImplemented

    def __rmul__(self, other):
        if _is_scalar(other):
            return self._scale(other)
        return NotImplemented

    def __matmul__(self, other):
        return self.__mul__(other)

    def __rmatmul__(self, other):
        return self.__rmul__(other)

    def _divide(self, a, b):
        if np.issubdtype(self._np_dtype, np.integer):
            a, b = np.broadcast_arrays(np.asarray(a), np.asarray(b))
            div = scalar_types.int_base._div
            q = [div(builtins.int(x), builtins.int(y)) for x, y in zip(a.flat, b.flat)]
            return type(self)._new(self._convert_values(q))
        with np.errstate(divide="ignore", invalid="ignore"):
            return type(self)._new(a / b)

    def __truediv__(self, other):
        if _is_scalar(other):
            return self._divide(self._data, self._scalar(other))
        return NotImplemented

    def __rtruediv__(self, other):
        if _is_scalar(other):
            return self._divide(self._scalar(other), self._data)
        return NotImplemented

    def __mod__(self, other):
        if not isinstance(self, vector_base):
            return NotImplemented
        o = self._same(other, "take the remainder of")
        if o is None:
            return NotImplemented
        return type(self)._new(_remainder(self._data, o))


def _c_mod(a, b):
    """C's integer remainder: the sign of the dividend; a remainder by zero is 0 (as kernels)."""
    if b == 0:
        return 0
    r = builtins.abs(a) % builtins.abs(b)
    return -r if a < 0 else r


def _remainder(a, b):
    """Warp's componentwise ``%`` of two arrays of one dtype: fmod for floats, C's remainder for
    integers."""
    if np.issubdtype(a.dtype, np.integer):
        r = [_c_mod(builtins.int(x), builtins.int(y)) for x, y in zip(a.flat, b.flat)]
        return np.array(r, dtype=a.dtype).reshape(a.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.fmod(a, b)


class NoMatchingFunctionError(RuntimeError, TypeError):
    """No overload of a builtin takes these host arguments: Warp's RuntimeError, and a
    TypeError as Python's operators raise."""


def _mul(a, b):
    """Warp's ``mul`` of two composites: matrix-vector, vector-matrix, matrix-matrix."""
    if a._np_dtype != b._np_dtype:
        raise NoMatchingFunctionError(
            f"Couldn't find a function 'mul' compatible with the arguments "
            f"'{type(a).__name__}, {type(b).__name__}'")
    am, bm = isinstance(a, matrix_base), isinstance(b, matrix_base)
    if not am and not bm:
        raise TypeError(
            f"cannot multiply two vectors ({type(a).__name__}, {type(b).__name__}); "
            "use wp.dot, wp.cross or wp.cw_mul"
        )
    ka = a._shape[-1]
    kb = b._shape[0]
    if ka != kb:
        raise TypeError(
            f"cannot multiply {type(a).__name__} by {type(b).__name__}: shapes "
            f"{a._shape} and {b._shape} do not match"
        )
    with np.errstate(over="ignore"):
        r = a._data @ b._data
    if r.ndim == 1:
        return vector(r.shape[0], a._wp_scalar_type_)._new(r)
    return matrix(r.shape, a._wp_scalar_type_)._new(r)


_XYZW = {"x": 0, "y": 1, "z": 2, "w": 3}


class vector_base(composite_base):
    """Base of the vector classes (``wp.vec3`` ...): ``vec3()`` zeros, ``vec3(1.0)`` fills,
    ``vec3(1, 2, 3)`` or ``vec3(sequence)`` sets the components."""

    __slots__ = ()
    _wp_generic_type_str_ = "vec_t"  # Warp's name of the family

    def __init__(self, *args):
        flat = self._flat_from(args)
        if flat is None and self._length == 6 and len(args) == 2:
            # spatial_vector(w, v): two 3-vectors, the angular part first
            parts = [np.asarray(a, dtype=object).reshape(-1).tolist() for a in args]
            if all(len(p) == 3 for p in parts):
                flat = self._convert_values(parts[0] + parts[1])
        if flat is None:
            if len(args) > 1 and all(_is_scalar(a) for a in args):
                raise ValueError(
                    f"{type(self).__name__}: Invalid number of arguments in vector constructor, "
                    f"expected {self._length} elements, got {len(args)}")
            raise ValueError(
                f"{type(self).__name__}: expected no argument, one scalar, {self._length} "
                f"components or a sequence of {self._length}, got {len(args)} argument(s)"
            )
        self._data = flat

    def _index(self, i):
        n = self._length
        if not isinstance(i, (builtins.int, np.integer)) or isinstance(i, builtins.bool):
            raise KeyError(f"Invalid key {i}, expected int or slice")
        j = builtins.int(i) + n if i < 0 else builtins.int(i)
        if not 0 <= j < n:
            raise IndexError(f"index {i} out of range for a vector of length {n}")
        return j

    def __getitem__(self, i):
        if isinstance(i, slice):
            part = self._data[i]
            return vector(len(part), self._wp_scalar_type_)._new(part)
        return self._data[self._index(i)].item()

    def __setitem__(self, i, value):
        if isinstance(i, slice):
            idx = range(*i.indices(self._length))
            values = list(value) if not _is_scalar(value) else [value] * len(idx)
            self._data[i] = self._checked_values(values, len(idx))
            return
        self._data[self._index(i)] = self._checked_value(value)

    def __getattr__(self, name):
        i = _XYZW.get(name)
        if i is None or i >= self._length:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return self._data[i].item()

    def __setattr__(self, name, value):
        i = _XYZW.get(name)
        if i is None:
            object.__setattr__(self, name, value)
        elif i >= self._length:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        else:
            self._data[i] = self._convert_values([value])[0]

    def __str__(self):
        return "[" + ", ".join(str(x) for x in self._data.tolist()) + "]"

    def __repr__(self):
        # Warp's form: the type, then the components; those of scalar types other than
        # float32 and int32 (Warp's Python float and int) show their type too
        t = type(self)
        scalar = t._wp_scalar_type_.__name__
        name = t.__name__
        if not name.startswith(("quat", "transform")) and (
                not name.startswith("vec") or self._length not in (2, 3, 4)):
            name = f"vector(length={self._length}, dtype={scalar})"
        values = self._data.tolist()
        if scalar in ("float32", "int32", "bool"):
            items = ", ".join(repr(x) for x in values)
        else:
            items = ", ".join(f"{scalar}({x!r})" for x in values)
        return f"{name}([{items}])"


class matrix_base(composite_base):
    """Base of the matrix classes (``wp.mat33`` ...): ``mat33()`` zeros, ``mat33(2.0)`` fills,
    ``mat33(*9 values)`` row by row, ``mat33(*3 row vectors)``, ``mat33(nested sequence)``."""

    __slots__ = ()
    _wp_generic_type_str_ = "mat_t"

    def __init__(self, *args):
        rows, cols = self._shape
        flat = None
        if len(args) == rows and rows != self._length and all(not _is_scalar(a) for a in args):
            try:
                parts = [np.asarray(a, dtype=object).reshape(-1).tolist() for a in args]
            except (TypeError, ValueError):
                parts = []
            if parts and all(len(p) == cols for p in parts):
                flat = self._convert_values([x for p in parts for x in p])
        if flat is None:
            flat = self._flat_from(args)
        if flat is None:
            self._explain_bad_arguments(args)
            raise ValueError(
                f"{type(self).__name__}: expected no argument, one scalar, {self._length} "
                f"values, {rows} rows of {cols} or a {rows}x{cols} sequence, got {len(args)} "
                "argument(s)"
            )
        self._data = flat.reshape(self._shape)

    def _explain_bad_arguments(self, args):
        """Raises Warp's errors for a wrong number of values or a row of the wrong length."""
        rows, cols = self._shape
        name = type(self).__name__
        if len(args) > 1 and all(_is_scalar(a) for a in args):
            raise ValueError(f"{name}: Invalid number of arguments in matrix constructor, "
                             f"expected {rows * cols} elements, got {len(args)}")
        if len(args) == rows:
            for a in args:
                if not _is_scalar(a) and np.asarray(a, dtype=object).size != cols:
                    raise TypeError(f"{name}: Invalid argument in matrix constructor, expected "
                                    f"row of length {cols}, got {a!r}")

    def _key(self, key):
        raise KeyError(f"Invalid key {key}, expected int or pair of ints")

    def get_row(self, i):
        """Row `i` as a vector (a copy)."""
        return self[i]

    def set_row(self, i, value):
        """Sets row `i` from a sequence of the row's length; IndexError for a bad index."""
        n = self._shape[0]
        if not isinstance(i, (builtins.int, np.integer)) or not -n <= i < n:
            raise IndexError("Invalid row index")
        self[i] = value

    def get_col(self, j):
        """Column `j` as a vector (a copy)."""
        return vector(self._shape[0], self._wp_scalar_type_)._new(self._data[:, self._col(j)])

    def set_col(self, j, value):
        """Sets column `j` from a sequence of the column's length (a number fills it);
        IndexError for a bad index."""
        n = self._shape[1]
        if not isinstance(j, (builtins.int, np.integer)) or not -n <= j < n:
            raise IndexError("Invalid column index")
        if _is_scalar(value):
            value = [value] * self._shape[0]
        values = np.asarray(value, dtype=object).reshape(-1).tolist()
        self._data[:, self._col(j)] = self._checked_values(values, self._shape[0])

    def _row(self, i):
        n = self._shape[0]
        if not isinstance(i, (builtins.int, np.integer)) or isinstance(i, builtins.bool):
            self._key(i)
        j = builtins.int(i) + n if i < 0 else builtins.int(i)
        if not 0 <= j < n:
            raise IndexError(f"row index {i} out of range for a matrix of {n} rows")
        return j

    def _col(self, i):
        n = self._shape[1]
        if not isinstance(i, (builtins.int, np.integer)) or isinstance(i, builtins.bool):
            self._key(i)
        j = builtins.int(i) + n if i < 0 else builtins.int(i)
        if not 0 <= j < n:
            raise IndexError(f"column index {i} out of range for a matrix of {n} columns")
        return j

    def __getitem__(self, key):
        if mat_slices.is_slice_key(key):
            rows, cols, is_matrix = mat_slices.selection(self._shape, key, self._row, self._col)
            part = self._data[np.ix_(rows, cols)]
            if not is_matrix:
                return vector(part.size, self._wp_scalar_type_)._new(part.reshape(-1))
            shape = mat_slices.result_shape(len(rows), len(cols))
            return matrix(shape, self._wp_scalar_type_)._new(part.reshape(shape))
        if isinstance(key, tuple):
            if len(key) != 2:
                raise KeyError(f"Invalid key, expected one or two indices, got {len(key)}")
            return self._data[self._row(key[0]), self._col(key[1])].item()
        return vector(self._shape[1], self._wp_scalar_type_)._new(self._data[self._row(key)])

    def __setitem__(self, key, value):
        if mat_slices.is_slice_key(key):
            rows, cols, is_matrix = mat_slices.selection(self._shape, key, self._row, self._col)
            values = mat_slices.checked_values(value, rows, cols, is_matrix, _is_scalar)
            flat = self._checked_values(values.reshape(-1).tolist(), values.size)
            self._data[np.ix_(rows, cols)] = np.asarray(flat).reshape(values.shape)
            return
        if isinstance(key, tuple):
            if len(key) != 2:
                raise KeyError(f"Invalid key, expected one or two indices, got {len(key)}")
            self._data[self._row(key[0]), self._col(key[1])] = self._checked_value(value)
            return
        cols = self._shape[1]
        if _is_scalar(value):
            values = [value] * cols
        elif isinstance(value, composite_base):
            values = value._data.reshape(-1).tolist()
        else:
            values = list(value) if isinstance(value, (list, tuple)) else (
                np.asarray(value, dtype=object).reshape(-1).tolist())
        self._data[self._row(key)] = self._checked_values(values, cols)

    def __repr__(self):
        rows = ("[" + ", ".join(str(x) for x in r) + "]" for r in self._data.tolist())
        return "[" + ",\n ".join(rows) + "]"

    __str__ = __repr__


# --- type factories -----------------------------------------------------------------------

_SUFFIX = {
    "float16": "h",
    "bfloat16": "bf",
    "float32": "f",
    "float64": "d",
    "int8": "b",
    "uint8": "ub",
    "int16": "s",
    "uint16": "us",
    "int32": "i",
    "uint32": "ui",
    "int64": "l",
    "uint64": "ul",
}
_SPATIAL_FLOATS = ("float16", "float32", "float64")
"""The scalars of Warp's spatial_vector/spatial_matrix names."""
_vector_cache = {}
_matrix_cache = {}


def _scalar_type(dtype):
    t = scalar_types.resolve_dtype(dtype)
    if not issubclass(t, scalar_base):
        raise TypeError(f"vector and matrix elements must be scalars, got {dtype!r}")
    return t


def _numeric_type(dtype):
    """The element of a generic vector or matrix: a numeric scalar (no placeholder has bool)."""
    t = _scalar_type(dtype)
    if t is scalar_types.bool:
        raise TypeError(f"generic vector and matrix elements must be numeric, got {dtype!r}")
    return t


def _composite_doc(name, shape, scalar):
    """The docstring of vector or matrix class ``name``."""
    s = scalar.__name__
    if len(shape) == 1:
        n = shape[0]
        named = "".join(f", ``.{c}``" for c in "xyzw"[:n]) if n <= 4 else ""
        return (f"{name}: a vector of {n} {s} components (Warp's ``wp.{name}``), in kernels and "
                f"in Python. ``{name}()`` is zero, ``{name}(a)`` sets every component to a, "
                f"``{name}(c0, ..., c{n - 1})`` or a sequence of {n} sets them in order. "
                f"Components: ``v[i]``{named}; elementwise +, -, scalar * and /, as Warp's.")
    rows, cols = shape
    return (f"{name}: a {rows}x{cols} matrix of {s} (Warp's ``wp.{name}``), row-major. "
            f"``{name}()`` is zero, ``{name}(a)`` sets every entry to a, ``{name}(m00, m01, "
            f"...)`` takes its {rows * cols} entries row by row. Entries ``m[i, j]``, rows "
            f"``m[i]``; ``@`` and ``*`` multiply as Warp's.")


def _make(base, name, shape, scalar, bound):
    """The class ``name`` of the vector-like Type ``bound`` (registered in type_classes)."""
    length = math.prod(shape)
    cls = type(
        name,
        (base,),
        {
            "__slots__": (),
            "__module__": "treadle.types",
            "__doc__": _composite_doc(name, shape, scalar),
            "_wp_scalar_type_": scalar,
            "_type_": scalar._type_,  # Warp's: the ctypes type of one component
            "_wp_type_params_": [*shape, scalar],
            "_type": bound,
            "_np_dtype": scalar._np_dtype,
            "_np_memory": scalar._np_memory,
            "_size": max(length, 1) * scalar._size,
            "_shape": shape,
            "_shape_": shape,
            "_length": length,
            "_length_": length,
        },
    )
    return register(cls)


class generic_composite:
    """A generic vector or matrix annotation, ``vector(length=Any, dtype=wp.Float)`` or
    ``matrix(shape=(3, 3), dtype=wp.Scalar)``: functions and kernels specialise per argument.
    Only meaningful as an annotation; ``_type`` is the compiler's pattern."""

    def __init__(self, bound):
        self._type = bound

    def __repr__(self):
        return f"<generic {self._type.name}>"


def _generic_size(n):
    """A size of a generic vector or matrix: None (any) for a generic marker."""
    return None if generic_type(n) is not None else builtins.int(n)


def _element_type(dtype):
    """The element Type of a generic vector or matrix: a placeholder or a numeric scalar."""
    return generic_type(dtype) or _numeric_type(dtype)._type


def vector(length, dtype):
    """The vector class of ``length`` components of scalar type ``dtype`` (cached); a generic
    annotation when ``length`` is ``typing.Any`` or ``dtype`` a placeholder (wp.Float ...)."""
    if generic_type(length) is not None or generic_type(dtype) is not None:
        return generic_composite(
            _treadle.types.generic_vector(_generic_size(length), _element_type(dtype)))
    if not isinstance(length, builtins.int) or isinstance(length, builtins.bool) or length < 0:
        raise ValueError(f"vector length must be an int >= 0, got {length!r}")
    scalar = _scalar_type(dtype)
    key = (length, scalar)
    cls = _vector_cache.get(key)
    if cls is None:
        bound = _treadle.types.vector(length, scalar._type)
        suffix = _SUFFIX.get(scalar.__name__)
        name = bound.name if suffix is None else f"vec{length}{suffix}"  # bool: no short name
        if length == 6 and scalar.__name__ in _SPATIAL_FLOATS:  # Warp's name of this type
            name = f"spatial_vector{suffix}"
        cls = _make(vector_base, name, (length,), scalar, bound)
        _vector_cache[key] = cls
    return cls


def matrix(shape, dtype):
    """The matrix class of ``shape`` (rows, cols) of scalar type ``dtype`` (cached); a generic
    annotation when a dimension is ``typing.Any`` or ``dtype`` a placeholder (wp.Float ...)."""
    shape = tuple(shape)
    if len(shape) == 2 and (any(generic_type(n) is not None for n in shape)
                            or generic_type(dtype) is not None):
        rows, cols = (_generic_size(n) for n in shape)
        return generic_composite(_treadle.types.generic_matrix(rows, cols, _element_type(dtype)))
    if len(shape) != 2 or not all(isinstance(n, builtins.int) and n >= 0 for n in shape):
        raise ValueError(f"matrix shape must be two non-negative ints, got {shape!r}")
    scalar = _scalar_type(dtype)
    key = (shape, scalar)
    cls = _matrix_cache.get(key)
    if cls is None:
        bound = _treadle.types.matrix(shape[0], shape[1], scalar._type)
        suffix = _SUFFIX.get(scalar.__name__)
        name = bound.name if suffix is None else f"mat{shape[0]}{shape[1]}{suffix}"
        if shape == (6, 6) and scalar.__name__ in _SPATIAL_FLOATS:
            name = f"spatial_matrix{suffix}"
        cls = _make(matrix_base, name, shape, scalar, bound)
        _matrix_cache[key] = cls
    return cls


register_maker("vector", lambda t: vector(t.length, class_of(t.scalar)))
register_maker("matrix", lambda t: matrix(t.shape, class_of(t.scalar)))


def is_composite_type(t):
    """True for vector and matrix classes (quaternions and transforms included)."""
    return isinstance(t, type) and issubclass(t, composite_base) and t._type is not None




# --- Warp's named types -------------------------------------------------------------------

vec2h, vec3h, vec4h = (vector(n, scalar_types.float16) for n in (2, 3, 4))
vec2f, vec3f, vec4f = (vector(n, scalar_types.float32) for n in (2, 3, 4))
vec2d, vec3d, vec4d = (vector(n, scalar_types.float64) for n in (2, 3, 4))
vec2b, vec3b, vec4b = (vector(n, scalar_types.int8) for n in (2, 3, 4))
vec2ub, vec3ub, vec4ub = (vector(n, scalar_types.uint8) for n in (2, 3, 4))
vec2s, vec3s, vec4s = (vector(n, scalar_types.int16) for n in (2, 3, 4))
vec2us, vec3us, vec4us = (vector(n, scalar_types.uint16) for n in (2, 3, 4))
vec2i, vec3i, vec4i = (vector(n, scalar_types.int32) for n in (2, 3, 4))
vec2ui, vec3ui, vec4ui = (vector(n, scalar_types.uint32) for n in (2, 3, 4))
vec2l, vec3l, vec4l = (vector(n, scalar_types.int64) for n in (2, 3, 4))
vec2ul, vec3ul, vec4ul = (vector(n, scalar_types.uint64) for n in (2, 3, 4))
vec2, vec3, vec4 = vec2f, vec3f, vec4f

mat22h, mat33h, mat44h = (matrix((n, n), scalar_types.float16) for n in (2, 3, 4))
mat22f, mat33f, mat44f = (matrix((n, n), scalar_types.float32) for n in (2, 3, 4))
mat22d, mat33d, mat44d = (matrix((n, n), scalar_types.float64) for n in (2, 3, 4))
mat22, mat33, mat44 = mat22f, mat33f, mat44f

# Spatial vectors and matrices are Warp's names of float vectors of 6 and 6x6 matrices.
_FLOATS = (scalar_types.float16, scalar_types.float32, scalar_types.float64)
spatial_vectorh, spatial_vectorf, spatial_vectord = (vector(6, t) for t in _FLOATS)
spatial_matrixh, spatial_matrixf, spatial_matrixd = (matrix((6, 6), t) for t in _FLOATS)
spatial_vector, spatial_matrix = spatial_vectorf, spatial_matrixf

vector_types = tuple(v for v in _vector_cache.values())
matrix_types = tuple(m for m in _matrix_cache.values())


# --- host versions of a few vector builtins -----------------------------------------------


def _check_vec(name, *vs):
    for v in vs:
        if not isinstance(v, vector_base):
            raise TypeError(f"{name}(): expected vectors, got {type(v).__name__}")
    if len(vs) == 2 and type(vs[0]) is not type(vs[1]):
        raise TypeError(
            f"{name}(): vector types differ: {type(vs[0]).__name__}, {type(vs[1]).__name__}"
        )


def dot(a, b):
    """Dot product of two vectors of the same type."""
    _check_vec("dot", a, b)
    return np.dot(a._data, b._data).item()


def cross(a, b):
    """Cross product of two 3-vectors."""
    _check_vec("cross", a, b)
    if a._length != 3:
        raise TypeError("cross(): expected 3-component vectors")
    return type(a)._new(np.cross(a._data, b._data))


def length(a):
    """Euclidean length of a float vector."""
    _check_vec("length", a)
    return math.sqrt(builtins.float(np.dot(a._data, a._data)))


def normalize(a):
    """``a`` divided by its length (zero for a zero vector)."""
    n = length(a)
    return type(a)._new(a._data / a._np_dtype.type(n)) if n > 0.0 else type(a)()


def spatial_top(a):
    """The angular (first three) components of a spatial vector."""
    _check_spatial("spatial_top", a)
    return vector(3, a._wp_scalar_type_)._new(a._data[:3])


def spatial_bottom(a):
    """The linear (last three) components of a spatial vector."""
    _check_spatial("spatial_bottom", a)
    return vector(3, a._wp_scalar_type_)._new(a._data[3:])


def spatial_dot(a, b):
    """The 6-D dot product of two spatial vectors."""
    _check_spatial("spatial_dot", a, b)
    return np.dot(a._data, b._data).item()


def spatial_cross(a, b):
    """(w_a x w_b, v_a x w_b + w_a x v_b) of two twists."""
    _check_spatial("spatial_cross", a, b)
    wa, va, wb, vb = a._data[:3], a._data[3:], b._data[:3], b._data[3:]
    return type(a)._new(np.concatenate([np.cross(wa, wb), np.cross(va, wb) + np.cross(wa, vb)]))


def spatial_cross_dual(a, b):
    """(w x n + v x f, w x f) of a twist (w, v) and a wrench (n, f)."""
    _check_spatial("spatial_cross_dual", a, b)
    w, v, n, f = a._data[:3], a._data[3:], b._data[:3], b._data[3:]
    return type(a)._new(np.concatenate([np.cross(w, n) + np.cross(v, f), np.cross(w, f)]))


def _check_spatial(name, *vs):
    _check_vec(name, *vs)
    if vs[0]._length != 6:
        raise TypeError(f"{name}(): expected spatial vectors (6 components)")


def cw_mul(a, b):
    """Component-wise product of two vectors or matrices of the same type."""
    return a._elementwise(b, np.multiply, "multiply")


HOST_BUILTINS = {
    "dot": dot, "cross": cross, "length": length, "normalize": normalize, "cw_mul": cw_mul,
    "spatial_top": spatial_top, "spatial_bottom": spatial_bottom, "spatial_dot": spatial_dot,
    "spatial_cross": spatial_cross, "spatial_cross_dual": spatial_cross_dual,
}
"""Host versions of vector builtins implemented here (merged by ``host_builtins.py``)."""
