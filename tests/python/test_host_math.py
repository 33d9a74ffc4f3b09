"""Host calls of the matrix, quaternion and transform builtins agree with the same builtins
run in a kernel (and with numpy)."""

import numpy as np
import pytest

import treadle as wp


@wp.kernel
def in_kernel(m: wp.array(dtype=wp.mat33d), v: wp.array(dtype=wp.vec3d),
              q: wp.array(dtype=wp.quatd), t: wp.array(dtype=wp.transformd),
              mats: wp.array(dtype=wp.mat33d), vecs: wp.array(dtype=wp.vec3d),
              quats: wp.array(dtype=wp.quatd), trans: wp.array(dtype=wp.transformd),
              scalars: wp.array(dtype=wp.float64)):
    mats[0] = wp.transpose(m[0])
    mats[1] = wp.inverse(m[0])
    mats[2] = wp.outer(v[0], v[1])
    mats[3] = wp.diag(v[0])
    mats[4] = wp.skew(v[0])
    mats[5] = wp.quat_to_matrix(q[0])
    mats[6] = wp.matrix_from_rows(v[0], v[1], v[0])
    mats[7] = wp.matrix_from_cols(v[0], v[1], v[1])
    mats[8] = wp.mul(m[0], m[0])
    vecs[0] = wp.transform_point(t[0], v[0])
    vecs[1] = wp.transform_vector(t[0], v[0])
    vecs[2] = wp.quat_rotate_inv(q[0], v[0])
    vecs[3] = wp.transform_get_translation(t[0])
    vecs[4] = wp.cw_div(v[0], v[1])
    vecs[5] = wp.add(v[0], wp.neg(v[1]))
    quats[0] = wp.quat_inverse(q[0])
    quats[1] = wp.quat_from_matrix(wp.quat_to_matrix(q[0]))
    quats[2] = wp.transform_get_rotation(t[0])
    trans[0] = wp.transform_multiply(t[0], t[1])
    trans[1] = wp.transform_inverse(t[0])
    scalars[0] = wp.determinant(m[0])
    scalars[1] = wp.trace(m[0])
    scalars[2] = wp.ddot(m[0], m[0])
    scalars[3] = wp.length_sq(v[0])


def test_host_builtins_match_kernels():
    rng = np.random.default_rng(3)
    m = wp.mat33d(*(rng.standard_normal(9) + 2 * np.eye(3).reshape(-1)))
    v0, v1 = wp.vec3d(*rng.uniform(0.5, 2, 3)), wp.vec3d(*rng.uniform(0.5, 2, 3))
    qn = rng.standard_normal(4)
    q = wp.quatd(*(qn / np.linalg.norm(qn)))
    t0 = wp.transformd(wp.vec3d(1.0, -2.0, 0.5), q)
    t1 = wp.transformd(wp.vec3d(0.3, 0.2, -1.0), wp.quat_from_axis_angle(wp.vec3d(0.0, 0.0, 1.0), 0.7))
    cpu = "cpu"
    arrays = [wp.array([m], dtype=wp.mat33d, device=cpu), wp.array([v0, v1], dtype=wp.vec3d, device=cpu),
              wp.array([q], dtype=wp.quatd, device=cpu), wp.array([t0, t1], dtype=wp.transformd, device=cpu)]
    outs = [wp.zeros(n, dtype=t, device=cpu) for n, t in
            ((9, wp.mat33d), (6, wp.vec3d), (3, wp.quatd), (2, wp.transformd), (4, wp.float64))]
    wp.launch(in_kernel, 1, inputs=arrays + outs, device="cpu")
    mats, vecs, quats, trans, scalars = (o.numpy() for o in outs)
    host_mats = [wp.transpose(m), wp.inverse(m), wp.outer(v0, v1), wp.diag(v0), wp.skew(v0),
                 wp.quat_to_matrix(q), wp.matrix_from_rows(v0, v1, v0),
                 wp.matrix_from_cols(v0, v1, v1), wp.mul(m, m)]
    for k, h in enumerate(host_mats):
        np.testing.assert_allclose(np.array(h), mats[k], rtol=1e-12, atol=1e-12, err_msg=str(k))
    host_vecs = [wp.transform_point(t0, v0), wp.transform_vector(t0, v0), wp.quat_rotate_inv(q, v0),
                 wp.transform_get_translation(t0), wp.cw_div(v0, v1), wp.add(v0, wp.neg(v1))]
    for k, h in enumerate(host_vecs):
        np.testing.assert_allclose(np.array(h), vecs[k], rtol=1e-12, atol=1e-12, err_msg=str(k))
    qfm = np.array(wp.quat_from_matrix(wp.quat_to_matrix(q)))
    np.testing.assert_allclose(np.abs(qfm), np.abs(quats[1]), atol=1e-12)
    np.testing.assert_allclose(np.array(wp.quat_inverse(q)), quats[0], atol=1e-15)
    np.testing.assert_allclose(np.array(wp.transform_get_rotation(t0)), quats[2], atol=1e-15)
    np.testing.assert_allclose(np.array(wp.transform_multiply(t0, t1)), trans[0], atol=1e-12)
    np.testing.assert_allclose(np.array(wp.transform_inverse(t0)), trans[1], atol=1e-12)
    host_scalars = [float(x) for x in (wp.determinant(m), wp.trace(m), wp.ddot(m, m),
                                       wp.length_sq(v0))]
    np.testing.assert_allclose(host_scalars, scalars, rtol=1e-12)
    np.testing.assert_allclose(np.array(wp.identity(3, dtype=wp.float64)), np.eye(3))
    assert np.array(wp.inverse(m)).dtype == np.float64


def test_host_builtin_type_errors():
    with pytest.raises(RuntimeError, match=r"Couldn't find a function 'transpose' compatible "
                                           r"with the arguments 'float'$"):
        wp.transpose(1.0)
    with pytest.raises(RuntimeError, match=r"'transform_point' compatible with the arguments "
                                           r"'vec3f, vec3f'$"):
        wp.transform_point(wp.vec3(), wp.vec3())
