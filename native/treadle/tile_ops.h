// native/treadle/tile_ops.h -- tile operations that read other threads' elements: reductions,
// broadcasts, transposes and matrix products (included by tile.h, whose conventions hold)
//
// Each shares its operands through the block's scratch (tile_share) and lets every thread
// compute the elements it holds, in a fixed order, so that the results are the same on every
// run and every thread of the block sees the same reduced value. Adjoints that scatter to
// other threads' elements go through tile_gather_adjoint (shared atomics on CUDA).
#pragma once

#include "tile.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// The type products and sums of T accumulate in: float for float16/bfloat16, else T.
template <typename T>
struct tile_acc {
    using type = T;
};
template <>
struct tile_acc<half> {
    using type = float32;
};
template <>
struct tile_acc<bfloat16> {
    using type = float32;
};

// ---- reductions ----------------------------------------------------------------------------

/// tile_sum(t): the tile of one element, the sum of t's elements (in row-major order).
template <typename T, int... D>
CUDA_CALLABLE tile_t<T, 1> tile_sum(const tile_t<T, D...>& t) {
    const T* s = tile_share(t);
    T total{};
    for (int e = 0; e < tile_t<T, D...>::size; ++e) total = add(total, s[e]);
    tile_t<T, 1> r{};
    r.data[0] = total;
    return r;
}
template <typename T, int... D>
CUDA_CALLABLE void adj_tile_sum(const tile_t<T, D...>&, tile_t<T, D...>& adj_t,
                                const tile_t<T, 1>& adj_ret) {
    const T g = tile_share(adj_ret)[0];
    tile_slots<tile_t<T, D...>>([&](int k, int) { adj_t.data[k] = add(adj_t.data[k], g); });
}

/// The position of t's largest (`max`) or smallest element, the first of equal ones.
template <bool max, typename T, int... D>
CUDA_CALLABLE int tile_extremum(const T* s) {
    int best = 0;
    for (int e = 1; e < tile_t<T, D...>::size; ++e)
        if (max ? s[best] < s[e] : s[e] < s[best]) best = e;
    return best;
}

/// tile_max(t) / tile_min(t): the one-element tile of t's largest / smallest element;
/// tile_argmax / tile_argmin: the one-element tile of its position (the first of equal ones).
#define WP_TILE_EXTREMUM(name, is_max)                                                      \
    template <typename T, int... D>                                                         \
    CUDA_CALLABLE tile_t<T, 1> tile_##name(const tile_t<T, D...>& t) {                      \
        const T* s = tile_share(t);                                                         \
        tile_t<T, 1> r{};                                                                   \
        r.data[0] = s[tile_extremum<is_max, T, D...>(s)];                                   \
        return r;                                                                           \
    }                                                                                       \
    template <typename T, int... D>                                                         \
    CUDA_CALLABLE void adj_tile_##name(const tile_t<T, D...>& t, tile_t<T, D...>& adj_t,    \
                                       const tile_t<T, 1>& adj_ret) {                       \
        const int best = tile_extremum<is_max, T, D...>(tile_share(t));                     \
        const T g = tile_share(adj_ret)[0];                                                 \
        tile_slots<tile_t<T, D...>>([&](int k, int e) {                                     \
            if (e == best) adj_t.data[k] = add(adj_t.data[k], g);                           \
        });                                                                                 \
    }                                                                                       \
    template <typename T, int... D>                                                         \
    CUDA_CALLABLE tile_t<int32, 1> tile_arg##name(const tile_t<T, D...>& t) {               \
        tile_t<int32, 1> r{};                                                               \
        r.data[0] = tile_extremum<is_max, T, D...>(tile_share(t));                          \
        return r;                                                                           \
    }

WP_TILE_EXTREMUM(max, true)
WP_TILE_EXTREMUM(min, false)
#undef WP_TILE_EXTREMUM

// ---- shape changes -------------------------------------------------------------------------

/// The element of a tile of shape S (ndim NS) that element coordinates c of a tile of NR
/// dimensions broadcast from: dimensions align at the right, extents of 1 repeat.
template <typename S, int NR>
CUDA_CALLABLE int tile_broadcast_source(const int (&c)[4]) {
    int sc[4] = {0, 0, 0, 0};
    for (int d = 0; d < S::ndim; ++d) {
        const int from = d + (NR - S::ndim);
        sc[d] = S::dim(d) == 1 ? 0 : c[from];
    }
    return S::linear(sc);
}

/// tile_broadcast<R>(t): t repeated to the shape of R (numpy's broadcasting rules, which the
/// compiler checked).
template <typename R, typename T, int... D>
CUDA_CALLABLE R tile_broadcast(const tile_t<T, D...>& t) {
    using S = tile_t<T, D...>;
    const T* s = tile_share(t);
    R r{};
    tile_slots<R>([&](int k, int e) {
        int c[4];
        R::coords(e, c);
        r.data[k] = s[tile_broadcast_source<S, R::ndim>(c)];
    });
    return r;
}
template <typename R, typename T, int... D>
CUDA_CALLABLE void adj_tile_broadcast(const tile_t<T, D...>&, tile_t<T, D...>& adj_t,
                                      const R& adj_ret) {
    using S = tile_t<T, D...>;
    tile_gather_adjoint(adj_t, [&](const tile_sink<T>& sink) {
        tile_slots<R>([&](int k, int e) {
            int c[4];
            R::coords(e, c);
            sink.add(tile_broadcast_source<S, R::ndim>(c), adj_ret.data[k]);
        });
    });
}

