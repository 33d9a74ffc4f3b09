"""The left-hand sides of the linear solvers: ``LinearOperator`` (a shape, a dtype, a device and a
generalised product ``z = alpha A x + beta y``), ``aslinearoperator`` for dense 2-D arrays,
diagonals (1-D arrays) and ``treadle.sparse`` BSR matrices, and the Jacobi preconditioners of
``preconditioner``.

Every product is one or two kernel launches on the operator's device with no host
synchronisation, so solver iterations can be captured in CUDA graphs.
"""

from typing import Any

from ... import builtin_functions as wpb
from ...array import array, empty
from ...array_copy import copy
from ...context import get_device
from ...kernel import func, kernel
from ...launch import launch
from ...scalar_types import int32
from ...sparse.diag import bsr_get_diag
from ...sparse.matrix import BsrMatrix
from ...sparse.mv import bsr_mv
from ...type_queries import type_is_matrix, type_is_vector
from ...vec_types import vector
from .layout import scalar_type_of, scalar_view


class LinearOperator:
    """A linear operator for the iterative solvers (Warp's ``warp.optim.linear.LinearOperator``).

    Args:
        shape: (rows, columns) of the operator.
        dtype: type of its elements (a scalar, or a block type).
        device: the device its products run on.
        matvec: ``matvec(x, y, z, alpha, beta)`` computes ``z = alpha * (A @ x) + beta * y``
            with device work only; it must not read ``x`` when alpha is 0 nor ``y`` when beta
            is 0, and ``z`` may be ``y``.
        batch_offsets: optional 1-D int32 array of ``B + 1`` non-decreasing scalar-dof offsets
            that split the system into ``B`` independent subproblems (aligned to whole elements
            for vector-valued solver vectors); dofs at or past ``batch_offsets[-1]`` are an
            inactive tail that the solvers leave untouched. None: one subproblem.
        max_batch_length: optional upper bound on the dofs of any subproblem (requires
            ``batch_offsets``); it lets CUDA reductions skip tree levels without reading the
            offsets on the host. Stateful solvers require it to stay fixed between calls.

    The solvers capture their iterations in CUDA graphs by default; pass ``use_cuda_graph=False``
    to them when ``matvec`` cannot be captured.
    """

    def __init__(self, shape, dtype, device, matvec, batch_offsets=None, max_batch_length=None):
        if max_batch_length is not None:
            if batch_offsets is None:
                raise ValueError("LinearOperator(): max_batch_length requires batch_offsets")
            if max_batch_length < 0:
                raise ValueError(f"LinearOperator(): max_batch_length must be non-negative "
                                 f"(got {max_batch_length})")
        if batch_offsets is not None:
            if (not isinstance(batch_offsets, array) or batch_offsets.ndim != 1
                    or batch_offsets.dtype is not int32 or batch_offsets.shape[0] < 1):
                raise ValueError("LinearOperator(): batch_offsets must be a 1-D int32 array "
                                 "with at least one entry")
        self._shape = tuple(shape)
        self._dtype = dtype
        self._device = get_device(device)
        self._matvec = matvec
        self._batch_offsets = batch_offsets
        self._max_batch_length = max_batch_length

    @property
    def shape(self):
        """(rows, columns) of the operator."""
        return self._shape

    @property
    def dtype(self):
        """The type of the operator's elements."""
        return self._dtype

    @property
    def device(self):
        """The device the operator's products run on."""
        return self._device

    @property
    def matvec(self):
        """The product ``matvec(x, y, z, alpha, beta)``: z = alpha A x + beta y."""
        return self._matvec

    @property
    def scalar_type(self):
        """The scalar type of the operator's elements."""
        return scalar_type_of(self._dtype)

    @property
    def batch_offsets(self):
        """The offsets splitting the scalar dofs into subproblems, or None (one subproblem)."""
        return self._batch_offsets

    @property
    def batch_count(self):
        """The number of independent subproblems (1 without batch_offsets)."""
        return 1 if self._batch_offsets is None else self._batch_offsets.shape[0] - 1

    @property
    def max_batch_length(self):
        """The bound on the dofs of any subproblem, or None."""
        return self._max_batch_length


