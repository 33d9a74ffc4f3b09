// native/treadle/transform.h -- transform_t<T>: rigid transforms (p, q), builtins and adjoints
//
// transform_t is an aggregate of a translation p (vec3) and a rotation q (unit quaternion):
// `wp::transform_t<wp::float32>{p, q}`; it maps x to quat_rotate(q, x) + p. Included at the
// end of quat.h; conventions as there.
#pragma once

#include "quat.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// transform_t<T>: translation p, rotation q.
template <typename T>
struct transform_t {
    vec_t<3, T> p;
    quat_t<T> q;
};

/// Short names for the common transform types.
using transform = transform_t<float32>;
using transformf = transform;
using transformd = transform_t<float64>;
using transformh = transform_t<float16>;

// ---- construction and access ----------------------------------------------------------------

/// extract(t, i): component i of the 7 (p.x, p.y, p.z, q.x, q.y, q.z, q.w), zero out of range.
template <typename T>
CUDA_CALLABLE T extract(const transform_t<T>& t, int32 i) {
    return i < 3 ? extract(t.p, i) : extract(t.q, i - 3);
}

/// with_component(t, i, s): t with component i (as extract numbers them) replaced by s.
template <typename T>
CUDA_CALLABLE transform_t<T> with_component(transform_t<T> t, int32 i, type_identity_t<T> s) {
    if (i < 3)
        t.p = with_component(t.p, i, s);
    else
        t.q = with_component(t.q, i - 3, s);
    return t;
}

/// transform_from(p, q): the transform (p, q). transform_identity<T>(): (0, identity).
template <typename T>
CUDA_CALLABLE transform_t<T> transform_from(vec_t<3, T> p, quat_t<T> q) {
    return transform_t<T>{p, q};
}
template <typename T>
CUDA_CALLABLE transform_t<T> transform_identity() {
    return transform_t<T>{vec_fill<3, T>(T(0)), quat_identity<T>()};
}

/// transform_get_translation(t) / transform_get_rotation(t): t.p / t.q.
template <typename T>
CUDA_CALLABLE vec_t<3, T> transform_get_translation(const transform_t<T>& t) {
    return t.p;
}
template <typename T>
CUDA_CALLABLE quat_t<T> transform_get_rotation(const transform_t<T>& t) {
    return t.q;
}

/// a == b: both parts equal; a != b: !(a == b).
/// add(a, b), sub(a, b): componentwise (p and q), as Warp's transform + and -; gradients of
/// transforms accumulate with add.
template <typename T>
CUDA_CALLABLE transform_t<T> add(const transform_t<T>& a, const transform_t<T>& b) {
    return transform_t<T>{add(a.p, b.p), add(a.q, b.q)};
}
template <typename T>
CUDA_CALLABLE transform_t<T> sub(const transform_t<T>& a, const transform_t<T>& b) {
    return transform_t<T>{sub(a.p, b.p), sub(a.q, b.q)};
}

/// mul(t, s), mul(s, t): every component of p and q scaled by s (Warp's s * t).
template <typename T>
CUDA_CALLABLE transform_t<T> mul(const transform_t<T>& t, type_identity_t<T> s) {
    return transform_t<T>{mul(t.p, s), mul(t.q, s)};
}
template <typename T>
CUDA_CALLABLE transform_t<T> mul(type_identity_t<T> s, const transform_t<T>& t) {
    return mul(t, s);
}

template <typename T>
CUDA_CALLABLE bool operator==(const transform_t<T>& a, const transform_t<T>& b) {
    return a.p == b.p && a.q == b.q;
}
template <typename T>
CUDA_CALLABLE bool operator!=(const transform_t<T>& a, const transform_t<T>& b) {
    return !(a == b);
}

// ---- transform math -------------------------------------------------------------------------

/// transform_point(t, x): quat_rotate(t.q, x) + t.p. transform_vector(t, v): quat_rotate(t.q, v)
/// (a direction: no translation).
template <typename T>
CUDA_CALLABLE vec_t<3, T> transform_point(transform_t<T> t, vec_t<3, T> x) {
    return add(quat_rotate(t.q, x), t.p);
}
template <typename T>
CUDA_CALLABLE vec_t<3, T> transform_vector(transform_t<T> t, vec_t<3, T> v) {
    return quat_rotate(t.q, v);
}

/// transform_multiply(a, b) / mul(a, b): the composition a after b:
/// (quat_rotate(a.q, b.p) + a.p, a.q b.q), so transform_point(mul(a, b), x) ==
/// transform_point(a, transform_point(b, x)).
template <typename T>
CUDA_CALLABLE transform_t<T> transform_multiply(transform_t<T> a, transform_t<T> b) {
    return transform_t<T>{add(quat_rotate(a.q, b.p), a.p), mul(a.q, b.q)};
}
template <typename T>
CUDA_CALLABLE transform_t<T> mul(transform_t<T> a, transform_t<T> b) {
    return transform_multiply(a, b);
}

