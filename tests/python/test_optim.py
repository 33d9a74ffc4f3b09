"""treadle.optim: Adam and SGD steps against numpy references (scalars, vectors, matrices,
float16/float64, strided and multi-dimensional parameters), their state handling, a few
minimisations through wp.Tape, and graph capture of a step."""

import numpy as np
import pytest

import treadle as wp
import treadle.optim

# name -> (dtype, element shape, numpy dtype of the reference, relative tolerance)
DTYPES = {
    "float32": (wp.float32, (), np.float32, 2e-5),
    "vec3": (wp.vec3, (3,), np.float32, 2e-5),
    "float64": (wp.float64, (), np.float64, 1e-12),
    "vec2d": (wp.vec2d, (2,), np.float64, 1e-12),
    "mat22": (wp.mat22, (2, 2), np.float32, 2e-5),
}


def _random(rng, n, shape, np_dtype):
    return rng.uniform(-1.0, 1.0, size=(n, *shape)).astype(np_dtype)


def adam_reference(p, grads, lr, beta1, beta2, eps):
    """Parameters and moments after Adam steps with `grads` in turn, as in Kingma and Ba."""
    m = np.zeros_like(p)
    v = np.zeros_like(p)
    for t, g in enumerate(grads, start=1):
        m = beta1 * m + (1.0 - beta1) * g
        v = beta2 * v + (1.0 - beta2) * g * g
        p = p - lr * (m / (1.0 - beta1**t)) / (np.sqrt(v / (1.0 - beta2**t)) + eps)
    return p, m, v


def sgd_reference(p, grads, lr, momentum, dampening, weight_decay, nesterov):
    """Parameters and momentum buffer after SGD steps with `grads` in turn (PyTorch's rule)."""
    b = np.zeros_like(p)
    for t, g in enumerate(grads):
        d = g + weight_decay * p
        if momentum != 0.0:
            b = d if t == 0 else momentum * b + (1.0 - dampening) * d
            d = d + momentum * b if nesterov else b
        p = p - lr * d
    return p, b


@pytest.mark.parametrize("name", sorted(DTYPES))
def test_adam_steps_match_numpy(device, name):
    dtype, shape, np_dtype, rtol = DTYPES[name]
    rng = np.random.default_rng(7)
    start = _random(rng, 33, shape, np_dtype)
    grads = [_random(rng, 33, shape, np_dtype) for _ in range(6)]
    params = wp.array(start, dtype=dtype, device=device)
    opt = treadle.optim.Adam([params], lr=0.05, betas=(0.8, 0.99), eps=1e-6)
    assert opt.m[0].dtype == dtype and opt.m[0].shape == params.shape
    for g in grads:
        opt.step([wp.array(g, dtype=dtype, device=device)])
    assert opt.t == len(grads)
    want_p, want_m, want_v = adam_reference(start.astype(np.float64), grads, 0.05, 0.8, 0.99, 1e-6)
    np.testing.assert_allclose(params.numpy(), want_p, rtol=rtol, atol=rtol)
    np.testing.assert_allclose(opt.m[0].numpy(), want_m, rtol=rtol, atol=rtol)
    np.testing.assert_allclose(opt.v[0].numpy(), want_v, rtol=rtol, atol=rtol)


def test_adam_keeps_float32_moments_for_float16_params(device):
    rng = np.random.default_rng(3)
    start = rng.uniform(-1.0, 1.0, 16).astype(np.float16)
    grads = [rng.uniform(-1.0, 1.0, 16).astype(np.float16) for _ in range(4)]
    params = wp.array(start, dtype=wp.float16, device=device)
    opt = treadle.optim.Adam([params], lr=0.01)
    assert opt.m[0].dtype == wp.float32 and opt.v[0].dtype == wp.float32
    for g in grads:
        opt.step([wp.array(g, dtype=wp.float16, device=device)])
    want_p, want_m, _ = adam_reference(start.astype(np.float64),
                                       [g.astype(np.float64) for g in grads], 0.01, 0.9, 0.999,
                                       1e-8)
    np.testing.assert_allclose(params.numpy().astype(np.float64), want_p, atol=2e-3)
    np.testing.assert_allclose(opt.m[0].numpy(), want_m, rtol=1e-5, atol=1e-6)
    vec_params = wp.zeros(3, dtype=wp.vec3h, device=device)
    assert treadle.optim.Adam([vec_params]).m[0].dtype == wp.vec3


