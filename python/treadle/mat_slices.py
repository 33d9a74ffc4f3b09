"""Slices of host matrices (m[1:], m[:, 2], m[1:, ::2]): the elements a key selects and Warp's
checks of the values assigned to them."""

import numpy as np


def is_slice_key(key):
    """Whether the matrix subscript `key` slices (m[a:b] or a pair with a slice)."""
    if isinstance(key, slice):
        return True
    return isinstance(key, tuple) and len(key) == 2 and any(isinstance(k, slice) for k in key)


def selection(shape, key, row_index, col_index):
    """(rows, cols, is_matrix): the row and column positions (intp arrays) `key` selects of a
    matrix of `shape`, and whether it gives a matrix (two sliced axes) or a vector.
    `row_index`/`col_index` check and normalise a plain index."""
    if isinstance(key, slice):
        key = (key, slice(None))
    r, c = key
    rows = range(*r.indices(shape[0])) if isinstance(r, slice) else [row_index(r)]
    cols = range(*c.indices(shape[1])) if isinstance(c, slice) else [col_index(c)]
    both = isinstance(r, slice) and isinstance(c, slice)
    return np.asarray(list(rows), dtype=np.intp), np.asarray(list(cols), dtype=np.intp), both


def result_shape(rows, cols):
    """The shape of a matrix slice: a matrix with no rows or no columns has neither."""
    return (0, 0) if rows == 0 or cols == 0 else (rows, cols)


def checked_values(value, rows, cols, is_matrix, is_scalar):
    """The values assigned to a slice of `rows` x `cols` elements, as an object array of that
    shape (a scalar fills it); RuntimeError with Warp's message for another shape."""
    if is_scalar(value):
        return np.full((len(rows), len(cols)), value, dtype=object)
    data = getattr(value, "_data", value)
    v = np.asarray(data, dtype=object)
    if is_matrix:
        want = (len(rows), len(cols))
        if v.ndim != 2 or v.shape != want:
            raise RuntimeError(f"The shape of the provided matrix ({v.shape}) isn't compatible "
                               f"with the given slice (expected {want})")
        return v
    length = max(len(rows), len(cols)) if min(len(rows), len(cols)) == 1 else 0
    if v.ndim != 1:
        raise RuntimeError("The provided value is expected to be a 1D vector but got an object "
                           f"of shape {v.shape} instead")
    if v.shape[0] != length:
        raise RuntimeError(f"The length of the provided vector ({v.shape[0]}) isn't compatible "
                           f"with the given slice (expected {length})")
    return v.reshape(len(rows), len(cols))
