// native/treadle/tile_block.h -- tile operations across the whole block: scans, sorts, random
// tiles, a value from one thread
//
// Scans and sorts work on the tile shared through the scratch (tile_share): on CUDA each thread
// scans a contiguous chunk of elements, the chunk totals are scanned across the threads
// (Hillis-Steele, in the second half of the scratch), and each chunk then adds the total before
// it; a sort ranks every element against all others (stable: equal keys keep their order) and
// scatters keys and values to their ranks. On the CPU (one thread a block) both are sequential.
#pragma once

#include "bitwise.h"
#include "random.h"
#include "tile.h"
#include "utility.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// The number of threads in the block (1 on the CPU).
CUDA_CALLABLE int32 block_dim() {
#if WP_DEVICE_CODE
    return (int32)blockDim.x;
#else
    return 1;
#endif
}

/// The inclusive scan of t's elements (row-major) under `f`; with `exclusive`, element e gets
/// the fold of the elements before it (`id` for the first).
template <typename T, int... D, typename F>
CUDA_CALLABLE tile_t<T, D...> tile_scan_with(const tile_t<T, D...>& t, F f, T id, bool exclusive) {
    using Tile = tile_t<T, D...>;
    constexpr int n = Tile::size;
    Tile r;
#if WP_DEVICE_CODE
    T* s = const_cast<T*>(tile_share(t));
    T* part = reinterpret_cast<T*>(tile_scratch() + tile_share_end<Tile>());
    constexpr int chunk = (n + tile_block_dim - 1) / tile_block_dim;
    constexpr int parts = (n + chunk - 1) / chunk;  // at most min(n, block): fits the scratch
    const int l = tile_lane();
    const int lo = l * chunk, hi = lo + chunk < n ? lo + chunk : n;
    if (lo < hi) {  // exactly the threads l < parts
        T total = s[lo];
        for (int i = lo + 1; i < hi; ++i) s[i] = total = f(total, s[i]);
        part[l] = total;
    }
    tile_sync();
    for (int off = 1; off < parts; off <<= 1) {
        const bool takes = l < parts && l >= off;
        T before = takes ? part[l - off] : T{};
        tile_sync();
        if (takes) part[l] = f(before, part[l]);
        tile_sync();
    }
    if (l > 0 && l < parts) {
        const T prefix = part[l - 1];
        for (int i = lo; i < hi; ++i) s[i] = f(prefix, s[i]);
    }
    tile_sync();
    tile_slots<Tile>([&](int k, int e) { r.data[k] = exclusive ? (e ? s[e - 1] : id) : s[e]; });
#else
    T acc = t.data[0];
    r.data[0] = exclusive ? id : acc;
    for (int e = 1; e < n; ++e) {
        if (exclusive) r.data[e] = acc;
        acc = f(acc, t.data[e]);
        if (!exclusive) r.data[e] = acc;
    }
#endif
    return r;
}

template <typename T, int... D>
CUDA_CALLABLE tile_t<T, D...> tile_scan_inclusive(const tile_t<T, D...>& t) {
    return tile_scan_with(
        t, [](T a, T b) { return wp::add(a, b); }, T{}, false);
}
template <typename T, int... D>
CUDA_CALLABLE tile_t<T, D...> tile_scan_exclusive(const tile_t<T, D...>& t) {
    return tile_scan_with(
        t, [](T a, T b) { return wp::add(a, b); }, T{}, true);
}
template <typename T, int... D>
CUDA_CALLABLE tile_t<T, D...> tile_scan_max_inclusive(const tile_t<T, D...>& t) {
    return tile_scan_with(
        t, [](T a, T b) { return wp::max(a, b); }, T{}, false);
}
template <typename T, int... D>
CUDA_CALLABLE tile_t<T, D...> tile_scan_min_inclusive(const tile_t<T, D...>& t) {
    return tile_scan_with(
        t, [](T a, T b) { return wp::min(a, b); }, T{}, false);
}

/// Whether key a sorts before key b (floats: NaN after everything).
template <typename K>
CUDA_CALLABLE bool tile_key_less(const K& a, const K& b) {
    if constexpr (is_float_v<K>) {
        if (isnan(a)) return false;
        if (isnan(b)) return true;
    }
    return a < b;
}

