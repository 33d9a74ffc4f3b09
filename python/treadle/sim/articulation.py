"""treadle.sim.articulation -- forward and inverse kinematics of articulations: ``eval_fk`` sets
body poses and twists from generalised joint coordinates, ``eval_ik`` recovers the coordinates
from body poses and twists; both run one thread per joint.

Warp's forward kinematics walks each articulation's joints in order, reading the parent poses
it has just written; treadle's tape refuses a launch that reads an array it also overwrites,
so here each joint's thread composes its whole chain from the root down instead (the same
operations in the same order, so the same poses; O(depth^2) work).

A joint's child anchor frame is its parent anchor frame times the joint transform X_j of its
coordinates; the child body's twist is the parent anchor's plus the joint's, in world space.
"""

import numpy as np

import treadle as wp

from .articulation_dofs import (compute_2d_rotational_dofs, compute_3d_rotational_dofs,
                                invert_2d_rotational_dofs, invert_3d_rotational_dofs)
from .constants import (JOINT_BALL, JOINT_COMPOUND, JOINT_D6, JOINT_DISTANCE, JOINT_FREE,
                        JOINT_PRISMATIC, JOINT_REVOLUTE, JOINT_UNIVERSAL)
from .utils import acos_clamped, quat_twist


@wp.func
def _joint_transform(kind: int, q: wp.array(dtype=float), qd: wp.array(dtype=float),
                     q_start: int, qd_start: int, axis: wp.array(dtype=wp.vec3), axis_start: int,
                     lin_count: int, ang_count: int):
    """The transform across a joint and its twist, in the parent anchor frame."""
    if kind == JOINT_PRISMATIC:
        a = axis[axis_start]
        return (wp.transform(a * q[q_start], wp.quat_identity()),
                wp.spatial_vector(wp.vec3(), a * qd[qd_start]))
    if kind == JOINT_REVOLUTE:
        a = axis[axis_start]
        return (wp.transform(wp.vec3(), wp.quat_from_axis_angle(a, q[q_start])),
                wp.spatial_vector(a * qd[qd_start], wp.vec3()))
    if kind == JOINT_BALL:
        r = wp.quat(q[q_start], q[q_start + 1], q[q_start + 2], q[q_start + 3])
        w = wp.vec3(qd[qd_start], qd[qd_start + 1], qd[qd_start + 2])
        return wp.transform(wp.vec3(), r), wp.spatial_vector(w, wp.vec3())
    if kind == JOINT_FREE or kind == JOINT_DISTANCE:
        t = wp.transform(wp.vec3(q[q_start], q[q_start + 1], q[q_start + 2]),
                         wp.quat(q[q_start + 3], q[q_start + 4], q[q_start + 5], q[q_start + 6]))
        v = wp.spatial_vector(wp.vec3(qd[qd_start], qd[qd_start + 1], qd[qd_start + 2]),
                              wp.vec3(qd[qd_start + 3], qd[qd_start + 4], qd[qd_start + 5]))
        return t, v
    if kind == JOINT_COMPOUND:
        rot, w = compute_3d_rotational_dofs(axis[axis_start], axis[axis_start + 1],
                                            axis[axis_start + 2], q[q_start], q[q_start + 1],
                                            q[q_start + 2], qd[qd_start], qd[qd_start + 1],
                                            qd[qd_start + 2])
        return wp.transform(wp.vec3(), rot), wp.spatial_vector(w, wp.vec3())
    if kind == JOINT_UNIVERSAL:
        rot, w = compute_2d_rotational_dofs(axis[axis_start], axis[axis_start + 1], q[q_start],
                                            q[q_start + 1], qd[qd_start], qd[qd_start + 1])
        return wp.transform(wp.vec3(), rot), wp.spatial_vector(w, wp.vec3())
    if kind == JOINT_D6:
        return _d6_transform(q, qd, q_start, qd_start, axis, axis_start, lin_count, ang_count)
    return wp.transform_identity(), wp.spatial_vector()


