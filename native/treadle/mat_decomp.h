// native/treadle/mat_decomp.h -- decompositions svd3, svd2, qr3, eig3 and their adjoints
//
// Float and double matrices; float16 ones are decomposed in float32 (results rounded back). The
// results are written through reference parameters (generated
// code calls them for the IR's several-result Call):
//   svd3(A, U, sigma, V): A = U diag(sigma) V^T; U and V rotations (det +1); |sigma| decreasing,
//       sigma[0], sigma[1] >= 0 and sigma[2] with the sign of det(A) (one-sided Jacobi).
//   svd2(A, U, sigma, V): the same for 2x2, with sigma >= 0 (U may be a reflection).
//   qr3(A, Q, R): A = Q R; Q a rotation, R upper triangular with R[0][0], R[1][1] >= 0, so
//       R[2][2] has the sign of det(A) (Gram-Schmidt with re-orthogonalisation).
//   eig3(A, Q, d): (A + A^T) / 2 = Q diag(d) Q^T; Q a rotation whose columns are eigenvectors,
//       d ascending (cyclic Jacobi).
// Rank-deficient inputs give orthonormal factors all the same (missing directions are completed
// to a right-handed basis).
//
// Adjoints take the inputs, the results, the adjoints of the inputs (added to, +=) and then those
// of the results: adj_svd3(A, U, sigma, V, adj_A, adj_U, adj_sigma, adj_V). Terms that divide by
// a difference of singular values or eigenvalues are dropped where that difference vanishes, so
// repeated values give finite gradients, exact for losses that do not single out one vector of
// a degenerate subspace (sums of eigenvalues, the polar rotation U V^T), and never NaN.
#pragma once

#include "mat.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

