"""Warp's arithmetic operators on arrays, elementwise: ``a + s``, ``s % a``, ``a * b``, ``-a``,
``a /= s`` (``array_arithmetic`` declares them on ``wp.array``; this module registers their
implementation). Operands are arrays of one shape or single values (a Python number takes the
array's scalar type); the result has the array's shape and its element type, or the value's
when that is a vector or matrix (``vec_array * 2.0``, ``float_array * wp.vec3(...)``). The
kernels run on the array's device and are recorded on an active tape like any launch; the
result requires a gradient when an operand array does."""

from typing import Any

from . import array_arithmetic
from .array import array, empty
from .array_nd import array2d, array3d, array4d
from .builtin_functions import tid
from .kernel import func, kernel
from .launch import launch
from .scalar_types import scalar_base
from .vec_types import composite_base


@func
def _add(x: Any, y: Any):
    return x + y


@func
def _sub(x: Any, y: Any):
    return x - y


@func
def _mul(x: Any, y: Any):
    return x * y


@func
def _div(x: Any, y: Any):
    return x / y


@func
def _floordiv(x: Any, y: Any):
    return x // y


@func
def _mod(x: Any, y: Any):
    return x % y


@func
def _pow(x: Any, y: Any):
    return x**y


@func
def _neg(x: Any):
    return -x


@func
def _pos(x: Any):
    return +x


def _binary_kernels(op, ndim):
    """The kernels of the binary operator `op` on arrays of `ndim` dimensions: (array, array),
    (array, value), (value, array). Launched over the arrays themselves (no views), so the
    gradients a tape propagates are the arrays' own."""
    if ndim == 1:
        @kernel(module="unique")
        def array_op_array(a: array(dtype=Any), b: array(dtype=Any), out: array(dtype=Any)):
            i = tid()
            out[i] = op(a[i], b[i])

        @kernel(module="unique")
        def array_op_value(a: array(dtype=Any), b: Any, out: array(dtype=Any)):
            i = tid()
            out[i] = op(a[i], b)

        @kernel(module="unique")
        def value_op_array(a: Any, b: array(dtype=Any), out: array(dtype=Any)):
            i = tid()
            out[i] = op(a, b[i])
    elif ndim == 2:
        @kernel(module="unique")
        def array_op_array(a: array2d(dtype=Any), b: array2d(dtype=Any),
                           out: array2d(dtype=Any)):
            i, j = tid()
            out[i, j] = op(a[i, j], b[i, j])

        @kernel(module="unique")
        def array_op_value(a: array2d(dtype=Any), b: Any, out: array2d(dtype=Any)):
            i, j = tid()
            out[i, j] = op(a[i, j], b)

        @kernel(module="unique")
        def value_op_array(a: Any, b: array2d(dtype=Any), out: array2d(dtype=Any)):
            i, j = tid()
            out[i, j] = op(a, b[i, j])
    elif ndim == 3:
        @kernel(module="unique")
        def array_op_array(a: array3d(dtype=Any), b: array3d(dtype=Any),
                           out: array3d(dtype=Any)):
            i, j, k = tid()
            out[i, j, k] = op(a[i, j, k], b[i, j, k])

        @kernel(module="unique")
        def array_op_value(a: array3d(dtype=Any), b: Any, out: array3d(dtype=Any)):
            i, j, k = tid()
            out[i, j, k] = op(a[i, j, k], b)

        @kernel(module="unique")
        def value_op_array(a: Any, b: array3d(dtype=Any), out: array3d(dtype=Any)):
            i, j, k = tid()
            out[i, j, k] = op(a, b[i, j, k])
    else:
        @kernel(module="unique")
        def array_op_array(a: array4d(dtype=Any), b: array4d(dtype=Any),
                           out: array4d(dtype=Any)):
            i, j, k, m = tid()
            out[i, j, k, m] = op(a[i, j, k, m], b[i, j, k, m])

        @kernel(module="unique")
        def array_op_value(a: array4d(dtype=Any), b: Any, out: array4d(dtype=Any)):
            i, j, k, m = tid()
            out[i, j, k, m] = op(a[i, j, k, m], b)

        @kernel(module="unique")
        def value_op_array(a: Any, b: array4d(dtype=Any), out: array4d(dtype=Any)):
            i, j, k, m = tid()
            out[i, j, k, m] = op(a, b[i, j, k, m])
    return array_op_array, array_op_value, value_op_array


def _unary_kernel(op, ndim):
    if ndim == 1:
        @kernel(module="unique")
        def op_array(a: array(dtype=Any), out: array(dtype=Any)):
            i = tid()
            out[i] = op(a[i])
    elif ndim == 2:
        @kernel(module="unique")
        def op_array(a: array2d(dtype=Any), out: array2d(dtype=Any)):
            i, j = tid()
            out[i, j] = op(a[i, j])
    elif ndim == 3:
        @kernel(module="unique")
        def op_array(a: array3d(dtype=Any), out: array3d(dtype=Any)):
            i, j, k = tid()
            out[i, j, k] = op(a[i, j, k])
    else:
        @kernel(module="unique")
        def op_array(a: array4d(dtype=Any), out: array4d(dtype=Any)):
            i, j, k, m = tid()
            out[i, j, k, m] = op(a[i, j, k, m])
    return op_array


_FUNCS = {"add": _add, "sub": _sub, "mul": _mul, "div": _div, "floordiv": _floordiv,
          "mod": _mod, "pow": _pow, "neg": _neg, "pos": _pos}
_kernels = {}


def _kernels_for(name, ndim):
    """The kernels of operator `name` on `ndim`-dimensional arrays, made on first use."""
    key = (name, ndim)
    if key not in _kernels:
        make = _unary_kernel if name in ("neg", "pos") else _binary_kernels
        _kernels[key] = make(_FUNCS[name], ndim)
    return _kernels[key]


def _value(x, dtype):
    """A single operand as a kernel argument: a Python number takes the array's scalar type."""
    if isinstance(x, (scalar_base, composite_base)):
        return x
    if isinstance(x, (bool, int, float)):
        scalar = getattr(dtype, "_wp_scalar_type_", dtype)
        return scalar(x)
    return x


def _apply(name, a, b, reflected, out):
    if name in ("neg", "pos"):
        result = empty(a.shape, dtype=a.dtype, device=a.device, requires_grad=a.requires_grad)
        launch(_kernels_for(name, a.ndim), a.shape, inputs=[a], outputs=[result],
               device=a.device)
        return result
    pair, with_value, value_with = _kernels_for(name, a.ndim)
    if isinstance(b, array):
        if b.shape != a.shape:
            raise ValueError(f"array {name}: the arrays have different shapes ({a.shape} and "
                             f"{b.shape})")
        x, y = (b, a) if reflected else (a, b)
        kern, args, dtype = pair, [x, y], x.dtype
    else:
        v = _value(b, a.dtype)
        dtype = type(v) if isinstance(v, composite_base) else a.dtype
        kern = value_with if reflected else with_value
        args = [v, a] if reflected else [a, v]
    grad = a.requires_grad or (isinstance(b, array) and b.requires_grad)
    result = empty(a.shape, dtype=dtype, device=a.device, requires_grad=grad)
    launch(kern, a.shape, inputs=args, outputs=[result], device=a.device)
    if out is not None:
        out.assign(result)
        return out
    return result


array_arithmetic.register(_apply)
