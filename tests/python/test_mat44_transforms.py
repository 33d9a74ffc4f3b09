"""transform_point / transform_vector with a 4x4 matrix and quat_from_matrix of a 4x4 matrix:
values against numpy, gradients against finite differences, and the host versions."""

import numpy as np

import treadle as wp
from gradcheck_util import check_grad


@wp.kernel
def apply(a: wp.array(dtype=wp.float64), x: wp.array(dtype=wp.float64),
          out: wp.array(dtype=wp.float64)):
    m = wp.mat44d(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
                  a[12], a[13], a[14], a[15])
    v = wp.vec3d(x[0], x[1], x[2])
    p = wp.transform_point(m, v)
    w = wp.transform_vector(m, v)
    for i in range(3):
        out[i] = p[i]
        out[3 + i] = w[i]


def test_mat44_point_and_vector(device):
    rng = np.random.default_rng(4)
    a = rng.standard_normal(16)
    x = rng.standard_normal(3)
    ins = [wp.array(v, dtype=wp.float64, device=device) for v in (a, x)]
    out = wp.zeros(6, dtype=wp.float64, device=device)
    wp.launch(apply, 1, inputs=ins + [out], device=device)
    m = a.reshape(4, 4)
    np.testing.assert_allclose(out.numpy(), np.concatenate([m[:3, :3] @ x + m[:3, 3],
                                                            m[:3, :3] @ x]), rtol=1e-12)
    check_grad(apply, 1, [a, x], [(6,)], device)
    mh = wp.mat44d(*a)
    np.testing.assert_allclose(np.array(wp.transform_point(mh, wp.vec3d(*x))), out.numpy()[:3])
    np.testing.assert_allclose(np.array(wp.transform_vector(mh, wp.vec3d(*x))), out.numpy()[3:])


@wp.kernel
def from_mat44(a: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64)):
    q = wp.quat_from_axis_angle(wp.normalize(wp.vec3d(a[0], a[1], a[2])), a[3])
    r = wp.quat_to_matrix(q)
    m = wp.mat44d(r[0, 0], r[0, 1], r[0, 2], a[4], r[1, 0], r[1, 1], r[1, 2], a[5], r[2, 0],
                  r[2, 1], r[2, 2], a[6], a[7], a[8], a[9], a[10])
    p = wp.quat_from_matrix(m)
    for i in range(4):
        out[i] = p[i]


def test_quat_from_mat44_uses_the_rotation_block(device):
    a = np.array([0.3, -0.5, 0.8, 1.1, 5.0, 6.0, 7.0, 1.0, 2.0, 3.0, 4.0])
    out = wp.zeros(4, dtype=wp.float64, device=device)
    wp.launch(from_mat44, 1, inputs=[wp.array(a, dtype=wp.float64, device=device), out],
              device=device)
    axis = a[:3] / np.linalg.norm(a[:3])
    q = np.concatenate([axis * np.sin(a[3] / 2), [np.cos(a[3] / 2)]])
    np.testing.assert_allclose(np.abs(out.numpy()), np.abs(q), rtol=1e-12)
    check_grad(from_mat44, 1, [a], [(4,)], device)
    qh = wp.quat_from_matrix(wp.mat44d(*np.eye(4).reshape(-1)))
    assert np.allclose(np.array(qh), [0, 0, 0, 1])


@wp.kernel
def compose_roundtrip(a: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64)):
    p = wp.vec3d(a[0], a[1], a[2])
    q = wp.normalize(wp.quatd(a[3], a[4], a[5], a[6]))
    s = wp.vec3d(a[7], a[8], a[9])
    m = wp.transform_compose(p, q, s)
    p2, q2, s2 = wp.transform_decompose(m)
    t = wp.transform_from_matrix(wp.transform_to_matrix(wp.transformd(p, q)))
    m2 = wp.transform_to_matrix(t)
    for i in range(4):
        for j in range(4):
            out[4 * i + j] = m[i, j] + wp.float64(0.5) * m2[i, j]
    for i in range(3):
        out[16 + i] = p2[i]
        out[19 + i] = s2[i]
    for i in range(4):
        out[22 + i] = q2[i] * q2[3]  # sign-independent


def test_compose_decompose_roundtrip_and_gradients(device):
    a = np.array([1.0, 2.0, 3.0, 0.2, -0.4, 0.3, 0.8, 4.0, 5.0, 6.0])
    out = wp.zeros(26, dtype=wp.float64, device=device)
    wp.launch(compose_roundtrip, 1, inputs=[wp.array(a, dtype=wp.float64, device=device), out],
              device=device)
    q = a[3:7] / np.linalg.norm(a[3:7])
    x, y, z, w = q
    r = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                  [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                  [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
    m = np.eye(4)
    m[:3, :3] = r * a[7:10]
    m[:3, 3] = a[:3]
    m2 = np.eye(4)
    m2[:3, :3] = r
    m2[:3, 3] = a[:3]
    o = out.numpy()
    np.testing.assert_allclose(o[:16], (m + 0.5 * m2).reshape(-1), atol=1e-12)
    np.testing.assert_allclose(o[16:19], a[:3], atol=1e-12)
    np.testing.assert_allclose(o[19:22], a[7:10], atol=1e-12)
    np.testing.assert_allclose(o[22:26], q * q[3], atol=1e-12)
    check_grad(compose_roundtrip, 1, [a], [(26,)], device)
