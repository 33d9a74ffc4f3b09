// native/treadle/tile_linalg.h -- dense linear algebra on tiles: Cholesky factorisation,
// triangular and Cholesky solves, adding a diagonal (included by tile.h)
//
// The factorisation and solves run cooperatively on a copy of the operands in the block's
// scratch (the threads share the rows of each step between barriers; on the CPU the one thread
// works on a local copy), then every thread reads back the elements it holds. Matrices are
// (N, N) tiles of float32 or float64; right-hand sides are (N,) or (N, M) tiles.
#pragma once

#include "tile.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// A writable copy of a tile's elements in row-major order: the block's scratch at byte `at`
/// on CUDA, a local copy on the CPU.
template <typename Tile>
struct tile_workspace {
    using T = typename Tile::value_type;
#if WP_DEVICE_CODE
    T* p;
    CUDA_CALLABLE tile_workspace(const Tile& t, int at) : p(const_cast<T*>(tile_share(t, at))) {}
#else
    Tile copy;
    T* p;
    tile_workspace(const Tile& t, int) : copy(t), p(copy.data) {}
#endif
};

/// The tile whose elements are `s` (row-major), once every thread has finished writing it.
template <typename Tile>
CUDA_CALLABLE Tile tile_from_shared(const typename Tile::value_type* s) {
    tile_sync();
    Tile r;
    tile_slots<Tile>([&](int k, int e) { r.data[k] = s[e]; });
    return r;
}

/// Lower Cholesky factor of the N x N matrix at s, in place (reads the lower triangle only;
/// the strict upper triangle becomes zero).
template <typename T, int N>
CUDA_CALLABLE void tile_cholesky_in(T* s) {
    const int lane = tile_lane();
    for (int k = 0; k < N; ++k) {
        if (lane == 0) s[k * N + k] = sqrt(s[k * N + k]);
        tile_sync();
        for (int i = k + 1 + lane; i < N; i += tile_block_dim)
            s[i * N + k] = s[i * N + k] / s[k * N + k];
        tile_sync();
        const int m = N - k - 1;
        for (int p = lane; p < m * m; p += tile_block_dim) {
            const int i = k + 1 + p / m, j = k + 1 + p % m;
            if (j <= i) s[i * N + j] = s[i * N + j] - s[i * N + k] * s[j * N + k];
        }
        tile_sync();
    }
    for (int e = lane; e < N * N; e += tile_block_dim)
        if (e % N > e / N) s[e] = T(0);
}

/// Solves L z = y (lower) or U x = z (upper) in place for the M columns of y (N x M at y);
/// one thread per column. `transposed` uses L's transpose (L^T x = y, an upper solve).
template <typename T, int N, int M>
CUDA_CALLABLE void tile_triangular_in(const T* L, T* y, bool upper, bool transposed) {
    for (int c = tile_lane(); c < M; c += tile_block_dim) {
        for (int n = 0; n < N; ++n) {
            const int i = upper ? N - 1 - n : n;
            T acc = y[i * M + c];
            for (int m = 0; m < n; ++m) {
                const int j = upper ? N - 1 - m : m;
                const T a = transposed ? L[j * N + i] : L[i * N + j];
                acc = acc - a * y[j * M + c];
            }
            y[i * M + c] = acc / L[i * N + i];
        }
    }
}

/// The columns a right-hand side tile has: (N,) is one, (N, M) is M.
template <typename Y>
inline constexpr int tile_columns = Y::ndim == 1 ? 1 : Y::dim(Y::ndim - 1);

