// native/treadle/mesh.h -- triangle mesh queries (wp.Mesh): closest points, rays, boxes, spheres
//
// A mesh (wp.Mesh) is built on the host (src/api/mesh.cpp) into a mesh_t (mesh_ray.h): its
// points, velocities and flat indices, and a BVH over its faces' boxes whose items are face
// indices. A kernel receives its id, the address of the mesh_t in the memory of the kernel's
// device. Included only by kernels that call a mesh builtin (the table's `header` trait).
// Every function compiles with g++ and NVRTC.
//
// Barycentric coordinates: (u, v) on face f with vertices p0, p1, p2 (points[indices[3 f + k]])
// is the point u p0 + v p1 + (1 - u - v) p2 (u weighs the face's first vertex, v its second).
// Distances and `max_dist` are in mesh units; ray `t`/`max_t` in multiples of |dir|.
// Nearly degenerate faces (|cross(e0, e1)| / (|e0|^2 + |e1|^2 + |e2|^2) < 1e-6 for the edges
// e0 = p1 - p0, e1 = p2 - p0, e2 = p2 - p1) are skipped by the closest/furthest point queries.
//
// Point queries: each has an out-argument form returning bool (outputs written only when it is
// true) and a form returning mesh_query_point_t {result, sign, face, u, v} (all 0 / false when
// nothing is found). `sign` < 0 means inside, > 0 outside; the sign methods look at the whole
// mesh, not only within max_dist.
//   mesh_query_point(id, point, max_dist[, inside, face, u, v]): the closest point strictly
//       closer than max_dist; sign by three rays along +x, +y, +z from point: inside (-1) when
//       at least two of them first hit a face from its back, else 1 (a miss votes outside).
//   mesh_query_point_no_sign(id, point, max_dist[, face, u, v]): the same without a sign (the
//       struct's sign stays 0).
//   mesh_query_furthest_point_no_sign(id, point, min_dist[, face, u, v]): the point of the
//       mesh farthest from point, strictly farther than min_dist (always a vertex: u, v in
//       {0, 1}; ties go to the later vertex of a face).
//   mesh_query_point_sign_normal(id, point, max_dist[, inside, face, u, v], epsilon = 1e-3):
//       the closest point; sign by the angle-weighted pseudo-normal: every face within
//       eps = epsilon * average_edge_length of the closest distance adds its unit normal
//       times the angle it spans at its own closest point (the corner angle within eps of a
//       vertex, pi within eps of an edge, else 2 pi); outside (1) when that sum points toward
//       point (dot > 0), else inside (-1).
//   mesh_query_point_sign_winding_number(id, point, max_dist[, inside, face, u, v],
//       accuracy = 2, threshold = 0.5): the closest point; inside when the mesh's winding
//       number at point exceeds threshold (fast winding number: a BVH node farther than
//       accuracy times its radius counts by its moments' second-order expansion, nearer ones
//       exactly). A mesh built without support_winding_number falls back to
//       mesh_query_point's sign.
//   mesh_query_point_sign_parity(id, point, max_dist[, inside, face, u, v], n_sample = 1,
//       perturbation_scale = 0.1): the closest point; inside when at least half of n_sample
//       rays along (1, 1, 1) + uniform offsets in [-scale, scale) (fixed seed 42) cross the
//       mesh an odd number of times (always inside for n_sample <= 0).
//   Adjoints: the closest face is found again and the gradients of u and v reach `point`
//       through the closest point's barycentrics on that face (vertex regions: none; edge
//       regions: along the edge; the face region: the projection). Nothing else has one.
// Ray queries (root: a node from mesh_get_group_root, or -1 for the whole mesh):
//   mesh_query_ray(id, start, dir, max_t[, t, u, v, sign, normal, face], root = -1): the
//       closest hit with 0 <= t < max_t; sign = the test's det (> 0 front, < 0 back), normal =
//       normalize(cross(p1 - p0, p2 - p0)). Struct form: mesh_query_ray_t {result, sign, face,
//       t, u, v, normal} (zeros when nothing is hit). Its adjoint gives (t, u, v)'s gradients
//       to start and dir (sign and normal carry none).
//   mesh_query_ray_anyhit(id, start, dir, max_t, root = -1) -> bool: any hit, 0 <= t < max_t.
//   mesh_query_ray_count_intersections(id, start, dir, root = -1) -> int32: hits with t >= 0.
// Box and sphere queries (state mesh_query_aabb_t, for both kinds):
//   mesh_query_aabb(id, low, high): faces whose own boxes overlap [low, high] (touching
//       counts); mesh_query_sphere(id, center, radius): faces whose closest point to center is
//       within radius (inclusive; radius < 0 counts as 0; a zero-area face is its longest
//       edge). mesh_query_aabb_next / mesh_query_sphere_next / mesh_query_next_dynamic(query,
//       index) -> bool: the next face into index; false, index unchanged, when none is left.
// Evaluation and access:
//   mesh_eval_position(id, face, u, v), mesh_eval_velocity(id, face, u, v): u x0 + v x1 +
//       (1 - u - v) x2 of the face's points / velocities (zero vector when the mesh has none
//       or face is outside [0, num_tris));
//       adjoints to u and v only (not to the mesh's points).
//   mesh_eval_face_normal(id, face): normalize(cross(p1 - p0, p2 - p0)); no gradient.
//   mesh_get_point(id, i), mesh_get_velocity(id, i): points / velocities[indices[i]], i a
//       face-vertex index in [0, 3 num_tris); mesh_get_index(id, i): indices[i]. Outside that
//       range (or without the array) they give the zero vector / -1. No gradients.
//   mesh_get_group_root(id, group): the BVH node of a group's faces, -1 when it has none;
//   mesh_get_bvh(id): the id of the mesh's BVH (for the bvh_query_* functions; items are
//       faces); mesh_get(id): the mesh_t (members points, velocities, indices as array_t,
//       the fields wp.Mesh exposes in a kernel).
// Builtin names to native functions: Warp's mesh_query_next and mesh_query_aabb_next map to
// mesh_query_aabb_next (box query), mesh_query_sphere_next (sphere query) or
// mesh_query_next_dynamic (either; it reads the kind stored in the query); all three accept
// both kinds.
// Adjoints follow the table's convention adj_f(args..., adj_args..., adj_ret): an out-argument
// form takes its primal outputs by value in their argument positions and their gradients in
// the matching adjoint slots (adj_u, adj_v, adj_t; the bool result's adjoint is last). Query
// adjoints never need the forward result: they run the query again. Functions without a
// gradient have no-op adjoints of the same shape.
#pragma once

