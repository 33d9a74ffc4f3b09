// native/treadle/mat_inverse.h -- determinant, cofactor and inverse of 2x2/3x3/4x4 matrices
//
// Float matrices only (float16 computes each step in float16 arithmetic). Closed forms: 2x2
// directly, 3x3 from cross products of the rows, 4x4 by Laplace expansion in 2x2 minors of the
// top and bottom row pairs. Included at the end of mat.h.
#pragma once

#include "mat.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// cofactor(a): the cofactor matrix, cof(i, j) = (-1)^(i+j) * minor(i, j), for 2x2, 3x3, 4x4.
/// It is the gradient of determinant(a), and inverse(a) = transpose(cof) / determinant(a).
template <typename T>
CUDA_CALLABLE mat_t<2, 2, T> cofactor(const mat_t<2, 2, T>& a) {
    return mat_t<2, 2, T>{{{a.m[1][1], -a.m[1][0]}, {-a.m[0][1], a.m[0][0]}}};
}
template <typename T>
CUDA_CALLABLE mat_t<3, 3, T> cofactor(const mat_t<3, 3, T>& a) {
    const vec_t<3, T> r0 = row(a, 0), r1 = row(a, 1), r2 = row(a, 2);
    return mat_from_rows(cross(r1, r2), cross(r2, r0), cross(r0, r1));
}
template <typename T>
CUDA_CALLABLE mat_t<4, 4, T> cofactor(const mat_t<4, 4, T>& a) {
    const T(&x)[4][4] = a.m;
    // 2x2 minors of rows 0-1 (s) and rows 2-3 (c); sCD uses columns C and D.
    const T s01 = x[0][0] * x[1][1] - x[1][0] * x[0][1];
    const T s02 = x[0][0] * x[1][2] - x[1][0] * x[0][2];
    const T s03 = x[0][0] * x[1][3] - x[1][0] * x[0][3];
    const T s12 = x[0][1] * x[1][2] - x[1][1] * x[0][2];
    const T s13 = x[0][1] * x[1][3] - x[1][1] * x[0][3];
    const T s23 = x[0][2] * x[1][3] - x[1][2] * x[0][3];
    const T c01 = x[2][0] * x[3][1] - x[3][0] * x[2][1];
    const T c02 = x[2][0] * x[3][2] - x[3][0] * x[2][2];
    const T c03 = x[2][0] * x[3][3] - x[3][0] * x[2][3];
    const T c12 = x[2][1] * x[3][2] - x[3][1] * x[2][2];
    const T c13 = x[2][1] * x[3][3] - x[3][1] * x[2][3];
    const T c23 = x[2][2] * x[3][3] - x[3][2] * x[2][3];
    mat_t<4, 4, T> r{};
    // Rows 0 and 1: expand the 3x3 minor along the remaining row of the pair, using c-minors.
    r.m[0][0] = x[1][1] * c23 - x[1][2] * c13 + x[1][3] * c12;
    r.m[0][1] = -x[1][0] * c23 + x[1][2] * c03 - x[1][3] * c02;
    r.m[0][2] = x[1][0] * c13 - x[1][1] * c03 + x[1][3] * c01;
    r.m[0][3] = -x[1][0] * c12 + x[1][1] * c02 - x[1][2] * c01;
    r.m[1][0] = -x[0][1] * c23 + x[0][2] * c13 - x[0][3] * c12;
    r.m[1][1] = x[0][0] * c23 - x[0][2] * c03 + x[0][3] * c02;
    r.m[1][2] = -x[0][0] * c13 + x[0][1] * c03 - x[0][3] * c01;
    r.m[1][3] = x[0][0] * c12 - x[0][1] * c02 + x[0][2] * c01;
    // Rows 2 and 3: the same with the s-minors of rows 0-1.
    r.m[2][0] = x[3][1] * s23 - x[3][2] * s13 + x[3][3] * s12;
    r.m[2][1] = -x[3][0] * s23 + x[3][2] * s03 - x[3][3] * s02;
    r.m[2][2] = x[3][0] * s13 - x[3][1] * s03 + x[3][3] * s01;
    r.m[2][3] = -x[3][0] * s12 + x[3][1] * s02 - x[3][2] * s01;
    r.m[3][0] = -x[2][1] * s23 + x[2][2] * s13 - x[2][3] * s12;
    r.m[3][1] = x[2][0] * s23 - x[2][2] * s03 + x[2][3] * s02;
    r.m[3][2] = -x[2][0] * s13 + x[2][1] * s03 - x[2][3] * s01;
    r.m[3][3] = x[2][0] * s12 - x[2][1] * s02 + x[2][2] * s01;
    return r;
}

