"""Gradient checking: Jacobians from the tape and from finite differences, and gradcheck.

    import treadle.autograd
    ok = treadle.autograd.gradcheck(kernel, dim, inputs=[x, y], outputs=[out])

Jacobians are indexed by (input index, output index) into the ``inputs`` / ``outputs`` lists;
each is a 2-D array of shape (scalars in the output, scalars in the input), where vector,
matrix and struct-free composite elements count each of their scalars. Only arrays with
``requires_grad=True`` take part. ``function`` is a kernel (launched over ``dim``) or a
Python callable ``function(*inputs)`` that writes into ``outputs`` with kernel launches.
"""

import numpy as np

from .kernel import Kernel
from .launch import launch
from .tape import Tape, _Launch

__all__ = ["gradcheck", "gradcheck_tape", "jacobian", "jacobian_fd"]


def _run(function, dim, inputs, outputs, device):
    if isinstance(function, Kernel):
        launch(function, dim, inputs=inputs, outputs=outputs, device=device)
    else:
        function(*inputs)


def _differentiable(values):
    return [(i, a) for i, a in enumerate(values) if getattr(a, "grad", None) is not None]


def _pairs(function, inputs, outputs, mask):
    """(input index, output index) pairs to compute, honouring ``input_output_mask``."""
    ins, outs = _differentiable(inputs), _differentiable(outputs)
    if mask is None:
        return [(i, j) for j, _ in outs for i, _ in ins]
    names = []
    if isinstance(function, Kernel):
        import inspect

        names = list(inspect.signature(function.func).parameters)

    def index(key, values, offset, what):
        if isinstance(key, int):
            return key
        if key in names and offset <= names.index(key) < offset + len(values):
            return names.index(key) - offset
        raise ValueError(f"input_output_mask: unknown {what} {key!r}")

    chosen = [(index(a, inputs, 0, "input"), index(b, outputs, len(inputs), "output")) for a, b in mask]
    valid = {i for i, _ in ins}, {j for j, _ in outs}
    return [(i, j) for i, j in chosen if i in valid[0] and j in valid[1]]


def _flat(a):
    return np.ascontiguousarray(a.numpy()).reshape(-1)


def _set_flat(a, flat):
    a.assign(np.asarray(flat).reshape(a.numpy().shape))


