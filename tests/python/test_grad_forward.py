"""wp.grad(f) in forward code: gradients of user functions and builtins inside kernels,
checked against central differences and analytic derivatives."""

import numpy as np
import pytest

import treadle as wp

F64 = wp.array(dtype=wp.float64)


@wp.func
def poly(a: wp.float64, b: wp.float64):
    return a * a * b + wp.sin(a) * wp.float64(3.0)


@wp.func
def looped(x: wp.float64, n: int, y: wp.float64):
    # calls another function and runs a loop: its adjoint replays both
    s = wp.float64(0.0)
    for k in range(n):
        s = s * x + poly(x, y)
    return s


@wp.func
def one_arg(x: wp.float64):
    return wp.exp(x) * x


@wp.kernel
def eval_looped(x: F64, y: F64, out: F64):
    i = wp.tid()
    out[i] = looped(x[i], 3, y[i])


@wp.kernel
def grad_looped(x: F64, y: F64, dx: F64, dy: F64):
    i = wp.tid()
    gx, gy = wp.grad(looped)(x[i], 3, y[i])  # the int parameter has no gradient
    dx[i] = gx
    dy[i] = gy


def _arr(values, device):
    return wp.array(np.asarray(values, dtype=np.float64), dtype=wp.float64, device=device)


def test_grad_of_user_function_matches_finite_differences(device):
    x = np.array([0.3, -0.7, 1.1, 0.5])
    y = np.array([0.9, 0.2, -0.4, 1.3])
    dx, dy = wp.zeros(4, dtype=wp.float64, device=device), wp.zeros(4, dtype=wp.float64, device=device)
    wp.launch(grad_looped, 4, inputs=[_arr(x, device), _arr(y, device), dx, dy], device=device)

    def f(xv, yv):
        out = wp.zeros(4, dtype=wp.float64, device=device)
        wp.launch(eval_looped, 4, inputs=[_arr(xv, device), _arr(yv, device), out], device=device)
        return out.numpy()

    eps = 1e-6
    fd_x = (f(x + eps, y) - f(x - eps, y)) / (2 * eps)
    fd_y = (f(x, y + eps) - f(x, y - eps)) / (2 * eps)
    np.testing.assert_allclose(dx.numpy(), fd_x, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dy.numpy(), fd_y, rtol=1e-6, atol=1e-8)


@wp.func
def uses_grad(x: wp.float64):
    return x + wp.grad(one_arg)(x)


@wp.kernel
def grad_forms(x: F64, y: F64, out: F64):
    i = wp.tid()
    g = wp.grad(one_arg)  # bound to a local, called later
    out[5 * i + 0] = g(x[i])
    out[5 * i + 1] = uses_grad(x[i])
    b, a = wp.grad(wp.atan2)(y[i], x[i])
    out[5 * i + 2] = b
    out[5 * i + 3] = a
    out[5 * i + 4] = wp.grad(wp.sqrt)(y[i] * y[i] + wp.float64(1.0))


def test_grad_forms_and_builtins(device):
    x = np.array([0.5, -1.5, 2.0])
    y = np.array([1.0, 0.25, -3.0])
    out = wp.zeros(15, dtype=wp.float64, device=device)
    wp.launch(grad_forms, 3, inputs=[_arr(x, device), _arr(y, device), out], device=device)
    got = out.numpy().reshape(3, 5)
    d_one_arg = np.exp(x) * (x + 1.0)
    np.testing.assert_allclose(got[:, 0], d_one_arg, rtol=1e-12)
    np.testing.assert_allclose(got[:, 1], x + d_one_arg, rtol=1e-12)
    # atan2(y, x): d/dy = x / (x^2 + y^2), d/dx = -y / (x^2 + y^2)
    np.testing.assert_allclose(got[:, 2], x / (x * x + y * y), rtol=1e-12)
    np.testing.assert_allclose(got[:, 3], -y / (x * x + y * y), rtol=1e-12)
    np.testing.assert_allclose(got[:, 4], 0.5 / np.sqrt(y * y + 1.0), rtol=1e-12)


@wp.func
def clamped(x: wp.float64):
    return x * x


@wp.func_grad(clamped)
def adj_clamped(x: wp.float64, adj_ret: wp.float64):
    # a deliberately different gradient, so the test sees which one wp.grad uses
    wp.adjoint[x] += wp.float64(10.0) * adj_ret


@wp.kernel
def grad_of_custom(x: F64, out: F64):
    i = wp.tid()
    out[i] = wp.grad(clamped)(x[i])


def test_grad_uses_the_custom_gradient(device):
    out = wp.zeros(2, dtype=wp.float64, device=device)
    wp.launch(grad_of_custom, 2, inputs=[_arr([1.0, 2.0], device), out], device=device)
    np.testing.assert_allclose(out.numpy(), [10.0, 10.0])


@wp.func
def root(x: wp.float64):
    return wp.sqrt(x)


@wp.func_grad(root)
def adj_root(x: wp.float64, adj_ret: wp.float64):
    if x > wp.float64(0.0):
        wp.adjoint[x] += wp.grad(wp.sqrt)(x) * adj_ret


