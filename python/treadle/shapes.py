"""Array shapes and dimension counts as the array functions check them (shared by arrays,
indexed arrays and arrays of structs)."""

import builtins
import typing

import numpy as np


def is_int(x):
    """True for a Python or numpy integer (not a bool)."""
    if isinstance(x, (builtins.bool, np.bool_)):
        return False
    return isinstance(x, (builtins.int, np.integer))


def shape_tuple(shape, what="shape"):
    """Validates an int or a sequence of ints as an array shape of 1 to 4 dimensions."""
    if is_int(shape):
        shape = (shape,)
    try:
        items = tuple(shape)
    except TypeError:
        raise TypeError(
            f"{what} must be an int or a sequence of ints, got {type(shape).__name__}"
        ) from None
    for s in items:
        if not is_int(s):
            raise TypeError(f"{what} must contain only ints, got {s!r} in {shape!r}")
    items = tuple(builtins.int(s) for s in items)
    if not 1 <= len(items) <= 4:
        raise ValueError(f"{what} {items} has {len(items)} dimensions; arrays have 1 to 4")
    for s in items:
        if s < 0:
            raise ValueError(f"Array shapes must be non-negative: {what} {items} has a negative "
                             "dimension")
    return items


def check_ndim(ndim):
    """Validates a number of dimensions (1 to 4)."""
    if not is_int(ndim) or not 1 <= ndim <= 4:
        raise ValueError(f"ndim must be between 1 and 4 (an int), got {ndim!r}")
    return builtins.int(ndim)


def subscript_params(params, name, fixed_ndim=None):
    """The dtype and ndim of an annotation subscript ``name[dtype]`` / ``name[dtype, ndim]``;
    ndim may be an int or ``Literal[n]`` (the form static type checkers read). A class of
    fixed dimensions (``array2d``) takes the dtype alone."""
    if not isinstance(params, tuple):
        return params, None
    if fixed_ndim is not None:
        raise TypeError(f"{name}[...] takes a single type parameter (the dtype), got {params!r}")
    if len(params) != 2:
        raise TypeError(f"{name}[...] takes a dtype and optionally ndim, got {len(params)} items")
    dtype, ndim = params
    if typing.get_origin(ndim) is typing.Literal:
        values = typing.get_args(ndim)
        if len(values) != 1:
            raise TypeError(f"Expected a single Literal value for ndim, got {ndim!r}")
        ndim = values[0]
    return dtype, ndim
