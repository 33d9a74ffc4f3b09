"""LinearSolverState: what the four solvers share -- their arguments, the buffers made once per
state object, the check that operands given to a later call fit those buffers, and the loop
that runs the iterations (loops.py).

A subclass implements ``_allocate()`` (its work arrays, sized from the construction-time
operands) and ``_run(A, b, x, M)`` (one solve: set up, then hand its cycle to ``_loop``).
Calling a state runs a solve, optionally with other operands of the same shape, dtype, device
and batch layout, without allocating again.
"""

import operator

from ...array import array, empty
from ...scalar_types import int32
from .layout import dofs_per_entry, scalar_dof_count
from .loops import _run_solver_loop, run_device_loop
from .operators import aslinearoperator


def _type_name(dtype):
    return getattr(dtype, "__name__", str(dtype))


class LinearSolverState:
    """Pre-allocated state of an iterative solver (Warp's ``LinearSolverState``); make one with
    ``CG``, ``CR``, ``BiCGSTAB`` or ``GMRES``, or with ``cg``/``cr``/``bicgstab``/``gmres`` and
    ``run=False``.

    Args:
        A: the system's left-hand side (anything ``aslinearoperator`` accepts).
        b: the right-hand side, a 1-D array of scalars or vectors.
        x: the initial guess, overwritten with the solution (b's shape and dtype).
        tol: relative tolerance on the residual norm, a fraction of the norm of b.
        atol: absolute tolerance on the residual norm; a batch has converged when its residual
            norm is at most max(atol, tol * |b|) (see loops.resolved_tolerances for defaults).
        maxiter: the most iterations (0 or None: the dofs of one subproblem).
        M: optional preconditioner (anything ``aslinearoperator`` accepts).
        callback: ``callback(iteration, residual, tolerance)``, called at every check; with
            ``check_every == 0`` a kernel taking (iteration, r_norm_sq, atol_sq) arrays.
        check_every: iterations between host-side residual checks; 0 never reads back (the
            solve then returns device arrays and can be captured).
        use_cuda_graph: capture the iterations in CUDA graphs on a CUDA device.

    ``state(A=None, b=None, x=None, M=None)`` runs the solver; each operand left None is the
    construction-time one.
    """

    def __init__(self, A, b, x, tol=None, atol=None, maxiter=0, M=None, callback=None,
                 check_every=10, use_cuda_graph=True):
        who = type(self).__name__
        if type(self) is LinearSolverState:
            raise TypeError("LinearSolverState(): use CG, CR, BiCGSTAB or GMRES (or cg, cr, "
                            "bicgstab, gmres with run=False)")
        self._A = aslinearoperator(A)
        self._M = aslinearoperator(M)
        if self._A is None:
            raise ValueError(f"{who}(): A is required")
        for name, v in (("b", b), ("x", x)):
            if not isinstance(v, array) or v.ndim != 1:
                raise ValueError(f"{who}(): {name} must be a 1-D array (got "
                                 f"{type(v).__name__})")
            if v.device != self._A.device:
                raise ValueError(f"{who}(): {name} is on {v.device}, A on {self._A.device}")
        if tuple(x.shape) != tuple(b.shape) or x.dtype is not b.dtype:
            raise ValueError(f"{who}(): x and b must have the same shape and dtype (got "
                             f"{tuple(x.shape)} {_type_name(x.dtype)} and {tuple(b.shape)} "
                             f"{_type_name(b.dtype)})")
        self._b = b
        self._x = x
        self._tol = tol
        self._atol = atol
        self._callback = callback
        self._check_every = int(check_every)
        self._use_cuda_graph = use_cuda_graph
        self._device = self._A.device
        self._scalar_type = self._A.scalar_type
        self._batch_count = self._A.batch_count
        self._dofs_per_entry = dofs_per_entry(b.dtype)
        if maxiter is None or maxiter == 0:
            maxiter = scalar_dof_count(b) // max(self._batch_count, 1)
        self._maxiter = int(maxiter)
        self._cur_iter_and_condition = empty(2, dtype=int32, device=self._device)
        self._allocate()

    def _allocate(self):
        """Makes the solver's work arrays from the construction-time operands."""
        raise NotImplementedError

    def _run(self, A, b, x, M):
        """Runs one solve with these operands (already checked against the state)."""
        raise NotImplementedError

    def _check_compatible(self, A, b, x, M):
        """ValueError unless the operands fit the buffers made at construction."""
        who = type(self).__name__
        ref = self._A
        if A is not ref:
            for name in ("shape", "dtype", "device", "batch_count"):
                got, expected = getattr(A, name), getattr(ref, name)
                if got != expected:
                    raise ValueError(f"{who}(): A.{name} must be {expected} as at construction "
                                     f"(got {got})")
            if A.batch_offsets is not ref.batch_offsets:
                raise ValueError(f"{who}(): A.batch_offsets must be the array the solver was "
                                 "made with")
            if A.max_batch_length != ref.max_batch_length:
                raise ValueError(f"{who}(): A.max_batch_length must be "
                                 f"{ref.max_batch_length} as at construction (got "
                                 f"{A.max_batch_length})")
        for name, got, expected in (("b", b, self._b), ("x", x, self._x)):
            if got is expected:
                continue
            if tuple(got.shape) != tuple(expected.shape):
                raise ValueError(f"{who}(): {name}.shape must be {tuple(expected.shape)} as at "
                                 f"construction (got {tuple(got.shape)})")
            if got.dtype is not expected.dtype:
                raise ValueError(f"{who}(): {name}.dtype must be {_type_name(expected.dtype)} "
                                 f"as at construction (got {_type_name(got.dtype)})")
            if got.device != expected.device:
                raise ValueError(f"{who}(): {name} must be on {expected.device} as at "
                                 f"construction (got {got.device})")
        if M is not None and self._M is not None and M is not self._M:
            for name in ("shape", "dtype"):
                got, expected = getattr(M, name), getattr(self._M, name)
                if got != expected:
                    raise ValueError(f"{who}(): M.{name} must be {expected} as at "
                                     f"construction (got {got})")

    def __call__(self, A=None, b=None, x=None, M=None):
        """Runs the solver, on the construction-time operands or compatible replacements.

        Returns (iterations, residual norm, absolute tolerance) as numbers, or with
        ``check_every == 0`` device arrays (iterations, squared residual norms, squared
        tolerances, one per batch)."""
        A = self._A if A is None else aslinearoperator(A)
        M = self._M if M is None else aslinearoperator(M)
        b = self._b if b is None else b
        x = self._x if x is None else x
        self._check_compatible(A, b, x, M)
        return self._run(A, b, x, M)

    def _loop(self, do_cycle, r_norm_sq, atol_sq, cycle_size=1):
        """Runs `do_cycle` until convergence or maxiter, checked on the host or the device."""
        if self._check_every > 0:
            return _run_solver_loop(do_cycle, cycle_size, r_norm_sq, self._maxiter, atol_sq,
                                    self._callback, self._check_every, self._use_cuda_graph,
                                    self._device)
        return run_device_loop(do_cycle, self._cur_iter_and_condition, r_norm_sq,
                               self._maxiter, atol_sq, self._callback, self._use_cuda_graph,
                               cycle_size)


