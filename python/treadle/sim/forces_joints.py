"""treadle.sim.forces_joints -- joint forces of the semi-implicit integrator: every joint is a
set of penalty springs between its two anchor frames (stiffness ``joint_attach_ke``, damping
``joint_attach_kd``; angular damping at 1/100 of it) on the directions it constrains, plus, on
each of its axes, the drive and limit force of ``eval_joint_force``.

Free, distance (XPBD only) and disabled joints exert nothing; ball joints only hold their
anchors together. The axes of compound, universal and 2- or 3-axis D6
joints follow the x-y'-z'' decomposition of the relative rotation (``quat_decompose``).
"""

import treadle as wp

from .constants import (JOINT_COMPOUND, JOINT_D6, JOINT_DISTANCE, JOINT_FIXED, JOINT_FREE,
                        JOINT_MODE_FORCE, JOINT_MODE_TARGET_POSITION, JOINT_MODE_TARGET_VELOCITY,
                        JOINT_PRISMATIC, JOINT_REVOLUTE, JOINT_UNIVERSAL)
from .utils import acos_clamped, quat_decompose, quat_twist

_ANGULAR_DAMPING_SCALE = wp.constant(0.01)


@wp.func
def eval_joint_force(q: float, qd: float, act: float, target_ke: float, target_kd: float,
                     limit_lower: float, limit_upper: float, limit_ke: float, limit_kd: float,
                     mode: wp.int32) -> float:
    """Generalised force on one joint axis at coordinate `q`, speed `qd`: the drive (`act` as
    a force, or a PD pull towards the target position or velocity `act`) plus, outside the
    limits, a spring and damper back; a velocity drive yields to a violated limit."""
    target_f = float(0.0)
    if mode == JOINT_MODE_FORCE:
        target_f = act
    elif mode == JOINT_MODE_TARGET_POSITION:
        target_f = target_ke * (act - q) - target_kd * qd
    elif mode == JOINT_MODE_TARGET_VELOCITY:
        target_f = target_ke * (act - qd)
    limit_f = float(0.0)
    if q < limit_lower or q > limit_upper:
        bound = wp.where(q < limit_lower, limit_lower, limit_upper)
        limit_f = limit_ke * (bound - q) - limit_kd * qd
        if mode == JOINT_MODE_TARGET_VELOCITY:
            target_f = 0.0
    return limit_f + target_f


@wp.func
def _axis_force(i: int, q: float, qd: float, joint_act: wp.array(dtype=float),
                joint_target_ke: wp.array(dtype=float), joint_target_kd: wp.array(dtype=float),
                joint_limit_lower: wp.array(dtype=float),
                joint_limit_upper: wp.array(dtype=float), joint_limit_ke: wp.array(dtype=float),
                joint_limit_kd: wp.array(dtype=float), joint_axis_mode: wp.array(dtype=int)):
    """eval_joint_force with the settings of joint axis i."""
    return eval_joint_force(q, qd, joint_act[i], joint_target_ke[i], joint_target_kd[i],
                            joint_limit_lower[i], joint_limit_upper[i], joint_limit_ke[i],
                            joint_limit_kd[i], joint_axis_mode[i])


@wp.func
def _attachment_torque(X_wp: wp.transform, r_err: wp.quat, w_err: wp.vec3, ke: float,
                       kd: float):
    """Torque pulling the child's anchor rotation onto the parent's (angle-axis error)."""
    angle_axis = wp.normalize(wp.vec3(r_err[0], r_err[1], r_err[2])) * acos_clamped(r_err[3]) * 2.0
    return wp.transform_vector(X_wp, angle_axis) * ke + w_err * kd * _ANGULAR_DAMPING_SCALE


@wp.func
def _hinge_angle(axis: wp.vec3, r_err: wp.quat):
    """Signed angle of the twist of `r_err` about `axis`."""
    twist = quat_twist(axis, r_err)
    return acos_clamped(twist[3]) * 2.0 * wp.sign(wp.dot(axis, wp.vec3(twist[0], twist[1], twist[2])))


@wp.func
def _decomposed_axes(r_err: wp.quat, axis_0: wp.vec3, axis_1: wp.vec3, axis_2: wp.vec3,
                     X_wp: wp.transform):
    """Angles of `r_err` about axis_0, then the moved axis_1, then the moved axis_2, and the
    three moved axes in world space."""
    angles = quat_decompose(r_err)
    q_0 = wp.quat_from_axis_angle(axis_0, angles[0])
    moved_1 = wp.quat_rotate(q_0, axis_1)
    q_1 = wp.quat_from_axis_angle(moved_1, angles[1])
    moved_2 = wp.quat_rotate(q_1 * q_0, axis_2)
    return (angles, wp.transform_vector(X_wp, axis_0), wp.transform_vector(X_wp, moved_1),
            wp.transform_vector(X_wp, moved_2))


