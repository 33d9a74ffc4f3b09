"""Euler angles, swing-twist helpers, velocity_at_point and quat_slerp: values against numpy,
gradients against finite differences, host calls against kernels."""

import itertools
import math

import numpy as np
import pytest

import treadle as wp
import treadle.autograd

TAIT_BRYAN = [s for s in itertools.permutations(range(3))]
PROPER = [(i, j, i) for i in range(3) for j in range(3) if j != i]


def np_mul(a, b):
    """Hamilton product of (x, y, z, w) quaternions."""
    av, aw, bv, bw = a[:3], a[3], b[:3], b[3]
    return np.concatenate([aw * bv + bw * av + np.cross(av, bv), [aw * bw - av @ bv]])


def np_axis_angle(axis, angle):
    q = np.zeros(4)
    q[axis] = math.sin(0.5 * angle)
    q[3] = math.cos(0.5 * angle)
    return q


def np_from_angles(angles, axes):
    """The product q3 q2 q1 of rotations by angles[n] about axes[n] (the first applied first)."""
    q = np.array([0.0, 0.0, 0.0, 1.0])
    for a, n in zip(angles, axes):
        q = np_mul(np_axis_angle(n, a), q)
    return q


def same_rotation(a, b, tol):
    return min(np.linalg.norm(a - b), np.linalg.norm(a + b)) < tol


def unit_quats(rng, n):
    q = rng.standard_normal((n, 4))
    return q / np.linalg.norm(q, axis=1, keepdims=True)


@wp.kernel
def euler_kernel(e: wp.array(dtype=wp.vec3d), q: wp.array(dtype=wp.quatd), i: int, j: int,
                 k: int, q_out: wp.array(dtype=wp.quatd), e_out: wp.array(dtype=wp.vec3d)):
    t = wp.tid()
    q_out[t] = wp.quat_from_euler(e[t], i, j, k)
    e_out[t] = wp.quat_to_euler(q[t], i, j, k)


def run_euler(e, q, seq, device):
    ea = wp.array(e, dtype=wp.vec3d, device=device)
    qa = wp.array(q, dtype=wp.quatd, device=device)
    q_out = wp.zeros(len(e), dtype=wp.quatd, device=device)
    e_out = wp.zeros(len(q), dtype=wp.vec3d, device=device)
    wp.launch(euler_kernel, dim=len(e), inputs=[ea, qa, *seq, q_out, e_out], device=device)
    return q_out.numpy(), e_out.numpy()


@pytest.mark.parametrize("seq", TAIT_BRYAN + PROPER)
def test_quat_from_euler_composes_fixed_axis_rotations(seq, device):
    rng = np.random.default_rng(1)
    e = rng.uniform(-3.0, 3.0, (8, 3))
    q_out, _ = run_euler(e, unit_quats(rng, 8), seq, device)
    for n in range(8):
        expected = np_from_angles([e[n, a] for a in seq], seq)
        np.testing.assert_allclose(q_out[n], expected, atol=1e-12)


def test_quat_from_euler_xyz_is_quat_rpy(device):
    @wp.kernel
    def both(out: wp.array(dtype=wp.quat)):
        out[0] = wp.quat_from_euler(wp.vec3(0.3, -0.2, 0.5), 0, 1, 2)
        out[1] = wp.quat_rpy(0.3, -0.2, 0.5)

    out = wp.zeros(2, dtype=wp.quat, device=device)
    wp.launch(both, dim=1, inputs=[out], device=device)
    np.testing.assert_allclose(out.numpy()[0], out.numpy()[1], atol=1e-7)


@pytest.mark.parametrize("seq", TAIT_BRYAN)
def test_quat_to_euler_inverts_quat_from_euler(seq, device):
    rng = np.random.default_rng(2)
    q = unit_quats(rng, 16)
    i, j, k = seq
    gimbal = np.zeros(3)
    gimbal[j] = math.pi / 2  # the middle angle at gimbal lock
    gimbal[i], gimbal[k] = 0.4, -0.3
    q[0] = np_from_angles([gimbal[a] for a in seq], seq)
    _, e = run_euler(np.zeros((16, 3)), q, seq, device)
    for n in range(16):
        assert -math.pi / 2 - 1e-9 <= e[n, j] <= math.pi / 2 + 1e-9
        back = np_from_angles([e[n, a] for a in seq], seq)
        assert same_rotation(back, q[n], 1e-6), (seq, n, e[n])


@pytest.mark.parametrize("seq", PROPER)
def test_quat_to_euler_proper_sequences(seq, device):
    # first angle in e[i], second in e[j], third in e[3 - i - j] (also about axis i)
    rng = np.random.default_rng(3)
    q = unit_quats(rng, 16)
    i, j, _ = seq
    _, e = run_euler(np.zeros((16, 3)), q, seq, device)
    for n in range(16):
        assert -1e-9 <= e[n, j] <= math.pi + 1e-9
        back = np_from_angles([e[n, i], e[n, j], e[n, 3 - i - j]], seq)
        assert same_rotation(back, q[n], 1e-6), (seq, n, e[n])