namespace decomp {

/// Machine epsilon of the computation type.
template <typename T>
CUDA_CALLABLE T eps() {
    static_assert(is_same_v<T, float32> || is_same_v<T, float64>,
                  "the 3x3 decompositions take float32 or float64 matrices");
    if constexpr (is_same_v<T, float32>)
        return 1.1920929e-7f;
    else
        return 2.220446049250313e-16;
}

template <int N, typename T>
CUDA_CALLABLE vec_t<N, T> col(const mat_t<N, N, T>& m, int j) {
    vec_t<N, T> v{};
    for (int i = 0; i < N; ++i) v.c[i] = m.m[i][j];
    return v;
}
template <int N, typename T>
CUDA_CALLABLE void set_col(mat_t<N, N, T>& m, int j, const vec_t<N, T>& v) {
    for (int i = 0; i < N; ++i) m.m[i][j] = v.c[i];
}

/// n / d, or 0 where |d| <= tol (a vanishing gap between repeated values).
template <typename T>
CUDA_CALLABLE T gap_div(T n, T d, T tol) {
    return wp::abs(d) > tol ? n / d : T(0);
}

/// tan of the Jacobi rotation angle that solves t^2 + 2 zeta t - 1 = 0 (the smaller root).
template <typename T>
CUDA_CALLABLE T jacobi_tan(T zeta) {
    if (wp::abs(zeta) > T(1) / eps<T>()) return T(0.5) / zeta;  // zeta^2 would overflow
    const T s = zeta >= T(0) ? T(1) : T(-1);
    return s / (wp::abs(zeta) + wp::sqrt(T(1) + zeta * zeta));
}

/// Columns p and q of m replaced by c m_p - s m_q and s m_p + c m_q.
template <int N, typename T>
CUDA_CALLABLE void rotate_cols(mat_t<N, N, T>& m, int p, int q, T c, T s) {
    for (int i = 0; i < N; ++i) {
        const T mp = m.m[i][p], mq = m.m[i][q];
        m.m[i][p] = c * mp - s * mq;
        m.m[i][q] = s * mp + c * mq;
    }
}

/// Swaps columns i and j of m and negates the new column j, which keeps the determinant.
template <int N, typename T>
CUDA_CALLABLE void swap_cols(mat_t<N, N, T>& m, int i, int j) {
    for (int r = 0; r < N; ++r) {
        const T mi = m.m[r][i];
        m.m[r][i] = m.m[r][j];
        m.m[r][j] = -mi;
    }
}

/// A unit vector orthogonal to the unit vector u.
template <typename T>
CUDA_CALLABLE vec_t<3, T> any_orthogonal(const vec_t<3, T>& u) {
    int k = 0;
    if (wp::abs(u.c[1]) < wp::abs(u.c[k])) k = 1;
    if (wp::abs(u.c[2]) < wp::abs(u.c[k])) k = 2;
    vec_t<3, T> e = vec_fill<3, T>(T(0));
    e.c[k] = T(1);
    return normalize(cross(u, e));
}

/// The column pairs a Jacobi sweep visits.
CUDA_CALLABLE void sweep_pair(int k, int& p, int& q) {
    p = k == 2 ? 1 : 0;
    q = k == 0 ? 1 : 2;
}

/// One one-sided Jacobi rotation of columns p, q of B (and V): makes them orthogonal. Returns
/// false when they already are, to working precision.
template <int N, typename T>
CUDA_CALLABLE bool orthogonalize_cols(mat_t<N, N, T>& B, mat_t<N, N, T>& V, int p, int q) {
    const T e = eps<T>();
    T alpha = T(0), beta = T(0), gamma = T(0);
    for (int i = 0; i < N; ++i) {
        alpha += B.m[i][p] * B.m[i][p];
        beta += B.m[i][q] * B.m[i][q];
        gamma += B.m[i][p] * B.m[i][q];
    }
    if (gamma == T(0) || gamma * gamma <= e * e * alpha * beta) return false;
    const T t = jacobi_tan((beta - alpha) / (T(2) * gamma));
    const T c = T(1) / wp::sqrt(T(1) + t * t), s = c * t;
    rotate_cols(B, p, q, c, s);
    rotate_cols(V, p, q, c, s);
    return true;
}

/// The SVD adjoint for square N x N (see adj_svd3): adj_A += U P V^T.
template <int N, typename T>
CUDA_CALLABLE void adj_svd_n(const mat_t<N, N, T>& U, const vec_t<N, T>& sigma,
                             const mat_t<N, N, T>& V, mat_t<N, N, T>& adj_A,
                             const mat_t<N, N, T>& adj_U, const vec_t<N, T>& adj_sigma,
                             const mat_t<N, N, T>& adj_V) {
    const mat_t<N, N, T> J = mul(transpose(U), adj_U), K = mul(transpose(V), adj_V);
    const T tol = T(16) * eps<T>() * wp::abs(sigma.c[0]);
    mat_t<N, N, T> P = diag(adj_sigma);
    for (int i = 0; i < N - 1; ++i) {
        for (int j = i + 1; j < N; ++j) {
            const T a = J.m[i][j] - J.m[j][i], b = K.m[i][j] - K.m[j][i];
            const T x = gap_div(a + b, sigma.c[j] - sigma.c[i], tol);
            const T y = gap_div(a - b, sigma.c[j] + sigma.c[i], tol);
            P.m[i][j] += T(0.5) * (x + y);
            P.m[j][i] += T(0.5) * (x - y);
        }
    }
    adj_A = add(adj_A, mul(mul(U, P), transpose(V)));
}

}  // namespace decomp

// ---- forward --------------------------------------------------------------------------------

