// native/treadle/mat.h -- mat_t<R, C, T>: row-major matrices, their builtins, adjoints, atomics
//
// mat_t is plain data, row-major: `wp::mat_t<2, 2, float>{{{a, b}, {c, d}}}` has rows (a, b)
// and (c, d). Builtins take matrices by value and follow vec.h's rules: scalar builtins per
// element (integers wrap, float16 computes in float32), indices outside the matrix read as
// zero and writes to them are ignored, adjoints add (+=) and are no-ops for integer T.
// determinant/inverse live in mat_inverse.h, included at the end of this file.
#pragma once

#include "vec.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// mat_t<R, C, T>: R rows of C elements of scalar type T; m[i][j] is row i, column j. A matrix
/// of no elements (an empty slice) stores one unused element; builtins loop over R and C.
template <int R, int C, typename T>
struct mat_t {
    static_assert(R >= 0 && C >= 0, "mat_t cannot have a negative shape");
    T m[R > 0 ? R : 1][C > 0 ? C : 1];

    mat_t() = default;
    /// From the rows as nested braced lists (`mat_t<2, 2, float>{{{a, b}, {c, d}}}`).
    CUDA_CALLABLE mat_t(const T (&v)[R > 0 ? R : 1][C > 0 ? C : 1]) {
        for (int i = 0; i < R; ++i)
            for (int j = 0; j < C; ++j) m[i][j] = v[i][j];
    }
    /// From R * C elements in row-major order (`wp::mat_t<2, 2, float>(a, b, c, d)`).
    template <typename... Ts, typename = enable_if_t<(sizeof...(Ts) == R * C && R * C > 0)>>
    CUDA_CALLABLE mat_t(Ts... xs) {
        const T v[R * C] = {T(xs)...};
        for (int i = 0; i < R * C; ++i) m[i / C][i % C] = v[i];
    }
    /// Every element `s` (a number: a braced list is the rows).
    template <typename S, typename = enable_if_t<(R * C > 1 && is_number_v<S>)>>
    CUDA_CALLABLE explicit mat_t(S s) {
        for (int i = 0; i < R; ++i)
            for (int j = 0; j < C; ++j) m[i][j] = T(s);
    }
};

/// Short names for the common matrix types.
using mat22 = mat_t<2, 2, float32>;
using mat33 = mat_t<3, 3, float32>;
using mat44 = mat_t<4, 4, float32>;
using mat22f = mat22;
using mat33f = mat33;
using mat44f = mat44;
using mat22d = mat_t<2, 2, float64>;
using mat33d = mat_t<3, 3, float64>;
using mat44d = mat_t<4, 4, float64>;

// ---- construction ---------------------------------------------------------------------------

/// mat_fill<R, C, T>(s): every element s. identity<N, T>(): the N x N identity.
template <int R, int C, typename T>
CUDA_CALLABLE mat_t<R, C, T> mat_fill(type_identity_t<T> s) {
    mat_t<R, C, T> r{};
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) r.m[i][j] = s;
    }
    return r;
}
template <int N, typename T>
CUDA_CALLABLE mat_t<N, N, T> identity() {
    mat_t<N, N, T> r = mat_fill<N, N, T>(T(0));
    for (int i = 0; i < N; ++i) r.m[i][i] = T(1);
    return r;
}

/// diag(v): the square matrix with v on the diagonal and zeros elsewhere.
template <int N, typename T>
CUDA_CALLABLE mat_t<N, N, T> diag(vec_t<N, T> v) {
    mat_t<N, N, T> r = mat_fill<N, N, T>(T(0));
    for (int i = 0; i < N; ++i) r.m[i][i] = v.c[i];
    return r;
}

/// row(a, i) / set_row(a, i, v): row i as a vector / overwritten (unchecked helpers).
template <int R, int C, typename T>
CUDA_CALLABLE vec_t<C, T> row(const mat_t<R, C, T>& a, int i) {
    vec_t<C, T> r{};
    for (int j = 0; j < C; ++j) r.c[j] = a.m[i][j];
    return r;
}
template <int R, int C, typename T>
CUDA_CALLABLE void set_row(mat_t<R, C, T>& a, int i, const vec_t<C, T>& v) {
    for (int j = 0; j < C; ++j) a.m[i][j] = v.c[j];
}