@pytest.mark.parametrize("seq", [(0, 1, 2), (2, 1, 0), (1, 0, 1), (2, 0, 2)])
def test_euler_gradients_match_finite_differences(seq, device):
    rng = np.random.default_rng(4)
    e = wp.array(rng.uniform(-1.0, 1.0, (3, 3)), dtype=wp.vec3d, device=device, requires_grad=True)
    q = wp.array(unit_quats(rng, 3), dtype=wp.quatd, device=device, requires_grad=True)
    outs = [wp.zeros(3, dtype=wp.quatd, device=device, requires_grad=True),
            wp.zeros(3, dtype=wp.vec3d, device=device, requires_grad=True)]
    inputs = [e, q, *seq]
    ad = treadle.autograd.jacobian(euler_kernel, 3, inputs=inputs, outputs=outs, device=device)
    fd = treadle.autograd.jacobian_fd(euler_kernel, 3, inputs=inputs, outputs=outs, device=device,
                                      eps=1e-6)
    assert {(0, 0), (1, 1)} <= set(ad)
    for key in ad:
        np.testing.assert_allclose(ad[key], fd[key], rtol=1e-5, atol=1e-6, err_msg=str(key))


@wp.kernel
def helpers_kernel(q: wp.array(dtype=wp.quatd), axis: wp.array(dtype=wp.vec3d),
                   qd: wp.array(dtype=wp.spatial_vectord), r: wp.array(dtype=wp.vec3d),
                   rpy: wp.array(dtype=wp.vec3d), twist: wp.array(dtype=wp.quatd),
                   angle: wp.array(dtype=wp.float64), signed: wp.array(dtype=wp.float64),
                   vel: wp.array(dtype=wp.vec3d)):
    t = wp.tid()
    rpy[t] = wp.quat_to_rpy(q[t])
    twist[t] = wp.quat_twist(axis[t], q[t])
    angle[t] = wp.quat_twist_angle(axis[t], q[t])
    signed[t] = wp.quat_twist_angle_signed(axis[t], q[t])
    vel[t] = wp.velocity_at_point(qd[t], r[t])


def helper_arrays(device, n=6, seed=5):
    rng = np.random.default_rng(seed)
    axis = rng.standard_normal((n, 3))
    axis /= np.linalg.norm(axis, axis=1, keepdims=True)
    ins = [wp.array(unit_quats(rng, n), dtype=wp.quatd, device=device, requires_grad=True),
           wp.array(axis, dtype=wp.vec3d, device=device, requires_grad=True),
           wp.array(rng.standard_normal((n, 6)), dtype=wp.spatial_vectord, device=device,
                    requires_grad=True),
           wp.array(rng.standard_normal((n, 3)), dtype=wp.vec3d, device=device, requires_grad=True)]
    outs = [wp.zeros(n, dtype=t, device=device, requires_grad=True)
            for t in (wp.vec3d, wp.quatd, wp.float64, wp.float64, wp.vec3d)]
    return ins, outs


def test_rotation_helpers_match_numpy(device):
    ins, outs = helper_arrays(device)
    wp.launch(helpers_kernel, dim=6, inputs=ins + outs, device=device)
    q, axis, qd, r = (a.numpy() for a in ins)
    rpy, twist, angle, signed, vel = (a.numpy() for a in outs)
    for n in range(6):
        # quat_to_rpy inverts quat_rpy
        assert same_rotation(np_from_angles(rpy[n], (0, 1, 2)), q[n], 1e-9)
        s = axis[n] @ q[n, :3]
        t = np.concatenate([axis[n] * s, [q[n, 3]]])
        np.testing.assert_allclose(twist[n], t / np.linalg.norm(t), atol=1e-12)
        assert angle[n] == pytest.approx(2.0 * math.atan2(abs(s), q[n, 3]), abs=1e-12)
        assert signed[n] == pytest.approx(2.0 * math.atan2(s, q[n, 3]), abs=1e-12)
        np.testing.assert_allclose(vel[n], qd[n, 3:] + np.cross(qd[n, :3], r[n]), atol=1e-12)


