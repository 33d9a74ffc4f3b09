"""Custom gradients (@wp.func_grad, @wp.func_replay) and the treadle.autograd checking tools."""

import numpy as np
import pytest

import treadle as wp
import treadle.autograd

F64 = wp.array(dtype=wp.float64)


@wp.func
def safe_sqrt(x: wp.float64):
    return wp.sqrt(x)


@wp.func_grad(safe_sqrt)
def adj_safe_sqrt(x: wp.float64, adj_ret: wp.float64):
    # a gradient that stays finite at 0
    if x > 0.0:
        wp.adjoint[x] += adj_ret * 0.5 / wp.sqrt(x)


@wp.kernel
def use_safe_sqrt(x: F64, out: F64):
    i = wp.tid()
    out[i] = safe_sqrt(x[i]) * 3.0


def test_func_grad_replaces_the_generated_adjoint(device):
    x = wp.array(np.array([0.0, 4.0, 9.0]), dtype=wp.float64, device=device, requires_grad=True)
    out = wp.zeros(3, dtype=wp.float64, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(use_safe_sqrt, 3, inputs=[x, out], device=device)
    tape.backward(grads={out: wp.array(np.ones(3), dtype=wp.float64, device=device)})
    np.testing.assert_allclose(x.grad.numpy(), [0.0, 0.75, 0.5])


@wp.func
def rotate(v: wp.vec2d, angle: wp.float64):
    c = wp.cos(angle)
    s = wp.sin(angle)
    return wp.vec2d(c * v[0] - s * v[1], s * v[0] + c * v[1])


@wp.func_grad(rotate)
def adj_rotate(v: wp.vec2d, angle: wp.float64, adj_ret: wp.vec2d):
    c = wp.cos(angle)
    s = wp.sin(angle)
    # transpose of the rotation for v; derivative of the rotation for the angle
    wp.adjoint[v] += wp.vec2d(c * adj_ret[0] + s * adj_ret[1], -s * adj_ret[0] + c * adj_ret[1])
    wp.adjoint[angle] += wp.dot(adj_ret, wp.vec2d(-s * v[0] - c * v[1], c * v[0] - s * v[1]))


@wp.kernel
def rotate_points(p: wp.array(dtype=wp.vec2d), a: F64, out: wp.array(dtype=wp.vec2d)):
    i = wp.tid()
    out[i] = rotate(p[i], a[i])


def test_func_grad_with_vectors_passes_gradcheck(device):
    rng = np.random.default_rng(0)
    p = wp.array(rng.standard_normal((4, 2)), dtype=wp.vec2d, device=device, requires_grad=True)
    a = wp.array(rng.standard_normal(4), dtype=wp.float64, device=device, requires_grad=True)
    out = wp.zeros(4, dtype=wp.vec2d, device=device, requires_grad=True)
    assert treadle.autograd.gradcheck(rotate_points, 4, inputs=[p, a], outputs=[out], eps=1e-6,
                                      atol=1e-6, rtol=1e-6, device=device, show_summary=False)


@wp.func
def wrong(x: wp.float64):
    return x * x


@wp.func_grad(wrong)
def adj_wrong(x: wp.float64, adj_ret: wp.float64):
    wp.adjoint[x] += adj_ret * x  # missing the factor 2


@wp.kernel
def use_wrong(x: F64, out: F64):
    i = wp.tid()
    out[i] = wrong(x[i])


def test_gradcheck_reports_a_wrong_gradient(device, capsys):
    x = wp.array(np.array([1.0, 2.0]), dtype=wp.float64, device=device, requires_grad=True)
    out = wp.zeros(2, dtype=wp.float64, device=device, requires_grad=True)
    with pytest.raises(ValueError, match=r"input 0 -> output 0: entry \(0, 0\) is 1\.0 by autodiff"):
        treadle.autograd.gradcheck(use_wrong, 2, inputs=[x], outputs=[out], device=device)
    assert "FAIL" in capsys.readouterr().out
    assert not treadle.autograd.gradcheck(use_wrong, 2, inputs=[x], outputs=[out], device=device,
                                          raise_exception=False, show_summary=False)


@wp.func
def counted(x: wp.float64):
    return x * 2.0


@wp.func_replay(counted)
def counted_replay(x: wp.float64):
    return x * 2.0 + 100.0  # a visibly different replay


@wp.kernel
def replayed(x: F64, out: F64):
    i = wp.tid()
    y = counted(x[i])
    out[i] = y * y


def test_func_replay_is_used_in_the_backward_replay(device):
    x = wp.array(np.array([1.0]), dtype=wp.float64, device=device, requires_grad=True)
    out = wp.zeros(1, dtype=wp.float64, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(replayed, 1, inputs=[x, out], device=device)
    assert out.numpy()[0] == 4.0  # the forward pass runs counted()
    tape.backward(grads={out: wp.array(np.ones(1), dtype=wp.float64, device=device)})
    # d(y^2)/dx = 2 y * 2 with y from the replay (102), not the forward value (2)
    assert x.grad.numpy()[0] == pytest.approx(2 * 102.0 * 2.0)


@wp.kernel
def affine(a: wp.array2d(dtype=wp.float64), x: F64, out: F64):
    i, j = wp.tid()
    wp.atomic_add(out, i, a[i, j] * x[j])


def test_jacobian_of_a_linear_map(device):
    rng = np.random.default_rng(1)
    a_np = rng.standard_normal((3, 4))
    a = wp.array(a_np, dtype=wp.float64, device=device)
    x = wp.array(rng.standard_normal(4), dtype=wp.float64, device=device, requires_grad=True)
    out = wp.zeros(3, dtype=wp.float64, device=device, requires_grad=True)
    jac = treadle.autograd.jacobian(affine, (3, 4), inputs=[a, x], outputs=[out], device=device)
    np.testing.assert_allclose(jac[(1, 0)], a_np, rtol=1e-12)
    fd = treadle.autograd.jacobian_fd(affine, (3, 4), inputs=[a, x], outputs=[out], device=device,
                                      eps=1e-5)
    np.testing.assert_allclose(fd[(1, 0)], a_np, rtol=1e-8)
    masked = treadle.autograd.jacobian(affine, (3, 4), inputs=[a, x], outputs=[out],
                                       input_output_mask=[("x", "out")], device=device)
    assert list(masked) == [(1, 0)]


def test_adjoint_outside_func_grad_is_an_error():
    @wp.kernel
    def bad(x: F64):
        i = wp.tid()
        wp.adjoint[x] += 1.0

    with pytest.raises(TypeError, match=r"bad\(\): wp.adjoint\[...\] names the gradient of a parameter"):
        wp.launch(bad, 1, inputs=[wp.zeros(1, dtype=wp.float64)], device="cpu")


def test_gradcheck_tape_checks_every_recorded_kernel(device, capsys):
    x = wp.array(np.array([1.0, 2.0]), dtype=wp.float64, device=device, requires_grad=True)
    y = wp.zeros(2, dtype=wp.float64, device=device, requires_grad=True)
    z = wp.zeros(2, dtype=wp.float64, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(use_safe_sqrt, 2, inputs=[x], outputs=[y], device=device)
        wp.launch(use_wrong, 2, inputs=[y], outputs=[z], device=device)
    assert not treadle.autograd.gradcheck_tape(tape, raise_exception=False, eps=1e-6)
    out = capsys.readouterr().out
    assert "kernel 'use_safe_sqrt'" in out and "kernel 'use_wrong'" in out
    assert treadle.autograd.gradcheck_tape(tape, blacklist_kernels=["use_wrong"], eps=1e-6,
                                           show_summary=False)


@wp.func
def claim_slot(counter: wp.array(dtype=int), slots: wp.array(dtype=int), tid: int):
    # the order threads arrive in decides the slot; the replay reads back what was claimed
    slot = wp.atomic_add(counter, 0, 1)
    slots[tid] = slot
    return slot


@wp.func_replay(claim_slot)
def claim_slot_replay(counter: wp.array(dtype=int), slots: wp.array(dtype=int), tid: int):
    return slots[tid]


@wp.kernel
def compact(x: F64, counter: wp.array(dtype=int), slots: wp.array(dtype=int), out: F64):
    i = wp.tid()
    k = claim_slot(counter, slots, i)
    out[k] = wp.sin(x[i]) * x[i]


def test_an_integer_atomic_result_with_a_custom_replay_is_differentiable(device):
    n = 16
    xs = np.linspace(-1.0, 2.0, n)

    def run(values, tape=None):
        x = wp.array(values, dtype=wp.float64, device=device, requires_grad=True)
        counter = wp.zeros(1, dtype=int, device=device)
        slots = wp.zeros(n, dtype=int, device=device)
        out = wp.zeros(n, dtype=wp.float64, device=device, requires_grad=True)
        if tape is None:
            wp.launch(compact, n, inputs=[x, counter, slots, out], device=device)
        else:
            with tape:
                wp.launch(compact, n, inputs=[x, counter, slots, out], device=device)
        return x, slots.numpy(), out

    tape = wp.Tape()
    x, _, out = run(xs, tape)
    tape.backward(grads={out: wp.array(np.ones(n), dtype=wp.float64, device=device)})
    eps = 1e-6
    # sum(out) does not depend on which slot each thread got
    fd = np.array([
        (run(xs + eps * np.eye(n)[k])[2].numpy().sum()
         - run(xs - eps * np.eye(n)[k])[2].numpy().sum()) / (2 * eps)
        for k in range(n)
    ])
    np.testing.assert_allclose(x.grad.numpy(), fd, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(x.grad.numpy(), np.cos(xs) * xs + np.sin(xs), rtol=1e-10)


@wp.func
def cube_into(i: int, xs: F64, ys: F64):
    ys[i] = xs[i] * xs[i] * xs[i]


@wp.func_grad(cube_into)
def adj_cube_into(i: int, xs: F64, ys: F64):
    # wp.adjoint[xs] is the gradient array of xs; the output's gradient comes from ys.grad
    wp.adjoint[xs][i] += wp.float64(3.0) * xs[i] * xs[i] * wp.adjoint[ys][i]


@wp.kernel
def cube_kernel(xs: F64, ys: F64):
    i = wp.tid()
    cube_into(i, xs, ys)


def test_func_grad_updates_the_gradient_of_an_array_parameter(device):
    xs = np.array([0.5, -1.0, 2.0])
    w = np.array([1.0, 2.0, -0.5])
    x = wp.array(xs, dtype=wp.float64, device=device, requires_grad=True)
    y = wp.zeros(3, dtype=wp.float64, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(cube_kernel, 3, inputs=[x, y], device=device)
    tape.backward(grads={y: wp.array(w, dtype=wp.float64, device=device)})

    def f(values):
        o = wp.zeros(3, dtype=wp.float64, device=device)
        wp.launch(cube_kernel, 3, inputs=[wp.array(values, dtype=wp.float64, device=device), o],
                  device=device)
        return o.numpy() * w

    eps = 1e-6
    np.testing.assert_allclose(x.grad.numpy(), (f(xs + eps) - f(xs - eps)) / (2 * eps), rtol=1e-6)