/// tile_cholesky(A, upper): L (lower, L L^T = A) or U = L^T (U^T U = A).
template <typename T, int N>
CUDA_CALLABLE tile_t<T, N, N> tile_cholesky(const tile_t<T, N, N>& a, int32 upper) {
    using Tile = tile_t<T, N, N>;
    tile_workspace<Tile> w(a, 0);
    if (upper) {  // factor the transpose: A's upper triangle is the lower one of A^T
        tile_sync();
        for (int e = tile_lane(); e < N * N; e += tile_block_dim)
            if (e % N < e / N) w.p[e] = w.p[(e % N) * N + e / N];
        tile_sync();
    }
    tile_cholesky_in<T, N>(w.p);
    if (!upper) return tile_from_shared<Tile>(w.p);
    tile_sync();
    Tile r;
    tile_slots<Tile>([&](int k, int e) { r.data[k] = w.p[(e % N) * N + e / N]; });
    return r;
}

/// The adjoint of a lower factorisation, with respect to A's lower triangle (which is all the
/// factorisation reads): with P = tril(L^T adj_L) (diagonal halved) and S = L^-T P L^-1,
/// adj_A[i][j] gains S_ij + S_ji below the diagonal and S_ii on it. Every thread computes S
/// and keeps the elements it holds. `upper`: the same for U = L^T, on A's upper triangle.
template <typename T, int N>
CUDA_CALLABLE void adj_tile_cholesky(const tile_t<T, N, N>& a, int32 upper, tile_t<T, N, N>& adj_a,
                                     int32&, const tile_t<T, N, N>& adj_ret) {
    using Tile = tile_t<T, N, N>;
    const Tile f = tile_cholesky(a, upper);
    T L[N * N], G[N * N], S[N * N];
    {
        const T* s = tile_share(f);
        for (int e = 0; e < N * N; ++e) L[e] = upper ? s[(e % N) * N + e / N] : s[e];
    }
    {
        const T* s = tile_share(adj_ret);
        for (int e = 0; e < N * N; ++e) G[e] = upper ? s[(e % N) * N + e / N] : s[e];
    }
    for (int i = 0; i < N; ++i)  // P = tril(L^T G), diagonal halved (kept in S)
        for (int j = 0; j < N; ++j) {
            T acc = T(0);
            if (j <= i)
                for (int k = 0; k < N; ++k) acc = acc + L[k * N + i] * G[k * N + j];
            S[i * N + j] = j < i ? acc : j == i ? acc * T(0.5) : T(0);
        }
    for (int r = 0; r < N; ++r)  // S = S L^-1: solve x L = s for each row (L^T x^T = s^T)
        for (int n = N - 1; n >= 0; --n) {
            T acc = S[r * N + n];
            for (int m = n + 1; m < N; ++m) acc = acc - S[r * N + m] * L[m * N + n];
            S[r * N + n] = acc / L[n * N + n];
        }
    for (int c = 0; c < N; ++c)  // S = L^-T S: solve L^T x = s for each column
        for (int n = N - 1; n >= 0; --n) {
            T acc = S[n * N + c];
            for (int m = n + 1; m < N; ++m) acc = acc - L[m * N + n] * S[m * N + c];
            S[n * N + c] = acc / L[n * N + n];
        }
    tile_slots<Tile>([&](int k, int e) {
        int i = e / N, j = e % N;
        if (upper) {
            const int t = i;
            i = j;
            j = t;
        }
        const T g = j < i ? S[i * N + j] + S[j * N + i] : j == i ? S[i * N + i] : T(0);
        adj_a.data[k] = adj_a.data[k] + g;
    });
}

/// tile_lower_solve(L, y): z with L z = y; tile_upper_solve(U, z): x with U x = z.
template <typename T, int N, typename Y>
CUDA_CALLABLE Y tile_triangular_solve(const tile_t<T, N, N>& l, const Y& y, bool upper) {
    const T* ls = tile_share(l);
    tile_workspace<Y> w(y, tile_share_end<tile_t<T, N, N>>());
#if !WP_DEVICE_CODE
    ls = l.data;
#endif
    tile_triangular_in<T, N, tile_columns<Y>>(ls, w.p, upper, false);
    return tile_from_shared<Y>(w.p);
}
template <typename T, int N, typename Y>
CUDA_CALLABLE Y tile_lower_solve(const tile_t<T, N, N>& l, const Y& y) {
    return tile_triangular_solve(l, y, false);
}
template <typename T, int N, typename Y>
CUDA_CALLABLE Y tile_upper_solve(const tile_t<T, N, N>& u, const Y& z) {
    return tile_triangular_solve(u, z, true);
}

