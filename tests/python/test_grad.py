"""Reverse-mode gradients of kernels checked against finite differences, on every device."""

import numpy as np
import pytest

import treadle as wp
from gradcheck_util import check_grad

F64 = wp.array(dtype=wp.float64)


@wp.kernel
def scalar_math(x: F64, y: F64, out: F64):
    i = wp.tid()
    a = x[i]
    b = y[i]
    out[i] = wp.sin(a) * b + wp.exp(a * 0.5) / (1.0 + b * b) - wp.sqrt(a * a + 1.0) + a**3.0


def test_scalar_math(device):
    rng = np.random.default_rng(1)
    check_grad(scalar_math, 8, [rng.standard_normal(8), rng.standard_normal(8)], [8], device)


@wp.kernel
def branches(x: F64, out: F64):
    i = wp.tid()
    v = x[i]
    if v > 0.0:
        r = v * v
    elif v > -0.5:
        r = wp.sin(v)
    else:
        r = -2.0 * v
    out[i] = r * v


def test_if_elif_else_merges(device):
    x = np.array([-1.3, -0.2, 0.4, 1.7, -0.7, 0.9])
    check_grad(branches, 6, [x], [6], device)


@wp.kernel
def early_return(x: F64, n: int, out: F64):
    i = wp.tid()
    if i >= n:
        return
    out[i] = wp.cos(x[i]) * x[i]


def test_early_return_skips_the_rest(device):
    x = np.linspace(-1.0, 1.0, 8)
    tape = check_grad(early_return, 8, [x, 5], [8], device)
    assert tape.launches


@wp.kernel
def dynamic_loop(x: F64, steps: int, out: F64):
    i = wp.tid()
    v = x[i]
    for k in range(steps):
        v = v * 0.9 + wp.sin(v) * 0.1 + wp.float64(k) * 0.01
    out[i] = v


def test_dynamic_loop_with_overwritten_carried_variable(device):
    # v is overwritten every iteration and used nonlinearly: the backward pass recomputes it.
    x = np.array([0.3, -1.2, 2.5, 0.0])
    check_grad(dynamic_loop, 4, [x, 7], [4], device)  # short: carried values kept per trip
    check_grad(dynamic_loop, 4, [x, 40], [4], device)  # long: recomputed from the loop entry


@wp.kernel
def accumulate_loop(x: F64, w: F64, n: int, out: F64):
    i = wp.tid()
    s = wp.float64(0.0)
    for j in range(n):
        s += x[j] * w[j] * x[i]
    out[i] = s


def test_accumulating_loop(device):
    rng = np.random.default_rng(2)
    check_grad(accumulate_loop, 5, [rng.standard_normal(5), rng.standard_normal(5), 5], [5], device)


@wp.kernel
def static_loop(x: F64, out: F64):
    i = wp.tid()
    v = x[i]
    for _k in range(3):
        v = wp.tanh(v) + v * v * 0.1
    out[i] = v


def test_static_loop(device):
    check_grad(static_loop, 4, [np.array([0.1, -0.4, 0.8, 1.1])], [4], device)


@wp.kernel
def while_break(x: F64, out: F64):
    i = wp.tid()
    v = x[i]
    k = int(0)
    while k < 20:
        v = v * 1.5 + 0.1 * wp.sin(v)
        if wp.abs(v) > 10.0:
            break
        k += 1
    out[i] = v * wp.float64(k + 1)


def test_while_loop_with_break(device):
    check_grad(while_break, 4, [np.array([0.05, -0.3, 1.0, 2.0])], [4], device)


@wp.kernel
def for_continue_break(x: F64, out: F64):
    i = wp.tid()
    v = x[i]
    acc = wp.float64(0.0)
    for k in range(10):
        if k % 3 == 1:
            continue
        acc = acc * 0.5 + v * wp.float64(k)
        if k == 7:
            break
        v = wp.sin(v) + v
    out[i] = acc


def test_for_loop_with_continue_and_break(device):
    check_grad(for_continue_break, 3, [np.array([0.2, -0.6, 1.3])], [3], device)


@wp.func
def smooth_abs(v: wp.float64, eps: wp.float64):
    if v > eps:
        return v
    return wp.sqrt(v * v + eps * eps)