/// svd3(A, U, sigma, V): see the file comment.
template <typename T>
CUDA_CALLABLE void svd3(const mat_t<3, 3, T>& A, mat_t<3, 3, T>& U, vec_t<3, T>& sigma,
                        mat_t<3, 3, T>& V) {
    mat_t<3, 3, T> B = A;
    V = identity<3, T>();
    // One-sided Jacobi: rotate column pairs of B = A V until they are orthogonal.
    for (int sweep = 0; sweep < 16; ++sweep) {
        bool rotated = false;
        for (int k = 0; k < 3; ++k) {
            int p, q;
            decomp::sweep_pair(k, p, q);
            rotated |= decomp::orthogonalize_cols(B, V, p, q);
        }
        if (!rotated) break;
    }
    T n[3];
    for (int j = 0; j < 3; ++j) n[j] = length(decomp::col(B, j));
    for (int i = 0; i < 2; ++i) {
        for (int j = i + 1; j < 3; ++j) {
            if (n[i] < n[j]) {
                decomp::swap_cols(B, i, j);  // B = A V still holds
                decomp::swap_cols(V, i, j);
                const T t = n[i];
                n[i] = n[j];
                n[j] = t;
            }
        }
    }
    // U from the columns of B, made exactly orthonormal: columns that are zero to working
    // precision (rank-deficient A) get any orthonormal completion, and U is a rotation, so the
    // last singular value carries the sign of det(A).
    const vec_t<3, T> b0 = decomp::col(B, 0), b1 = decomp::col(B, 1), b2 = decomp::col(B, 2);
    const T tol = T(8) * decomp::eps<T>() * n[0];
    vec_t<3, T> u0 = vec_t<3, T>{{T(1), T(0), T(0)}};
    if (n[0] > T(0)) u0 = div(b0, n[0]);
    const vec_t<3, T> r1 = sub(b1, mul(u0, dot(u0, b1)));
    const T l1 = length(r1);
    const vec_t<3, T> u1 = l1 > tol && l1 > T(0) ? div(r1, l1) : decomp::any_orthogonal(u0);
    const vec_t<3, T> u2 = cross(u0, u1);
    decomp::set_col(U, 0, u0);
    decomp::set_col(U, 1, u1);
    decomp::set_col(U, 2, u2);
    const T s1 = dot(u1, b1);
    sigma = vec_t<3, T>{{n[0], s1 > T(0) ? s1 : T(0), dot(u2, b2)}};
}

/// svd2(A, U, sigma, V): A = U diag(sigma) V^T for a 2x2 matrix; U and V orthogonal (V a
/// rotation; U a reflection when det(A) < 0), sigma >= 0 and decreasing.
template <typename T>
CUDA_CALLABLE void svd2(const mat_t<2, 2, T>& A, mat_t<2, 2, T>& U, vec_t<2, T>& sigma,
                        mat_t<2, 2, T>& V) {
    mat_t<2, 2, T> B = A;
    V = identity<2, T>();
    for (int sweep = 0; sweep < 8; ++sweep) {
        if (!decomp::orthogonalize_cols(B, V, 0, 1)) break;
    }
    T n0 = length(decomp::col(B, 0)), n1 = length(decomp::col(B, 1));
    if (n0 < n1) {
        decomp::swap_cols(B, 0, 1);
        decomp::swap_cols(V, 0, 1);
        const T t = n0;
        n0 = n1;
        n1 = t;
    }
    const vec_t<2, T> u0 = n0 > T(0) ? div(decomp::col(B, 0), n0) : vec_t<2, T>{{T(1), T(0)}};
    const vec_t<2, T> u1 =
        n1 > T(0) ? div(decomp::col(B, 1), n1) : vec_t<2, T>{{-u0.c[1], u0.c[0]}};
    decomp::set_col(U, 0, u0);
    decomp::set_col(U, 1, u1);
    sigma = vec_t<2, T>{{n0, n1}};
}

/// qr3(A, Q, R): see the file comment.
template <typename T>
CUDA_CALLABLE void qr3(const mat_t<3, 3, T>& A, mat_t<3, 3, T>& Q, mat_t<3, 3, T>& R) {
    static_assert(is_same_v<T, float32> || is_same_v<T, float64>, "qr3 takes float32 or float64");
    const vec_t<3, T> a0 = decomp::col(A, 0), a1 = decomp::col(A, 1), a2 = decomp::col(A, 2);
    const T n0 = length(a0);
    const vec_t<3, T> q0 = n0 > T(0) ? div(a0, n0) : vec_t<3, T>{{T(1), T(0), T(0)}};
    vec_t<3, T> v = sub(a1, mul(q0, dot(q0, a1)));
    v = sub(v, mul(q0, dot(q0, v)));  // the second pass restores orthogonality
    const T n1 = length(v);
    const vec_t<3, T> q1 = n1 > T(0) ? div(v, n1) : decomp::any_orthogonal(q0);
    const vec_t<3, T> q2 = normalize(cross(q0, q1));
    decomp::set_col(Q, 0, q0);
    decomp::set_col(Q, 1, q1);
    decomp::set_col(Q, 2, q2);
    R = mat_fill<3, 3, T>(T(0));
    R.m[0][0] = n0;
    R.m[0][1] = dot(q0, a1);
    R.m[0][2] = dot(q0, a2);
    R.m[1][1] = n1;
    R.m[1][2] = dot(q1, a2);
    R.m[2][2] = dot(q2, a2);
}

