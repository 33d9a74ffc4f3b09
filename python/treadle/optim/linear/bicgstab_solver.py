"""The biconjugate gradient stabilised solver (BiCGSTAB) for general square systems, with an
optional left or right preconditioner.

Per iteration and batch: y = M p, v = A y, alpha = rho / (r0 . v), then the half step
x += alpha y, r -= alpha v; z = M r, t = A z and the stabilising step x += omega z,
r -= omega t with omega = (r . t) / (t . t) (left preconditioning: (z . Mt) / (Mt . Mt));
finally rho = r0 . r and p = r + beta (p - omega v). Convergence is judged on the recursively
updated residual r (of the unpreconditioned system).
"""

from ...array import empty
from ...array_like import empty_like, zeros_like
from ...launch import launch
from .dots import TiledDot
from .layout import repeated_row, scalar_dof_count
from .loops import initialize_tolerances
from .state import LinearSolverState
from .updates import bicgstab_direction, bicgstab_half_step, bicgstab_stabilize


class BiCGSTAB(LinearSolverState):
    """Pre-allocated state of the BiCGSTAB solver (Warp's ``BiCGSTAB``); see LinearSolverState
    for the arguments, and ``is_left_preconditioner``: use M on the left (else on the right).
    Whether M is given is fixed at construction: later calls must also give one (or none)."""

    def __init__(self, A, b, x, tol=None, atol=None, maxiter=0, M=None, callback=None,
                 check_every=10, use_cuda_graph=True, is_left_preconditioner=False):
        self._is_left_preconditioner = bool(is_left_preconditioner)
        super().__init__(A, b, x, tol=tol, atol=atol, maxiter=maxiter, M=M, callback=callback,
                         check_every=check_every, use_cuda_graph=use_cuda_graph)

    def _allocate(self):
        b, device = self._b, self._device
        self._r_and_r0 = empty((2, b.shape[0]), dtype=b.dtype, device=device)
        self._r_twice = repeated_row(self._r_and_r0)
        self._p, self._v, self._t = empty_like(b), empty_like(b), empty_like(b)
        r = self._r_and_r0[0]
        if self._M is None:  # unpreconditioned: y is p, z is r, Mt is t
            self._y, self._z, self._Mt = self._p, r, self._t
        else:
            self._y, self._z = zeros_like(b), zeros_like(b)
            self._Mt = zeros_like(b) if self._is_left_preconditioner else self._t
        self._atol_sq = empty(self._batch_count, dtype=self._scalar_type, device=device)
        self._dots = TiledDot(scalar_dof_count(b), self._scalar_type, device=device,
                              max_column_count=5, batch_offsets=self._A.batch_offsets,
                              max_batch_length=self._A.max_batch_length)

    def _check_compatible(self, A, b, x, M):
        super()._check_compatible(A, b, x, M)
        if (M is None) != (self._M is None):
            given = "without" if self._M is None else "with"
            raise ValueError(f"BiCGSTAB(): the solver was made {given} a preconditioner M, so "
                             f"every call must be {given} one too")

    def _run(self, A, b, x, M):
        dots = self._dots
        offsets, dofs = A.batch_offsets, self._dofs_per_entry
        r, r0 = self._r_and_r0[0], self._r_and_r0[1]
        p, v, t, y, z, Mt = self._p, self._v, self._t, self._y, self._z, self._Mt
        atol_sq = self._atol_sq
        r_norm_sq, rho = dots.col(0), dots.col(1)
        left = self._is_left_preconditioner

        initialize_tolerances(b, self._tol, self._atol, dots, atol_sq)
        A.matvec(x, b, r, -1.0, 1.0)
        dots.compute(r, r)
        p.assign(r)
        r0.assign(r)
        rho.assign(r_norm_sq)
        v.zero_()  # robust to operators that read their output
        t.zero_()

        def update(kernel_to_launch, inputs):
            launch(kernel_to_launch, dim=x.shape[0], device=x.device, record_tape=False,
                   inputs=[atol_sq, r_norm_sq, *inputs, offsets, dofs])

        def iterate():
            if M is not None:
                M.matvec(p, y, y, 1.0, 0.0)
            A.matvec(y, v, v, 1.0, 0.0)
            r0v = dots.compute(r0, v, col_offset=2)[0]
            update(bicgstab_half_step, [rho, r0v, x, r, y, v])
            dots.compute(r, r)
            if M is not None:
                M.matvec(r, z, z, 1.0, 0.0)
            A.matvec(z, t, t, 1.0, 0.0)
            if M is not None and left:
                M.matvec(t, Mt, Mt, 1.0, 0.0)
                st = dots.compute(z, Mt, col_offset=3)[0]
                tt = dots.compute(Mt, Mt, col_offset=4)[0]
            else:
                st = dots.compute(r, t, col_offset=3)[0]
                tt = dots.compute(t, t, col_offset=4)[0]
            update(bicgstab_stabilize, [st, tt, z, t, x, r])
            dots.compute(self._r_and_r0, self._r_twice)  # r.r and r0.r (the new rho)
            update(bicgstab_direction, [rho, r0v, st, tt, p, r, v])

        return self._loop(iterate, r_norm_sq, atol_sq)


def bicgstab(A, b, x, tol=None, atol=None, maxiter=0, M=None, callback=None, check_every=10,
             use_cuda_graph=True, is_left_preconditioner=False, run=True):
    """Solves the square system A x = b by BiCGSTAB (Warp's ``bicgstab``), starting from and
    overwriting ``x``. Batched operators (``batch_offsets``) solve every subproblem at once,
    each against its own tolerance.

    ``M`` is a preconditioner, applied on the left with ``is_left_preconditioner`` (M A close
    to the identity), else on the right (A M). The other arguments are LinearSolverState's.
    Returns (iterations, residual norm, absolute tolerance): floats, or device arrays of
    squares with ``check_every=0``; with ``run=False`` the ``BiCGSTAB`` state instead."""
    state = BiCGSTAB(A, b, x, tol=tol, atol=atol, maxiter=maxiter, M=M, callback=callback,
                     check_every=check_every, use_cuda_graph=use_cuda_graph,
                     is_left_preconditioner=is_left_preconditioner)
    return state() if run else state
