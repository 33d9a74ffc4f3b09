// native/treadle/quat.h -- quat_t<T>: quaternions (x, y, z, w), their builtins and adjoints
//
// quat_t is an aggregate storing (x, y, z, w) with w the real part:
// `wp::quat_t<wp::float32>{{x, y, z, w}}`. Float types only (float16 computes through the
// scalar builtins, i.e. in float32 and rounded back). Rotation builtins (quat_rotate,
// quat_to_matrix, ...) assume a unit quaternion, as in Warp; they are not renormalized.
// Adjoints follow vec.h: adj_f(inputs..., adj_inputs&..., adj_ret) adds (+=); int32 index
// arguments get no gradient. transform_t lives in transform.h, included at the end.
#pragma once

#include "mat.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// quat_t<T>: c = (x, y, z, w), w the real part. An aggregate; operator[] is unchecked.
template <typename T>
struct quat_t {
    static_assert(is_float_v<T>, "quat_t needs a float scalar type");
    T c[4];

    CUDA_CALLABLE T& operator[](int i) { return c[i]; }
    CUDA_CALLABLE const T& operator[](int i) const { return c[i]; }
};

/// Short names for the common quaternion types.
using quat = quat_t<float32>;
using quatf = quat;
using quatd = quat_t<float64>;
using quath = quat_t<float16>;

// Internal helpers: the vector part of q, and a quaternion from a vector part and w.
template <typename T>
CUDA_CALLABLE vec_t<3, T> quat_vec(const quat_t<T>& q) {
    return vec_t<3, T>{{q.c[0], q.c[1], q.c[2]}};
}
template <typename T>
CUDA_CALLABLE quat_t<T> quat_of(const vec_t<3, T>& v, T w) {
    return quat_t<T>{{v.c[0], v.c[1], v.c[2], w}};
}

// ---- construction and component access ------------------------------------------------------

/// quat_identity<T>(): (0, 0, 0, 1).
template <typename T>
CUDA_CALLABLE quat_t<T> quat_identity() {
    return quat_t<T>{{T(0), T(0), T(0), T(1)}};
}

/// extract(q, i): component i (0..3 = x, y, z, w), or zero when i is outside [0, 4).
template <typename T>
CUDA_CALLABLE T extract(const quat_t<T>& q, int32 i) {
    return (i >= 0 && i < 4) ? q.c[i] : T(0);
}

/// with_component(q, i, s): q with component i replaced by s (q unchanged when out of range).
template <typename T>
CUDA_CALLABLE quat_t<T> with_component(quat_t<T> q, int32 i, type_identity_t<T> s) {
    if (i >= 0 && i < 4) q.c[i] = s;
    return q;
}

/// quat_from_axis_angle(axis, angle): (axis sin(angle/2), cos(angle/2)); axis is used as given
/// (pass a unit axis for a unit quaternion).
template <typename T>
CUDA_CALLABLE quat_t<T> quat_from_axis_angle(vec_t<3, T> axis, T angle) {
    const T h = angle * T(0.5);
    return quat_of(mul(axis, sin(h)), cos(h));
}

/// quat_to_axis_angle(q, axis, angle): the unit axis and the angle in [0, pi] of the rotation
/// q (sign chosen so the angle is the shortest one); the identity gives axis 0 and angle 0.
template <typename T>
CUDA_CALLABLE void quat_to_axis_angle(const quat_t<T>& q, vec_t<3, T>& axis, T& angle) {
    const vec_t<3, T> v = quat_vec(q);
    axis = q.c[3] < T(0) ? neg(normalize(v)) : normalize(v);
    angle = T(2) * atan2(length(v), abs(q.c[3]));
}

/// quat_rpy(roll, pitch, yaw): rotation about z by yaw, then y by pitch, then x by roll
/// applied first: qz(yaw) qy(pitch) qx(roll).
template <typename T>
CUDA_CALLABLE quat_t<T> quat_rpy(T roll, T pitch, T yaw) {
    const T cr = cos(roll * T(0.5)), sr = sin(roll * T(0.5));
    const T cp = cos(pitch * T(0.5)), sp = sin(pitch * T(0.5));
    const T cy = cos(yaw * T(0.5)), sy = sin(yaw * T(0.5));
    return quat_t<T>{{sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy,
                      cr * cp * sy - sr * sp * cy, cr * cp * cy + sr * sp * sy}};
}

