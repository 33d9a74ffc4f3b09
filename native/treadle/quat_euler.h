// native/treadle/quat_euler.h -- Euler angles and swing-twist helpers of quaternions, with adjoints
//
// quat_to_rpy, quat_from_euler / quat_to_euler (any sequence of axes i, j, k in {0, 1, 2} with
// i != j and j != k, rotations about the fixed axes applied in the order i, j, k), quat_twist and
// the twist angles. Angles are indexed by axis (e[0] about x, e[1] about y, e[2] about z).
// quat_to_euler is the direct method of Bernardes and Viollet (2022): the rotation's
// quaternion, permuted for the sequence, gives the middle angle from an acos and the outer two
// from two atan2s. Adjoints follow quat.h: they add into adj_<input>; int axis indices get none.
#pragma once

#include "quat.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

// ---- forward ----------------------------------------------------------------------------------

/// quat_to_rpy(q): (roll, pitch, yaw) with q = quat_rpy(roll, pitch, yaw); pitch in
/// [-pi/2, pi/2] (its sine clamped to [-1, 1]).
template <typename T>
CUDA_CALLABLE vec_t<3, T> quat_to_rpy(const quat_t<T>& q) {
    const T x = q.c[0], y = q.c[1], z = q.c[2], w = q.c[3];
    const T roll = atan2(T(2) * (w * x + y * z), T(1) - T(2) * (x * x + y * y));
    const T pitch = asin(clamp(T(2) * (w * y - z * x), T(-1), T(1)));
    const T yaw = atan2(T(2) * (w * z + x * y), T(1) - T(2) * (y * y + z * z));
    return vec_t<3, T>{{roll, pitch, yaw}};
}

/// The unit rotation about coordinate axis `axis` (0, 1, else 2) with the half angle's sine
/// and cosine.
template <typename T>
CUDA_CALLABLE quat_t<T> quat_about_axis(int32 axis, T s, T c) {
    quat_t<T> q{{T(0), T(0), T(0), c}};
    q.c[axis == 0 ? 0 : axis == 1 ? 1 : 2] = s;
    return q;
}

/// The component of e about coordinate axis `axis` (0, 1, else 2).
template <typename T>
CUDA_CALLABLE T euler_angle(const vec_t<3, T>& e, int32 axis) {
    return e.c[axis == 0 ? 0 : axis == 1 ? 1 : 2];
}

/// quat_from_euler(e, i, j, k): qk qj qi, qn the rotation by e[n] about axis n (extrinsic
/// rotations i, then j, then k; quat_from_euler(e, 0, 1, 2) == quat_rpy(e[0], e[1], e[2])).
template <typename T>
CUDA_CALLABLE quat_t<T> quat_from_euler(const vec_t<3, T>& e, int32 i, int32 j, int32 k) {
    quat_t<T> q[3];
    const int32 axes[3] = {i, j, k};
    for (int n = 0; n < 3; ++n) {
        const T h = euler_angle(e, axes[n]) * T(0.5);
        q[n] = quat_about_axis(axes[n], sin(h), cos(h));
    }
    return mul(q[2], mul(q[1], q[0]));
}

/// The intermediate quantities of quat_to_euler for one quaternion and axis sequence.
template <typename T>
struct EulerParts {
    int32 slot[3];  ///< output component of the first, second and third angle
    bool proper;    ///< i == k (a proper Euler sequence, e.g. z-x-z)
    T sign;         ///< the Levi-Civita sign of the (completed) permutation (i, j, k)
    int32 comp[3];  ///< quaternion component (0..2) of axis i, j, k
    T a, b, c, d;   ///< the permuted quaternion of the method
    T x;            ///< argument of the middle angle's acos
    T tp, tm;       ///< atan2(b, a) and atan2(d, c)
    int branch;     ///< 0: middle angle ~ 0, 1: middle angle ~ pi, 2: general
};

