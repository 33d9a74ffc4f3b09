"""treadle.sparse transposes: bsr_set_transpose and bsr_transposed. The compact topology of the
transpose comes from the swapped (column, row) coordinates of the active blocks; each block's
value is the transposed sum of its run (coo.sum_runs), so duplicate source blocks add up."""

from .. import types as _types
from ..array import array, empty
from ..builtin_functions import tid
from ..kernel import kernel
from ..launch import launch
from .assign import snapshot
from .construct import bsr_set_zero, bsr_zeros
from .coo import compact_topology, sum_runs
from .expression import matrix_and_scale
from .funcs import bsr_block_index, bsr_row_index
from .padded import copy_into_capacity
from .storage import ensure_fits, normalise_topology, resize, same_device
from .values import gather

_FUNCTION = "bsr_set_transpose"


@kernel(enable_backward=False)
def _transposed_sources(
    row_count: int,
    src_offsets: array(dtype=int),
    src_row_counts: array(dtype=int),
    src_columns: array(dtype=int),
    dest_offsets: array(dtype=int),
    dest_row_counts: array(dtype=int),
    dest_columns: array(dtype=int),
    sources: array(dtype=int),
):
    block = tid()
    row = bsr_row_index(dest_offsets, row_count, block, dest_row_counts)
    sources[block] = -1
    if row != -1:
        sources[block] = bsr_block_index(dest_columns[block], row, src_offsets, src_columns,
                                         src_row_counts)


def _transpose_compact(dest, src, scale):
    """dest := scale * transpose(src), dest's compact topology rebuilt (dest is not src)."""
    resize(dest, src.ncol, src.nrow)
    nnz = src.nnz
    if nnz == 0:
        bsr_set_zero(dest)
        return
    ensure_fits(dest, nnz=nnz)
    runs = compact_topology(dest.nrow, dest.ncol, src.columns, src.uncompress_rows(), nnz,
                            dest.offsets, dest.columns)
    dest.row_counts = None
    dest._copy_nnz_async()
    sum_runs(runs, dest.scalar_values, src.scalar_values[:nnz],
             first_scale=scale, transpose=True)


def bsr_set_transpose(dest, src, masked=False, topology=None):
    """dest := transpose(src), ``src`` a matrix or scaled expression; dest's block shape must
    be src's transposed and its scalar type src's. ``topology``: "compact" (default) rebuilds
    dest; "masked" (or the deprecated ``masked=True``) keeps dest's topology; "padded" writes
    the rows into dest's row capacity and records overflow in ``dest.status_sync()``."""
    src, scale = matrix_and_scale(src, _FUNCTION)
    topology = normalise_topology(_FUNCTION, topology, masked, ("compact", "masked", "padded"))
    same_device(_FUNCTION, dest, src)
    if dest.scalar_type is not src.scalar_type:
        raise ValueError(f"{_FUNCTION}(): All arguments must have the same scalar type (got "
                         f"{_types.type_repr(dest.scalar_type)} and "
                         f"{_types.type_repr(src.scalar_type)})")
    shape = tuple(src.block_shape[::-1])
    if dest.block_shape != shape:
        raise ValueError(f"{_FUNCTION}(): Destination block shape must be {shape}, got "
                         f"{dest.block_shape}")
    if topology != "compact" and (dest.nrow, dest.ncol) != (src.ncol, src.nrow):
        raise ValueError(f"{_FUNCTION}(): Destination matrix must have {src.ncol} rows and "
                         f"{src.nrow} columns, got {dest.nrow} and {dest.ncol}")
    if dest is src:
        src = snapshot(src)
    if topology == "masked":
        dest.values.zero_()
        sources = empty(dest.nnz, dtype=int, device=dest.device)
        if dest.nnz > 0:
            launch(_transposed_sources, dim=dest.nnz, device=dest.device, record_tape=False,
                   inputs=[dest.nrow, src.offsets, src.row_counts, src.columns, dest.offsets,
                           dest.row_counts, dest.columns, sources])
        gather(sources, src.scalar_values, dest.scalar_values, scale, transpose=True)
        return
    if topology == "padded":
        compact = bsr_zeros(dest.nrow, dest.ncol, dest.values.dtype, device=dest.device)
        compact.values.requires_grad = src.requires_grad
        _transpose_compact(compact, src, scale)
        copy_into_capacity(dest, compact)
        return
    _transpose_compact(dest, src, scale)


def bsr_transposed(A):
    """A new compact matrix holding the transpose of ``A`` (a matrix or scaled expression)."""
    if A.block_shape == (1, 1):
        block_type = A.values.dtype
    else:
        block_type = _types.matrix(shape=A.block_shape[::-1], dtype=A.scalar_type)
    result = bsr_zeros(A.ncol, A.nrow, block_type, device=A.device)
    result.values.requires_grad = A.requires_grad
    bsr_set_transpose(result, A)
    return result