/// tile_sort(keys, values): both sorted by ascending key, stably; written to the two results.
template <typename K, int N, typename V>
CUDA_CALLABLE void tile_sort(const tile_t<K, N>& keys, const tile_t<V, N>& values,
                             tile_t<K, N>& keys_out, tile_t<V, N>& values_out) {
    using KT = tile_t<K, N>;
#if WP_DEVICE_CODE
    const K* sk = tile_share(keys);
    int rank[KT::slots];
    tile_slots<KT>([&](int k, int e) {
        const K x = keys.data[k];
        int r = 0;
        for (int j = 0; j < N; ++j)
            r += tile_key_less(sk[j], x) || (j < e && !tile_key_less(x, sk[j]));
        rank[k] = r;
    });
    tile_sync();
    K* ok = reinterpret_cast<K*>(tile_scratch());
    V* ov = reinterpret_cast<V*>(tile_scratch() + tile_share_end<KT>());
    tile_slots<KT>([&](int k, int) {
        ok[rank[k]] = keys.data[k];
        ov[rank[k]] = values.data[k];
    });
    tile_sync();
    tile_slots<KT>([&](int k, int e) {
        keys_out.data[k] = ok[e];
        values_out.data[k] = ov[e];
    });
#else
    // a bottom-up merge sort, stable
    K tk[N];
    V tv[N];
    keys_out = keys;
    values_out = values;
    K* ak = keys_out.data;
    V* av = values_out.data;
    K* bk = tk;
    V* bv = tv;
    for (int width = 1; width < N; width *= 2) {
        for (int lo = 0; lo < N; lo += 2 * width) {
            const int mid = lo + width < N ? lo + width : N;
            const int hi = lo + 2 * width < N ? lo + 2 * width : N;
            int i = lo, j = mid, o = lo;
            while (i < mid && j < hi) {
                const bool right = tile_key_less(ak[j], ak[i]);
                bk[o] = right ? ak[j] : ak[i];
                bv[o++] = right ? av[j++] : av[i++];
            }
            while (i < mid) bk[o] = ak[i], bv[o++] = av[i++];
            while (j < hi) bk[o] = ak[j], bv[o++] = av[j++];
        }
        K* k2 = ak;
        ak = bk;
        bk = k2;
        V* v2 = av;
        av = bv;
        bv = v2;
    }
    if (ak != keys_out.data)
        for (int e = 0; e < N; ++e) keys_out.data[e] = ak[e], values_out.data[e] = av[e];
#endif
}

/// tile_add_inplace(t, index, v): t with every thread's v added to the element at `index`
/// (t[i] += v); tile_sub_inplace subtracts. On CUDA through a shared atomic (struct elements
/// field by field, as their atomic_add does).
template <bool subtract, typename T, int... D, int N>
CUDA_CALLABLE tile_t<T, D...> tile_accumulate_element(const tile_t<T, D...>& t,
                                                      const vec_t<N, int32>& index, const T& v) {
    using Tile = tile_t<T, D...>;
    int c[4];
    const bool inside = tile_index<T, D...>(index, c);
    const T x = subtract ? sub(T{}, v) : v;
    return tile_update_elements(t, [&](T* s) {
        if (!inside) return;
#if WP_DEVICE_CODE
        atomic_add(&s[Tile::linear(c)], x);
#else
        s[Tile::linear(c)] = add(s[Tile::linear(c)], x);
#endif
    });
}
template <bool subtract, typename T, int... D, int N>
CUDA_CALLABLE void adj_tile_accumulate_element(const tile_t<T, D...>&, const vec_t<N, int32>& index,
                                               const T&, tile_t<T, D...>& adj_t, T& adj_v,
                                               const tile_t<T, D...>& adj_ret) {
    using Tile = tile_t<T, D...>;
    int c[4];
    const bool inside = tile_index<T, D...>(index, c);
    tile_slots<Tile>([&](int k, int) { adj_t.data[k] = add(adj_t.data[k], adj_ret.data[k]); });
    const T* g = tile_share(adj_ret);
    if (inside) adj_v = subtract ? sub(adj_v, g[Tile::linear(c)]) : add(adj_v, g[Tile::linear(c)]);
}
template <typename T, int... D, int N>
CUDA_CALLABLE tile_t<T, D...> tile_add_inplace(const tile_t<T, D...>& t,
                                               const vec_t<N, int32>& index, const T& v) {
    return tile_accumulate_element<false>(t, index, v);
}
template <typename T, int... D, int N>
CUDA_CALLABLE void adj_tile_add_inplace(const tile_t<T, D...>& t, const vec_t<N, int32>& index,
                                        const T& v, tile_t<T, D...>& adj_t, vec_t<N, int32>&,
                                        T& adj_v, const tile_t<T, D...>& adj_ret) {
    adj_tile_accumulate_element<false>(t, index, v, adj_t, adj_v, adj_ret);
}
template <typename T, int... D, int N>
CUDA_CALLABLE tile_t<T, D...> tile_sub_inplace(const tile_t<T, D...>& t,
                                               const vec_t<N, int32>& index, const T& v) {
    return tile_accumulate_element<true>(t, index, v);
}
template <typename T, int... D, int N>
CUDA_CALLABLE void adj_tile_sub_inplace(const tile_t<T, D...>& t, const vec_t<N, int32>& index,
                                        const T& v, tile_t<T, D...>& adj_t, vec_t<N, int32>&,
                                        T& adj_v, const tile_t<T, D...>& adj_ret) {
    adj_tile_accumulate_element<true>(t, index, v, adj_t, adj_v, adj_ret);
}