def test_twist_angles_of_axis_rotations(device):
    @wp.kernel
    def angles(a: wp.array(dtype=float), out: wp.array2d(dtype=float)):
        t = wp.tid()
        z = wp.vec3(0.0, 0.0, 1.0)
        q = wp.quat_from_axis_angle(z, a[t])
        out[t, 0] = wp.quat_twist_angle(z, q)
        out[t, 1] = wp.quat_twist_angle_signed(z, q)
        out[t, 2] = wp.quat_twist_angle_signed(z, -q)
        # the swing about x does not change the twist about z
        out[t, 3] = wp.quat_twist_angle(z, wp.quat_from_axis_angle(wp.vec3(1.0, 0.0, 0.0), 0.4) * q)

    a_np = np.array([-2.5, -0.3, 0.0001, 1.2, 3.0], dtype=np.float32)
    out = wp.zeros((5, 4), dtype=float, device=device)
    wp.launch(angles, dim=5, inputs=[wp.array(a_np, device=device), out], device=device)
    o = out.numpy()
    np.testing.assert_allclose(o[:, 0], np.abs(a_np), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(o[:, 1], a_np, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(o[:, 2], a_np - np.sign(a_np) * 2 * np.pi, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(o[:, 3], np.abs(a_np), rtol=1e-5, atol=1e-5)


def test_rotation_helper_gradients_match_finite_differences(device):
    ins, outs = helper_arrays(device, n=3, seed=6)
    ad = treadle.autograd.jacobian(helpers_kernel, 3, inputs=ins, outputs=outs, device=device)
    fd = treadle.autograd.jacobian_fd(helpers_kernel, 3, inputs=ins, outputs=outs, device=device,
                                      eps=1e-6)
    assert len(ad) == 20  # every (input, output) pair, zero where unrelated
    for key in ad:
        np.testing.assert_allclose(ad[key], fd[key], rtol=1e-5, atol=1e-6, err_msg=str(key))


def test_host_calls_match_kernels(device):
    ins, outs = helper_arrays(device, n=2, seed=7)
    wp.launch(helpers_kernel, dim=2, inputs=ins + outs, device=device)
    q, axis, qd, r = (a.numpy() for a in ins)
    for n in range(2):
        hq, ha = wp.quatd(*q[n]), wp.vec3d(*axis[n])
        np.testing.assert_allclose(np.array(wp.quat_to_rpy(hq)), outs[0].numpy()[n], atol=1e-12)
        np.testing.assert_allclose(np.array(wp.quat_twist(ha, hq)), outs[1].numpy()[n], atol=1e-12)
        assert wp.quat_twist_angle(ha, hq) == pytest.approx(outs[2].numpy()[n], abs=1e-12)
        assert wp.quat_twist_angle_signed(ha, hq) == pytest.approx(outs[3].numpy()[n], abs=1e-12)
        v = wp.velocity_at_point(wp.spatial_vectord(*qd[n]), wp.vec3d(*r[n]))
        np.testing.assert_allclose(np.array(v), outs[4].numpy()[n], atol=1e-12)
    for seq in [(0, 1, 2), (1, 2, 1)]:
        e = np.array([0.3, -0.7, 1.1])
        q_k, e_k = run_euler(e[None], q[:1], seq, device)
        np.testing.assert_allclose(np.array(wp.quat_from_euler(wp.vec3d(*e), *seq)), q_k[0],
                                   atol=1e-12)
        np.testing.assert_allclose(np.array(wp.quat_to_euler(wp.quatd(*q[0]), *seq)), e_k[0],
                                   atol=1e-12)
    assert type(wp.quat_to_euler(wp.quat(0.0, 0.0, 0.0, 1.0), 0, 1, 2)) is wp.vec3


@wp.kernel
def slerp_kernel(a: wp.array(dtype=wp.quatd), b: wp.array(dtype=wp.quatd),
                 t: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.quatd)):
    i = wp.tid()
    out[i] = wp.quat_slerp(a[i], b[i], t[i])


def test_quat_slerp_is_relative_rotation_power(device):
    rng = np.random.default_rng(8)
    a_np, b_np = unit_quats(rng, 6), unit_quats(rng, 6)
    b_np[0] = a_np[0]  # equal inputs: the identity step
    t_np = rng.uniform(0.0, 1.0, 6)
    a = wp.array(a_np, dtype=wp.quatd, device=device, requires_grad=True)
    b = wp.array(b_np, dtype=wp.quatd, device=device, requires_grad=True)
    t = wp.array(t_np, dtype=wp.float64, device=device, requires_grad=True)
    out = wp.zeros(6, dtype=wp.quatd, device=device, requires_grad=True)
    wp.launch(slerp_kernel, dim=6, inputs=[a, b, t, out], device=device)
    for n in range(6):
        conj = a_np[n] * np.array([-1.0, -1.0, -1.0, 1.0])
        rel = np_mul(conj, b_np[n])
        rel *= 1.0 if rel[3] >= 0 else -1.0  # the shorter arc
        angle = 2.0 * math.atan2(np.linalg.norm(rel[:3]), rel[3])
        axis = rel[:3] / np.linalg.norm(rel[:3]) if angle > 0 else np.zeros(3)
        step = np.concatenate([axis * math.sin(0.5 * t_np[n] * angle), [math.cos(0.5 * t_np[n] * angle)]])
        np.testing.assert_allclose(out.numpy()[n], np_mul(a_np[n], step), atol=1e-12)
    # gradients away from equal inputs (where the axis is undefined)
    sl = [wp.array(x[1:], dtype=d, device=device, requires_grad=True)
          for x, d in ((a_np, wp.quatd), (b_np, wp.quatd), (t_np, wp.float64))]
    o = wp.zeros(5, dtype=wp.quatd, device=device, requires_grad=True)
    ad = treadle.autograd.jacobian(slerp_kernel, 5, inputs=sl, outputs=[o], device=device)
    fd = treadle.autograd.jacobian_fd(slerp_kernel, 5, inputs=sl, outputs=[o], device=device,
                                      eps=1e-6)
    for key in ad:
        np.testing.assert_allclose(ad[key], fd[key], rtol=1e-5, atol=1e-6, err_msg=str(key))
