"""3x3 decompositions in kernels (svd3, qr3, eig3, quat_to_axis_angle) against numpy."""

import numpy as np
import pytest

import treadle as wp


@wp.kernel
def decompose(a: wp.array(dtype=wp.mat33), u: wp.array(dtype=wp.mat33),
              s: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.mat33),
              q: wp.array(dtype=wp.mat33), r: wp.array(dtype=wp.mat33),
              e: wp.array(dtype=wp.mat33), d: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    m = a[i]
    U, sigma, V = wp.svd3(m)
    u[i] = U
    s[i] = sigma
    v[i] = V
    Q, R = wp.qr3(m)
    q[i] = Q
    r[i] = R
    E, w = wp.eig3(m + wp.transpose(m))
    e[i] = E
    d[i] = w


@wp.kernel
def decompose_f64(a: wp.array(dtype=wp.mat33d), err: wp.array(dtype=wp.float64)):
    i = wp.tid()
    m = a[i]
    U, sigma, V = wp.svd3(m)
    Q, R = wp.qr3(m)
    E, w = wp.eig3(m * wp.transpose(m))
    d1 = U * wp.diag(sigma) * wp.transpose(V) - m
    d2 = Q * R - m
    d3 = E * wp.diag(w) * wp.transpose(E) - m * wp.transpose(m)
    err[i] = wp.ddot(d1, d1) + wp.ddot(d2, d2) + wp.ddot(d3, d3)


def random_mats(n, seed):
    rng = np.random.default_rng(seed)
    m = rng.standard_normal((n, 3, 3))
    m[0] = 0.0  # degenerate cases: zero, rank 1, repeated singular values
    m[1] = np.outer([1.0, 2.0, 3.0], [-1.0, 0.5, 2.0])
    m[2] = np.diag([2.0, 2.0, -1.0])
    m[3] = np.eye(3)
    return m


def check_rotations(m, tol):
    eye = np.broadcast_to(np.eye(3), m.shape)
    np.testing.assert_allclose(np.swapaxes(m, 1, 2) @ m, eye, atol=tol)
    np.testing.assert_allclose(np.linalg.det(m), 1.0, atol=tol)


def test_decompositions_match_numpy(device):
    n = 64
    m = random_mats(n, 11).astype(np.float32)
    a = wp.array(m, dtype=wp.mat33, device=device)
    outs = [wp.zeros(n, dtype=t, device=device)
            for t in (wp.mat33, wp.vec3, wp.mat33, wp.mat33, wp.mat33, wp.mat33, wp.vec3)]
    wp.launch(decompose, dim=n, inputs=[a, *outs], device=device)
    u, s, v, q, r, e, d = (x.numpy().astype(np.float64) for x in outs)
    m64 = m.astype(np.float64)
    # svd: A = U diag(s) V^T, rotations, |s| as numpy's singular values, sign(s2) = sign(det A)
    check_rotations(u, 1e-5)
    check_rotations(v, 1e-5)
    np.testing.assert_allclose(u @ (s[:, :, None] * np.swapaxes(v, 1, 2)), m64, atol=2e-5)
    np.testing.assert_allclose(np.abs(s), np.linalg.svd(m64, compute_uv=False), atol=2e-5)
    det = np.linalg.det(m64)
    clear = np.abs(det) > 1e-4
    assert (np.sign(s[clear, 2]) == np.sign(det[clear])).all()
    assert (s[:, :2] >= 0).all()
    # qr: A = Q R, Q a rotation, R upper triangular, |R| as numpy's up to row signs
    check_rotations(q, 1e-5)
    np.testing.assert_allclose(q @ r, m64, atol=2e-5)
    assert (np.tril(r, -1) == 0).all()
    full = np.abs(det) > 1e-3
    np.testing.assert_allclose(np.abs(r[full]), np.abs(np.linalg.qr(m64[full])[1]), atol=2e-5)
    # eig: symmetric input, ascending eigenvalues as numpy's eigh
    sym = m64 + np.swapaxes(m64, 1, 2)
    check_rotations(e, 1e-5)
    np.testing.assert_allclose(d, np.linalg.eigh(sym)[0], atol=5e-5)
    np.testing.assert_allclose(e @ (d[:, :, None] * np.swapaxes(e, 1, 2)), sym, atol=5e-5)


def test_decompositions_float64(device):
    n = 32
    a = wp.array(random_mats(n, 12), dtype=wp.mat33d, device=device)
    err = wp.zeros(n, dtype=wp.float64, device=device)
    wp.launch(decompose_f64, dim=n, inputs=[a, err], device=device)
    assert err.numpy().max() < 1e-24


@wp.kernel
def out_arguments(a: wp.array(dtype=wp.mat33), out: wp.array(dtype=wp.mat33),
                  ax: wp.array(dtype=wp.vec3), angle: wp.array(dtype=float),
                  q: wp.array(dtype=wp.quat)):
    i = wp.tid()
    U = wp.mat33()
    sigma = wp.vec3()
    V = wp.mat33()
    for k in range(i + 1):  # a dynamic loop: the outputs are loop-carried
        wp.svd3(a[i] * float(k + 1), U, sigma, V)
    out[i] = U * wp.diag(sigma) * wp.transpose(V)
    axis = wp.vec3()
    t = 0.0
    wp.quat_to_axis_angle(q[i], axis, t)
    ax[i] = axis
    _axis, t2 = wp.quat_to_axis_angle(q[i])
    angle[i] = t + t2


