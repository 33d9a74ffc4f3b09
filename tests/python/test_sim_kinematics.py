"""treadle.sim forward and inverse kinematics: a planar chain of hinges against its closed-form
pose, eval_ik recovering the coordinates eval_fk was given for every joint kind, masks, the
gradient of an end point through eval_fk, and an MJCF import."""

import math
import os

import numpy as np
import pytest

import treadle as wp
import treadle.sim


def _chain(builder, n, length):
    parent = -1
    for _ in range(n):
        child = builder.add_body()
        builder.add_shape_box(child, pos=(0.5 * length, 0.0, 0.0), hx=0.5 * length, hy=0.05,
                              hz=0.05, density=100.0)
        offset = 0.0 if parent == -1 else length
        builder.add_joint_revolute(parent, child, axis=(0.0, 0.0, 1.0),
                                   parent_xform=wp.transform(wp.vec3(offset, 0.0, 0.0)))
        parent = child


def test_planar_chain_matches_its_closed_form(device):
    builder = wp.sim.ModelBuilder()
    _chain(builder, 3, 0.5)
    angles = [0.3, -0.7, 1.1]
    rates = [0.5, 0.0, -1.0]
    builder.joint_q[:] = angles
    builder.joint_qd[:] = rates
    model = builder.finalize(device)
    state = model.state()
    wp.sim.eval_fk(model, model.joint_q, model.joint_qd, None, state)
    q = state.body_q.numpy()
    heading, x = 0.0, np.zeros(2)
    for i in range(3):
        heading += angles[i]
        assert np.allclose(q[i, :2], x, atol=1e-6)
        assert abs(q[i, 6]) == pytest.approx(abs(math.cos(heading / 2.0)), abs=1e-6)
        x = x + 0.5 * np.array([math.cos(heading), math.sin(heading)])
    w = state.body_qd.numpy()[:, 2]
    assert np.allclose(w, np.cumsum(rates), atol=1e-6)


