"""treadle.sparse block diagonals: bsr_get_diag, bsr_set_diag, bsr_diag, bsr_set_identity and
bsr_identity."""

import numpy as np

from .. import types as _types
from ..array import array, empty, zeros
from ..array_copy import copy
from ..builtin_functions import tid
from ..kernel import kernel
from ..launch import launch
from .construct import bsr_zeros
from .expression import matrix_and_scale
from .funcs import bsr_block_index
from .storage import ensure_fits, resize, scalar_view
from .values import gather


@kernel(enable_backward=False)
def _diagonal_sources(
    offsets: array(dtype=int),
    row_counts: array(dtype=int),
    columns: array(dtype=int),
    sources: array(dtype=int),
):
    row = tid()
    sources[row] = bsr_block_index(row, row, offsets, columns, row_counts)


@kernel(enable_backward=False)
def _diagonal_topology(count: int, offsets: array(dtype=int), columns: array(dtype=int)):
    row = tid()
    offsets[row] = min(row, count)
    if row < count:
        columns[row] = row


def bsr_get_diag(A, out=None):
    """The diagonal blocks of ``A`` (a matrix or scaled expression), min(nrow, ncol) of them,
    zero where A has no block; written into ``out`` when given."""
    A, scale = matrix_and_scale(A, "bsr_get_diag")
    count = min(A.nrow, A.ncol)
    if out is None:
        out = zeros(count, dtype=A.values.dtype, device=A.device)
    else:
        if not _types.types_equal(out.dtype, A.values.dtype):
            raise ValueError(f"bsr_get_diag(): Output array must have type "
                             f"{_types.type_repr(A.values.dtype)}, got "
                             f"{_types.type_repr(out.dtype)}")
        if out.device != A.device:
            raise ValueError(f"bsr_get_diag(): Output array must reside on device {A.device}, "
                             f"got {out.device}")
        if out.shape[0] < count:
            raise ValueError(f"bsr_get_diag(): Output array must be of length at least "
                             f"{count}, got {out.shape[0]}")
        out.zero_()
    sources = empty(count, dtype=int, device=A.device)
    if count > 0:
        launch(_diagonal_sources, dim=count, device=A.device, record_tape=False,
               inputs=[A.offsets, A.row_counts, A.columns, sources])
    gather(sources, A.scalar_values, scalar_view(out, A.block_shape), scale)
    return out


def bsr_set_diag(A, diag, rows_of_blocks=None, cols_of_blocks=None):
    """Makes ``A`` block diagonal (compact): ``diag`` is an array of blocks (one per diagonal
    block), one block value for all of them, or None (values left as they are). The size is
    ``rows_of_blocks`` x ``cols_of_blocks`` (one given: square), else diag's length, else A's."""
    if rows_of_blocks is None and cols_of_blocks is not None:
        rows_of_blocks = cols_of_blocks
    if cols_of_blocks is None and rows_of_blocks is not None:
        cols_of_blocks = rows_of_blocks
    if isinstance(diag, array) and rows_of_blocks is None:
        rows_of_blocks = cols_of_blocks = diag.shape[0]
    if rows_of_blocks is not None:
        resize(A, rows_of_blocks, cols_of_blocks)
    count = min(A.nrow, A.ncol)
    ensure_fits(A, nnz=count)
    launch(_diagonal_topology, dim=A.nrow + 1, device=A.device, record_tape=False,
           inputs=[count, A.offsets, A.columns])
    A.row_counts = None
    A.notify_nnz_changed(nnz=count)
    if isinstance(diag, array):
        if count > 0:
            copy(dest=A.values, src=diag, count=count)
    elif diag is not None:
        A.values.fill_(diag)


def bsr_diag(diag=None, rows_of_blocks=None, cols_of_blocks=None, block_type=None, device=None):
    """A new block-diagonal matrix: ``diag`` is an array of blocks (giving the block type,
    device and, by default, the size), one block value for every diagonal block (then
    ``rows_of_blocks`` is required), or None (``block_type`` required, values unset)."""
    if rows_of_blocks is None and cols_of_blocks is not None:
        rows_of_blocks = cols_of_blocks
    if cols_of_blocks is None and rows_of_blocks is not None:
        cols_of_blocks = rows_of_blocks
    if isinstance(diag, array):
        if rows_of_blocks is None:
            rows_of_blocks = cols_of_blocks = diag.shape[0]
        block_type = diag.dtype
        device = diag.device
    elif rows_of_blocks is None:
        raise ValueError("bsr_diag(): rows_of_blocks and/or cols_of_blocks must be provided for "
                         "a diagonal matrix with a uniform diagonal")
    if block_type is None:
        if diag is None:
            raise ValueError("bsr_diag(): Either `diag` or `block_type` needs to be provided")
        block_type = type(diag)
        if not _types.type_is_matrix(block_type) and len(getattr(diag, "shape", ())) == 2:
            block_type = _types.matrix(shape=diag.shape, dtype=diag.dtype)
    A = bsr_zeros(rows_of_blocks, cols_of_blocks, block_type, device=device)
    if isinstance(diag, array):
        A.values.requires_grad = diag.requires_grad
    bsr_set_diag(A, diag)
    return A


def bsr_set_identity(A, rows_of_blocks=None):
    """Makes ``A`` the identity (square blocks), optionally resized to ``rows_of_blocks``
    square."""
    if A.block_shape == (1, 1):
        identity = A.scalar_type(1.0)
    else:
        identity = np.eye(A.block_shape[0])
    bsr_set_diag(A, identity, rows_of_blocks=rows_of_blocks, cols_of_blocks=rows_of_blocks)


def bsr_identity(rows_of_blocks, block_type, device=None):
    """A new square identity matrix of ``rows_of_blocks`` blocks of ``block_type``."""
    A = bsr_zeros(rows_of_blocks, rows_of_blocks, block_type, device=device)
    bsr_set_identity(A)
    return A
