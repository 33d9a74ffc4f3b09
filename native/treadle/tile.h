// native/treadle/tile.h -- tiles: values a thread block holds together (Warp's tile model)
//
// A tile_t<T, D...> is an array of shape D... (1 to 4 extents, row-major) whose elements are
// spread over the WP_TILE_BLOCK_DIM threads of a block: element e (its row-major position)
// lives with thread e % B in slot e / B of that thread's `data`. Every thread of the block
// runs every tile operation with the same arguments (Warp's rule), so the slots of two tiles
// of one type line up and elementwise operations never talk across threads. Operations that
// read other threads' elements (extracting one element, reductions, transposes, products,
// broadcasts) first write the tile to a block-wide scratch area in shared memory
// (tile_share), between two barriers. On the CPU a block is one thread (B = 1), which holds
// every element in order and needs no scratch.
//
// The kernel source defines WP_TILE_BLOCK_DIM (the block size it was built for) and
// WP_TILE_SCRATCH_BYTES (room for the two largest tiles it uses) before including this.
//
// Loads and stores take the array and one offset per dimension; elements outside the array
// read as zero and are not written (partial tiles at the edges). Adjoints follow scalar.h:
// adj_f(inputs..., adj_inputs&..., adj_ret) adds to the adjoints, each thread for the slots it
// holds; an array's slot is the array itself, whose gradient (array_t::grad) the adjoint adds to.
#pragma once

#include "adjoint.h"
#include "array.h"
#include "atomic.h"
#include "bitwise.h"
#include "mat.h"
#include "scalar.h"
#include "vec.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

#if !defined(WP_TILE_BLOCK_DIM)
#define WP_TILE_BLOCK_DIM 1
#endif
#if !defined(WP_TILE_SCRATCH_BYTES)
#define WP_TILE_SCRATCH_BYTES 16
#endif

namespace wp {

/// Threads that hold a tile together: the block size the kernel was built for (1 on the CPU).
#if WP_DEVICE_CODE || defined(__CUDACC__)
constexpr int tile_block_dim = WP_TILE_BLOCK_DIM;
#else
constexpr int tile_block_dim = 1;
#endif

/// This thread's position in its block.
CUDA_CALLABLE int tile_lane() {
#if WP_DEVICE_CODE
    return (int)threadIdx.x;
#else
    return 0;
#endif
}

/// A barrier over the block (nothing on the CPU, where a block is one thread).
CUDA_CALLABLE void tile_sync() {
#if WP_DEVICE_CODE
    __syncthreads();
#endif
}

/// wp.tid() in a kernel that uses tiles: the leading coordinates of flat launch index
/// `index` (a tiled launch adds the block as its last dimension, which `i, j = wp.tid()` of a
/// 2-D tiled launch leaves out).
template <typename... I>
CUDA_CALLABLE void tile_tid(int64 index, const launch_bounds_t& b, I&... out) {
    int32 c[4] = {0, 0, 0, 0};
    for (int d = b.ndim - 1; d > 0; --d) {
        c[d] = int32(index % b.shape[d]);
        index /= b.shape[d];
    }
    c[0] = int32(index);
    int k = 0;
    ((out = c[k++]), ...);
}

template <typename T, int... D>
struct tile_t {
    static_assert(sizeof...(D) >= 1 && sizeof...(D) <= 4, "tiles have 1 to 4 dimensions");
    static constexpr int ndim = (int)sizeof...(D);
    static constexpr int size = (D * ...);
    /// Slots per thread: ceil(size / block).
    static constexpr int slots = (size + tile_block_dim - 1) / tile_block_dim;
    using value_type = T;
    T data[slots];

