// native/treadle/mesh_point.h -- mesh closest/furthest point queries with their sign methods
//
// Included by mesh.h (see it for what every function computes). Every function compiles with
// g++ and NVRTC.
#pragma once

#include "geometry.h"
#include "mesh_ray.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

namespace mesh_detail {

/// Whether face abc is too thin for the point queries: |e0 x e1| / (sum of squared edge
/// lengths) below 1e-6, compared squared (no root or division; NaNs and zero faces are thin).
CUDA_CALLABLE bool sliver(const vec3& a, const vec3& b, const vec3& c) {
    const vec3 e0 = sub(b, a), e1 = sub(c, a), e2 = sub(c, b);
    const float32 s = dot(e0, e0) + dot(e1, e1) + dot(e2, e2);
    return !(s > 0.0f && length_sq(cross(e0, e1)) >= 1e-12f * s * s);
}

/// The farthest squared distance from p to a point of box [l, u].
CUDA_CALLABLE float32 box_far_sq(const vec3& p, const vec3& l, const vec3& u) {
    float32 d = 0.0f;
    for (int32 i = 0; i < 3; ++i) {
        const float32 a = abs(p.c[i] - l.c[i]), b = abs(p.c[i] - u.c[i]);
        const float32 e = a > b ? a : b;
        d += e * e;
    }
    return d;
}

/// The best face a point query found: squared distance, face (-1: none) and barycentrics.
struct point_hit_t {
    float32 dist_sq;
    int32 face;
    float32 u, v;
};

/// The closest non-sliver face strictly within sqrt(limit_sq) of p, nearer child first.
CUDA_CALLABLE point_hit_t closest_point(const mesh_t& m, const vec3& p, float32 limit_sq) {
    point_hit_t best{limit_sq, -1, 0.0f, 0.0f};
    if (m.bvh.root < 0) return best;
    int32 stack[stack_size];
    int32 count = 0;
    stack[count++] = m.bvh.root;
    while (count > 0) {
        const bvh_node_t& node = m.bvh.nodes[stack[--count]];
        if (bvh_detail::box_distance_sq(p, node.lower, node.upper) >= best.dist_sq) continue;
        if (node.left < 0) {
            for (int32 i = ~node.left; i < node.right; ++i) {
                const int32 f = m.bvh.items[i];
                vec3 a, b, c;
                face_points(m, f, a, b, c);
                if (sliver(a, b, c)) continue;
                const vec3 w = triangle_closest_point_barycentric(a, b, c, p);
                const vec3 q = add(add(mul(a, w.c[0]), mul(b, w.c[1])), mul(c, w.c[2]));
                const float32 d = length_sq(sub(q, p));
                if (d < best.dist_sq) best = point_hit_t{d, f, w.c[0], w.c[1]};
            }
            continue;
        }
        const bvh_node_t& l = m.bvh.nodes[node.left];
        const bvh_node_t& r = m.bvh.nodes[node.right];
        const float32 dl = bvh_detail::box_distance_sq(p, l.lower, l.upper);
        const float32 dr = bvh_detail::box_distance_sq(p, r.lower, r.upper);
        const bool left_first = dl <= dr;
        const int32 near_child = left_first ? node.left : node.right;
        const int32 far_child = left_first ? node.right : node.left;
        if ((left_first ? dr : dl) < best.dist_sq && count < stack_size) stack[count++] = far_child;
        if ((left_first ? dl : dr) < best.dist_sq && count < stack_size)
            stack[count++] = near_child;
    }
    return best;
}

/// The farthest non-sliver face's farthest vertex strictly beyond sqrt(limit_sq) from p.
CUDA_CALLABLE point_hit_t furthest_point(const mesh_t& m, const vec3& p, float32 limit_sq) {
    point_hit_t best{limit_sq, -1, 0.0f, 0.0f};
    if (m.bvh.root < 0) return best;
    int32 stack[stack_size];
    int32 count = 0;
    stack[count++] = m.bvh.root;
    while (count > 0) {
        const bvh_node_t& node = m.bvh.nodes[stack[--count]];
        if (box_far_sq(p, node.lower, node.upper) <= best.dist_sq) continue;
        if (node.left < 0) {
            for (int32 i = ~node.left; i < node.right; ++i) {
                const int32 f = m.bvh.items[i];
                vec3 a, b, c;
                face_points(m, f, a, b, c);
                if (sliver(a, b, c)) continue;
                const float32 da = length_sq(sub(a, p)), db = length_sq(sub(b, p)),
                              dc = length_sq(sub(c, p));
                point_hit_t h{dc, f, 0.0f, 0.0f};
                if (da > db && da > dc)
                    h = point_hit_t{da, f, 1.0f, 0.0f};
                else if (db > dc)
                    h = point_hit_t{db, f, 0.0f, 1.0f};
                if (h.dist_sq > best.dist_sq) best = h;
            }
            continue;
        }
        const bvh_node_t& l = m.bvh.nodes[node.left];
        const bvh_node_t& r = m.bvh.nodes[node.right];
        const float32 dl = box_far_sq(p, l.lower, l.upper), dr = box_far_sq(p, r.lower, r.upper);
        const bool left_first = dl >= dr;
        const int32 near_child = left_first ? node.left : node.right;
        const int32 far_child = left_first ? node.right : node.left;
        if ((left_first ? dr : dl) > best.dist_sq && count < stack_size) stack[count++] = far_child;
        if ((left_first ? dl : dr) > best.dist_sq && count < stack_size)
            stack[count++] = near_child;
    }
    return best;
}

/// The angle face abc spans around its point q closest to the query (see mesh.h): the corner
/// angle when q is within eps of a vertex, pi within eps of an edge, else 2 pi.
CUDA_CALLABLE float32 pseudo_normal_weight(const vec3& a, const vec3& b, const vec3& c,
                                           const vec3& q, float32 eps_sq) {
    const vec3 e0 = sub(b, a), e1 = sub(c, a), e2 = sub(c, b);
    const vec3 qa = sub(q, a), qb = sub(q, b), qc = sub(q, c);
    const float32 la = length_sq(qa), lb = length_sq(qb), lc = length_sq(qc);
    if (la < eps_sq) return acos(dot(normalize(e0), normalize(e1)));
    if (lb < eps_sq) return acos(dot(normalize(e2), normalize(mul(e0, -1.0f))));
    if (lc < eps_sq) return acos(dot(normalize(mul(e1, -1.0f)), normalize(mul(e2, -1.0f))));
    // squared distance of q to an edge's line, times the edge's squared length
    const float32 n0 = dot(e0, e0), n1 = dot(e1, e1), n2 = dot(e2, e2);
    const float32 d0 = dot(e0, qa), d1 = dot(e1, qa), d2 = dot(e2, qb);
    if (la * n0 - d0 * d0 < eps_sq * n0 || la * n1 - d1 * d1 < eps_sq * n1 ||
        lb * n2 - d2 * d2 < eps_sq * n2)
        return 3.14159265358979f;
    return 6.28318530717959f;
}

/// The sign of mesh_query_point_sign_normal for the closest hit `best` (see mesh.h).
CUDA_CALLABLE float32 sign_by_pseudo_normal(const mesh_t& m, const vec3& p, const point_hit_t& best,
                                            float32 epsilon) {
    const float32 eps = m.average_edge_length * epsilon;
    const float32 reach = sqrt(best.dist_sq) + eps;
    vec3 acc(0.0f, 0.0f, 0.0f);
    int32 stack[stack_size];
    int32 count = 0;
    stack[count++] = m.bvh.root;
    while (count > 0) {
        const bvh_node_t& node = m.bvh.nodes[stack[--count]];
        if (bvh_detail::box_distance_sq(p, node.lower, node.upper) > reach * reach) continue;
        if (node.left >= 0) {
            if (count + 2 <= stack_size) {
                stack[count++] = node.left;
                stack[count++] = node.right;
            }
            continue;
        }
        for (int32 i = ~node.left; i < node.right; ++i) {
            vec3 a, b, c;
            face_points(m, m.bvh.items[i], a, b, c);
            if (sliver(a, b, c)) continue;
            const vec3 w = triangle_closest_point_barycentric(a, b, c, p);
            const vec3 q = add(add(mul(a, w.c[0]), mul(b, w.c[1])), mul(c, w.c[2]));
            if (!(length(sub(q, p)) < reach)) continue;
            const float32 weight = pseudo_normal_weight(a, b, c, q, eps * eps);
            acc = add(acc, mul(normalize(cross(sub(b, a), sub(c, a))), weight));
        }
    }
    vec3 a, b, c;
    face_points(m, best.face, a, b, c);
    const vec3 q = add(add(mul(a, best.u), mul(b, best.v)), mul(c, 1.0f - best.u - best.v));
    return dot(acc, sub(p, q)) > 0.0f ? 1.0f : -1.0f;
}

/// Writes a hit's face and barycentrics; false when there is none.
CUDA_CALLABLE bool write_hit(const point_hit_t& h, int32& face, float32& u, float32& v) {
    if (h.face < 0) return false;
    face = h.face;
    u = h.u;
    v = h.v;
    return true;
}

}  // namespace mesh_detail