/// tile_transpose(t): the (N, M) tile of an (M, N) one.
template <typename T, int M, int N>
CUDA_CALLABLE tile_t<T, N, M> tile_transpose(const tile_t<T, M, N>& t) {
    using R = tile_t<T, N, M>;
    const T* s = tile_share(t);
    R r{};
    tile_slots<R>([&](int k, int e) { r.data[k] = s[(e % M) * N + e / M]; });
    return r;
}
template <typename T, int M, int N>
CUDA_CALLABLE void adj_tile_transpose(const tile_t<T, M, N>&, tile_t<T, M, N>& adj_t,
                                      const tile_t<T, N, M>& adj_ret) {
    const T* g = tile_share(adj_ret);
    tile_slots<tile_t<T, M, N>>(
        [&](int k, int e) { adj_t.data[k] = add(adj_t.data[k], g[(e % N) * M + e / N]); });
}

// ---- matrix products -----------------------------------------------------------------------

/// tile_matmul(a, b): the (M, N) product of an (M, K) and a (K, N) tile (scalar elements),
/// summed in k order in tile_acc<T>.
template <typename T, int M, int K, int N>
CUDA_CALLABLE tile_t<T, M, N> tile_matmul(const tile_t<T, M, K>& a, const tile_t<T, K, N>& b) {
    using R = tile_t<T, M, N>;
    using Acc = typename tile_acc<T>::type;
    const T* sa = tile_share(a);
    const T* sb = tile_share(b, tile_share_end<tile_t<T, M, K>>());
    R r{};
    tile_slots<R>([&](int k, int e) {
        const int i = e / N, j = e % N;
        Acc acc = Acc(0);
        for (int p = 0; p < K; ++p) acc += Acc(sa[i * K + p]) * Acc(sb[p * N + j]);
        r.data[k] = T(acc);
    });
    return r;
}
template <typename T, int M, int K, int N>
CUDA_CALLABLE void adj_tile_matmul(const tile_t<T, M, K>& a, const tile_t<T, K, N>& b,
                                   tile_t<T, M, K>& adj_a, tile_t<T, K, N>& adj_b,
                                   const tile_t<T, M, N>& adj_ret) {
    using Acc = typename tile_acc<T>::type;
    constexpr int at = tile_share_end<tile_t<T, M, N>>();
    {  // adj_a += adj_ret @ b^T
        const T* g = tile_share(adj_ret);
        const T* sb = tile_share(b, at);
        tile_slots<tile_t<T, M, K>>([&](int k, int e) {
            const int i = e / K, p = e % K;
            Acc acc = Acc(0);
            for (int j = 0; j < N; ++j) acc += Acc(g[i * N + j]) * Acc(sb[p * N + j]);
            adj_a.data[k] = T(Acc(adj_a.data[k]) + acc);
        });
    }
    {  // adj_b += a^T @ adj_ret
        const T* g = tile_share(adj_ret);
        const T* sa = tile_share(a, at);
        tile_slots<tile_t<T, K, N>>([&](int k, int e) {
            const int p = e / N, j = e % N;
            Acc acc = Acc(0);
            for (int i = 0; i < M; ++i) acc += Acc(sa[i * K + p]) * Acc(g[i * N + j]);
            adj_b.data[k] = T(Acc(adj_b.data[k]) + acc);
        });
    }
}

/// tile_matmul_acc(a, b, out, alpha, beta): alpha * (a @ b) + beta * out, Warp's
/// tile_matmul(a, b, out) that accumulates into `out`.
template <typename T, int M, int K, int N>
CUDA_CALLABLE tile_t<T, M, N> tile_matmul_acc(const tile_t<T, M, K>& a, const tile_t<T, K, N>& b,
                                              const tile_t<T, M, N>& out, T alpha, T beta) {
    const tile_t<T, M, N> p = tile_matmul(a, b);
    tile_t<T, M, N> r;
    for (int k = 0; k < tile_t<T, M, N>::slots; ++k)
        r.data[k] = add(mul(alpha, p.data[k]), mul(beta, out.data[k]));
    return r;
}
template <typename T, int M, int K, int N>
CUDA_CALLABLE void adj_tile_matmul_acc(const tile_t<T, M, K>& a, const tile_t<T, K, N>& b,
                                       const tile_t<T, M, N>& out, T alpha, T beta,
                                       tile_t<T, M, K>& adj_a, tile_t<T, K, N>& adj_b,
                                       tile_t<T, M, N>& adj_out, T& adj_alpha, T& adj_beta,
                                       const tile_t<T, M, N>& adj_ret) {
    tile_t<T, M, N> scaled;
    for (int k = 0; k < tile_t<T, M, N>::slots; ++k) scaled.data[k] = mul(alpha, adj_ret.data[k]);
    adj_tile_matmul(a, b, adj_a, adj_b, scaled);
    const tile_t<T, M, N> p = tile_matmul(a, b);
    tile_slots<tile_t<T, M, N>>([&](int k, int) {
        adj_out.data[k] = add(adj_out.data[k], mul(beta, adj_ret.data[k]));
        adj_alpha = add(adj_alpha, mul(p.data[k], adj_ret.data[k]));
        adj_beta = add(adj_beta, mul(out.data[k], adj_ret.data[k]));
    });
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
