// native/treadle/tile_ops.h -- tile operations that read other threads' elements: reductions,
// broadcasts, transposes and matrix products (included by tile.h, whose conventions hold)
//
// Each shares its operands through the block's scratch (tile_share) and lets every thread
// compute the elements it holds, in a fixed order, so that the results are the same on every
// run and every thread of the block sees the same reduced value. Adjoints that scatter to
// other threads' elements go through tile_gather_adjoint (shared atomics on CUDA).
#pragma once

#include "tile.h"
#include "tile_mma.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

// ---- reductions ----------------------------------------------------------------------------

/// tile_sum(t): the tile of one element, the sum of t's elements (in row-major order).
template <typename T, int... D>
CUDA_CALLABLE tile_t<T, 1> tile_sum(const tile_t<T, D...>& t) {
    const T* s = tile_share(t);
    T total = s[0];  // (a struct's fields without atomics are carried from the first element)
    for (int e = 1; e < tile_t<T, D...>::size; ++e) total = add(total, s[e]);
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
#define WP_TILE_EXTREMUM(name, is_max)                                                   \
    template <typename T, int... D>                                                      \
    CUDA_CALLABLE tile_t<T, 1> tile_##name(const tile_t<T, D...>& t) {                   \
        const T* s = tile_share(t);                                                      \
        tile_t<T, 1> r{};                                                                \
        r.data[0] = s[tile_extremum<is_max, T, D...>(s)];                                \
        return r;                                                                        \
    }                                                                                    \
    template <typename T, int... D>                                                      \
    CUDA_CALLABLE void adj_tile_##name(const tile_t<T, D...>& t, tile_t<T, D...>& adj_t, \
                                       const tile_t<T, 1>& adj_ret) {                    \
        const int best = tile_extremum<is_max, T, D...>(tile_share(t));                  \
        const T g = tile_share(adj_ret)[0];                                              \
        tile_slots<tile_t<T, D...>>([&](int k, int e) {                                  \
            if (e == best) adj_t.data[k] = add(adj_t.data[k], g);                        \
        });                                                                              \
    }                                                                                    \
    template <typename T, int... D>                                                      \
    CUDA_CALLABLE tile_t<int32, 1> tile_arg##name(const tile_t<T, D...>& t) {            \
        tile_t<int32, 1> r{};                                                            \
        r.data[0] = tile_extremum<is_max, T, D...>(tile_share(t));                       \
        return r;                                                                        \
    }

WP_TILE_EXTREMUM(max, true)
WP_TILE_EXTREMUM(min, false)
#undef WP_TILE_EXTREMUM

/// The element of a tile of type S at position i along `axis` of the line that element er of
/// the reduced tile R (S without that axis; (1,) for a 1-D S) stands for.
template <typename S, typename R>
CUDA_CALLABLE int tile_axis_source(int axis, int er, int i) {
    int rc[4];
    R::coords(er, rc);
    int sc[4] = {0, 0, 0, 0};
    for (int d = 0, k = 0; d < S::ndim; ++d) sc[d] = d == axis ? i : rc[k++];
    return S::linear(sc);
}
/// The element of R that element es of S reduces into (along `axis`).
template <typename S, typename R>
CUDA_CALLABLE int tile_axis_target(int axis, int es) {
    int sc[4];
    S::coords(es, sc);
    int rc[4] = {0, 0, 0, 0};
    for (int d = 0, k = 0; d < S::ndim; ++d)
        if (d != axis) rc[k++] = sc[d];
    return S::ndim == 1 ? 0 : R::linear(rc);
}

/// tile_sum_axis<R>(t, axis): the sums of t along `axis` (in index order).
template <typename R, typename T, int... D>
CUDA_CALLABLE R tile_sum_axis(const tile_t<T, D...>& t, int32 axis) {
    using S = tile_t<T, D...>;
    const T* s = tile_share(t);
    R r{};
    tile_slots<R>([&](int k, int e) {
        T acc{};
        for (int i = 0; i < S::dim(axis); ++i)
            acc = add(acc, s[tile_axis_source<S, R>(axis, e, i)]);
        r.data[k] = acc;
    });
    return r;
}
template <typename R, typename T, int... D>
CUDA_CALLABLE void adj_tile_sum_axis(const tile_t<T, D...>&, int32 axis, tile_t<T, D...>& adj_t,
                                     int32&, const R& adj_ret) {
    using S = tile_t<T, D...>;
    const T* g = tile_share(adj_ret);
    tile_slots<S>([&](int k, int e) {
        adj_t.data[k] = add(adj_t.data[k], g[tile_axis_target<S, R>(axis, e)]);
    });
}

