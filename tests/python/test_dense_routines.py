"""dense_gemm, dense_chol, dense_subs and dense_solve: values against numpy, the gradients of
dense_gemm and dense_solve against finite differences."""

import numpy as np
import pytest

import treadle as wp
import treadle.autograd


@wp.kernel
def gemm(m: int, n: int, p: int, t1: int, t2: int, A: wp.array(dtype=float),
         B: wp.array(dtype=float), C: wp.array(dtype=float)):
    wp.dense_gemm(m, n, p, t1, t2, A, B, C)


@wp.kernel
def chol_subs(n: int, A: wp.array(dtype=float), reg: float, L: wp.array(dtype=float),
              b: wp.array(dtype=float), x: wp.array(dtype=float)):
    wp.dense_chol(n, A, reg, L)
    wp.dense_subs(n, L, b, x)


@wp.kernel
def solve(n: int, A: wp.array(dtype=float), L: wp.array(dtype=float), b: wp.array(dtype=float),
          x: wp.array(dtype=float)):
    wp.dense_solve(n, A, L, b, x)


def spd(rng, n):
    m = rng.standard_normal((n, n))
    return (m @ m.T + n * np.eye(n)).astype(np.float32)


@pytest.mark.parametrize("t1, t2", [(0, 0), (1, 0), (0, 1), (1, 1)])
def test_dense_gemm_matches_numpy(t1, t2, device):
    rng = np.random.default_rng(t1 * 2 + t2)
    m, n, p = 3, 4, 5
    a = rng.standard_normal((p, m) if t1 else (m, p)).astype(np.float32)
    b = rng.standard_normal((n, p) if t2 else (p, n)).astype(np.float32)
    c = wp.full(m * n, 7.0, dtype=float, device=device)  # overwritten, not accumulated
    wp.launch(gemm, dim=1, inputs=[m, n, p, t1, t2, wp.array(a.ravel(), device=device),
                                   wp.array(b.ravel(), device=device), c], device=device)
    expected = (a.T if t1 else a) @ (b.T if t2 else b)
    np.testing.assert_allclose(c.numpy().reshape(m, n), expected, rtol=1e-5, atol=1e-5)


def test_dense_chol_and_subs_match_numpy(device):
    rng = np.random.default_rng(1)
    n = 5
    a = spd(rng, n)
    b = rng.standard_normal(n).astype(np.float32)
    L = wp.full(n * n, 3.0, dtype=float, device=device)
    x = wp.zeros(n, dtype=float, device=device)
    wp.launch(chol_subs, dim=1, inputs=[n, wp.array(a.ravel(), device=device), 0.5, L,
                                        wp.array(b, device=device), x], device=device)
    lower = np.linalg.cholesky(a.astype(np.float64) + 0.5 * np.eye(n))
    got = L.numpy().reshape(n, n)
    np.testing.assert_allclose(np.tril(got), lower, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(got[np.triu_indices(n, 1)], 3.0)  # upper triangle untouched
    np.testing.assert_allclose(x.numpy(), np.linalg.solve(a + 0.5 * np.eye(n), b), rtol=1e-4,
                               atol=1e-5)


def test_dense_gemm_gradient_matches_finite_differences(device):
    rng = np.random.default_rng(2)
    m, n, p = 2, 3, 2
    for t1, t2 in [(0, 0), (1, 1)]:
        A = wp.array(rng.standard_normal(m * p), dtype=float, device=device, requires_grad=True)
        B = wp.array(rng.standard_normal(p * n), dtype=float, device=device, requires_grad=True)
        C = wp.zeros(m * n, dtype=float, device=device, requires_grad=True)
        inputs = [m, n, p, t1, t2, A, B]
        ad = treadle.autograd.jacobian(gemm, 1, inputs=inputs, outputs=[C], device=device)
        fd = treadle.autograd.jacobian_fd(gemm, 1, inputs=inputs, outputs=[C], device=device,
                                          eps=1e-2)
        assert {(5, 0), (6, 0)} <= set(ad)
        for key in ad:
            np.testing.assert_allclose(ad[key], fd[key], rtol=1e-3, atol=1e-3)


def test_dense_solve_gradients(device):
    # L counts as a constant: the gradient in b matches finite differences with L fixed, and
    # the one in A is the analytic -A^-1 e_k x^T of x = A^-1 b (for output k).
    rng = np.random.default_rng(3)
    n = 3
    a = spd(rng, n)
    A = wp.array(a.ravel(), dtype=float, device=device, requires_grad=True)
    L = wp.zeros(n * n, dtype=float, device=device)
    b = wp.array(rng.standard_normal(n), dtype=float, device=device, requires_grad=True)
    x = wp.zeros(n, dtype=float, device=device, requires_grad=True)
    wp.launch(chol_subs, dim=1, inputs=[n, A, 0.0, L, b, x], device=device)
    inputs = [n, A, L, b]
    ad = treadle.autograd.jacobian(solve, 1, inputs=inputs, outputs=[x], device=device)
    fd = treadle.autograd.jacobian_fd(solve, 1, inputs=inputs, outputs=[x], device=device,
                                      eps=1e-2)
    np.testing.assert_allclose(ad[(3, 0)], fd[(3, 0)], rtol=1e-3, atol=1e-4)
    inv = np.linalg.inv(a.astype(np.float64))
    xs = inv @ b.numpy()
    expected = -np.einsum("ki,j->kij", inv, xs).reshape(n, n * n)
    np.testing.assert_allclose(ad[(1, 0)], expected, rtol=1e-4, atol=1e-5)


def test_dense_solve_gradient_size_limit_is_reported(device, capfd):
    if device != "cpu":
        pytest.skip("reads the kernel's printf through the process's stdout")
    n = 257
    eye = np.eye(n, dtype=np.float32).ravel()
    A = wp.array(eye, dtype=float, device=device, requires_grad=True)
    L = wp.array(eye, dtype=float, device=device)
    b = wp.ones(n, dtype=float, device=device, requires_grad=True)
    x = wp.zeros(n, dtype=float, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(solve, dim=1, inputs=[n, A, L, b, x], device=device)
    np.testing.assert_array_equal(x.numpy(), 1.0)
    tape.backward(grads={x: wp.ones(n, dtype=float, device=device)})
    assert "dense_solve(): no gradient for n = 257 (at most 256)" in capfd.readouterr().out
    np.testing.assert_array_equal(b.grad.numpy(), 0.0)