/// The adjoint of z = L^-1 y: w = L^-T adj_z goes to y, and -tril(w z^T) to L.
template <typename T, int N, typename Y>
CUDA_CALLABLE void adj_tile_lower_solve(const tile_t<T, N, N>& l, const Y& y,
                                        tile_t<T, N, N>& adj_l, Y& adj_y, const Y& adj_z) {
    constexpr int M = tile_columns<Y>;
    const Y z = tile_lower_solve(l, y);
    T L[N * N], W[N * M], Z[N * M];
    {
        const T* s = tile_share(l);
        for (int e = 0; e < N * N; ++e) L[e] = s[e];
    }
    {
        const T* s = tile_share(adj_z);
        for (int e = 0; e < N * M; ++e) W[e] = s[e];
    }
    {
        const T* s = tile_share(z);
        for (int e = 0; e < N * M; ++e) Z[e] = s[e];
    }
    for (int c = 0; c < M; ++c)  // W = L^-T adj_z (an upper solve with L^T)
        for (int n = N - 1; n >= 0; --n) {
            T acc = W[n * M + c];
            for (int m = n + 1; m < N; ++m) acc = acc - L[m * N + n] * W[m * M + c];
            W[n * M + c] = acc / L[n * N + n];
        }
    tile_slots<Y>([&](int k, int e) { adj_y.data[k] = adj_y.data[k] + W[e]; });
    tile_slots<tile_t<T, N, N>>([&](int k, int e) {
        const int i = e / N, j = e % N;
        if (j > i) return;
        T acc = T(0);
        for (int c = 0; c < M; ++c) acc = acc + W[i * M + c] * Z[j * M + c];
        adj_l.data[k] = adj_l.data[k] - acc;
    });
}

/// tile_cholesky_solve(F, y, upper): x with A x = y, for A = L L^T (F = L) or U^T U (F = U).
template <typename T, int N, typename Y>
CUDA_CALLABLE Y tile_cholesky_solve(const tile_t<T, N, N>& f, const Y& y, int32 upper) {
    const T* fs = tile_share(f);
#if !WP_DEVICE_CODE
    fs = f.data;
#endif
    tile_workspace<Y> w(y, tile_share_end<tile_t<T, N, N>>());
    constexpr int M = tile_columns<Y>;
    tile_triangular_in<T, N, M>(fs, w.p, false, upper != 0);  // L w = y, or U^T w = y
    tile_sync();
    tile_triangular_in<T, N, M>(fs, w.p, true, upper == 0);  // L^T x = w, or U x = w
    return tile_from_shared<Y>(w.p);
}

/// tile_diag_add(a, d): a + diag(d).
template <typename T, int N>
CUDA_CALLABLE tile_t<T, N, N> tile_diag_add(const tile_t<T, N, N>& a, const tile_t<T, N>& d) {
    const T* s = tile_share(d);
    tile_t<T, N, N> r;
    tile_each_slot<tile_t<T, N, N>>([&](int k) { r.data[k] = a.data[k]; });
    tile_slots<tile_t<T, N, N>>([&](int k, int e) {
        if (e / N == e % N) r.data[k] = r.data[k] + s[e / N];
    });
    return r;
}

// ---- discrete Fourier transforms -----------------------------------------------------------