    /// Extent of dimension i.
    static constexpr CUDA_CALLABLE int dim(int i) {
        constexpr int d[] = {D...};
        return d[i];
    }
    /// The element a thread's slot k holds (may be >= size when the tile has fewer elements
    /// than the block has threads: that slot holds nothing).
    static CUDA_CALLABLE int element(int k) { return tile_lane() + k * tile_block_dim; }
    /// Row-major coordinates of element e (c[0] the first dimension; unused ones 0).
    static CUDA_CALLABLE void coords(int e, int (&c)[4]) {
        c[0] = c[1] = c[2] = c[3] = 0;
        for (int i = ndim - 1; i >= 0; --i) {
            c[i] = e % dim(i);
            e /= dim(i);
        }
    }
    /// The element at coordinates c (row-major).
    static CUDA_CALLABLE int linear(const int (&c)[4]) {
        int e = 0;
        for (int i = 0; i < ndim; ++i) e = e * dim(i) + c[i];
        return e;
    }
};

/// Whether T is a tile type (for the overloads below).
template <typename T>
inline constexpr bool is_tile_v = false;
template <typename T, int... D>
inline constexpr bool is_tile_v<tile_t<T, D...>> = true;

/// Slots a thread's loops over its elements unroll up to (a tile of more slots lives in local
/// memory anyway, and unrolling its loops only makes the compile slow).
constexpr int tile_unrolled_slots = 16;
#if defined(__CUDACC__)
#define WP_TILE_LOOP_NO_UNROLL _Pragma("unroll 1")
#else
#define WP_TILE_LOOP_NO_UNROLL
#endif

/// f(k, e) for each slot k of this thread that holds an element e.
template <typename Tile, typename F>
CUDA_CALLABLE void tile_slots(F&& f) {
    if constexpr (Tile::slots <= tile_unrolled_slots) {
        for (int k = 0; k < Tile::slots; ++k) {
            const int e = Tile::element(k);
            if (e < Tile::size) f(k, e);
        }
    } else {
        WP_TILE_LOOP_NO_UNROLL
        for (int k = 0; k < Tile::slots; ++k) {
            const int e = Tile::element(k);
            if (e < Tile::size) f(k, e);
        }
    }
}
/// f(k) for every slot k of this thread (elementwise operations, which may also compute the
/// slots that hold no element).
template <typename Tile, typename F>
CUDA_CALLABLE void tile_each_slot(F&& f) {
    if constexpr (Tile::slots <= tile_unrolled_slots) {
        for (int k = 0; k < Tile::slots; ++k) f(k);
    } else {
        WP_TILE_LOOP_NO_UNROLL
        for (int k = 0; k < Tile::slots; ++k) f(k);
    }
}

/// The block's shared scratch (WP_TILE_SCRATCH_BYTES, 16-byte aligned): one area per kernel,
/// reused by every operation that reads other threads' elements.
#if WP_DEVICE_CODE
__device__ inline unsigned char* tile_scratch() {
    extern __shared__ __align__(16) unsigned char wp_tile_scratch[];
    return wp_tile_scratch;
}
#endif

/// Every element of `t`, in row-major order, readable by every thread of the block until the
/// next tile_share: on CUDA written to the scratch at byte `at` between two barriers (the
/// first lets earlier readers of the scratch finish); on the CPU the tile's own data.
template <typename T, int... D>
CUDA_CALLABLE const T* tile_share(const tile_t<T, D...>& t, int at = 0) {
#if WP_DEVICE_CODE
    using Tile = tile_t<T, D...>;
    T* s = reinterpret_cast<T*>(tile_scratch() + at);
    tile_sync();
    tile_slots<Tile>([&](int k, int e) { s[e] = t.data[k]; });
    tile_sync();
    return s;
#else
    (void)at;
    return t.data;
#endif
}
/// The byte offset after a shared tile of this type (16-byte aligned), for a second one.
template <typename Tile>
CUDA_CALLABLE constexpr int tile_share_end() {
    return (int)((sizeof(typename Tile::value_type) * Tile::size + 15) / 16 * 16);
}

/// a + b by wp::add, or by the add of a struct's generated gradient code (found by
/// argument-dependent lookup, which a call inside tile_sink, whose member is named add, lacks).
template <typename T>
CUDA_CALLABLE T tile_element_add(const T& a, const T& b) {
    return add(a, b);
}

/// Where tile_gather_adjoint's contributions go: add(e, v) adds v to element e's adjoint (a
/// shared atomic on CUDA, the thread's own slot on the CPU).
template <typename T>
struct tile_sink {
    T* to;
    CUDA_CALLABLE void add(int e, const T& v) const {
#if WP_DEVICE_CODE
        grad_accumulate(&to[e], v);
#else
        to[e] = tile_element_add(to[e], v);
#endif
    }
};

/// Adds to each thread's slots of `adj` the values that threads contribute for any element
/// (`contribute(sink)` calls sink.add(e, v) for each of its contributions): through shared
/// atomics on CUDA, directly on the CPU. Every thread of the block calls it.
template <typename Tile, typename F>
CUDA_CALLABLE void tile_gather_adjoint(Tile& adj, F&& contribute) {
    using T = typename Tile::value_type;
#if WP_DEVICE_CODE
    T* s = reinterpret_cast<T*>(tile_scratch());
    tile_sync();
    tile_slots<Tile>([&](int, int e) { s[e] = T{}; });
    tile_sync();
    contribute(tile_sink<T>{s});
    tile_sync();
    tile_slots<Tile>([&](int k, int e) { adj.data[k] = add(adj.data[k], s[e]); });
#else
    contribute(tile_sink<T>{adj.data});
#endif
}

// ---- construction --------------------------------------------------------------------------

/// tile_full<Tile>(v): every element v; tile_zeros / tile_ones.
template <typename Tile>
CUDA_CALLABLE Tile tile_full(typename Tile::value_type v) {
    Tile t;
    tile_each_slot<Tile>([&](int k) { t.data[k] = v; });
    return t;
}
template <typename Tile>
CUDA_CALLABLE Tile tile_zeros() {
    return tile_full<Tile>(typename Tile::value_type{});
}
template <typename Tile>
CUDA_CALLABLE Tile tile_ones() {
    using T = typename Tile::value_type;
    if constexpr (is_number_v<T>)
        return tile_full<Tile>(T(1));
    else
        return tile_full<Tile>(T(1.0f));
}
template <typename Tile>
CUDA_CALLABLE void adj_tile_full(typename Tile::value_type, typename Tile::value_type& adj_v,
                                 const Tile& adj_ret) {
    tile_slots<Tile>([&](int k, int) { adj_v = add(adj_v, adj_ret.data[k]); });
}

/// tile_arange<Tile>(start, step): element e is start + e * step (1-D tiles).
template <typename Tile>
CUDA_CALLABLE Tile tile_arange(typename Tile::value_type start, typename Tile::value_type step) {
    using T = typename Tile::value_type;
    Tile t{};
    tile_slots<Tile>([&](int k, int e) { t.data[k] = T(start + T(e) * step); });
    return t;
}

/// tile(x): the tile of shape (B,) whose element i is thread i's x. For a vector x of N
/// components, tile_from_vector gives shape (N, B): element (c, i) is thread i's x[c].
template <typename Tile>
CUDA_CALLABLE Tile tile(typename Tile::value_type x) {
    Tile t{};
    t.data[0] = x;
    return t;
}
template <typename Tile>
CUDA_CALLABLE void adj_tile(typename Tile::value_type, typename Tile::value_type& adj_x,
                            const Tile& adj_ret) {
    adj_x = add(adj_x, adj_ret.data[0]);
}
template <typename Tile, int N, typename T>
CUDA_CALLABLE Tile tile_from_vector(const vec_t<N, T>& x) {
    Tile t{};
    for (int c = 0; c < N; ++c) t.data[c] = x.c[c];
    return t;
}
template <typename Tile, int N, typename T>
CUDA_CALLABLE void adj_tile_from_vector(const vec_t<N, T>&, vec_t<N, T>& adj_x,
                                        const Tile& adj_ret) {
    for (int c = 0; c < N; ++c) adj_x.c[c] = add(adj_x.c[c], adj_ret.data[c]);
}
/// tile(x) of an R x C matrix: the (R, C, B) tile whose element (r, c, i) is thread i's x[r][c].
template <typename Tile, int R, int C, typename T>
CUDA_CALLABLE Tile tile_from_matrix(const mat_t<R, C, T>& x) {
    Tile t{};
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) t.data[r * C + c] = x.m[r][c];
    return t;
}
template <typename Tile, int R, int C, typename T>
CUDA_CALLABLE void adj_tile_from_matrix(const mat_t<R, C, T>&, mat_t<R, C, T>& adj_x,
                                        const Tile& adj_ret) {
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) adj_x.m[r][c] = add(adj_x.m[r][c], adj_ret.data[r * C + c]);
}