@wp.func
def _linear_drive(i: int, x_err: wp.vec3, v_err: wp.vec3, X_wp: wp.transform,
                  joint_axis: wp.array(dtype=wp.vec3), joint_act: wp.array(dtype=float),
                  joint_target_ke: wp.array(dtype=float), joint_target_kd: wp.array(dtype=float),
                  joint_limit_lower: wp.array(dtype=float),
                  joint_limit_upper: wp.array(dtype=float), joint_limit_ke: wp.array(dtype=float),
                  joint_limit_kd: wp.array(dtype=float), joint_axis_mode: wp.array(dtype=int)):
    """Drive force along linear joint axis i (world space), and the offset and velocity along
    it."""
    axis = wp.transform_vector(X_wp, joint_axis[i])
    q = wp.dot(x_err, axis)
    qd = wp.dot(v_err, axis)
    f = axis * -_axis_force(i, q, qd, joint_act, joint_target_ke, joint_target_kd,
                            joint_limit_lower, joint_limit_upper, joint_limit_ke, joint_limit_kd,
                            joint_axis_mode)
    return f, q * axis, qd * axis


@wp.kernel
def eval_body_joints(body_q: wp.array(dtype=wp.transform),
                     body_qd: wp.array(dtype=wp.spatial_vector), body_com: wp.array(dtype=wp.vec3),
                     joint_qd_start: wp.array(dtype=int), joint_type: wp.array(dtype=int),
                     joint_enabled: wp.array(dtype=int), joint_child: wp.array(dtype=int),
                     joint_parent: wp.array(dtype=int), joint_X_p: wp.array(dtype=wp.transform),
                     joint_X_c: wp.array(dtype=wp.transform), joint_axis: wp.array(dtype=wp.vec3),
                     joint_axis_start: wp.array(dtype=int),
                     joint_axis_dim: wp.array(dtype=int, ndim=2),
                     joint_axis_mode: wp.array(dtype=int), joint_act: wp.array(dtype=float),
                     joint_target_ke: wp.array(dtype=float),
                     joint_target_kd: wp.array(dtype=float),
                     joint_limit_lower: wp.array(dtype=float),
                     joint_limit_upper: wp.array(dtype=float),
                     joint_limit_ke: wp.array(dtype=float), joint_limit_kd: wp.array(dtype=float),
                     joint_attach_ke: float, joint_attach_kd: float,
                     body_f: wp.array(dtype=wp.spatial_vector)):
    """Wrenches of joint tid on its child (and, opposite, its parent) body."""
    tid = wp.tid()
    kind = joint_type[tid]
    if joint_enabled[tid] == 0 or kind == JOINT_FREE or kind == JOINT_DISTANCE:
        return
    child = joint_child[tid]
    parent = joint_parent[tid]
    X_wp = joint_X_p[tid]
    r_p = wp.vec3()
    w_p = wp.vec3()
    v_p = wp.vec3()
    if parent >= 0:
        X_wp = body_q[parent] * X_wp
        r_p = wp.transform_get_translation(X_wp) - wp.transform_point(body_q[parent],
                                                                      body_com[parent])
        w_p = wp.spatial_top(body_qd[parent])
        v_p = wp.spatial_bottom(body_qd[parent]) + wp.cross(w_p, r_p)
    X_wc = body_q[child] * joint_X_c[tid]
    r_c = wp.transform_get_translation(X_wc) - wp.transform_point(body_q[child], body_com[child])
    w_c = wp.spatial_top(body_qd[child])
    v_c = wp.spatial_bottom(body_qd[child]) + wp.cross(w_c, r_c)
    start = joint_axis_start[tid]
    lin_count = joint_axis_dim[tid, 0]
    ang_count = joint_axis_dim[tid, 1]
    x_err = wp.transform_get_translation(X_wc) - wp.transform_get_translation(X_wp)
    r_err = wp.quat_inverse(wp.transform_get_rotation(X_wp)) * wp.transform_get_rotation(X_wc)
    v_err = v_c - v_p
    w_err = w_c - w_p
    ke = joint_attach_ke
    kd = joint_attach_kd
    t_total = wp.vec3()
    f_total = wp.vec3()
    # the linear axes a joint frees (prismatic: its axis, D6: its linear axes) get drives;
    # the attachment spring holds the rest of the offset
    free_pos = wp.vec3()
    free_vel = wp.vec3()
    count = wp.where(kind == JOINT_PRISMATIC, 1, wp.where(kind == JOINT_D6, lin_count, 0))
    if count > 0:
        f, p, v = _linear_drive(start, x_err, v_err, X_wp, joint_axis, joint_act,
                                joint_target_ke, joint_target_kd, joint_limit_lower,
                                joint_limit_upper, joint_limit_ke, joint_limit_kd, joint_axis_mode)
        f_total += f
        free_pos += p
        free_vel += v
    if count > 1:
        f, p, v = _linear_drive(start + 1, x_err, v_err, X_wp, joint_axis, joint_act,
                                joint_target_ke, joint_target_kd, joint_limit_lower,
                                joint_limit_upper, joint_limit_ke, joint_limit_kd, joint_axis_mode)
        f_total += f
        free_pos += p
        free_vel += v
    if count > 2:
        f, p, v = _linear_drive(start + 2, x_err, v_err, X_wp, joint_axis, joint_act,
                                joint_target_ke, joint_target_kd, joint_limit_lower,
                                joint_limit_upper, joint_limit_ke, joint_limit_kd, joint_axis_mode)
        f_total += f
        free_pos += p
        free_vel += v
    f_total += (x_err - free_pos) * ke + (v_err - free_vel) * kd
    hinge = kind == JOINT_REVOLUTE or (kind == JOINT_D6 and ang_count == 1)
    if kind == JOINT_FIXED or kind == JOINT_PRISMATIC or (kind == JOINT_D6 and ang_count == 0):
        t_total += _attachment_torque(X_wp, r_err, w_err, ke, kd)
    elif hinge:
        i = start + wp.where(kind == JOINT_D6, lin_count, 0)
        axis = joint_axis[i]
        axis_p = wp.transform_vector(X_wp, axis)
        q = _hinge_angle(axis, r_err)
        qd = wp.dot(w_err, axis_p)
        t_total = axis_p * -_axis_force(i, q, qd, joint_act, joint_target_ke, joint_target_kd,
                                        joint_limit_lower, joint_limit_upper, joint_limit_ke,
                                        joint_limit_kd, joint_axis_mode)
        swing_err = wp.cross(axis_p, wp.transform_vector(X_wc, axis))
        t_total += swing_err * ke + (w_err - qd * axis_p) * kd * _ANGULAR_DAMPING_SCALE
    elif kind == JOINT_COMPOUND or kind == JOINT_UNIVERSAL or kind == JOINT_D6:
        i = start + wp.where(kind == JOINT_D6, lin_count, 0)
        a0 = wp.vec3(1.0, 0.0, 0.0)
        a1 = wp.vec3(0.0, 1.0, 0.0)
        a2 = wp.vec3(0.0, 0.0, 1.0)
        if kind == JOINT_D6:
            a0 = joint_axis[i]
            a1 = joint_axis[i + 1]
            a2 = wp.cross(a0, a1)
            if ang_count == 3:
                a2 = joint_axis[i + 2]
        angles, w0, w1, w2 = _decomposed_axes(r_err, a0, a1, a2, X_wp)
        t_total += w0 * -_axis_force(i, angles[0], wp.dot(w0, w_err), joint_act,
                                     joint_target_ke, joint_target_kd, joint_limit_lower,
                                     joint_limit_upper, joint_limit_ke, joint_limit_kd,
                                     joint_axis_mode)
        t_total += w1 * -_axis_force(i + 1, angles[1], wp.dot(w1, w_err), joint_act,
                                     joint_target_ke, joint_target_kd, joint_limit_lower,
                                     joint_limit_upper, joint_limit_ke, joint_limit_kd,
                                     joint_axis_mode)
        if kind == JOINT_COMPOUND or ang_count == 3:
            t_total += w2 * -_axis_force(i + 2, angles[2], wp.dot(w2, w_err), joint_act,
                                         joint_target_ke, joint_target_kd, joint_limit_lower,
                                         joint_limit_upper, joint_limit_ke, joint_limit_kd,
                                         joint_axis_mode)
        else:
            # Warp's "fixed" third axis: a force-mode axis with zero action and limits
            t_total += w2 * -eval_joint_force(angles[2], wp.dot(w2, w_err), 0.0, ke,
                                              kd * _ANGULAR_DAMPING_SCALE, 0.0, 0.0, 0.0, 0.0,
                                              JOINT_MODE_FORCE)
    if parent >= 0:
        wp.atomic_add(body_f, parent, wp.spatial_vector(t_total + wp.cross(r_p, f_total), f_total))
    wp.atomic_sub(body_f, child, wp.spatial_vector(t_total + wp.cross(r_c, f_total), f_total))