// ---- arithmetic -----------------------------------------------------------------------------

/// add/sub(a, b): componentwise; neg(q) / pos(q): -q / q.
template <typename T>
CUDA_CALLABLE quat_t<T> add(quat_t<T> a, quat_t<T> b) {
    for (int i = 0; i < 4; ++i) a.c[i] = a.c[i] + b.c[i];
    return a;
}
template <typename T>
CUDA_CALLABLE quat_t<T> sub(quat_t<T> a, quat_t<T> b) {
    for (int i = 0; i < 4; ++i) a.c[i] = a.c[i] - b.c[i];
    return a;
}
template <typename T>
CUDA_CALLABLE quat_t<T> neg(quat_t<T> a) {
    for (int i = 0; i < 4; ++i) a.c[i] = -a.c[i];
    return a;
}
template <typename T>
CUDA_CALLABLE quat_t<T> pos(quat_t<T> a) {
    return a;
}

/// mul(q, s) / mul(s, q): every component times s.
template <typename T>
CUDA_CALLABLE quat_t<T> mul(quat_t<T> q, type_identity_t<T> s) {
    for (int i = 0; i < 4; ++i) q.c[i] = q.c[i] * s;
    return q;
}
template <typename T>
CUDA_CALLABLE quat_t<T> mul(type_identity_t<T> s, quat_t<T> q) {
    return mul(q, s);
}
/// div(q, s): every component divided by s; div(s, q): s divided by every component.
template <typename T>
CUDA_CALLABLE quat_t<T> div(quat_t<T> q, type_identity_t<T> s) {
    for (int i = 0; i < 4; ++i) q.c[i] = q.c[i] / s;
    return q;
}
template <typename T>
CUDA_CALLABLE quat_t<T> div(type_identity_t<T> s, quat_t<T> q) {
    for (int i = 0; i < 4; ++i) q.c[i] = s / q.c[i];
    return q;
}

/// mul(a, b): the Hamilton product a b (rotation b first, then a).
template <typename T>
CUDA_CALLABLE quat_t<T> mul(quat_t<T> a, quat_t<T> b) {
    const T ax = a.c[0], ay = a.c[1], az = a.c[2], aw = a.c[3];
    const T bx = b.c[0], by = b.c[1], bz = b.c[2], bw = b.c[3];
    return quat_t<T>{{aw * bx + bw * ax + ay * bz - az * by, aw * by + bw * ay + az * bx - ax * bz,
                      aw * bz + bw * az + ax * by - ay * bx,
                      aw * bw - ax * bx - ay * by - az * bz}};
}

/// a == b: every component equal; a != b: !(a == b).
template <typename T>
CUDA_CALLABLE bool operator==(const quat_t<T>& a, const quat_t<T>& b) {
    for (int i = 0; i < 4; ++i) {
        if (!(a.c[i] == b.c[i])) return false;
    }
    return true;
}
template <typename T>
CUDA_CALLABLE bool operator!=(const quat_t<T>& a, const quat_t<T>& b) {
    return !(a == b);
}

// ---- quaternion math ------------------------------------------------------------------------

/// dot(a, b): sum of a[i] b[i]; length(q) = sqrt(dot(q, q)).
template <typename T>
CUDA_CALLABLE T dot(quat_t<T> a, quat_t<T> b) {
    return a.c[0] * b.c[0] + a.c[1] * b.c[1] + a.c[2] * b.c[2] + a.c[3] * b.c[3];
}
template <typename T>
CUDA_CALLABLE T length(quat_t<T> q) {
    return sqrt(dot(q, q));
}
/// length_sq(q): dot(q, q).
template <typename T>
CUDA_CALLABLE T length_sq(quat_t<T> q) {
    return dot(q, q);
}

/// isnan/isinf: some component is NaN / infinite; isfinite: every component is finite.
template <typename T>
CUDA_CALLABLE bool isnan(const quat_t<T>& q) {
    return isnan(q.c[0]) || isnan(q.c[1]) || isnan(q.c[2]) || isnan(q.c[3]);
}
template <typename T>
CUDA_CALLABLE bool isinf(const quat_t<T>& q) {
    return isinf(q.c[0]) || isinf(q.c[1]) || isinf(q.c[2]) || isinf(q.c[3]);
}
template <typename T>
CUDA_CALLABLE bool isfinite(const quat_t<T>& q) {
    return isfinite(q.c[0]) && isfinite(q.c[1]) && isfinite(q.c[2]) && isfinite(q.c[3]);
}