/// transform_inverse(t): (-quat_rotate(qi, t.p), qi) with qi = quat_inverse(t.q).
template <typename T>
CUDA_CALLABLE transform_t<T> transform_inverse(transform_t<T> t) {
    const quat_t<T> qi = quat_inverse(t.q);
    return transform_t<T>{neg(quat_rotate(qi, t.p)), qi};
}

// ---- adjoints -------------------------------------------------------------------------------

/// adj_transform_from: adj_p += adj_ret.p, adj_q += adj_ret.q. adj_transform_identity: no-op.
template <typename T>
CUDA_CALLABLE void adj_transform_from(const vec_t<3, T>&, const quat_t<T>&, vec_t<3, T>& adj_p,
                                      quat_t<T>& adj_q, const transform_t<T>& adj_ret) {
    adj_p = add(adj_p, adj_ret.p);
    adj_q = add(adj_q, adj_ret.q);
}
template <typename T>
CUDA_CALLABLE void adj_transform_identity(const transform_t<T>&) {}

/// adj_extract / adj_with_component: into the component of p or q that i names.
template <typename T>
CUDA_CALLABLE void adj_extract(const transform_t<T>& t, int32 i, transform_t<T>& adj_t,
                               int32& adj_i, T adj_ret) {
    if (i < 3)
        adj_extract(t.p, i, adj_t.p, adj_i, adj_ret);
    else
        adj_extract(t.q, i - 3, adj_t.q, adj_i, adj_ret);
}
template <typename T>
CUDA_CALLABLE void adj_with_component(const transform_t<T>& t, int32 i, T s, transform_t<T>& adj_t,
                                      int32& adj_i, T& adj_s, const transform_t<T>& adj_ret) {
    adj_with_component(t.p, i, s, adj_t.p, adj_i, adj_s, adj_ret.p);
    adj_with_component(t.q, i - 3, s, adj_t.q, adj_i, adj_s, adj_ret.q);
}

/// transform_set_translation(t, p) / transform_set_rotation(t, q): t with its translation /
/// rotation replaced (the kernel writes the result back to the argument).
template <typename T>
CUDA_CALLABLE transform_t<T> transform_set_translation(transform_t<T> t, const vec_t<3, T>& p) {
    t.p = p;
    return t;
}
template <typename T>
CUDA_CALLABLE transform_t<T> transform_set_rotation(transform_t<T> t, const quat_t<T>& q) {
    t.q = q;
    return t;
}
/// adj_transform_set_translation / adj_transform_set_rotation: the replaced part's gradient goes
/// to the new value, the other part's to t.
template <typename T>
CUDA_CALLABLE void adj_transform_set_translation(const transform_t<T>&, const vec_t<3, T>&,
                                                 transform_t<T>& adj_t, vec_t<3, T>& adj_p,
                                                 const transform_t<T>& adj_ret) {
    adj_t.q = add(adj_t.q, adj_ret.q);
    adj_p = add(adj_p, adj_ret.p);
}
template <typename T>
CUDA_CALLABLE void adj_transform_set_rotation(const transform_t<T>&, const quat_t<T>&,
                                              transform_t<T>& adj_t, quat_t<T>& adj_q,
                                              const transform_t<T>& adj_ret) {
    adj_t.p = add(adj_t.p, adj_ret.p);
    adj_q = add(adj_q, adj_ret.q);
}

/// adj_transform_get_translation / adj_transform_get_rotation: into adj_t.p / adj_t.q.
template <typename T>
CUDA_CALLABLE void adj_transform_get_translation(const transform_t<T>&, transform_t<T>& adj_t,
                                                 const vec_t<3, T>& adj_ret) {
    adj_t.p = add(adj_t.p, adj_ret);
}
template <typename T>
CUDA_CALLABLE void adj_transform_get_rotation(const transform_t<T>&, transform_t<T>& adj_t,
                                              const quat_t<T>& adj_ret) {
    adj_t.q = add(adj_t.q, adj_ret);
}

