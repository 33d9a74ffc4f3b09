"""treadle.sparse empty matrices: bsr_zeros and bsr_set_zero, with the compact, padded (reserved
row capacity) and masked (values only) topologies of Warp 1.17."""

from .. import types as _types
from ..array import array, empty
from ..array_copy import copy
from ..array_utils import array_scan
from ..builtin_functions import tid
from ..kernel import kernel
from ..launch import launch
from .matrix import bsr_matrix_t
from .storage import ensure_fits, own_row_counts, resize


@kernel(enable_backward=False)
def _uniform_capacity(row_capacity: int, offsets: array(dtype=int)):
    row = tid()
    offsets[row] = row * row_capacity


@kernel(enable_backward=False)
def _extend_capacity(old_row_count: int, offsets: array(dtype=int)):
    offsets[old_row_count + 1 + tid()] = offsets[old_row_count]


def _check_capacities(function, bsr, topology, row_capacity, nnz_capacity):
    """The validated (row_capacity, nnz_capacity) of a bsr_zeros/bsr_set_zero call."""
    if nnz_capacity is not None:
        nnz_capacity = int(nnz_capacity)
        if nnz_capacity < 0:
            raise ValueError(f"{function}(): nnz_capacity must be nonnegative (got "
                             f"{nnz_capacity})")
    if row_capacity is None:
        return None, nnz_capacity
    if topology != "padded":
        raise ValueError(f"{function}(): row_capacity requires topology='padded'")
    if isinstance(row_capacity, array):
        if row_capacity.ndim != 1 or row_capacity.shape[0] != bsr.nrow:
            raise ValueError(f"{function}(): row_capacity array must have shape ({bsr.nrow},) "
                             f"(got {row_capacity.shape})")
        if row_capacity.dtype is not _types.int32:
            raise TypeError(f"{function}(): row_capacity array must have dtype int32 (got "
                            f"{_types.type_repr(row_capacity.dtype)})")
        if row_capacity.device != bsr.device:
            raise ValueError(f"{function}(): row_capacity array must reside on the matrix "
                             f"device (got {row_capacity.device} and {bsr.device})")
        return row_capacity, nnz_capacity
    row_capacity = int(row_capacity)
    if row_capacity < 0:
        raise ValueError(f"{function}(): row_capacity must be nonnegative (got {row_capacity})")
    return row_capacity, nnz_capacity


def _set_empty_topology(bsr, topology, row_capacity, nnz_capacity, keep_capacity):
    """Makes every row of ``bsr`` empty: compact (offsets zero), or padded with the given row
    capacity (an int or an int32 array), or with the capacity it has (``keep_capacity``)."""
    if topology != "padded":
        bsr.offsets[: bsr.nrow + 1].zero_()
        bsr.row_counts = None
        bsr.notify_nnz_changed(nnz=0, nnz_capacity=nnz_capacity)
        return
    nnz = 0
    if isinstance(row_capacity, array):
        bsr.offsets[:1].zero_()
        if bsr.nrow > 0:
            array_scan(row_capacity, bsr.offsets[1 : bsr.nrow + 1], inclusive=True)
        nnz = None  # the total capacity is on the device
    elif row_capacity is not None:
        launch(_uniform_capacity, dim=bsr.nrow + 1, device=bsr.device, record_tape=False,
               inputs=[row_capacity, bsr.offsets])
        nnz = bsr.nrow * row_capacity
    elif keep_capacity:
        nnz = bsr.nnz
    else:
        bsr.offsets[: bsr.nrow + 1].zero_()
    own_row_counts(bsr)
    bsr._ensure_status()
    bsr.notify_nnz_changed(nnz=nnz, nnz_capacity=nnz_capacity)


def bsr_zeros(rows_of_blocks, cols_of_blocks, block_type, device=None, *, topology=None,
              row_capacity=None, nnz_capacity=None):
    """An empty matrix of ``rows_of_blocks`` x ``cols_of_blocks`` blocks of ``block_type`` (a
    scalar type: CSR; a matrix type: BSR). ``row_capacity`` (an int, or an int32 array with one
    entry per row) reserves slots in every row and implies ``topology="padded"``;
    ``nnz_capacity`` presizes ``columns`` and ``values`` (needed to build per-row capacity
    inside a CUDA graph capture, where the total cannot be read back)."""
    if topology is None:
        topology = "padded" if row_capacity is not None else "compact"
    elif topology not in ("compact", "padded"):
        raise ValueError(f"bsr_zeros(): Unsupported topology policy {topology!r} (expected "
                         "'compact' or 'padded')")
    bsr = bsr_matrix_t(block_type)()
    bsr.nrow = int(rows_of_blocks)
    bsr.ncol = int(cols_of_blocks)
    bsr.nnz = 0
    bsr.offsets = empty(bsr.nrow + 1, dtype=int, device=device)
    bsr.columns = empty(0, dtype=int, device=device)
    bsr.values = empty(0, dtype=block_type, device=device)
    row_capacity, nnz_capacity = _check_capacities("bsr_zeros", bsr, topology, row_capacity,
                                                   nnz_capacity)
    _set_empty_topology(bsr, topology, row_capacity, nnz_capacity, keep_capacity=False)
    return bsr


def bsr_set_zero(bsr, rows_of_blocks=None, cols_of_blocks=None, *, topology="compact",
                 row_capacity=None, nnz_capacity=None):
    """Makes ``bsr`` zero, possibly resizing it. ``topology``: "compact" drops every block;
    "padded" empties the rows but keeps their capacity (or sets ``row_capacity``; rows added
    by a resize get none); "masked" keeps the blocks and zeroes their values."""
    if topology not in ("compact", "padded", "masked"):
        raise ValueError(f"bsr_set_zero(): Unsupported topology policy {topology!r} (expected "
                         "'compact', 'padded' or 'masked')")
    if row_capacity is not None and topology != "padded":
        raise ValueError("bsr_set_zero(): row_capacity requires topology='padded'")
    if topology == "masked":
        if rows_of_blocks is not None or cols_of_blocks is not None:
            raise ValueError("bsr_set_zero(): Cannot resize a matrix with topology='masked'")
        bsr.values.zero_()
        return
    keep_capacity = topology == "padded" and row_capacity is None
    old_rows, old_offsets = bsr.nrow, bsr.offsets
    resize(bsr, rows_of_blocks, cols_of_blocks)
    if keep_capacity and bsr.nrow > old_rows:
        if bsr.offsets is not old_offsets:
            copy(dest=bsr.offsets, src=old_offsets, count=old_rows + 1)
        launch(_extend_capacity, dim=bsr.nrow - old_rows, device=bsr.device,
               record_tape=False, inputs=[old_rows, bsr.offsets])
    row_capacity, nnz_capacity = _check_capacities("bsr_set_zero", bsr, topology, row_capacity,
                                                   nnz_capacity)
    _set_empty_topology(bsr, topology, row_capacity, nnz_capacity, keep_capacity)
    ensure_fits(bsr)