/// The result of a point query (wp.MeshQueryPoint); members in the order the type table lists.
struct mesh_query_point_t {
    bool result = false;
    float32 sign = 0.0f;
    int32 face = 0;
    float32 u = 0.0f;
    float32 v = 0.0f;
    CUDA_CALLABLE mesh_query_point_t& operator+=(const mesh_query_point_t& o) {
        sign += o.sign;
        u += o.u;
        v += o.v;
        return *this;
    }
};

// ---- closest and furthest points, out-argument forms (see the header comment) ---------------

CUDA_CALLABLE bool mesh_query_point_no_sign(uint64 id, vec3 point, float32 max_dist, int32& face,
                                            float32& u, float32& v) {
    const mesh_t& m = mesh_detail::mesh_of(id);
    return mesh_detail::write_hit(mesh_detail::closest_point(m, point, max_dist * max_dist), face,
                                  u, v);
}

CUDA_CALLABLE bool mesh_query_furthest_point_no_sign(uint64 id, vec3 point, float32 min_dist,
                                                     int32& face, float32& u, float32& v) {
    const mesh_t& m = mesh_detail::mesh_of(id);
    return mesh_detail::write_hit(mesh_detail::furthest_point(m, point, min_dist * min_dist), face,
                                  u, v);
}

CUDA_CALLABLE bool mesh_query_point(uint64 id, vec3 point, float32 max_dist, float32& inside,
                                    int32& face, float32& u, float32& v) {
    const mesh_t& m = mesh_detail::mesh_of(id);
    if (!mesh_detail::write_hit(mesh_detail::closest_point(m, point, max_dist * max_dist), face, u,
                                v))
        return false;
    inside = mesh_detail::inside_by_rays(m, point);
    return true;
}

