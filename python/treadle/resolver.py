"""How kernel code sees Python names: descriptors handed to the C++ compiler's Resolver."""

import builtins
import math
import sys
import types as pytypes
import typing

import numpy as np

from . import quat_types, vec_types
from . import types as wptypes
from .struct import is_struct_type

_module_handles = {}


def _is_treadle_module(obj):
    name = getattr(obj, "__name__", "")
    return name == "treadle" or name.startswith("treadle.")


def describe(obj):
    """The descriptor tuple of a Python object for the compiler (see export_kernel.cpp)."""
    from .kernel import Function, Kernel, builtin_function

    if isinstance(obj, pytypes.ModuleType):
        if _is_treadle_module(obj) or obj.__name__ == "warp":
            return ("module", "treadle")
        if obj is math:
            return ("module", "math")
        handle = "py:" + obj.__name__
        _module_handles[handle] = obj
        return ("module", handle)
    if isinstance(obj, Kernel):
        return obj._descriptor()
    if isinstance(obj, Function):
        return obj._descriptor()
    if isinstance(obj, builtin_function):
        return ("builtin", obj.__name__)
    if getattr(obj, "__treadle_static__", False):
        return ("builtin", "static")
    if obj is typing.Any or any(obj is g for g in (wptypes.Int, wptypes.Float, wptypes.Scalar)):
        return ("type", wptypes.type_to_spec(obj))
    if obj is builtins.float:
        return ("type", "float32")
    if obj is builtins.int:
        return ("type", "int32")
    if obj is builtins.bool:
        return ("type", "bool")
    if isinstance(obj, builtins.bool) or isinstance(obj, np.bool_):
        return ("const", "bool", int(obj))
    if isinstance(obj, builtins.int):
        return ("const", "int", obj)
    if isinstance(obj, builtins.float):
        return ("const", "float", obj)
    if isinstance(obj, np.generic) and obj.dtype.kind in "iuf":
        spec = wptypes.dtype_from_numpy(obj.dtype)._spec
        return ("const", spec, obj.item())
    if isinstance(obj, wptypes.scalar_base):
        return ("const", type(obj)._spec, obj.value)
    if isinstance(obj, type) and issubclass(obj, wptypes.scalar_base) and obj._spec:
        return ("type", obj._spec)
    if isinstance(obj, type) and issubclass(obj, (quat_types.quat_base, quat_types.transform_base)):
        return ("type", obj._spec)
    if isinstance(obj, (quat_types.quat_base, quat_types.transform_base)):
        return ("const", type(obj)._spec, tuple(float(x) for x in obj._data.tolist()))
    if is_struct_type(obj):
        return ("type", obj._spec)
    if vec_types.is_composite_type(obj):
        return ("type", obj._spec)
    if isinstance(obj, vec_types.composite_base):
        return ("const", type(obj)._spec, tuple(float(x) for x in np.asarray(obj).reshape(-1)))
    spec = getattr(obj, "_type_spec", None)
    if callable(spec):
        try:
            return ("type", spec())
        except Exception:  # an array annotation without a usable dtype
            pass
    if getattr(obj, "__name__", None) in _ARRAY_CLASSES and (
        getattr(obj, "__module__", "") or ""
    ).startswith("treadle"):
        return ("builtin", obj.__name__)
    return ("unsupported", type(obj).__name__)


_ARRAY_CLASSES = tuple(
    p + n for p in ("", "indexed") for n in ("array", "array1d", "array2d", "array3d", "array4d")
)


def make_lookup(func):
    """lookup(name) and lookup_attribute(handle, name) over a Python function's namespace."""
    closure = {}
    code = getattr(func, "__code__", None)
    if code is not None and func.__closure__:
        for name, cell in zip(code.co_freevars, func.__closure__):
            try:
                closure[name] = cell.cell_contents
            except ValueError:  # an empty cell
                pass
    globals_ = getattr(func, "__globals__", {})
    annotations = getattr(func, "__annotations__", None) or {}

    def annotated_type(name):
        # A class named only in the annotations of a function defined inside another function
        # (a local @wp.struct) is in neither its closure nor its globals.
        for a in annotations.values():
            for t in (a, getattr(a, "_ann_dtype", None)):
                if isinstance(t, type) and t.__name__ == name:
                    return t
        return None

    annotations = getattr(func, "__annotations__", {})

    def lookup(name):
        if name.startswith("@static:"):
            from .generics import evaluate_static

            ok, value = evaluate_static(name[len("@static:"):], globals_, closure)
            return describe(value) if ok else ("error", value)
        if name.startswith("@annotation:"):
            # The annotation Python evaluated where the function was defined (see resolver.h).
            value = annotations.get(name[len("@annotation:"):])
            return None if value is None or isinstance(value, str) else describe(value)
        if name in closure:
            return describe(closure[name])
        if name in globals_:
            return describe(globals_[name])
        t = annotated_type(name)
        return None if t is None else describe(t)

    def lookup_attribute(handle, name):
        module = _module_handles.get(handle) or sys.modules.get(handle[3:])
        if module is None or not hasattr(module, name):
            return None
        return describe(getattr(module, name))

    return lookup, lookup_attribute