#include "geometry.h"
#include "mesh_point.h"
#include "mesh_ray.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

// ---- box and sphere queries ------------------------------------------------------------------

/// The traversal state of mesh_query_aabb and mesh_query_sphere (wp.MeshQueryAABB): a BVH
/// query over the faces' boxes, filtered by the exact sphere test for kind 1.
struct mesh_query_aabb_t {
    bvh_query_t bvh_query;
    uint64 mesh;
    int32 kind;  ///< 0 box, 1 sphere
    int32 face;  ///< the last face reported (-1 before the first)
};

CUDA_CALLABLE mesh_query_aabb_t& operator+=(mesh_query_aabb_t& a, const mesh_query_aabb_t&) {
    return a;
}

CUDA_CALLABLE uint64 mesh_get_bvh(uint64 id) {
    return reinterpret_cast<uint64>(&reinterpret_cast<const mesh_t*>(id)->bvh);
}

CUDA_CALLABLE mesh_query_aabb_t mesh_query_aabb(uint64 id, vec3 low, vec3 high) {
    mesh_query_aabb_t q;
    q.bvh_query = bvh_query_aabb(mesh_get_bvh(id), low, high);
    q.mesh = id;
    q.kind = 0;
    q.face = -1;
    return q;
}

CUDA_CALLABLE mesh_query_aabb_t mesh_query_sphere(uint64 id, vec3 center, float32 radius) {
    mesh_query_aabb_t q;
    q.bvh_query = bvh_query_sphere(mesh_get_bvh(id), center, radius > 0.0f ? radius : 0.0f);
    q.mesh = id;
    q.kind = 1;
    q.face = -1;
    return q;
}

