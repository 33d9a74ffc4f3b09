"""treadle.sparse.bsr_mv: ``y := alpha * A @ x + beta * y`` (or with A transposed). One thread
computes one scalar row of y from its block row; the transposed product scatters every block
column into y with atomic adds (so its float sums are not deterministic, as in Warp)."""

from typing import Any

from .. import types as _types
from ..array import array, empty
from ..array_copy import copy
from ..builtin_functions import atomic_add, tid
from ..kernel import kernel
from ..launch import launch
from .expression import matrix_and_scale
from .funcs import bsr_row_index, row_end
from .storage import same_device

_FUNCTION = "bsr_mv"


@kernel(enable_backward=False)
def _multiply_rows(
    alpha: Any,
    beta: Any,
    offsets: array(dtype=int),
    row_counts: array(dtype=int),
    columns: array(dtype=int),
    values: array(dtype=Any, ndim=3),
    x: array(dtype=Any),
    y: array(dtype=Any),
):
    row, subrow = tid()
    block_cols = values.shape[2]
    yi = row * values.shape[1] + subrow
    zero = type(alpha)(0.0)
    total = zero
    if alpha != zero:
        for block in range(offsets[row], row_end(offsets, row_counts, row)):
            first = columns[block] * block_cols
            for c in range(block_cols):
                total += values[block, subrow, c] * x[first + c]
        total = alpha * total
    if beta != zero:
        total += beta * y[yi]
    y[yi] = total


@kernel(enable_backward=False)
def _multiply_transposed(
    alpha: Any,
    row_count: int,
    offsets: array(dtype=int),
    row_counts: array(dtype=int),
    columns: array(dtype=int),
    values: array(dtype=Any, ndim=3),
    x: array(dtype=Any),
    y: array(dtype=Any),
):
    block, subcol = tid()
    row = bsr_row_index(offsets, row_count, block, row_counts)
    if row == -1:
        return
    block_rows = values.shape[1]
    total = type(alpha)(0.0)
    for r in range(block_rows):
        total += values[block, r, subcol] * x[row * block_rows + r]
    atomic_add(y, columns[block] * values.shape[2] + subcol, alpha * total)


@kernel(enable_backward=False)
def _scale_vector(beta: Any, y: array(dtype=Any)):
    i = tid()
    y[i] = beta * y[i]


def _scalar_vector(a, scalar_type, expected):
    """``a`` (1-D or 2-D, of scalars or vectors of ``scalar_type``) as a 1-D scalar array of
    ``expected`` entries on the same memory; ValueError when it is not one."""
    count = a.size * _types.type_size(a.dtype)
    if count != expected:
        raise ValueError(f"expected {expected} scalars, got {count}")
    if a.ndim == 1 and a.dtype is scalar_type:
        return a
    element_scalar = getattr(a.dtype, "_wp_scalar_type_", a.dtype)
    if element_scalar is not scalar_type:
        raise ValueError(f"expected scalar type {_types.type_repr(scalar_type)}, got "
                         f"{_types.type_repr(a.dtype)}")
    if a.ndim > 2:
        raise ValueError(f"expected 1 or 2 dimensions, got {a.ndim}")
    if not a.is_contiguous:
        raise ValueError("the array must be contiguous")
    if a.dtype is not scalar_type:
        a = a.view(scalar_type)
    return a.flatten()


def bsr_mv(A, x, y=None, alpha=1.0, beta=0.0, transpose=False, work_buffer=None,
           tile_size=0):
    """y := alpha * A @ x + beta * y (``transpose``: A's transpose) and returns y; ``A`` is a
    matrix or scaled expression. ``x`` and ``y`` are arrays of scalars or of vectors of the
    block sides (any layout holding the right number of scalars), and may be the same array
    (``work_buffer``, like y, then holds the copy of x). Without ``y`` a new array is made.
    x is not read when alpha is zero, nor y when beta is. ``tile_size`` is accepted for
    Warp's signature; treadle always runs the thread-per-row kernel."""
    A, scale = matrix_and_scale(A, _FUNCTION)
    alpha = alpha * scale
    if transpose:
        block_shape = A.block_shape[::-1]
        nrow, ncol = A.ncol, A.nrow
    else:
        block_shape = A.block_shape
        nrow, ncol = A.nrow, A.ncol
    scalar = A.scalar_type
    if y is None:
        length = block_shape[0]
        dtype = scalar if length == 1 else _types.vector(length=length, dtype=scalar)
        y = empty(nrow, dtype=dtype, device=A.device, requires_grad=x.requires_grad)
        beta = 0.0
    same_device(_FUNCTION, A, x, y)
    if x.ptr == y.ptr and x.size > 0:
        if work_buffer is None:
            work_buffer = empty(y.shape, dtype=y.dtype, device=y.device)
        elif work_buffer.size < y.size:
            raise ValueError(f"{_FUNCTION}(): Work buffer size is insufficient, needs to be at "
                             f"least {y.size}, got {work_buffer.size}")
        elif not _types.types_equal(work_buffer.dtype, y.dtype):
            raise ValueError(f"{_FUNCTION}(): Work buffer must have same data type as y, "
                             f"{_types.type_repr(y.dtype)} vs "
                             f"{_types.type_repr(work_buffer.dtype)}")
        copy(dest=work_buffer, src=y, count=y.size)
        x = work_buffer
    try:
        x_view = _scalar_vector(x, scalar, ncol * block_shape[1])
    except ValueError as error:
        raise ValueError(f"{_FUNCTION}(): Incompatible 'x' vector ({error})") from error
    try:
        y_view = _scalar_vector(y, scalar, nrow * block_shape[0])
    except ValueError as error:
        raise ValueError(f"{_FUNCTION}(): Incompatible 'y' vector ({error})") from error
    alpha, beta = scalar(float(alpha)), scalar(float(beta))
    values = A.scalar_values
    if not transpose:
        if nrow > 0:
            launch(_multiply_rows, dim=(nrow, block_shape[0]), device=A.device,
                   record_tape=False,
                   inputs=[alpha, beta, A.offsets, A.row_counts, A.columns, values, x_view,
                           y_view])
        return y
    if beta.value == 0.0:
        y_view.zero_()
    elif beta.value != 1.0 and y_view.size > 0:
        launch(_scale_vector, dim=y_view.size, device=A.device, inputs=[beta, y_view])
    if alpha.value != 0.0 and A.nnz > 0:
        launch(_multiply_transposed, dim=(A.nnz, block_shape[0]), device=A.device,
               record_tape=False,
               inputs=[alpha, A.nrow, A.offsets, A.row_counts, A.columns, values, x_view,
                       y_view])
    return y