/// transform_point(m, x) / transform_vector(m, v) with a 4x4 matrix m: the first three rows
/// of m applied to (x, 1) / (v, 0) (no division by the fourth component, as in Warp).
template <typename T>
CUDA_CALLABLE vec_t<3, T> transform_point(const mat_t<4, 4, T>& m, vec_t<3, T> x) {
    vec_t<3, T> r;
    for (int i = 0; i < 3; ++i)
        r.c[i] = m.m[i][0] * x.c[0] + m.m[i][1] * x.c[1] + m.m[i][2] * x.c[2] + m.m[i][3];
    return r;
}
template <typename T>
CUDA_CALLABLE vec_t<3, T> transform_vector(const mat_t<4, 4, T>& m, vec_t<3, T> v) {
    vec_t<3, T> r;
    for (int i = 0; i < 3; ++i)
        r.c[i] = m.m[i][0] * v.c[0] + m.m[i][1] * v.c[1] + m.m[i][2] * v.c[2];
    return r;
}
template <typename T>
CUDA_CALLABLE void adj_transform_point(const mat_t<4, 4, T>& m, const vec_t<3, T>& x,
                                       mat_t<4, 4, T>& adj_m, vec_t<3, T>& adj_x,
                                       const vec_t<3, T>& adj_ret) {
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            adj_m.m[i][j] += adj_ret.c[i] * x.c[j];
            adj_x.c[j] += m.m[i][j] * adj_ret.c[i];
        }
        adj_m.m[i][3] += adj_ret.c[i];
    }
}
template <typename T>
CUDA_CALLABLE void adj_transform_vector(const mat_t<4, 4, T>& m, const vec_t<3, T>& v,
                                        mat_t<4, 4, T>& adj_m, vec_t<3, T>& adj_v,
                                        const vec_t<3, T>& adj_ret) {
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            adj_m.m[i][j] += adj_ret.c[i] * v.c[j];
            adj_v.c[j] += m.m[i][j] * adj_ret.c[i];
        }
    }
}

/// quat_from_matrix(m) of a 4x4 matrix: of its upper-left 3x3 block (the rotation).
template <typename T>
CUDA_CALLABLE quat_t<T> quat_from_matrix(const mat_t<4, 4, T>& m) {
    mat_t<3, 3, T> r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) r.m[i][j] = m.m[i][j];
    return quat_from_matrix(r);
}
template <typename T>
CUDA_CALLABLE void adj_quat_from_matrix(const mat_t<4, 4, T>& m, mat_t<4, 4, T>& adj_m,
                                        const quat_t<T>& adj_ret) {
    mat_t<3, 3, T> r, adj_r{};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) r.m[i][j] = m.m[i][j];
    adj_quat_from_matrix(r, adj_r, adj_ret);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) adj_m.m[i][j] += adj_r.m[i][j];
}

/// adj_transform_point / adj_transform_vector: adj_quat_rotate, plus adj_t.p += adj_ret for
/// points.
template <typename T>
CUDA_CALLABLE void adj_transform_point(const transform_t<T>& t, const vec_t<3, T>& x,
                                       transform_t<T>& adj_t, vec_t<3, T>& adj_x,
                                       const vec_t<3, T>& adj_ret) {
    adj_t.p = add(adj_t.p, adj_ret);
    adj_quat_rotate(t.q, x, adj_t.q, adj_x, adj_ret);
}
template <typename T>
CUDA_CALLABLE void adj_transform_vector(const transform_t<T>& t, const vec_t<3, T>& v,
                                        transform_t<T>& adj_t, vec_t<3, T>& adj_v,
                                        const vec_t<3, T>& adj_ret) {
    adj_quat_rotate(t.q, v, adj_t.q, adj_v, adj_ret);
}

/// adj_transform_multiply / adj_mul(a, b): through the rotation of b.p and the product a.q b.q.
template <typename T>
CUDA_CALLABLE void adj_transform_multiply(const transform_t<T>& a, const transform_t<T>& b,
                                          transform_t<T>& adj_a, transform_t<T>& adj_b,
                                          const transform_t<T>& adj_ret) {
    adj_a.p = add(adj_a.p, adj_ret.p);
    adj_quat_rotate(a.q, b.p, adj_a.q, adj_b.p, adj_ret.p);
    adj_mul(a.q, b.q, adj_a.q, adj_b.q, adj_ret.q);
}
template <typename T>
CUDA_CALLABLE void adj_mul(const transform_t<T>& a, const transform_t<T>& b, transform_t<T>& adj_a,
                           transform_t<T>& adj_b, const transform_t<T>& adj_ret) {
    adj_transform_multiply(a, b, adj_a, adj_b, adj_ret);
}