template <typename T>
CUDA_CALLABLE EulerParts<T> euler_parts(const quat_t<T>& q, int32 i, int32 j, int32 k) {
    EulerParts<T> p;
    const int32 ii = i == 1 ? 1 : i == 2 ? 2 : 0, jj = j == 1 ? 1 : j == 2 ? 2 : 0;
    int32 kk = k == 1 ? 1 : k == 2 ? 2 : 0;
    p.proper = ii == kk;
    if (p.proper) kk = 3 - ii - jj;  // the axis neither i nor j
    p.sign = T(float((ii - jj) * (jj - kk) * (kk - ii)) * 0.5f);
    p.comp[0] = ii;
    p.comp[1] = jj;
    p.comp[2] = kk;
    p.slot[0] = ii;
    p.slot[1] = jj;
    p.slot[2] = kk;
    const T w = q.c[3], qi = q.c[ii], qj = q.c[jj], qk = q.c[kk];
    p.a = w;
    p.b = qi;
    p.c = qj;
    p.d = qk * p.sign;
    if (!p.proper) {
        p.a = p.a - qj;
        p.b = p.b + qk * p.sign;
        p.c = p.c + w;
        p.d = p.d - qi;
    }
    const T ab = p.a * p.a + p.b * p.b;
    p.x = T(2) * ab / (ab + p.c * p.c + p.d * p.d) - T(1);
    p.tp = atan2(p.b, p.a);
    p.tm = atan2(p.d, p.c);
    return p;
}

/// quat_to_euler(q, i, j, k): the angles e with quat_from_euler(e, i, j, k) the rotation q
/// (for i != k; at gimbal lock the first angle is 0). For a proper sequence (i == k) the first
/// angle goes to e[i], the second to e[j] and the third to the remaining component.
template <typename T>
CUDA_CALLABLE vec_t<3, T> quat_to_euler(const quat_t<T>& q, int32 i, int32 j, int32 k) {
    const EulerParts<T> p = euler_parts(q, i, j, k);
    T t2 = acos(p.x), t1 = T(0), t3;
    if (abs(t2) < T(1e-6)) {
        t3 = T(2) * p.tp;
    } else if (abs(t2 - T(3.14159265358979323846)) < T(1e-6)) {
        t3 = T(2) * p.tm;
    } else {
        t1 = p.tp - p.tm;
        t3 = p.tp + p.tm;
    }
    if (!p.proper) {
        t2 = t2 - T(1.57079632679489661923);
        t3 = t3 * p.sign;
    }
    vec_t<3, T> e{};
    e.c[p.slot[0]] = t1;
    e.c[p.slot[1]] = t2;
    e.c[p.slot[2]] = t3;
    return e;
}

/// quat_twist(axis, q): the twist part of q about the unit axis (swing-twist decomposition):
/// q's vector part projected on axis with q's real part, normalized.
template <typename T>
CUDA_CALLABLE quat_t<T> quat_twist(const vec_t<3, T>& axis, const quat_t<T>& q) {
    const vec_t<3, T> a = mul(axis, dot(quat_vec(q), axis));
    return normalize(quat_t<T>{{a.c[0], a.c[1], a.c[2], q.c[3]}});
}

/// quat_twist_angle(axis, q): 2 atan2(|dot(axis, v)|, w), v the vector part of q: the unsigned
/// twist angle about the unit axis, in [0, pi] for w >= 0 (up to 2 pi otherwise).
template <typename T>
CUDA_CALLABLE T quat_twist_angle(const vec_t<3, T>& axis, const quat_t<T>& q) {
    return T(2) * atan2(abs(dot(axis, quat_vec(q))), q.c[3]);
}

/// quat_twist_angle_signed(axis, q): 2 atan2(dot(axis, v), w), in [-2 pi, 2 pi]; q and -q
/// may differ by 2 pi.
template <typename T>
CUDA_CALLABLE T quat_twist_angle_signed(const vec_t<3, T>& axis, const quat_t<T>& q) {
    return T(2) * atan2(dot(axis, quat_vec(q)), q.c[3]);
}

// ---- adjoints ---------------------------------------------------------------------------------