/// untile(t): this thread's element of a tile of shape (B,); of shape (N, B), the vector of
/// its N elements; of shape (R, C, B), the R x C matrix of them.
template <typename T, int B>
CUDA_CALLABLE T untile(const tile_t<T, B>& t) {
    static_assert(B == tile_block_dim, "untile takes a tile of one element per thread");
    return t.data[0];
}
template <typename T, int B>
CUDA_CALLABLE void adj_untile(const tile_t<T, B>&, tile_t<T, B>& adj_t, T adj_ret) {
    adj_t.data[0] = add(adj_t.data[0], adj_ret);
}
template <typename T, int N, int B>
CUDA_CALLABLE vec_t<N, T> untile(const tile_t<T, N, B>& t) {
    static_assert(B == tile_block_dim, "untile takes a tile of one element per thread");
    vec_t<N, T> v;
    for (int c = 0; c < N; ++c) v.c[c] = t.data[c];
    return v;
}
template <typename T, int N, int B>
CUDA_CALLABLE void adj_untile(const tile_t<T, N, B>&, tile_t<T, N, B>& adj_t,
                              const vec_t<N, T>& adj_ret) {
    for (int c = 0; c < N; ++c) adj_t.data[c] = add(adj_t.data[c], adj_ret.c[c]);
}
template <typename T, int R, int C, int B>
CUDA_CALLABLE mat_t<R, C, T> untile(const tile_t<T, R, C, B>& t) {
    static_assert(B == tile_block_dim, "untile takes a tile of one element per thread");
    mat_t<R, C, T> m;
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) m.m[r][c] = t.data[r * C + c];
    return m;
}
template <typename T, int R, int C, int B>
CUDA_CALLABLE void adj_untile(const tile_t<T, R, C, B>&, tile_t<T, R, C, B>& adj_t,
                              const mat_t<R, C, T>& adj_ret) {
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c)
            adj_t.data[r * C + c] = add(adj_t.data[r * C + c], adj_ret.m[r][c]);
}