/// mat_from_rows(r0, r1, ...): the matrix with the given 1 to 4 rows (vectors of C
/// elements). mat_from_cols(c0, c1, ...): the matrix with the given 1 to 4 columns.
template <int C, typename T>
CUDA_CALLABLE mat_t<1, C, T> mat_from_rows(vec_t<C, T> r0) {
    mat_t<1, C, T> r{};
    for (int j = 0; j < C; ++j) r.m[0][j] = r0.c[j];
    return r;
}
template <int R, typename T>
CUDA_CALLABLE mat_t<R, 1, T> mat_from_cols(vec_t<R, T> c0) {
    mat_t<R, 1, T> r{};
    for (int i = 0; i < R; ++i) r.m[i][0] = c0.c[i];
    return r;
}
template <int C, typename T>
CUDA_CALLABLE mat_t<2, C, T> mat_from_rows(vec_t<C, T> r0, vec_t<C, T> r1) {
    const vec_t<C, T> v[2] = {r0, r1};
    mat_t<2, C, T> r{};
    for (int i = 0; i < 2; ++i) set_row(r, i, v[i]);
    return r;
}
template <int C, typename T>
CUDA_CALLABLE mat_t<3, C, T> mat_from_rows(vec_t<C, T> r0, vec_t<C, T> r1, vec_t<C, T> r2) {
    const vec_t<C, T> v[3] = {r0, r1, r2};
    mat_t<3, C, T> r{};
    for (int i = 0; i < 3; ++i) set_row(r, i, v[i]);
    return r;
}
template <int C, typename T>
CUDA_CALLABLE mat_t<4, C, T> mat_from_rows(vec_t<C, T> r0, vec_t<C, T> r1, vec_t<C, T> r2,
                                           vec_t<C, T> r3) {
    const vec_t<C, T> v[4] = {r0, r1, r2, r3};
    mat_t<4, C, T> r{};
    for (int i = 0; i < 4; ++i) set_row(r, i, v[i]);
    return r;
}
template <int R, typename T>
CUDA_CALLABLE mat_t<R, 2, T> mat_from_cols(vec_t<R, T> c0, vec_t<R, T> c1) {
    mat_t<R, 2, T> r{};
    for (int i = 0; i < R; ++i) {
        r.m[i][0] = c0.c[i];
        r.m[i][1] = c1.c[i];
    }
    return r;
}
template <int R, typename T>
CUDA_CALLABLE mat_t<R, 3, T> mat_from_cols(vec_t<R, T> c0, vec_t<R, T> c1, vec_t<R, T> c2) {
    mat_t<R, 3, T> r{};
    for (int i = 0; i < R; ++i) {
        r.m[i][0] = c0.c[i];
        r.m[i][1] = c1.c[i];
        r.m[i][2] = c2.c[i];
    }
    return r;
}
template <int R, typename T>
CUDA_CALLABLE mat_t<R, 4, T> mat_from_cols(vec_t<R, T> c0, vec_t<R, T> c1, vec_t<R, T> c2,
                                           vec_t<R, T> c3) {
    mat_t<R, 4, T> r{};
    for (int i = 0; i < R; ++i) {
        r.m[i][0] = c0.c[i];
        r.m[i][1] = c1.c[i];
        r.m[i][2] = c2.c[i];
        r.m[i][3] = c3.c[i];
    }
    return r;
}

/// mat_cast<T>(m): m with every element converted by cast<T> (Warp's mat33d(m)).
template <typename T, int R, int C, typename U>
CUDA_CALLABLE mat_t<R, C, T> mat_cast(const mat_t<R, C, U>& m) {
    mat_t<R, C, T> r{};
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) r.m[i][j] = cast<T>(m.m[i][j]);
    }
    return r;
}

/// adj_mat_cast<T>(m, adj_m, adj_ret): adj_cast per element.
template <typename T, int R, int C, typename U>
CUDA_CALLABLE void adj_mat_cast(const mat_t<R, C, U>& m, mat_t<R, C, U>& adj_m,
                                const mat_t<R, C, T>& adj_ret) {
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) adj_cast<T>(m.m[i][j], adj_m.m[i][j], adj_ret.m[i][j]);
    }
}

// ---- element access -------------------------------------------------------------------------

/// extract(a, i): row i as a vector (zero vector when i is outside [0, R)).
/// extract(a, i, j): element (i, j) (zero when outside the matrix).
template <int R, int C, typename T>
CUDA_CALLABLE vec_t<C, T> extract(const mat_t<R, C, T>& a, int32 i) {
    if (i >= 0 && i < R) return row(a, i);
    return vec_fill<C, T>(T(0));
}
template <int R, int C, typename T>
CUDA_CALLABLE T extract(const mat_t<R, C, T>& a, int32 i, int32 j) {
    return (i >= 0 && i < R && j >= 0 && j < C) ? a.m[i][j] : T(0);
}