namespace mesh_detail {

/// Whether face f comes within r of center (a zero-area face: its longest edge).
CUDA_CALLABLE bool face_in_sphere(const mesh_t& m, int32 f, const vec3& center, float32 r) {
    vec3 a, b, c;
    face_points(m, f, a, b, c);
    const vec3 ab = sub(b, a), ac = sub(c, a), bc = sub(c, b);
    vec3 q;
    if (length_sq(cross(ab, ac)) == 0.0f) {
        const float32 lab = dot(ab, ab), lac = dot(ac, ac), lbc = dot(bc, bc);
        vec3 s = a, e = ab;
        float32 l2 = lab;
        if (!(lab >= lac && lab >= lbc)) {
            s = lac >= lbc ? a : b;
            e = lac >= lbc ? ac : bc;
            l2 = lac >= lbc ? lac : lbc;
        }
        float32 t = l2 > 0.0f ? dot(sub(center, s), e) / l2 : 0.0f;
        t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
        q = add(s, mul(e, t));
    } else {
        const vec3 w = triangle_closest_point_barycentric(a, b, c, center);
        q = add(add(mul(a, w.c[0]), mul(b, w.c[1])), mul(c, w.c[2]));
    }
    return length_sq(sub(q, center)) <= r * r;
}

}  // namespace mesh_detail

/// The next face of a box or sphere query (either kind), into index.
CUDA_CALLABLE bool mesh_query_next_dynamic(mesh_query_aabb_t& q, int32& index) {
    if (!q.mesh) return false;
    const mesh_t& m = mesh_detail::mesh_of(q.mesh);
    int32 f = -1;
    while (bvh_query_next(q.bvh_query, f)) {
        if (q.kind == 1 && !mesh_detail::face_in_sphere(m, f, q.bvh_query.a, q.bvh_query.radius))
            continue;
        q.face = f;
        index = f;
        return true;
    }
    return false;
}
CUDA_CALLABLE bool mesh_query_aabb_next(mesh_query_aabb_t& q, int32& index) {
    return mesh_query_next_dynamic(q, index);
}
CUDA_CALLABLE bool mesh_query_sphere_next(mesh_query_aabb_t& q, int32& index) {
    return mesh_query_next_dynamic(q, index);
}

CUDA_CALLABLE void adj_mesh_query_aabb(uint64, vec3, vec3, uint64&, vec3&, vec3&,
                                       const mesh_query_aabb_t&) {}
CUDA_CALLABLE void adj_mesh_query_sphere(uint64, vec3, float32, uint64&, vec3&, float32&,
                                         const mesh_query_aabb_t&) {}
CUDA_CALLABLE void adj_mesh_query_next_dynamic(mesh_query_aabb_t&, int32&, mesh_query_aabb_t&,
                                               int32&, bool) {}
CUDA_CALLABLE void adj_mesh_query_aabb_next(mesh_query_aabb_t&, int32&, mesh_query_aabb_t&, int32&,
                                            bool) {}
CUDA_CALLABLE void adj_mesh_query_sphere_next(mesh_query_aabb_t&, int32&, mesh_query_aabb_t&,
                                              int32&, bool) {}
CUDA_CALLABLE void adj_mesh_get_bvh(uint64, uint64&, uint64) {}

// ---- evaluation and access ------------------------------------------------------------------

namespace mesh_detail {

/// Whether face f exists (outside that range the evaluations give zero, never a stray read).
CUDA_CALLABLE bool valid_face(const mesh_t& m, int32 f) { return f >= 0 && f < m.num_tris; }
/// Whether face-vertex index i exists (in [0, 3 num_tris)).
CUDA_CALLABLE bool valid_corner(const mesh_t& m, int32 i) { return i >= 0 && i < 3 * m.num_tris; }

/// u x[i0] + v x[i1] + (1 - u - v) x[i2] of face f's vertices in `x`.
CUDA_CALLABLE vec3 interpolate(const mesh_t& m, const array_t<vec3>& x, int32 f, float32 u,
                               float32 v) {
    const vec3 a = x[m.indices[f * 3]], b = x[m.indices[f * 3 + 1]], c = x[m.indices[f * 3 + 2]];
    return add(add(mul(a, u), mul(b, v)), mul(c, 1.0f - u - v));
}

CUDA_CALLABLE void adj_interpolate(const mesh_t& m, const array_t<vec3>& x, int32 f, float32& adj_u,
                                   float32& adj_v, const vec3& adj_ret) {
    const vec3 a = x[m.indices[f * 3]], b = x[m.indices[f * 3 + 1]], c = x[m.indices[f * 3 + 2]];
    adj_u += dot(sub(a, c), adj_ret);
    adj_v += dot(sub(b, c), adj_ret);
}

}  // namespace mesh_detail

