"""Warp's rules for calling a builtin on the host (``wp.sin(x)`` outside kernels): which overload
the arguments select, and the type of a scalar result.

Arguments resolve strictly, as Warp resolves them: a Python ``int`` is an int32, a ``float`` a
float32, a NumPy scalar its own type, a Warp value its type; there is no weak typing on the host,
so ``wp.mul(wp.int16(2), 3)`` finds no overload. A scalar result takes the type the builtin's
table signature gives: float32 comes back as a Python ``float`` (rounded to float32), int32 as an
``int``, bool as a ``bool`` and every other scalar type as an instance of the Warp type
(``wp.float64``, ``wp.int8``, wrapping as the type does), unless
``wp.config.legacy_scalar_return_types`` asks for plain Python numbers.
"""

import builtins

import numpy as np

from . import _treadle, config, scalar_types, type_classes

_INT32 = _treadle.types.scalar("int32")
_FLOAT32 = _treadle.types.scalar("float32")
_BOOL = _treadle.types.scalar("bool")


def _arg_type(x):
    """The Type Warp resolves host argument ``x`` as, or None for a value it does not type
    (arrays, sequences, Python objects), which leaves the call unchecked."""
    if isinstance(x, np.generic):  # before float: np.float64 is a float
        try:
            return scalar_types.dtype_from_numpy(x.dtype)._type
        except (TypeError, KeyError, AttributeError):
            return None
    if isinstance(x, bool):
        return _BOOL
    if isinstance(x, int):
        return _INT32
    if isinstance(x, float):
        return _FLOAT32
    t = getattr(type(x), "_type", None)
    return t if isinstance(t, _treadle.Type) and t.kind != "struct" else None


def _coerce_arg(x, t):
    """``x`` as the host version computes with it: Python and NumPy numbers rounded or wrapped
    to the type they resolve as (a float is a float32, so it is rounded to one)."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, float, np.generic)):
        return x
    cls = type_classes.class_of(t)
    value = cls(x.item() if isinstance(x, np.generic) else x)
    if t is _FLOAT32:
        return builtins.float(value)
    if t is _INT32:
        return builtins.int(value)
    return value


def _convert_result(value, t):
    """A scalar host result as Warp returns a result of type ``t``."""
    if not isinstance(value, (bool, int, float, np.generic, scalar_types.scalar_base)):
        return value
    cls = type_classes.class_of(t)
    if t is _BOOL:
        return builtins.bool(value)
    integer = issubclass(cls, scalar_types.int_base)
    number = builtins.int(value) if integer else builtins.float(value)
    typed = cls(number)
    if config.legacy_scalar_return_types:
        return builtins.int(typed) if integer else builtins.float(typed)
    if t is _FLOAT32:
        return builtins.float(typed)
    if t is _INT32:
        return builtins.int(typed)
    return typed


def _with_python_floats_as(types, args):
    """``types`` with the Python floats among ``args`` taking the one float scalar type of the
    other arguments (``wp.quat_from_axis_angle(wp.vec3d(...), 0.5)``), or None when there is
    no Python float or no single such type. Where Warp finds no overload this keeps working
    (an improvement that no Warp program can notice); Python ints stay int32, as in Warp."""
    pyfloat = [isinstance(a, float) and not isinstance(a, np.generic) for a in args]
    floats = {t.scalar.name for t, f in zip(types, pyfloat) if not f and t.scalar is not None}
    floats &= {"float16", "float64", "bfloat16"}
    if not any(pyfloat) or len(floats) != 1:
        return None
    t = _treadle.types.scalar(floats.pop())
    return [t if f else u for u, f in zip(types, pyfloat)]


def call(name, host, args, kwargs):
    """Calls ``host`` (the host version of builtin ``name``, which the table types) on
    ``args`` with Warp's host rules; RuntimeError when no overload accepts the arguments."""
    types = [_arg_type(a) for a in args]
    if kwargs or any(t is None for t in types):
        return host(*args, **kwargs)
    returns = _treadle.builtin_signature(name, types)
    if returns is None:
        types = _with_python_floats_as(types, args)
        returns = _treadle.builtin_signature(name, types) if types is not None else None
    if returns is None:
        names = ", ".join(type(a).__name__ for a in args)
        raise RuntimeError(
            f"Couldn't find a function '{name}' compatible with the arguments '{names}'")
    result = host(*[_coerce_arg(a, t) for a, t in zip(args, types)])
    if len(returns) == 1 and returns[0].kind == "scalar":
        return _convert_result(result, returns[0])
    return result
