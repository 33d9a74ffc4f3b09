"""Treadle arrays over memory another library owns (DLPack tensors, PyTorch tensors, array
interfaces given to a launch): the one place that checks a requested dtype against the
memory's scalar type and folds trailing dimensions into vector and matrix elements.

The array aliases the memory and holds an ``owner`` object (a tensor, a DLPack deleter) for as
long as it or any view of it lives. Shapes and strides are those of the source, in bytes, with
the scalar as element; an element dtype of n components takes the last dimensions, which must
be of its shape and packed (a (10, 3) float32 tensor is a (10,) vec3 array)."""

from typing import Any

import numpy as np

from . import scalar_types
from .array import _new_null
from .scalar_types import resolve_dtype
from .struct import is_struct_type


def compatible(src, dst):
    """Whether memory of scalar class ``src`` may be read as scalar class ``dst`` (Warp's rule):
    the same type, integers of one width whatever their signedness, or bool as int8/uint8."""
    if src is dst:
        return True
    if src is scalar_types.bool:
        return dst in (scalar_types.int8, scalar_types.uint8)
    ints = scalar_types.int_types
    return src in ints and dst in ints and src._size == dst._size


def target_dtype(dtype, scalar, source_type, what):
    """The element type class an import makes: ``dtype`` (None or Any: ``scalar`` itself)
    after checking that its scalar may read memory of ``scalar``; ``source_type`` names that
    memory's type in the message ("DLPack bool8", "PyTorch torch.float32")."""
    if dtype is None or dtype is Any:
        return scalar
    target = resolve_dtype(dtype)
    if is_struct_type(target):
        raise TypeError(f"{what}: cannot alias {source_type} data as the struct "
                        f"{target.__name__} (structs have no counterpart in other libraries)")
    if not compatible(scalar, getattr(target, "_wp_scalar_type_", target)):
        raise RuntimeError(f"{what}: Incompatible data types: {source_type} and Warp "
                           f"{target.__name__}")
    return target


def compact_strides(shape, item):
    """The byte strides of a packed row-major layout of ``shape`` with ``item``-byte scalars."""
    strides, step = [], item
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def alias(ptr, shape, strides, scalar, target, device_alias, owner, source, what):
    """A treadle array of element type ``target`` over the memory at address ``ptr``: ``shape``
    and byte ``strides`` (None: packed) of scalars of class ``scalar``; ``target``'s components
    take the last dimensions. ``owner`` stays alive with the array; ``source`` ("DLPack
    tensor", "PyTorch tensor") names the memory in messages."""
    shape = tuple(int(n) for n in shape)
    item = scalar._size
    strides = compact_strides(shape, item) if strides is None else tuple(int(s) for s in strides)
    inner = tuple(getattr(target, "_shape_", ()))
    if inner:
        k = len(inner)
        if k > len(shape) or shape[-k:] != inner:
            raise RuntimeError(f"{what}: a {source} of shape {shape} cannot be seen as an array "
                               f"of {target.__name__}: its last dimensions must be {inner}")
        step = item
        for n, s in zip(reversed(inner), reversed(strides[-k:])):
            if s != step:
                raise RuntimeError(
                    f"{what}: a {source} of shape {shape} and byte strides {strides} cannot be "
                    f"seen as an array of {target.__name__}: the components of each element "
                    "must be packed")
            step *= n
        shape, strides = shape[:-k], strides[:-k]
    if not shape:  # a 0-d tensor (or one element): one element
        shape, strides = (1,), (target._size,)
    if len(shape) > 4:
        raise ValueError(f"{what}: a {source} of shape {shape} has {len(shape)} dimensions; "
                         "treadle arrays have 1 to 4")
    out = _new_null()
    out._init_from_ptr(int(ptr or 0), target._type, list(shape), list(strides), device_alias,
                       owner)
    return out


def from_interface(interface, owner, target, device_alias, what):
    """An array of element type class ``target`` over the memory an ``__array_interface__`` or
    ``__cuda_array_interface__`` dictionary describes (held alive through ``owner``). The
    interface's scalar type must be ``target``'s own (Warp's rule for launch arguments: no
    reinterpretation); RuntimeError otherwise."""
    try:
        scalar = scalar_types.dtype_from_numpy(np.dtype(interface["typestr"]))
    except TypeError:
        scalar = None
    if scalar is None or scalar is not getattr(target, "_wp_scalar_type_", target):
        raise RuntimeError(f"{what}: an array interface of typestr {interface['typestr']!r} "
                           f"cannot be read as an array of {target.__name__}")
    return alias(interface["data"][0], interface["shape"], interface.get("strides"), scalar,
                 target, device_alias, owner, "array interface", what)