/// with_component(a, i, j, s): a copy of a with element (i, j) set to s. with_row(a, i, v): a
/// copy with row i set to v. Out-of-range indices return a unchanged.
template <int R, int C, typename T>
CUDA_CALLABLE mat_t<R, C, T> with_component(mat_t<R, C, T> a, int32 i, int32 j,
                                            type_identity_t<T> s) {
    if (i >= 0 && i < R && j >= 0 && j < C) a.m[i][j] = s;
    return a;
}
template <int R, int C, typename T>
CUDA_CALLABLE mat_t<R, C, T> with_row(mat_t<R, C, T> a, int32 i, vec_t<C, T> v) {
    if (i >= 0 && i < R) set_row(a, i, v);
    return a;
}

// ---- arithmetic -----------------------------------------------------------------------------

/// add/sub/cw_mul/cw_div(a, b): elementwise, with the scalar rules.
#define WP_MAT_ELEMENTWISE2(name, scalar_op)                                         \
    template <int R, int C, typename T>                                              \
    CUDA_CALLABLE mat_t<R, C, T> name(mat_t<R, C, T> a, mat_t<R, C, T> b) {          \
        for (int i = 0; i < R; ++i) {                                                \
            for (int j = 0; j < C; ++j) a.m[i][j] = scalar_op(a.m[i][j], b.m[i][j]); \
        }                                                                            \
        return a;                                                                    \
    }
WP_MAT_ELEMENTWISE2(add, add)
WP_MAT_ELEMENTWISE2(sub, sub)
WP_MAT_ELEMENTWISE2(cw_mul, mul)
WP_MAT_ELEMENTWISE2(cw_div, div)
#undef WP_MAT_ELEMENTWISE2

/// mul(a, s) / mul(s, a): every element times s. div(a, s): every element divided by s.
template <int R, int C, typename T>
CUDA_CALLABLE mat_t<R, C, T> mul(mat_t<R, C, T> a, type_identity_t<T> s) {
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) a.m[i][j] = mul(a.m[i][j], s);
    }
    return a;
}
template <int R, int C, typename T>
CUDA_CALLABLE mat_t<R, C, T> mul(type_identity_t<T> s, mat_t<R, C, T> a) {
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) a.m[i][j] = mul(s, a.m[i][j]);
    }
    return a;
}
template <int R, int C, typename T>
CUDA_CALLABLE mat_t<R, C, T> div(mat_t<R, C, T> a, type_identity_t<T> s) {
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) a.m[i][j] = div(a.m[i][j], s);
    }
    return a;
}
/// div(s, a): the scalar s divided by every element (Warp's s / m).
template <int R, int C, typename T>
CUDA_CALLABLE mat_t<R, C, T> div(type_identity_t<T> s, mat_t<R, C, T> a) {
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) a.m[i][j] = div(s, a.m[i][j]);
    }
    return a;
}

/// isnan/isinf: some element is NaN / infinite; isfinite: every element is finite.
template <int R, int C, typename T>
CUDA_CALLABLE bool isnan(const mat_t<R, C, T>& a) {
    for (int i = 0; i < R; ++i)
        for (int j = 0; j < C; ++j)
            if (isnan(a.m[i][j])) return true;
    return false;
}
template <int R, int C, typename T>
CUDA_CALLABLE bool isinf(const mat_t<R, C, T>& a) {
    for (int i = 0; i < R; ++i)
        for (int j = 0; j < C; ++j)
            if (isinf(a.m[i][j])) return true;
    return false;
}
template <int R, int C, typename T>
CUDA_CALLABLE bool isfinite(const mat_t<R, C, T>& a) {
    for (int i = 0; i < R; ++i)
        for (int j = 0; j < C; ++j)
            if (!isfinite(a.m[i][j])) return false;
    return true;
}

/// neg(a) / pos(a): -a / a.
template <int R, int C, typename T>
CUDA_CALLABLE mat_t<R, C, T> neg(mat_t<R, C, T> a) {
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) a.m[i][j] = neg(a.m[i][j]);
    }
    return a;
}
template <int R, int C, typename T>
CUDA_CALLABLE mat_t<R, C, T> pos(mat_t<R, C, T> a) {
    return a;
}

