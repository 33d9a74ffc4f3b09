"""The conjugate gradient (CG) and conjugate residual (CR) solvers for symmetric systems, with
an optional preconditioner and an optional restart interval.

Per batch, CG minimises the A-norm of the error over the Krylov space of the preconditioned
residual z = M r; CR minimises the residual norm (it needs only A symmetric). Both update the
residual recursively; with ``restart=k`` every k-th iteration replaces it with b - A x and
restarts the search direction, which bounds the drift between the two in float32.
"""

from ...array import empty
from ...array_like import empty_like
from ...launch import launch
from .dots import TiledDot
from .layout import repeated_row, scalar_dof_count
from .loops import initialize_tolerances
from .state import RestartableSolverState
from .updates import cg_direction, cg_step, cr_direction, cr_step


def _vector_kernel(kernel_to_launch, x, inputs):
    launch(kernel_to_launch, dim=x.shape[0], device=x.device, inputs=inputs, record_tape=False)


class CG(RestartableSolverState):
    """Pre-allocated state of the conjugate gradient solver (Warp's ``CG``); see
    LinearSolverState for the arguments, and ``restart`` (keyword): None, or the positive
    number of iterations between restarts. M may change (or become None) between calls."""

    def _allocate(self):
        self._configure_restart()
        b, device = self._b, self._device
        self._r_and_z = empty((2, b.shape[0]), dtype=b.dtype, device=device)
        self._p_and_Ap = empty((2, b.shape[0]), dtype=b.dtype, device=device)
        self._per_batch = empty((2, self._batch_count), dtype=self._scalar_type, device=device)
        self._dots = TiledDot(scalar_dof_count(b), self._scalar_type, device=device,
                              max_column_count=2, batch_offsets=self._A.batch_offsets,
                              max_batch_length=self._A.max_batch_length)
        self._r_twice = repeated_row(self._r_and_z)

    def _run(self, A, b, x, M):
        dots = self._dots
        offsets, dofs = A.batch_offsets, self._dofs_per_entry
        r, z = self._r_and_z[0], self._r_and_z[1]
        if M is None:
            z = r
        p, Ap = self._p_and_Ap[0], self._p_and_Ap[1]
        rz_old, atol_sq = self._per_batch[0], self._per_batch[1]
        r_norm_sq = dots.col(0)
        rz_new = dots.col(0) if M is None else dots.col(1)

        Ap.zero_()  # robust to operators that read their output
        self._r_and_z[1].zero_()
        initialize_tolerances(b, self._tol, self._atol, dots, atol_sq)
        A.matvec(x, b, r, -1.0, 1.0)

        def refresh_residual_dots():
            """r.r and r.z (z = M r) into columns 0 and 1."""
            if M is None:
                dots.compute(r, r)
            else:
                M.matvec(r, z, z, 1.0, 0.0)
                dots.compute(self._r_twice, self._r_and_z)

        def iterate(update_direction=True):
            rz_old.assign(rz_new)
            A.matvec(p, Ap, Ap, 1.0, 0.0)
            p_Ap = dots.compute(p, Ap, col_offset=1)[0]
            _vector_kernel(cg_step, x,
                           [atol_sq, r_norm_sq, rz_old, p_Ap, x, r, p, Ap, offsets, dofs])
            if update_direction:
                refresh_residual_dots()
                _vector_kernel(cg_direction, x,
                               [atol_sq, r_norm_sq, rz_old, rz_new, z, p, offsets, dofs])

        def restart_direction():
            A.matvec(x, b, r, -1.0, 1.0)
            refresh_residual_dots()
            p.assign(z)

        refresh_residual_dots()
        p.assign(z)
        return self._restart_loop(iterate, restart_direction, r_norm_sq, atol_sq)


