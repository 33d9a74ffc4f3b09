"""Generic kernels and functions, the front end's part: naming and caching the specialisations
the compiler decides (src/sema/specialise.h), wp.overload, grouping @wp.func definitions of one
name into overloads (the compiler picks one per call), and wp.static() on the host."""

import builtins
import weakref

import numpy as np

from . import _treadle, scalar_types
from .array import array
from .fabricarray import _fabric_base
from .indexedarray import indexedarray
from .resolver import describe
from .struct import is_struct_type
from .vec_types import composite_base

# The last @wp.func and @wp.kernel of each (module, qualified name); weak, so that kernels
# and functions defined inside functions die with their last reference.
_functions = weakref.WeakValueDictionary()
_kernels = {}  # (module, qualname) -> {key: kernel}, weakly


def static(expr):
    """Warp's wp.static(expr): inside a kernel, the expression is evaluated once at compile time
    in the kernel's globals and closure, and its value used as a constant. In Python it is the
    value itself."""
    return expr


static.__treadle_static__ = True


class GradWrapper:
    """What ``wp.grad(func)`` returns: the gradient of a ``@wp.func`` or builtin. Inside a
    kernel or function, calling it with ``func``'s arguments gives the derivative of its float
    result with respect to each argument that has a gradient (a tuple when there are several),
    computed by ``func``'s adjoint with an incoming adjoint of 1. The compiler handles it in
    kernel code; Python cannot call it."""

    def __init__(self, func):
        self.func = func

    def __call__(self, *args, **kwargs):
        raise NotImplementedError(
            "wp.grad(f) can only be called inside a @wp.kernel or @wp.func; "
            "use wp.Tape or wp.autograd for gradients from Python"
        )


def grad(func):
    """Warp's ``wp.grad(func)``: a callable that returns the gradients of ``func`` (a
    ``@wp.func`` or a builtin) with respect to its inputs, for use inside kernels and
    functions (see ``GradWrapper``). A forward-only computation: no gradient flows through it
    in the backward pass of the code that calls it; it may be used in ``@wp.func_grad``."""
    return GradWrapper(func)


grad.__treadle_grad__ = True


def annotation_type(annotation):
    """The compiler's type (a ``_treadle.Type``) of a parameter annotation, or None when it has
    none that Python can tell (a string annotation, an unknown object: the compiler then
    reports it)."""
    if isinstance(annotation, str):
        return None
    d = describe(annotation)
    return d[1] if d[0] == "type" else None


def _parameters(func):
    code = func.__code__
    return list(code.co_varnames[: code.co_argcount])


def argument_type(value):
    """(Type, weak) of a launch argument: arrays and indexed arrays by dtype and ndim, Python
    ints and floats int32 and float32 but weak (the compiler decides what they become),
    treadle scalars, vectors, matrices and structs their own type; None when Python cannot
    name it."""
    if isinstance(value, array):
        return (value._type, False)
    if isinstance(value, indexedarray) and value.data is not None:
        return (value._type, False)
    if isinstance(value, _fabric_base) and value._fabric_type is not None:
        return (value._fabric_type, False)
    if isinstance(value, (builtins.bool, np.bool_)):
        return (scalar_types.bool._type, False)
    if isinstance(value, builtins.int):
        return (scalar_types.int32._type, True)
    if isinstance(value, builtins.float):
        return (scalar_types.float32._type, True)
    if isinstance(value, np.generic) and value.dtype.kind in "iuf":
        return (scalar_types.dtype_from_numpy(value.dtype)._type, False)
    if isinstance(value, scalar_types.scalar_base):
        return (type(value)._type, False)
    if isinstance(value, composite_base):  # vectors, matrices, quaternions, transforms
        return (type(value)._type, False)
    if is_struct_type(type(value)):
        return (type(value)._type, False)
    return None


def _read_parameters(k, raise_errors):
    """Fills k._params once: ([(name, annotation Type, generic)], names of the generic ones
    or None), as the compiler reads the kernel's annotations. A kernel whose def or
    annotations the compiler rejects stays unread (its build reports why) unless
    `raise_errors`."""
    if k._params is None:
        try:
            params = _treadle.kernel_parameters(k._function_source())
        except Exception:
            if raise_errors:
                raise
            return None
        k._params = (params, tuple(name for name, _, generic in params if generic) or None)
    return k._params


def kernel_parameters(k):
    """[(name, annotation Type, generic)] of kernel `k`'s parameters."""
    return _read_parameters(k, True)[0]


def generic_params(k):
    """The names of kernel `k`'s generic parameters, or None: not generic, a specialisation,
    or a kernel the compiler rejects (its build says why)."""
    if k._arg_types is not None:
        return None
    read = _read_parameters(k, False)
    return None if read is None else read[1]


def register_kernel(k):
    """Remembers kernel `k` by the module and qualified name of its def (and by its key: one
    def made into kernels of several names is ambiguous to @wp.overload on a def)."""
    _kernels.setdefault((k.func.__module__, k.func.__qualname__),
                        weakref.WeakValueDictionary())[k.key] = k
    return k