/// normalize(q): q / length(q); the zero quaternion gives the identity (as in Warp).
template <typename T>
CUDA_CALLABLE quat_t<T> normalize(quat_t<T> q) {
    const T l = length(q);
    if (l > T(0)) return mul(q, T(1) / l);
    return quat_identity<T>();
}

/// quat_inverse(q): the conjugate (-x, -y, -z, w), as Warp defines it: the inverse of a unit
/// quaternion (for another nonzero q the inverse is quat_inverse(q) / length_sq(q)).
template <typename T>
CUDA_CALLABLE quat_t<T> quat_inverse(quat_t<T> q) {
    return quat_t<T>{{-q.c[0], -q.c[1], -q.c[2], q.c[3]}};
}

/// quat_rotate(q, x): x rotated by the unit quaternion q (q x q^-1);
/// quat_rotate_inv(q, x): rotated by q^-1. Computed as
/// x (2w^2 - 1) +- 2w cross(v, x) + 2v dot(v, x) with v the vector part.
template <typename T>
CUDA_CALLABLE vec_t<3, T> quat_rotate(quat_t<T> q, vec_t<3, T> x) {
    const vec_t<3, T> v = quat_vec(q);
    const T w = q.c[3];
    const vec_t<3, T> r = add(mul(x, T(2) * w * w - T(1)), mul(cross(v, x), T(2) * w));
    return add(r, mul(v, T(2) * dot(v, x)));
}
template <typename T>
CUDA_CALLABLE vec_t<3, T> quat_rotate_inv(quat_t<T> q, vec_t<3, T> x) {
    const vec_t<3, T> v = quat_vec(q);
    const T w = q.c[3];
    const vec_t<3, T> r = sub(mul(x, T(2) * w * w - T(1)), mul(cross(v, x), T(2) * w));
    return add(r, mul(v, T(2) * dot(v, x)));
}

/// quat_to_matrix(q): the 3 x 3 rotation matrix of the unit quaternion q (column j is
/// quat_rotate(q, e_j)), so mul(quat_to_matrix(q), v) == quat_rotate(q, v).
template <typename T>
CUDA_CALLABLE mat_t<3, 3, T> quat_to_matrix(quat_t<T> q) {
    mat_t<3, 3, T> m{};
    for (int j = 0; j < 3; ++j) {
        vec_t<3, T> e = vec_fill<3, T>(T(0));
        e.c[j] = T(1);
        const vec_t<3, T> col = quat_rotate(q, e);
        for (int i = 0; i < 3; ++i) m.m[i][j] = col.c[i];
    }
    return m;
}

/// quat_from_matrix(m): the unit quaternion of the rotation matrix m (Shepperd's method: the
/// largest of w, x, y, z is computed from the diagonal first, for accuracy). The sign of the
/// result is either; quat_to_matrix(quat_from_matrix(m)) == m for a rotation m.
template <typename T>
CUDA_CALLABLE quat_t<T> quat_from_matrix(mat_t<3, 3, T> m) {
    const T m00 = m.m[0][0], m11 = m.m[1][1], m22 = m.m[2][2];
    const T tr = m00 + m11 + m22;
    quat_t<T> q;
    if (tr > T(0)) {
        const T s = sqrt(tr + T(1)) * T(2);
        q = quat_t<T>{{(m.m[2][1] - m.m[1][2]) / s, (m.m[0][2] - m.m[2][0]) / s,
                       (m.m[1][0] - m.m[0][1]) / s, s * T(0.25)}};
    } else if (m00 > m11 && m00 > m22) {
        const T s = sqrt(T(1) + m00 - m11 - m22) * T(2);
        q = quat_t<T>{{s * T(0.25), (m.m[0][1] + m.m[1][0]) / s, (m.m[0][2] + m.m[2][0]) / s,
                       (m.m[2][1] - m.m[1][2]) / s}};
    } else if (m11 > m22) {
        const T s = sqrt(T(1) + m11 - m00 - m22) * T(2);
        q = quat_t<T>{{(m.m[0][1] + m.m[1][0]) / s, s * T(0.25), (m.m[1][2] + m.m[2][1]) / s,
                       (m.m[0][2] - m.m[2][0]) / s}};
    } else {
        const T s = sqrt(T(1) + m22 - m00 - m11) * T(2);
        q = quat_t<T>{{(m.m[0][2] + m.m[2][0]) / s, (m.m[1][2] + m.m[2][1]) / s, s * T(0.25),
                       (m.m[1][0] - m.m[0][1]) / s}};
    }
    return normalize(q);
}