@wp.func
def _d6_transform(q: wp.array(dtype=float), qd: wp.array(dtype=float), q_start: int,
                  qd_start: int, axis: wp.array(dtype=wp.vec3), axis_start: int, lin_count: int,
                  ang_count: int):
    pos = wp.vec3()
    vel = wp.vec3()
    if lin_count > 0:
        pos += axis[axis_start] * q[q_start]
        vel += axis[axis_start] * qd[qd_start]
    if lin_count > 1:
        pos += axis[axis_start + 1] * q[q_start + 1]
        vel += axis[axis_start + 1] * qd[qd_start + 1]
    if lin_count > 2:
        pos += axis[axis_start + 2] * q[q_start + 2]
        vel += axis[axis_start + 2] * qd[qd_start + 2]
    ia = axis_start + lin_count
    iq = q_start + lin_count
    iqd = qd_start + lin_count
    rot = wp.quat_identity()
    w = wp.vec3()
    if ang_count == 1:
        rot = wp.quat_from_axis_angle(axis[ia], q[iq])
        w = axis[ia] * qd[iqd]
    if ang_count == 2:
        rot, w = compute_2d_rotational_dofs(axis[ia], axis[ia + 1], q[iq], q[iq + 1], qd[iqd],
                                            qd[iqd + 1])
    if ang_count == 3:
        rot, w = compute_3d_rotational_dofs(axis[ia], axis[ia + 1], axis[ia + 2], q[iq],
                                            q[iq + 1], q[iq + 2], qd[iqd], qd[iqd + 1],
                                            qd[iqd + 2])
    return wp.transform(pos, rot), wp.spatial_vector(w, vel)


@wp.func
def _joint_fk(k: int, X_wp: wp.transform, v_wp: wp.spatial_vector, joint_q: wp.array(dtype=float),
              joint_qd: wp.array(dtype=float), joint_q_start: wp.array(dtype=int),
              joint_qd_start: wp.array(dtype=int), joint_type: wp.array(dtype=int),
              joint_parent: wp.array(dtype=int), joint_X_p: wp.array(dtype=wp.transform),
              joint_X_c: wp.array(dtype=wp.transform), joint_axis: wp.array(dtype=wp.vec3),
              joint_axis_start: wp.array(dtype=int),
              joint_axis_dim: wp.array(dtype=int, ndim=2), body_com: wp.array(dtype=wp.vec3)):
    """Pose and twist of joint k's child body, given its parent body's (X_wp, v_wp)."""
    X_wpj = joint_X_p[k]
    v_wpj = wp.spatial_vector()
    parent = joint_parent[k]
    if parent >= 0:
        X_wpj = X_wp * X_wpj
        r_p = wp.transform_get_translation(X_wpj) - wp.transform_point(X_wp, body_com[parent])
        w_p = wp.spatial_top(v_wp)
        v_wpj = wp.spatial_vector(w_p, wp.spatial_bottom(v_wp) + wp.cross(w_p, r_p))
    X_j, v_j = _joint_transform(joint_type[k], joint_q, joint_qd, joint_q_start[k],
                                joint_qd_start[k], joint_axis, joint_axis_start[k],
                                joint_axis_dim[k, 0], joint_axis_dim[k, 1])
    X_wc = X_wpj * X_j * wp.transform_inverse(joint_X_c[k])
    v_wc = v_wpj + wp.spatial_vector(wp.transform_vector(X_wpj, wp.spatial_top(v_j)),
                                     wp.transform_vector(X_wpj, wp.spatial_bottom(v_j)))
    return X_wc, v_wc


@wp.func
def _articulation_of(j: int, articulation_start: wp.array(dtype=int)):
    """Index of the articulation whose joint range holds joint j (binary search)."""
    lo = int(0)
    hi = articulation_start.shape[0] - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if articulation_start[mid] <= j:
            lo = mid
        else:
            hi = mid
    return lo


@wp.func
def _ancestor(j: int, levels: int, joint_ancestor: wp.array(dtype=int)):
    k = j
    for _i in range(levels):
        k = joint_ancestor[k]
    return k