CUDA_CALLABLE bool mesh_query_point_sign_normal(uint64 id, vec3 point, float32 max_dist,
                                                float32& inside, int32& face, float32& u,
                                                float32& v, float32 epsilon = 1e-3f) {
    const mesh_t& m = mesh_detail::mesh_of(id);
    const mesh_detail::point_hit_t h = mesh_detail::closest_point(m, point, max_dist * max_dist);
    if (!mesh_detail::write_hit(h, face, u, v)) return false;
    inside = mesh_detail::sign_by_pseudo_normal(m, point, h, epsilon);
    return true;
}

CUDA_CALLABLE bool mesh_query_point_sign_winding_number(uint64 id, vec3 point, float32 max_dist,
                                                        float32& inside, int32& face, float32& u,
                                                        float32& v, float32 accuracy = 2.0f,
                                                        float32 threshold = 0.5f) {
    const mesh_t& m = mesh_detail::mesh_of(id);
    if (!mesh_detail::write_hit(mesh_detail::closest_point(m, point, max_dist * max_dist), face, u,
                                v))
        return false;
    if (!m.winding)
        inside = mesh_detail::inside_by_rays(m, point);
    else
        inside = mesh_detail::winding_number(m, point, accuracy) > threshold ? -1.0f : 1.0f;
    return true;
}

CUDA_CALLABLE bool mesh_query_point_sign_parity(uint64 id, vec3 point, float32 max_dist,
                                                float32& inside, int32& face, float32& u,
                                                float32& v, int32 n_sample = 1,
                                                float32 perturbation_scale = 0.1f) {
    const mesh_t& m = mesh_detail::mesh_of(id);
    if (!mesh_detail::write_hit(mesh_detail::closest_point(m, point, max_dist * max_dist), face, u,
                                v))
        return false;
    inside = mesh_detail::inside_by_parity(m, point, n_sample, perturbation_scale);
    return true;
}

