// native/treadle/tile_query.h -- geometry queries a thread block runs together (Warp's
// tile_bvh_query_aabb / _ray, tile_mesh_query_aabb and their _next and tile_query_valid)
//
// Every thread of the block holds the same query (the box or ray is the same for all, Warp's
// rule) and walks it in the same order; each call of _next hands the block the next
// block_dim results, thread t taking the t-th (-1 where the results ran out), as a tile of shape
// (block_dim,). A query is valid until a call finds fewer results than the block has threads.
#pragma once

#include "bvh.h"
#include "mesh.h"
#include "tile.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// A block's query of a BVH (by box or ray) or of a mesh's faces (by box).
struct bvh_query_tiled_t {
    bvh_query_t q;
    bool valid;
};
struct mesh_query_aabb_tiled_t {
    mesh_query_aabb_t q;
    bool valid;
};

CUDA_CALLABLE bvh_query_tiled_t tile_bvh_query_aabb(uint64 id, vec3 low, vec3 high) {
    return bvh_query_tiled_t{bvh_query_aabb(id, low, high), true};
}
CUDA_CALLABLE bvh_query_tiled_t tile_bvh_query_ray(uint64 id, vec3 start, vec3 dir) {
    return bvh_query_tiled_t{bvh_query_ray(id, start, dir), true};
}
CUDA_CALLABLE mesh_query_aabb_tiled_t tile_mesh_query_aabb(uint64 id, vec3 low, vec3 high) {
    return mesh_query_aabb_tiled_t{mesh_query_aabb(id, low, high), true};
}

CUDA_CALLABLE bool tile_query_valid(const bvh_query_tiled_t& q) { return q.valid; }
CUDA_CALLABLE bool tile_query_valid(const mesh_query_aabb_tiled_t& q) { return q.valid; }

/// The next block_dim results of `q` (advanced into `next`), thread t's the t-th of them.
template <typename Q, typename R, typename Next>
CUDA_CALLABLE void tile_query_step(const Q& q, Q& next, R& r, Next step) {
    next = q;
    int32 mine = -1;
    const int lane = tile_lane();
    for (int t = 0; t < tile_block_dim && next.valid; ++t) {
        int32 index = -1;
        if (!step(next.q, index)) {
            next.valid = false;
            break;
        }
        if (t == lane) mine = index;
    }
    r = R{};
    r.data[0] = mine;
}

template <typename R>
CUDA_CALLABLE void tile_bvh_query_next(const bvh_query_tiled_t& q, bvh_query_tiled_t& next, R& r) {
    tile_query_step(q, next, r, [](bvh_query_t& s, int32& i) { return bvh_query_next(s, i); });
}
template <typename R>
CUDA_CALLABLE void tile_mesh_query_aabb_next(const mesh_query_aabb_tiled_t& q,
                                             mesh_query_aabb_tiled_t& next, R& r) {
    tile_query_step(q, next, r,
                    [](mesh_query_aabb_t& s, int32& i) { return mesh_query_aabb_next(s, i); });
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
