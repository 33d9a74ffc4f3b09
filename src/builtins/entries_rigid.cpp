// src/builtins/entries_rigid.cpp -- the builtin table's quaternions, spatial vectors and transforms
#include "builtins/entries.h"

namespace treadle::builtins::entries {

using namespace rules;

/// Quaternion math.
std::vector<Builtin> quaternions() {
    return {
        {"quat_from_axis_angle", "quat_from_axis_angle", BuiltinKind::Regular, "Quaternion Math",
         "quat_from_axis_angle(axis: vec3, angle: Float) -> quat",
         "The unit quaternion of a rotation by angle radians about the unit 3-vector axis (of the "
         "same float type).",
         true, rule_q_from_axis_angle, with().host()},
        {"quat_to_axis_angle", "quat_to_axis_angle", BuiltinKind::Multi, "Quaternion Math",
         "quat_to_axis_angle(quat: quat) -> tuple(vec3, Float)",
         "The rotation of unit quaternion quat as (axis, angle): the unit rotation axis and the "
         "angle in [0, pi] radians. Also quat_to_axis_angle(quat, axis, angle) into local "
         "variables.",
         true, rule_q_to_axis_angle, with().results(2).rebinds(Rebinds::Outputs)},
        {"quat_rotate", "quat_rotate", BuiltinKind::Regular, "Quaternion Math",
         "quat_rotate(q: quat, v: vec3) -> vec3",
         "The 3-vector v rotated by the unit quaternion q (q v q*).", true, rule_q_rotate,
         with().host()},
        {"quat_rotate_inv", "quat_rotate_inv", BuiltinKind::Regular, "Quaternion Math",
         "quat_rotate_inv(q: quat, v: vec3) -> vec3",
         "The 3-vector v rotated by the inverse of the unit quaternion q (q* v q).", true,
         rule_q_rotate, with().host()},
        {"quat_inverse", "quat_inverse", BuiltinKind::Regular, "Quaternion Math",
         "quat_inverse(q: quat) -> quat",
         "The conjugate (-x, -y, -z, w) of quaternion q, which is the inverse of a unit "
         "quaternion.",
         true, rule_q_to_q, with().host()},
        {"quat_to_matrix", "quat_to_matrix", BuiltinKind::Regular, "Quaternion Math",
         "quat_to_matrix(q: quat) -> mat33",
         "The 3x3 rotation matrix of the unit quaternion q (same float type).", true,
         rule_q_to_matrix, with().host()},
        {"quat_from_matrix", "quat_from_matrix", BuiltinKind::Regular, "Quaternion Math",
         "quat_from_matrix(m: mat33 | mat44) -> quat",
         "The unit quaternion of the 3x3 rotation matrix m (same float type), or of the "
         "upper-left 3x3 block of a 4x4 matrix.",
         true, rule_q_from_matrix, with().host()},
        {"quat_slerp", "quat_slerp", BuiltinKind::Regular, "Quaternion Math",
         "quat_slerp(a: quat, b: quat, t: Float) -> quat",
         "Spherical linear interpolation of unit quaternions from a (t = 0) to b (t = 1) at "
         "parameter t: a (a^-1 b)^t, the relative rotation a^-1 b taken through t times its "
         "angle about its axis, along the shorter arc.",
         true, rule_q_slerp},
        {"quat_rpy", "quat_rpy", BuiltinKind::Regular, "Quaternion Math",
         "quat_rpy(roll: Float, pitch: Float, yaw: Float) -> quat",
         "The unit quaternion qz(yaw) qy(pitch) qx(roll) of the rotation by roll radians about x, "
         "then pitch about y, then yaw about z.",
         true, rule_q_rpy, with().host()},
        {"quat_to_rpy", "quat_to_rpy", BuiltinKind::Regular, "Quaternion Math",
         "quat_to_rpy(q: quat) -> vec3",
         "The (roll, pitch, yaw) angles in radians of the unit quaternion q, the inverse of "
         "quat_rpy: atan2(2 (wx + yz), 1 - 2 (x^2 + y^2)), asin(2 (wy - zx)) (clamped to [-pi/2, "
         "pi/2]) and atan2(2 (wz + xy), 1 - 2 (y^2 + z^2)).",
         true, rule_q_to_rpy, with().host()},
        {"quat_from_euler", "quat_from_euler", BuiltinKind::Regular, "Quaternion Math",
         "quat_from_euler(e: vec3, i: int32, j: int32, k: int32) -> quat",
         "The unit quaternion qk qj qi of the rotations about the fixed axes i, then j, then k "
         "(each in {0, 1, 2}), qn the rotation by e[n] radians about axis n: the angles are "
         "indexed by axis, e[0] about x, e[1] about y, e[2] about z. quat_from_euler(e, 0, 1, 2) "
         "is quat_rpy(e[0], e[1], e[2]); for i == k, e[i] is used for both the first and the "
         "third rotation.",
         true, rule_q_from_euler, with().host()},
        {"quat_to_euler", "quat_to_euler", BuiltinKind::Regular, "Quaternion Math",
         "quat_to_euler(q: quat, i: int32, j: int32, k: int32) -> vec3",
         "The Euler angles in radians of the rotation q for the axis sequence i, j, k (i != j, j "
         "!= k), in the convention of quat_from_euler: for i != k, e is indexed by axis and "
         "quat_from_euler(quat_to_euler(q, i, j, k), i, j, k) is the rotation q, also at gimbal "
         "lock (where the first angle is 0). The second angle is in [-pi/2, pi/2] for i != k "
         "and in [0, pi] for i == k; for i == k, e[i] holds the first angle, e[j] the second "
         "and e[3 - i - j] the third.",
         true, rule_q_to_euler, with().host()},
        {"quat_twist", "quat_twist", BuiltinKind::Regular, "Quaternion Math",
         "quat_twist(axis: vec3, q: quat) -> quat",
         "The twist of q about the unit axis in the swing-twist decomposition: the unit "
         "quaternion of q's vector part projected on axis and q's real part.",
         true, rule_q_twist, with().host()},
        {"quat_twist_angle", "quat_twist_angle", BuiltinKind::Regular, "Quaternion Math",
         "quat_twist_angle(axis: vec3, q: quat) -> Float",
         "The unsigned angle 2 atan2(|dot(axis, v)|, w) of q's twist about the unit axis (v the "
         "vector part, w the real part of q): in [0, pi] for w >= 0, up to 2 pi otherwise.",
         true, rule_q_twist_angle, with().host()},
        {"quat_twist_angle_signed", "quat_twist_angle_signed", BuiltinKind::Regular,
         "Quaternion Math", "quat_twist_angle_signed(axis: vec3, q: quat) -> Float",
         "The signed angle 2 atan2(dot(axis, v), w) of q's twist about the unit axis, in [-2 pi, "
         "2 pi] (q and -q, the same rotation, may differ by 2 pi).",
         true, rule_q_twist_angle, with().host()},
    };
}

/// Spatial vectors (float vectors of 6: angular part, then linear) and matrices.
std::vector<Builtin> spatial() {
    return {
        {"spatial_top", "spatial_top", BuiltinKind::Regular, "Spatial Math",
         "spatial_top(svec: spatial_vector) -> vec3",
         "The angular part: the first three components of the spatial vector svec, as a 3-vector.",
         true, rule_spatial_part, with().host()},
        {"spatial_bottom", "spatial_bottom", BuiltinKind::Regular, "Spatial Math",
         "spatial_bottom(svec: spatial_vector) -> vec3",
         "The linear part: the last three components of the spatial vector svec, as a 3-vector.",
         true, rule_spatial_part, with().host()},
        {"spatial_dot", "spatial_dot", BuiltinKind::Regular, "Spatial Math",
         "spatial_dot(a: spatial_vector, b: spatial_vector) -> Float",
         "The dot product of two spatial vectors: the sum of the products of their six components.",
         true, rule_spatial_dot, with().host()},
        {"spatial_cross", "spatial_cross", BuiltinKind::Regular, "Spatial Math",
         "spatial_cross(a: spatial_vector, b: spatial_vector) -> spatial_vector",
         "The motion cross product of two spatial vectors (twists) a = (w_a, v_a) and b: (w_a x "
         "w_b, v_a x w_b + w_a x v_b).",
         true, rule_spatial_cross, with().host()},
        {"spatial_cross_dual", "spatial_cross_dual", BuiltinKind::Regular, "Spatial Math",
         "spatial_cross_dual(a: spatial_vector, b: spatial_vector) -> spatial_vector",
         "The force cross product of a twist a = (w, v) and a wrench b = (n, f): (w x n + v x f, w "
         "x f).",
         true, rule_spatial_cross, with().host()},
        {"spatial_adjoint", "spatial_adjoint", BuiltinKind::Regular, "Spatial Math",
         "spatial_adjoint(r: mat33, s: mat33) -> spatial_matrix",
         "The 6x6 spatial matrix with blocks [[r, 0], [s, r]] built from the 3x3 matrices r and s.",
         true, rule_spatial_adjoint},
        {"transform_twist", "transform_twist", BuiltinKind::Regular, "Spatial Math",
         "transform_twist(t: transform, x: spatial_vector) -> spatial_vector",
         "The twist x = (w, v) expressed in the frame moved by transform t = (p, R): (R w, R v + p "
         "x R w).",
         true, rule_transform_spatial, with().host()},
        {"transform_wrench", "transform_wrench", BuiltinKind::Regular, "Spatial Math",
         "transform_wrench(t: transform, x: spatial_vector) -> spatial_vector",
         "The wrench x = (tau, f) expressed in the frame moved by transform t = (p, R): (R tau + p "
         "x R f, R f).",
         true, rule_transform_spatial, with().host()},
        {"velocity_at_point", "velocity_at_point", BuiltinKind::Regular, "Spatial Math",
         "velocity_at_point(qd: spatial_vector, r: vec3) -> vec3",
         "The linear velocity v + w x r of the point at offset r from the origin of a frame "
         "moving with the twist qd = (w, v).",
         true, rule_velocity_at_point, with().host()},
        {"spatial_jacobian", "spatial_jacobian", BuiltinKind::Regular, "Spatial Math",
         "spatial_jacobian(S: array(spatial_vector), joint_parents: array(int32), joint_qd_start: "
         "array(int32), joint_start: int32, joint_count: int32, J_start: int32, J_out: "
         "array(float)) -> None",
         "Writes the spatial Jacobian of the kinematic chain of joint_count joints from "
         "joint_start into the flat array J_out at offset J_start: a row block of six rows per "
         "joint and a column per degree of freedom, from the joint motion subspaces S, the parents "
         "and the dof offsets. Returns nothing.",
         true, rule_spatial_jacobian, with().writes_last_array()},
        {"spatial_mass", "spatial_mass", BuiltinKind::Regular, "Spatial Math",
         "spatial_mass(I_s: array(spatial_matrix), joint_start: int32, joint_count: int32, "
         "M_start: int32, M: array(float)) -> None",
         "Writes the 6x6 spatial inertias I_s of joint_count joints from joint_start as the "
         "diagonal blocks of the chain's mass matrix, stored flat in M at offset M_start. Returns "
         "nothing.",
         true, rule_spatial_mass, with().writes_last_array()},
    };
}

/// Transforms (translation p, rotation q), and the identity rotation.
std::vector<Builtin> transforms() {
    return {
        {"transform_point", "transform_point", BuiltinKind::Regular, "Transformations",
         "transform_point(t: transform | mat44, p: vec3) -> vec3",
         "The point p mapped by transform t: rotated by t's rotation, then translated by its "
         "translation; with a 4x4 matrix t, the first three components of t (p, 1).",
         true, rule_t_point, with().host()},
        {"transform_vector", "transform_vector", BuiltinKind::Regular, "Transformations",
         "transform_vector(t: transform | mat44, v: vec3) -> vec3",
         "The vector v mapped by transform t: rotated by t's rotation only (no translation); with "
         "a 4x4 matrix t, the first three components of t (v, 0).",
         true, rule_t_point, with().host()},
        {"transform_multiply", "transform_multiply", BuiltinKind::Regular, "Transformations",
         "transform_multiply(a: transform, b: transform) -> transform",
         "The composition a * b of two transforms: applying it maps a point by b, then by a.", true,
         rule_t_t, with().host()},
        {"transform_inverse", "transform_inverse", BuiltinKind::Regular, "Transformations",
         "transform_inverse(t: transform) -> transform",
         "The inverse of transform t = (p, q): (-(q^-1 p), q^-1), so that t * inverse(t) is the "
         "identity.",
         true, rule_t_to_t, with().host()},
        {"transform_get_translation", "transform_get_translation", BuiltinKind::Regular,
         "Transformations", "transform_get_translation(t: transform) -> vec3",
         "The translation p of transform t, a 3-vector (also t.p).", true, rule_t_translation,
         with().host()},
        {"transform_get_rotation", "transform_get_rotation", BuiltinKind::Regular,
         "Transformations", "transform_get_rotation(t: transform) -> quat",
         "The rotation q of transform t, a unit quaternion (also t.q).", true, rule_t_rotation,
         with().host()},
        {"transform_set_translation", "transform_set_translation", BuiltinKind::Regular,
         "Transformations", "transform_set_translation(xform: transform, p: vec3) -> None",
         "Sets the translation of the transform xform to p, in place: xform is a local variable, "
         "a struct field or an array element, as for xform.p = p.",
         true, rule_t_set_translation, with().host().rebinds(Rebinds::First)},
        {"transform_set_rotation", "transform_set_rotation", BuiltinKind::Regular,
         "Transformations", "transform_set_rotation(xform: transform, q: quat) -> None",
         "Sets the rotation of the transform xform to q, in place, as for xform.q = q.", true,
         rule_t_set_rotation, with().host().rebinds(Rebinds::First)},
        {"transform_to_matrix", "transform_to_matrix", BuiltinKind::Regular, "Transformations",
         "transform_to_matrix(t: transform) -> mat44",
         "The 4x4 homogeneous matrix [[R, p], [0, 0, 0, 1]] of transform t = (p, q), R the "
         "rotation matrix of q.",
         true, rule_t_to_matrix},
        {"transform_from_matrix", "transform_from_matrix", BuiltinKind::Regular, "Transformations",
         "transform_from_matrix(m: mat44) -> transform",
         "The transform of a 4x4 homogeneous matrix without scale: translation m[0:3, 3], "
         "rotation from the upper-left 3x3 block.",
         true, rule_t_from_matrix},
        {"transform_compose", "transform_compose", BuiltinKind::Regular, "Transformations",
         "transform_compose(position: vec3, rotation: quat, scale: vec3) -> mat44",
         "The 4x4 matrix [[R diag(scale), position], [0, 0, 0, 1]], R the rotation matrix of "
         "rotation.",
         true, rule_t_compose},
        {"transform_decompose", "transform_decompose", BuiltinKind::Multi, "Transformations",
         "transform_decompose(m: mat44) -> tuple(vec3, quat, vec3)",
         "The (position, rotation, scale) that transform_compose makes m from: the scale is the "
         "length of each column of the upper-left 3x3 block, the rotation that of the block with "
         "its columns normalized.",
         true, rule_t_decompose, with().results(3).rebinds(Rebinds::Outputs)},
        {"quat_identity", "quat_identity", BuiltinKind::Identity, "Quaternion Math",
         "quat_identity(dtype: Float = float32) -> quat",
         "The identity rotation: the quaternion (0, 0, 0, 1) of float type dtype (float32 when not "
         "given).",
         false, nullptr, with().host().template_args(TemplateArgs::Scalar)},
        {"transform_identity", "transform_identity", BuiltinKind::Identity, "Transformations",
         "transform_identity(dtype: Float = float32) -> transform",
         "The identity transform: zero translation and the identity rotation, of float type dtype "
         "(float32 when not given).",
         false, nullptr, with().host().template_args(TemplateArgs::Scalar)},
    };
}

}  // namespace treadle::builtins::entries