/// mul(a, v): matrix times column vector (R x C times C -> R).
/// mul(v, a): row vector times matrix (R times R x C -> C).
template <int R, int C, typename T>
CUDA_CALLABLE vec_t<R, T> mul(mat_t<R, C, T> a, vec_t<C, T> v) {
    vec_t<R, T> r{};
    for (int i = 0; i < R; ++i) {
        T s = mul(a.m[i][0], v.c[0]);
        for (int j = 1; j < C; ++j) s = add(s, mul(a.m[i][j], v.c[j]));
        r.c[i] = s;
    }
    return r;
}
template <int R, int C, typename T>
CUDA_CALLABLE vec_t<C, T> mul(vec_t<R, T> v, mat_t<R, C, T> a) {
    vec_t<C, T> r{};
    for (int j = 0; j < C; ++j) {
        T s = mul(v.c[0], a.m[0][j]);
        for (int i = 1; i < R; ++i) s = add(s, mul(v.c[i], a.m[i][j]));
        r.c[j] = s;
    }
    return r;
}

/// mul(a, b): matrix product (R x K times K x C -> R x C). The square overload only exists to
/// be more specialized than scalar.h's mul(T, T) when both operands have one type.
template <int R, int K, int C, typename T>
CUDA_CALLABLE mat_t<R, C, T> mul(mat_t<R, K, T> a, mat_t<K, C, T> b) {
    mat_t<R, C, T> r{};
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) {
            T s = mul(a.m[i][0], b.m[0][j]);
            for (int k = 1; k < K; ++k) s = add(s, mul(a.m[i][k], b.m[k][j]));
            r.m[i][j] = s;
        }
    }
    return r;
}
template <int N, typename T>
CUDA_CALLABLE mat_t<N, N, T> mul(mat_t<N, N, T> a, mat_t<N, N, T> b) {
    return mul<N, N, N, T>(a, b);
}

/// a == b: every element equal (NaN never equal); a != b: !(a == b).
template <int R, int C, typename T>
CUDA_CALLABLE bool operator==(const mat_t<R, C, T>& a, const mat_t<R, C, T>& b) {
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) {
            if (!(a.m[i][j] == b.m[i][j])) return false;
        }
    }
    return true;
}
template <int R, int C, typename T>
CUDA_CALLABLE bool operator!=(const mat_t<R, C, T>& a, const mat_t<R, C, T>& b) {
    return !(a == b);
}

// ---- matrix math ----------------------------------------------------------------------------

/// outer(a, b): the R x C matrix a b^T (element (i, j) = a[i] * b[j]).
template <int R, int C, typename T>
CUDA_CALLABLE mat_t<R, C, T> outer(vec_t<R, T> a, vec_t<C, T> b) {
    mat_t<R, C, T> r{};
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) r.m[i][j] = mul(a.c[i], b.c[j]);
    }
    return r;
}

/// transpose(a): the C x R matrix with element (j, i) = a(i, j).
template <int R, int C, typename T>
CUDA_CALLABLE mat_t<C, R, T> transpose(const mat_t<R, C, T>& a) {
    mat_t<C, R, T> r{};
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) r.m[j][i] = a.m[i][j];
    }
    return r;
}

/// trace(a): sum of the diagonal of a square matrix.
template <int N, typename T>
CUDA_CALLABLE T trace(const mat_t<N, N, T>& a) {
    T s = a.m[0][0];
    for (int i = 1; i < N; ++i) s = add(s, a.m[i][i]);
    return s;
}

/// ddot(a, b): the double contraction, sum over i, j of a(i, j) * b(i, j).
template <int R, int C, typename T>
CUDA_CALLABLE T ddot(const mat_t<R, C, T>& a, const mat_t<R, C, T>& b) {
    T s = T(0);
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) s = add(s, mul(a.m[i][j], b.m[i][j]));
    }
    return s;
}

/// skew(v): the 3 x 3 cross-product matrix, skew(v) * w == cross(v, w).
template <typename T>
CUDA_CALLABLE mat_t<3, 3, T> skew(vec_t<3, T> v) {
    const T z = T(0);
    return mat_t<3, 3, T>{
        {{z, neg(v.c[2]), v.c[1]}, {v.c[2], z, neg(v.c[0])}, {neg(v.c[1]), v.c[0], z}}};
}

// ---- adjoints -------------------------------------------------------------------------------

/// adj_mat_fill(s, adj_s, adj_ret): adj_s += sum of adj_ret. adj_identity: no inputs, no-op.
template <int R, int C, typename T>
CUDA_CALLABLE void adj_mat_fill(T, T& adj_s, const mat_t<R, C, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) adj_s += adj_ret.m[i][j];
    }
}
template <int N, typename T>
CUDA_CALLABLE void adj_identity(const mat_t<N, N, T>&) {}