/// quat_slerp(a, b, t): a (a^-1 b)^t, the relative rotation a^-1 b scaled to t times its
/// angle through its axis-angle form (so along the shorter arc: quat_to_axis_angle picks the
/// angle in [0, pi]); t = 0 gives a, t = 1 gives b or -b (the same rotation).
template <typename T>
CUDA_CALLABLE quat_t<T> quat_slerp(quat_t<T> a, quat_t<T> b, T t) {
    vec_t<3, T> axis;
    T angle;
    quat_to_axis_angle(mul(quat_inverse(a), b), axis, angle);
    return mul(a, quat_from_axis_angle(axis, t * angle));
}

// ---- adjoints -------------------------------------------------------------------------------

/// adj_quat_components(adj_ret, adj_x, adj_y, adj_z, adj_w): adjoint of the aggregate
/// construction quat_t<T>{{x, y, z, w}} (adj_ret first, as adj_vec_components).
template <typename T>
CUDA_CALLABLE void adj_quat_components(const quat_t<T>& adj_ret, T& adj_x, T& adj_y, T& adj_z,
                                       T& adj_w) {
    adj_x += adj_ret.c[0];
    adj_y += adj_ret.c[1];
    adj_z += adj_ret.c[2];
    adj_w += adj_ret.c[3];
}

/// adj_quat_identity(adj_ret): no inputs, no-op.
template <typename T>
CUDA_CALLABLE void adj_quat_identity(const quat_t<T>&) {}

/// adj_extract / adj_with_component: as for vectors (vec.h).
template <typename T>
CUDA_CALLABLE void adj_extract(const quat_t<T>&, int32 i, quat_t<T>& adj_q, int32&, T adj_ret) {
    if (i >= 0 && i < 4) adj_q.c[i] += adj_ret;
}
template <typename T>
CUDA_CALLABLE void adj_with_component(const quat_t<T>&, int32 i, T, quat_t<T>& adj_q, int32&,
                                      T& adj_s, const quat_t<T>& adj_ret) {
    for (int k = 0; k < 4; ++k) {
        if (k == i) {
            adj_s += adj_ret.c[k];
        } else {
            adj_q.c[k] += adj_ret.c[k];
        }
    }
}

/// adj_quat_from_axis_angle: adj_axis += sin(h) adj_v; adj_angle += (cos(h) dot(axis, adj_v) -
/// sin(h) adj_w) / 2, with h = angle / 2.
template <typename T>
CUDA_CALLABLE void adj_quat_from_axis_angle(const vec_t<3, T>& axis, T angle, vec_t<3, T>& adj_axis,
                                            T& adj_angle, const quat_t<T>& adj_ret) {
    const T h = angle * T(0.5);
    const T s = sin(h), c = cos(h);
    const vec_t<3, T> gv = quat_vec(adj_ret);
    adj_axis = add(adj_axis, mul(gv, s));
    adj_angle += (c * dot(axis, gv) - s * adj_ret.c[3]) * T(0.5);
}

/// adj_quat_to_axis_angle(q, axis, angle, adj_q, adj_axis, adj_angle): the adjoint of the two
/// results. With v the vector part, s = sign(w) (+1 at 0) and l = |v|: axis = s v / l and
/// angle = 2 atan2(l, |w|), so adj_v += s adj_normalize(v, adj_axis) + 2 adj_angle |w| v /
/// (l (l^2 + w^2)) and adj_w -= 2 adj_angle s l / (l^2 + w^2). No gradient where v = 0.
template <typename T>
CUDA_CALLABLE void adj_quat_to_axis_angle(const quat_t<T>& q, const vec_t<3, T>&, T,
                                          quat_t<T>& adj_q, const vec_t<3, T>& adj_axis,
                                          T adj_angle) {
    const vec_t<3, T> v = quat_vec(q);
    const T w = q.c[3], s = w < T(0) ? T(-1) : T(1);
    const T l = length(v);
    if (!(l > T(0))) return;
    vec_t<3, T> gv = vec_fill<3, T>(T(0));
    adj_normalize(v, gv, mul(adj_axis, s));
    const T r2 = l * l + w * w;
    const T ga = T(2) * adj_angle / r2;
    for (int i = 0; i < 3; ++i) adj_q.c[i] += gv.c[i] + ga * abs(w) * v.c[i] / l;
    adj_q.c[3] -= ga * s * l;
}

