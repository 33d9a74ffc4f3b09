// native/treadle/dense.h -- small dense-matrix routines over flat row-major arrays (Warp's dense_*)
//
// Matrices are stored row-major in 1-D arrays: element (i, j) of an r x c matrix is a[i * c + j].
// One thread runs the whole routine (O(n^3) work), as in Warp; they write their last array and
// return a dummy 0. The adjoints read the gradient of that array and add into the gradients of
// the arrays it was computed from.
#pragma once

#include "adjoint.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// The flat index of element (i, j) of a rows x cols matrix: stored row-major, or (transposed)
/// as its cols x rows transpose stored row-major.
CUDA_CALLABLE int32 dense_index(int32 rows, int32 cols, int32 i, int32 j, bool transposed) {
    return transposed ? j * rows + i : i * cols + j;
}

/// dense_gemm(m, n, p, t1, t2, A, B, C): C = op(A) op(B) for the m x p op(A) and p x n op(B),
/// op(X) the transpose of the stored matrix when its flag t1 / t2 is non-zero. C is m x n.
template <typename T>
CUDA_CALLABLE int32 dense_gemm(int32 m, int32 n, int32 p, int32 t1, int32 t2, const array_t<T>& A,
                               const array_t<T>& B, const array_t<T>& C) {
    for (int32 i = 0; i < m; ++i)
        for (int32 j = 0; j < n; ++j) {
            T sum = T(0);
            for (int32 k = 0; k < p; ++k)
                sum = sum + load(A, dense_index(m, p, i, k, t1 != 0)) *
                                load(B, dense_index(p, n, k, j, t2 != 0));
            store(C, i * n + j, sum);
        }
    return 0;
}

/// adj_dense_gemm: with G the gradient of C, op(A)' += G op(B)^T and op(B)' += op(A)^T G.
template <typename T>
CUDA_CALLABLE void adj_dense_gemm(int32 m, int32 n, int32 p, int32 t1, int32 t2,
                                  const array_t<T>& A, const array_t<T>& B, const array_t<T>& C) {
    for (int32 i = 0; i < m; ++i)
        for (int32 k = 0; k < p; ++k) {
            T ga = T(0);
            for (int32 j = 0; j < n; ++j)
                ga = ga + grad_read(grad_address(C, i * n + j)) *
                              load(B, dense_index(p, n, k, j, t2 != 0));
            grad_add(grad_address(A, dense_index(m, p, i, k, t1 != 0)), ga);
        }
    for (int32 k = 0; k < p; ++k)
        for (int32 j = 0; j < n; ++j) {
            T gb = T(0);
            for (int32 i = 0; i < m; ++i)
                gb = gb + load(A, dense_index(m, p, i, k, t1 != 0)) *
                              grad_read(grad_address(C, i * n + j));
            grad_add(grad_address(B, dense_index(p, n, k, j, t2 != 0)), gb);
        }
}

/// dense_chol(n, A, regularization, L): the lower-triangular Cholesky factor L of the n x n
/// symmetric A + regularization I (only A's lower triangle is read; L's upper triangle is
/// left as it is). A matrix that is not positive definite gives NaNs.
template <typename T>
CUDA_CALLABLE int32 dense_chol(int32 n, const array_t<T>& A, T regularization,
                               const array_t<T>& L) {
    for (int32 j = 0; j < n; ++j) {
        T d = load(A, j * n + j) + regularization;
        for (int32 k = 0; k < j; ++k) d = d - load(L, j * n + k) * load(L, j * n + k);
        d = sqrt(d);
        store(L, j * n + j, d);
        for (int32 i = j + 1; i < n; ++i) {
            T s = load(A, i * n + j);
            for (int32 k = 0; k < j; ++k) s = s - load(L, i * n + k) * load(L, j * n + k);
            store(L, i * n + j, s / d);
        }
    }
    return 0;
}

/// The solve of L L^T x = b in place in the n values that read(i) / write(i, v) access:
/// forward substitution with L, then back substitution with L^T.
template <typename T, typename Read, typename Write>
CUDA_CALLABLE void dense_subs_in_place(int32 n, const array_t<T>& L, Read read, Write write) {
    for (int32 i = 0; i < n; ++i) {
        T s = read(i);
        for (int32 j = 0; j < i; ++j) s = s - load(L, i * n + j) * read(j);
        write(i, s / load(L, i * n + i));
    }
    for (int32 i = n - 1; i >= 0; --i) {
        T s = read(i);
        for (int32 j = i + 1; j < n; ++j) s = s - load(L, j * n + i) * read(j);
        write(i, s / load(L, i * n + i));
    }
}

/// dense_subs(n, L, b, x): x with L L^T x = b, L the n x n lower-triangular factor from
/// dense_chol (x may be b itself).
template <typename T>
CUDA_CALLABLE int32 dense_subs(int32 n, const array_t<T>& L, const array_t<T>& b,
                               const array_t<T>& x) {
    for (int32 i = 0; i < n; ++i) store(x, i, load(b, i));
    dense_subs_in_place<T>(
        n, L, [&](int32 i) { return load(x, i); }, [&](int32 i, T v) { store(x, i, v); });
    return 0;
}

/// dense_solve(n, A, L, b, x): x = A^-1 b through the Cholesky factor L of A (from
/// dense_chol); unlike dense_subs it is differentiable in A and b (L is taken as a constant).
template <typename T>
CUDA_CALLABLE int32 dense_solve(int32 n, const array_t<T>&, const array_t<T>& L,
                                const array_t<T>& b, const array_t<T>& x) {
    return dense_subs(n, L, b, x);
}

/// The largest n whose dense_solve has a gradient: the adjoint keeps A^-1 g in a local buffer.
constexpr int32 k_dense_solve_max_grad_n = 256;

/// adj_dense_solve: with g the gradient of x and z = A^-1 g (A symmetric): b' += z and
/// A' -= z x^T. For n above k_dense_solve_max_grad_n it reports the limit and adds nothing.
template <typename T>
CUDA_CALLABLE void adj_dense_solve(int32 n, const array_t<T>& A, const array_t<T>& L,
                                   const array_t<T>& b, const array_t<T>& x) {
    if (n > k_dense_solve_max_grad_n) {
        printf("dense_solve(): no gradient for n = %d (at most %d)\n", n, k_dense_solve_max_grad_n);
        return;
    }
    T z[k_dense_solve_max_grad_n];
    for (int32 i = 0; i < n; ++i) z[i] = grad_read(grad_address(x, i));
    dense_subs_in_place<T>(
        n, L, [&](int32 i) { return z[i]; }, [&](int32 i, T v) { z[i] = v; });
    for (int32 i = 0; i < n; ++i) {
        grad_add(grad_address(b, i), z[i]);
        for (int32 j = 0; j < n; ++j) grad_add(grad_address(A, i * n + j), -z[i] * load(x, j));
    }
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