def test_out_argument_forms(device):
    n = 8
    m = random_mats(n, 13).astype(np.float32)
    rng = np.random.default_rng(14)
    axes = rng.standard_normal((n, 3))
    axes /= np.linalg.norm(axes, axis=1, keepdims=True)
    angles = rng.uniform(0.1, 3.0, n)
    qs = np.concatenate([axes * np.sin(angles / 2)[:, None], np.cos(angles / 2)[:, None]], 1)
    qs[::2] *= -1.0  # -q is the same rotation
    a = wp.array(m, dtype=wp.mat33, device=device)
    out = wp.zeros(n, dtype=wp.mat33, device=device)
    ax = wp.zeros(n, dtype=wp.vec3, device=device)
    angle = wp.zeros(n, dtype=float, device=device)
    q = wp.array(qs.astype(np.float32), dtype=wp.quat, device=device)
    wp.launch(out_arguments, dim=n, inputs=[a, out, ax, angle, q], device=device)
    scale = np.arange(1, n + 1, dtype=np.float64)[:, None, None]
    np.testing.assert_allclose(out.numpy(), m * scale, atol=1e-4)
    np.testing.assert_allclose(ax.numpy(), axes, atol=1e-5)
    np.testing.assert_allclose(angle.numpy(), 2 * angles, atol=1e-5)


def test_decomposition_errors():
    @wp.kernel
    def bad_input(a: wp.array(dtype=wp.mat22)):
        _U, _s, _V = wp.svd3(a[0])

    with pytest.raises(TypeError, match=r"svd3\(\): no overload accepts \(mat22f\)"):
        bad_input._compile("cpu")

    @wp.kernel
    def bad_output(a: wp.array(dtype=wp.mat33)):
        Q = wp.mat33()
        R = wp.vec3()
        wp.qr3(a[0], Q, R)

    with pytest.raises(TypeError, match=r"qr3\(\): output 'R' has type vec3f, expected mat33f"):
        bad_output._compile("cpu")


@wp.kernel
def svd_2x2(a: wp.array(dtype=wp.mat22), u: wp.array(dtype=wp.mat22),
            s: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.mat22)):
    i = wp.tid()
    U, sigma, V = wp.svd2(a[i])
    u[i] = U
    s[i] = sigma
    v[i] = V


def test_svd2_matches_numpy(device):
    n = 32
    m = np.random.default_rng(15).standard_normal((n, 2, 2)).astype(np.float32)
    m[0] = 0.0
    m[1] = [[1.0, 2.0], [2.0, 4.0]]
    a = wp.array(m, dtype=wp.mat22, device=device)
    u, s, v = (wp.zeros(n, dtype=t, device=device) for t in (wp.mat22, wp.vec2, wp.mat22))
    wp.launch(svd_2x2, dim=n, inputs=[a, u, s, v], device=device)
    un, sn, vn = (x.numpy().astype(np.float64) for x in (u, s, v))
    np.testing.assert_allclose(sn, np.linalg.svd(m.astype(np.float64), compute_uv=False),
                               atol=1e-5)
    np.testing.assert_allclose(un @ (sn[:, :, None] * np.swapaxes(vn, 1, 2)), m, atol=1e-5)
    np.testing.assert_allclose(np.swapaxes(un, 1, 2) @ un, np.broadcast_to(np.eye(2), un.shape),
                               atol=1e-5)


mat33h = wp.types.matrix((3, 3), dtype=wp.float16)
mat22h = wp.types.matrix((2, 2), dtype=wp.float16)


@wp.kernel
def half_decompositions(a: wp.array(dtype=mat33h), b: wp.array(dtype=mat22h),
                        out: wp.array(dtype=mat33h), sv: wp.array(dtype=wp.vec3h),
                        loss: wp.array(dtype=wp.float16)):
    U, s, V = wp.svd3(a[0])
    out[0] = U * wp.diag(s) * wp.transpose(V)
    Q, R = wp.qr3(a[0])
    out[1] = Q * R
    E, d = wp.eig3(a[0] + wp.transpose(a[0]))
    out[2] = E * wp.diag(d) * wp.transpose(E)
    U2, s2, V2 = wp.svd2(b[0])
    sv[0] = s
    sv[1] = wp.vec3h(s2[0], s2[1], wp.float16(0.0))
    loss[0] = s[0] + s[1] + s[2]


def test_float16_decompositions_are_computed_in_float32(device):
    rng = np.random.default_rng(5)
    m = (rng.normal(size=(3, 3)) + 3.0 * np.eye(3)).astype(np.float16)
    m2 = m[:2, :2].copy()
    a = wp.array(m[None], dtype=mat33h, device=device, requires_grad=True)
    b = wp.array(m2[None], dtype=mat22h, device=device)
    out = wp.zeros(3, dtype=mat33h, device=device)
    sv = wp.zeros(2, dtype=wp.vec3h, device=device)
    loss = wp.zeros(1, dtype=wp.float16, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(half_decompositions, 1, inputs=[a, b, out, sv, loss], device=device)
    tape.backward(loss=loss)
    m32 = m.astype(np.float32)
    got = out.numpy().astype(np.float32)
    np.testing.assert_allclose(got[0], m32, atol=2e-2)
    np.testing.assert_allclose(got[1], m32, atol=2e-2)
    np.testing.assert_allclose(got[2], m32 + m32.T, atol=4e-2)
    s = np.linalg.svd(m32, compute_uv=False)
    np.testing.assert_allclose(np.abs(sv.numpy()[0].astype(np.float32)), s, rtol=5e-3)
    np.testing.assert_allclose(sv.numpy()[1][:2].astype(np.float32),
                               np.linalg.svd(m2.astype(np.float32), compute_uv=False), rtol=5e-3)
    # d(sum of singular values)/dA = U V^T (the polar rotation)
    u, _, vt = np.linalg.svd(m32)
    np.testing.assert_allclose(a.grad.numpy()[0].astype(np.float32), u @ vt, atol=2e-2)