/// tile_reduce_with<R>(t, axis, f): t's elements folded with f (in row-major order), into the
/// one-element R when axis < 0, else along `axis`.
template <typename R, typename T, int... D, typename F>
CUDA_CALLABLE R tile_reduce_with(const tile_t<T, D...>& t, int32 axis, F f) {
    using S = tile_t<T, D...>;
    const T* s = tile_share(t);
    R r{};
    if (axis < 0) {
        T acc = s[0];
        for (int e = 1; e < S::size; ++e) acc = f(acc, s[e]);
        r.data[0] = acc;
        return r;
    }
    tile_slots<R>([&](int k, int e) {
        T acc = s[tile_axis_source<S, R>(axis, e, 0)];
        for (int i = 1; i < S::dim(axis); ++i) acc = f(acc, s[tile_axis_source<S, R>(axis, e, i)]);
        r.data[k] = acc;
    });
    return r;
}
/// The adjoint of a whole-tile fold acc_e = f(acc_{e-1}, x_e): every thread replays the fold
/// and walks it backwards with adj_f(a, b, adj_a, adj_b, adj_r), keeping the adjoints of the
/// elements it holds.
template <typename R, typename T, int... D, typename F, typename AF>
CUDA_CALLABLE void adj_tile_reduce_with(const tile_t<T, D...>& t, F f, AF adj_f,
                                        tile_t<T, D...>& adj_t, const R& adj_ret) {
    using S = tile_t<T, D...>;
    T x[S::size], acc[S::size];
    const T* s = tile_share(t);
    for (int e = 0; e < S::size; ++e) x[e] = s[e];
    acc[0] = x[0];
    for (int e = 1; e < S::size; ++e) acc[e] = f(acc[e - 1], x[e]);
    T g = tile_share(adj_ret)[0];
    const int lane = tile_lane();
    for (int e = S::size - 1; e >= 1; --e) {
        T ga{}, gx{};
        adj_f(acc[e - 1], x[e], ga, gx, g);
        if (e % tile_block_dim == lane)
            adj_t.data[e / tile_block_dim] = add(adj_t.data[e / tile_block_dim], gx);
        g = ga;
    }
    if (lane == 0) adj_t.data[0] = add(adj_t.data[0], g);
}

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

/// The element of a tile of type S that element coordinates rc of a view of it stand for,
/// or -1 outside S: dimension d of S is fixed at base[d] when step[d] is 0 (negative counts
/// from the end) and otherwise runs base[d] + i * step[d] over the view's next dimension.
template <typename S, int N>
CUDA_CALLABLE int tile_view_element(const vec_t<N, int32>& base, const vec_t<N, int32>& step,
                                    const int (&rc)[4]) {
    static_assert(N == S::ndim, "one base and step per dimension");
    int sc[4] = {0, 0, 0, 0};
    int k = 0;
    for (int d = 0; d < N; ++d) {
        int b = base.c[d];
        if (step.c[d] == 0) {
            sc[d] = b < 0 ? b + S::dim(d) : b;
        } else {
            sc[d] = b + rc[k++] * step.c[d];
        }
        if (sc[d] < 0 || sc[d] >= S::dim(d)) return -1;
    }
    return S::linear(sc);
}

/// tile_view<R>(t, base, step): the tile R of the elements of t a subscript selects (t[i],
/// t[1:3, ::2]; see tile_view_element); elements outside t read as zero.
template <typename R, typename T, int... D, int N>
CUDA_CALLABLE R tile_view(const tile_t<T, D...>& t, const vec_t<N, int32>& base,
                          const vec_t<N, int32>& step) {
    using S = tile_t<T, D...>;
    const T* s = tile_share(t);
    R r{};
    tile_slots<R>([&](int k, int e) {
        int rc[4];
        R::coords(e, rc);
        const int src = tile_view_element<S>(base, step, rc);
        r.data[k] = src >= 0 ? s[src] : T{};
    });
    return r;
}
template <typename R, typename T, int... D, int N>
CUDA_CALLABLE void adj_tile_view(const tile_t<T, D...>&, const vec_t<N, int32>& base,
                                 const vec_t<N, int32>& step, tile_t<T, D...>& adj_t,
                                 vec_t<N, int32>&, vec_t<N, int32>&, const R& adj_ret) {
    using S = tile_t<T, D...>;
    tile_gather_adjoint(adj_t, [&](const tile_sink<T>& sink) {
        tile_slots<R>([&](int k, int e) {
            int rc[4];
            R::coords(e, rc);
            const int src = tile_view_element<S>(base, step, rc);
            if (src >= 0) sink.add(src, adj_ret.data[k]);
        });
    });
}

