"""A finite-difference check of tape gradients shared by the autodiff tests."""

import numpy as np

import treadle as wp


def to_arrays(values, device, dtype=wp.float64):
    """numpy arrays become float64 treadle arrays with gradients; other values pass through."""
    out = []
    for v in values:
        if isinstance(v, np.ndarray):
            out.append(wp.array(v, dtype=dtype, device=device, requires_grad=True))
        else:
            out.append(v)
    return out


def run_forward(kernel, dim, inputs, out_shapes, device, dtype=wp.float64):
    ins = to_arrays(inputs, device, dtype)
    outs = [wp.zeros(s, dtype=dtype, device=device, requires_grad=True) for s in out_shapes]
    wp.launch(kernel, dim, inputs=ins, outputs=outs, device=device)
    return ins, outs


def check_grad(kernel, dim, inputs, out_shapes, device, eps=1e-6, rtol=1e-5, atol=1e-7, seed=0):
    """Checks d(sum_k w_k . out_k)/d(input) from the tape against central differences, for
    every numpy input of the kernel (inputs first, then outputs in its signature)."""
    rng = np.random.default_rng(seed)
    weights = [rng.standard_normal(s) for s in out_shapes]

    def objective(values):
        _, outs = run_forward(kernel, dim, values, out_shapes, device)
        return sum(float(np.sum(o.numpy() * w)) for o, w in zip(outs, weights))

    tape = wp.Tape()
    ins = to_arrays(inputs, device)
    outs = [wp.zeros(s, dtype=wp.float64, device=device, requires_grad=True) for s in out_shapes]
    with tape:
        wp.launch(kernel, dim, inputs=ins, outputs=outs, device=device)
    tape.backward(grads={o: wp.array(w, dtype=wp.float64, device=device) for o, w in zip(outs, weights)})

    for idx, v in enumerate(inputs):
        if not isinstance(v, np.ndarray):
            continue
        got = ins[idx].grad.numpy()
        want = np.zeros_like(v)
        for flat in range(v.size):
            plus = [x.copy() if isinstance(x, np.ndarray) else x for x in inputs]
            minus = [x.copy() if isinstance(x, np.ndarray) else x for x in inputs]
            plus[idx].flat[flat] += eps
            minus[idx].flat[flat] -= eps
            want.flat[flat] = (objective(plus) - objective(minus)) / (2 * eps)
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=f"input {idx}")
    return tape