@kernel(enable_backward=False)
def _dense_matvec(
    A: array(dtype=Any, ndim=2),
    x: array(dtype=Any),
    y: array(dtype=Any),
    z: array(dtype=Any),
    alpha: Any,
    beta: Any,
):
    """z[row] = alpha * (A[row] . x) + beta * y[row]; the lanes of a block (one on the CPU) split
    the row's columns and add their partial sums as a tile."""
    row, lane = wpb.tid()
    zero = type(alpha)(0.0)
    partial = z.dtype(zero)
    if alpha != zero:
        for col in range(lane, A.shape[1], wpb.block_dim()):
            partial += A[row, col] * x[col]
    total = wpb.tile_sum(wpb.tile(partial, preserve_type=True))
    value = alpha * total[0]
    if beta != zero:
        value += beta * y[row]
    if lane == 0:
        z[row] = value


@kernel(enable_backward=False)
def _diagonal_matvec(
    d: array(dtype=Any),
    x: array(dtype=Any),
    y: array(dtype=Any),
    z: array(dtype=Any),
    alpha: Any,
    beta: Any,
):
    """z[i] = alpha * d[i] * x[i] + beta * y[i] over scalars."""
    i = wpb.tid()
    zero = type(alpha)(0.0)
    value = zero
    if alpha != zero:
        value += alpha * d[i] * x[i]
    if beta != zero:
        value += beta * y[i]
    z[i] = value


def _dense_lanes(A):
    """Threads per row of a dense product: 1 on the CPU, a power of two from 32 to 256 that
    covers the row on CUDA."""
    if not A.device.is_cuda:
        return 1
    lanes = 32
    while lanes < min(A.shape[1], 256):
        lanes *= 2
    return lanes


def _dense_operator(A, batch_offsets, max_batch_length):
    scalar = scalar_type_of(A.dtype)
    lanes = _dense_lanes(A)

    def matvec(x, y, z, alpha, beta):
        launch(_dense_matvec, dim=(A.shape[0], lanes), block_dim=lanes, device=A.device,
               inputs=[A, x, y, z, scalar(alpha), scalar(beta)], record_tape=False)

    return LinearOperator(A.shape, A.dtype, A.device, matvec, batch_offsets, max_batch_length)


def _diagonal_operator(d, batch_offsets, max_batch_length):
    scalar = scalar_type_of(d.dtype)
    d_scalars = scalar_view(d, "aslinearoperator()")

    def matvec(x, y, z, alpha, beta):
        who = "LinearOperator.matvec()"
        launch(_diagonal_matvec, dim=d_scalars.shape[0], device=d.device, record_tape=False,
               inputs=[d_scalars, scalar_view(x, who), scalar_view(y, who), scalar_view(z, who),
                       scalar(alpha), scalar(beta)])

    return LinearOperator(d.shape, d.dtype, d.device, matvec, batch_offsets, max_batch_length)


def _bsr_operator(A, batch_offsets, max_batch_length):
    def matvec(x, y, z, alpha, beta):
        if beta != 0.0 and z.ptr != y.ptr:
            copy(dest=z, src=y)
        bsr_mv(A, x, z, alpha, beta)

    return LinearOperator(A.shape, A.dtype, A.device, matvec, batch_offsets, max_batch_length)


def aslinearoperator(A, batch_offsets=None, max_batch_length=None):
    """``A`` as a LinearOperator (Warp's ``aslinearoperator``): a ``treadle.sparse.BsrMatrix``,
    a 2-D array (a dense matrix), a 1-D array (a diagonal matrix of scalars or vectors), or a
    LinearOperator or None, returned as they are (``batch_offsets`` and ``max_batch_length``
    are then ignored). ``batch_offsets`` and ``max_batch_length``: see LinearOperator."""
    if A is None or isinstance(A, LinearOperator):
        return A
    if isinstance(A, BsrMatrix):
        return _bsr_operator(A, batch_offsets, max_batch_length)
    if isinstance(A, array) and A.ndim == 2:
        return _dense_operator(A, batch_offsets, max_batch_length)
    if isinstance(A, array) and A.ndim == 1:
        return _diagonal_operator(A, batch_offsets, max_batch_length)
    raise ValueError(f"aslinearoperator(): cannot make a LinearOperator from "
                     f"{type(A).__name__} (expected a BsrMatrix, a 1-D or 2-D array, or a "
                     f"LinearOperator)")