class CR(RestartableSolverState):
    """Pre-allocated state of the conjugate residual solver (Warp's ``CR``); see
    LinearSolverState for the arguments, and ``restart`` (keyword): None, or the positive
    number of iterations between restarts. M may change (or become None) between calls."""

    def _allocate(self):
        self._configure_restart()
        b, device = self._b, self._device
        self._r, self._z, self._Az = empty_like(b), empty_like(b), empty_like(b)
        self._p, self._Ap, self._y = empty_like(b), empty_like(b), empty_like(b)
        self._per_batch = empty((2, self._batch_count), dtype=self._scalar_type, device=device)
        self._dots = TiledDot(scalar_dof_count(b), self._scalar_type, device=device,
                              max_column_count=3, batch_offsets=self._A.batch_offsets,
                              max_batch_length=self._A.max_batch_length)

    def _run(self, A, b, x, M):
        dots = self._dots
        offsets, dofs = A.batch_offsets, self._dofs_per_entry
        r, Az, p, Ap = self._r, self._Az, self._p, self._Ap
        z = r if M is None else self._z  # z = M r
        y = Ap if M is None else self._y  # y = M Ap
        zAz_old, atol_sq = self._per_batch[0], self._per_batch[1]
        r_norm_sq, zAz_new = dots.col(0), dots.col(1)

        initialize_tolerances(b, self._tol, self._atol, dots, atol_sq)
        A.matvec(x, b, r, -1.0, 1.0)
        Az.zero_()  # robust to operators that read their output
        self._y.zero_()
        self._z.zero_()

        def precondition_residual():
            if M is not None:
                M.matvec(r, z, z, 1.0, 0.0)

        def refresh_residual_dots():
            """Az = A z, then r.r and z.Az into columns 0 and 1."""
            A.matvec(z, Az, Az, 1.0, 0.0)
            dots.compute(r, r)
            dots.compute(z, Az, col_offset=1)

        def iterate(update_direction=True):
            zAz_old.assign(zAz_new)
            if M is not None:
                M.matvec(Ap, y, y, 1.0, 0.0)
            y_Ap = dots.compute(Ap, y, col_offset=2)[0]
            if M is None:
                _vector_kernel(cg_step, x,
                               [atol_sq, r_norm_sq, zAz_old, y_Ap, x, r, p, Ap, offsets, dofs])
            else:
                _vector_kernel(cr_step, x, [atol_sq, r_norm_sq, zAz_old, y_Ap, x, r, z, p, Ap,
                                            y, offsets, dofs])
            if update_direction:
                refresh_residual_dots()
                _vector_kernel(cr_direction, x, [atol_sq, r_norm_sq, zAz_old, zAz_new, z, p, Az,
                                                 Ap, offsets, dofs])

        def restart_direction():
            A.matvec(x, b, r, -1.0, 1.0)
            precondition_residual()
            refresh_residual_dots()
            p.assign(z)
            Ap.assign(Az)

        precondition_residual()
        refresh_residual_dots()
        p.assign(z)
        Ap.assign(Az)
        return self._restart_loop(iterate, restart_direction, r_norm_sq, atol_sq)


def cg(A, b, x, tol=None, atol=None, maxiter=0, M=None, callback=None, check_every=10,
       use_cuda_graph=True, run=True, *, restart=None):
    """Solves the symmetric positive-definite system A x = b by conjugate gradients (Warp's
    ``cg``), starting from and overwriting ``x``. Batched operators (``batch_offsets``) solve
    every subproblem at once, each against its own tolerance.

    ``M`` is a preconditioner (ideally close to A's inverse); ``restart`` (None or a positive
    int) recomputes the true residual and restarts the direction every ``restart`` iterations,
    checking convergence only then (the count may exceed ``maxiter`` by up to restart - 1).
    The other arguments are LinearSolverState's. Returns (iterations, residual norm, absolute
    tolerance): floats, or device arrays of squares with ``check_every=0``; the residual is the
    recursively updated one (the true one at a restart boundary). With ``run=False`` returns
    the ``CG`` state instead. TypeError / ValueError for a restart that is not a positive int.
    """
    state = CG(A, b, x, tol=tol, atol=atol, maxiter=maxiter, M=M, callback=callback,
               check_every=check_every, use_cuda_graph=use_cuda_graph, restart=restart)
    return state() if run else state


def cr(A, b, x, tol=None, atol=None, maxiter=0, M=None, callback=None, check_every=10,
       use_cuda_graph=True, run=True, *, restart=None):
    """Solves the symmetric system A x = b by conjugate residuals (Warp's ``cr``), starting
    from and overwriting ``x``; the arguments and results are those of ``cg`` (``run=False``
    returns the ``CR`` state)."""
    state = CR(A, b, x, tol=tol, atol=atol, maxiter=maxiter, M=M, callback=callback,
               check_every=check_every, use_cuda_graph=use_cuda_graph, restart=restart)
    return state() if run else state