/// adj_add/adj_sub/adj_neg/adj_pos: the linear rules, componentwise.
template <typename T>
CUDA_CALLABLE void adj_add(const quat_t<T>&, const quat_t<T>&, quat_t<T>& adj_a, quat_t<T>& adj_b,
                           const quat_t<T>& adj_ret) {
    for (int i = 0; i < 4; ++i) {
        adj_a.c[i] += adj_ret.c[i];
        adj_b.c[i] += adj_ret.c[i];
    }
}
template <typename T>
CUDA_CALLABLE void adj_sub(const quat_t<T>&, const quat_t<T>&, quat_t<T>& adj_a, quat_t<T>& adj_b,
                           const quat_t<T>& adj_ret) {
    for (int i = 0; i < 4; ++i) {
        adj_a.c[i] += adj_ret.c[i];
        adj_b.c[i] -= adj_ret.c[i];
    }
}
template <typename T>
CUDA_CALLABLE void adj_neg(const quat_t<T>&, quat_t<T>& adj_q, const quat_t<T>& adj_ret) {
    for (int i = 0; i < 4; ++i) adj_q.c[i] -= adj_ret.c[i];
}
template <typename T>
CUDA_CALLABLE void adj_pos(const quat_t<T>&, quat_t<T>& adj_q, const quat_t<T>& adj_ret) {
    for (int i = 0; i < 4; ++i) adj_q.c[i] += adj_ret.c[i];
}

/// adj_mul(q, s) / adj_mul(s, q): adj_q += s adj_ret, adj_s += dot(q, adj_ret).
template <typename T>
CUDA_CALLABLE void adj_mul(const quat_t<T>& q, T s, quat_t<T>& adj_q, T& adj_s,
                           const quat_t<T>& adj_ret) {
    for (int i = 0; i < 4; ++i) adj_q.c[i] += s * adj_ret.c[i];
    adj_s += dot(q, adj_ret);
}
template <typename T>
CUDA_CALLABLE void adj_mul(T s, const quat_t<T>& q, T& adj_s, quat_t<T>& adj_q,
                           const quat_t<T>& adj_ret) {
    adj_mul(q, s, adj_q, adj_s, adj_ret);
}
/// adj_div(q, s): adj_q += adj_ret / s, adj_s -= dot(q, adj_ret) / s^2. adj_div(s, q): adj_s
/// += sum adj_ret[i] / q[i], adj_q[i] -= s / q[i]^2 adj_ret[i].
template <typename T>
CUDA_CALLABLE void adj_div(const quat_t<T>& q, T s, quat_t<T>& adj_q, T& adj_s,
                           const quat_t<T>& adj_ret) {
    for (int i = 0; i < 4; ++i) adj_q.c[i] += adj_ret.c[i] / s;
    adj_s -= dot(q, adj_ret) / (s * s);
}
template <typename T>
CUDA_CALLABLE void adj_div(T s, const quat_t<T>& q, T& adj_s, quat_t<T>& adj_q,
                           const quat_t<T>& adj_ret) {
    for (int i = 0; i < 4; ++i) {
        adj_s += adj_ret.c[i] / q.c[i];
        adj_q.c[i] -= s / q.c[i] / q.c[i] * adj_ret.c[i];
    }
}

/// adj_mul(a, b) (Hamilton product): adj_a += adj_ret conj(b), adj_b += conj(a) adj_ret.
template <typename T>
CUDA_CALLABLE void adj_mul(const quat_t<T>& a, const quat_t<T>& b, quat_t<T>& adj_a,
                           quat_t<T>& adj_b, const quat_t<T>& adj_ret) {
    const quat_t<T> ca{{-a.c[0], -a.c[1], -a.c[2], a.c[3]}};
    const quat_t<T> cb{{-b.c[0], -b.c[1], -b.c[2], b.c[3]}};
    adj_a = add(adj_a, mul(adj_ret, cb));
    adj_b = add(adj_b, mul(ca, adj_ret));
}