/// eig3(A, Q, d): see the file comment.
template <typename T>
CUDA_CALLABLE void eig3(const mat_t<3, 3, T>& A, mat_t<3, 3, T>& Q, vec_t<3, T>& d) {
    const T e = decomp::eps<T>();
    mat_t<3, 3, T> S;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) S.m[i][j] = (A.m[i][j] + A.m[j][i]) * T(0.5);
    }
    Q = identity<3, T>();
    for (int sweep = 0; sweep < 16; ++sweep) {
        bool rotated = false;
        for (int k = 0; k < 3; ++k) {
            int p, q;
            decomp::sweep_pair(k, p, q);
            const T apq = S.m[p][q];
            if (apq == T(0)) continue;
            if (wp::abs(apq) <= e * T(0.5) * (wp::abs(S.m[p][p]) + wp::abs(S.m[q][q]))) {
                S.m[p][q] = S.m[q][p] = T(0);  // below the diagonal's rounding: converged
                continue;
            }
            rotated = true;
            const T t = decomp::jacobi_tan((S.m[q][q] - S.m[p][p]) / (T(2) * apq));
            const T c = T(1) / wp::sqrt(T(1) + t * t), s = c * t;
            const int r = 3 - p - q;
            const T srp = S.m[r][p], srq = S.m[r][q];
            S.m[p][p] -= t * apq;
            S.m[q][q] += t * apq;
            S.m[p][q] = S.m[q][p] = T(0);
            S.m[r][p] = S.m[p][r] = c * srp - s * srq;
            S.m[r][q] = S.m[q][r] = s * srp + c * srq;
            decomp::rotate_cols(Q, p, q, c, s);
        }
        if (!rotated) break;
    }
    T v[3] = {S.m[0][0], S.m[1][1], S.m[2][2]};
    for (int i = 0; i < 2; ++i) {
        for (int j = i + 1; j < 3; ++j) {
            if (v[j] < v[i]) {
                decomp::swap_cols(Q, i, j);
                const T t = v[i];
                v[i] = v[j];
                v[j] = t;
            }
        }
    }
    d = vec_t<3, T>{{v[0], v[1], v[2]}};
}

// ---- adjoints -------------------------------------------------------------------------------

/// adj_svd3: with J = U^T adj_U, K = V^T adj_V and, for i < j, a = J_ij - J_ji, b = K_ij - K_ji:
/// P_ii = adj_sigma_i, P_ij = ((a+b)/(s_j-s_i) + (a-b)/(s_j+s_i)) / 2,
/// P_ji = ((a+b)/(s_j-s_i) - (a-b)/(s_j+s_i)) / 2; adj_A += U P V^T.
template <typename T>
CUDA_CALLABLE void adj_svd3(const mat_t<3, 3, T>&, const mat_t<3, 3, T>& U,
                            const vec_t<3, T>& sigma, const mat_t<3, 3, T>& V,
                            mat_t<3, 3, T>& adj_A, const mat_t<3, 3, T>& adj_U,
                            const vec_t<3, T>& adj_sigma, const mat_t<3, 3, T>& adj_V) {
    decomp::adj_svd_n(U, sigma, V, adj_A, adj_U, adj_sigma, adj_V);
}

/// adj_svd2: the same formula for 2x2.
template <typename T>
CUDA_CALLABLE void adj_svd2(const mat_t<2, 2, T>&, const mat_t<2, 2, T>& U,
                            const vec_t<2, T>& sigma, const mat_t<2, 2, T>& V,
                            mat_t<2, 2, T>& adj_A, const mat_t<2, 2, T>& adj_U,
                            const vec_t<2, T>& adj_sigma, const mat_t<2, 2, T>& adj_V) {
    decomp::adj_svd_n(U, sigma, V, adj_A, adj_U, adj_sigma, adj_V);
}