/// adj_diag: adj_v[i] += adj_ret(i, i).
template <int N, typename T>
CUDA_CALLABLE void adj_diag(const vec_t<N, T>&, vec_t<N, T>& adj_v, const mat_t<N, N, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < N; ++i) adj_v.c[i] += adj_ret.m[i][i];
}

/// adj_mat_from_rows(r0, ..., adj_r0, ..., adj_ret): adj_rk += row k of adj_ret.
/// adj_mat_from_cols(c0, ..., adj_c0, ..., adj_ret): adj_ck += column k of adj_ret.
template <int R, int C, typename T>
CUDA_CALLABLE void adj_rows_into(const mat_t<R, C, T>& adj_ret, vec_t<C, T>* const* adj) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) adj[i]->c[j] += adj_ret.m[i][j];
    }
}
template <int R, int C, typename T>
CUDA_CALLABLE void adj_cols_into(const mat_t<R, C, T>& adj_ret, vec_t<R, T>* const* adj) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) adj[j]->c[i] += adj_ret.m[i][j];
    }
}
template <int C, typename T>
CUDA_CALLABLE void adj_mat_from_rows(const vec_t<C, T>&, vec_t<C, T>& a0,
                                     const mat_t<1, C, T>& adj_ret) {
    vec_t<C, T>* const adj[1] = {&a0};
    adj_rows_into(adj_ret, adj);
}
template <int R, typename T>
CUDA_CALLABLE void adj_mat_from_cols(const vec_t<R, T>&, vec_t<R, T>& a0,
                                     const mat_t<R, 1, T>& adj_ret) {
    vec_t<R, T>* const adj[1] = {&a0};
    adj_cols_into(adj_ret, adj);
}
template <int C, typename T>
CUDA_CALLABLE void adj_mat_from_rows(const vec_t<C, T>&, const vec_t<C, T>&, vec_t<C, T>& a0,
                                     vec_t<C, T>& a1, const mat_t<2, C, T>& adj_ret) {
    vec_t<C, T>* const adj[2] = {&a0, &a1};
    adj_rows_into(adj_ret, adj);
}
template <int C, typename T>
CUDA_CALLABLE void adj_mat_from_rows(const vec_t<C, T>&, const vec_t<C, T>&, const vec_t<C, T>&,
                                     vec_t<C, T>& a0, vec_t<C, T>& a1, vec_t<C, T>& a2,
                                     const mat_t<3, C, T>& adj_ret) {
    vec_t<C, T>* const adj[3] = {&a0, &a1, &a2};
    adj_rows_into(adj_ret, adj);
}
template <int C, typename T>
CUDA_CALLABLE void adj_mat_from_rows(const vec_t<C, T>&, const vec_t<C, T>&, const vec_t<C, T>&,
                                     const vec_t<C, T>&, vec_t<C, T>& a0, vec_t<C, T>& a1,
                                     vec_t<C, T>& a2, vec_t<C, T>& a3,
                                     const mat_t<4, C, T>& adj_ret) {
    vec_t<C, T>* const adj[4] = {&a0, &a1, &a2, &a3};
    adj_rows_into(adj_ret, adj);
}
template <int R, typename T>
CUDA_CALLABLE void adj_mat_from_cols(const vec_t<R, T>&, const vec_t<R, T>&, vec_t<R, T>& a0,
                                     vec_t<R, T>& a1, const mat_t<R, 2, T>& adj_ret) {
    vec_t<R, T>* const adj[2] = {&a0, &a1};
    adj_cols_into(adj_ret, adj);
}
template <int R, typename T>
CUDA_CALLABLE void adj_mat_from_cols(const vec_t<R, T>&, const vec_t<R, T>&, const vec_t<R, T>&,
                                     vec_t<R, T>& a0, vec_t<R, T>& a1, vec_t<R, T>& a2,
                                     const mat_t<R, 3, T>& adj_ret) {
    vec_t<R, T>* const adj[3] = {&a0, &a1, &a2};
    adj_cols_into(adj_ret, adj);
}
template <int R, typename T>
CUDA_CALLABLE void adj_mat_from_cols(const vec_t<R, T>&, const vec_t<R, T>&, const vec_t<R, T>&,
                                     const vec_t<R, T>&, vec_t<R, T>& a0, vec_t<R, T>& a1,
                                     vec_t<R, T>& a2, vec_t<R, T>& a3,
                                     const mat_t<R, 4, T>& adj_ret) {
    vec_t<R, T>* const adj[4] = {&a0, &a1, &a2, &a3};
    adj_cols_into(adj_ret, adj);
}

