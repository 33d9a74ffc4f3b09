// native/treadle/transform_matrix.h -- transforms and 4x4 matrices: transform_to_matrix,
// transform_from_matrix, transform_compose (with a scale) and transform_decompose, with adjoints
//
// A 4x4 matrix here is [[R S, p], [0, 0, 0, 1]]: rotation R, per-axis scale S = diag(s) on the
// columns, translation p. Included at the end of transform.h.
#pragma once

#include "transform.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// transform_compose(p, q, s): the 4x4 matrix [[R(q) diag(s), p], [0, 0, 0, 1]].
template <typename T>
CUDA_CALLABLE mat_t<4, 4, T> transform_compose(const vec_t<3, T>& p, const quat_t<T>& q,
                                               const vec_t<3, T>& s) {
    const mat_t<3, 3, T> r = quat_to_matrix(q);
    mat_t<4, 4, T> m{};
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) m.m[i][j] = r.m[i][j] * s.c[j];
        m.m[i][3] = p.c[i];
    }
    m.m[3][3] = T(1);
    return m;
}

/// transform_to_matrix(t): transform_compose(t.p, t.q, (1, 1, 1)).
template <typename T>
CUDA_CALLABLE mat_t<4, 4, T> transform_to_matrix(const transform_t<T>& t) {
    return transform_compose(t.p, t.q, vec_fill<3, T>(T(1)));
}

/// transform_from_matrix(m): translation m[0:3, 3], rotation from the upper-left 3x3 block
/// (which should be a rotation: no scale).
template <typename T>
CUDA_CALLABLE transform_t<T> transform_from_matrix(const mat_t<4, 4, T>& m) {
    vec_t<3, T> p;
    for (int i = 0; i < 3; ++i) p.c[i] = m.m[i][3];
    return transform_t<T>{p, quat_from_matrix(m)};
}

/// transform_decompose(m, p, q, s): the inverse of transform_compose: s[j] = the length of
/// column j of the 3x3 block, q from the block with its columns divided by s.
template <typename T>
CUDA_CALLABLE void transform_decompose(const mat_t<4, 4, T>& m, vec_t<3, T>& p, quat_t<T>& q,
                                       vec_t<3, T>& s) {
    mat_t<3, 3, T> r;
    for (int j = 0; j < 3; ++j) {
        const T l = sqrt(m.m[0][j] * m.m[0][j] + m.m[1][j] * m.m[1][j] + m.m[2][j] * m.m[2][j]);
        s.c[j] = l;
        for (int i = 0; i < 3; ++i) r.m[i][j] = m.m[i][j] / l;
    }
    for (int i = 0; i < 3; ++i) p.c[i] = m.m[i][3];
    q = quat_from_matrix(r);
}

/// adj_transform_compose: m[i][j] = R[i][j] s[j] and m[i][3] = p[i].
template <typename T>
CUDA_CALLABLE void adj_transform_compose(const vec_t<3, T>&, const quat_t<T>& q,
                                         const vec_t<3, T>& s, vec_t<3, T>& adj_p, quat_t<T>& adj_q,
                                         vec_t<3, T>& adj_s, const mat_t<4, 4, T>& adj_ret) {
    const mat_t<3, 3, T> r = quat_to_matrix(q);
    mat_t<3, 3, T> adj_r;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            adj_r.m[i][j] = adj_ret.m[i][j] * s.c[j];
            adj_s.c[j] += adj_ret.m[i][j] * r.m[i][j];
        }
        adj_p.c[i] += adj_ret.m[i][3];
    }
    adj_quat_to_matrix(q, adj_q, adj_r);
}
template <typename T>
CUDA_CALLABLE void adj_transform_to_matrix(const transform_t<T>& t, transform_t<T>& adj_t,
                                           const mat_t<4, 4, T>& adj_ret) {
    vec_t<3, T> adj_s{};
    adj_transform_compose(t.p, t.q, vec_fill<3, T>(T(1)), adj_t.p, adj_t.q, adj_s, adj_ret);
}
template <typename T>
CUDA_CALLABLE void adj_transform_from_matrix(const mat_t<4, 4, T>& m, mat_t<4, 4, T>& adj_m,
                                             const transform_t<T>& adj_ret) {
    for (int i = 0; i < 3; ++i) adj_m.m[i][3] += adj_ret.p.c[i];
    adj_quat_from_matrix(m, adj_m, adj_ret.q);
}

/// adj_transform_decompose: through r = c / |c| per column c of the 3x3 block (adj_c += (adj_r
/// - r dot(r, adj_r)) / |c| + adj_s r) and q = quat_from_matrix(r).
template <typename T>
CUDA_CALLABLE void adj_transform_decompose(const mat_t<4, 4, T>& m, const vec_t<3, T>&,
                                           const quat_t<T>&, const vec_t<3, T>& s,
                                           mat_t<4, 4, T>& adj_m, const vec_t<3, T>& adj_p,
                                           const quat_t<T>& adj_q, const vec_t<3, T>& adj_s) {
    mat_t<3, 3, T> r, adj_r{};
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) r.m[i][j] = m.m[i][j] / s.c[j];
    adj_quat_from_matrix(r, adj_r, adj_q);
    for (int j = 0; j < 3; ++j) {
        T d = T(0);
        for (int i = 0; i < 3; ++i) d = d + r.m[i][j] * adj_r.m[i][j];
        for (int i = 0; i < 3; ++i)
            adj_m.m[i][j] += (adj_r.m[i][j] - r.m[i][j] * d) / s.c[j] + adj_s.c[j] * r.m[i][j];
    }
    for (int i = 0; i < 3; ++i) adj_m.m[i][3] += adj_p.c[i];
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