@wp.func
def polar(x: wp.float64, y: wp.float64):
    return wp.sqrt(x * x + y * y), wp.atan2(y, x)


@wp.kernel
def user_functions(x: F64, y: F64, out: F64):
    i = wp.tid()
    r, t = polar(x[i], y[i])
    out[i] = smooth_abs(r * wp.cos(t) - 0.5, 0.2) * t


def test_user_functions_with_early_return_and_tuples(device):
    x = np.array([0.3, 1.2, -0.4, 0.9])
    y = np.array([0.5, -0.7, 0.2, 1.4])
    check_grad(user_functions, 4, [x, y], [4], device)


@wp.kernel
def vector_math(p: wp.array(dtype=wp.vec3d), q: wp.array(dtype=wp.vec3d), out: F64):
    i = wp.tid()
    a = p[i]
    b = q[i]
    c = wp.cross(a, b)
    m = wp.outer(a, b) + wp.identity(3, dtype=wp.float64)
    d = wp.normalize(c + a) * wp.length(b)
    out[i] = wp.dot(d, b) + wp.determinant(m) + c.y * a[0]


def test_vectors_and_matrices(device):
    rng = np.random.default_rng(3)
    p0, q0 = rng.standard_normal((4, 3)), rng.standard_normal((4, 3))
    w = rng.standard_normal(4)

    def objective(pv, qv):
        p = wp.array(pv, dtype=wp.vec3d, device=device)
        q = wp.array(qv, dtype=wp.vec3d, device=device)
        out = wp.zeros(4, dtype=wp.float64, device=device)
        wp.launch(vector_math, 4, inputs=[p, q, out], device=device)
        return float(np.sum(out.numpy() * w))

    p = wp.array(p0, dtype=wp.vec3d, device=device, requires_grad=True)
    q = wp.array(q0, dtype=wp.vec3d, device=device, requires_grad=True)
    out = wp.zeros(4, dtype=wp.float64, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(vector_math, 4, inputs=[p, q, out], device=device)
    tape.backward(grads={out: wp.array(w, dtype=wp.float64, device=device)})
    for arr, base, which in ((p, p0, 0), (q, q0, 1)):
        fd = np.zeros_like(base)
        for k in range(base.size):
            hi, lo = base.copy(), base.copy()
            hi.flat[k] += 1e-6
            lo.flat[k] -= 1e-6
            args_hi = (hi, q0) if which == 0 else (p0, hi)
            args_lo = (lo, q0) if which == 0 else (p0, lo)
            fd.flat[k] = (objective(*args_hi) - objective(*args_lo)) / 2e-6
        np.testing.assert_allclose(arr.grad.numpy(), fd, rtol=1e-5, atol=1e-7)


@wp.kernel
def sum_of_squares(x: F64, loss: F64):
    i = wp.tid()
    wp.atomic_add(loss, 0, x[i] * x[i])


@wp.kernel
def scaled_add(x: F64, a: wp.float64, y: F64):
    i = wp.tid()
    y[i] += a * x[i]


def test_atomics_and_loss(device):
    x = wp.array(np.array([1.0, -2.0, 3.0]), dtype=wp.float64, device=device, requires_grad=True)
    y = wp.zeros(3, dtype=wp.float64, device=device, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float64, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(scaled_add, 3, inputs=[x, 3.0, y], device=device)
        wp.launch(sum_of_squares, 3, inputs=[y, loss], device=device)
    tape.backward(loss=loss)
    assert loss.numpy()[0] == pytest.approx(9.0 * 14.0)
    # d/dx sum((3x)^2) = 18 x
    np.testing.assert_allclose(x.grad.numpy(), 18.0 * x.numpy())
    np.testing.assert_allclose(y.grad.numpy(), 2.0 * y.numpy())
    assert set(map(id, tape.gradients)) >= {id(x), id(y), id(loss)}
    tape.zero()
    assert not x.grad.numpy().any() and not loss.grad.numpy().any()
    tape.reset()
    assert tape.launches == []


@wp.kernel
def grid2d(x: wp.array2d(dtype=wp.float64), out: wp.array2d(dtype=wp.float64)):
    i, j = wp.tid()
    out[i, j] = x[i, j] * x[j, i] + wp.sin(x[i, j])


def test_two_dimensional_arrays(device):
    rng = np.random.default_rng(4)
    x0 = rng.standard_normal((3, 3))
    x = wp.array(x0, dtype=wp.float64, device=device, requires_grad=True)
    out = wp.zeros((3, 3), dtype=wp.float64, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(grid2d, (3, 3), inputs=[x, out], device=device)
    tape.backward(grads={out: wp.array(np.ones((3, 3)), dtype=wp.float64, device=device)})
    want = x0.T + x0 + np.cos(x0)  # d/dx_ab of sum_ij x_ij x_ji + sin(x_ij)
    want = 2 * x0.T + np.cos(x0)
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-12)


@wp.kernel
def square_in_place(x: F64):
    i = wp.tid()
    x[i] = x[i] * x[i]


@wp.kernel
def double_into(x: F64, y: F64):
    i = wp.tid()
    y[i] = 2.0 * x[i]


def test_in_place_update_is_refused(device):
    x = wp.array(np.array([1.0, 2.0]), dtype=wp.float64, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(square_in_place, 2, inputs=[x], device=device)
    with pytest.raises(RuntimeError) as e:
        tape.backward(grads={x: wp.array(np.ones(2), dtype=wp.float64, device=device)})
    assert "kernel 'square_in_place' would be wrong: its argument 'x' was overwritten" in str(e.value)
    assert "square_in_place" in str(e.value).split("last written by")[1]


def test_array_overwritten_after_the_launch_is_refused(device):
    x = wp.array(np.array([1.0, 2.0]), dtype=wp.float64, device=device, requires_grad=True)
    y = wp.zeros(2, dtype=wp.float64, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(double_into, 2, inputs=[x, y], device=device)
    x.assign(np.array([5.0, 6.0]))
    with pytest.raises(RuntimeError, match="argument 'x' was overwritten .* a host write"):
        tape.backward(grads={y: wp.array(np.ones(2), dtype=wp.float64, device=device)})


def test_copy_is_recorded(device):
    x = wp.array(np.array([1.0, 2.0, 3.0]), dtype=wp.float64, device=device, requires_grad=True)
    y = wp.zeros(3, dtype=wp.float64, device=device, requires_grad=True)
    z = wp.zeros(3, dtype=wp.float64, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(double_into, 3, inputs=[x, y], device=device)
        wp.copy(z, y)
        loss = wp.zeros(1, dtype=wp.float64, device=device, requires_grad=True)
        wp.launch(sum_of_squares, 3, inputs=[z, loss], device=device)
    tape.backward(loss=loss)
    np.testing.assert_allclose(x.grad.numpy(), 8.0 * x.numpy())


def test_explicit_adjoint_launch(device):
    x = wp.array(np.array([1.0, 2.0]), dtype=wp.float64, device=device)
    y = wp.zeros(2, dtype=wp.float64, device=device)
    adj_x = wp.zeros(2, dtype=wp.float64, device=device)
    adj_y = wp.array(np.array([1.0, 10.0]), dtype=wp.float64, device=device)
    wp.launch(double_into, 2, inputs=[x], outputs=[y], adj_inputs=[adj_x], adj_outputs=[adj_y],
              adjoint=True, device=device)
    np.testing.assert_allclose(adj_x.numpy(), [2.0, 20.0])


@wp.kernel(enable_backward=False)
def forward_only(x: F64, y: F64):
    i = wp.tid()
    y[i] = x[i]


def test_enable_backward_false_warns_and_gives_no_gradient(device, capsys):
    x = wp.array(np.array([1.0]), dtype=wp.float64, device=device, requires_grad=True)
    y = wp.zeros(1, dtype=wp.float64, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(forward_only, 1, inputs=[x, y], device=device)
    tape.backward(grads={y: wp.array(np.ones(1), dtype=wp.float64, device=device)})
    assert capsys.readouterr().err == (
        "Warp UserWarning: Running the tape backwards may produce incorrect gradients because "
        f"recorded kernel {forward_only.key} is configured with the option "
        "'enable_backward=False'.\n")
    assert x.grad.numpy()[0] == 0.0
    with pytest.raises(RuntimeError, match="enable_backward=False"):  # an explicit adjoint launch
        wp.launch(forward_only, 1, inputs=[x, y], adjoint=True, device=device)


def test_loss_must_require_grad_and_hold_one_element(device):
    tape = wp.Tape()
    with pytest.raises(ValueError, match="requires_grad=True"):
        tape.backward(loss=wp.zeros(1, dtype=float, device=device))
    with pytest.raises(ValueError, match="one element"):
        tape.backward(loss=wp.zeros(2, dtype=float, device=device, requires_grad=True))


def test_nested_tapes_are_refused():
    with wp.Tape():
        with pytest.raises(RuntimeError, match="already recording"):
            with wp.Tape():
                pass


@wp.struct
class Spring:
    k: wp.float64
    rest: wp.float64
    ends: wp.vec2i


@wp.struct
class Body:
    x: wp.vec3d
    m: wp.float64


@wp.kernel
def struct_energy(springs: wp.array(dtype=Spring), bodies: wp.array(dtype=Body), out: F64):
    i = wp.tid()
    s = springs[i]
    a = bodies[s.ends[0]]
    b = bodies[s.ends[1]]
    d = wp.length(a.x - b.x) - s.rest
    local = Body()
    local.m = a.m * b.m
    local.x = a.x
    out[i] = 0.5 * s.k * d * d * local.m + local.x[1]


def test_struct_fields_carry_gradients(device):
    rng = np.random.default_rng(5)
    sp = np.zeros(3, dtype=Spring.numpy_dtype())
    sp["k"], sp["rest"] = [1.0, 2.0, 0.5], [0.5, 1.0, 0.2]
    sp["ends"] = [[0, 1], [1, 2], [2, 0]]
    bd = np.zeros(3, dtype=Body.numpy_dtype())
    bd["x"], bd["m"] = rng.standard_normal((3, 3)), [1.0, 2.0, 3.0]
    w = rng.standard_normal(3)

    def objective(sp_np, bd_np):
        s = wp.array(sp_np, dtype=Spring, device=device)
        b = wp.array(bd_np, dtype=Body, device=device)
        out = wp.zeros(3, dtype=wp.float64, device=device)
        wp.launch(struct_energy, 3, inputs=[s, b, out], device=device)
        return float(np.sum(out.numpy() * w))

    springs = wp.array(sp, dtype=Spring, device=device, requires_grad=True)
    bodies = wp.array(bd, dtype=Body, device=device, requires_grad=True)
    out = wp.zeros(3, dtype=wp.float64, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(struct_energy, 3, inputs=[springs, bodies, out], device=device)
    tape.backward(grads={out: wp.array(w, dtype=wp.float64, device=device)})
    gs, gb = springs.grad.numpy(), bodies.grad.numpy()
    for field, rec, grad, which in (("k", sp, gs, 0), ("rest", sp, gs, 0), ("x", bd, gb, 1),
                                    ("m", bd, gb, 1)):
        for idx in np.ndindex(rec[field].shape):
            hi, lo = rec.copy(), rec.copy()
            hi[field][idx] += 1e-6
            lo[field][idx] -= 1e-6
            args_hi = (hi, bd) if which == 0 else (sp, hi)
            args_lo = (lo, bd) if which == 0 else (sp, lo)
            fd = (objective(*args_hi) - objective(*args_lo)) / 2e-6
            assert grad[field][idx] == pytest.approx(fd, rel=1e-5, abs=1e-7), (field, idx)


def _backward_error(kernel, device, n=2):
    x = wp.array(np.arange(n, dtype=np.float64), dtype=wp.float64, device=device, requires_grad=True)
    out = wp.zeros(n, dtype=wp.float64, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(kernel, n, inputs=[x, out], device=device)
    with pytest.raises(Exception) as e:
        tape.backward(grads={out: wp.array(np.ones(n), dtype=wp.float64, device=device)})
    return e.value


def test_return_inside_a_loop_is_refused_at_its_line(device):
    @wp.kernel
    def early_exit(x: F64, out: F64):
        i = wp.tid()
        for k in range(x.shape[0]):
            if x[i] > wp.float64(k):
                return
            out[i] = x[i] * wp.float64(k)

    err = _backward_error(early_exit, device)
    line = early_exit.func.__code__.co_firstlineno + 5
    assert type(err).__name__ == "CompileError"
    assert f"test_grad.py:{line}:" in str(err)
    assert ("early_exit(): cannot differentiate a return inside a loop (the backward pass "
            "reverses whole loop iterations); set a flag and break out of the loop instead") in str(err)


def test_using_an_atomic_result_is_refused(device):
    @wp.kernel
    def slots(x: F64, out: F64):
        i = wp.tid()
        slot = wp.atomic_add(out, 0, wp.float64(1.0))
        out[wp.int32(slot) % 2 + 1] = x[i]

    err = _backward_error(slots, device, n=3)
    line = slots.func.__code__.co_firstlineno + 3
    assert f"test_grad.py:{line}:" in str(err)
    assert "slots(): cannot differentiate code that uses the value atomic_add() returns" in str(err)


def test_forward_only_kernels_compile_no_adjoint(device):
    h = scalar_math._compile(device)
    assert not h.adjoint and "_adj_body" not in h.source
    assert scalar_math._compile_adjoint(device).adjoint


def test_gradient_of_a_strided_view(device):
    base = wp.array(np.arange(12, dtype=np.float64).reshape(3, 4), dtype=wp.float64, device=device)
    view = base[:, 1]  # every 4th element
    view.requires_grad = True
    out = wp.zeros(3, dtype=wp.float64, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(double_into, 3, inputs=[view, out], device=device)
    tape.backward(grads={out: wp.array(np.array([1.0, 2.0, 3.0]), dtype=wp.float64, device=device)})
    np.testing.assert_allclose(view.grad.numpy(), [2.0, 4.0, 6.0])
    with pytest.raises(ValueError, match="grad must have the array's strides"):
        view.grad = wp.zeros(3, dtype=wp.float64, device=device)


@wp.kernel
def row_views(x: wp.array2d(dtype=wp.float64), w: F64, out: F64):
    i = wp.tid()
    row = x[i]
    s = wp.float64(0.0)
    for j in range(row.shape[0]):
        s += wp.where(row[j] > 0.0, row[j] * row[j], -row[j]) * w[j]
    out[i] = s


def test_row_views_and_where(device):
    rng = np.random.default_rng(6)
    check_grad(row_views, 3, [rng.standard_normal((3, 4)), rng.standard_normal(4)], [3], device)


@wp.struct
class Particles:
    pos: wp.array(dtype=wp.vec3d)
    scale: wp.float64


@wp.kernel
def struct_of_arrays(p: Particles, out: F64):
    i = wp.tid()
    out[i] = wp.length_sq(p.pos[i]) * p.scale


def test_arrays_inside_structs_get_gradients(device):
    pos = wp.array(np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]]), dtype=wp.vec3d, device=device,
                   requires_grad=True)
    p = Particles()
    p.pos = pos
    p.scale = 2.0
    out = wp.zeros(2, dtype=wp.float64, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(struct_of_arrays, 2, inputs=[p, out], device=device)
    tape.backward(grads={out: wp.array(np.ones(2), dtype=wp.float64, device=device)})
    np.testing.assert_allclose(pos.grad.numpy(), 4.0 * pos.numpy())


@wp.kernel
def fmod_of(x: wp.array(dtype=float), y: wp.array(dtype=float), out: wp.array(dtype=float)):
    out[0] = x[0] % y[0]


def test_mod_gradient_is_warps(device):
    # Warp's adjoint of a % b passes the gradient to a only (none to b)
    x = wp.array([7.5], dtype=float, device=device, requires_grad=True)
    y = wp.array([2.0], dtype=float, device=device, requires_grad=True)
    out = wp.zeros(1, dtype=float, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(fmod_of, 1, inputs=[x, y, out], device=device)
    tape.backward(loss=out)
    assert out.numpy()[0] == 1.5
    assert x.grad.numpy()[0] == 1.0 and y.grad.numpy()[0] == 0.0
