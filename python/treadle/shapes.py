"""Array shapes and dimension counts as the array functions check them (shared by arrays,
indexed arrays and arrays of structs)."""

import builtins

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
            raise ValueError(f"{what} {items} has a negative dimension")
    return items


def check_ndim(ndim):
    """Validates a number of dimensions (1 to 4)."""
    if not is_int(ndim) or not 1 <= ndim <= 4:
        raise ValueError(f"ndim must be an int from 1 to 4, got {ndim!r}")
    return builtins.int(ndim)
