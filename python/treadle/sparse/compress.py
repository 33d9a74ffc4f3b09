"""treadle.sparse.bsr_compress: sorts and merges the active blocks of a matrix in place of its
storage (duplicates summed, zero blocks optionally pruned), compact or keeping row capacity."""

from ..array import empty
from .construct import bsr_zeros
from .coo import compact_topology, sum_runs
from .matrix import BsrMatrix
from .padded import copy_into_capacity
from .storage import scalar_view


def _merged(src, prune):
    """(offsets, columns, values) of compact storage holding the merged active blocks of
    ``src``; the values come from a differentiable sum of src's values."""
    nnz = src.nnz
    device = src.device
    offsets = empty(src.nrow + 1, dtype=int, device=device)
    columns = empty(nnz, dtype=int, device=device)
    values = empty(nnz, dtype=src.values.dtype, device=device, requires_grad=src.requires_grad)
    old_values = scalar_view(src.values, src.block_shape)[:nnz]
    runs = compact_topology(src.nrow, src.ncol, src.uncompress_rows(), src.columns, nnz,
                            offsets, columns, prune_values=old_values if prune else None)
    sum_runs(runs, scalar_view(values, src.block_shape), old_values)
    return offsets, columns, values


def bsr_compress(src, prune_numerical_zeros=True, inplace=False, topology=None):
    """Sorts the active blocks of every row of ``src`` by column, sums duplicates (after
    dropping zero blocks when ``prune_numerical_zeros``) and returns ``src``. Slack slots are
    ignored. ``topology``: "compact" (default) packs the rows (``row_counts`` becomes None);
    "padded" keeps each row's capacity. The values are summed by a differentiable kernel into
    a new values array, whichever ``inplace`` says (treadle has no separate in-place path, so
    the arrays of ``src`` are replaced rather than rewritten)."""
    if not isinstance(src, BsrMatrix):
        raise ValueError(f"bsr_compress(): requires a concrete BsrMatrix (got "
                         f"{type(src).__name__})")
    if topology is None:
        topology = "compact"
    elif topology not in ("compact", "padded"):
        raise ValueError(f"bsr_compress(): Unsupported topology policy {topology!r} (expected "
                         "'compact' or 'padded')")
    offsets, columns, values = _merged(src, prune_numerical_zeros)
    if topology == "compact":
        src.offsets = offsets
        src.columns = columns
        src.values = values
        src.row_counts = None
        src._copy_nnz_async()
        return src
    compact = bsr_zeros(src.nrow, src.ncol, src.values.dtype, device=src.device)
    compact.offsets, compact.columns, compact.values = offsets, columns, values
    compact.nnz = src.nnz
    src.values = empty(src.values.shape[0], dtype=src.values.dtype, device=src.device,
                       requires_grad=src.requires_grad)
    copy_into_capacity(src, compact)
    return src