@wp.kernel
def use_root(x: F64, out: F64):
    i = wp.tid()
    out[i] = root(x[i]) * x[i]


def test_grad_inside_a_custom_gradient_matches_finite_differences(device):
    xs = np.array([0.5, 2.0, 4.0])
    x = wp.array(xs, dtype=wp.float64, device=device, requires_grad=True)
    out = wp.zeros(3, dtype=wp.float64, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(use_root, 3, inputs=[x, out], device=device)
    tape.backward(grads={out: wp.array(np.ones(3), dtype=wp.float64, device=device)})

    def f(v):
        o = wp.zeros(3, dtype=wp.float64, device=device)
        wp.launch(use_root, 3, inputs=[_arr(v, device), o], device=device)
        return o.numpy()

    eps = 1e-6
    np.testing.assert_allclose(
        x.grad.numpy(), (f(xs + eps) - f(xs - eps)) / (2 * eps), rtol=1e-6, atol=1e-9
    )


@wp.kernel
def grad_is_constant_backward(x: F64, out: F64):
    i = wp.tid()
    # d/dx of out = x * c, where c = wp.grad(one_arg)(x) is a constant to the backward pass
    out[i] = x[i] * wp.grad(one_arg)(x[i])


def test_grad_is_a_constant_in_the_backward_pass(device):
    xs = np.array([0.1, 0.7])
    x = wp.array(xs, dtype=wp.float64, device=device, requires_grad=True)
    out = wp.zeros(2, dtype=wp.float64, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(grad_is_constant_backward, 2, inputs=[x, out], device=device)
    tape.backward(grads={out: wp.array(np.ones(2), dtype=wp.float64, device=device)})
    np.testing.assert_allclose(out.numpy(), xs * np.exp(xs) * (xs + 1.0), rtol=1e-12)
    np.testing.assert_allclose(x.grad.numpy(), np.exp(xs) * (xs + 1.0), rtol=1e-12)


def _build(body, tmp_path, name, header=""):
    src = (
        "import treadle as wp\n\n"
        "@wp.func\n"
        "def sq(x: float):\n"
        "    return x * x\n\n"
        "@wp.func\n"
        "def vec_out(x: float):\n"
        "    return wp.vec2(x, x)\n\n"
        "@wp.func\n"
        "def with_array(a: wp.array(dtype=float), x: float):\n"
        "    return a[0] * x\n\n"
        f"{header}"
        "@wp.kernel\n"
        f"def {name}(out: wp.array(dtype=float)):\n" + body
    )
    path = tmp_path / f"{name}.py"
    path.write_text(src)
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    wp.launch(getattr(mod, name), 1, inputs=[wp.zeros(1, dtype=float)], device="cpu")


@pytest.mark.parametrize(
    "body, message",
    [
        (
            "    g = wp.grad(sq)\n    g = 1.0\n    out[0] = g\n",
            "k(): Cannot reassign local 'g', which holds wp.grad(sq) (kernels have no function pointers)",
        ),
        (
            "    g = wp.grad(sq)\n    g, x = (1.0, 2.0)\n    out[0] = x\n",
            "k(): Cannot reassign local 'g', which holds wp.grad(sq) (kernels have no function pointers)",
        ),
        (
            "    g = wp.grad(sq)\n    g += 1.0\n    out[0] = 1.0\n",
            "k(): Cannot reassign local 'g', which holds wp.grad(sq) (kernels have no function pointers)",
        ),
    ],
)
def test_rebinding_a_grad_local_is_an_error(tmp_path, body, message):
    with pytest.raises(wp.WarpCodegenError) as info:
        _build(body, tmp_path, "k")
    assert message in str(info.value)


@pytest.mark.parametrize(
    "body, message",
    [
        (
            "    out[0] = wp.grad(vec_out)(1.0)[0]\n",
            "k(): wp.grad(vec_out): the function must return one float scalar to be "
            "differentiated (it returns vec2f)",
        ),
        (
            "    out[0] = wp.grad(with_array)(out, 1.0)\n",
            "k(): wp.grad(with_array): parameter 'a' is array(dtype=float32, ndim=1); only functions "
            "of values and structs can be differentiated in forward code",
        ),
        (
            "    s = wp.rand_init(1)\n    out[0] = wp.grad(wp.randf)(s)\n",
            "k(): wp.grad(randf): randf() is not differentiable",
        ),
        ("    out[0] = wp.grad(1.0)(1.0)\n", "k(): wp.grad() takes a @wp.func function or a builtin function"),
    ],
)
def test_grad_of_what_cannot_be_differentiated_is_an_error(tmp_path, body, message):
    with pytest.raises(TypeError) as info:
        _build(body, tmp_path, "k")
    assert message in str(info.value)


def test_grad_called_from_python_is_an_error():
    with pytest.raises(NotImplementedError, match="can only be called inside a @wp.kernel"):
        wp.grad(one_arg)(1.0)