/// adj_add/adj_sub: the linear rules on p and q. adj_mul(t, s) / adj_mul(s, t): adj_t += s
/// adj_ret, adj_s += the dot product of t and adj_ret over the 7 components.
template <typename T>
CUDA_CALLABLE void adj_add(const transform_t<T>& a, const transform_t<T>& b, transform_t<T>& adj_a,
                           transform_t<T>& adj_b, const transform_t<T>& adj_ret) {
    adj_add(a.p, b.p, adj_a.p, adj_b.p, adj_ret.p);
    adj_add(a.q, b.q, adj_a.q, adj_b.q, adj_ret.q);
}
template <typename T>
CUDA_CALLABLE void adj_sub(const transform_t<T>& a, const transform_t<T>& b, transform_t<T>& adj_a,
                           transform_t<T>& adj_b, const transform_t<T>& adj_ret) {
    adj_sub(a.p, b.p, adj_a.p, adj_b.p, adj_ret.p);
    adj_sub(a.q, b.q, adj_a.q, adj_b.q, adj_ret.q);
}
template <typename T>
CUDA_CALLABLE void adj_mul(const transform_t<T>& t, T s, transform_t<T>& adj_t, T& adj_s,
                           const transform_t<T>& adj_ret) {
    adj_mul(t.p, s, adj_t.p, adj_s, adj_ret.p);
    adj_mul(t.q, s, adj_t.q, adj_s, adj_ret.q);
}
template <typename T>
CUDA_CALLABLE void adj_mul(T s, const transform_t<T>& t, T& adj_s, transform_t<T>& adj_t,
                           const transform_t<T>& adj_ret) {
    adj_mul(t, s, adj_t, adj_s, adj_ret);
}

/// adj_transform_inverse: through qi = quat_inverse(t.q) and -quat_rotate(qi, t.p).
template <typename T>
CUDA_CALLABLE void adj_transform_inverse(const transform_t<T>& t, transform_t<T>& adj_t,
                                         const transform_t<T>& adj_ret) {
    const quat_t<T> qi = quat_inverse(t.q);
    quat_t<T> adj_qi = adj_ret.q;
    adj_quat_rotate(qi, t.p, adj_qi, adj_t.p, neg(adj_ret.p));
    adj_quat_inverse(t.q, adj_t.q, adj_qi);
}

// ---- atomics and print ----------------------------------------------------------------------

/// atomic_add/atomic_sub on transforms: (ptr, t) and (array, i..., t) with 1-4 indices;
/// per-component atomics on p and q, returning the old value.
#define WP_TRANSFORM_ATOMIC_FAMILY(name, op)                                                       \
    template <typename T>                                                                          \
    CUDA_CALLABLE transform_t<T> name(transform_t<T>* ptr, transform_t<T> v) {                     \
        transform_t<T> old{};                                                                      \
        atomic_rmw_n<op>(ptr->p.c, v.p.c, old.p.c, 3);                                             \
        atomic_rmw_n<op>(ptr->q.c, v.q.c, old.q.c, 4);                                             \
        return old;                                                                                \
    }                                                                                              \
    template <typename T>                                                                          \
    CUDA_CALLABLE transform_t<T> name(const array_t<transform_t<T>>& a, int32 i,                   \
                                      transform_t<T> v) {                                          \
        return name(address(a, i), v);                                                             \
    }                                                                                              \
    template <typename T>                                                                          \
    CUDA_CALLABLE transform_t<T> name(const array_t<transform_t<T>>& a, int32 i, int32 j,          \
                                      transform_t<T> v) {                                          \
        return name(address(a, i, j), v);                                                          \
    }                                                                                              \
    template <typename T>                                                                          \
    CUDA_CALLABLE transform_t<T> name(const array_t<transform_t<T>>& a, int32 i, int32 j, int32 k, \
                                      transform_t<T> v) {                                          \
        return name(address(a, i, j, k), v);                                                       \
    }                                                                                              \
    template <typename T>                                                                          \
    CUDA_CALLABLE transform_t<T> name(const array_t<transform_t<T>>& a, int32 i, int32 j, int32 k, \
                                      int32 l, transform_t<T> v) {                                 \
        return name(address(a, i, j, k, l), v);                                                    \
    }

WP_TRANSFORM_ATOMIC_FAMILY(atomic_add, atomic_op_add)
WP_TRANSFORM_ATOMIC_FAMILY(atomic_sub, atomic_op_sub)

#undef WP_TRANSFORM_ATOMIC_FAMILY

/// print(t): "px py pz qx qy qz qw \n" in one printf call.
template <typename T>
CUDA_CALLABLE void print(const transform_t<T>& t) {
    WP_PRINTF("%g %g %g %g %g %g %g \n", double(t.p.c[0]), double(t.p.c[1]), double(t.p.c[2]),
              double(t.q.c[0]), double(t.q.c[1]), double(t.q.c[2]), double(t.q.c[3]));
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif

#include "transform_matrix.h"
