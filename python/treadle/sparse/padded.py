"""treadle.sparse padded destinations: copies the active rows of a matrix into the reserved row
capacity of another of the same shape and block shape, leaving its offsets as they are.

Every padded operation (triplets, copies, sums, products, transposes, compression) computes
its result in compact storage first and ends here. A row with more blocks than its capacity
is left empty and raises the destination's status to BSR_STATUS_ROW_CAPACITY_EXCEEDED.
"""

from ..array import array, empty
from ..builtin_functions import atomic_max, tid
from ..kernel import kernel
from ..launch import launch
from .funcs import bsr_row_index, row_end
from .matrix import BSR_STATUS_ROW_CAPACITY_EXCEEDED
from .storage import own_row_counts
from .values import gather


@kernel(enable_backward=False)
def _fit_rows(
    src_offsets: array(dtype=int),
    src_row_counts: array(dtype=int),
    dest_offsets: array(dtype=int),
    dest_row_counts: array(dtype=int),
    status: array(dtype=int),
):
    row = tid()
    count = row_end(src_offsets, src_row_counts, row) - src_offsets[row]
    if count > dest_offsets[row + 1] - dest_offsets[row]:
        dest_row_counts[row] = 0
        atomic_max(status, 0, BSR_STATUS_ROW_CAPACITY_EXCEEDED)
    else:
        dest_row_counts[row] = count


@kernel(enable_backward=False)
def _capacity_sources(
    row_count: int,
    src_offsets: array(dtype=int),
    src_columns: array(dtype=int),
    dest_offsets: array(dtype=int),
    dest_row_counts: array(dtype=int),
    dest_columns: array(dtype=int),
    sources: array(dtype=int),
):
    slot = tid()
    row = bsr_row_index(dest_offsets, row_count, slot, dest_row_counts)
    if row == -1:
        sources[slot] = -1
        return
    source = src_offsets[row] + slot - dest_offsets[row]
    dest_columns[slot] = src_columns[source]
    sources[slot] = source


def copy_into_capacity(dest, src, scale=1.0, structure_only=False):
    """Writes the active rows of ``src`` (not ``dest`` itself; same nrow and block shape) into
    the row capacity of ``dest``, scaled by ``scale``: dest.row_counts becomes the blocks of
    each row, 0 for a row that does not fit (the status records it). ``structure_only``
    copies the columns only. Differentiable in the values."""
    if dest.row_counts is None or dest.row_counts.size < dest.nrow:
        own_row_counts(dest)
    status = dest._ensure_status()
    if dest.nrow > 0:
        launch(_fit_rows, dim=dest.nrow, device=dest.device, record_tape=False,
               inputs=[src.offsets, src.row_counts, dest.offsets, dest.row_counts, status])
    sources = empty(dest.nnz, dtype=int, device=dest.device)
    if dest.nnz > 0:
        launch(_capacity_sources, dim=dest.nnz, device=dest.device, record_tape=False,
               inputs=[dest.nrow, src.offsets, src.columns, dest.offsets, dest.row_counts,
                       dest.columns, sources])
    if not structure_only:
        gather(sources, src.scalar_values, dest.scalar_values, scale)
