"""Quaternions and transforms in kernels: a rigid-body integrator and transform algebra."""

import numpy as np

import treadle as wp


def np_quat_rotate(q, v):
    u, w = q[..., :3], q[..., 3:4]
    return v + 2.0 * np.cross(u, np.cross(u, v) + w * v)


def np_quat_mul(a, b):
    av, aw = a[..., :3], a[..., 3:4]
    bv, bw = b[..., :3], b[..., 3:4]
    return np.concatenate([aw * bv + bw * av + np.cross(av, bv),
                           aw * bw - (av * bv).sum(-1, keepdims=True)], -1)


@wp.kernel
def integrate_bodies(q: wp.array(dtype=wp.quat), x: wp.array(dtype=wp.vec3),
                     omega: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), dt: float):
    i = wp.tid()
    w = omega[i]
    # dq/dt = 0.5 * (w, 0) * q
    dq = wp.quat(w[0], w[1], w[2], 0.0) * q[i] * (0.5 * dt)
    q[i] = wp.normalize(q[i] + dq)
    x[i] = x[i] + v[i] * dt


def test_rigid_body_integrator_matches_numpy(device):
    rng = np.random.default_rng(5)
    n = 64
    q0 = rng.standard_normal((n, 4)).astype(np.float32)
    q0 /= np.linalg.norm(q0, axis=1, keepdims=True)
    x0 = rng.standard_normal((n, 3)).astype(np.float32)
    w0 = rng.standard_normal((n, 3)).astype(np.float32)
    v0 = rng.standard_normal((n, 3)).astype(np.float32)
    q = wp.array(q0, dtype=wp.quat, device=device)
    x = wp.array(x0, dtype=wp.vec3, device=device)
    omega = wp.array(w0, dtype=wp.vec3, device=device)
    v = wp.array(v0, dtype=wp.vec3, device=device)
    qs, xs = q0.astype(np.float64), x0.astype(np.float64)
    for _ in range(10):
        wp.launch(integrate_bodies, dim=n, inputs=[q, x, omega, v, 0.01], device=device)
        wq = np.concatenate([w0, np.zeros((n, 1))], 1)
        qs = qs + np_quat_mul(wq, qs) * 0.005
        qs /= np.linalg.norm(qs, axis=1, keepdims=True)
        xs = xs + v0 * 0.01
    np.testing.assert_allclose(q.numpy(), qs, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(x.numpy(), xs, rtol=1e-5, atol=1e-5)


@wp.kernel
def transform_algebra(axis: wp.vec3, angle: float, p: wp.array(dtype=wp.vec3),
                      out: wp.array2d(dtype=wp.vec3), qout: wp.array(dtype=wp.quat)):
    i = wp.tid()
    q = wp.quat_from_axis_angle(axis, angle)
    t = wp.transform(wp.vec3(1.0, 2.0, 3.0), q)
    u = wp.transform_multiply(t, wp.transform_inverse(t))
    out[i, 0] = wp.quat_rotate(q, p[i])
    out[i, 1] = wp.transform_point(t, p[i])
    out[i, 2] = wp.transform_vector(t, p[i])
    out[i, 3] = wp.transform_point(u, p[i])
    out[i, 4] = wp.quat_to_matrix(q) @ p[i] - wp.quat_rotate_inv(wp.quat_inverse(q), p[i])
    out[i, 5] = t.p + wp.transform_get_translation(wp.transform_identity(dtype=float))
    out[i, 5] = out[i, 5] + wp.transform_point(wp.transform(), wp.vec3(0.0))
    r = wp.quat_identity()
    r.w = 2.0
    qout[i] = wp.quat_slerp(q, t.q, 0.5) * 0.0 + r


def test_transform_algebra(device):
    rng = np.random.default_rng(6)
    pts = rng.standard_normal((10, 3)).astype(np.float32)
    p = wp.array(pts, dtype=wp.vec3, device=device)
    out = wp.zeros((10, 6), dtype=wp.vec3, device=device)
    qout = wp.zeros(10, dtype=wp.quat, device=device)
    axis = np.array([0.0, 0.6, 0.8])
    wp.launch(transform_algebra, dim=10,
              inputs=[wp.vec3(0.0, 0.6, 0.8), 0.7, p, out, qout], device=device)
    q = np.concatenate([axis * np.sin(0.35), [np.cos(0.35)]])
    rot = np_quat_rotate(q, pts.astype(np.float64))
    o = out.numpy()
    np.testing.assert_allclose(o[:, 0], rot, atol=1e-5)
    np.testing.assert_allclose(o[:, 1], rot + [1, 2, 3], atol=1e-5)
    np.testing.assert_allclose(o[:, 2], rot, atol=1e-5)
    np.testing.assert_allclose(o[:, 3], pts, atol=1e-5)
    np.testing.assert_allclose(o[:, 4], np.zeros((10, 3)), atol=1e-5)
    np.testing.assert_allclose(o[:, 5], np.tile([1.0, 2.0, 3.0], (10, 1)), atol=1e-6)
    np.testing.assert_allclose(qout.numpy(), np.tile([0.0, 0.0, 0.0, 2.0], (10, 1)), atol=1e-6)