SGD_VARIANTS = {
    "plain": dict(momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False),
    "momentum": dict(momentum=0.9, dampening=0.0, weight_decay=0.0, nesterov=False),
    "dampening": dict(momentum=0.8, dampening=0.3, weight_decay=0.0, nesterov=False),
    "nesterov": dict(momentum=0.9, dampening=0.0, weight_decay=0.0, nesterov=True),
    "weight_decay": dict(momentum=0.0, dampening=0.0, weight_decay=0.05, nesterov=False),
    "all": dict(momentum=0.7, dampening=0.1, weight_decay=0.02, nesterov=True),
}


@pytest.mark.parametrize("variant", sorted(SGD_VARIANTS))
@pytest.mark.parametrize("name", ["float32", "vec3", "float64"])
def test_sgd_steps_match_numpy(device, name, variant):
    dtype, shape, np_dtype, rtol = DTYPES[name]
    options = SGD_VARIANTS[variant]
    rng = np.random.default_rng(11)
    start = _random(rng, 21, shape, np_dtype)
    grads = [_random(rng, 21, shape, np_dtype) for _ in range(5)]
    params = wp.array(start, dtype=dtype, device=device)
    opt = treadle.optim.SGD([params], lr=0.1, **options)
    assert opt.b[0].dtype == dtype and opt.b[0].shape == params.shape
    for g in grads:
        opt.step([wp.array(g, dtype=dtype, device=device)])
    want_p, want_b = sgd_reference(start.astype(np.float64), grads, 0.1, **options)
    np.testing.assert_allclose(params.numpy(), want_p, rtol=rtol, atol=rtol)
    if options["momentum"] != 0.0:
        np.testing.assert_allclose(opt.b[0].numpy(), want_b, rtol=rtol, atol=rtol)


def test_sgd_float16_params(device):
    params = wp.array([1.0, -2.0], dtype=wp.float16, device=device)
    opt = treadle.optim.SGD([params], lr=0.25, momentum=0.5, weight_decay=0.5)
    grad = wp.array([1.0, 1.0], dtype=wp.float16, device=device)
    opt.step([grad])
    opt.step([grad])
    want_p, want_b = sgd_reference(np.array([1.0, -2.0]), [np.ones(2)] * 2, 0.25, 0.5, 0.0, 0.5,
                                   False)
    np.testing.assert_allclose(params.numpy().astype(np.float64), want_p, atol=2e-3)
    np.testing.assert_allclose(opt.b[0].numpy().astype(np.float64), want_b, atol=2e-3)


def test_reset_internal_state_starts_over(device):
    rng = np.random.default_rng(5)
    start = rng.uniform(-1.0, 1.0, (8, 3)).astype(np.float32)
    grad = wp.array(rng.uniform(-1.0, 1.0, (8, 3)), dtype=wp.vec3, device=device)
    for make in (lambda p: treadle.optim.Adam([p], lr=0.1),
                 lambda p: treadle.optim.SGD([p], lr=0.1, momentum=0.9, dampening=0.5)):
        params = wp.array(start, dtype=wp.vec3, device=device)
        opt = make(params)
        for _ in range(3):
            opt.step([grad])
        opt.reset_internal_state()
        assert opt.t == 0
        for state in getattr(opt, "b", []) + getattr(opt, "m", []) + getattr(opt, "v", []):
            assert not state.numpy().any()
        params.assign(wp.array(start, dtype=wp.vec3, device=device))
        opt.step([grad])
        fresh = wp.array(start, dtype=wp.vec3, device=device)
        make(fresh).step([grad])
        np.testing.assert_array_equal(params.numpy(), fresh.numpy())