/// tile_view_assign(t, base, step, v): t with the elements a subscript selects replaced by
/// those of the tile v (t[i] = row, t[1:3, :] = block).
template <typename T, int... D, int N, typename V>
CUDA_CALLABLE tile_t<T, D...> tile_view_assign(const tile_t<T, D...>& t,
                                               const vec_t<N, int32>& base,
                                               const vec_t<N, int32>& step, const V& v) {
    using S = tile_t<T, D...>;
#if WP_DEVICE_CODE
    T* s = const_cast<T*>(tile_share(t));
    tile_slots<V>([&](int k, int e) {
        int rc[4];
        V::coords(e, rc);
        const int src = tile_view_element<S>(base, step, rc);
        if (src >= 0) s[src] = v.data[k];
    });
    tile_sync();
    S r;
    tile_slots<S>([&](int k, int e) { r.data[k] = s[e]; });
    return r;
#else
    S r = t;
    for (int e = 0; e < V::size; ++e) {
        int rc[4];
        V::coords(e, rc);
        const int src = tile_view_element<S>(base, step, rc);
        if (src >= 0) r.data[src] = v.data[e];
    }
    return r;
#endif
}
/// Its adjoint: the replaced elements' gradients go to v, the others' to t.
template <typename T, int... D, int N, typename V>
CUDA_CALLABLE void adj_tile_view_assign(const tile_t<T, D...>&, const vec_t<N, int32>& base,
                                        const vec_t<N, int32>& step, const V&,
                                        tile_t<T, D...>& adj_t, vec_t<N, int32>&, vec_t<N, int32>&,
                                        V& adj_v, const tile_t<T, D...>& adj_ret) {
    using S = tile_t<T, D...>;
#if WP_DEVICE_CODE
    unsigned char* marks = tile_scratch();
    tile_sync();
    tile_slots<S>([&](int, int e) { marks[e] = 0; });
    tile_sync();
    tile_slots<V>([&](int, int e) {
        int rc[4];
        V::coords(e, rc);
        const int src = tile_view_element<S>(base, step, rc);
        if (src >= 0) marks[src] = 1;
    });
    tile_sync();
    tile_slots<S>([&](int k, int e) {
        if (!marks[e]) adj_t.data[k] = add(adj_t.data[k], adj_ret.data[k]);
    });
    const T* g = tile_share(adj_ret);
    tile_slots<V>([&](int k, int e) {
        int rc[4];
        V::coords(e, rc);
        const int src = tile_view_element<S>(base, step, rc);
        if (src >= 0) adj_v.data[k] = add(adj_v.data[k], g[src]);
    });
#else
    bool written[S::size] = {};
    for (int e = 0; e < V::size; ++e) {
        int rc[4];
        V::coords(e, rc);
        const int src = tile_view_element<S>(base, step, rc);
        if (src < 0) continue;
        written[src] = true;
        adj_v.data[e] = add(adj_v.data[e], adj_ret.data[src]);
    }
    for (int e = 0; e < S::size; ++e)
        if (!written[e]) adj_t.data[e] = add(adj_t.data[e], adj_ret.data[e]);
#endif
}

