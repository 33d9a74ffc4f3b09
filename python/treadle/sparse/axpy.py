"""treadle.sparse.bsr_axpy: ``y := alpha * x + beta * y`` on matrices. The compact result's
topology is the merge of both operands' blocks (coo.compact_topology over their concatenated
coordinates), and each block sums its run of old-y and x blocks (coo.sum_runs)."""

from .. import types as _types
from ..array import array, empty
from ..builtin_functions import tid
from ..kernel import kernel
from ..launch import launch
from .assign import bsr_assign, snapshot
from .construct import bsr_zeros
from .coo import compact_topology, sum_runs
from .expression import matrix_and_scale
from .funcs import bsr_block_index, bsr_row_index
from .padded import copy_into_capacity
from .scale import bsr_scale
from .storage import copy_slots, ensure_fits, normalise_topology, same_device, scalar_view
from .values import gather

_FUNCTION = "bsr_axpy"


@kernel(enable_backward=False)
def _masked_sources(
    row_count: int,
    x_offsets: array(dtype=int),
    x_row_counts: array(dtype=int),
    x_columns: array(dtype=int),
    y_offsets: array(dtype=int),
    y_row_counts: array(dtype=int),
    y_columns: array(dtype=int),
    sources: array(dtype=int),
):
    block = tid()
    row = bsr_row_index(y_offsets, row_count, block, y_row_counts)
    sources[block] = -1
    if row != -1:
        sources[block] = bsr_block_index(row, y_columns[block], x_offsets, x_columns,
                                         x_row_counts)


class bsr_axpy_work_arrays:  # noqa: N801 - Warp's name
    """Temporary buffers that bsr_axpy keeps across calls (pass the same object again)."""

    def __init__(self):
        self._reset(None)

    def _reset(self, device):
        self.device = device
        self._sum_rows = None
        self._sum_cols = None
        self._old_y_values = None

    def _allocate(self, device, y, sum_nnz):
        if self.device != device:
            self._reset(device)
        if self._sum_rows is None or self._sum_rows.size < sum_nnz:
            self._sum_rows = empty(sum_nnz, dtype=int, device=device)
            self._sum_cols = empty(sum_nnz, dtype=int, device=device)
        old = self._old_y_values
        grad = y.requires_grad
        if (old is None or old.size < y.nnz or old.requires_grad != grad
                or not _types.types_equal(old.dtype, y.values.dtype)):
            self._old_y_values = empty(y.nnz, dtype=y.values.dtype, device=device,
                                       requires_grad=grad)


def _check_operands(x, y):
    same_device(_FUNCTION, x, y)
    if x.scalar_type is not y.scalar_type or x.block_shape != y.block_shape:
        raise ValueError(f"{_FUNCTION}(): Matrices must have the same block type (got "
                         f"{x.block_shape} {_types.type_repr(x.scalar_type)} and "
                         f"{y.block_shape} {_types.type_repr(y.scalar_type)})")
    if (x.nrow, x.ncol) != (y.nrow, y.ncol):
        raise ValueError(f"{_FUNCTION}(): Matrices must have the same number of rows and "
                         f"columns (got ({x.nrow}, {x.ncol}) and ({y.nrow}, {y.ncol}))")


def _merge(x, y, alpha, beta, work_arrays):
    """The general compact case: y's topology becomes the union of both, values summed."""
    x_nnz, y_nnz = x.nnz, y.nnz
    total = x_nnz + y_nnz
    work = bsr_axpy_work_arrays() if work_arrays is None else work_arrays
    work._allocate(y.device, y, total)
    rows, cols, old_values = work._sum_rows, work._sum_cols, work._old_y_values[:y_nnz]
    copy_slots(cols, y.columns, y_nnz)
    y.uncompress_rows(out=rows)
    copy_slots(cols, x.columns, x_nnz, dest_offset=y_nnz)
    x.uncompress_rows(out=rows[y_nnz:])
    copy_slots(old_values, y.values, y_nnz)
    ensure_fits(y, nnz=total)
    runs = compact_topology(y.nrow, y.ncol, rows, cols, total, y.offsets, y.columns)
    y.row_counts = None
    y._copy_nnz_async()
    sum_runs(runs, y.scalar_values, scalar_view(old_values, y.block_shape),
             beta, x.scalar_values[:x_nnz], alpha)


def bsr_axpy(x, y=None, alpha=1.0, beta=1.0, masked=False, work_arrays=None, topology=None):
    """y := alpha * x + beta * y and returns y (``x`` a matrix or scaled expression; the two may
    be the same matrix). Without ``y`` a new matrix holds alpha * x. ``work_arrays`` (a
    bsr_axpy_work_arrays) keeps temporary storage across calls. ``topology``: "compact"
    (default) merges the topologies; "masked" (or the deprecated ``masked=True``) keeps y's,
    dropping x's blocks outside it; "padded" writes the rows into y's row capacity and records
    overflow in ``y.status_sync()``."""
    x, x_scale = matrix_and_scale(x, _FUNCTION)
    alpha = alpha * x_scale
    topology = normalise_topology(_FUNCTION, topology, masked, ("compact", "masked", "padded"))
    if y is None:
        if topology != "compact":
            raise ValueError(f"{_FUNCTION}(): Left-hand-side 'y' matrix must be provided for "
                             f"topology={topology!r}")
        y = bsr_zeros(x.nrow, x.ncol, x.values.dtype, device=x.device)
        y.values.requires_grad = x.requires_grad
        beta = 0.0

    if topology == "padded":
        _check_operands(x, y)
        if x is y:
            return bsr_scale(y, alpha + beta)
        if beta == 0.0:
            copy_into_capacity(y, x, alpha)
            return y
        if alpha == 0.0 or x.nnz == 0:
            return bsr_scale(y, beta)
        merged = snapshot(y)
        _merge(x, merged, alpha, beta, work_arrays)
        copy_into_capacity(y, merged)
        return y

    if beta == 0.0 or y.nnz == 0:
        bsr_assign(y, x, topology=topology)
        return bsr_scale(y, alpha)
    if alpha == 0.0 or x.nnz == 0:
        return bsr_scale(y, beta)
    if x is y:
        return bsr_scale(y, alpha + beta)
    _check_operands(x, y)
    if topology == "masked":
        bsr_scale(y, beta)
        sources = empty(y.nnz, dtype=int, device=y.device)
        launch(_masked_sources, dim=y.nnz, device=y.device, record_tape=False,
               inputs=[y.nrow, x.offsets, x.row_counts, x.columns, y.offsets, y.row_counts,
                       y.columns, sources])
        gather(sources, x.scalar_values, y.scalar_values, alpha, accumulate=True)
        return y
    _merge(x, y, alpha, beta, work_arrays)
    return y