/// adj_extract(a, i, ...): row i of adj_a += adj_ret; adj_extract(a, i, j, ...): element
/// (i, j) of adj_a += adj_ret. Nothing for out-of-range indices.
template <int R, int C, typename T>
CUDA_CALLABLE void adj_extract(const mat_t<R, C, T>&, int32 i, mat_t<R, C, T>& adj_a, int32&,
                               const vec_t<C, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    if (i < 0 || i >= R) return;
    for (int j = 0; j < C; ++j) adj_a.m[i][j] += adj_ret.c[j];
}
template <int R, int C, typename T>
CUDA_CALLABLE void adj_extract(const mat_t<R, C, T>&, int32 i, int32 j, mat_t<R, C, T>& adj_a,
                               int32&, int32&, T adj_ret) {
    if constexpr (is_int_v<T>) return;
    if (i >= 0 && i < R && j >= 0 && j < C) adj_a.m[i][j] += adj_ret;
}

/// adj_with_component / adj_with_row: the replaced element / row of adj_ret goes to adj_s /
/// adj_v, the rest to adj_a (all of it for out-of-range indices).
template <int R, int C, typename T>
CUDA_CALLABLE void adj_with_component(const mat_t<R, C, T>&, int32 i, int32 j, T,
                                      mat_t<R, C, T>& adj_a, int32&, int32&, T& adj_s,
                                      const mat_t<R, C, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int r = 0; r < R; ++r) {
        for (int c = 0; c < C; ++c) {
            if (r == i && c == j) {
                adj_s += adj_ret.m[r][c];
            } else {
                adj_a.m[r][c] += adj_ret.m[r][c];
            }
        }
    }
}
template <int R, int C, typename T>
CUDA_CALLABLE void adj_with_row(const mat_t<R, C, T>&, int32 i, const vec_t<C, T>&,
                                mat_t<R, C, T>& adj_a, int32&, vec_t<C, T>& adj_v,
                                const mat_t<R, C, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int r = 0; r < R; ++r) {
        for (int c = 0; c < C; ++c) {
            if (r == i) {
                adj_v.c[c] += adj_ret.m[r][c];
            } else {
                adj_a.m[r][c] += adj_ret.m[r][c];
            }
        }
    }
}

/// adj_add/adj_sub/adj_neg/adj_pos/adj_cw_mul/adj_cw_div: as for vectors, elementwise.
#define WP_MAT_ADJ2(name, body)                                               \
    template <int R, int C, typename T>                                       \
    CUDA_CALLABLE void name(const mat_t<R, C, T>& a, const mat_t<R, C, T>& b, \
                            mat_t<R, C, T>& adj_a, mat_t<R, C, T>& adj_b,     \
                            const mat_t<R, C, T>& adj_ret) {                  \
        if constexpr (is_int_v<T>) return;                                    \
        for (int i = 0; i < R; ++i) {                                         \
            for (int j = 0; j < C; ++j) {                                     \
                const T av = a.m[i][j], bv = b.m[i][j], g = adj_ret.m[i][j];  \
                body;                                                         \
            }                                                                 \
        }                                                                     \
    }
WP_MAT_ADJ2(adj_add, (void)av; (void)bv; adj_a.m[i][j] += g; adj_b.m[i][j] += g)
WP_MAT_ADJ2(adj_sub, (void)av; (void)bv; adj_a.m[i][j] += g; adj_b.m[i][j] -= g)
WP_MAT_ADJ2(adj_cw_mul, adj_a.m[i][j] += bv * g; adj_b.m[i][j] += av * g)
WP_MAT_ADJ2(adj_cw_div, adj_a.m[i][j] += g / bv; adj_b.m[i][j] -= g * (av / bv) / bv)
#undef WP_MAT_ADJ2

template <int R, int C, typename T>
CUDA_CALLABLE void adj_neg(const mat_t<R, C, T>&, mat_t<R, C, T>& adj_a,
                           const mat_t<R, C, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) adj_a.m[i][j] -= adj_ret.m[i][j];
    }
}
template <int R, int C, typename T>
CUDA_CALLABLE void adj_pos(const mat_t<R, C, T>&, mat_t<R, C, T>& adj_a,
                           const mat_t<R, C, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) adj_a.m[i][j] += adj_ret.m[i][j];
    }
}