// ---- loads and stores ----------------------------------------------------------------------

/// The address in `a` of tile element coordinates c at offsets o, or null outside the array.
template <typename T>
CUDA_CALLABLE T* tile_address(T* base, const array_t<T>& a, const int (&o)[4], const int (&c)[4],
                              int ndim) {
    int64 bytes = 0;
    for (int d = 0; d < ndim; ++d) {
        const int64 i = int64(o[d]) + c[d];
        if (i < 0 || i >= a.shape[d]) return nullptr;
        bytes += i * a.strides[d];
    }
    return byte_offset(base, bytes);
}

/// The offsets of a load or store (one per dimension) as coordinates.
template <int N>
CUDA_CALLABLE void tile_offsets(const vec_t<N, int32>& v, int (&o)[4]) {
    o[0] = o[1] = o[2] = o[3] = 0;
    for (int d = 0; d < N; ++d) o[d] = v.c[d];
}

/// f(k, p) for each slot k of this thread that holds an element, p the element's address in
/// `base` (the data or gradient of `a`, laid out as `a`) or null outside the array. A 2-D tile
/// that lies inside the array is walked without bounds checks, on CUDA by one pointer step
/// per slot when the block's threads cover whole rows.
template <typename Tile, typename T, typename F>
CUDA_CALLABLE void tile_each_address(T* base, const array_t<T>& a, const int (&o)[4], F&& f) {
    if constexpr (Tile::ndim == 2) {
        constexpr int rows = Tile::dim(0), inner = Tile::dim(1);
        const bool inside = o[0] >= 0 && o[1] >= 0 && int64(o[0]) + rows <= a.shape[0] &&
                            int64(o[1]) + inner <= a.shape[1];
        if (inside) {
            if constexpr (tile_block_dim == 1) {
                for (int r = 0; r < rows; ++r) {
                    T* row = byte_offset(
                        base, int64(o[0] + r) * a.strides[0] + int64(o[1]) * a.strides[1]);
                    for (int c = 0; c < inner; ++c)
                        f(r * inner + c, byte_offset(row, int64(c) * a.strides[1]));
                }
                return;
            } else if constexpr (tile_block_dim % inner == 0) {
                const int lane = tile_lane();
                T* first = byte_offset(base, int64(o[0] + lane / inner) * a.strides[0] +
                                                 int64(o[1] + lane % inner) * a.strides[1]);
                const int64 step = int64(tile_block_dim / inner) * a.strides[0];
                tile_slots<Tile>([&](int k, int) { f(k, byte_offset(first, k * step)); });
                return;
            }
        }
    }
    tile_slots<Tile>([&](int k, int e) {
        int c[4];
        Tile::coords(e, c);
        f(k, tile_address(base, a, o, c, Tile::ndim));
    });
}