// ---- struct-returning forms -----------------------------------------------------------------

CUDA_CALLABLE mesh_query_point_t mesh_query_point(uint64 id, vec3 point, float32 max_dist) {
    mesh_query_point_t r;
    r.result = mesh_query_point(id, point, max_dist, r.sign, r.face, r.u, r.v);
    return r;
}
CUDA_CALLABLE mesh_query_point_t mesh_query_point_no_sign(uint64 id, vec3 point, float32 max_dist) {
    mesh_query_point_t r;
    r.result = mesh_query_point_no_sign(id, point, max_dist, r.face, r.u, r.v);
    return r;
}
CUDA_CALLABLE mesh_query_point_t mesh_query_furthest_point_no_sign(uint64 id, vec3 point,
                                                                   float32 min_dist) {
    mesh_query_point_t r;
    r.result = mesh_query_furthest_point_no_sign(id, point, min_dist, r.face, r.u, r.v);
    return r;
}
CUDA_CALLABLE mesh_query_point_t mesh_query_point_sign_normal(uint64 id, vec3 point,
                                                              float32 max_dist,
                                                              float32 epsilon = 1e-3f) {
    mesh_query_point_t r;
    r.result = mesh_query_point_sign_normal(id, point, max_dist, r.sign, r.face, r.u, r.v, epsilon);
    return r;
}
CUDA_CALLABLE mesh_query_point_t mesh_query_point_sign_winding_number(uint64 id, vec3 point,
                                                                      float32 max_dist,
                                                                      float32 accuracy = 2.0f,
                                                                      float32 threshold = 0.5f) {
    mesh_query_point_t r;
    r.result = mesh_query_point_sign_winding_number(id, point, max_dist, r.sign, r.face, r.u, r.v,
                                                    accuracy, threshold);
    return r;
}
CUDA_CALLABLE mesh_query_point_t mesh_query_point_sign_parity(uint64 id, vec3 point,
                                                              float32 max_dist, int32 n_sample = 1,
                                                              float32 perturbation_scale = 0.1f) {
    mesh_query_point_t r;
    r.result = mesh_query_point_sign_parity(id, point, max_dist, r.sign, r.face, r.u, r.v, n_sample,
                                            perturbation_scale);
    return r;
}

// ---- adjoints of the point queries ----------------------------------------------------------

namespace mesh_detail {

/// The gradients of the closest point's barycentrics (wa, wb) on face abc with respect to the
/// query point, for the region the weights w say q lies in; adj_point gains them.
CUDA_CALLABLE void adj_barycentric(const vec3& a, const vec3& b, const vec3& c, const vec3& w,
                                   float32 adj_u, float32 adj_v, vec3& adj_point) {
    const int32 zeros = (w.c[0] == 0.0f) + (w.c[1] == 0.0f) + (w.c[2] == 0.0f);
    if (zeros >= 2) return;  // a vertex: the weights are constant
    vec3 ga(0.0f, 0.0f, 0.0f), gb(0.0f, 0.0f, 0.0f);
    if (zeros == 1) {
        // an edge from vertex i to vertex j: w_j = (pj - pi).(p - pi) / |pj - pi|^2
        const vec3 pts[3] = {a, b, c};
        const int32 k = w.c[0] == 0.0f ? 0 : (w.c[1] == 0.0f ? 1 : 2);
        const int32 i = k == 0 ? 1 : 0, j = k == 2 ? 1 : 2;
        const vec3 e = sub(pts[j], pts[i]);
        const float32 l2 = dot(e, e);
        if (l2 == 0.0f) return;
        const vec3 g = mul(e, 1.0f / l2);
        vec3 grads[3] = {vec3(0.0f, 0.0f, 0.0f), vec3(0.0f, 0.0f, 0.0f), vec3(0.0f, 0.0f, 0.0f)};
        grads[j] = g;
        grads[i] = mul(g, -1.0f);
        ga = grads[0];
        gb = grads[1];
    } else {
        // the face: (wb, wc) = G^-1 [ab.(p - a), ac.(p - a)], G the edges' Gram matrix
        const vec3 ab = sub(b, a), ac = sub(c, a);
        const float32 g00 = dot(ab, ab), g01 = dot(ab, ac), g11 = dot(ac, ac);
        const float32 det = g00 * g11 - g01 * g01;
        if (det == 0.0f) return;
        gb = mul(sub(mul(ab, g11), mul(ac, g01)), 1.0f / det);
        const vec3 gc = mul(sub(mul(ac, g00), mul(ab, g01)), 1.0f / det);
        ga = mul(add(gb, gc), -1.0f);
    }
    adj_point = add(adj_point, add(mul(ga, adj_u), mul(gb, adj_v)));
}

/// Finds the closest (or furthest) face again and passes (u, v)'s gradients to the point.
CUDA_CALLABLE void adj_point_query(uint64 id, const vec3& point, float32 dist, bool furthest,
                                   float32 adj_u, float32 adj_v, vec3& adj_point) {
    const mesh_t& m = mesh_of(id);
    const point_hit_t h =
        furthest ? furthest_point(m, point, dist * dist) : closest_point(m, point, dist * dist);
    if (h.face < 0 || furthest) return;  // the furthest point is a vertex: no gradient
    vec3 a, b, c;
    face_points(m, h.face, a, b, c);
    const vec3 w = triangle_closest_point_barycentric(a, b, c, point);
    adj_barycentric(a, b, c, w, adj_u, adj_v, adj_point);
}

}  // namespace mesh_detail