/// adj_dot: adj_a += b adj_ret, adj_b += a adj_ret. adj_length: adj_q += q / |q| adj_ret (no
/// gradient at zero).
template <typename T>
CUDA_CALLABLE void adj_dot(const quat_t<T>& a, const quat_t<T>& b, quat_t<T>& adj_a,
                           quat_t<T>& adj_b, T adj_ret) {
    for (int i = 0; i < 4; ++i) {
        adj_a.c[i] += b.c[i] * adj_ret;
        adj_b.c[i] += a.c[i] * adj_ret;
    }
}
/// adj_length_sq: adj_q += 2 q adj_ret.
template <typename T>
CUDA_CALLABLE void adj_length_sq(const quat_t<T>& q, quat_t<T>& adj_q, T adj_ret) {
    for (int i = 0; i < 4; ++i) adj_q.c[i] += T(2) * q.c[i] * adj_ret;
}
template <typename T>
CUDA_CALLABLE void adj_length(const quat_t<T>& q, quat_t<T>& adj_q, T adj_ret) {
    const T l = length(q);
    if (l > T(0)) {
        for (int i = 0; i < 4; ++i) adj_q.c[i] += q.c[i] / l * adj_ret;
    }
}

/// adj_normalize: with n = q / |q|, adj_q += (adj_ret - n dot(n, adj_ret)) / |q|; no gradient
/// at the zero quaternion.
template <typename T>
CUDA_CALLABLE void adj_normalize(const quat_t<T>& q, quat_t<T>& adj_q, const quat_t<T>& adj_ret) {
    const T l = length(q);
    if (l > T(0)) {
        const quat_t<T> n = mul(q, T(1) / l);
        const T d = dot(n, adj_ret);
        for (int i = 0; i < 4; ++i) adj_q.c[i] += (adj_ret.c[i] - n.c[i] * d) / l;
    }
}

/// adj_quat_inverse: the conjugate is linear: adj_q += (-adj_x, -adj_y, -adj_z, adj_w).
template <typename T>
CUDA_CALLABLE void adj_quat_inverse(const quat_t<T>&, quat_t<T>& adj_q, const quat_t<T>& adj_ret) {
    adj_q = add(adj_q, quat_t<T>{{-adj_ret.c[0], -adj_ret.c[1], -adj_ret.c[2], adj_ret.c[3]}});
}

/// adj_quat_rpy: through the product qz(yaw) qy(pitch) qx(roll).
template <typename T>
CUDA_CALLABLE void adj_quat_rpy(T roll, T pitch, T yaw, T& adj_roll, T& adj_pitch, T& adj_yaw,
                                const quat_t<T>& adj_ret) {
    const vec_t<3, T> ex{{T(1), T(0), T(0)}}, ey{{T(0), T(1), T(0)}}, ez{{T(0), T(0), T(1)}};
    const quat_t<T> qx = quat_from_axis_angle(ex, roll), qy = quat_from_axis_angle(ey, pitch);
    const quat_t<T> qz = quat_from_axis_angle(ez, yaw), qzy = mul(qz, qy);
    quat_t<T> g_zy{}, g_z{}, g_y{}, g_x{};
    vec_t<3, T> g_axis{};
    adj_mul(qzy, qx, g_zy, g_x, adj_ret);
    adj_mul(qz, qy, g_z, g_y, g_zy);
    adj_quat_from_axis_angle(ex, roll, g_axis, adj_roll, g_x);
    adj_quat_from_axis_angle(ey, pitch, g_axis, adj_pitch, g_y);
    adj_quat_from_axis_angle(ez, yaw, g_axis, adj_yaw, g_z);
}

// adj of quat_rotate (sign = +1) and quat_rotate_inv (sign = -1); g = adj_ret:
// adj_x += (2w^2 - 1) g + sign 2w cross(g, v) + 2 v dot(v, g)
// adj_v += sign 2w cross(x, g) + 2 (x dot(v, g) + g dot(v, x))
// adj_w += 4w dot(x, g) + sign 2 dot(cross(v, x), g)
template <typename T>
CUDA_CALLABLE void adj_quat_rotate_signed(const quat_t<T>& q, const vec_t<3, T>& x, T sign,
                                          quat_t<T>& adj_q, vec_t<3, T>& adj_x,
                                          const vec_t<3, T>& g) {
    const vec_t<3, T> v = quat_vec(q);
    const T w = q.c[3], vg = dot(v, g), vx = dot(v, x), sw2 = sign * T(2) * w;
    adj_x = add(adj_x, mul(g, T(2) * w * w - T(1)));
    adj_x = add(adj_x, add(mul(cross(g, v), sw2), mul(v, T(2) * vg)));
    const vec_t<3, T> av = add(mul(cross(x, g), sw2), mul(add(mul(x, vg), mul(g, vx)), T(2)));
    for (int i = 0; i < 3; ++i) adj_q.c[i] += av.c[i];
    adj_q.c[3] += T(4) * w * dot(x, g) + sign * T(2) * dot(cross(v, x), g);
}

