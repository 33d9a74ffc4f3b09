// native/treadle/bvh.h -- bounding volume hierarchies of boxes and their traversal queries
//
// A BVH (wp.Bvh) is built on the host (src/api/bvh.cpp) into the flat layout below; a kernel
// receives its id, the address of its bvh_t descriptor in the memory of the kernel's device.
// Included only by kernels that call a BVH builtin (the table's `header` trait) and by mesh.h.
// Every function compiles with g++ and NVRTC.
//
//   nodes: node i is internal when left >= 0 (children left and right) and a leaf otherwise,
//       holding the items items[~left .. right). Each node's box bounds its subtree's items.
//   group_roots[g]: the node whose subtree holds exactly the items of group g (-1: no item).
//   Queries walk the tree with a fixed stack: an internal node pushes the children whose boxes
//   pass the query's test; a leaf yields its items whose own boxes pass it.
#pragma once

#include "vec.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// One node of a BVH: its box, and its children (left >= 0) or its item range (left < 0).
struct bvh_node_t {
    vec3 lower;
    int32 left;
    vec3 upper;
    int32 right;
};

/// A built BVH as kernels see it (all pointers in the memory of the BVH's device).
struct bvh_t {
    const bvh_node_t* nodes;
    const int32* items;       ///< item indices, leaves' ranges index into it
    const vec3* item_lowers;  ///< the items' boxes, by item index
    const vec3* item_uppers;
    const int32* group_roots;  ///< by group id
    int32 num_nodes;
    int32 num_items;
    int32 num_groups;
    int32 root;  ///< the global root node (-1 when the BVH holds no item)
};

/// The deepest tree a query can walk (the host build keeps every BVH below it).
constexpr int32 bvh_max_depth = 64;

/// The traversal state of a BVH query (wp.BvhQuery).
struct bvh_query_t {
    uint64 bvh;
    int32 kind;       ///< 0 box, 1 ray, 2 sphere, 3 capsule
    vec3 a;           ///< box lower / ray start / sphere centre / capsule start
    vec3 b;           ///< box upper / ray direction / capsule direction
    vec3 inv_dir;     ///< 1 / b per axis (rays and capsules)
    float32 radius;   ///< spheres and capsules
    int32 leaf_next;  ///< the next item of the leaf being reported
    int32 leaf_end;
    int32 count;  ///< entries on the stack
    int32 stack[bvh_max_depth * 2];
};

namespace bvh_detail {

CUDA_CALLABLE bool boxes_overlap(const vec3& l0, const vec3& u0, const vec3& l1, const vec3& u1) {
    return !(l0.c[0] > u1.c[0] || l0.c[1] > u1.c[1] || l0.c[2] > u1.c[2] || u0.c[0] < l1.c[0] ||
             u0.c[1] < l1.c[1] || u0.c[2] < l1.c[2]);
}

/// The distance along a ray (start o, 1/direction inv, inflated by r) where it enters the box
/// [l, u]; -1 when it misses it.
CUDA_CALLABLE float32 ray_box_entry(const vec3& o, const vec3& inv, float32 r, const vec3& l,
                                    const vec3& u) {
    float32 t0 = -3.4e38f, t1 = 3.4e38f;
    for (int i = 0; i < 3; ++i) {
        const float32 lo = l.c[i] - r, hi = u.c[i] + r;
        float32 a = (lo - o.c[i]) * inv.c[i], b = (hi - o.c[i]) * inv.c[i];
        // a ray parallel to a slab: inside it (0 * inf is NaN) or outside
        if (a != a || b != b) {
            if (o.c[i] < lo || o.c[i] > hi) return -1.0f;
            continue;
        }
        if (a > b) {
            const float32 s = a;
            a = b;
            b = s;
        }
        t0 = a > t0 ? a : t0;
        t1 = b < t1 ? b : t1;
    }
    if (t1 < t0 || t1 < 0.0f) return -1.0f;
    return t0 > 0.0f ? t0 : 0.0f;
}

CUDA_CALLABLE float32 box_distance_sq(const vec3& p, const vec3& l, const vec3& u) {
    float32 d = 0.0f;
    for (int i = 0; i < 3; ++i) {
        const float32 e =
            p.c[i] < l.c[i] ? l.c[i] - p.c[i] : (p.c[i] > u.c[i] ? p.c[i] - u.c[i] : 0.0f);
        d += e * e;
    }
    return d;
}

/// Whether the box [l, u] passes the query's test (rays and capsules within max_dist).
CUDA_CALLABLE bool passes(const bvh_query_t& q, const vec3& l, const vec3& u, float32 max_dist) {
    switch (q.kind) {
        case 0:
            return boxes_overlap(q.a, q.b, l, u);
        case 2:
            return box_distance_sq(q.a, l, u) <= q.radius * q.radius;
        default: {
            const float32 t = ray_box_entry(q.a, q.inv_dir, q.kind == 3 ? q.radius : 0.0f, l, u);
            return t >= 0.0f && t <= max_dist;
        }
    }
}

CUDA_CALLABLE bvh_query_t start(uint64 id, int32 kind, const vec3& a, const vec3& b, float32 r,
                                int32 root) {
    bvh_query_t q;
    q.bvh = id;
    q.kind = kind;
    q.a = a;
    q.b = b;
    for (int i = 0; i < 3; ++i) q.inv_dir.c[i] = 1.0f / b.c[i];
    q.radius = r;
    q.leaf_next = 0;
    q.leaf_end = 0;
    q.count = 0;
    const bvh_t* bvh = reinterpret_cast<const bvh_t*>(id);
    if (!bvh) return q;
    const int32 r0 = root >= 0 && root < bvh->num_nodes ? root : bvh->root;
    if (r0 >= 0) q.stack[q.count++] = r0;
    return q;
}

}  // namespace bvh_detail