/// adj_qr3: with M = R adj_R^T - adj_Q^T Q copied from its lower triangle to the upper one
/// (C), adj_A += (adj_Q + Q C) R^-T (a zero diagonal element of R drops its row's terms).
template <typename T>
CUDA_CALLABLE void adj_qr3(const mat_t<3, 3, T>&, const mat_t<3, 3, T>& Q, const mat_t<3, 3, T>& R,
                           mat_t<3, 3, T>& adj_A, const mat_t<3, 3, T>& adj_Q,
                           const mat_t<3, 3, T>& adj_R) {
    const mat_t<3, 3, T> M = sub(mul(R, transpose(adj_R)), mul(transpose(adj_Q), Q));
    mat_t<3, 3, T> C = M;
    for (int i = 0; i < 3; ++i) {
        for (int j = i + 1; j < 3; ++j) C.m[i][j] = M.m[j][i];
    }
    const mat_t<3, 3, T> X = add(adj_Q, mul(Q, C));
    // Each row y of X R^-T solves R y^T = x^T: back substitution.
    const T tol = T(0);
    for (int r = 0; r < 3; ++r) {
        T y[3];
        for (int i = 2; i >= 0; --i) {
            T acc = X.m[r][i];
            for (int k = i + 1; k < 3; ++k) acc -= R.m[i][k] * y[k];
            y[i] = decomp::gap_div(acc, R.m[i][i], tol);
        }
        for (int i = 0; i < 3; ++i) adj_A.m[r][i] += y[i];
    }
}

/// adj_eig3: with W = Q^T adj_Q, C_ii = adj_d_i, C_ij = W_ij / (d_j - d_i) and G = Q C Q^T,
/// adj_A += (G + G^T) / 2 (the input is symmetrised).
template <typename T>
CUDA_CALLABLE void adj_eig3(const mat_t<3, 3, T>&, const mat_t<3, 3, T>& Q, const vec_t<3, T>& d,
                            mat_t<3, 3, T>& adj_A, const mat_t<3, 3, T>& adj_Q,
                            const vec_t<3, T>& adj_d) {
    const mat_t<3, 3, T> W = mul(transpose(Q), adj_Q);
    T scale = T(0);
    for (int i = 0; i < 3; ++i) scale = wp::abs(d.c[i]) > scale ? wp::abs(d.c[i]) : scale;
    const T tol = T(16) * decomp::eps<T>() * scale;
    mat_t<3, 3, T> C = diag(adj_d);
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            if (i != j) C.m[i][j] = decomp::gap_div(W.m[i][j], d.c[j] - d.c[i], tol);
        }
    }
    const mat_t<3, 3, T> G = mul(mul(Q, C), transpose(Q));
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) adj_A.m[i][j] += T(0.5) * (G.m[i][j] + G.m[j][i]);
    }
}

// ---- float16: computed in float32 -----------------------------------------------------------

namespace decomp {
template <int R, int C>
CUDA_CALLABLE mat_t<R, C, float32> wide(const mat_t<R, C, float16>& m) {
    return mat_cast<float32>(m);
}
template <int N>
CUDA_CALLABLE vec_t<N, float32> wide(const vec_t<N, float16>& v) {
    return vec_cast<float32>(v);
}
template <int R, int C>
CUDA_CALLABLE mat_t<R, C, float16> narrow(const mat_t<R, C, float32>& m) {
    return mat_cast<float16>(m);
}
template <int N>
CUDA_CALLABLE vec_t<N, float16> narrow(const vec_t<N, float32>& v) {
    return vec_cast<float16>(v);
}
}  // namespace decomp

template <int N>
CUDA_CALLABLE void svd_half(const mat_t<N, N, float16>& A, mat_t<N, N, float16>& U,
                            vec_t<N, float16>& sigma, mat_t<N, N, float16>& V) {
    mat_t<N, N, float32> u{}, v{};
    vec_t<N, float32> s{};
    if constexpr (N == 3) {
        svd3(decomp::wide(A), u, s, v);
    } else {
        svd2(decomp::wide(A), u, s, v);
    }
    U = decomp::narrow(u);
    sigma = decomp::narrow(s);
    V = decomp::narrow(v);
}
CUDA_CALLABLE void svd3(const mat_t<3, 3, float16>& A, mat_t<3, 3, float16>& U,
                        vec_t<3, float16>& sigma, mat_t<3, 3, float16>& V) {
    svd_half(A, U, sigma, V);
}
CUDA_CALLABLE void svd2(const mat_t<2, 2, float16>& A, mat_t<2, 2, float16>& U,
                        vec_t<2, float16>& sigma, mat_t<2, 2, float16>& V) {
    svd_half(A, U, sigma, V);
}
CUDA_CALLABLE void qr3(const mat_t<3, 3, float16>& A, mat_t<3, 3, float16>& Q,
                       mat_t<3, 3, float16>& R) {
    mat_t<3, 3, float32> q{}, r{};
    qr3(decomp::wide(A), q, r);
    Q = decomp::narrow(q);
    R = decomp::narrow(r);
}
CUDA_CALLABLE void eig3(const mat_t<3, 3, float16>& A, mat_t<3, 3, float16>& Q,
                        vec_t<3, float16>& d) {
    mat_t<3, 3, float32> q{};
    vec_t<3, float32> e{};
    eig3(decomp::wide(A), q, e);
    Q = decomp::narrow(q);
    d = decomp::narrow(e);
}

