// native/treadle/tile_indexed.h -- tiles addressed through a tile of indices along one axis
// (Warp's tile_load_indexed, tile_store_indexed, tile_atomic_add_indexed, tile_slice_indexed)
//
// An index tile is a 1-D tile of integers; along `axis`, coordinate i of the other tile stands
// for position indices[i] (plus the offset, for arrays). Every thread needs every index, so the
// index tile is first shared through the block's scratch (tile_share). Array positions outside
// the array read as zero and are not written, forward and backward alike (tile.h's
// tile_address); tile gathers wrap negative indices once, like Python, and read zero past the
// ends.
#pragma once

#include "adjoint.h"
#include "tile.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// Coordinates c of an element, with coordinate `axis` replaced by the index it stands for.
template <typename I>
CUDA_CALLABLE void tile_indexed_coords(const I* indices, int axis, int (&c)[4]) {
    c[axis] = int(indices[c[axis]]);
}

// ---- arrays --------------------------------------------------------------------------------

/// tile_load_indexed<Tile>(a, indices, offsets, axis): element c of the tile is
/// a[offsets + c], with c[axis] replaced by indices[c[axis]]; zero outside the array.
template <typename Tile, typename T, typename I, int L, int N>
CUDA_CALLABLE Tile tile_load_indexed(const array_t<T>& a, const tile_t<I, L>& indices,
                                     const vec_t<N, int32>& offsets, int32 axis) {
    static_assert(N == Tile::ndim, "one offset per tile dimension");
    int o[4];
    tile_offsets(offsets, o);
    const I* ix = tile_share(indices);
    Tile t{};
    tile_slots<Tile>([&](int k, int e) {
        int c[4];
        Tile::coords(e, c);
        tile_indexed_coords(ix, axis, c);
        const T* p = tile_address(a.data, a, o, c, Tile::ndim);
        t.data[k] = p ? *p : T{};
    });
    return t;
}
/// Its adjoint: each element's gradient is added to a.grad at the position it was read from
/// (grad_accumulate: atomically, field by field for structs).
template <typename Tile, typename T, typename I, int L, int N>
CUDA_CALLABLE void adj_tile_load_indexed(const array_t<T>& a, const tile_t<I, L>& indices,
                                         const vec_t<N, int32>& offsets, int32 axis,
                                         const array_t<T>&, tile_t<I, L>&, vec_t<N, int32>&, int32&,
                                         const Tile& adj_ret) {
    if (!a.grad) return;
    int o[4];
    tile_offsets(offsets, o);
    const I* ix = tile_share(indices);
    tile_slots<Tile>([&](int k, int e) {
        int c[4];
        Tile::coords(e, c);
        tile_indexed_coords(ix, axis, c);
        if (T* g = tile_address(a.grad, a, o, c, Tile::ndim)) grad_accumulate(g, adj_ret.data[k]);
    });
}

/// tile_store_indexed(a, t, indices, offsets, axis): writes element c of t to a[offsets + c]
/// with c[axis] replaced by indices[c[axis]], where that lies inside the array. Returns a
/// dummy int32 (calls that write arrays give one). The stored tile comes second, as in
/// tile_store (Traits::writes_first_array).
template <typename T, int... D, typename I, int L, int N>
CUDA_CALLABLE int32 tile_store_indexed(const array_t<T>& a, const tile_t<T, D...>& t,
                                       const tile_t<I, L>& indices, const vec_t<N, int32>& offsets,
                                       int32 axis) {
    using Tile = tile_t<T, D...>;
    static_assert(N == Tile::ndim, "one offset per tile dimension");
    int o[4];
    tile_offsets(offsets, o);
    const I* ix = tile_share(indices);
    tile_slots<Tile>([&](int k, int e) {
        int c[4];
        Tile::coords(e, c);
        tile_indexed_coords(ix, axis, c);
        if (T* p = tile_address(a.data, a, o, c, Tile::ndim)) *p = t.data[k];
    });
    return 0;
}
/// The backward pass of an indexed store: t's adjoint gains the gradient of the element each
/// of its elements went to.
template <typename T, int... D, typename I, int L, int N>
CUDA_CALLABLE void adj_tile_store_indexed(const array_t<T>& a, const tile_t<T, D...>&,
                                          const tile_t<I, L>& indices,
                                          const vec_t<N, int32>& offsets, int32 axis,
                                          const array_t<T>&, tile_t<T, D...>& adj_t, tile_t<I, L>&,
                                          vec_t<N, int32>&, int32&, int32) {
    using Tile = tile_t<T, D...>;
    if (!a.grad) return;
    int o[4];
    tile_offsets(offsets, o);
    const I* ix = tile_share(indices);
    tile_slots<Tile>([&](int k, int e) {
        int c[4];
        Tile::coords(e, c);
        tile_indexed_coords(ix, axis, c);
        if (const T* g = tile_address(a.grad, a, o, c, Tile::ndim))
            adj_t.data[k] = add(adj_t.data[k], *g);
    });
}

