"""Warp's rule for another library's array given where a kernel takes a ``wp.array`` (a PyTorch
tensor, a numpy or CuPy array): on a CUDA device an object with ``__cuda_array_interface__``,
on the CPU one with ``__array_interface__`` or ``__array__()``, is passed as an array aliasing
its memory, of the parameter's dtype exactly (its last dimensions taking vector and matrix
components; anything else is left to the packer's error). The native packer refuses such
objects; launch() asks this module only after that refusal, and before recording a launch on
a tape (which keeps treadle arrays)."""

from . import _treadle
from .external_arrays import from_interface
from .generics import kernel_parameters
from .type_classes import class_of


def _interface(value, on_cuda):
    """(interface dictionary, owner) of ``value`` for a device kind, or None."""
    if on_cuda:
        interface = getattr(value, "__cuda_array_interface__", None)
        return None if interface is None else (interface, value)
    interface = getattr(value, "__array_interface__", None)
    if interface is not None:
        return interface, value
    if hasattr(value, "__array__") and not isinstance(value, (list, tuple)):
        host = value.__array__()  # e.g. a PyTorch CPU tensor: a numpy view of its memory
        return host.__array_interface__, (value, host)
    return None


def foreign_arrays(kernel, args, device_alias):
    """``args`` with every foreign array given for a plain array parameter replaced by a treadle
    array over its memory; None when there is none."""
    fixed = None
    on_cuda = device_alias != "cpu"
    for i, (name, t, _) in enumerate(kernel_parameters(kernel)[: len(args)]):
        value = args[i]
        if value is None or isinstance(value, _treadle.Array) or t.kind != "array" or \
                t.indexed or t.fabric or t.indexed_fabric or t.dtype.is_generic:
            continue
        found = _interface(value, on_cuda)
        if found is None:
            continue
        what = f"{kernel.key}(): argument '{name}'"
        try:
            converted = from_interface(found[0], found[1], class_of(t.dtype), device_alias, what)
        except (RuntimeError, ValueError, TypeError, KeyError):
            continue  # not of the parameter's type: the packer's error names both
        if fixed is None:
            fixed = list(args)
        fixed[i] = converted
    return fixed