// struct-returning forms: adj_f(args..., adj_args..., adj_ret)
CUDA_CALLABLE void adj_mesh_query_point(uint64 id, vec3 point, float32 max_dist, uint64&,
                                        vec3& adj_point, float32&,
                                        const mesh_query_point_t& adj_ret) {
    mesh_detail::adj_point_query(id, point, max_dist, false, adj_ret.u, adj_ret.v, adj_point);
}
CUDA_CALLABLE void adj_mesh_query_point_no_sign(uint64 id, vec3 point, float32 max_dist, uint64&,
                                                vec3& adj_point, float32&,
                                                const mesh_query_point_t& adj_ret) {
    mesh_detail::adj_point_query(id, point, max_dist, false, adj_ret.u, adj_ret.v, adj_point);
}
CUDA_CALLABLE void adj_mesh_query_furthest_point_no_sign(uint64, vec3, float32, uint64&, vec3&,
                                                         float32&, const mesh_query_point_t&) {}
CUDA_CALLABLE void adj_mesh_query_point_sign_normal(uint64 id, vec3 point, float32 max_dist,
                                                    float32, uint64&, vec3& adj_point, float32&,
                                                    float32&, const mesh_query_point_t& adj_ret) {
    mesh_detail::adj_point_query(id, point, max_dist, false, adj_ret.u, adj_ret.v, adj_point);
}
CUDA_CALLABLE void adj_mesh_query_point_sign_winding_number(uint64 id, vec3 point, float32 max_dist,
                                                            float32, float32, uint64&,
                                                            vec3& adj_point, float32&, float32&,
                                                            float32&,
                                                            const mesh_query_point_t& adj_ret) {
    mesh_detail::adj_point_query(id, point, max_dist, false, adj_ret.u, adj_ret.v, adj_point);
}
CUDA_CALLABLE void adj_mesh_query_point_sign_parity(uint64 id, vec3 point, float32 max_dist, int32,
                                                    float32, uint64&, vec3& adj_point, float32&,
                                                    int32&, float32&,
                                                    const mesh_query_point_t& adj_ret) {
    mesh_detail::adj_point_query(id, point, max_dist, false, adj_ret.u, adj_ret.v, adj_point);
}

// out-argument forms: adj_f(args..., adj_args..., adj_ret); the gradients of the outputs u
// and v arrive in their adjoint slots.
CUDA_CALLABLE void adj_mesh_query_point(uint64 id, vec3 point, float32 max_dist, float32, int32,
                                        float32, float32, uint64&, vec3& adj_point, float32&,
                                        float32&, int32&, float32& adj_u, float32& adj_v, bool) {
    mesh_detail::adj_point_query(id, point, max_dist, false, adj_u, adj_v, adj_point);
}
CUDA_CALLABLE void adj_mesh_query_point_no_sign(uint64 id, vec3 point, float32 max_dist, int32,
                                                float32, float32, uint64&, vec3& adj_point,
                                                float32&, int32&, float32& adj_u, float32& adj_v,
                                                bool) {
    mesh_detail::adj_point_query(id, point, max_dist, false, adj_u, adj_v, adj_point);
}
CUDA_CALLABLE void adj_mesh_query_furthest_point_no_sign(uint64, vec3, float32, int32, float32,
                                                         float32, uint64&, vec3&, float32&, int32&,
                                                         float32&, float32&, bool) {}