/// tile_atomic_add_indexed(a, t, indices, offsets, axis): adds each element of t atomically
/// where tile_store_indexed would write it; returns the tile of the values those elements held
/// before (zero outside the array).
template <typename T, int... D, typename I, int L, int N>
CUDA_CALLABLE tile_t<T, D...> tile_atomic_add_indexed(const array_t<T>& a, const tile_t<T, D...>& t,
                                                      const tile_t<I, L>& indices,
                                                      const vec_t<N, int32>& offsets, int32 axis) {
    using Tile = tile_t<T, D...>;
    static_assert(N == Tile::ndim, "one offset per tile dimension");
    int o[4];
    tile_offsets(offsets, o);
    const I* ix = tile_share(indices);
    Tile old{};
    tile_slots<Tile>([&](int k, int e) {
        int c[4];
        Tile::coords(e, c);
        tile_indexed_coords(ix, axis, c);
        if (T* p = tile_address(a.data, a, o, c, Tile::ndim))
            old.data[k] = atomic_add(p, t.data[k]);
    });
    return old;
}
template <typename T, int... D, typename I, int L, int N>
CUDA_CALLABLE void adj_tile_atomic_add_indexed(const array_t<T>& a, const tile_t<T, D...>& t,
                                               const tile_t<I, L>& indices,
                                               const vec_t<N, int32>& offsets, int32 axis,
                                               const array_t<T>& adj_a, tile_t<T, D...>& adj_t,
                                               tile_t<I, L>& adj_indices, vec_t<N, int32>& adj_o,
                                               int32& adj_axis, const tile_t<T, D...>&) {
    adj_tile_store_indexed(a, t, indices, offsets, axis, adj_a, adj_t, adj_indices, adj_o, adj_axis,
                           0);
}

// ---- tiles ---------------------------------------------------------------------------------

/// The element of a tile of type S that element coordinates rc of a gather R of it stand for
/// (rc with coordinate `axis` replaced by indices[rc[axis]], a negative index counted from the
/// end), or -1 outside S.
template <typename S, typename I>
CUDA_CALLABLE int tile_gather_element(const I* indices, int axis, int (&rc)[4]) {
    int i = int(indices[rc[axis]]);
    if (i < 0) i += S::dim(axis);
    if (i < 0 || i >= S::dim(axis)) return -1;
    rc[axis] = i;
    return S::linear(rc);
}

/// tile_slice_indexed<R>(t, indices, axis): t[indices, :] and the other gathers along one axis;
/// R has t's shape but indices' length along `axis`.
template <typename R, typename T, int... D, typename I, int L>
CUDA_CALLABLE R tile_slice_indexed(const tile_t<T, D...>& t, const tile_t<I, L>& indices,
                                   int32 axis) {
    using S = tile_t<T, D...>;
    const T* s = tile_share(t);
    const I* ix = tile_share(indices, tile_share_end<S>());
    R r{};
    tile_slots<R>([&](int k, int e) {
        int rc[4];
        R::coords(e, rc);
        const int src = tile_gather_element<S>(ix, axis, rc);
        r.data[k] = src >= 0 ? s[src] : T{};
    });
    return r;
}
/// Its adjoint: each element's gradient goes to the element of t it was read from (added up
/// where indices repeat).
template <typename R, typename T, int... D, typename I, int L>
CUDA_CALLABLE void adj_tile_slice_indexed(const tile_t<T, D...>&, const tile_t<I, L>& indices,
                                          int32 axis, tile_t<T, D...>& adj_t, tile_t<I, L>&, int32&,
                                          const R& adj_ret) {
    using S = tile_t<T, D...>;
    // past the area tile_gather_adjoint sums into
    const I* ix = tile_share(indices, tile_share_end<S>());
    tile_gather_adjoint(adj_t, [&](const tile_sink<T>& sink) {
        tile_slots<R>([&](int k, int e) {
            int rc[4];
            R::coords(e, rc);
            const int src = tile_gather_element<S>(ix, axis, rc);
            if (src >= 0) sink.add(src, adj_ret.data[k]);
        });
    });
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
