"""treadle.sparse from COO triplets: bsr_set_from_triplets and bsr_from_triplets (duplicates
summed, zero blocks optionally pruned, into compact, masked or padded topologies)."""

from .. import types as _types
from ..array import array, empty
from ..builtin_functions import tid
from ..kernel import kernel
from ..launch import launch
from .construct import bsr_set_zero, bsr_zeros
from .coo import compact_topology, sum_runs
from .funcs import bsr_block_index
from .padded import copy_into_capacity
from .storage import block_view, ensure_fits, normalise_topology, same_device, scalar_view
from .values import scatter_add

_FUNCTION = "bsr_set_from_triplets"


@kernel(enable_backward=False)
def _triplet_targets(
    count: array(dtype=int),
    row_count: int,
    col_count: int,
    rows: array(dtype=int),
    columns: array(dtype=int),
    bsr_offsets: array(dtype=int),
    bsr_row_counts: array(dtype=int),
    bsr_columns: array(dtype=int),
    targets: array(dtype=int),
):
    triplet = tid()
    targets[triplet] = -1
    if count:
        if triplet >= count[0]:
            return
    row = rows[triplet]
    col = columns[triplet]
    if row >= 0 and row < row_count and col >= 0 and col < col_count:
        targets[triplet] = bsr_block_index(row, col, bsr_offsets, bsr_columns, bsr_row_counts)


def _check_triplets(dest, rows, columns, values, count):
    """Raises Warp's errors for triplet arrays that do not fit ``dest``."""
    same_device(_FUNCTION, dest, rows, columns)
    if rows.shape[0] != columns.shape[0]:
        raise ValueError(f"{_FUNCTION}(): Rows and columns arrays must have the same length "
                         f"(got {rows.shape[0]} and {columns.shape[0]})")
    if rows.dtype is not _types.int32 or columns.dtype is not _types.int32:
        raise TypeError(f"{_FUNCTION}(): Rows and columns arrays must be of type int32")
    if count is not None:
        same_device(_FUNCTION, rows, count)
        if tuple(count.shape) != (1,):
            raise ValueError(f"{_FUNCTION}(): Count array must be a single-element array (got "
                             f"shape {count.shape})")
        if count.dtype is not _types.int32:
            raise TypeError(f"{_FUNCTION}(): Count array must be of type int32")
    if values is not None:
        same_device(_FUNCTION, rows, values)
        if values.shape[0] != rows.shape[0]:
            raise ValueError(f"{_FUNCTION}(): Values and rows arrays must have the same length "
                             f"(got {values.shape[0]} and {rows.shape[0]})")
        return block_view(values, dest.values.dtype, _FUNCTION)
    return None


def _set_compact(dest, rows, columns, values, count, prune):
    """The compact case: dest's topology rebuilt from the triplets, values summed."""
    nnz = rows.shape[0]
    ensure_fits(dest, nnz=nnz)
    values3d = None if values is None else scalar_view(values, dest.block_shape)
    runs = compact_topology(dest.nrow, dest.ncol, rows, columns, nnz, dest.offsets, dest.columns,
                            count=count, prune_values=values3d if prune else None)
    dest.row_counts = None
    if values3d is not None:
        sum_runs(runs, dest.scalar_values, values3d)
    dest._copy_nnz_async()


def bsr_set_from_triplets(dest, rows, columns, values=None, count=None,
                          prune_numerical_zeros=True, masked=False, topology=None):
    """Fills ``dest`` from COO triplets ``(rows[k], columns[k], values[k])``, summing
    duplicates; triplets outside the matrix are ignored. ``values`` is a 1-D array of the
    block type or a contiguous 3-D array of the scalar type, or None to build the topology
    only. ``count`` (a one-int32 device array) may lower the triplet count.
    ``prune_numerical_zeros`` drops zero blocks before summing. ``topology``: "compact"
    (default) rebuilds the topology; "masked" (or the deprecated ``masked=True``) keeps it and
    ignores triplets outside it; "padded" writes the rows into the existing row capacity and
    records overflow in ``dest.status_sync()``."""
    topology = normalise_topology(_FUNCTION, topology, masked, ("compact", "masked", "padded"))
    values = _check_triplets(dest, rows, columns, values, count)
    if rows.shape[0] == 0:
        bsr_set_zero(dest, topology=topology)
        return
    if topology == "masked":
        dest.values.zero_()
        if values is not None:
            targets = empty(rows.shape[0], dtype=int, device=dest.device)
            launch(_triplet_targets, dim=rows.shape[0], device=dest.device, record_tape=False,
                   inputs=[count, dest.nrow, dest.ncol, rows, columns, dest.offsets,
                           dest.row_counts, dest.columns, targets])
            scatter_add(targets, scalar_view(values, dest.block_shape), dest.scalar_values)
        return
    if topology == "padded":
        compact = bsr_zeros(dest.nrow, dest.ncol, dest.values.dtype, device=dest.device)
        compact.values.requires_grad = values is not None and values.requires_grad
        _set_compact(compact, rows, columns, values, count, prune_numerical_zeros)
        copy_into_capacity(dest, compact, structure_only=values is None)
        return
    _set_compact(dest, rows, columns, values, count, prune_numerical_zeros)


def bsr_from_triplets(rows_of_blocks, cols_of_blocks, rows, columns, values,
                      prune_numerical_zeros=True):
    """A new compact matrix from COO triplets (see bsr_set_from_triplets); its block type is
    ``values``'s dtype, or a matrix of its trailing shape for a 3-D scalar array. ``nnz``
    stays the triplet count until ``nnz_sync()``; duplicates that sum to zero stay as explicit
    zero blocks (bsr_compress prunes them)."""
    if values.ndim == 3:
        block_type = _types.matrix(shape=tuple(values.shape[1:]), dtype=values.dtype)
    else:
        block_type = values.dtype
    matrix = bsr_zeros(rows_of_blocks, cols_of_blocks, block_type, device=values.device)
    matrix.values.requires_grad = values.requires_grad
    bsr_set_from_triplets(matrix, rows, columns, values,
                          prune_numerical_zeros=prune_numerical_zeros)
    return matrix
