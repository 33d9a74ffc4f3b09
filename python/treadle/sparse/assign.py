"""treadle.sparse copies: bsr_assign and bsr_copy, which may change the scalar type and the block
shape (blocks split into, or merged from, blocks whose sides divide theirs).

A source block is cut into ``src_subrows x src_subcols`` pieces, each lying in one destination
block (``dest_subrows x dest_subcols`` pieces make a destination block). The compact topology
comes from the pieces' destination coordinates (coo.compact_topology); the values are scattered
piece by piece into the block found by a search of the destination row.
"""

from typing import Any

from .. import types as _types
from ..array import array, empty
from ..array_copy import copy
from ..array_utils import array_scan
from ..builtin_functions import atomic_add, tid
from ..kernel import kernel
from ..launch import launch
from .construct import bsr_zeros
from .coo import compact_topology
from .expression import matrix_and_scale
from .funcs import bsr_block_index, bsr_row_index
from .padded import copy_into_capacity
from .scale import bsr_scale
from .storage import ensure_fits, normalise_topology, resize, same_device


@kernel(enable_backward=False)
def _piece_coordinates(
    src_subrows: int,
    src_subcols: int,
    dest_subrows: int,
    dest_subcols: int,
    row_count: int,
    offsets: array(dtype=int),
    row_counts: array(dtype=int),
    columns: array(dtype=int),
    dest_rows: array(dtype=int),
    dest_cols: array(dtype=int),
    splits: array(dtype=int),
):
    block, subrow, subcol = tid()
    piece = (block * src_subrows + subrow) * src_subcols + subcol
    row = bsr_row_index(offsets, row_count, block, row_counts)
    if row == -1:
        dest_rows[piece] = -1
        dest_cols[piece] = -1
        return
    dest_subrow = row * src_subrows + subrow
    dest_subcol = columns[block] * src_subcols + subcol
    dest_rows[piece] = dest_subrow // dest_subrows
    dest_cols[piece] = dest_subcol // dest_subcols
    splits[piece] = (dest_subrow % dest_subrows) * dest_subcols + dest_subcol % dest_subcols


@kernel(enable_backward=False)
def _piece_targets(
    dest_rows: array(dtype=int),
    dest_cols: array(dtype=int),
    offsets: array(dtype=int),
    row_counts: array(dtype=int),
    columns: array(dtype=int),
    targets: array(dtype=int),
):
    piece = tid()
    targets[piece] = bsr_block_index(dest_rows[piece], dest_cols[piece], offsets, columns,
                                     row_counts)


