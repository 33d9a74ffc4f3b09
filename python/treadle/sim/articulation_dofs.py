"""treadle.sim.articulation_dofs -- rotations of joints with two or three angular axes, both ways:
from joint coordinates to a relative rotation and angular velocity (forward kinematics), and
back (inverse kinematics).

The axes are taken as the columns of a frame (axis_0, axis_1, and their cross product or
axis_2), whose rotation q_off maps the x, y, z axes onto them; the coordinates are rotations
about x, then the moved y, then the moved z of that frame (``quat_decompose``'s order).
"""

import treadle as wp

from .utils import quat_decompose


@wp.func
def _chain(q_off: wp.quat, angle_0: float, angle_1: float):
    """The first two rotations of the chain and the moved axes: (q_1 q_0, axis 0, axis 1,
    axis 2 after both)."""
    axis_0 = wp.quat_rotate(q_off, wp.vec3(1.0, 0.0, 0.0))
    q_0 = wp.quat_from_axis_angle(axis_0, angle_0)
    axis_1 = wp.quat_rotate(q_0, wp.quat_rotate(q_off, wp.vec3(0.0, 1.0, 0.0)))
    q_1 = wp.quat_from_axis_angle(axis_1, angle_1)
    axis_2 = wp.quat_rotate(q_1 * q_0, wp.quat_rotate(q_off, wp.vec3(0.0, 0.0, 1.0)))
    return q_1 * q_0, axis_0, axis_1, axis_2


@wp.func
def compute_2d_rotational_dofs(axis_0: wp.vec3, axis_1: wp.vec3, q0: float, q1: float,
                               qd0: float, qd1: float):
    """Relative rotation and angular velocity of a two-axis joint at coordinates (q0, q1)
    moving at (qd0, qd1)."""
    q_off = wp.quat_from_matrix(wp.matrix_from_cols(axis_0, axis_1, wp.cross(axis_0, axis_1)))
    rot, a0, a1, a2 = _chain(q_off, q0, q1)
    return rot, a0 * qd0 + a1 * qd1


@wp.func
def compute_3d_rotational_dofs(axis_0: wp.vec3, axis_1: wp.vec3, axis_2: wp.vec3, q0: float,
                               q1: float, q2: float, qd0: float, qd1: float, qd2: float):
    """Relative rotation and angular velocity of a three-axis joint."""
    q_off = wp.quat_from_matrix(wp.matrix_from_cols(axis_0, axis_1, axis_2))
    rot, a0, a1, a2 = _chain(q_off, q0, q1)
    return wp.quat_from_axis_angle(a2, q2) * rot, a0 * qd0 + a1 * qd1 + a2 * qd2


@wp.func
def _invert(q_off: wp.quat, q_p: wp.quat, q_c: wp.quat, w_err: wp.vec3):
    """Angles of the relative rotation in the axis frame, the moved axes and the angular
    velocity in the parent frame."""
    angles = quat_decompose(wp.quat_inverse(q_off) * wp.quat_inverse(q_p) * q_c * q_off)
    rot, a0, a1, a2 = _chain(q_off, angles[0], angles[1])
    return angles, a0, a1, a2, wp.quat_rotate_inv(q_p, w_err)


@wp.func
def _rate_about(w: wp.vec3, axis: wp.vec3, other_a: wp.vec3, other_b: wp.vec3):
    """The rate about `axis` in w = sum of rates x axes, eliminating the two other axes."""
    c = wp.cross(other_a, other_b)
    return wp.dot(w, c) / wp.dot(axis, c)


@wp.func
def invert_2d_rotational_dofs(axis_0: wp.vec3, axis_1: wp.vec3, q_p: wp.quat, q_c: wp.quat,
                              w_err: wp.vec3):
    """Coordinates and velocities (vec2 each) of a two-axis joint between anchor rotations
    q_p, q_c with angular velocity difference w_err (world)."""
    q_off = wp.quat_from_matrix(wp.matrix_from_cols(axis_0, axis_1, wp.cross(axis_0, axis_1)))
    angles, a0, a1, a2, w = _invert(q_off, q_p, q_c, w_err)
    return (wp.vec2(angles[0], angles[1]),
            wp.vec2(_rate_about(w, a0, a1, a2), _rate_about(w, a1, a0, a2)))


@wp.func
def invert_3d_rotational_dofs(axis_0: wp.vec3, axis_1: wp.vec3, axis_2: wp.vec3, q_p: wp.quat,
                              q_c: wp.quat, w_err: wp.vec3):
    """Coordinates and velocities (vec3 each) of a three-axis joint."""
    q_off = wp.quat_from_matrix(wp.matrix_from_cols(axis_0, axis_1, axis_2))
    angles, a0, a1, a2, w = _invert(q_off, q_p, q_c, w_err)
    return angles, wp.vec3(_rate_about(w, a0, a1, a2), _rate_about(w, a1, a0, a2),
                           _rate_about(w, a2, a0, a1))