/// tile_load<Tile>(a, offsets): the tile at `offsets` of `a` (one per dimension); elements
/// outside the array are zero.
template <typename Tile, typename T, int N>
CUDA_CALLABLE Tile tile_load(const array_t<T>& a, const vec_t<N, int32>& offsets) {
    static_assert(N == Tile::ndim, "one offset per tile dimension");
    int o[4];
    tile_offsets(offsets, o);
    Tile t{};
    tile_each_address<Tile>(a.data, a, o, [&](int k, const T* p) { t.data[k] = p ? *p : T{}; });
    return t;
}
template <typename Tile, typename T, int N>
CUDA_CALLABLE void adj_tile_load(const array_t<T>& a, const vec_t<N, int32>& offsets,
                                 const array_t<T>&, vec_t<N, int32>&, const Tile& adj_ret) {
    if (!a.grad) return;
    int o[4];
    tile_offsets(offsets, o);
    // grad_accumulate: atomically, field by field for structs
    tile_each_address<Tile>(a.grad, a, o, [&](int k, T* g) {
        if (g) grad_accumulate(g, adj_ret.data[k]);
    });
}

/// tile_store(a, t, offsets): writes the elements of t that fall inside `a` at `offsets`.
/// Returns a dummy int32 (calls that write arrays give one).
template <typename T, int... D, int N>
CUDA_CALLABLE int32 tile_store(const array_t<T>& a, const tile_t<T, D...>& t,
                               const vec_t<N, int32>& offsets) {
    using Tile = tile_t<T, D...>;
    static_assert(N == Tile::ndim, "one offset per tile dimension");
    int o[4];
    tile_offsets(offsets, o);
    tile_each_address<Tile>(a.data, a, o, [&](int k, T* p) {
        if (p) *p = t.data[k];
    });
    return 0;
}
/// The backward pass of a store: t's adjoint gains the gradient of the elements it wrote.
template <typename T, int... D, int N>
CUDA_CALLABLE void adj_tile_store(const array_t<T>& a, const tile_t<T, D...>&,
                                  const vec_t<N, int32>& offsets, const array_t<T>&,
                                  tile_t<T, D...>& adj_t, vec_t<N, int32>&, int32) {
    using Tile = tile_t<T, D...>;
    if (!a.grad) return;
    int o[4];
    tile_offsets(offsets, o);
    tile_each_address<Tile>(a.grad, a, o, [&](int k, const T* g) {
        if (g) adj_t.data[k] = add(adj_t.data[k], *g);
    });
}

/// tile_atomic_add(a, t, offsets): adds the elements of t that fall inside `a` at `offsets`,
/// atomically; returns the tile of the values the elements held before (zero outside).
template <typename T, int... D, int N>
CUDA_CALLABLE tile_t<T, D...> tile_atomic_add(const array_t<T>& a, const tile_t<T, D...>& t,
                                              const vec_t<N, int32>& offsets) {
    using Tile = tile_t<T, D...>;
    static_assert(N == Tile::ndim, "one offset per tile dimension");
    int o[4];
    tile_offsets(offsets, o);
    Tile old{};
    tile_each_address<Tile>(a.data, a, o, [&](int k, T* p) {
        if (p) old.data[k] = atomic_add(p, t.data[k]);
    });
    return old;
}
template <typename T, int... D, int N>
CUDA_CALLABLE void adj_tile_atomic_add(const array_t<T>& a, const tile_t<T, D...>& t,
                                       const vec_t<N, int32>& offsets, const array_t<T>&,
                                       tile_t<T, D...>& adj_t, vec_t<N, int32>& adj_o,
                                       const tile_t<T, D...>&) {
    adj_tile_store(a, t, offsets, a, adj_t, adj_o, 0);
}

// ---- elements ------------------------------------------------------------------------------