@kernel
def _scatter_pieces(
    scale: Any,
    src_subrows: int,
    src_subcols: int,
    dest_subcols: int,
    targets: array(dtype=int),
    splits: array(dtype=int),
    src_values: array(dtype=Any, ndim=3),
    dest_values: array(dtype=Any, ndim=3),
):
    block, subrow, subcol = tid()
    piece = (block * src_subrows + subrow) * src_subcols + subcol
    target = targets[piece]
    if target < 0:
        return
    piece_rows = src_values.shape[1] // src_subrows
    piece_cols = src_values.shape[2] // src_subcols
    dest_i = (splits[piece] // dest_subcols) * piece_rows
    dest_j = (splits[piece] % dest_subcols) * piece_cols
    src_i = subrow * piece_rows
    src_j = subcol * piece_cols
    for i in range(piece_rows):
        for j in range(piece_cols):
            value = dest_values.dtype(scale * src_values[block, src_i + i, src_j + j])
            atomic_add(dest_values, target, dest_i + i, dest_j + j, value)


@kernel(enable_backward=False)
def _reblocked_capacity(
    src_subrows: int,
    src_subcols: int,
    dest_subrows: int,
    src_row_count: int,
    src_offsets: array(dtype=int),
    dest_offsets: array(dtype=int),
):
    dest_row = tid()
    if dest_row == 0:
        dest_offsets[0] = 0
    first = dest_row * dest_subrows
    src_end = min(src_row_count, (first + dest_subrows + src_subrows - 1) // src_subrows)
    capacity = int(0)
    for src_row in range(first // src_subrows, src_end):
        capacity += (src_offsets[src_row + 1] - src_offsets[src_row]) * src_subcols
    dest_offsets[dest_row + 1] = capacity


class Reblocking:
    """How blocks of ``src_shape`` map onto blocks of ``dest_shape`` for a source of
    ``src_blocks`` (rows, cols) blocks; ValueError when the shapes do not divide each other."""

    def __init__(self, function, src_shape, dest_shape, src_blocks):
        sides = []
        for axis, what in ((0, "rows"), (1, "columns")):
            src_side, dest_side = src_shape[axis], dest_shape[axis]
            big, small = max(src_side, dest_side), min(src_side, dest_side)
            if big % small != 0:
                raise ValueError(
                    f"{function}(): Incompatible dest and src block shapes; block {what} must "
                    f"evenly divide one another (got {dest_side} and {src_side})")
            sides.append((src_side // small, dest_side // small))
        (self.src_subrows, self.dest_subrows), (self.src_subcols, self.dest_subcols) = sides
        self.nrow = src_blocks[0] * self.src_subrows // self.dest_subrows
        self.ncol = src_blocks[1] * self.src_subcols // self.dest_subcols
        if (self.nrow * self.dest_subrows != src_blocks[0] * self.src_subrows
                or self.ncol * self.dest_subcols != src_blocks[1] * self.src_subcols):
            total = (src_blocks[0] * src_shape[0], src_blocks[1] * src_shape[1])
            raise ValueError(f"{function}(): The requested block shape {tuple(dest_shape)} does "
                             f"not evenly divide the source matrix of total size {total}")
        self.pieces = self.src_subrows * self.src_subcols

    def kernel_args(self):
        """The four piece counts, as the kernels take them."""
        return [self.src_subrows, self.src_subcols, self.dest_subrows, self.dest_subcols]


class _Pieces:
    """The destination coordinates of every piece of ``src`` (see the module notes)."""

    def __init__(self, src, reblock, device):
        self.count = src.nnz * reblock.pieces
        self.reblock = reblock
        self.rows = empty(self.count, dtype=int, device=device)
        self.cols = empty(self.count, dtype=int, device=device)
        self.splits = empty(self.count, dtype=int, device=device)
        if src.nnz > 0:
            launch(_piece_coordinates, dim=(src.nnz, reblock.src_subrows, reblock.src_subcols),
                   device=device, record_tape=False,
                   inputs=[*reblock.kernel_args(), src.nrow, src.offsets, src.row_counts,
                           src.columns, self.rows, self.cols, self.splits])

    def scatter(self, dest, src, scale):
        """Adds every piece of ``src`` (times ``scale``) into the dest block holding it, if
        dest has one (found now, so the taped value kernel reads no topology)."""
        if self.count == 0:
            return
        targets = empty(self.count, dtype=int, device=dest.device)
        launch(_piece_targets, dim=self.count, device=dest.device, record_tape=False,
               inputs=[self.rows, self.cols, dest.offsets, dest.row_counts, dest.columns,
                       targets])
        reblock = self.reblock
        launch(_scatter_pieces, dim=(src.nnz, reblock.src_subrows, reblock.src_subcols),
               device=dest.device,
               inputs=[src.scalar_type(float(scale)), reblock.src_subrows, reblock.src_subcols,
                       reblock.dest_subcols, targets, self.splits, src.scalar_values],
               outputs=[dest.scalar_values])


def _assign_compact(dest, src, scale, reblock, structure_only):
    """dest := scale * src with dest's compact topology rebuilt (dest is not src)."""
    pieces = _Pieces(src, reblock, dest.device)
    ensure_fits(dest, nnz=pieces.count)
    compact_topology(dest.nrow, dest.ncol, pieces.rows, pieces.cols, pieces.count,
                     dest.offsets, dest.columns)
    dest.row_counts = None
    dest._copy_nnz_async()
    if not structure_only:
        dest.values.zero_()
        pieces.scatter(dest, src, scale)


def _check_size(function, dest, reblock):
    if (dest.nrow, dest.ncol) != (reblock.nrow, reblock.ncol):
        raise ValueError(f"{function}(): Incompatible destination matrix size, expected "
                         f"({reblock.nrow}, {reblock.ncol}), got ({dest.nrow}, {dest.ncol})")


def bsr_assign(dest, src, structure_only=False, masked=False, topology=None):
    """Copies ``src`` (a matrix or scaled expression) into ``dest``, casting the scalar type and
    splitting or merging blocks to dest's block shape. ``structure_only`` copies the topology
    only. ``topology``: "compact" (default) rebuilds dest's topology (and size); "masked" (or
    the deprecated ``masked=True``) keeps it, dropping blocks outside it; "padded" writes the
    rows into dest's row capacity and records overflow in ``dest.status_sync()``."""
    src, scale = matrix_and_scale(src, "bsr_assign")
    same_device("bsr_assign", dest, src)
    topology = normalise_topology("bsr_assign", topology, masked,
                                  ("compact", "masked", "padded"))
    reblock = Reblocking("bsr_assign", src.block_shape, dest.block_shape, (src.nrow, src.ncol))
    if topology == "compact":
        resize(dest, reblock.nrow, reblock.ncol)
    else:
        _check_size("bsr_assign", dest, reblock)
    if dest is src:
        if not structure_only and scale != 1.0:
            bsr_scale(dest, scale)
        return
    if topology == "masked":
        if not structure_only:
            dest.values.zero_()
            _Pieces(src, reblock, dest.device).scatter(dest, src, scale)
        return
    if topology == "compact":
        _assign_compact(dest, src, scale, reblock, structure_only)
        return
    if dest.block_shape == src.block_shape:
        copy_into_capacity(dest, src, scale, structure_only)
        return
    compact = bsr_zeros(dest.nrow, dest.ncol, dest.values.dtype, device=dest.device)
    compact.values.requires_grad = src.requires_grad
    _assign_compact(compact, src, scale, reblock, structure_only)
    copy_into_capacity(dest, compact, 1.0, structure_only)


def snapshot(src):
    """A compact copy of matrix ``src`` with its block type, for an operation whose output is
    also one of its operands."""
    result = bsr_zeros(src.nrow, src.ncol, src.values.dtype, device=src.device)
    result.values.requires_grad = src.requires_grad
    bsr_assign(result, src)
    return result


def bsr_copy(A, scalar_type=None, block_shape=None, structure_only=False, topology="compact"):
    """A copy of ``A`` (a matrix or scaled expression), optionally of another scalar type or
    block shape (each side a multiple or divisor of A's). ``topology="padded"`` keeps row
    capacity (the rows of A's storage, split or merged like the blocks)."""
    src, scale = matrix_and_scale(A, "bsr_copy")
    if topology not in ("compact", "padded"):
        raise ValueError(f"bsr_copy(): Unsupported topology policy {topology!r} (expected "
                         "'compact' or 'padded')")
    scalar_type = src.scalar_type if scalar_type is None else scalar_type
    block_shape = src.block_shape if block_shape is None else tuple(block_shape)
    if block_shape == (1, 1):
        block_type = scalar_type
    else:
        block_type = _types.matrix(shape=block_shape, dtype=scalar_type)
    reblock = Reblocking("bsr_copy", src.block_shape, block_shape, (src.nrow, src.ncol))
    if topology == "compact":
        result = bsr_zeros(src.nrow, src.ncol, block_type, device=src.device)
        result.values.requires_grad = src.requires_grad
        bsr_assign(result, A, structure_only=structure_only, topology="compact")
        return result

    result = bsr_zeros(reblock.nrow, reblock.ncol, block_type, device=src.device)
    result.values.requires_grad = src.requires_grad
    if block_shape == src.block_shape:
        copy(dest=result.offsets, src=src.offsets, count=src.nrow + 1)
        ensure_fits(result, nnz=src.nnz)
        copy_into_capacity(result, src, scale, structure_only)
        result._copy_nnz_async()
        return result
    if result.nrow > 0:
        launch(_reblocked_capacity, dim=result.nrow, device=src.device, record_tape=False,
               inputs=[reblock.src_subrows, reblock.src_subcols, reblock.dest_subrows, src.nrow,
                       src.offsets, result.offsets])
        array_scan(result.offsets, result.offsets, inclusive=True)
    ensure_fits(result, nnz=src.nnz * reblock.pieces)
    result._copy_nnz_async()
    bsr_assign(result, A, structure_only=structure_only, topology="padded")
    return result