/// adj_quat_to_rpy: through the two atan2s and the clamped asin.
template <typename T>
CUDA_CALLABLE void adj_quat_to_rpy(const quat_t<T>& q, quat_t<T>& adj_q,
                                   const vec_t<3, T>& adj_ret) {
    const T x = q.c[0], y = q.c[1], z = q.c[2], w = q.c[3];
    // g0, g1: the gradients of roll's atan2 arguments 2 (wx + yz) and 1 - 2 (x^2 + y^2); g2: of
    // pitch's 2 (wy - zx) (none where it was clamped); g3, g4: of yaw's 2 (wz + xy) and
    // 1 - 2 (y^2 + z^2)
    T g0 = T(0), g1 = T(0), g2 = T(0), g3 = T(0), g4 = T(0), lo = T(0), hi = T(0);
    adj_atan2(T(2) * (w * x + y * z), T(1) - T(2) * (x * x + y * y), g0, g1, adj_ret.c[0]);
    const T s = T(2) * (w * y - z * x);
    T adj_clamped = T(0);
    adj_asin(clamp(s, T(-1), T(1)), adj_clamped, adj_ret.c[1]);
    adj_clamp(s, T(-1), T(1), g2, lo, hi, adj_clamped);
    adj_atan2(T(2) * (w * z + x * y), T(1) - T(2) * (y * y + z * z), g3, g4, adj_ret.c[2]);
    adj_q.c[0] += T(2) * (g0 * w - g1 * T(2) * x - g2 * z + g3 * y);
    adj_q.c[1] += T(2) * (g0 * z - g1 * T(2) * y + g2 * w + g3 * x - g4 * T(2) * y);
    adj_q.c[2] += T(2) * (g0 * y - g2 * x + g3 * w - g4 * T(2) * z);
    adj_q.c[3] += T(2) * (g0 * x + g2 * y + g3 * z);
}

/// adj_quat_from_euler: through the product qk (qj qi); an axis used twice (i == k) gets both
/// gradients.
template <typename T>
CUDA_CALLABLE void adj_quat_from_euler(const vec_t<3, T>& e, int32 i, int32 j, int32 k,
                                       vec_t<3, T>& adj_e, int32&, int32&, int32&,
                                       const quat_t<T>& adj_ret) {
    quat_t<T> q[3], g[3] = {};
    T s[3], c[3];
    const int32 axes[3] = {i, j, k};
    for (int n = 0; n < 3; ++n) {
        const T h = euler_angle(e, axes[n]) * T(0.5);
        s[n] = sin(h);
        c[n] = cos(h);
        q[n] = quat_about_axis(axes[n], s[n], c[n]);
    }
    quat_t<T> g10{};
    adj_mul(q[2], mul(q[1], q[0]), g[2], g10, adj_ret);
    adj_mul(q[1], q[0], g[1], g[0], g10);
    for (int n = 0; n < 3; ++n) {
        const int32 a = axes[n] == 0 ? 0 : axes[n] == 1 ? 1 : 2;
        adj_e.c[a] += (c[n] * g[n].c[a] - s[n] * g[n].c[3]) * T(0.5);
    }
}