def checked_restart(restart):
    """The restart interval of CG and CR: None, or a positive integer (TypeError for another
    type, bools included; ValueError when not positive)."""
    if restart is None:
        return None
    if isinstance(restart, bool):
        raise TypeError("restart must be an integer or None (got a bool)")
    try:
        restart = operator.index(restart)
    except TypeError:
        raise TypeError(f"restart must be an integer or None (got "
                        f"{type(restart).__name__})") from None
    if restart < 1:
        raise ValueError(f"restart must be positive (got {restart})")
    return restart


class RestartableSolverState(LinearSolverState):
    """A LinearSolverState with the optional restart interval of CG and CR: every `restart`
    iterations the residual is recomputed as b - A x and the search direction starts again,
    and convergence is checked only at these boundaries."""

    def __init__(self, A, b, x, tol=None, atol=None, maxiter=0, M=None, callback=None,
                 check_every=10, use_cuda_graph=True, *, restart=None):
        try:
            self._restart = checked_restart(restart)
        except (TypeError, ValueError) as error:
            raise type(error)(f"{type(self).__name__}(): {error}") from None
        super().__init__(A, b, x, tol=tol, atol=atol, maxiter=maxiter, M=M, callback=callback,
                         check_every=check_every, use_cuda_graph=use_cuda_graph)

    def _configure_restart(self):
        """Clamps the interval to [1, maxiter] and makes checks land on cycle boundaries."""
        if self._restart is not None:
            self._restart = max(1, min(self._restart, self._maxiter))
            if self._check_every > 0:
                self._check_every = max(self._check_every, self._restart)

    def _restart_loop(self, iterate, restart_direction, r_norm_sq, atol_sq):
        """The loop of a restartable solver: `iterate(update_direction)` runs one iteration;
        with a restart interval, a cycle is restart - 1 of them, one that skips the direction
        update, then `restart_direction()` (true residual and a fresh direction)."""
        restart = self._restart
        if restart is None:
            return self._loop(iterate, r_norm_sq, atol_sq)

        def cycle():
            for _ in range(restart - 1):
                iterate(True)
            iterate(False)
            restart_direction()

        return self._loop(cycle, r_norm_sq, atol_sq, cycle_size=restart)
