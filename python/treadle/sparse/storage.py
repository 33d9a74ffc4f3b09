"""treadle.sparse storage helpers shared by the operations: argument checks (topology policy,
devices), growing a matrix's arrays, and the views of block values the kernels take."""

import warnings

from .. import types as _types
from ..array import empty, zeros
from ..array_copy import copy
from ..context import get_device


def normalise_topology(function, topology, masked, allowed, default="compact"):
    """The topology policy an operation runs with: ``topology`` (one of ``allowed``), else
    "masked" for the deprecated ``masked=True``, else ``default``."""
    if topology is None:
        topology = "masked" if masked else default
    elif topology not in allowed:
        raise ValueError(f"{function}(): Unsupported topology policy {topology!r} (expected one "
                         f"of {', '.join(repr(t) for t in allowed)})")
    elif masked and topology != "masked":
        raise ValueError(f"{function}(): masked=True contradicts topology={topology!r}")
    if masked:
        warnings.warn(f"The `masked` argument of {function}() is deprecated; pass "
                      "topology='masked' instead", DeprecationWarning, stacklevel=3)
    return topology


def ensure_fits(bsr, nnz=None, capacity=None):
    """Sets the ``nnz`` bound (when given) and grows ``columns`` and ``values`` to at least
    ``capacity`` (default nnz) slots; their contents are not kept when they grow."""
    if nnz is None:
        nnz = bsr.nnz
    else:
        bsr.nnz = int(nnz)
    capacity = nnz if capacity is None else int(capacity)
    if capacity < nnz:
        raise ValueError(f"BsrMatrix: capacity must be at least nnz (got {capacity} and {nnz})")
    if bsr.columns.size < capacity:
        bsr.columns = empty(capacity, dtype=int, device=bsr.device)
    if bsr.values.size < capacity:
        bsr.values = empty(capacity, dtype=bsr.values.dtype, device=bsr.device,
                           requires_grad=bsr.values.requires_grad)


def resize(bsr, rows_of_blocks=None, cols_of_blocks=None):
    """Sets the block counts, growing ``offsets`` to ``nrow + 1`` (contents not kept)."""
    if rows_of_blocks is not None:
        bsr.nrow = int(rows_of_blocks)
    if cols_of_blocks is not None:
        bsr.ncol = int(cols_of_blocks)
    if bsr.offsets.size < bsr.nrow + 1:
        bsr.offsets = empty(bsr.nrow + 1, dtype=int, device=bsr.device)


def own_row_counts(bsr):
    """Gives ``bsr`` a ``row_counts`` array of its own of nrow entries, zeroed (padded storage
    whose rows are about to be rewritten)."""
    if bsr.row_counts is None or bsr.row_counts.size < bsr.nrow:
        bsr.row_counts = zeros(bsr.nrow, dtype=int, device=bsr.device)
    else:
        bsr.row_counts.zero_()


def scalar_view(values, block_shape):
    """A 1-D array of blocks seen as a 3-D scalar array (block, row, column) on the same memory,
    with the matching view of its gradient."""
    scalar = getattr(values.dtype, "_wp_scalar_type_", None)
    if scalar is not None:
        values = values.view(scalar)  # (n, rows, cols), or (n,) for 1x1 matrices
    return values.reshape((values.shape[0], *block_shape))


def block_view(values, block_type, function):
    """``values`` as a 1-D array of ``block_type`` blocks: a 1-D array of that type itself, or
    a contiguous 3-D array (count, rows, cols) of its scalar type seen as one."""
    if values.ndim == 1:
        if not _types.types_equal(values.dtype, block_type):
            raise ValueError(
                f"{function}(): Values array type must correspond to that of the matrix (got "
                f"{_types.type_repr(values.dtype)} and {_types.type_repr(block_type)})")
        return values
    shape = tuple(getattr(block_type, "_shape_", (1, 1)))
    if values.ndim != 3:
        raise ValueError(f"{function}(): Number of dimensions for values array should be 1 or 3 "
                         f"(got {values.ndim})")
    if tuple(values.shape[1:]) != shape:
        raise ValueError(f"{function}(): Last two dimensions in values array "
                         f"({tuple(values.shape[1:])}) should correspond to matrix block shape "
                         f"{shape}")
    scalar = getattr(block_type, "_wp_scalar_type_", block_type)
    if values.dtype is not scalar:
        raise ValueError(f"{function}(): Scalar type of values array "
                         f"({_types.type_repr(values.dtype)}) should correspond to that of the "
                         f"matrix ({_types.type_repr(scalar)})")
    if not values.is_contiguous:
        raise ValueError(f"{function}(): Values array should be contiguous")
    if scalar is block_type:
        return values.reshape((values.shape[0],))
    return values.view(block_type)


def copy_slots(dest, src, count, dest_offset=0):
    """Copies the first ``count`` elements of ``src`` to ``dest`` from ``dest_offset`` on (no
    copy at all for a zero count, where wp.copy would copy everything)."""
    if count > 0:
        copy(dest=dest, src=src, dest_offset=dest_offset, count=count)


def same_device(function, *arrays_or_matrices):
    """Raises ValueError unless every argument lives on one device."""
    devices = [get_device(a.device) for a in arrays_or_matrices]
    if any(d != devices[0] for d in devices[1:]):
        raise ValueError(f"{function}(): All arguments must reside on the same device (got "
                         f"{', '.join(str(d) for d in devices)})")