@wp.kernel
def eval_articulation_fk(articulation_start: wp.array(dtype=int),
                         articulation_mask: wp.array(dtype=int), joint_q: wp.array(dtype=float),
                         joint_qd: wp.array(dtype=float), joint_q_start: wp.array(dtype=int),
                         joint_qd_start: wp.array(dtype=int), joint_type: wp.array(dtype=int),
                         joint_parent: wp.array(dtype=int), joint_child: wp.array(dtype=int),
                         joint_ancestor: wp.array(dtype=int),
                         joint_X_p: wp.array(dtype=wp.transform),
                         joint_X_c: wp.array(dtype=wp.transform),
                         joint_axis: wp.array(dtype=wp.vec3),
                         joint_axis_start: wp.array(dtype=int),
                         joint_axis_dim: wp.array(dtype=int, ndim=2),
                         body_com: wp.array(dtype=wp.vec3),
                         root_parent_q: wp.array(dtype=wp.transform),
                         root_parent_qd: wp.array(dtype=wp.spatial_vector),
                         body_q: wp.array(dtype=wp.transform),
                         body_qd: wp.array(dtype=wp.spatial_vector)):
    """Places the child body of joint tid (skipped where its articulation's mask is 0) by
    composing the joints from the root of its chain down. Each body is written once and none
    is read back, so the kernel replays exactly on a tape; the pose of a root joint's parent
    body that has no joint of its own comes from `root_parent_q` / `root_parent_qd`."""
    tid = wp.tid()
    if articulation_mask:
        if articulation_mask[_articulation_of(tid, articulation_start)] == 0:
            return
    depth = int(0)
    k = tid
    while joint_ancestor[k] >= 0:
        k = joint_ancestor[k]
        depth += 1
    X = wp.transform_identity()
    v = wp.spatial_vector()
    if joint_parent[k] >= 0:
        X = root_parent_q[joint_parent[k]]
        v = root_parent_qd[joint_parent[k]]
    for level in range(depth, -1, -1):
        X, v = _joint_fk(_ancestor(tid, level, joint_ancestor), X, v, joint_q, joint_qd,
                         joint_q_start, joint_qd_start, joint_type, joint_parent, joint_X_p,
                         joint_X_c, joint_axis, joint_axis_start, joint_axis_dim, body_com)
    body_q[joint_child[tid]] = X
    body_qd[joint_child[tid]] = v


def eval_fk(model, joint_q, joint_qd, mask, state):
    """Sets ``state.body_q`` and ``state.body_qd`` from the generalised coordinates `joint_q`
    and `joint_qd`; `mask` (int or bool per articulation, or None for all) picks the
    articulations to update. `state` may be the model itself."""
    if not model.joint_count:
        return
    if mask is not None and mask.dtype == wp.bool:
        mask = wp.array(mask.numpy().astype(np.int32), dtype=int, device=model.device)
    roots = model.joint_ancestor.numpy() < 0
    if (model.joint_parent.numpy()[roots] >= 0).any():
        # a root joint hangs from a body without a joint: read its present pose, untaped
        parent_q = wp.array(state.body_q.numpy(), dtype=wp.transform, device=model.device)
        parent_qd = wp.array(state.body_qd.numpy(), dtype=wp.spatial_vector, device=model.device)
    else:
        parent_q = wp.empty(0, dtype=wp.transform, device=model.device)
        parent_qd = wp.empty(0, dtype=wp.spatial_vector, device=model.device)
    wp.launch(eval_articulation_fk, dim=model.joint_count,
              inputs=[model.articulation_start, mask, joint_q, joint_qd, model.joint_q_start,
                      model.joint_qd_start, model.joint_type, model.joint_parent,
                      model.joint_child, model.joint_ancestor, model.joint_X_p, model.joint_X_c,
                      model.joint_axis, model.joint_axis_start, model.joint_axis_dim,
                      model.body_com, parent_q, parent_qd],
              outputs=[state.body_q, state.body_qd], device=model.device)


