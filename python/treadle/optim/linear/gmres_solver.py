"""The restarted generalised minimal residual solver, GMRES(k), for general square systems, with
an optional left or right preconditioner.

A cycle, per batch: v_0 = r / beta (beta = |r|, or |M r| with left preconditioning), k Arnoldi
steps that orthogonalise w = A v_j (A M v_j, M A v_j) against v_0..v_j by classical
Gram-Schmidt into column j of the Hessenberg matrix H (k + 1 by k), then the least-squares
problem min |beta e_0 - H y| by Givens rotations (one thread per batch, stopping early where
the Krylov space is exhausted), x += V y (right preconditioning: x += M V y), and the true
residual r = b - A x. Buffers: V (k + 1 rows of solver vectors), H (batch, k + 1, k) and
y (batch, k + 1).
"""

from typing import Any

from ... import builtin_functions as wpb
from ...array import array, empty, zeros
from ...array_like import empty_like
from ...kernel import kernel
from ...launch import launch
from .dots import TiledDot
from .layout import batch_of_entry, repeated_row, scalar_dof_count
from .loops import dtype_epsilon, initialize_tolerances
from .state import LinearSolverState


@kernel(enable_backward=False)
def _normalize_into(src: array(dtype=Any), dst: array(dtype=Any), norm_sq: array(dtype=Any),
                    batch_offsets: array(dtype=int), dofs_per_entry: int):
    """dst = src / |src| per batch (src itself where the norm is zero), and zero outside every
    batch: a basis vector never carries values into the inactive tail, where an operator's
    zero coefficients could turn them into NaNs in active rows."""
    i = wpb.tid()
    k = batch_of_entry(i, batch_offsets, dofs_per_entry)
    if k < 0:
        dst[i] = dst.dtype(norm_sq.dtype(0.0))
    else:
        n = norm_sq[k]
        if n == type(n)(0.0):
            dst[i] = src[i]
        else:
            dst[i] = src[i] / wpb.sqrt(n)


@kernel(enable_backward=False)
def _store_norms(norm_sq: array(dtype=Any), norms: array(dtype=Any)):
    k = wpb.tid()
    norms[k] = wpb.sqrt(norm_sq[k])


@kernel(enable_backward=False)
def _store_subdiagonal(j: int, norm_sq: array(dtype=Any), H: array(dtype=Any, ndim=3)):
    """H[k, j + 1, j] = |w| for batch k."""
    k = wpb.tid()
    H[k, j + 1, j] = wpb.sqrt(norm_sq[k])


@kernel(enable_backward=False)
def _store_column(j: int, dots: array(dtype=Any, ndim=2), H: array(dtype=Any, ndim=3)):
    """H[k, row, j] = dots[row, k]: the projections of w on v_0..v_j."""
    row, k = wpb.tid()
    H[k, row, j] = dots[row, k]


@kernel(enable_backward=False)
def _orthogonalize(j: int, V: array(dtype=Any, ndim=2), w: array(dtype=Any),
                   H: array(dtype=Any, ndim=3), batch_offsets: array(dtype=int),
                   dofs_per_entry: int):
    """w -= sum over rows m <= j of H[k, m, j] v_m."""
    i = wpb.tid()
    k = batch_of_entry(i, batch_offsets, dofs_per_entry)
    if k >= 0:
        wi = w[i]
        for m in range(j + 1):
            wi = wi - H[k, m, j] * V[m, i]
        w[i] = wi