/// adj_mul(a, s) / adj_mul(s, a): adj_a += s adj_ret, adj_s += ddot(a, adj_ret).
/// adj_div(a, s): adj_a += adj_ret / s, adj_s -= ddot(a, adj_ret) / s^2.
template <int R, int C, typename T>
CUDA_CALLABLE void adj_mul(const mat_t<R, C, T>& a, T s, mat_t<R, C, T>& adj_a, T& adj_s,
                           const mat_t<R, C, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) adj_a.m[i][j] += s * adj_ret.m[i][j];
    }
    adj_s += ddot(a, adj_ret);
}
template <int R, int C, typename T>
CUDA_CALLABLE void adj_mul(T s, const mat_t<R, C, T>& a, T& adj_s, mat_t<R, C, T>& adj_a,
                           const mat_t<R, C, T>& adj_ret) {
    adj_mul(a, s, adj_a, adj_s, adj_ret);
}
template <int R, int C, typename T>
CUDA_CALLABLE void adj_div(const mat_t<R, C, T>& a, T s, mat_t<R, C, T>& adj_a, T& adj_s,
                           const mat_t<R, C, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) adj_a.m[i][j] += adj_ret.m[i][j] / s;
    }
    adj_s -= ddot(a, adj_ret) / s / s;
}
/// adj_div(s, a): the vector rule (vec.h) per element.
template <int R, int C, typename T>
CUDA_CALLABLE void adj_div(T s, const mat_t<R, C, T>& a, T& adj_s, mat_t<R, C, T>& adj_a,
                           const mat_t<R, C, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) {
            adj_s += adj_ret.m[i][j] / a.m[i][j];
            adj_a.m[i][j] -= s / a.m[i][j] / a.m[i][j] * adj_ret.m[i][j];
        }
    }
}

/// adj_mul(a, v) (matrix-vector): adj_a += outer(adj_ret, v), adj_v += adj_ret^T a.
/// adj_mul(v, a) (vector-matrix): adj_v += a adj_ret, adj_a += outer(v, adj_ret).
template <int R, int C, typename T>
CUDA_CALLABLE void adj_mul(const mat_t<R, C, T>& a, const vec_t<C, T>& v, mat_t<R, C, T>& adj_a,
                           vec_t<C, T>& adj_v, const vec_t<R, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) {
            adj_a.m[i][j] += adj_ret.c[i] * v.c[j];
            adj_v.c[j] += a.m[i][j] * adj_ret.c[i];
        }
    }
}
template <int R, int C, typename T>
CUDA_CALLABLE void adj_mul(const vec_t<R, T>& v, const mat_t<R, C, T>& a, vec_t<R, T>& adj_v,
                           mat_t<R, C, T>& adj_a, const vec_t<C, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) {
            adj_v.c[i] += a.m[i][j] * adj_ret.c[j];
            adj_a.m[i][j] += v.c[i] * adj_ret.c[j];
        }
    }
}

/// adj_mul(a, b) (matrix product): adj_a += adj_ret b^T, adj_b += a^T adj_ret.
template <int R, int K, int C, typename T>
CUDA_CALLABLE void adj_mul(const mat_t<R, K, T>& a, const mat_t<K, C, T>& b, mat_t<R, K, T>& adj_a,
                           mat_t<K, C, T>& adj_b, const mat_t<R, C, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) {
            const T g = adj_ret.m[i][j];
            for (int k = 0; k < K; ++k) {
                adj_a.m[i][k] += g * b.m[k][j];
                adj_b.m[k][j] += a.m[i][k] * g;
            }
        }
    }
}
template <int N, typename T>
CUDA_CALLABLE void adj_mul(const mat_t<N, N, T>& a, const mat_t<N, N, T>& b, mat_t<N, N, T>& adj_a,
                           mat_t<N, N, T>& adj_b, const mat_t<N, N, T>& adj_ret) {
    adj_mul<N, N, N, T>(a, b, adj_a, adj_b, adj_ret);
}

/// adj_outer: adj_a += adj_ret b, adj_b += adj_ret^T a.
template <int R, int C, typename T>
CUDA_CALLABLE void adj_outer(const vec_t<R, T>& a, const vec_t<C, T>& b, vec_t<R, T>& adj_a,
                             vec_t<C, T>& adj_b, const mat_t<R, C, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) {
            adj_a.c[i] += adj_ret.m[i][j] * b.c[j];
            adj_b.c[j] += adj_ret.m[i][j] * a.c[i];
        }
    }
}

/// adj_transpose: adj_a += adj_ret^T. adj_trace: adj_a(i, i) += adj_ret.
template <int R, int C, typename T>
CUDA_CALLABLE void adj_transpose(const mat_t<R, C, T>&, mat_t<R, C, T>& adj_a,
                                 const mat_t<C, R, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) adj_a.m[i][j] += adj_ret.m[j][i];
    }
}
template <int N, typename T>
CUDA_CALLABLE void adj_trace(const mat_t<N, N, T>&, mat_t<N, N, T>& adj_a, T adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < N; ++i) adj_a.m[i][i] += adj_ret;
}