def jacobian(function, dim=None, inputs=None, outputs=None, input_output_mask=None, device=None,
             max_outputs_per_var=-1, **_ignored):
    """Jacobians from reverse-mode autodiff: one backward pass per output scalar."""
    inputs, outputs = list(inputs or []), list(outputs or [])
    pairs = _pairs(function, inputs, outputs, input_output_mask)
    tape = Tape()
    with tape:
        _run(function, dim, inputs, outputs, device)
    result = {}
    for j in sorted({j for _, j in pairs}):
        out = outputs[j]
        rows = out.size * (_flat(out).size // max(out.size, 1))
        if max_outputs_per_var > 0:
            rows = min(rows, max_outputs_per_var)
        mats = {i: np.zeros((rows, _flat(inputs[i]).size)) for i, jj in pairs if jj == j}
        for r in range(rows):
            tape.zero()
            seed = np.zeros(_flat(out.grad).size)
            seed[r] = 1.0
            _set_flat(out.grad, seed)
            tape.backward()
            for i in mats:
                mats[i][r] = _flat(inputs[i].grad)
        for i, m in mats.items():
            result[(i, j)] = m
    tape.zero()
    return result


def jacobian_fd(function, dim=None, inputs=None, outputs=None, input_output_mask=None,
                device=None, max_inputs_per_var=-1, eps=1e-4, **_ignored):
    """Jacobians from central finite differences: two forward runs per input scalar. Outputs
    are restored to their values before each run, so kernels that accumulate work too."""
    inputs, outputs = list(inputs or []), list(outputs or [])
    pairs = _pairs(function, inputs, outputs, input_output_mask)
    initial = {j: _flat(outputs[j]).copy() for _, j in pairs}

    def evaluate():
        for j, values in initial.items():
            _set_flat(outputs[j], values)
        _run(function, dim, inputs, outputs, device)
        return {j: _flat(outputs[j]).astype(np.float64) for j in initial}

    result = {}
    for i in sorted({i for i, _ in pairs}):
        base = _flat(inputs[i]).copy()
        cols = base.size if max_inputs_per_var <= 0 else min(base.size, max_inputs_per_var)
        mats = {j: np.zeros((initial[j].size, base.size)) for ii, j in pairs if ii == i}
        for c in range(cols):
            x = base.copy()
            x[c] = base[c] + eps
            _set_flat(inputs[i], x)
            plus = evaluate()
            x[c] = base[c] - eps
            _set_flat(inputs[i], x)
            minus = evaluate()
            for j in mats:
                mats[j][:, c] = (plus[j] - minus[j]) / (2.0 * eps)
        _set_flat(inputs[i], base)
        for j, m in mats.items():
            result[(i, j)] = m
    for j, values in initial.items():
        _set_flat(outputs[j], values)
    _run(function, dim, inputs, outputs, device)
    return result


def gradcheck(function, dim=None, inputs=None, outputs=None, *, eps=1e-4, atol=1e-3, rtol=1e-2,
              raise_exception=True, input_output_mask=None, device=None, max_inputs_per_var=-1,
              max_outputs_per_var=-1, show_summary=True, **_ignored):
    """True when every autodiff Jacobian entry is finite and within atol + rtol * |fd| of the
    finite-difference one; otherwise prints the worst entries and raises ValueError (or
    returns False with ``raise_exception=False``)."""
    inputs, outputs = list(inputs or []), list(outputs or [])
    ad = jacobian(function, dim, inputs, outputs, input_output_mask, device,
                  max_outputs_per_var=max_outputs_per_var)
    fd = jacobian_fd(function, dim, inputs, outputs, input_output_mask, device,
                     max_inputs_per_var=max_inputs_per_var, eps=eps)
    failures = []
    for key in sorted(ad):
        a, f = ad[key], fd[key][: ad[key].shape[0], :]
        cols = f.shape[1] if max_inputs_per_var <= 0 else min(f.shape[1], max_inputs_per_var)
        a, f = a[:, :cols], f[:, :cols]
        bad = ~np.isfinite(a) | (np.abs(a - f) > atol + rtol * np.abs(f))
        worst = float(np.max(np.abs(a - f))) if a.size else 0.0
        if show_summary:
            status = "FAIL" if bad.any() else "ok"
            print(f"gradcheck: input {key[0]} -> output {key[1]}: max abs error {worst:.3g} {status}")
        if bad.any():
            r, c = np.argwhere(bad)[0]
            failures.append(
                f"input {key[0]} -> output {key[1]}: entry ({r}, {c}) is {float(a[r, c])!r} by autodiff "
                f"and {float(f[r, c])!r} by finite differences"
            )
    if failures and raise_exception:
        raise ValueError("gradcheck failed:\n" + "\n".join(failures))
    return not failures


def gradcheck_tape(tape, *, eps=1e-4, atol=1e-3, rtol=1e-2, raise_exception=True,
                   input_output_masks=None, blacklist_kernels=None, whitelist_kernels=None,
                   max_inputs_per_var=-1, max_outputs_per_var=-1, show_summary=True,
                   reverse_launches=False, skip_to_launch_index=0, **_ignored):
    """gradcheck() for every kernel launch recorded on ``tape`` (copies and custom functions
    are skipped), with the launch's own dim, inputs and outputs. ``input_output_masks`` maps a
    kernel name to its input_output_mask; black/whitelists name kernels to skip/keep."""
    launches = [e for e in tape.launches if isinstance(e, _Launch)][skip_to_launch_index:]
    if reverse_launches:
        launches = launches[::-1]
    ok = True
    for entry in launches:
        name = entry.kernel.__name__
        if blacklist_kernels and name in blacklist_kernels:
            continue
        if whitelist_kernels and name not in whitelist_kernels:
            continue
        if show_summary:
            print(f"gradcheck_tape: kernel '{name}'")
        ok &= gradcheck(entry.kernel, entry.dim, entry.args[: entry.n_inputs],
                        entry.args[entry.n_inputs :], eps=eps, atol=atol, rtol=rtol,
                        raise_exception=raise_exception,
                        input_output_mask=(input_output_masks or {}).get(name),
                        device=entry.device, max_inputs_per_var=max_inputs_per_var,
                        max_outputs_per_var=max_outputs_per_var, show_summary=show_summary)
    return ok