@kernel(enable_backward=False)
def _solve_least_squares(size: int, pivot_tolerance: Any, beta: array(dtype=Any),
                         H: array(dtype=Any, ndim=3), y: array(dtype=Any, ndim=2)):
    """y[k] = argmin |beta[k] e_0 - H[k] y| for the (size + 1) x size Hessenberg H[k]: Givens
    rotations make H[k] upper triangular in place (stopping at the first column whose pivot
    is below `pivot_tolerance`: the Krylov space ended there), then back substitution; the
    entries of y past that rank are zero."""
    k = wpb.tid()
    rhs = beta[k]
    rank = size
    for i in range(size):
        a = H[k, i, i]
        c = H[k, i + 1, i]
        pivot_sq = a * a + c * c
        if pivot_sq < pivot_tolerance:
            rank = i
            break
        pivot = wpb.sqrt(pivot_sq)
        cos = a / pivot
        sin = c / pivot
        for col in range(i, size):
            upper = H[k, i, col]
            lower = H[k, i + 1, col]
            H[k, i, col] = cos * upper + sin * lower
            H[k, i + 1, col] = cos * lower - sin * upper
        y[k, i] = cos * rhs
        rhs = -sin * rhs
    for i in range(rank, size + 1):
        y[k, i] = type(rhs)(0.0)
    for step in range(rank):
        i = rank - 1 - step
        value = y[k, i]
        for col in range(i + 1, rank):
            value = value - H[k, i, col] * y[k, col]
        y[k, i] = value / H[k, i, i]


@kernel(enable_backward=False)
def _combine_basis(size: int, scale: Any, y: array(dtype=Any, ndim=2),
                   V: array(dtype=Any, ndim=2), x: array(dtype=Any),
                   batch_offsets: array(dtype=int), dofs_per_entry: int):
    """x = scale x + sum over m < size of y[k, m] v_m."""
    i = wpb.tid()
    k = batch_of_entry(i, batch_offsets, dofs_per_entry)
    if k >= 0:
        xi = scale * x[i]
        for m in range(size):
            xi = xi + y[k, m] * V[m, i]
        x[i] = xi


@kernel(enable_backward=False)
def _add_active(update: array(dtype=Any), x: array(dtype=Any), batch_offsets: array(dtype=int),
                dofs_per_entry: int):
    """x += update on the elements of some batch."""
    i = wpb.tid()
    if batch_of_entry(i, batch_offsets, dofs_per_entry) >= 0:
        x[i] = x[i] + update[i]