@wp.func
def reconstruct_angular_q_qd(q_pc: wp.quat, w_err: wp.vec3, X_wp: wp.transform, axis: wp.vec3):
    """Angle of the relative rotation `q_pc` about the hinge `axis` (parent anchor frame) and
    the rate about it of the world angular velocity difference `w_err`."""
    twist = quat_twist(axis, q_pc)
    q = acos_clamped(twist[3]) * 2.0 * wp.sign(wp.dot(axis, wp.vec3(twist[0], twist[1], twist[2])))
    return q, wp.dot(w_err, wp.transform_vector(X_wp, axis))


@wp.func
def _write3(a: wp.array(dtype=float), start: int, v: wp.vec3):
    a[start] = v[0]
    a[start + 1] = v[1]
    a[start + 2] = v[2]


@wp.kernel
def eval_articulation_ik(body_q: wp.array(dtype=wp.transform),
                         body_qd: wp.array(dtype=wp.spatial_vector),
                         body_com: wp.array(dtype=wp.vec3), joint_type: wp.array(dtype=int),
                         joint_parent: wp.array(dtype=int), joint_child: wp.array(dtype=int),
                         joint_X_p: wp.array(dtype=wp.transform),
                         joint_X_c: wp.array(dtype=wp.transform),
                         joint_axis: wp.array(dtype=wp.vec3),
                         joint_axis_start: wp.array(dtype=int),
                         joint_axis_dim: wp.array(dtype=int, ndim=2),
                         joint_q_start: wp.array(dtype=int), joint_qd_start: wp.array(dtype=int),
                         joint_q: wp.array(dtype=float), joint_qd: wp.array(dtype=float)):
    """Generalised coordinates of joint tid from its bodies' poses and twists."""
    tid = wp.tid()
    parent = joint_parent[tid]
    X_wpj = joint_X_p[tid]
    w_p = wp.vec3()
    v_p = wp.vec3()
    if parent >= 0:
        X_wp = body_q[parent]
        X_wpj = X_wp * X_wpj
        r_p = wp.transform_get_translation(X_wpj) - wp.transform_point(X_wp, body_com[parent])
        w_p = wp.spatial_top(body_qd[parent])
        v_p = wp.spatial_bottom(body_qd[parent]) + wp.cross(w_p, r_p)
    child = joint_child[tid]
    X_wcj = body_q[child] * joint_X_c[tid]
    q_p = wp.transform_get_rotation(X_wpj)
    q_c = wp.transform_get_rotation(X_wcj)
    x_err = wp.transform_get_translation(X_wcj) - wp.transform_get_translation(X_wpj)
    v_err = wp.spatial_bottom(body_qd[child]) - v_p
    w_err = wp.spatial_top(body_qd[child]) - w_p
    q_pc = wp.quat_inverse(q_p) * q_c
    kind = joint_type[tid]
    qs = joint_q_start[tid]
    qds = joint_qd_start[tid]
    start = joint_axis_start[tid]
    lin_count = joint_axis_dim[tid, 0]
    ang_count = joint_axis_dim[tid, 1]
    if kind == JOINT_PRISMATIC:
        axis = wp.quat_rotate(q_p, joint_axis[start])
        joint_q[qs] = wp.dot(x_err, axis)
        joint_qd[qds] = wp.dot(v_err, axis)
    elif kind == JOINT_REVOLUTE:
        q, qd = reconstruct_angular_q_qd(q_pc, w_err, X_wpj, joint_axis[start])
        joint_q[qs] = q
        joint_qd[qds] = qd
    elif kind == JOINT_BALL:
        _write3(joint_q, qs, wp.vec3(q_pc[0], q_pc[1], q_pc[2]))
        joint_q[qs + 3] = q_pc[3]
        _write3(joint_qd, qds, wp.transform_vector(wp.transform_inverse(X_wpj), w_err))
    elif kind == JOINT_FREE or kind == JOINT_DISTANCE:
        _write3(joint_q, qs, wp.quat_rotate_inv(q_p, x_err))
        _write3(joint_q, qs + 3, wp.vec3(q_pc[0], q_pc[1], q_pc[2]))
        joint_q[qs + 6] = q_pc[3]
        _write3(joint_qd, qds, wp.quat_rotate_inv(q_p, w_err))
        _write3(joint_qd, qds + 3, wp.quat_rotate_inv(q_p, v_err))
    elif kind == JOINT_COMPOUND:
        angles, rates = invert_3d_rotational_dofs(joint_axis[start], joint_axis[start + 1],
                                                  joint_axis[start + 2], q_p, q_c, w_err)
        _write3(joint_q, qs, angles)
        _write3(joint_qd, qds, rates)
    elif kind == JOINT_UNIVERSAL:
        angles2, rates2 = invert_2d_rotational_dofs(joint_axis[start], joint_axis[start + 1],
                                                    q_p, q_c, w_err)
        joint_q[qs] = angles2[0]
        joint_q[qs + 1] = angles2[1]
        joint_qd[qds] = rates2[0]
        joint_qd[qds + 1] = rates2[1]
    elif kind == JOINT_D6:
        _d6_inverse(joint_q, joint_qd, qs, qds, joint_axis, start, lin_count, ang_count,
                    wp.quat_rotate_inv(q_p, x_err), wp.quat_rotate_inv(q_p, v_err), q_p, q_c,
                    q_pc, w_err, X_wpj)