/// bvh_query_aabb(id, low, high, root): the items whose boxes overlap [low, high].
CUDA_CALLABLE bvh_query_t bvh_query_aabb(uint64 id, vec3 low, vec3 high, int32 root = -1) {
    return bvh_detail::start(id, 0, low, high, 0.0f, root);
}

/// bvh_query_ray(id, start, dir, root): the items whose boxes the ray start + t dir (t >= 0,
/// up to bvh_query_next's max_dist) meets.
CUDA_CALLABLE bvh_query_t bvh_query_ray(uint64 id, vec3 start, vec3 dir, int32 root = -1) {
    return bvh_detail::start(id, 1, start, dir, 0.0f, root);
}

/// bvh_query_sphere(id, center, radius, root): the items whose boxes come within radius of
/// center.
CUDA_CALLABLE bvh_query_t bvh_query_sphere(uint64 id, vec3 center, float32 radius,
                                           int32 root = -1) {
    return bvh_detail::start(id, 2, center, vec3(1.0f, 1.0f, 1.0f), radius, root);
}

/// bvh_query_capsule(id, start, dir, radius, root): the items whose boxes, grown by radius,
/// the ray start + t dir meets (a superset of the boxes the capsule's sweep touches).
CUDA_CALLABLE bvh_query_t bvh_query_capsule(uint64 id, vec3 start, vec3 dir, float32 radius,
                                            int32 root = -1) {
    return bvh_detail::start(id, 3, start, dir, radius, root);
}

/// bvh_query_next(query, index, max_dist): the next item that passes the query, into index;
/// false (index unchanged) once none is left.
CUDA_CALLABLE bool bvh_query_next(bvh_query_t& q, int32& index, float32 max_dist = 3.4e38f) {
    const bvh_t* bvh = reinterpret_cast<const bvh_t*>(q.bvh);
    if (!bvh) return false;
    for (;;) {
        while (q.leaf_next < q.leaf_end) {
            const int32 item = bvh->items[q.leaf_next++];
            if (bvh_detail::passes(q, bvh->item_lowers[item], bvh->item_uppers[item], max_dist)) {
                index = item;
                return true;
            }
        }
        if (q.count == 0) return false;
        const bvh_node_t& n = bvh->nodes[q.stack[--q.count]];
        if (!bvh_detail::passes(q, n.lower, n.upper, max_dist)) continue;
        if (n.left < 0) {
            q.leaf_next = ~n.left;
            q.leaf_end = n.right;
        } else if (q.count + 2 <= bvh_max_depth * 2) {
            q.stack[q.count++] = n.right;
            q.stack[q.count++] = n.left;
        }
    }
}

/// bvh_get_group_root(id, group): the root node of a group's items (-1 when it has none).
CUDA_CALLABLE int32 bvh_get_group_root(uint64 id, int32 group) {
    const bvh_t* bvh = reinterpret_cast<const bvh_t*>(id);
    if (!bvh || group < 0 || group >= bvh->num_groups) return -1;
    return bvh->group_roots[group];
}

// Queries carry no gradient.
CUDA_CALLABLE void adj_bvh_query_aabb(uint64, vec3, vec3, int32, uint64&, vec3&, vec3&, int32&,
                                      const bvh_query_t&) {}
CUDA_CALLABLE void adj_bvh_query_ray(uint64, vec3, vec3, int32, uint64&, vec3&, vec3&, int32&,
                                     const bvh_query_t&) {}
CUDA_CALLABLE void adj_bvh_query_sphere(uint64, vec3, float32, int32, uint64&, vec3&, float32&,
                                        int32&, const bvh_query_t&) {}
CUDA_CALLABLE void adj_bvh_query_capsule(uint64, vec3, vec3, float32, int32, uint64&, vec3&, vec3&,
                                         float32&, int32&, const bvh_query_t&) {}
CUDA_CALLABLE void adj_bvh_query_next(bvh_query_t&, int32&, float32, bvh_query_t&, int32&, float32&,
                                      bool) {}
CUDA_CALLABLE void adj_bvh_get_group_root(uint64, int32, uint64&, int32&, int32) {}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
