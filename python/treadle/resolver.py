"""How kernel code sees Python names: the Resolver object behind each FunctionSource, and
the descriptors its answers are made of."""

import builtins
import math
import sys
import types as pytypes
import typing

import numpy as np

from . import _treadle, scalar_types, vec_types
from .array import array
from .builtin_functions import builtin_function
from .fabricarray import _fabric_base
from .indexedarray import indexedarray
from .struct import StructInstance
from .type_queries import tile as tile_annotation
from .type_queries import tile_stack as tile_stack_annotation

_module_handles = {}


def _is_treadle_module(obj):
    name = getattr(obj, "__name__", "")
    return name == "treadle" or name.startswith("treadle.")


def describe(obj):
    """The descriptor of a Python object for the compiler (see export_function.cpp): a
    tuple, or a FunctionSource for a @wp.func or @wp.kernel (any object whose class
    describes it with a ``_function_source`` method)."""
    if isinstance(obj, pytypes.ModuleType):
        if _is_treadle_module(obj) or obj.__name__ == "warp":
            return ("module", "treadle")
        if obj is math:
            return ("module", "math")
        handle = "py:" + obj.__name__
        _module_handles[handle] = obj
        return ("module", handle)
    if callable(getattr(type(obj), "_function_source", None)):  # a @wp.func or @wp.kernel
        return obj._function_source()  # (calling a kernel from a kernel is reported)
    if isinstance(obj, builtin_function):
        return ("builtin", obj.__name__)
    if getattr(obj, "__treadle_static__", False):
        return ("builtin", "static")
    if getattr(obj, "__treadle_grad__", False):
        return ("builtin", "grad")
    if obj is tuple or typing.get_origin(obj) is tuple:  # tuple[float, int], typing.Tuple[...]
        return _tuple_annotation(obj)
    if scalar_types.generic_type(obj) is not None:  # typing.Any, wp.Int, wp.Float, wp.Scalar
        return ("type", scalar_types.type_of(obj))
    if obj is builtins.float or obj is builtins.int or obj is builtins.bool:
        return ("type", scalar_types.type_of(obj))
    if isinstance(obj, builtins.bool) or isinstance(obj, np.bool_):
        return ("const", scalar_types.bool._type, int(obj), False)
    if isinstance(obj, builtins.int):  # weak: the other operand decides its type
        return ("const", scalar_types.int32._type, int(obj), True)  # IntEnum members too
    if isinstance(obj, builtins.float):
        return ("const", scalar_types.float32._type, obj, True)
    if isinstance(obj, np.generic) and obj.dtype.kind in "iuf":
        return ("const", scalar_types.dtype_from_numpy(obj.dtype)._type, obj.item(), False)
    if isinstance(obj, scalar_types.scalar_base):
        return ("const", type(obj)._type, obj.value, False)
    if isinstance(obj, StructInstance):  # a struct value: a constant built field by field
        values = _struct_values(obj, type(obj).__name__)
        if isinstance(values, str):
            return ("unsupported", values)
        return ("const", type(obj)._type, values, False)
    if scalar_types.is_type_class(obj):  # scalars, vectors, ..., @wp.struct classes
        return ("type", obj._type)
    if isinstance(obj, vec_types.composite_base):
        values = tuple(float(x) for x in obj._data.reshape(-1).tolist())
        return ("const", type(obj)._type, values, False)
    if isinstance(obj, array) and not obj._is_annotation:  # arrays are made outside kernels
        return ("unsupported", "array")
    if isinstance(obj, (tile_annotation, tile_stack_annotation)):
        return ("type", obj._type)
    if isinstance(obj, (array, indexedarray, _fabric_base, vec_types.generic_composite)):
        try:
            return ("type", obj._type)
        except Exception:  # an array annotation without a usable dtype
            pass
    if getattr(obj, "__name__", None) in _ARRAY_CLASSES and (
        getattr(obj, "__module__", "") or ""
    ).startswith("treadle"):
        return ("builtin", obj.__name__)
    if isinstance(obj, type) and (
        not _is_treadle_module(sys.modules.get(obj.__module__))
        or getattr(obj, "__treadle_namespace__", False)
    ):
        # A plain class (an IntEnum, a class of constants, a treadle class that says so, like
        # wp.Volume): a namespace whose attributes kernels may read (MyEnum.A, wp.Volume.LINEAR)
        handle = f"py:{obj.__module__}.{obj.__qualname__}@{id(obj):x}"
        _module_handles[handle] = obj
        return ("module", handle)
    return ("unsupported", type(obj).__name__)


