"""treadle.sparse.bsr_mm: ``z := alpha * x @ y + beta * z`` on matrices.

The compact product lists its terms (mm_kernels.py), prepends the old blocks of z when beta is
not zero, and builds z's topology from all of them (coo.compact_topology); each result block
then sums beta times its old value and alpha times its terms. The term count is read back to
the host unless ``max_new_nnz`` bounds it or ``reuse_topology`` takes the previous call's list
from the work arrays (then no host synchronisation is needed, as for graph capture).
"""

from .. import types as _types
from ..array import empty
from ..array_utils import array_scan
from ..launch import launch
from . import mm_kernels
from .assign import snapshot
from .construct import bsr_zeros
from .coo import compact_topology
from .expression import matrix_and_scale
from .padded import copy_into_capacity
from .scale import bsr_scale
from .storage import copy_slots, ensure_fits, normalise_topology, same_device, scalar_view

_FUNCTION = "bsr_mm"


class bsr_mm_work_arrays:  # noqa: N801 - Warp's name
    """Temporary buffers that bsr_mm keeps across calls, and the product terms of the last
    compact call (what ``reuse_topology=True`` reuses)."""

    def __init__(self):
        self._reset(None)

    def _reset(self, device):
        self.device = device
        self._row_min = None
        self._term_offsets = None
        self._term_rows = None
        self._term_cols = None
        self._term_sources = None
        self._term_count = 0
        self._copied = 0
        self._result_nnz = 0

    def _list_terms(self, x, y, z, max_new_nnz):
        """Counts and lists the terms of x @ y; returns False when there is none."""
        if self.device != z.device:
            self._reset(z.device)
        device = z.device
        if self._row_min is None or self._row_min.size < x.nrow:
            self._row_min = empty(max(x.nrow, 1), dtype=int, device=device)
        if self._term_offsets is None or self._term_offsets.size < x.nnz + 1:
            self._term_offsets = empty(x.nnz + 1, dtype=int, device=device)
        offsets = self._term_offsets[: x.nnz + 1]
        offsets.zero_()
        launch(mm_kernels.count_terms, dim=x.nrow, device=device, record_tape=False,
               inputs=[y.ncol, x.offsets, x.row_counts, x.columns, y.offsets, y.row_counts,
                       y.columns, self._row_min, offsets])
        array_scan(offsets, offsets, inclusive=True)
        if max_new_nnz is None:
            count = int(offsets[x.nnz :].numpy()[0])
        else:
            count = int(max_new_nnz)
        self._term_count = count
        if count == 0:
            return False
        if self._term_rows is None or self._term_rows.size < count:
            self._term_rows = empty(count, dtype=int, device=device)
            self._term_cols = empty(count, dtype=int, device=device)
            self._term_sources = empty(count, dtype=int, device=device)
        launch(mm_kernels.list_terms, dim=count, device=device, record_tape=False,
               inputs=[count, x.nnz, x.nrow, x.offsets, x.row_counts, x.columns, y.offsets,
                       y.columns, self._row_min, offsets, self._term_rows, self._term_cols,
                       self._term_sources])
        return True


def _check_operands(x, y, z):
    same_device(_FUNCTION, x, y, z)
    if not (x.scalar_type is y.scalar_type is z.scalar_type):
        raise ValueError(f"{_FUNCTION}(): Matrices must have the same scalar type (got "
                         f"{_types.type_repr(x.scalar_type)}, {_types.type_repr(y.scalar_type)} "
                         f"and {_types.type_repr(z.scalar_type)})")
    if (x.block_shape[0] != z.block_shape[0] or y.block_shape[1] != z.block_shape[1]
            or x.block_shape[1] != y.block_shape[0]):
        raise ValueError(f"{_FUNCTION}(): Incompatible block sizes for matrix multiplication "
                         f"(got {x.block_shape}, {y.block_shape} and {z.block_shape})")
    if x.nrow != z.nrow or z.ncol != y.ncol or x.ncol != y.nrow:
        raise ValueError(f"{_FUNCTION}(): Incompatible number of rows/columns for matrix "
                         f"multiplication (got ({x.nrow}, {x.ncol}), ({y.nrow}, {y.ncol}) and "
                         f"({z.nrow}, {z.ncol}))")


def _operand_args(m):
    return [m.offsets, m.row_counts, m.columns, m.scalar_values]


def _masked_product(x, y, z, alpha, beta):
    if beta == 0.0:
        z.values.zero_()
    else:
        bsr_scale(z, beta)
    if z.nnz > 0:
        launch(mm_kernels.add_masked_products, dim=(z.nnz, *z.block_shape), device=z.device,
               record_tape=False,
               inputs=[z.scalar_type(float(alpha)), z.nrow, z.offsets, z.row_counts, z.columns,
                       *_operand_args(x), *_operand_args(y), z.scalar_values])
    return z


