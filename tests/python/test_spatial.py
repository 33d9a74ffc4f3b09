"""Spatial vectors and matrices (Warp's 6-vectors and 6x6 matrices) in kernels and on the host."""

import numpy as np
import pytest

import treadle as wp


def np_spatial_cross(a, b):
    wa, va, wb, vb = a[..., :3], a[..., 3:], b[..., :3], b[..., 3:]
    return np.concatenate([np.cross(wa, wb), np.cross(va, wb) + np.cross(wa, vb)], -1)


def np_spatial_cross_dual(a, b):
    w, v, n, f = a[..., :3], a[..., 3:], b[..., :3], b[..., 3:]
    return np.concatenate([np.cross(w, n) + np.cross(v, f), np.cross(w, f)], -1)


@wp.kernel
def spatial_ops(a: wp.array(dtype=wp.spatial_vector), b: wp.array(dtype=wp.spatial_vector),
                r: wp.array(dtype=wp.mat33), out: wp.array2d(dtype=wp.spatial_vector),
                parts: wp.array2d(dtype=wp.vec3), dots: wp.array(dtype=float),
                mats: wp.array(dtype=wp.spatial_matrix)):
    i = wp.tid()
    x = a[i]
    y = b[i]
    out[i, 0] = wp.spatial_cross(x, y)
    out[i, 1] = wp.spatial_cross_dual(x, y)
    out[i, 2] = wp.spatial_vector(wp.spatial_bottom(x), wp.spatial_top(x))
    out[i, 3] = wp.spatial_vector(1.0, 2.0, 3.0, 4.0, 5.0, float(i)) + x * 2.0
    parts[i, 0] = wp.spatial_top(y)
    parts[i, 1] = wp.spatial_bottom(y)
    dots[i] = wp.spatial_dot(x, y)
    m = wp.spatial_adjoint(r[i], wp.skew(wp.spatial_top(x)) * r[i])
    mats[i] = m
    out[i, 4] = m * y
    z = wp.spatial_vector()
    z[5] = x[0]
    out[i, 5] = z