/// adj_ddot: adj_a += b adj_ret, adj_b += a adj_ret.
template <int R, int C, typename T>
CUDA_CALLABLE void adj_ddot(const mat_t<R, C, T>& a, const mat_t<R, C, T>& b, mat_t<R, C, T>& adj_a,
                            mat_t<R, C, T>& adj_b, T adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) {
            adj_a.m[i][j] += b.m[i][j] * adj_ret;
            adj_b.m[i][j] += a.m[i][j] * adj_ret;
        }
    }
}

/// adj_skew: the inverse of skew's linear map applied to adj_ret.
template <typename T>
CUDA_CALLABLE void adj_skew(const vec_t<3, T>&, vec_t<3, T>& adj_v, const mat_t<3, 3, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    adj_v.c[0] += adj_ret.m[2][1] - adj_ret.m[1][2];
    adj_v.c[1] += adj_ret.m[0][2] - adj_ret.m[2][0];
    adj_v.c[2] += adj_ret.m[1][0] - adj_ret.m[0][1];
}

// ---- atomics --------------------------------------------------------------------------------

/// atomic_add/sub/min/max/and/or/xor on matrix elements: (ptr, v) and
/// (array, i..., v) with 1-4 indices; per-element atomics, returning the old matrix (see
/// atomic_rmw_n in vec.h: not one atomic snapshot).
#define WP_MAT_ATOMIC_FAMILY(name, op)                                                             \
    template <int R, int C, typename T>                                                            \
    CUDA_CALLABLE mat_t<R, C, T> name(mat_t<R, C, T>* ptr, mat_t<R, C, T> v) {                     \
        mat_t<R, C, T> old{};                                                                      \
        atomic_rmw_n<op>(&ptr->m[0][0], &v.m[0][0], &old.m[0][0], R * C);                          \
        return old;                                                                                \
    }                                                                                              \
    template <int R, int C, typename T>                                                            \
    CUDA_CALLABLE mat_t<R, C, T> name(const array_t<mat_t<R, C, T>>& a, int32 i,                   \
                                      mat_t<R, C, T> v) {                                          \
        return name(address(a, i), v);                                                             \
    }                                                                                              \
    template <int R, int C, typename T>                                                            \
    CUDA_CALLABLE mat_t<R, C, T> name(const array_t<mat_t<R, C, T>>& a, int32 i, int32 j,          \
                                      mat_t<R, C, T> v) {                                          \
        return name(address(a, i, j), v);                                                          \
    }                                                                                              \
    template <int R, int C, typename T>                                                            \
    CUDA_CALLABLE mat_t<R, C, T> name(const array_t<mat_t<R, C, T>>& a, int32 i, int32 j, int32 k, \
                                      mat_t<R, C, T> v) {                                          \
        return name(address(a, i, j, k), v);                                                       \
    }                                                                                              \
    template <int R, int C, typename T>                                                            \
    CUDA_CALLABLE mat_t<R, C, T> name(const array_t<mat_t<R, C, T>>& a, int32 i, int32 j, int32 k, \
                                      int32 l, mat_t<R, C, T> v) {                                 \
        return name(address(a, i, j, k, l), v);                                                    \
    }

WP_MAT_ATOMIC_FAMILY(atomic_add, atomic_op_add)
WP_MAT_ATOMIC_FAMILY(atomic_sub, atomic_op_sub)
WP_MAT_ATOMIC_FAMILY(atomic_min, atomic_op_min)
WP_MAT_ATOMIC_FAMILY(atomic_max, atomic_op_max)
WP_MAT_ATOMIC_FAMILY(atomic_and, atomic_op_and)
WP_MAT_ATOMIC_FAMILY(atomic_or, atomic_op_or)
WP_MAT_ATOMIC_FAMILY(atomic_xor, atomic_op_xor)

#undef WP_MAT_ATOMIC_FAMILY

// ---- print ----------------------------------------------------------------------------------

/// print(a): one line per row in the vector format of vec.h ("1 2 \n3 4 \n" for a 2 x 2).
template <int R, int C, typename T>
CUDA_CALLABLE void print(const mat_t<R, C, T>& a) {
    for (int i = 0; i < R; ++i) print_row(a.m[i], C);
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif

#include "mat_inverse.h"