@wp.func
def _d6_inverse(joint_q: wp.array(dtype=float), joint_qd: wp.array(dtype=float), qs: int,
                qds: int, joint_axis: wp.array(dtype=wp.vec3), start: int, lin_count: int,
                ang_count: int, x_local: wp.vec3, v_local: wp.vec3, q_p: wp.quat, q_c: wp.quat,
                q_pc: wp.quat, w_err: wp.vec3, X_wpj: wp.transform):
    """eval_articulation_ik's D6 case: linear coordinates along the axes (parent anchor frame),
    then the angular ones."""
    if lin_count > 0:
        joint_q[qs] = wp.dot(x_local, joint_axis[start])
        joint_qd[qds] = wp.dot(v_local, joint_axis[start])
    if lin_count > 1:
        joint_q[qs + 1] = wp.dot(x_local, joint_axis[start + 1])
        joint_qd[qds + 1] = wp.dot(v_local, joint_axis[start + 1])
    if lin_count > 2:
        joint_q[qs + 2] = wp.dot(x_local, joint_axis[start + 2])
        joint_qd[qds + 2] = wp.dot(v_local, joint_axis[start + 2])
    ia = start + lin_count
    iq = qs + lin_count
    iqd = qds + lin_count
    if ang_count == 1:
        q, qd = reconstruct_angular_q_qd(q_pc, w_err, X_wpj, joint_axis[ia])
        joint_q[iq] = q
        joint_qd[iqd] = qd
    if ang_count == 2:
        angles2, rates2 = invert_2d_rotational_dofs(joint_axis[ia], joint_axis[ia + 1], q_p, q_c,
                                                    w_err)
        joint_q[iq] = angles2[0]
        joint_q[iq + 1] = angles2[1]
        joint_qd[iqd] = rates2[0]
        joint_qd[iqd + 1] = rates2[1]
    if ang_count == 3:
        angles, rates = invert_3d_rotational_dofs(joint_axis[ia], joint_axis[ia + 1],
                                                  joint_axis[ia + 2], q_p, q_c, w_err)
        _write3(joint_q, iq, angles)
        _write3(joint_qd, iqd, rates)


def eval_ik(model, state, joint_q, joint_qd):
    """Writes into `joint_q` and `joint_qd` the generalised coordinates of the body poses and
    twists of `state` (``body_q``, ``body_qd``)."""
    wp.launch(eval_articulation_ik, dim=model.joint_count,
              inputs=[state.body_q, state.body_qd, model.body_com, model.joint_type,
                      model.joint_parent, model.joint_child, model.joint_X_p, model.joint_X_c,
                      model.joint_axis, model.joint_axis_start, model.joint_axis_dim,
                      model.joint_q_start, model.joint_qd_start],
              outputs=[joint_q, joint_qd], device=model.device)