def test_spatial_builtins_match_numpy(device):
    rng = np.random.default_rng(21)
    n = 32
    av = rng.standard_normal((n, 6)).astype(np.float32)
    bv = rng.standard_normal((n, 6)).astype(np.float32)
    rv = rng.standard_normal((n, 3, 3)).astype(np.float32)
    a = wp.array(av, dtype=wp.spatial_vector, device=device)
    b = wp.array(bv, dtype=wp.spatial_vector, device=device)
    r = wp.array(rv, dtype=wp.mat33, device=device)
    out = wp.zeros((n, 6), dtype=wp.spatial_vector, device=device)
    parts = wp.zeros((n, 2), dtype=wp.vec3, device=device)
    dots = wp.zeros(n, dtype=float, device=device)
    mats = wp.zeros(n, dtype=wp.spatial_matrix, device=device)
    wp.launch(spatial_ops, dim=n, inputs=[a, b, r, out, parts, dots, mats], device=device)
    o = out.numpy()
    np.testing.assert_allclose(o[:, 0], np_spatial_cross(av, bv), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(o[:, 1], np_spatial_cross_dual(av, bv), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(o[:, 2], np.concatenate([av[:, 3:], av[:, :3]], 1))
    base = np.tile(np.arange(1, 7, dtype=np.float32), (n, 1))
    base[:, 5] = np.arange(n)
    np.testing.assert_allclose(o[:, 3], base + 2 * av, rtol=1e-6)
    np.testing.assert_array_equal(parts.numpy()[:, 0], bv[:, :3])
    np.testing.assert_array_equal(parts.numpy()[:, 1], bv[:, 3:])
    np.testing.assert_allclose(dots.numpy(), (av * bv).sum(1), rtol=1e-5, atol=1e-6)
    skew = np.zeros((n, 3, 3), dtype=np.float64)
    w = av[:, :3].astype(np.float64)
    skew[:, 0, 1], skew[:, 0, 2], skew[:, 1, 2] = -w[:, 2], w[:, 1], -w[:, 0]
    skew -= np.swapaxes(skew, 1, 2)
    expect = np.zeros((n, 6, 6))
    expect[:, :3, :3] = expect[:, 3:, 3:] = rv
    expect[:, 3:, :3] = skew @ rv
    np.testing.assert_allclose(mats.numpy(), expect, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(o[:, 4], (expect @ bv[:, :, None])[..., 0], rtol=1e-4, atol=1e-4)
    np.testing.assert_array_equal(o[:, 5, 5], av[:, 0])
    assert (o[:, 5, :5] == 0).all()


@wp.kernel
def spatial_f64(a: wp.array(dtype=wp.spatial_vectord), out: wp.array(dtype=wp.spatial_vectord)):
    i = wp.tid()
    out[i] = wp.spatial_cross(a[i], a[i]) + wp.spatial_vectord(wp.spatial_top(a[i]) * 2.0,
                                                                wp.vec3d())


def test_spatial_float64(device):
    av = np.random.default_rng(22).standard_normal((8, 6))
    a = wp.array(av, dtype=wp.spatial_vectord, device=device)
    out = wp.zeros(8, dtype=wp.spatial_vectord, device=device)
    wp.launch(spatial_f64, dim=8, inputs=[a, out], device=device)
    expect = np.concatenate([2 * av[:, :3], np.zeros((8, 3))], 1)
    np.testing.assert_allclose(out.numpy(), expect, atol=1e-14)


def test_spatial_host_types():
    v = wp.spatial_vector(wp.vec3(1.0, 2.0, 3.0), wp.vec3(4.0, 5.0, 6.0))
    assert type(v).__name__ == "spatial_vectorf"
    assert wp.types.vector(6, wp.float32) is wp.spatial_vectorf is wp.spatial_vector
    assert wp.types.matrix((6, 6), wp.float64) is wp.spatial_matrixd
    assert list(v) == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    assert list(wp.spatial_top(v)) == [1.0, 2.0, 3.0]
    assert list(wp.spatial_bottom(v)) == [4.0, 5.0, 6.0]
    assert wp.spatial_dot(v, v) == 91.0
    u = wp.spatial_vector(0.0, 0.0, 1.0, 0.0, 0.0, 0.0)
    x = wp.spatial_vector(0.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    assert list(wp.spatial_cross(u, x)) == [0.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    tw = wp.spatial_vector(0.0, 0.0, 1.0, 1.0, 0.0, 0.0)
    wr = wp.spatial_vector(0.0, 0.0, 0.0, 0.0, 1.0, 0.0)
    assert list(wp.spatial_cross_dual(tw, wr)) == [0.0, 0.0, 1.0, -1.0, 0.0, 0.0]
    assert np.asarray(wp.spatial_matrix()).shape == (6, 6)
    with pytest.raises(RuntimeError, match="Couldn't find a function 'spatial_top'"):
        wp.spatial_top(wp.vec3())


def test_spatial_errors():
    @wp.kernel
    def bad(a: wp.array(dtype=wp.vec3)):
        a[0] = wp.spatial_top(a[0])

    with pytest.raises(TypeError, match=r"spatial_top\(\): no overload accepts \(vec3f\)"):
        bad._compile("cpu")


@wp.kernel
def half_precision(q: wp.array(dtype=wp.quath), out: wp.array(dtype=wp.vec3h),
                   s: wp.array(dtype=wp.spatial_vectorh)):
    i = wp.tid()
    axis, angle = wp.quat_to_axis_angle(q[i])
    out[i] = axis * angle
    s[i] = wp.spatial_cross(s[i], s[i]) + wp.spatial_vectorh(axis, axis)


def test_float16_spatial_and_axis_angle(device):
    q = wp.array(np.array([[0, 0, 0.7071, 0.7071]], dtype=np.float16), dtype=wp.quath,
                 device=device)
    out = wp.zeros(1, dtype=wp.vec3h, device=device)
    s = wp.zeros(1, dtype=wp.spatial_vectorh, device=device)
    wp.launch(half_precision, dim=1, inputs=[q, out, s], device=device)
    np.testing.assert_allclose(out.numpy()[0], [0, 0, np.pi / 2], atol=2e-3)
    np.testing.assert_array_equal(s.numpy()[0], [0, 0, 1, 0, 0, 1])


@wp.kernel
def move_spatial(t: wp.array(dtype=wp.transformd), x: wp.array(dtype=wp.spatial_vectord),
                 twist: wp.array(dtype=wp.spatial_vectord), wrench: wp.array(dtype=wp.spatial_vectord)):
    i = wp.tid()
    twist[i] = wp.transform_twist(t[i], x[i])
    wrench[i] = wp.transform_wrench(t[i], x[i])


def test_transform_twist_and_wrench(device):
    rng = np.random.default_rng(8)
    n = 5
    q = rng.standard_normal((n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    tr = np.concatenate([rng.standard_normal((n, 3)), q], axis=1)
    xs = rng.standard_normal((n, 6))
    t = wp.array(tr, dtype=wp.transformd, device=device)
    x = wp.array(xs, dtype=wp.spatial_vectord, device=device)
    twist = wp.zeros(n, dtype=wp.spatial_vectord, device=device)
    wrench = wp.zeros(n, dtype=wp.spatial_vectord, device=device)
    wp.launch(move_spatial, n, inputs=[t, x, twist, wrench], device=device)
    for i in range(n):
        R = np.array(wp.quat_to_matrix(wp.quatd(*q[i])))
        p = tr[i, :3]
        w, v = R @ xs[i, :3], R @ xs[i, 3:]
        np.testing.assert_allclose(twist.numpy()[i], np.concatenate([w, v + np.cross(p, w)]), atol=1e-12)
        tau, f = R @ xs[i, :3], R @ xs[i, 3:]
        np.testing.assert_allclose(wrench.numpy()[i], np.concatenate([tau + np.cross(p, f), f]), atol=1e-12)
        host = wp.transform_twist(wp.transformd(*tr[i]), wp.spatial_vectord(*xs[i]))
        np.testing.assert_allclose(np.array(host), twist.numpy()[i], atol=1e-12)
        host = wp.transform_wrench(wp.transformd(*tr[i]), wp.spatial_vectord(*xs[i]))
        np.testing.assert_allclose(np.array(host), wrench.numpy()[i], atol=1e-12)


@wp.kernel
def chain_matrices(S: wp.array(dtype=wp.spatial_vectord), parents: wp.array(dtype=wp.int32),
                   qd_start: wp.array(dtype=wp.int32), I_s: wp.array(dtype=wp.spatial_matrixd),
                   J: wp.array(dtype=wp.float64), M: wp.array(dtype=wp.float64)):
    wp.spatial_jacobian(S, parents, qd_start, 0, 3, 0, J)
    wp.spatial_mass(I_s, 0, 3, 0, M)


def test_spatial_jacobian_and_mass_with_gradients(device):
    rng = np.random.default_rng(9)
    parents = np.array([-1, 0, 1], dtype=np.int32)
    qd_start = np.array([0, 1, 3, 4], dtype=np.int32)  # joints with 1, 2 and 1 dofs
    S0 = rng.standard_normal((4, 6))
    I0 = rng.standard_normal((3, 6, 6))
    S = wp.array(S0, dtype=wp.spatial_vectord, device=device, requires_grad=True)
    I_s = wp.array(I0, dtype=wp.spatial_matrixd, device=device, requires_grad=True)
    J = wp.zeros(18 * 4, dtype=wp.float64, device=device, requires_grad=True)
    M = wp.zeros(18 * 18, dtype=wp.float64, device=device, requires_grad=True)
    args = [S, wp.array(parents, dtype=wp.int32, device=device),
            wp.array(qd_start, dtype=wp.int32, device=device), I_s, J, M]
    tape = wp.Tape()
    with tape:
        wp.launch(chain_matrices, 1, inputs=args, device=device)
    want_J = np.zeros((18, 4))
    for i in range(3):
        j = i
        while j != -1:
            for d in range(qd_start[j], qd_start[j + 1]):
                want_J[6 * i : 6 * i + 6, d] = S0[d]
            j = parents[j]
    want_M = np.zeros((18, 18))
    for b in range(3):
        want_M[6 * b : 6 * b + 6, 6 * b : 6 * b + 6] = I0[b]
    np.testing.assert_array_equal(J.numpy().reshape(18, 4), want_J)
    np.testing.assert_array_equal(M.numpy().reshape(18, 18), want_M)
    wJ, wM = rng.standard_normal(72), rng.standard_normal(324)
    tape.backward(grads={J: wp.array(wJ, dtype=wp.float64, device=device),
                         M: wp.array(wM, dtype=wp.float64, device=device)})
    # d(sum wJ . J)/dS[d] = sum over the row blocks that copied S[d]
    want_gS = np.zeros((4, 6))
    wJ2 = wJ.reshape(18, 4)
    for i in range(3):
        j = i
        while j != -1:
            for d in range(qd_start[j], qd_start[j + 1]):
                want_gS[d] += wJ2[6 * i : 6 * i + 6, d]
            j = parents[j]
    np.testing.assert_allclose(S.grad.numpy(), want_gS)
    wM2 = wM.reshape(18, 18)
    want_gI = np.stack([wM2[6 * b : 6 * b + 6, 6 * b : 6 * b + 6] for b in range(3)])
    np.testing.assert_allclose(I_s.grad.numpy(), want_gI)
