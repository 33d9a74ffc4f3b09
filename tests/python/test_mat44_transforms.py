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