/// tile_reshape<R>(t): t's elements in row-major order, in a tile of R's shape (as many).
template <typename R, typename T, int... D>
CUDA_CALLABLE R tile_reshape(const tile_t<T, D...>& t) {
    static_assert(R::size == tile_t<T, D...>::size, "a reshape keeps the element count");
    R r;  // the same elements in the same slots: element e stays with thread e % B
    tile_each_slot<R>([&](int k) { r.data[k] = t.data[k]; });
    return r;
}
template <typename R, typename T, int... D>
CUDA_CALLABLE void adj_tile_reshape(const tile_t<T, D...>&, tile_t<T, D...>& adj_t,
                                    const R& adj_ret) {
    tile_each_slot<R>([&](int k) { adj_t.data[k] = add(adj_t.data[k], adj_ret.data[k]); });
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

/// What a product of tiles of elements T... sums in: float64 when any is float64, else float32.
template <typename... T>
struct tile_acc_of {
    using type = float32;
};
template <typename... T>
struct tile_acc_of<float64, T...> {
    using type = float64;
};
template <typename U, typename... T>
struct tile_acc_of<U, T...> {
    using type = typename tile_acc_of<T...>::type;
};

/// c = a @ b for row-major element arrays, summed in Acc: rows of b stream through a row of
/// sums (the inner loop runs along contiguous elements, which the compiler vectorises), and
/// every sum still adds its products in k order.
template <typename Acc, int M, int K, int N, typename TA, typename TB, typename TC>
CUDA_CALLABLE void tile_matmul_rows(const TA* a, const TB* b, TC* c) {
    Acc row[N];
    for (int i = 0; i < M; ++i) {
        for (int j = 0; j < N; ++j) row[j] = Acc(0);
        for (int p = 0; p < K; ++p) {
            const Acc av = Acc(a[i * K + p]);
            const TB* bp = &b[p * N];
            for (int j = 0; j < N; ++j) row[j] += av * Acc(bp[j]);
        }
        for (int j = 0; j < N; ++j) c[i * N + j] = TC(row[j]);
    }
}

/// tile_matmul_as<TC>(a, b): the (M, N) product of an (M, K) and a (K, N) tile of float
/// elements (of any two float types), summed in k order in tile_acc_of, stored as TC.
template <typename TC, typename TA, typename TB, int M, int K, int N>
CUDA_CALLABLE tile_t<TC, M, N> tile_matmul_as(const tile_t<TA, M, K>& a,
                                              const tile_t<TB, K, N>& b) {
    using R = tile_t<TC, M, N>;
    using Acc = typename tile_acc_of<TA, TB, TC>::type;
    if constexpr (tile_block_dim == 1) {
        // one thread holds everything in row-major order (see tile_matmul_rows); narrower
        // elements (float16) are widened once, not once per row of a, when b fits in 64 KB
        R r;
        if constexpr (!is_same_v<TB, Acc> && K * N * sizeof(Acc) <= 65536) {
            Acc wide[K * N];
            for (int e = 0; e < K * N; ++e) wide[e] = Acc(b.data[e]);
            tile_matmul_rows<Acc, M, K, N>(a.data, wide, r.data);
        } else {
            tile_matmul_rows<Acc, M, K, N>(a.data, b.data, r.data);
        }
        return r;
    }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (is_same_v<Acc, float32> && tile_mma_plan<TA, TB, M, K, N>::usable)
        return tile_matmul_mma<TC>(a, b);  // 16-bit floats on the tensor cores
#endif
#if WP_DEVICE_CODE
    if constexpr (is_same_v<Acc, float32> && tile_ffma_plan<TA, TB, M, K, N>::usable)
        return tile_matmul_ffma<TC>(a, b);  // float32, register-blocked
#endif
    const TA* sa = tile_share(a);
    const TB* sb = tile_share(b, tile_share_end<tile_t<TA, M, K>>());
    R r{};
    if constexpr (tile_block_dim > 1 && tile_block_dim % N == 0 && M * N % tile_block_dim == 0 &&
                  R::slots <= tile_unrolled_slots) {
        // every slot of a thread is in one column j: each b[p, j] is read once for all of
        // them, and a thread's rows step by B / N (a warp reads one a[i, p]: a broadcast)
        constexpr int row_step = tile_block_dim / N;
        const int j = tile_lane() % N, i0 = tile_lane() / N;
        Acc acc[R::slots];
        for (int k = 0; k < R::slots; ++k) acc[k] = Acc(0);
        for (int p = 0; p < K; ++p) {
            const Acc bj = Acc(sb[p * N + j]);
            for (int k = 0; k < R::slots; ++k) acc[k] += Acc(sa[(i0 + k * row_step) * K + p]) * bj;
        }
        for (int k = 0; k < R::slots; ++k) r.data[k] = TC(acc[k]);
        return r;
    }
    tile_slots<R>([&](int k, int e) {
        const int i = e / N, j = e % N;
        Acc acc = Acc(0);
        for (int p = 0; p < K; ++p) acc += Acc(sa[i * K + p]) * Acc(sb[p * N + j]);
        r.data[k] = TC(acc);
    });
    return r;
}
/// tile_matmul(a, b): the product as a tile of a's element type.
template <typename TA, typename TB, int M, int K, int N>
CUDA_CALLABLE tile_t<TA, M, N> tile_matmul(const tile_t<TA, M, K>& a, const tile_t<TB, K, N>& b) {
    return tile_matmul_as<TA>(a, b);
}
/// Adds adj_c @ b^T to adj_a and a^T @ adj_c to adj_b.
template <typename TC, typename TA, typename TB, int M, int K, int N>
CUDA_CALLABLE void tile_matmul_backward(const tile_t<TA, M, K>& a, const tile_t<TB, K, N>& b,
                                        tile_t<TA, M, K>& adj_a, tile_t<TB, K, N>& adj_b,
                                        const tile_t<TC, M, N>& adj_c) {
    using Acc = typename tile_acc_of<TA, TB, TC>::type;
    constexpr int at = tile_share_end<tile_t<TC, M, N>>();
    {  // adj_a += adj_c @ b^T
        const TC* g = tile_share(adj_c);
        const TB* sb = tile_share(b, at);
        tile_slots<tile_t<TA, M, K>>([&](int k, int e) {
            const int i = e / K, p = e % K;
            Acc acc = Acc(0);
            for (int j = 0; j < N; ++j) acc += Acc(g[i * N + j]) * Acc(sb[p * N + j]);
            adj_a.data[k] = TA(Acc(adj_a.data[k]) + acc);
        });
    }
    {  // adj_b += a^T @ adj_c
        const TC* g = tile_share(adj_c);
        const TA* sa = tile_share(a, at);
        tile_slots<tile_t<TB, K, N>>([&](int k, int e) {
            const int p = e / N, j = e % N;
            Acc acc = Acc(0);
            for (int i = 0; i < M; ++i) acc += Acc(sa[i * K + p]) * Acc(g[i * N + j]);
            adj_b.data[k] = TB(Acc(adj_b.data[k]) + acc);
        });
    }
}
template <typename TA, typename TB, int M, int K, int N>
CUDA_CALLABLE void adj_tile_matmul(const tile_t<TA, M, K>& a, const tile_t<TB, K, N>& b,
                                   tile_t<TA, M, K>& adj_a, tile_t<TB, K, N>& adj_b,
                                   const tile_t<TA, M, N>& adj_ret) {
    tile_matmul_backward(a, b, adj_a, adj_b, adj_ret);
}

/// tile_matmul_acc(a, b, out, alpha, beta): alpha * (a @ b) + beta * out, Warp's
/// tile_matmul(a, b, out) that accumulates into `out` (whose element type the result has).
template <typename TC, typename TA, typename TB, int M, int K, int N>
CUDA_CALLABLE tile_t<TC, M, N> tile_matmul_acc(const tile_t<TA, M, K>& a, const tile_t<TB, K, N>& b,
                                               const tile_t<TC, M, N>& out, TC alpha, TC beta) {
    const tile_t<TC, M, N> p = tile_matmul_as<TC>(a, b);
    tile_t<TC, M, N> r;
    tile_each_slot<tile_t<TC, M, N>>(
        [&](int k) { r.data[k] = add(mul(alpha, p.data[k]), mul(beta, out.data[k])); });
    return r;
}
template <typename TC, typename TA, typename TB, int M, int K, int N>
CUDA_CALLABLE void adj_tile_matmul_acc(const tile_t<TA, M, K>& a, const tile_t<TB, K, N>& b,
                                       const tile_t<TC, M, N>& out, TC alpha, TC beta,
                                       tile_t<TA, M, K>& adj_a, tile_t<TB, K, N>& adj_b,
                                       tile_t<TC, M, N>& adj_out, TC& adj_alpha, TC& adj_beta,
                                       const tile_t<TC, M, N>& adj_ret) {
    tile_t<TC, M, N> scaled;
    tile_each_slot<tile_t<TC, M, N>>([&](int k) { scaled.data[k] = mul(alpha, adj_ret.data[k]); });
    tile_matmul_backward(a, b, adj_a, adj_b, scaled);
    const tile_t<TC, M, N> p = tile_matmul_as<TC>(a, b);
    tile_slots<tile_t<TC, M, N>>([&](int k, int) {
        adj_out.data[k] = add(adj_out.data[k], mul(beta, adj_ret.data[k]));
        adj_alpha = add(adj_alpha, mul(p.data[k], adj_ret.data[k]));
        adj_beta = add(adj_beta, mul(out.data[k], adj_ret.data[k]));
    });
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