CUDA_CALLABLE vec3 mesh_eval_position(uint64 id, int32 face, float32 u, float32 v) {
    const mesh_t& m = mesh_detail::mesh_of(id);
    if (!m.points.data || !mesh_detail::valid_face(m, face)) return vec3(0.0f, 0.0f, 0.0f);
    return mesh_detail::interpolate(m, m.points, face, u, v);
}
CUDA_CALLABLE vec3 mesh_eval_velocity(uint64 id, int32 face, float32 u, float32 v) {
    const mesh_t& m = mesh_detail::mesh_of(id);
    if (!m.velocities.data || !mesh_detail::valid_face(m, face)) return vec3(0.0f, 0.0f, 0.0f);
    return mesh_detail::interpolate(m, m.velocities, face, u, v);
}
CUDA_CALLABLE void adj_mesh_eval_position(uint64 id, int32 face, float32, float32, uint64&, int32&,
                                          float32& adj_u, float32& adj_v, const vec3& adj_ret) {
    const mesh_t& m = mesh_detail::mesh_of(id);
    if (m.points.data && mesh_detail::valid_face(m, face))
        mesh_detail::adj_interpolate(m, m.points, face, adj_u, adj_v, adj_ret);
}
CUDA_CALLABLE void adj_mesh_eval_velocity(uint64 id, int32 face, float32, float32, uint64&, int32&,
                                          float32& adj_u, float32& adj_v, const vec3& adj_ret) {
    const mesh_t& m = mesh_detail::mesh_of(id);
    if (m.velocities.data && mesh_detail::valid_face(m, face))
        mesh_detail::adj_interpolate(m, m.velocities, face, adj_u, adj_v, adj_ret);
}

CUDA_CALLABLE vec3 mesh_eval_face_normal(uint64 id, int32 face) {
    const mesh_t& m = mesh_detail::mesh_of(id);
    if (!m.points.data || !mesh_detail::valid_face(m, face)) return vec3(0.0f, 0.0f, 0.0f);
    vec3 a, b, c;
    mesh_detail::face_points(m, face, a, b, c);
    return normalize(cross(sub(b, a), sub(c, a)));
}
CUDA_CALLABLE void adj_mesh_eval_face_normal(uint64, int32, uint64&, int32&, const vec3&) {}

CUDA_CALLABLE vec3 mesh_get_point(uint64 id, int32 index) {
    const mesh_t& m = mesh_detail::mesh_of(id);
    if (!m.points.data || !mesh_detail::valid_corner(m, index)) return vec3(0.0f, 0.0f, 0.0f);
    return m.points[m.indices[index]];
}
CUDA_CALLABLE vec3 mesh_get_velocity(uint64 id, int32 index) {
    const mesh_t& m = mesh_detail::mesh_of(id);
    if (!m.velocities.data || !mesh_detail::valid_corner(m, index)) return vec3(0.0f, 0.0f, 0.0f);
    return m.velocities[m.indices[index]];
}
CUDA_CALLABLE int32 mesh_get_index(uint64 id, int32 index) {
    const mesh_t& m = mesh_detail::mesh_of(id);
    if (!m.indices.data || !mesh_detail::valid_corner(m, index)) return -1;
    return m.indices[index];
}
CUDA_CALLABLE int32 mesh_get_group_root(uint64 id, int32 group) {
    return bvh_get_group_root(mesh_get_bvh(id), group);
}
CUDA_CALLABLE void adj_mesh_get_point(uint64, int32, uint64&, int32&, const vec3&) {}
CUDA_CALLABLE void adj_mesh_get_velocity(uint64, int32, uint64&, int32&, const vec3&) {}
CUDA_CALLABLE void adj_mesh_get_index(uint64, int32, uint64&, int32&, int32) {}
CUDA_CALLABLE void adj_mesh_get_group_root(uint64, int32, uint64&, int32&, int32) {}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