/// adj_quat_rotate / adj_quat_rotate_inv(q, x, adj_q, adj_x, adj_ret): exact adjoints of the
/// formulas above (valid for any q, unit or not).
template <typename T>
CUDA_CALLABLE void adj_quat_rotate(const quat_t<T>& q, const vec_t<3, T>& x, quat_t<T>& adj_q,
                                   vec_t<3, T>& adj_x, const vec_t<3, T>& adj_ret) {
    adj_quat_rotate_signed(q, x, T(1), adj_q, adj_x, adj_ret);
}
template <typename T>
CUDA_CALLABLE void adj_quat_rotate_inv(const quat_t<T>& q, const vec_t<3, T>& x, quat_t<T>& adj_q,
                                       vec_t<3, T>& adj_x, const vec_t<3, T>& adj_ret) {
    adj_quat_rotate_signed(q, x, T(-1), adj_q, adj_x, adj_ret);
}

/// adj_quat_slerp(a, b, t, adj_a, adj_b, adj_t, adj_ret): the chain of the adjoints of the
/// steps of quat_slerp.
template <typename T>
CUDA_CALLABLE void adj_quat_slerp(quat_t<T> a, quat_t<T> b, T t, quat_t<T>& adj_a, quat_t<T>& adj_b,
                                  T& adj_t, const quat_t<T>& adj_ret) {
    const quat_t<T> a_inv = quat_inverse(a), rel = mul(a_inv, b);
    vec_t<3, T> axis;
    T angle;
    quat_to_axis_angle(rel, axis, angle);
    const quat_t<T> step = quat_from_axis_angle(axis, t * angle);
    quat_t<T> g_step{}, g_rel{}, g_inv{};
    vec_t<3, T> g_axis{};
    T g_scaled = T(0);
    adj_mul(a, step, adj_a, g_step, adj_ret);
    adj_quat_from_axis_angle(axis, t * angle, g_axis, g_scaled, g_step);
    adj_t += g_scaled * angle;
    adj_quat_to_axis_angle(rel, axis, angle, g_rel, g_axis, g_scaled * t);
    adj_mul(a_inv, b, g_inv, adj_b, g_rel);
    adj_quat_inverse(a, adj_a, g_inv);
}

/// adj_quat_from_matrix: through the branch quat_from_matrix took and the final normalize.
/// Component k of the raw quaternion is either s / 4 or (m[a][b] + sign * m[c][d]) / s, with
/// s = 2 sqrt(base + sum_i coef[i] * m[i][i]); the table below lists each branch.
template <typename T>
CUDA_CALLABLE void adj_quat_from_matrix(mat_t<3, 3, T> m, mat_t<3, 3, T>& adj_m,
                                        const quat_t<T>& adj_ret) {
    struct Part {
        int a, b, c, d, sign;  // a < 0: the component is s / 4
    };
    static constexpr Part k_parts[4][4] = {
        {{2, 1, 1, 2, -1}, {0, 2, 2, 0, -1}, {1, 0, 0, 1, -1}, {-1, 0, 0, 0, 0}},
        {{-1, 0, 0, 0, 0}, {0, 1, 1, 0, 1}, {0, 2, 2, 0, 1}, {2, 1, 1, 2, -1}},
        {{0, 1, 1, 0, 1}, {-1, 0, 0, 0, 0}, {1, 2, 2, 1, 1}, {0, 2, 2, 0, -1}},
        {{0, 2, 2, 0, 1}, {1, 2, 2, 1, 1}, {-1, 0, 0, 0, 0}, {1, 0, 0, 1, -1}},
    };
    static constexpr int k_coef[4][3] = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
    const T m00 = m.m[0][0], m11 = m.m[1][1], m22 = m.m[2][2];
    const int br = (m00 + m11 + m22 > T(0))   ? 0
                   : (m00 > m11 && m00 > m22) ? 1
                   : (m11 > m22)              ? 2
                                              : 3;
    T arg = T(1);
    for (int i = 0; i < 3; ++i) arg += T(k_coef[br][i]) * m.m[i][i];
    const T s = sqrt(arg) * T(2);
    quat_t<T> raw;
    for (int k = 0; k < 4; ++k) {
        const Part& p = k_parts[br][k];
        raw.c[k] = p.a < 0 ? s * T(0.25) : (m.m[p.a][p.b] + T(p.sign) * m.m[p.c][p.d]) / s;
    }
    // q = raw / |raw|: adj_raw = (adj_q - q dot(q, adj_q)) / |raw|
    const T len = length(raw);
    quat_t<T> q;
    T qa = T(0);
    for (int k = 0; k < 4; ++k) {
        q.c[k] = raw.c[k] / len;
        qa += q.c[k] * adj_ret.c[k];
    }
    T adj_s = T(0);
    for (int k = 0; k < 4; ++k) {
        const T adj_raw = (adj_ret.c[k] - q.c[k] * qa) / len;
        const Part& p = k_parts[br][k];
        if (p.a < 0) {
            adj_s += adj_raw * T(0.25);
            continue;
        }
        adj_m.m[p.a][p.b] += adj_raw / s;
        adj_m.m[p.c][p.d] += T(p.sign) * adj_raw / s;
        adj_s -= adj_raw * raw.c[k] / s;
    }
    // s = 2 sqrt(arg): ds/darg = 2 / s
    for (int i = 0; i < 3; ++i) adj_m.m[i][i] += adj_s * T(2) / s * T(k_coef[br][i]);
}