class GMRES(LinearSolverState):
    """Pre-allocated state of the restarted GMRES solver (Warp's ``GMRES``); see
    LinearSolverState for the arguments, plus ``restart`` (the k of GMRES(k): the Krylov
    space of a cycle, capped at maxiter) and ``is_left_preconditioner``. M may change (or
    become None) between calls."""

    def __init__(self, A, b, x, tol=None, atol=None, restart=31, maxiter=0, M=None,
                 callback=None, check_every=31, use_cuda_graph=True,
                 is_left_preconditioner=False):
        self._restart = int(restart)
        if self._restart < 1:
            raise ValueError(f"GMRES(): restart must be positive (got {restart})")
        self._is_left_preconditioner = bool(is_left_preconditioner)
        super().__init__(A, b, x, tol=tol, atol=atol, maxiter=maxiter, M=M, callback=callback,
                         check_every=check_every, use_cuda_graph=use_cuda_graph)

    def _allocate(self):
        size = max(1, min(self._restart, self._maxiter))
        self._restart = size
        if self._check_every > 0:
            self._check_every = max(self._check_every, size)
        b, device, scalar = self._b, self._device, self._scalar_type
        batches = self._batch_count
        self._pivot_tolerance = scalar(dtype_epsilon(scalar) ** 2)
        self._r, self._w = empty_like(b), empty_like(b)
        self._H = zeros((batches, size + 1, size), dtype=scalar, device=device)
        self._y = zeros((batches, size + 1), dtype=scalar, device=device)
        self._V = zeros((size + 1, b.shape[0]), dtype=b.dtype, device=device)
        self._per_batch = empty((2, batches), dtype=scalar, device=device)
        self._dots = TiledDot(scalar_dof_count(b), scalar, device=device,
                              max_column_count=size + 1, batch_offsets=self._A.batch_offsets,
                              max_batch_length=self._A.max_batch_length)
        # w repeated j + 1 times, against v_0..v_j: all projections in one reduction
        self._w_rows = [repeated_row(self._w, j + 1) for j in range(size)]

    def _run(self, A, b, x, M):
        dots, size = self._dots, self._restart
        offsets, dofs = A.batch_offsets, self._dofs_per_entry
        r, w, H, y, V = self._r, self._w, self._H, self._y, self._V
        beta, atol_sq = self._per_batch[0], self._per_batch[1]
        r_norm_sq = dots.col(0)
        left = self._is_left_preconditioner
        batches = self._batch_count

        def per_entry(kernel_to_launch, inputs):
            launch(kernel_to_launch, dim=x.shape[0], device=x.device, record_tape=False,
                   inputs=[*inputs, offsets, dofs])

        def per_batch(kernel_to_launch, dim, inputs):
            launch(kernel_to_launch, dim=dim, device=x.device, record_tape=False, inputs=inputs)

        initialize_tolerances(b, self._tol, self._atol, dots, atol_sq)
        A.matvec(x, b, r, -1.0, 1.0)
        dots.compute(r, r)
        w.zero_()  # robust to operators that read their output

        def arnoldi_step(j):
            if M is None:
                A.matvec(V[j], w, w, 1.0, 0.0)
            else:
                scratch = V[j + 1]  # overwritten by v_{j+1} below
                first, second = (A, M) if left else (M, A)
                first.matvec(V[j], scratch, scratch, 1.0, 0.0)
                second.matvec(scratch, w, w, 1.0, 0.0)
            projections = dots.compute(self._w_rows[j], V[0:j + 1])
            per_batch(_store_column, (j + 1, batches), [j, projections, H])
            per_entry(_orthogonalize, [j, V, w, H])
            dots.compute(w, w)
            per_entry(_normalize_into, [w, V[j + 1], dots.col(0)])
            per_batch(_store_subdiagonal, batches, [j, dots.col(0), H])

        def cycle():
            start = r
            if M is not None and left:
                M.matvec(r, w, w, 1.0, 0.0)
                start = w
            dots.compute(start, start)
            per_batch(_store_norms, batches, [dots.col(0), beta])
            per_entry(_normalize_into, [start, V[0], dots.col(0)])
            for j in range(size):
                arnoldi_step(j)
            per_batch(_solve_least_squares, batches, [size, self._pivot_tolerance, beta, H, y])
            scalar = self._scalar_type
            if M is None or left:
                per_entry(_combine_basis, [size, scalar(1.0), y, V, x])
            else:
                per_entry(_combine_basis, [size, scalar(0.0), y, V, w])
                M.matvec(w, r, r, 1.0, 0.0)
                per_entry(_add_active, [r, x])
            A.matvec(x, b, r, -1.0, 1.0)
            dots.compute(r, r)

        return self._loop(cycle, r_norm_sq, atol_sq, cycle_size=size)


def gmres(A, b, x, tol=None, atol=None, restart=31, maxiter=0, M=None, callback=None,
          check_every=31, use_cuda_graph=True, is_left_preconditioner=False, run=True):
    """Solves the square system A x = b by restarted GMRES(restart) (Warp's ``gmres``),
    starting from and overwriting ``x``. Batched operators (``batch_offsets``) solve every
    subproblem at once, each against its own tolerance.

    Every cycle runs ``restart`` Arnoldi steps, so the count may exceed ``maxiter`` by up to
    restart - 1. ``M`` is a preconditioner, on the left with ``is_left_preconditioner``, else
    on the right. The other arguments are LinearSolverState's. Returns (iterations, residual
    norm, absolute tolerance) for the true residual: floats, or device arrays of squares with
    ``check_every=0``; with ``run=False`` the ``GMRES`` state instead."""
    state = GMRES(A, b, x, tol=tol, atol=atol, restart=restart, maxiter=maxiter, M=M,
                  callback=callback, check_every=check_every, use_cuda_graph=use_cuda_graph,
                  is_left_preconditioner=is_left_preconditioner)
    return state() if run else state
