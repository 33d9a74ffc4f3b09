"""treadle.optim.SGD: Warp's stochastic gradient descent with momentum, dampening, Nesterov
momentum and weight decay, as a kernel that updates parameters in place on their device."""

from typing import Any

from ..array import array
from ..builtin_functions import tid
from ..kernel import kernel
from ..launch import launch
from .buffers import check_step_arrays, follow_params, lanes, real_type


@kernel(enable_backward=False)
def sgd_step_kernel(
    g: array(dtype=Any),
    b: array(dtype=Any),
    lr: Any,
    momentum: Any,
    dampening: Any,
    weight_decay: Any,
    nesterov: int,
    first_step: int,
    params: array(dtype=Any),
):
    """One SGD update of one scalar lane (see buffers.lanes), computed in the real type of the
    scalar arguments; `b` is the momentum buffer (read only when `first_step` is 0)."""
    i = tid()
    p = type(lr)(params[i])
    step = type(lr)(g[i])
    if weight_decay != 0.0:
        step = step + weight_decay * p
    if momentum != 0.0:
        velocity = step
        if first_step == 0:
            velocity = momentum * type(lr)(b[i]) + (1.0 - dampening) * step
        b[i] = type(b[i])(velocity)
        if nesterov != 0:
            step = step + momentum * velocity
        else:
            step = velocity
    params[i] = type(params[i])(p - lr * step)


class SGD:
    """Stochastic gradient descent (Warp's ``warp.optim.SGD``, similar to ``torch.optim.SGD``).

    Each step computes ``d = grad + weight_decay * param``; with momentum, the buffer becomes
    ``b = d`` on the first step (``t == 0``) and ``b = momentum * b + (1 - dampening) * d``
    after, and ``d`` becomes ``b`` (or ``d + momentum * b`` with ``nesterov``); then
    ``param -= lr * d``. ``params`` is a list of arrays updated in place; it may be None and
    given later to ``set_params()``. Each parameter keeps a momentum buffer ``b[i]`` of its
    shape and dtype. Any floating-point dtype works, every component on its own. ``t`` counts
    the steps since construction or ``reset_internal_state()``.

    Every update is one kernel launch per parameter on the parameter's device, with no copy
    back to the host, so steps can be captured in a CUDA graph. Launches are not recorded on a
    ``wp.Tape``."""

    def __init__(self, params=None, lr=0.001, momentum=0.0, dampening=0.0, weight_decay=0.0,
                 nesterov=False):
        self.b = []
        self.set_params(params)
        self.lr = lr
        self.momentum = momentum
        self.dampening = dampening
        self.weight_decay = weight_decay
        self.nesterov = nesterov
        self.t = 0

    def set_params(self, params):
        """Optimise `params` (a list of arrays, or None) from now on. Momentum buffers are kept
        where the parameter at the same index has the same shape and dtype (moved to its device
        when that changed, contents kept), and replaced by zeros otherwise; the step count is
        unchanged."""
        self.params = params
        if params:
            for p in params:
                real_type(p.dtype, "SGD.set_params()")
            self.b = follow_params(self.b, params, lambda p: p.dtype)

    def reset_internal_state(self):
        """Zero the momentum buffers and the step count: the next step starts the momentum
        afresh."""
        for b_i in self.b:
            b_i.zero_()
        self.t = 0

    def step(self, grad):
        """Apply one SGD update to every parameter; `grad` holds one gradient array per
        parameter, of its shape and dtype."""
        if self.params is None:
            raise RuntimeError("SGD.step(): no parameters (pass them to SGD() or set_params())")
        if len(grad) < len(self.params):
            raise ValueError(f"SGD.step(): {len(grad)} gradient arrays for "
                             f"{len(self.params)} parameters")
        for i, p in enumerate(self.params):
            SGD.step_detail(grad[i], self.b[i], self.lr, self.momentum, self.dampening,
                            self.weight_decay, self.nesterov, self.t, p)
        self.t += 1

    @staticmethod
    def step_detail(g, b, lr, momentum, dampening, weight_decay, nesterov, t, params):
        """Apply the SGD update of step `t` (0 for the first) to one parameter array `params`
        with gradient `g` and momentum buffer `b`, both `params` and `b` updated in place."""
        who = "SGD.step()"
        check_step_arrays(g, params, who)
        if b.dtype != params.dtype or b.shape != params.shape:
            raise TypeError(f"{who}: the momentum buffer must have the parameter's shape and "
                            "dtype")
        real = real_type(params.dtype, who)
        scalars = [real(lr), real(momentum), real(dampening), real(weight_decay),
                   int(bool(nesterov)), int(t == 0)]
        if params.size == 0:
            return
        for g_lane, b_lane, p_lane in lanes([g, b, params], who):
            launch(sgd_step_kernel, dim=p_lane.shape[0], inputs=[g_lane, b_lane, *scalars, p_lane],
                   device=params.device, record_tape=False)