/// tile_extract(t, index): the element at `index` (one coordinate per dimension), in every
/// thread (each thread may ask for a different one). Coordinates outside the tile read as zero.
template <typename T, int... D, int N>
CUDA_CALLABLE bool tile_index(const vec_t<N, int32>& index, int (&c)[4]) {
    using Tile = tile_t<T, D...>;
    static_assert(N == Tile::ndim, "one index per tile dimension");
    bool inside = true;
    c[0] = c[1] = c[2] = c[3] = 0;
    for (int d = 0; d < N; ++d) {
        c[d] = index.c[d];
        inside = inside && c[d] >= 0 && c[d] < Tile::dim(d);
    }
    return inside;
}
template <typename T, int... D, int N>
CUDA_CALLABLE T tile_extract(const tile_t<T, D...>& t, const vec_t<N, int32>& index) {
    using Tile = tile_t<T, D...>;
    int c[4];
    const bool inside = tile_index<T, D...>(index, c);
    const T* s = tile_share(t);
    return inside ? s[Tile::linear(c)] : T{};
}
/// tile_extract(t, i, j, ...): the same with one integer per dimension, as native code
/// (@wp.func_native snippets) writes it.
template <typename T, int... D, typename... I,
          typename = enable_if_t<sizeof...(I) == sizeof...(D) && (is_int_v<I> && ...)>>
CUDA_CALLABLE T tile_extract(const tile_t<T, D...>& t, I... i) {
    return tile_extract(t, vec_t<int(sizeof...(I)), int32>{{int32(i)...}});
}
template <typename T, int... D, int N>
CUDA_CALLABLE void adj_tile_extract(const tile_t<T, D...>&, const vec_t<N, int32>& index,
                                    tile_t<T, D...>& adj_t, vec_t<N, int32>&, const T& adj_ret) {
    using Tile = tile_t<T, D...>;
    int c[4];
    const bool inside = tile_index<T, D...>(index, c);
    const int e = Tile::linear(c);
    // Warp's rule for a register tile: the thread that holds the element takes its own
    // adj_ret (every thread extracts the same element with the same gradient when a value
    // the whole block computes is read: adding every thread's would count it B times)
    tile_slots<Tile>([&](int k, int slot_e) {
        if (inside && slot_e == e) adj_t.data[k] = add(adj_t.data[k], adj_ret);
    });
}

/// tile_update_elements(t, f): t after f(elements) changed some of its elements, where
/// `elements` is every element of t in row-major order: the block's shared copy on CUDA
/// (every thread calls it; f's writes from all threads land before any thread reads its slots
/// back), the thread's own slots on the CPU. Single-element updates (t[i] = v, t[i] += v, the
/// scatters) are built on it; f tests WP_DEVICE_CODE where CUDA needs atomics.
template <typename T, int... D, typename F>
CUDA_CALLABLE tile_t<T, D...> tile_update_elements(const tile_t<T, D...>& t, F&& f) {
    using Tile = tile_t<T, D...>;
#if WP_DEVICE_CODE
    T* s = const_cast<T*>(tile_share(t));
    f(s);
    tile_sync();
    Tile r;
    tile_slots<Tile>([&](int k, int e) { r.data[k] = s[e]; });
    return r;
#else
    Tile r = t;
    f(r.data);
    return r;
#endif
}

/// tile_assign(t, index, v): t with the element at `index` set to the v of the thread that
/// assigns it (every thread of the block runs the assignment; when several threads assign one
/// element, one of them wins). A coordinate outside the tile changes nothing.
template <typename T, int... D, int N>
CUDA_CALLABLE tile_t<T, D...> tile_assign(const tile_t<T, D...>& t, const vec_t<N, int32>& index,
                                          const T& v) {
    using Tile = tile_t<T, D...>;
    int c[4];
    const bool inside = tile_index<T, D...>(index, c);
    return tile_update_elements(t, [&](T* s) {
        if (inside) s[Tile::linear(c)] = v;
    });
}
/// Its adjoint: an assigned element's gradient goes to the v of the threads that assigned it,
/// every other element's to t.
template <typename T, int... D, int N>
CUDA_CALLABLE void adj_tile_assign(const tile_t<T, D...>&, const vec_t<N, int32>& index, const T&,
                                   tile_t<T, D...>& adj_t, vec_t<N, int32>&, T& adj_v,
                                   const tile_t<T, D...>& adj_ret) {
    using Tile = tile_t<T, D...>;
    int c[4];
    const bool inside = tile_index<T, D...>(index, c);
    const int at = inside ? Tile::linear(c) : -1;
#if WP_DEVICE_CODE
    unsigned char* marks = tile_scratch();  // which elements some thread assigned
    tile_sync();
    tile_slots<Tile>([&](int, int e) { marks[e] = 0; });
    tile_sync();
    if (inside) marks[at] = 1;
    tile_sync();
    tile_slots<Tile>([&](int k, int e) {
        if (!marks[e]) adj_t.data[k] = add(adj_t.data[k], adj_ret.data[k]);
    });
    const T* g = tile_share(adj_ret);
    if (inside) adj_v = add(adj_v, g[at]);
#else
    for (int e = 0; e < Tile::size; ++e)
        if (e != at) adj_t.data[e] = add(adj_t.data[e], adj_ret.data[e]);
    if (inside) adj_v = add(adj_v, adj_ret.data[at]);
#endif
}