/// The unnormalised DFT of the n complex values (vec2: real, imaginary) at x, in place: sign
/// -1 forward, +1 inverse. Radix-2 for powers of two; otherwise the direct sum, through `tmp`.
template <typename T>
CUDA_CALLABLE void tile_dft_row(vec_t<2, T>* x, int n, int sign, vec_t<2, T>* tmp) {
    const T pi = T(3.14159265358979323846);
    if ((n & (n - 1)) == 0) {
        for (int i = 1, j = 0; i < n; ++i) {  // bit-reversed order
            int bit = n >> 1;
            for (; j & bit; bit >>= 1) j ^= bit;
            j ^= bit;
            if (i < j) {
                const vec_t<2, T> t = x[i];
                x[i] = x[j];
                x[j] = t;
            }
        }
        for (int len = 2; len <= n; len <<= 1) {
            const T angle = T(sign) * T(2) * pi / T(len);
            for (int i = 0; i < n; i += len)
                for (int k = 0; k < len / 2; ++k) {
                    const T c = cos(angle * T(k)), s = sin(angle * T(k));
                    const vec_t<2, T> u = x[i + k], v = x[i + k + len / 2];
                    const vec_t<2, T> w(v.c[0] * c - v.c[1] * s, v.c[0] * s + v.c[1] * c);
                    x[i + k] = vec_t<2, T>(u.c[0] + w.c[0], u.c[1] + w.c[1]);
                    x[i + k + len / 2] = vec_t<2, T>(u.c[0] - w.c[0], u.c[1] - w.c[1]);
                }
        }
        return;
    }
    for (int k = 0; k < n; ++k) {
        T re = T(0), im = T(0);
        for (int j = 0; j < n; ++j) {
            const T angle = T(sign) * T(2) * pi * T((int64(j) * k) % n) / T(n);
            const T c = cos(angle), s = sin(angle);
            re = re + x[j].c[0] * c - x[j].c[1] * s;
            im = im + x[j].c[0] * s + x[j].c[1] * c;
        }
        tmp[k] = vec_t<2, T>(re, im);
    }
    for (int k = 0; k < n; ++k) x[k] = tmp[k];
}

/// The unnormalised DFT along the last dimension of a tile of complex values (each row of the
/// leading dimensions on its own; threads take rows in turn).
template <typename T, int... D>
CUDA_CALLABLE tile_t<vec_t<2, T>, D...> tile_dft(const tile_t<vec_t<2, T>, D...>& t, int sign) {
    using Tile = tile_t<vec_t<2, T>, D...>;
    constexpr int n = Tile::dim(Tile::ndim - 1);
    constexpr int rows = Tile::size / n;
    constexpr bool pow2 = (n & (n - 1)) == 0;
    tile_workspace<Tile> w(t, 0);
    vec_t<2, T> tmp[pow2 ? 1 : n];
    for (int r = tile_lane(); r < rows; r += tile_block_dim)
        tile_dft_row(w.p + r * n, n, sign, tmp);
    return tile_from_shared<Tile>(w.p);
}
/// tile_fft(t) / tile_ifft(t): the forward (e^-2pi i jk/n) and inverse (e^+2pi i jk/n)
/// unnormalised transforms; each one's adjoint is the other.
template <typename T, int... D>
CUDA_CALLABLE tile_t<vec_t<2, T>, D...> tile_fft(const tile_t<vec_t<2, T>, D...>& t) {
    return tile_dft(t, -1);
}
template <typename T, int... D>
CUDA_CALLABLE tile_t<vec_t<2, T>, D...> tile_ifft(const tile_t<vec_t<2, T>, D...>& t) {
    return tile_dft(t, 1);
}
template <typename T, int... D>
CUDA_CALLABLE void adj_tile_fft(const tile_t<vec_t<2, T>, D...>&, tile_t<vec_t<2, T>, D...>& adj_t,
                                const tile_t<vec_t<2, T>, D...>& adj_ret) {
    adj_t = add(adj_t, tile_dft(adj_ret, 1));
}
template <typename T, int... D>
CUDA_CALLABLE void adj_tile_ifft(const tile_t<vec_t<2, T>, D...>&, tile_t<vec_t<2, T>, D...>& adj_t,
                                 const tile_t<vec_t<2, T>, D...>& adj_ret) {
    adj_t = add(adj_t, tile_dft(adj_ret, -1));
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