/// tile_and_inplace(t, index, v): t with the element at `index` ANDed with every thread's v
/// (t[i] &= v); tile_or_inplace and tile_xor_inplace likewise. On CUDA through shared atomics.
/// Integer tiles only; there is no gradient (the adjoint does nothing).
/// The bitwise atomic `op` (0 and, 1 or, 2 xor) on one integer.
template <int op, typename S>
CUDA_CALLABLE void tile_atomic_bitwise(S* p, S v) {
    if constexpr (op == 0)
        atomic_and(p, v);
    else if constexpr (op == 1)
        atomic_or(p, v);
    else
        atomic_xor(p, v);
}
template <int op, typename T, int... D, int N>
CUDA_CALLABLE tile_t<T, D...> tile_bitwise_element(const tile_t<T, D...>& t,
                                                   const vec_t<N, int32>& index, const T& v) {
    using Tile = tile_t<T, D...>;
    int c[4];
    const bool inside = tile_index<T, D...>(index, c);
    const int i = Tile::linear(c);
    return tile_update_elements(t, [&](T* s) {
        if (!inside) return;
#if WP_DEVICE_CODE
        if constexpr (is_int_v<T>) {
            tile_atomic_bitwise<op>(&s[i], v);
        } else {  // integer vectors and matrices: component by component
            auto* p = components(s[i]);
            const auto* q = components(v);
            for (int k = 0; k < composite_traits<T>::size; ++k)
                tile_atomic_bitwise<op>(p + k, q[k]);
        }
#else
        if constexpr (op == 0)
            s[i] = bit_and(s[i], v);
        else if constexpr (op == 1)
            s[i] = bit_or(s[i], v);
        else
            s[i] = bit_xor(s[i], v);
#endif
    });
}
#define WP_TILE_BITWISE_INPLACE(name, op)                                                      \
    template <typename T, int... D, int N>                                                     \
    CUDA_CALLABLE tile_t<T, D...> name(const tile_t<T, D...>& t, const vec_t<N, int32>& index, \
                                       const T& v) {                                           \
        return tile_bitwise_element<op>(t, index, v);                                          \
    }                                                                                          \
    template <typename T, int... D, int N>                                                     \
    CUDA_CALLABLE void adj_##name(const tile_t<T, D...>&, const vec_t<N, int32>&, const T&,    \
                                  tile_t<T, D...>&, vec_t<N, int32>&, T&,                      \
                                  const tile_t<T, D...>&) {}
WP_TILE_BITWISE_INPLACE(tile_and_inplace, 0)
WP_TILE_BITWISE_INPLACE(tile_or_inplace, 1)
WP_TILE_BITWISE_INPLACE(tile_xor_inplace, 2)
#undef WP_TILE_BITWISE_INPLACE