// ---- elementwise arithmetic (the operators on tiles) ---------------------------------------

/// name(a, b) of two tiles of one type, element by element.
#define WP_TILE_ELEMENTWISE(name)                                                                \
    template <typename T, int... D>                                                              \
    CUDA_CALLABLE tile_t<T, D...> name(const tile_t<T, D...>& a, const tile_t<T, D...>& b) {     \
        tile_t<T, D...> r;                                                                       \
        tile_each_slot<tile_t<T, D...>>([&](int k) { r.data[k] = name(a.data[k], b.data[k]); }); \
        return r;                                                                                \
    }

#define WP_TILE_BINARY(name)                                                                 \
    WP_TILE_ELEMENTWISE(name)                                                                \
    template <typename T, int... D>                                                          \
    CUDA_CALLABLE void adj_##name(const tile_t<T, D...>& a, const tile_t<T, D...>& b,        \
                                  tile_t<T, D...>& adj_a, tile_t<T, D...>& adj_b,            \
                                  const tile_t<T, D...>& adj_ret) {                          \
        tile_slots<tile_t<T, D...>>([&](int k, int) {                                        \
            adj_##name(a.data[k], b.data[k], adj_a.data[k], adj_b.data[k], adj_ret.data[k]); \
        });                                                                                  \
    }

WP_TILE_BINARY(add)
WP_TILE_BINARY(sub)
// one element type: more specialised than both scalar.h's name(T, T) and the mixed forms below
WP_TILE_BINARY(mul)
WP_TILE_BINARY(div)
#undef WP_TILE_BINARY

/// & | ^ of two integer tiles of one type (elements: integers or integer vectors / matrices),
/// element by element. Integer values have no gradient: the adjoints do nothing.
#define WP_TILE_BITWISE(name)                                                     \
    WP_TILE_ELEMENTWISE(name)                                                     \
    template <typename T, int... D>                                               \
    CUDA_CALLABLE void adj_##name(const tile_t<T, D...>&, const tile_t<T, D...>&, \
                                  tile_t<T, D...>&, tile_t<T, D...>&, const tile_t<T, D...>&) {}
WP_TILE_BITWISE(bit_and)
WP_TILE_BITWISE(bit_or)
WP_TILE_BITWISE(bit_xor)
#undef WP_TILE_BITWISE
#undef WP_TILE_ELEMENTWISE

/// The element type of f(a, b) for element types A and B (mul, div).
#define WP_TILE_RESULT(name, A, B) decltype(name(A{}, B{}))