/// adj_quat_to_matrix: adj_quat_rotate for each column.
template <typename T>
CUDA_CALLABLE void adj_quat_to_matrix(const quat_t<T>& q, quat_t<T>& adj_q,
                                      const mat_t<3, 3, T>& adj_ret) {
    for (int j = 0; j < 3; ++j) {
        vec_t<3, T> e = vec_fill<3, T>(T(0)), adj_e{};
        e.c[j] = T(1);
        const vec_t<3, T> g{{adj_ret.m[0][j], adj_ret.m[1][j], adj_ret.m[2][j]}};
        adj_quat_rotate(q, e, adj_q, adj_e, g);
    }
}

// ---- atomics and print ----------------------------------------------------------------------

/// atomic_add/atomic_sub on quaternions: (ptr, q) and (array, i..., q) with 1-4 indices;
/// per-component atomics returning the old value (as for vectors).
#define WP_QUAT_ATOMIC_FAMILY(name, op)                                                           \
    template <typename T>                                                                         \
    CUDA_CALLABLE quat_t<T> name(quat_t<T>* ptr, quat_t<T> v) {                                   \
        quat_t<T> old{};                                                                          \
        atomic_rmw_n<op>(ptr->c, v.c, old.c, 4);                                                  \
        return old;                                                                               \
    }                                                                                             \
    template <typename T>                                                                         \
    CUDA_CALLABLE quat_t<T> name(const array_t<quat_t<T>>& a, int32 i, quat_t<T> v) {             \
        return name(address(a, i), v);                                                            \
    }                                                                                             \
    template <typename T>                                                                         \
    CUDA_CALLABLE quat_t<T> name(const array_t<quat_t<T>>& a, int32 i, int32 j, quat_t<T> v) {    \
        return name(address(a, i, j), v);                                                         \
    }                                                                                             \
    template <typename T>                                                                         \
    CUDA_CALLABLE quat_t<T> name(const array_t<quat_t<T>>& a, int32 i, int32 j, int32 k,          \
                                 quat_t<T> v) {                                                   \
        return name(address(a, i, j, k), v);                                                      \
    }                                                                                             \
    template <typename T>                                                                         \
    CUDA_CALLABLE quat_t<T> name(const array_t<quat_t<T>>& a, int32 i, int32 j, int32 k, int32 l, \
                                 quat_t<T> v) {                                                   \
        return name(address(a, i, j, k, l), v);                                                   \
    }

WP_QUAT_ATOMIC_FAMILY(atomic_add, atomic_op_add)
WP_QUAT_ATOMIC_FAMILY(atomic_sub, atomic_op_sub)

#undef WP_QUAT_ATOMIC_FAMILY

/// print(q): "x y z w \n" (the vector format of vec.h).
template <typename T>
CUDA_CALLABLE void print(const quat_t<T>& q) {
    print_row(q.c, 4);
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif

#include "transform.h"