def _every_joint_kind():
    builder = wp.sim.ModelBuilder()
    b = [builder.add_body(origin=wp.transform(wp.vec3(0.0, float(i), 0.0))) for i in range(8)]
    for body in b:
        builder.add_shape_sphere(body, radius=0.1)
    builder.add_joint_free(b[0])
    builder.add_joint_revolute(b[0], b[1], axis=(0.0, 1.0, 0.0),
                               parent_xform=wp.transform(wp.vec3(0.0, 0.2, 0.0)),
                               child_xform=wp.transform(wp.vec3(0.1, 0.0, 0.0)))
    builder.add_joint_prismatic(b[1], b[2], axis=(1.0, 1.0, 0.0))
    builder.add_joint_ball(b[2], b[3], parent_xform=wp.transform(wp.vec3(0.0, 0.3, 0.0)))
    builder.add_joint_universal(b[3], b[4], (1.0, 0.0, 0.0), (0.0, 0.0, 1.0))
    builder.add_joint_compound(b[4], b[5], (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
    builder.add_joint_d6(b[5], b[6], linear_axes=[wp.sim.JointAxis((1.0, 0.0, 0.0)),
                                                  wp.sim.JointAxis((0.0, 0.0, 1.0))],
                         angular_axes=[wp.sim.JointAxis((0.0, 1.0, 0.0))])
    builder.add_joint_d6(b[6], b[7], angular_axes=[wp.sim.JointAxis((1.0, 0.0, 0.0)),
                                                   wp.sim.JointAxis((0.0, 1.0, 0.0))])
    rng = np.random.default_rng(7)
    q = rng.uniform(-0.6, 0.6, builder.joint_coord_count)
    q[3:7] = np.array(wp.quat_rpy(0.2, -0.3, 0.4))
    ball = builder.joint_q_start[3]
    q[ball:ball + 4] = np.array(wp.quat_rpy(-0.1, 0.5, 0.2))
    builder.joint_q[:] = q.tolist()
    builder.joint_qd[:] = rng.uniform(-1.0, 1.0, builder.joint_dof_count).tolist()
    return builder


def test_ik_recovers_the_coordinates_of_fk(device):
    builder = _every_joint_kind()
    model = builder.finalize(device)
    state = model.state()
    wp.sim.eval_fk(model, model.joint_q, model.joint_qd, None, state)
    q = wp.zeros_like(model.joint_q)
    qd = wp.zeros_like(model.joint_qd)
    wp.sim.eval_ik(model, state, q, qd)
    assert np.allclose(q.numpy(), model.joint_q.numpy(), atol=2e-5)
    assert np.allclose(qd.numpy(), model.joint_qd.numpy(), atol=2e-5)


def test_fk_mask_skips_articulations(device):
    builder = wp.sim.ModelBuilder()
    for i in range(2):
        builder.add_articulation()
        b = builder.add_body()
        builder.add_joint_prismatic(-1, b, axis=(0.0, 1.0, 0.0),
                                    parent_xform=wp.transform(wp.vec3(float(i), 0.0, 0.0)))
    builder.joint_q[:] = [1.0, 2.0]
    model = builder.finalize(device)
    state = model.state()
    wp.sim.eval_fk(model, model.joint_q, model.joint_qd,
                   wp.array([False, True], dtype=wp.bool, device=device), state)
    q = state.body_q.numpy()
    assert np.allclose(q[0, :3], 0.0) and np.allclose(q[1, :3], [1.0, 2.0, 0.0])


@wp.kernel
def _end_x(q: wp.array(dtype=wp.transform), loss: wp.array(dtype=float)):
    loss[0] = wp.transform_point(q[2], wp.vec3(0.5, 0.0, 0.0))[0]


def test_fk_gradient_of_the_chain_end(device):
    builder = wp.sim.ModelBuilder()
    _chain(builder, 3, 0.5)
    angles = np.array([0.3, -0.7, 1.1])
    builder.joint_q[:] = angles.tolist()
    model = builder.finalize(device, requires_grad=True)
    state = model.state()
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.sim.eval_fk(model, model.joint_q, model.joint_qd, None, state)
        wp.launch(_end_x, 1, inputs=[state.body_q, loss])
    tape.backward(loss)
    headings = np.cumsum(angles)
    # x = sum_k 0.5 cos(theta_1 + ... + theta_k); dx/dtheta_i = -sum_{k >= i} 0.5 sin(...)
    expected = [-0.5 * np.sin(headings[i:]).sum() for i in range(3)]
    assert np.allclose(model.joint_q.grad.numpy(), expected, atol=1e-5)


def test_mjcf_import_of_a_hinged_body(tmp_path):
    path = os.path.join(tmp_path, "arm.xml")
    with open(path, "w") as f:
        f.write("""<mujoco><compiler angle="degree"/>
  <default><joint damping="0.5"/><geom density="10"/></default>
  <worldbody><body name="base" pos="0 0 1">
      <joint name="hinge" type="hinge" axis="0 1 0" range="-90 45"/>
      <geom type="capsule" fromto="0 0 0 1 0 0" size="0.1"/>
      <body name="tip" pos="1 0 0"><joint name="slide" type="slide" axis="1 0 0"/>
        <geom type="sphere" size="0.2"/></body>
  </body></worldbody></mujoco>""")
    builder = wp.sim.ModelBuilder()
    wp.sim.parse_mjcf(path, builder, up_axis="z", stiffness=0.0)
    assert builder.body_name == ["base", "tip"]
    assert builder.joint_type == [wp.sim.JOINT_REVOLUTE, wp.sim.JOINT_PRISMATIC]
    assert builder.joint_limit_lower[0] == pytest.approx(-math.pi / 2)
    assert builder.joint_limit_upper[0] == pytest.approx(math.pi / 4)
    assert builder.joint_target_kd == [0.5, 0.5]
    # capsules take parse_mjcf's density, spheres the geom's
    sphere = 10.0 * 4.0 / 3.0 * math.pi * 0.2**3
    assert builder.body_mass[1] == pytest.approx(sphere)
    capsule = 1000.0 * (math.pi * 0.01 * 1.0 + 4.0 / 3.0 * math.pi * 0.001)
    assert builder.body_mass[0] == pytest.approx(capsule, rel=1e-5)
    # the file's z-up frame turns into the builder's y-up one
    assert np.allclose(np.array(builder.joint_X_p[0].p), [0.0, 1.0, 0.0], atol=1e-6)
