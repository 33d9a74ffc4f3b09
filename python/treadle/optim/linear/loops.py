"""The outer loops of the linear solvers and their stopping rule.

A solver supplies ``do_cycle`` (one or more iterations of device work that update ``r_norm_sq``,
the squared residual norm of every batch) and its ``cycle_size``. The loop stops once every
batch satisfies ``r_norm_sq[k] <= atol_sq[k]`` or ``maxiter`` iterations have run (always at
least one cycle after a failed first check). Two loops:

- ``_run_solver_loop`` (``check_every > 0``): reads the residuals on the host every
  ``check_every`` iterations (rounded up to whole cycles) and calls a Python callback; on CUDA
  the cycle is captured in a graph after its first run. Returns (iterations, residual norm,
  tolerance) as floats: the largest batch residual and the largest batch tolerance.
- ``run_device_loop`` (``check_every == 0``): never reads back; a one-thread kernel updates the
  iteration count and a continue flag on the device after each cycle. On CUDA with conditional
  graphs it runs as ``wp.capture_while`` (capturable inside a user's capture); elsewhere it runs
  every cycle up to ``maxiter`` (converged batches stop moving). Returns the device arrays
  (iteration count, squared residual norms, squared tolerances).
"""

import math
from typing import Any

from ... import builtin_functions as wpb
from ...array import array
from ...context import is_conditional_graph_supported
from ...graph_conditionals import capture_while
from ...kernel import Kernel, kernel
from ...launch import launch
from ...scalar_types import float16, float64
from ...stream import ScopedCapture, capture_launch


def dtype_epsilon(scalar_type):
    """The precision the default tolerances are derived from, per scalar type."""
    if scalar_type is float64:
        return 1.0e-16
    if scalar_type is float16:
        return 1.0e-4
    return 1.0e-8


def resolved_tolerances(scalar_type, tol, atol):
    """(relative, absolute) tolerances from the user's: each defaults to the other, both to
    epsilon^(3/4); the absolute one is at least epsilon^(9/4)."""
    eps = dtype_epsilon(scalar_type)
    if tol is None and atol is None:
        tol = atol = eps**0.75
    elif tol is None:
        tol = atol
    elif atol is None:
        atol = tol
    return tol, max(atol, eps**2.25)


@kernel(enable_backward=False)
def _squared_tolerances(rtol: Any, atol: Any, b_norm_sq: array(dtype=Any),
                        atol_sq: array(dtype=Any)):
    """atol_sq[k] = max(rtol * |b_k|, atol)^2 for batch k."""
    k = wpb.tid()
    bound = wpb.max(rtol * wpb.sqrt(b_norm_sq[k]), atol)
    atol_sq[k] = bound * bound


def initialize_tolerances(b, tol, atol, dots, atol_sq):
    """Writes every batch's squared absolute tolerance into `atol_sq` from the norm of its part
    of `b` (column 0 of `dots` is used as scratch)."""
    scalar = atol_sq.dtype
    rtol, atol = resolved_tolerances(scalar, tol, atol)
    dots.compute(b, b)
    launch(_squared_tolerances, dim=atol_sq.shape[0], device=atol_sq.device, record_tape=False,
           inputs=[scalar(rtol), scalar(atol), dots.col(0), atol_sq])


def _host_status(r_norm_sq, atol_sq_host):
    """(every batch converged, largest residual norm) read from the device."""
    residuals = r_norm_sq.numpy()
    largest = float(residuals.max()) if residuals.size else 0.0
    return bool((residuals <= atol_sq_host).all()), math.sqrt(max(largest, 0.0))


def _run_solver_loop(do_cycle, cycle_size, r_norm_sq, maxiter, atol_sq, callback, check_every,
                     use_cuda_graph, device):
    """The host-checked loop (see the module docstring); returns (iterations, residual norm,
    absolute tolerance). `callback(iteration, residual, tolerance)`, if given, is called
    before the first cycle, at every check that does not stop the loop, and at the end."""
    atol_sq_host = atol_sq.numpy()
    atol = math.sqrt(float(atol_sq_host.max())) if atol_sq_host.size else 0.0
    check_every = max(check_every, cycle_size)
    converged, err = _host_status(r_norm_sq, atol_sq_host)
    if callback is not None:
        callback(0, err, atol)
    if converged:
        return 0, err, atol
    iteration = 0
    graph = None
    while True:
        if device.is_cuda and use_cuda_graph and iteration > 0:
            if graph is None:  # the first cycle ran outside: its modules are loaded
                with ScopedCapture(device=device, force_module_load=False) as capture:
                    do_cycle()
                graph = capture.graph
            capture_launch(graph)
        else:
            do_cycle()
        iteration += cycle_size
        if iteration >= maxiter:
            break
        if iteration % check_every < cycle_size:
            converged, err = _host_status(r_norm_sq, atol_sq_host)
            if converged:
                break
            if callback is not None:
                callback(iteration, err, atol)
    _, err = _host_status(r_norm_sq, atol_sq_host)
    if callback is not None:
        callback(iteration, err, atol)
    return iteration, err, atol


@kernel(enable_backward=False)
def _advance_condition(maxiter: int, cycle_size: int, iteration: array(dtype=int),
                       r_norm_sq: array(dtype=Any), atol_sq: array(dtype=Any),
                       condition: array(dtype=int)):
    """Counts one cycle and sets condition[0] to 1 while some batch has not converged and
    fewer than `maxiter` iterations have run, else 0."""
    iteration[0] = iteration[0] + cycle_size
    converged = int(1)
    for k in range(r_norm_sq.shape[0]):
        if r_norm_sq[k] > atol_sq[k]:
            converged = 0
    if converged == 1 or iteration[0] >= maxiter:
        condition[0] = 0
    else:
        condition[0] = 1


def run_device_loop(do_cycle, iteration_and_condition, r_norm_sq, maxiter, atol_sq, callback,
                    use_cuda_graph, cycle_size=1):
    """The device-checked loop (see the module docstring). `iteration_and_condition` is the
    solver's int32 array of 2: element 0 ends as the iteration count (returned as a view),
    element 1 is the loop's condition. `callback`, if a kernel, is launched after every cycle
    with (iteration, r_norm_sq, atol_sq); other callbacks are not called."""
    device = atol_sq.device
    iteration = iteration_and_condition[0:1]
    condition = iteration_and_condition[1:2]
    iteration_and_condition.fill_(-cycle_size)

    def advance():
        launch(_advance_condition, dim=1, device=device, record_tape=False,
               inputs=[int(maxiter), int(cycle_size), iteration, r_norm_sq, atol_sq, condition])
        if isinstance(callback, Kernel):
            launch(callback, dim=1, device=device, inputs=[iteration, r_norm_sq, atol_sq],
                   record_tape=False)

    def cycle():
        do_cycle()
        advance()

    advance()  # iteration 0 and the first condition
    if use_cuda_graph and device.is_cuda and is_conditional_graph_supported():
        if device.is_capturing:
            capture_while(condition, cycle)
        else:
            with ScopedCapture(device=device) as capture:
                capture_while(condition, cycle)
            capture_launch(capture.graph)
    else:
        for _ in range(0, maxiter, cycle_size):
            cycle()
    return iteration, r_norm_sq, atol_sq