def _struct_values(obj, path):
    """The values of a struct's fields, in order, as export_function.cpp reads a struct
    constant (numbers; components of vectors, matrices, ...; nested tuples for structs), or
    a str saying why it cannot be a constant (an array field, named by its path)."""
    values = []
    for f in type(obj)._fields:
        value = getattr(obj, f.name)
        where = f"{path}.{f.name}"
        if f.kind in ("array", "indexedarray"):
            return f"struct holding an array at {where} (arrays cannot be made inside kernels)"
        if f.kind == "struct":
            nested = _struct_values(value, where)
            if isinstance(nested, str):
                return nested
            values.append(nested)
        elif f.kind == "composite":
            values.append(tuple(value._data.reshape(-1).tolist()))
        else:
            values.append(value.value if isinstance(value, scalar_types.scalar_base) else value)
    return tuple(values)


def _tuple_annotation(obj):
    """tuple[a, b, ...] as a tuple type; a bare `tuple` or tuple[T, ...] (any length) is
    generic, like typing.Any."""
    args = typing.get_args(obj)
    if not args or (len(args) == 2 and args[1] is Ellipsis):
        return ("type", scalar_types.type_of(typing.Any))
    elements = [describe(a) for a in args]
    if any(e[0] != "type" for e in elements):
        return ("unsupported", f"tuple annotation {obj!r}")
    return ("type", _treadle.types.tuple([e[1] for e in elements]))


_ARRAY_CLASSES = tuple(
    p + n for p in ("", "indexed") for n in ("array", "array1d", "array2d", "array3d", "array4d")
)


class Resolver:
    """Answers the compiler's questions about the names a Python function uses (the named
    methods of sema::Resolver, see src/python/export_function.cpp): its closure cells first,
    then its globals, both read at each build (so a rebuild after Module.mark_modified() sees
    their current values). Each answer is a descriptor (see describe) or None.

    ``module`` is the Module of the function it answers for (set by its owner), and
    ``referenced`` the @wp.func and @wp.kernel objects its answers named, in the order first
    named (an ordered set: a dict of None values). Naming one from another module records the
    dependency (Module.references / Module.dependents), so that redefining it (a reload)
    invalidates this function's module too."""

    def __init__(self, func):
        code = getattr(func, "__code__", None)
        cells = {}
        if code is not None and func.__closure__:
            cells = dict(zip(code.co_freevars, func.__closure__))
        self._cells = cells
        self._globals = getattr(func, "__globals__", {})
        self._annotations = getattr(func, "__annotations__", None) or {}
        self.module = None
        self.referenced = {}

    @property
    def _closure(self):
        """The closure's variables that hold a value now (a cell may still be empty)."""
        closure = {}
        for name, cell in self._cells.items():
            try:
                closure[name] = cell.cell_contents
            except ValueError:  # an empty cell
                pass
        return closure

    def _describe(self, obj):
        if callable(getattr(type(obj), "_function_source", None)):
            self.referenced.setdefault(obj, None)
            other = getattr(obj, "module", None)
            if self.module is not None and other is not None and other is not self.module:
                self.module.references.add(other)
                other.dependents.add(self.module)
        return describe(obj)

    def _annotated_type(self, name):
        # A class named only in the annotations of a function defined inside another function
        # (a local @wp.struct) is in neither its closure nor its globals.
        for a in self._annotations.values():
            for t in (a, getattr(a, "_ann_dtype", None)):
                if isinstance(t, type) and t.__name__ == name:
                    return t
        return None

    def lookup(self, name):
        """The meaning of the global `name`."""
        closure = self._closure
        if name in closure:
            return self._describe(closure[name])
        if name in self._globals:
            return self._describe(self._globals[name])
        t = self._annotated_type(name)
        return None if t is None else describe(t)

    def attribute(self, handle, name):
        """The meaning of attribute `name` of the module (or class) that lookup() described
        as `handle`."""
        module = _module_handles.get(handle) or sys.modules.get(handle[3:])
        if module is None or not hasattr(module, name):
            return None
        return self._describe(getattr(module, name))

    def annotation(self, param):
        """The annotation of `param` ("return": the result) as Python evaluated it where the
        function was defined (a string annotation is evaluated in the function's globals and
        closure); None when there is none or it does not evaluate (the compiler reads its
        source)."""
        value = self._annotations.get(param)
        if isinstance(value, str):  # from __future__ import annotations: evaluated here, as
            # Warp does; the compiler reads the source of one that does not evaluate
            try:
                value = eval(value, self._globals, dict(self._closure))  # the user's own text
            except Exception:  # noqa: BLE001 - any failure leaves it to the compiler
                return None
        if value is type(None):  # `-> types.NoneType`, Python's spelling of `-> None`
            return ("type", _treadle.types.void())
        return None if value is None else describe(value)

    def static_value(self, text, indices):
        """The value of wp.static(`text`) in the function's globals and closure, with
        `indices` (a dict: the indices of enclosing unrolled loops) bound; ("error", message)
        when evaluating it raises."""
        local = dict(self._closure)
        local.update(indices)
        try:
            value = eval("(" + text + "\n)", self._globals, local)
        except Exception as e:  # noqa: BLE001 -- any error is reported at the kernel line
            return ("error", f"{type(e).__name__}: {e}")
        return describe(value)