CUDA_CALLABLE void adj_mesh_query_point_sign_normal(uint64 id, vec3 point, float32 max_dist,
                                                    float32, int32, float32, float32, float32,
                                                    uint64&, vec3& adj_point, float32&, float32&,
                                                    int32&, float32& adj_u, float32& adj_v,
                                                    float32&, bool) {
    mesh_detail::adj_point_query(id, point, max_dist, false, adj_u, adj_v, adj_point);
}
CUDA_CALLABLE void adj_mesh_query_point_sign_winding_number(uint64 id, vec3 point, float32 max_dist,
                                                            float32, int32, float32, float32,
                                                            float32, float32, uint64&,
                                                            vec3& adj_point, float32&, float32&,
                                                            int32&, float32& adj_u, float32& adj_v,
                                                            float32&, float32&, bool) {
    mesh_detail::adj_point_query(id, point, max_dist, false, adj_u, adj_v, adj_point);
}
CUDA_CALLABLE void adj_mesh_query_point_sign_parity(uint64 id, vec3 point, float32 max_dist,
                                                    float32, int32, float32, float32, int32,
                                                    float32, uint64&, vec3& adj_point, float32&,
                                                    float32&, int32&, float32& adj_u,
                                                    float32& adj_v, int32&, float32&, bool) {
    mesh_detail::adj_point_query(id, point, max_dist, false, adj_u, adj_v, adj_point);
}

// Out-argument forms called without their trailing defaulted arguments (epsilon, accuracy,
// threshold, n_sample, perturbation_scale): the gradients do not depend on them.
CUDA_CALLABLE void adj_mesh_query_point_sign_normal(uint64 id, vec3 point, float32 max_dist,
                                                    float32, int32, float32, float32, uint64&,
                                                    vec3& adj_point, float32&, float32&, int32&,
                                                    float32& adj_u, float32& adj_v, bool) {
    mesh_detail::adj_point_query(id, point, max_dist, false, adj_u, adj_v, adj_point);
}
CUDA_CALLABLE void adj_mesh_query_point_sign_winding_number(uint64 id, vec3 point, float32 max_dist,
                                                            float32, int32, float32, float32,
                                                            uint64&, vec3& adj_point, float32&,
                                                            float32&, int32&, float32& adj_u,
                                                            float32& adj_v, bool) {
    mesh_detail::adj_point_query(id, point, max_dist, false, adj_u, adj_v, adj_point);
}
CUDA_CALLABLE void adj_mesh_query_point_sign_winding_number(
    uint64 id, vec3 point, float32 max_dist, float32, int32, float32, float32, float32, uint64&,
    vec3& adj_point, float32&, float32&, int32&, float32& adj_u, float32& adj_v, float32&, bool) {
    mesh_detail::adj_point_query(id, point, max_dist, false, adj_u, adj_v, adj_point);
}
CUDA_CALLABLE void adj_mesh_query_point_sign_parity(uint64 id, vec3 point, float32 max_dist,
                                                    float32, int32, float32, float32, uint64&,
                                                    vec3& adj_point, float32&, float32&, int32&,
                                                    float32& adj_u, float32& adj_v, bool) {
    mesh_detail::adj_point_query(id, point, max_dist, false, adj_u, adj_v, adj_point);
}
CUDA_CALLABLE void adj_mesh_query_point_sign_parity(uint64 id, vec3 point, float32 max_dist,
                                                    float32, int32, float32, float32, int32,
                                                    uint64&, vec3& adj_point, float32&, float32&,
                                                    int32&, float32& adj_u, float32& adj_v, int32&,
                                                    bool) {
    mesh_detail::adj_point_query(id, point, max_dist, false, adj_u, adj_v, adj_point);
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