template <int N>
CUDA_CALLABLE void adj_svd_half(const mat_t<N, N, float16>& A, const mat_t<N, N, float16>& U,
                                const vec_t<N, float16>& sigma, const mat_t<N, N, float16>& V,
                                mat_t<N, N, float16>& adj_A, const mat_t<N, N, float16>& adj_U,
                                const vec_t<N, float16>& adj_sigma,
                                const mat_t<N, N, float16>& adj_V) {
    mat_t<N, N, float32> g{};
    if constexpr (N == 3) {
        adj_svd3(decomp::wide(A), decomp::wide(U), decomp::wide(sigma), decomp::wide(V), g,
                 decomp::wide(adj_U), decomp::wide(adj_sigma), decomp::wide(adj_V));
    } else {
        adj_svd2(decomp::wide(A), decomp::wide(U), decomp::wide(sigma), decomp::wide(V), g,
                 decomp::wide(adj_U), decomp::wide(adj_sigma), decomp::wide(adj_V));
    }
    adj_A = decomp::narrow(add(decomp::wide(adj_A), g));
}
CUDA_CALLABLE void adj_svd3(const mat_t<3, 3, float16>& A, const mat_t<3, 3, float16>& U,
                            const vec_t<3, float16>& sigma, const mat_t<3, 3, float16>& V,
                            mat_t<3, 3, float16>& adj_A, const mat_t<3, 3, float16>& adj_U,
                            const vec_t<3, float16>& adj_sigma, const mat_t<3, 3, float16>& adj_V) {
    adj_svd_half(A, U, sigma, V, adj_A, adj_U, adj_sigma, adj_V);
}
CUDA_CALLABLE void adj_svd2(const mat_t<2, 2, float16>& A, const mat_t<2, 2, float16>& U,
                            const vec_t<2, float16>& sigma, const mat_t<2, 2, float16>& V,
                            mat_t<2, 2, float16>& adj_A, const mat_t<2, 2, float16>& adj_U,
                            const vec_t<2, float16>& adj_sigma, const mat_t<2, 2, float16>& adj_V) {
    adj_svd_half(A, U, sigma, V, adj_A, adj_U, adj_sigma, adj_V);
}
CUDA_CALLABLE void adj_qr3(const mat_t<3, 3, float16>& A, const mat_t<3, 3, float16>& Q,
                           const mat_t<3, 3, float16>& R, mat_t<3, 3, float16>& adj_A,
                           const mat_t<3, 3, float16>& adj_Q, const mat_t<3, 3, float16>& adj_R) {
    mat_t<3, 3, float32> g{};
    adj_qr3(decomp::wide(A), decomp::wide(Q), decomp::wide(R), g, decomp::wide(adj_Q),
            decomp::wide(adj_R));
    adj_A = decomp::narrow(add(decomp::wide(adj_A), g));
}
CUDA_CALLABLE void adj_eig3(const mat_t<3, 3, float16>& A, const mat_t<3, 3, float16>& Q,
                            const vec_t<3, float16>& d, mat_t<3, 3, float16>& adj_A,
                            const mat_t<3, 3, float16>& adj_Q, const vec_t<3, float16>& adj_d) {
    mat_t<3, 3, float32> g{};
    adj_eig3(decomp::wide(A), decomp::wide(Q), decomp::wide(d), g, decomp::wide(adj_Q),
             decomp::wide(adj_d));
    adj_A = decomp::narrow(add(decomp::wide(adj_A), g));
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