/// * and / of two tiles of one shape (one element type a scalar, which the compiler checked),
/// and of a tile and a value that is not a tile (either order): each element with the other
/// operand. A value operand's adjoint gains this thread's share (each thread adds the
/// contributions of its own slots; the compiler gives every thread its own copy).
#define WP_TILE_PRODUCT(name)                                                                      \
    template <typename T, typename U, int... D>                                                    \
    CUDA_CALLABLE tile_t<WP_TILE_RESULT(name, T, U), D...> name(const tile_t<T, D...>& a,          \
                                                                const tile_t<U, D...>& b) {        \
        tile_t<WP_TILE_RESULT(name, T, U), D...> r;                                                \
        tile_each_slot<tile_t<T, D...>>([&](int k) { r.data[k] = name(a.data[k], b.data[k]); });   \
        return r;                                                                                  \
    }                                                                                              \
    template <typename T, typename U, int... D, typename R>                                        \
    CUDA_CALLABLE void adj_##name(const tile_t<T, D...>& a, const tile_t<U, D...>& b,              \
                                  tile_t<T, D...>& adj_a, tile_t<U, D...>& adj_b,                  \
                                  const tile_t<R, D...>& adj_ret) {                                \
        tile_slots<tile_t<T, D...>>([&](int k, int) {                                              \
            adj_##name(a.data[k], b.data[k], adj_a.data[k], adj_b.data[k], adj_ret.data[k]);       \
        });                                                                                        \
    }                                                                                              \
    template <typename T, int... D, typename S, typename = enable_if_t<!is_tile_v<S>>>             \
    CUDA_CALLABLE tile_t<WP_TILE_RESULT(name, T, S), D...> name(const tile_t<T, D...>& a,          \
                                                                const S& s) {                      \
        tile_t<WP_TILE_RESULT(name, T, S), D...> r;                                                \
        tile_each_slot<tile_t<T, D...>>([&](int k) { r.data[k] = name(a.data[k], s); });           \
        return r;                                                                                  \
    }                                                                                              \
    template <typename T, int... D, typename S, typename = enable_if_t<!is_tile_v<S>>>             \
    CUDA_CALLABLE tile_t<WP_TILE_RESULT(name, S, T), D...> name(const S& s,                        \
                                                                const tile_t<T, D...>& a) {        \
        tile_t<WP_TILE_RESULT(name, S, T), D...> r;                                                \
        tile_each_slot<tile_t<T, D...>>([&](int k) { r.data[k] = name(s, a.data[k]); });           \
        return r;                                                                                  \
    }                                                                                              \
    template <typename T, int... D, typename S, typename R, typename = enable_if_t<!is_tile_v<S>>> \
    CUDA_CALLABLE void adj_##name(const tile_t<T, D...>& a, const S& s, tile_t<T, D...>& adj_a,    \
                                  S& adj_s, const tile_t<R, D...>& adj_ret) {                      \
        tile_slots<tile_t<T, D...>>(                                                               \
            [&](int k, int) { adj_##name(a.data[k], s, adj_a.data[k], adj_s, adj_ret.data[k]); }); \
    }                                                                                              \
    template <typename T, int... D, typename S, typename R, typename = enable_if_t<!is_tile_v<S>>> \
    CUDA_CALLABLE void adj_##name(const S& s, const tile_t<T, D...>& a, S& adj_s,                  \
                                  tile_t<T, D...>& adj_a, const tile_t<R, D...>& adj_ret) {        \
        tile_slots<tile_t<T, D...>>(                                                               \
            [&](int k, int) { adj_##name(s, a.data[k], adj_s, adj_a.data[k], adj_ret.data[k]); }); \
    }

WP_TILE_PRODUCT(mul)
WP_TILE_PRODUCT(div)
#undef WP_TILE_PRODUCT
#undef WP_TILE_RESULT

template <typename T, int... D>
CUDA_CALLABLE tile_t<T, D...> neg(const tile_t<T, D...>& a) {
    tile_t<T, D...> r;
    tile_each_slot<tile_t<T, D...>>([&](int k) { r.data[k] = neg(a.data[k]); });
    return r;
}
template <typename T, int... D>
CUDA_CALLABLE void adj_neg(const tile_t<T, D...>&, tile_t<T, D...>& adj_a,
                           const tile_t<T, D...>& adj_ret) {
    tile_slots<tile_t<T, D...>>(
        [&](int k, int) { adj_a.data[k] = sub(adj_a.data[k], adj_ret.data[k]); });
}
template <typename T, int... D>
CUDA_CALLABLE tile_t<T, D...> pos(const tile_t<T, D...>& a) {
    return a;
}
template <typename T, int... D>
CUDA_CALLABLE void adj_pos(const tile_t<T, D...>&, tile_t<T, D...>& adj_a,
                           const tile_t<T, D...>& adj_ret) {
    adj_a = add(adj_a, adj_ret);
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif

#include "tile_linalg.h"
#include "tile_ops.h"