/// determinant(a) for 2x2, 3x3, 4x4 float matrices.
template <typename T>
CUDA_CALLABLE T determinant(const mat_t<2, 2, T>& a) {
    static_assert(is_float_v<T>, "determinant() takes a float matrix");
    return a.m[0][0] * a.m[1][1] - a.m[0][1] * a.m[1][0];
}
template <typename T>
CUDA_CALLABLE T determinant(const mat_t<3, 3, T>& a) {
    static_assert(is_float_v<T>, "determinant() takes a float matrix");
    return dot(row(a, 0), cross(row(a, 1), row(a, 2)));
}
template <typename T>
CUDA_CALLABLE T determinant(const mat_t<4, 4, T>& a) {
    static_assert(is_float_v<T>, "determinant() takes a float matrix");
    const T(&x)[4][4] = a.m;
    const T s01 = x[0][0] * x[1][1] - x[1][0] * x[0][1];
    const T s02 = x[0][0] * x[1][2] - x[1][0] * x[0][2];
    const T s03 = x[0][0] * x[1][3] - x[1][0] * x[0][3];
    const T s12 = x[0][1] * x[1][2] - x[1][1] * x[0][2];
    const T s13 = x[0][1] * x[1][3] - x[1][1] * x[0][3];
    const T s23 = x[0][2] * x[1][3] - x[1][2] * x[0][3];
    const T c01 = x[2][0] * x[3][1] - x[3][0] * x[2][1];
    const T c02 = x[2][0] * x[3][2] - x[3][0] * x[2][2];
    const T c03 = x[2][0] * x[3][3] - x[3][0] * x[2][3];
    const T c12 = x[2][1] * x[3][2] - x[3][1] * x[2][2];
    const T c13 = x[2][1] * x[3][3] - x[3][1] * x[2][3];
    const T c23 = x[2][2] * x[3][3] - x[3][2] * x[2][3];
    // Laplace expansion along the top two rows (complementary column pairs, signed).
    return s01 * c23 - s02 * c13 + s03 * c12 + s12 * c03 - s13 * c02 + s23 * c01;
}

/// inverse(a) for 2x2, 3x3, 4x4 float matrices: transpose(cofactor(a)) / determinant(a). A
/// singular matrix (determinant exactly 0) gives the zero matrix; nearly singular ones give
/// large, inaccurate values (no pivoting, no tolerance).
template <int N, typename T>
CUDA_CALLABLE mat_t<N, N, T> inverse(const mat_t<N, N, T>& a) {
    static_assert(N >= 2 && N <= 4, "inverse() takes a 2x2, 3x3 or 4x4 matrix");
    static_assert(is_float_v<T>, "inverse() takes a float matrix");
    const T d = determinant(a);
    if (d == T(0)) return mat_fill<N, N, T>(T(0));
    return div(transpose(cofactor(a)), d);
}

/// adj_determinant: adj_a += cofactor(a) * adj_ret (valid for singular a as well).
template <int N, typename T>
CUDA_CALLABLE void adj_determinant(const mat_t<N, N, T>& a, mat_t<N, N, T>& adj_a, T adj_ret) {
    const mat_t<N, N, T> g = cofactor(a);
    for (int i = 0; i < N; ++i) {
        for (int j = 0; j < N; ++j) adj_a.m[i][j] += g.m[i][j] * adj_ret;
    }
}

/// adj_inverse: with B = inverse(a), adj_a -= B^T adj_ret B^T. No gradient for singular a
/// (where inverse returned zeros).
template <int N, typename T>
CUDA_CALLABLE void adj_inverse(const mat_t<N, N, T>& a, mat_t<N, N, T>& adj_a,
                               const mat_t<N, N, T>& adj_ret) {
    if (determinant(a) == T(0)) return;
    const mat_t<N, N, T> bt = transpose(inverse(a));
    adj_a = sub(adj_a, mul(mul(bt, adj_ret), bt));
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
