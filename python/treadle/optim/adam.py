"""treadle.optim.Adam: Warp's Adam optimiser (bias-corrected adaptive moments), as a kernel that
updates parameters in place on their device."""

from typing import Any

from ..array import array
from ..builtin_functions import sqrt, tid
from ..kernel import kernel
from ..launch import launch
from .buffers import check_step_arrays, follow_params, lanes, real_type, widened


@kernel(enable_backward=False)
def adam_step_kernel(
    g: array(dtype=Any),
    m: array(dtype=Any),
    v: array(dtype=Any),
    lr: Any,
    beta1: Any,
    beta2: Any,
    eps: Any,
    correction1: Any,
    correction2: Any,
    params: array(dtype=Any),
):
    """One Adam update of one scalar lane (see buffers.lanes). The scalar arguments, `m` and `v`
    are of the update's real type (float32, or float64 for float64 data); `correction1/2` are
    the bias corrections 1 - beta^(t + 1), computed once on the host."""
    i = tid()
    grad = type(lr)(g[i])
    first = beta1 * m[i] + (1.0 - beta1) * grad
    second = beta2 * v[i] + (1.0 - beta2) * grad * grad
    m[i] = first
    v[i] = second
    step = lr * (first / correction1) / (sqrt(second / correction2) + eps)
    params[i] = type(params[i])(type(lr)(params[i]) - step)


class Adam:
    """Adaptive moment estimation (Warp's ``warp.optim.Adam``, similar to ``torch.optim.Adam``).

    ``params`` is a list of arrays updated in place by ``step()``; it may be None and given
    later to ``set_params()``. Each parameter keeps a first moment ``m[i]`` and a second moment
    ``v[i]`` of its shape: of its dtype, except that half-precision components get float32
    moments (float16 and bfloat16 parameters, as in Warp). Any floating-point dtype works
    (Warp's are float16, float32 and vec3); every component is updated on its own. ``t`` counts
    the steps since construction or ``reset_internal_state()``.

    Every update is one kernel launch per parameter on the parameter's device, with no copy
    back to the host, so steps can be captured in a CUDA graph (the step count ``t`` of a
    captured step is the one it was captured with, as in Warp). Launches are not recorded on a
    ``wp.Tape``."""

    def __init__(self, params=None, lr=0.001, betas=(0.9, 0.999), eps=1e-08):
        self.m = []
        self.v = []
        self.set_params(params)
        self.lr = lr
        self.beta1 = betas[0]
        self.beta2 = betas[1]
        self.eps = eps
        self.t = 0

    def set_params(self, params):
        """Optimise `params` (a list of arrays, or None) from now on. Moment arrays are kept
        where the parameter at the same index has the same shape and moment dtype (moved to its
        device when that changed, contents kept), and replaced by zeros otherwise; the step
        count is unchanged."""
        self.params = params
        if params:
            who = "Adam.set_params()"
            self.m = follow_params(self.m, params, lambda p: widened(p.dtype, who))
            self.v = follow_params(self.v, params, lambda p: widened(p.dtype, who))

    def reset_internal_state(self):
        """Zero the moments and the step count, as before the first step."""
        for m_i in self.m:
            m_i.zero_()
        for v_i in self.v:
            v_i.zero_()
        self.t = 0

    def step(self, grad):
        """Apply one Adam update to every parameter; `grad` holds one gradient array per
        parameter, of its shape and dtype (e.g. ``tape.gradients[p]`` or ``p.grad``)."""
        if self.params is None:
            raise RuntimeError("Adam.step(): no parameters (pass them to Adam() or set_params())")
        if len(grad) < len(self.params):
            raise ValueError(f"Adam.step(): {len(grad)} gradient arrays for "
                             f"{len(self.params)} parameters")
        for i, p in enumerate(self.params):
            Adam.step_detail(grad[i], self.m[i], self.v[i], self.lr, self.beta1, self.beta2,
                             self.t, self.eps, p)
        self.t += 1

    @staticmethod
    def step_detail(g, m, v, lr, beta1, beta2, t, eps, params):
        """Apply the Adam update of step `t` (0 for the first) to one parameter array `params`
        with gradient `g` and moment arrays `m` and `v`, all updated in place."""
        who = "Adam.step()"
        check_step_arrays(g, params, who)
        real = real_type(params.dtype, who)
        scalars = [real(lr), real(beta1), real(beta2), real(eps),
                   real(1.0 - beta1 ** (t + 1)), real(1.0 - beta2 ** (t + 1))]
        if params.size == 0:
            return
        for g_lane, m_lane, v_lane, p_lane in lanes([g, m, v, params], who):
            launch(adam_step_kernel, dim=p_lane.shape[0],
                   inputs=[g_lane, m_lane, v_lane, *scalars, p_lane], device=params.device,
                   record_tape=False)