def registered_kernel(f):
    """The kernel registered under the module and qualified name of function `f`, or None;
    RuntimeError when kernels of several names were made from that def."""
    by_key = _kernels.get((f.__module__, f.__qualname__))
    kernels = dict(by_key) if by_key is not None else {}
    if len(kernels) > 1:
        raise RuntimeError(
            f"overload(): Ambiguous kernel lookup for '{f.__qualname__}': kernels "
            f"{', '.join(repr(k) for k in sorted(kernels))} were made from it; use "
            "wp.overload(kernel, arg_types) on the kernel object instead")
    return next(iter(kernels.values()), None)


def specialise(k, specs):
    """The specialisation of generic kernel `k` for `specs` (a Type per parameter, None for a
    parameter whose annotation is concrete), made once."""
    specs = tuple(specs)
    s = k._specialisations.get(specs)
    if s is None:
        tag = ",".join(x.key if x is not None else "_" for x in specs)
        s = k._specialisations[specs] = k._specialised(specs, tag)
    return s


def specialise_for_arguments(k, args):
    """The specialisation of generic kernel `k` for launch arguments `args`, which the
    compiler decides (Warp's rules) once per list of argument types."""
    params = kernel_parameters(k)
    specs = tuple(argument_type(v) if p[2] else None for v, p in zip(args, params))
    if len(args) == len(params):
        s = k._by_arguments.get(specs)
        if s is not None:
            return s
        for value, spec, (name, _, generic) in zip(args, specs, params):
            if generic and spec is None:
                raise TypeError(
                    f"{k.__name__}(): cannot infer the type of generic argument '{name}' from a "
                    f"{type(value).__name__}; pass a treadle array, scalar, vector or struct")
    else:
        specs = (None,) * len(args)  # the compiler reports the count
    s = specialise(k, _treadle.specialise(k._function_source(), list(specs)))
    k._by_arguments[specs] = s
    return s


def overload_kernel(kernel, arg_types):
    """The specialisation of generic kernel `kernel` that wp.overload declares for `arg_types`
    (a list with a type per parameter, or a dict naming some generic parameters)."""
    params = kernel_parameters(kernel)
    if not any(generic for _, _, generic in params):
        raise TypeError(f"overload(): kernel '{kernel.__name__}' is not generic")
    names = [name for name, _, _ in params]
    if isinstance(arg_types, dict):
        unknown = [n for n in arg_types if n not in names]
        if unknown:
            raise TypeError(f"overload(): kernel '{kernel.__name__}' has no parameter '{unknown[0]}'")
        given = [arg_types.get(n) for n in names]
    elif isinstance(arg_types, (list, tuple)):
        given = list(arg_types)
    else:
        raise TypeError("overload(): arg_types must be a list or a dict")
    specs = []
    for i, t in enumerate(given):
        if t is None or i >= len(params) or not params[i][2]:
            specs.append(None)  # a concrete parameter keeps its annotation
            continue
        spec = annotation_type(t)
        if spec is None:
            raise TypeError(
                f"overload(): parameter '{names[i]}' needs a concrete type, got {t!r}")
        specs.append(spec)
    return specialise(kernel, _treadle.specialise_declared(kernel._function_source(), specs,
                                                           "overload()"))


def _signature(f):
    """The annotation specs of a function's parameters; None unless every one is annotated
    with a type Python can name."""
    annotations = getattr(f, "__annotations__", {})
    specs = []
    for name in _parameters(f):
        spec = annotation_type(annotations.get(name)) if name in annotations else None
        if spec is None:
            return None
        specs.append(spec)
    return tuple(specs)


def register_function(fn, scope_locals=None):
    """Warp keeps every @wp.func of one name in a module: a definition whose parameter
    annotations differ from the earlier ones becomes an overload of them (the name keeps
    referring to the first, which dispatches), one with the same annotations replaces its
    namesake. A function that closes over local variables is grouped only with the @wp.func
    of its name already bound in the scope that defines it (`scope_locals`, the defining
    frame's locals): the definitions of one call of the enclosing function."""
    f = fn.func
    sig = _signature(f)
    if f.__closure__:
        other = (scope_locals or {}).get(f.__name__)
        if (not callable(getattr(type(other), "_function_source", None)) or
                getattr(other, "__qualname__", None) != f.__qualname__ or sig is None or
                _signature(other.func) is None):
            return fn
        for i, o in enumerate(other._overloads):
            if _signature(o.func) == sig:
                if o is other:
                    fn._overloads = [fn] + other._overloads[1:]
                    return fn
                other._overloads[i] = fn
                return other
        other._overloads.append(fn)
        return other
    key = (f.__module__, f.__qualname__)
    holder = _functions.get(key)
    if holder is None or sig is None:
        _functions[key] = fn
        return fn
    for i, other in enumerate(holder._overloads):
        if _signature(other.func) == sig:
            # a redefinition (a reload of the module): builds that used the old one are stale
            fn.module.mark_modified()
            if other is holder:  # redefinition of the first: start again from this one
                fn._overloads = [fn] + holder._overloads[1:]
                _functions[key] = fn
                return fn
            holder._overloads[i] = fn
            return holder
    if _signature(holder.func) is None:
        _functions[key] = fn
        return fn
    holder._overloads.append(fn)
    fn.module.mark_modified()  # a new overload can change what existing calls dispatch to
    return holder