/// adj_quat_to_euler: through the branch quat_to_euler took. The outer angles are linear in
/// tp and tm, the middle one is acos(x); a, b, c, d are linear in q.
template <typename T>
CUDA_CALLABLE void adj_quat_to_euler(const quat_t<T>& q, int32 i, int32 j, int32 k,
                                     quat_t<T>& adj_q, int32&, int32&, int32&,
                                     const vec_t<3, T>& adj_ret) {
    const EulerParts<T> p = euler_parts(q, i, j, k);
    // a later write of quat_to_euler's result wins where two slots coincide (invalid axes)
    const T adj_t3 = adj_ret.c[p.slot[2]] * (p.proper ? T(1) : p.sign);
    const T adj_t2 = p.slot[1] != p.slot[2] ? adj_ret.c[p.slot[1]] : T(0);
    const T adj_t1 = p.slot[0] != p.slot[1] && p.slot[0] != p.slot[2] ? adj_ret.c[p.slot[0]] : T(0);
    const T t2 = acos(p.x);
    T adj_tp, adj_tm;
    if (abs(t2) < T(1e-6)) {
        adj_tp = T(2) * adj_t3;
        adj_tm = T(0);
    } else if (abs(t2 - T(3.14159265358979323846)) < T(1e-6)) {
        adj_tp = T(0);
        adj_tm = T(2) * adj_t3;
    } else {
        adj_tp = adj_t1 + adj_t3;
        adj_tm = adj_t3 - adj_t1;
    }
    T ga = T(0), gb = T(0), gc = T(0), gd = T(0), gx = T(0);
    adj_atan2(p.b, p.a, gb, ga, adj_tp);
    adj_atan2(p.d, p.c, gd, gc, adj_tm);
    adj_acos(p.x, gx, adj_t2);
    // x = 2 (a^2 + b^2) / n - 1, n = a^2 + b^2 + c^2 + d^2
    const T ab = p.a * p.a + p.b * p.b, cd = p.c * p.c + p.d * p.d, n = ab + cd;
    const T f = T(4) * gx / (n * n);
    ga = ga + f * cd * p.a;
    gb = gb + f * cd * p.b;
    gc = gc - f * ab * p.c;
    gd = gd - f * ab * p.d;
    // back through a = w [- q_j], b = q_i [+ s q_k], c = q_j [+ w], d = s q_k [- q_i]
    adj_q.c[3] += ga;
    adj_q.c[p.comp[0]] += gb;
    adj_q.c[p.comp[1]] += gc;
    adj_q.c[p.comp[2]] += p.sign * gd;
    if (!p.proper) {
        adj_q.c[3] += gc;
        adj_q.c[p.comp[0]] -= gd;
        adj_q.c[p.comp[1]] -= ga;
        adj_q.c[p.comp[2]] += p.sign * gb;
    }
}

/// adj_quat_twist: through the normalize and the projection dot(v, axis) axis.
template <typename T>
CUDA_CALLABLE void adj_quat_twist(const vec_t<3, T>& axis, const quat_t<T>& q,
                                  vec_t<3, T>& adj_axis, quat_t<T>& adj_q,
                                  const quat_t<T>& adj_ret) {
    const vec_t<3, T> v = quat_vec(q);
    const T proj = dot(v, axis);
    const vec_t<3, T> a = mul(axis, proj);
    quat_t<T> adj_u{};
    adj_normalize(quat_t<T>{{a.c[0], a.c[1], a.c[2], q.c[3]}}, adj_u, adj_ret);
    const vec_t<3, T> adj_a = quat_vec(adj_u);
    const T adj_proj = dot(adj_a, axis);
    adj_axis = add(adj_axis, add(mul(adj_a, proj), mul(v, adj_proj)));
    for (int n = 0; n < 3; ++n) adj_q.c[n] += adj_proj * axis.c[n];
    adj_q.c[3] += adj_u.c[3];
}

/// Shared adjoint of the twist angles: `absolute` selects the unsigned one.
template <typename T>
CUDA_CALLABLE void adj_quat_twist_angle_of(const vec_t<3, T>& axis, const quat_t<T>& q,
                                           bool absolute, vec_t<3, T>& adj_axis, quat_t<T>& adj_q,
                                           T adj_ret) {
    const vec_t<3, T> v = quat_vec(q);
    const T s = dot(axis, v);
    T adj_y = T(0), adj_s = T(0);
    adj_atan2(absolute ? abs(s) : s, q.c[3], adj_y, adj_q.c[3], T(2) * adj_ret);
    if (absolute) {
        adj_abs(s, adj_s, adj_y);
    } else {
        adj_s = adj_y;
    }
    adj_axis = add(adj_axis, mul(v, adj_s));
    for (int n = 0; n < 3; ++n) adj_q.c[n] += adj_s * axis.c[n];
}
template <typename T>
CUDA_CALLABLE void adj_quat_twist_angle(const vec_t<3, T>& axis, const quat_t<T>& q,
                                        vec_t<3, T>& adj_axis, quat_t<T>& adj_q, T adj_ret) {
    adj_quat_twist_angle_of(axis, q, true, adj_axis, adj_q, adj_ret);
}
template <typename T>
CUDA_CALLABLE void adj_quat_twist_angle_signed(const vec_t<3, T>& axis, const quat_t<T>& q,
                                               vec_t<3, T>& adj_axis, quat_t<T>& adj_q, T adj_ret) {
    adj_quat_twist_angle_of(axis, q, false, adj_axis, adj_q, adj_ret);
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