def test_set_params_keeps_matching_state_and_replaces_the_rest(device):
    a = wp.zeros(4, dtype=float, device=device)
    b = wp.zeros(5, dtype=wp.vec3, device=device)
    opt = treadle.optim.Adam([a, b])
    m_a, m_b = opt.m
    m_a.fill_(2.0)
    opt.set_params([a, wp.zeros(6, dtype=wp.vec3, device=device)])  # same a, another shape
    assert opt.m[0] is m_a and (opt.m[0].numpy() == 2.0).all()
    assert opt.m[1] is not m_b and opt.m[1].shape == (6,)
    opt.set_params([a])  # another count: every buffer anew
    assert len(opt.m) == 1 and opt.m[0] is not m_a and not opt.m[0].numpy().any()
    sgd = treadle.optim.SGD(None, lr=0.5)
    assert sgd.params is None and sgd.b == []
    sgd.set_params([a])
    assert sgd.b[0].dtype == wp.float32 and sgd.b[0].shape == (4,)


@wp.kernel
def squared_distance(x: wp.array(dtype=wp.vec3), target: wp.array(dtype=wp.vec3),
                     loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


@wp.kernel
def weighted_squares(x: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    w = float(i + j + 1)
    wp.atomic_add(loss, 0, w * (x[i, j] - 1.0) * (x[i, j] - 1.0))


def _minimise(opt, launch_loss, params, loss, steps):
    tape = wp.Tape()
    for _ in range(steps):
        loss.zero_()
        tape.reset()
        with tape:
            launch_loss()
        tape.backward(loss)
        opt.step([tape.gradients[p] for p in params])
    return float(loss.numpy()[0])


@pytest.mark.parametrize("which", ["adam", "sgd"])
def test_minimising_a_quadratic_through_a_tape(device, which):
    rng = np.random.default_rng(2)
    target = wp.array(rng.uniform(-1.0, 1.0, (10, 3)), dtype=wp.vec3, device=device)
    x = wp.zeros(10, dtype=wp.vec3, device=device, requires_grad=True)
    loss = wp.zeros(1, dtype=float, device=device, requires_grad=True)
    if which == "adam":
        opt = treadle.optim.Adam([x], lr=0.05)
    else:
        opt = treadle.optim.SGD([x], lr=0.1, momentum=0.5, nesterov=True)
    first = _minimise(opt, lambda: wp.launch(squared_distance, 10, inputs=[x, target, loss],
                                             device=device), [x], loss, 1)
    last = _minimise(opt, lambda: wp.launch(squared_distance, 10, inputs=[x, target, loss],
                                            device=device), [x], loss, 300)
    assert first > 1.0 and last < 1e-6
    np.testing.assert_allclose(x.numpy(), target.numpy(), atol=1e-3)


def test_two_dimensional_params_are_optimised_whole(device):
    x = wp.zeros((3, 4), dtype=float, device=device, requires_grad=True)
    loss = wp.zeros(1, dtype=float, device=device, requires_grad=True)
    opt = treadle.optim.Adam([x], lr=0.05)
    _minimise(opt, lambda: wp.launch(weighted_squares, (3, 4), inputs=[x, loss], device=device),
              [x], loss, 400)
    np.testing.assert_allclose(x.numpy(), np.ones((3, 4)), atol=1e-3)


def test_strided_params_update_only_their_elements(device):
    rng = np.random.default_rng(9)
    start = rng.uniform(-1.0, 1.0, (8, 3)).astype(np.float32)
    grads = rng.uniform(-1.0, 1.0, (8, 3)).astype(np.float32)
    whole = wp.array(start, dtype=wp.vec3, device=device)
    grad_whole = wp.array(grads, dtype=wp.vec3, device=device)
    opt = treadle.optim.Adam([whole[::2]], lr=0.1)
    opt.step([grad_whole[::2]])
    opt.step([wp.array(grads[::2], dtype=wp.vec3, device=device)])  # a contiguous gradient
    want, _, _ = adam_reference(start[::2].astype(np.float64), [grads[::2]] * 2, 0.1, 0.9, 0.999,
                                1e-8)
    got = whole.numpy()
    np.testing.assert_allclose(got[::2], want, rtol=2e-5, atol=2e-6)
    np.testing.assert_array_equal(got[1::2], start[1::2])
    scalars = wp.array(start[:, 0], dtype=float, device=device)
    treadle.optim.SGD([scalars[1::3]], lr=1.0).step([wp.ones(3, dtype=float, device=device)])
    want_scalars = start[:, 0].copy()
    want_scalars[1::3] -= 1.0
    np.testing.assert_allclose(scalars.numpy(), want_scalars, rtol=1e-6)


def test_a_captured_step_replays(device):
    params = wp.array([1.0, -1.0, 0.5], dtype=float, device=device)
    grad = wp.array([0.5, 0.25, -1.0], dtype=float, device=device)
    opt = treadle.optim.SGD([params], lr=0.1, momentum=0.5)
    opt.step([grad])  # the first step starts the momentum and builds the kernel
    after_one = params.numpy().copy()
    with wp.ScopedCapture(device) as capture:
        opt.step([grad])  # recorded, not run
    np.testing.assert_array_equal(params.numpy(), after_one)
    for _ in range(3):
        wp.capture_launch(capture.graph)
    want, _ = sgd_reference(np.array([1.0, -1.0, 0.5]), [grad.numpy()] * 4, 0.1, 0.5, 0.0, 0.0,
                            False)
    np.testing.assert_allclose(params.numpy(), want, rtol=1e-6)


def test_mistakes_raise_clear_errors():
    params = wp.zeros(4, dtype=float, device="cpu")
    with pytest.raises(RuntimeError, match=r"Adam\.step\(\): no parameters"):
        treadle.optim.Adam().step([])
    with pytest.raises(RuntimeError, match=r"unsupported parameter dtype int32"):
        treadle.optim.Adam([wp.zeros(4, dtype=int, device="cpu")])
    with pytest.raises(RuntimeError, match=r"unsupported parameter dtype int32"):
        treadle.optim.SGD([wp.zeros(4, dtype=int, device="cpu")])
    with pytest.raises(TypeError, match=r"gradient's dtype float64 differs"):
        treadle.optim.SGD([params]).step([wp.zeros(4, dtype=wp.float64, device="cpu")])
    with pytest.raises(ValueError, match=r"gradient's shape \(3,\) differs"):
        treadle.optim.Adam([params]).step([wp.zeros(3, dtype=float, device="cpu")])
    with pytest.raises(ValueError, match=r"1 gradient arrays for 2 parameters"):
        treadle.optim.SGD([params, params]).step([params])
    grid = wp.zeros((4, 4), dtype=float, device="cpu")
    with pytest.raises(RuntimeError, match="contiguous or one-dimensional"):
        treadle.optim.SGD([grid[:, 1:]]).step([wp.zeros((4, 3), dtype=float, device="cpu")])


def test_the_module_has_what_warp_optim_has():
    assert treadle.optim.Adam.__init__.__defaults__ == (None, 0.001, (0.9, 0.999), 1e-08)
    assert treadle.optim.SGD.__init__.__defaults__ == (None, 0.001, 0.0, 0.0, 0.0, False)
    opt = treadle.optim.Adam(lr=0.5, betas=(0.7, 0.8), eps=0.25)
    assert (opt.lr, opt.beta1, opt.beta2, opt.eps, opt.t, opt.m, opt.v) == (0.5, 0.7, 0.8, 0.25,
                                                                             0, [], [])
    assert {"cg", "cr", "bicgstab", "gmres", "CG", "LinearOperator", "aslinearoperator",
            "preconditioner"} <= set(dir(treadle.optim.linear))  # warp.optim.linear
