"""Arrays made from a value or from another array: wp.full, wp.ones (the dtype inferred from
the value as Warp does), wp.empty_like, zeros_like, ones_like, full_like, wp.from_numpy."""

import builtins
from typing import Any

import numpy as np

from . import _treadle, scalar_types
from .array import _allocate, _like, _pinned_like, array, empty, zeros
from .scalar_types import scalar_base
from .struct import is_struct
from .type_classes import class_of
from .vec_types import composite_base


def _infer_value_dtype(value):
    if isinstance(value, (scalar_base, composite_base)) or is_struct(value):
        return type(value)
    if isinstance(value, (builtins.bool, np.bool_)):
        return scalar_types.bool
    if isinstance(value, builtins.int):
        return scalar_types.int32
    if isinstance(value, builtins.float):
        return scalar_types.float32
    if isinstance(value, np.generic):
        return scalar_types.dtype_from_numpy(value.dtype)
    if hasattr(value, "__len__") and not isinstance(value, (str, bytes)):
        # a sequence: a vector of its length, or a matrix of its shape (Warp's rule; the
        # scalar is numpy's choice for the values)
        values = np.asarray(value)
        if values.ndim not in (1, 2) or values.size == 0:
            raise ValueError(f"full(): cannot make a vector or matrix of a value of shape "
                             f"{values.shape}")
        scalar = scalar_types.dtype_from_numpy(values.dtype)
        if values.ndim == 1:
            return class_of(_treadle.types.vector(values.shape[0], scalar._type))
        return class_of(_treadle.types.matrix(values.shape[0], values.shape[1], scalar._type))
    raise TypeError(f"full(): cannot infer a dtype from a value of type {type(value).__name__}")


def full(shape=None, value=0, dtype=Any, device=None, requires_grad=False, pinned=False, **kwargs):
    """An array with every element set to ``value`` (dtype inferred from it when Any)."""
    if dtype is Any:
        dtype = _infer_value_dtype(value)
    out = _allocate(kwargs.pop("n", shape), dtype, device, requires_grad, False, pinned, **kwargs)
    out.fill_(value)
    return out


def ones(shape=None, dtype=float, device=None, requires_grad=False, pinned=False, **kwargs):
    """An array of ones."""
    return full(kwargs.pop("n", shape), 1, dtype, device, requires_grad, pinned, **kwargs)


def empty_like(src, device=None, requires_grad=None, pinned=None):
    """An uninitialised array with the shape and dtype of ``src``."""
    dev, rg = _like(src, device, requires_grad)
    return empty(src.shape, src.dtype, dev, rg, pinned=_pinned_like(src, dev, pinned))


def zeros_like(src, device=None, requires_grad=None, pinned=None):
    """A zero-filled array with the shape and dtype of ``src``."""
    dev, rg = _like(src, device, requires_grad)
    return zeros(src.shape, src.dtype, dev, rg, pinned=_pinned_like(src, dev, pinned))


def ones_like(src, device=None, requires_grad=None, pinned=None):
    """An array of ones with the shape and dtype of ``src``."""
    dev, rg = _like(src, device, requires_grad)
    return full(src.shape, 1, src.dtype, dev, rg, pinned=_pinned_like(src, dev, pinned))


def full_like(src, value, device=None, requires_grad=None, pinned=None):
    """An array with the shape and dtype of ``src`` filled with ``value``."""
    dev, rg = _like(src, device, requires_grad)
    return full(src.shape, value, src.dtype, dev, rg, pinned=_pinned_like(src, dev, pinned))


def from_numpy(arr, dtype=None, shape=None, device=None, requires_grad=False):
    """An array holding a copy of numpy array ``arr``."""
    return array(
        data=arr,
        dtype=Any if dtype is None else dtype,
        shape=shape,
        device=device,
        requires_grad=requires_grad,
    )