def _compact_product(x, y, z, alpha, beta, work, reuse_topology, max_new_nnz):
    device = z.device
    if not reuse_topology:
        if max_new_nnz is None:
            if device.is_capturing:
                raise RuntimeError(
                    f"{_FUNCTION}(): a graph capture needs reuse_topology=True, "
                    "topology='masked' or max_new_nnz (the product size cannot be read back)")
            if beta != 0.0:
                z.nnz_sync()
        if not work._list_terms(x, y, z, max_new_nnz):
            return bsr_scale(z, beta)
    elif work._term_count == 0:
        return bsr_scale(z, beta)
    terms = work._term_count
    copied = z.nnz if beta != 0.0 else 0
    total = copied + terms
    rows = empty(total, dtype=int, device=device)
    cols = empty(total, dtype=int, device=device)
    old_values = empty(copied, dtype=z.values.dtype, device=device)
    if copied > 0:
        z.uncompress_rows(out=rows)
        copy_slots(cols, z.columns, copied)
        copy_slots(old_values, z.values, copied)
    copy_slots(rows, work._term_rows, terms, dest_offset=copied)
    copy_slots(cols, work._term_cols, terms, dest_offset=copied)
    if z.columns.size < total:
        z.columns = empty(total, dtype=int, device=device)
    runs = compact_topology(z.nrow, z.ncol, rows, cols, total, z.offsets, z.columns)
    z.row_counts = None
    z._copy_nnz_async()
    if reuse_topology and copied == work._copied:
        result_nnz = work._result_nnz
    elif max_new_nnz is None and not reuse_topology:
        result_nnz = z.nnz_sync()
    else:
        result_nnz = total
    work._copied, work._result_nnz = copied, result_nnz
    ensure_fits(z, nnz=result_nnz)
    if result_nnz > 0:
        scalar = z.scalar_type
        launch(mm_kernels.product_values, dim=(result_nnz, *z.block_shape), device=device,
               record_tape=False,
               inputs=[scalar(float(alpha)), scalar(float(beta)), z.nrow, z.offsets, z.columns,
                       runs.ends, runs.sources, copied,
                       scalar_view(old_values, z.block_shape), work._term_sources,
                       work._term_offsets, work._row_min, *_operand_args(x),
                       *_operand_args(y), z.scalar_values])
    return z


def bsr_mm(x, y, z=None, alpha=1.0, beta=0.0, masked=False, work_arrays=None,
           reuse_topology=False, tile_size=0, max_new_nnz=None, topology=None):
    """z := alpha * x @ y + beta * z and returns z (``x``, ``y`` matrices or scaled
    expressions; any of the three may be the same matrix). Without ``z`` a new matrix holds
    alpha * x @ y. ``work_arrays`` (a bsr_mm_work_arrays) keeps temporary storage across calls;
    with ``reuse_topology=True`` it also supplies the product terms of the previous call on
    structurally equal operands. ``max_new_nnz`` bounds the new blocks (the excess is
    dropped, with a message) and avoids the host readback of the product size. ``topology``:
    "compact" (default) rebuilds z; "masked" (or the deprecated ``masked=True``) keeps z's
    blocks only; "padded" writes the rows into z's row capacity and records overflow in
    ``z.status_sync()``. ``tile_size`` is accepted for Warp's signature and not used."""
    x, x_scale = matrix_and_scale(x, _FUNCTION)
    y, y_scale = matrix_and_scale(y, _FUNCTION)
    alpha = alpha * x_scale * y_scale
    topology = normalise_topology(_FUNCTION, topology, masked, ("compact", "masked", "padded"))
    if reuse_topology and topology != "compact":
        raise ValueError(f"{_FUNCTION}(): reuse_topology is only supported with "
                         "topology='compact'")
    if z is None:
        if topology != "compact":
            raise ValueError(f"{_FUNCTION}(): Left-hand-side 'z' matrix must be provided for "
                             f"topology={topology!r}")
        shape = (x.block_shape[0], y.block_shape[1])
        block_type = (x.scalar_type if shape == (1, 1)
                      else _types.matrix(shape=shape, dtype=x.scalar_type))
        z = bsr_zeros(x.nrow, y.ncol, block_type, device=x.device)
        z.values.requires_grad = x.requires_grad or y.requires_grad
        beta = 0.0
    _check_operands(x, y, z)
    if reuse_topology and work_arrays is None:
        raise ValueError(f"{_FUNCTION}(): `work_arrays` must not be None in order to reuse the "
                         "matrix-matrix product topology")
    if alpha == 0.0 or x.nnz == 0 or y.nnz == 0:
        return bsr_scale(z, beta)
    if z is x or z is y:
        operand = snapshot(z)
        x = operand if z is x else x
        y = operand if z is y else y
    if topology == "masked":
        return _masked_product(x, y, z, alpha, beta)
    work = bsr_mm_work_arrays() if work_arrays is None else work_arrays
    if topology == "padded":
        product = snapshot(z) if beta != 0.0 else bsr_zeros(z.nrow, z.ncol, z.values.dtype,
                                                            device=z.device)
        _compact_product(x, y, product, alpha, beta, work, False, max_new_nnz)
        copy_into_capacity(z, product)
        return z
    return _compact_product(x, y, z, alpha, beta, work, reuse_topology, max_new_nnz)