/// tile_scatter(t, index, v, has, mode), what tile_scatter_masked and tile_scatter_add call: t
/// with the element at `index` (one coordinate per dimension) written (mode 0) or added to,
/// atomically (1) or not (2), by each thread whose `has` is set; coordinates outside the tile
/// change nothing.
template <typename T, int... D, int N>
CUDA_CALLABLE tile_t<T, D...> tile_scatter(const tile_t<T, D...>& t, const vec_t<N, int32>& index,
                                           const T& v, bool has, int32 mode) {
    using Tile = tile_t<T, D...>;
    int c[4];
    const bool write = tile_index<T, D...>(index, c) && has;
    const int i = Tile::linear(c);
    return tile_update_elements(t, [&](T* s) {
        if (!write) return;
        if (mode == 0)
            s[i] = v;
#if WP_DEVICE_CODE
        else if (mode == 1)
            atomic_add(&s[i], v);
#endif
        else
            s[i] = add(s[i], v);
    });
}
template <typename T, int... D, int N>
CUDA_CALLABLE void adj_tile_scatter(const tile_t<T, D...>&, const vec_t<N, int32>& index, const T&,
                                    bool has, int32 mode, tile_t<T, D...>& adj_t, vec_t<N, int32>&,
                                    T& adj_v, bool&, int32&, const tile_t<T, D...>& adj_ret) {
    using Tile = tile_t<T, D...>;
    int c[4];
    const bool write = tile_index<T, D...>(index, c) && has;
    const int i = Tile::linear(c);
#if WP_DEVICE_CODE
    unsigned char* marks = tile_scratch();  // elements some thread overwrote (mode 0)
    tile_sync();
    tile_slots<Tile>([&](int, int e) { marks[e] = 0; });
    tile_sync();
    if (write && mode == 0) marks[i] = 1;
    tile_sync();
    tile_slots<Tile>([&](int k, int e) {
        if (!marks[e]) adj_t.data[k] = add(adj_t.data[k], adj_ret.data[k]);
    });
    const T* g = tile_share(adj_ret);
    if (write) adj_v = add(adj_v, g[i]);
#else
    for (int e = 0; e < Tile::size; ++e)
        if (!(write && mode == 0 && e == i)) adj_t.data[e] = add(adj_t.data[e], adj_ret.data[e]);
    if (write) adj_v = add(adj_v, adj_ret.data[i]);
#endif
}
/// The generator state of this thread for a random tile: each thread draws its slots in turn
/// from pcg(rng + lane).
CUDA_CALLABLE uint32 tile_rand_state(uint32 rng) { return rand_pcg(rng + uint32(tile_lane())); }

template <typename Tile>
CUDA_CALLABLE Tile tile_randi(uint32 rng) {
    uint32 s = tile_rand_state(rng);
    Tile t{};
    tile_slots<Tile>([&](int k, int) { t.data[k] = randi(s); });
    return t;
}
template <typename Tile>
CUDA_CALLABLE Tile tile_randi(uint32 rng, int32 lo, int32 hi) {
    uint32 s = tile_rand_state(rng);
    Tile t{};
    tile_slots<Tile>([&](int k, int) { t.data[k] = randi(s, lo, hi); });
    return t;
}
template <typename Tile>
CUDA_CALLABLE Tile tile_randf(uint32 rng) {
    uint32 s = tile_rand_state(rng);
    Tile t{};
    tile_slots<Tile>([&](int k, int) { t.data[k] = randf(s); });
    return t;
}
template <typename Tile>
CUDA_CALLABLE Tile tile_randf(uint32 rng, float32 lo, float32 hi) {
    uint32 s = tile_rand_state(rng);
    Tile t{};
    tile_slots<Tile>([&](int k, int) { t.data[k] = randf(s, lo, hi); });
    return t;
}

/// The tile whose every element is thread `thread`'s `value`.
template <typename Tile>
CUDA_CALLABLE Tile tile_from_thread(typename Tile::value_type value, int32 thread) {
#if WP_DEVICE_CODE
    using T = typename Tile::value_type;
    T* s = reinterpret_cast<T*>(tile_scratch());
    tile_sync();
    if (tile_lane() == thread) s[0] = value;
    tile_sync();
    return tile_full<Tile>(s[0]);
#else
    (void)thread;
    return tile_full<Tile>(value);
#endif
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