@func
def _inverse_coefficient(c: Any, use_abs: int):
    """1 / c (1 / |c| with `use_abs`), and 1 for a zero coefficient."""
    one = type(c)(1.0)
    if c == type(c)(0.0):
        return one
    if use_abs != 0:
        return one / wpb.abs(c)
    return one / c


@kernel(enable_backward=False)
def _invert_dense_diagonal(A: array(dtype=Any, ndim=2), inverse: array(dtype=Any), use_abs: int):
    i = wpb.tid()
    inverse[i] = _inverse_coefficient(A[i, i], use_abs)


@kernel(enable_backward=False)
def _invert_scalars(d: array(dtype=Any), inverse: array(dtype=Any), use_abs: int):
    i = wpb.tid()
    inverse[i] = _inverse_coefficient(d[i], use_abs)


@kernel(enable_backward=False)
def _invert_block_diagonals(blocks: array(dtype=Any, ndim=3), inverse: array(dtype=Any, ndim=2),
                            use_abs: int):
    i, k = wpb.tid()
    inverse[i, k] = _inverse_coefficient(blocks[i, k, k], use_abs)


def _jacobi(A, use_abs):
    """The diagonal operator of the inverse diagonal of A (1 where A's diagonal is zero)."""
    flag = 1 if use_abs else 0
    if isinstance(A, BsrMatrix):
        rows, cols = A.block_shape
        if rows != cols:
            raise ValueError(f"preconditioner(): a diagonal preconditioner needs square blocks "
                             f"(got {rows}x{cols})")
        blocks = bsr_get_diag(A)
        scalar = A.scalar_type
        if type_is_matrix(blocks.dtype):
            inverse = empty(blocks.shape[0], dtype=vector(length=rows, dtype=scalar),
                            device=A.device)
            if inverse.shape[0] > 0:
                launch(_invert_block_diagonals, dim=(inverse.shape[0], rows), device=A.device,
                       inputs=[blocks.view(scalar), inverse.view(scalar), flag],
                       record_tape=False)
        else:
            inverse = empty(blocks.shape[0], dtype=scalar, device=A.device)
            launch(_invert_scalars, dim=inverse.shape[0], device=A.device,
                   inputs=[blocks, inverse, flag], record_tape=False)
        return aslinearoperator(inverse)
    if isinstance(A, array) and A.ndim == 2:
        if type_is_matrix(A.dtype) or type_is_vector(A.dtype):
            raise ValueError(f"preconditioner(): a dense matrix of scalars is needed (got "
                             f"elements of {A.dtype.__name__})")
        inverse = empty(min(A.shape), dtype=A.dtype, device=A.device)
        launch(_invert_dense_diagonal, dim=inverse.shape[0], device=A.device,
               inputs=[A, inverse, flag], record_tape=False)
        return aslinearoperator(inverse)
    raise ValueError(f"preconditioner(): cannot build a diagonal preconditioner from "
                     f"{type(A).__name__} (expected a BsrMatrix or a 2-D array)")


def preconditioner(A, ptype="diag"):
    """A preconditioner for the matrix ``A`` (a BsrMatrix or a dense 2-D array), as Warp's
    ``preconditioner``: ``"diag"`` the Jacobi preconditioner (the inverse of A's diagonal, 1
    where a diagonal coefficient is zero), ``"diag_abs"`` the same with absolute values, and
    ``"id"`` the identity (None, which every solver reads as no preconditioner)."""
    if ptype == "id":
        return None
    if ptype in ("diag", "diag_abs"):
        return _jacobi(A, ptype == "diag_abs")
    raise ValueError(f"preconditioner(): unsupported preconditioner type '{ptype}' (expected "
                     f"'diag', 'diag_abs' or 'id')")
