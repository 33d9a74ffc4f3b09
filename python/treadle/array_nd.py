"""wp.array1d ... wp.array4d: arrays (and annotations) of a fixed number of dimensions."""

from .array import array


class array1d(array):
    """A 1-D array (or annotation ``wp.array1d(dtype=float)``)."""

    _fixed_ndim = 1


class array2d(array):
    """A 2-D array (or annotation ``wp.array2d(dtype=float)``)."""

    _fixed_ndim = 2


class array3d(array):
    """A 3-D array (or annotation ``wp.array3d(dtype=float)``)."""

    _fixed_ndim = 3


class array4d(array):
    """A 4-D array (or annotation ``wp.array4d(dtype=float)``)."""

    _fixed_ndim = 4
