// native/treadle/mesh_ray.h -- triangle meshes: the mesh_t descriptor, ray casts and inside tests
//
// Included by mesh.h (the header kernels name); see mesh.h for what every mesh_* function
// computes. Every function compiles with g++ and NVRTC.
//
//   Ray-triangle test: the watertight test of Woop, Benthin and Wald (JCGT 2013): the ray's
//   dominant axis becomes z, the triangle is sheared into the ray's frame and the three 2-D
//   edge functions U, V, W (recomputed in double when one is exactly 0) decide the hit, so a
//   ray through a shared edge or vertex hits at least one of its triangles. u = U / det is the
//   weight of the triangle's first vertex, v = V / det of its second, and det = U + V + W is
//   the signed, scaled area of the triangle seen from the ray: > 0 when the ray meets the
//   triangle's front (the side its counter-clockwise winding's normal points to).
#pragma once

#include "bvh.h"
#include "random.h"
#include "scalar_math.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// Moments of one BVH node's triangles for the fast winding number, about the area-weighted
/// centre c, with n_t = cross(b - a, c - a) / 2 a triangle's area vector and d = x - c:
/// normal N = sum_t n_t; first M_ij = sum_t (n_t)_i int_t d_j dA / area_t (row-major);
/// second T_ijk = sum_t (n_t)_i int_t d_j d_k dA / area_t, stored as second[6 i + s(j, k)]
/// with s = 0..5 for jk = 00, 01, 02, 11, 12, 22; radius: the largest distance from c to a
/// vertex of the node's triangles.
struct mesh_winding_node_t {
    vec3 centre;
    float32 radius;
    vec3 normal;
    float32 area;
    float32 first[9];
    float32 second[18];
    float32 pad;
};

/// The slot of the symmetric pair (j, k) in mesh_winding_node_t::second's rows.
CUDA_CALLABLE int32 mesh_sym_slot(int32 j, int32 k) {
    const int32 a = j < k ? j : k, b = j < k ? k : j;
    return a == 0 ? b : (a == 1 ? 2 + b : 5);
}

/// A triangle mesh as kernels see it (all pointers in the memory of the mesh's device). Face f
/// has vertices points[indices[3 f]], points[indices[3 f + 1]], points[indices[3 f + 2]].
struct mesh_t {
    array_t<vec3> points;      ///< 1-D, num_points
    array_t<vec3> velocities;  ///< 1-D, num_points; data is null for a mesh without velocities
    array_t<int32> indices;    ///< 1-D, 3 num_tris (flat)
    bvh_t bvh;                 ///< over the faces' boxes; items are face indices
    const mesh_winding_node_t* winding;  ///< by BVH node; null without support_winding_number
    int32 num_points;
    int32 num_tris;
    float32 average_edge_length;  ///< over the three edges of every face
    int32 pad;
};

/// mesh_get(id) (wp.Mesh in a kernel): the descriptor, by value.
CUDA_CALLABLE mesh_t mesh_get(uint64 id) { return *reinterpret_cast<const mesh_t*>(id); }
CUDA_CALLABLE mesh_t& operator+=(mesh_t& a, const mesh_t&) { return a; }
CUDA_CALLABLE void adj_mesh_get(uint64, uint64&, const mesh_t&) {}

namespace mesh_detail {

constexpr float32 flt_max = 3.40282347e38f;
constexpr int32 stack_size = bvh_max_depth * 2;

CUDA_CALLABLE const mesh_t& mesh_of(uint64 id) { return *reinterpret_cast<const mesh_t*>(id); }

/// The three vertices of face f.
CUDA_CALLABLE void face_points(const mesh_t& m, int32 f, vec3& a, vec3& b, vec3& c) {
    a = m.points[m.indices[f * 3 + 0]];
    b = m.points[m.indices[f * 3 + 1]];
    c = m.points[m.indices[f * 3 + 2]];
}

/// The root a query starts from: `root` when it names a node, else the global root.
CUDA_CALLABLE int32 start_node(const mesh_t& m, int32 root) {
    return root >= 0 && root < m.bvh.num_nodes ? root : m.bvh.root;
}

/// The distance along the ray where it enters node n's box, -1 when it misses.
CUDA_CALLABLE float32 node_entry(const mesh_t& m, int32 n, const vec3& o, const vec3& inv) {
    const bvh_node_t& node = m.bvh.nodes[n];
    return bvh_detail::ray_box_entry(o, inv, 0.0f, node.lower, node.upper);
}

CUDA_CALLABLE int32 dominant_axis(const vec3& d) {
    const float32 x = abs(d.c[0]), y = abs(d.c[1]), z = abs(d.c[2]);
    return x >= y && x >= z ? 0 : (y >= z ? 1 : 2);
}

/// One ray-triangle hit: t along the ray (in multiples of |dir|), the barycentric weights u of
/// a and v of b, and det (> 0 on the front side).
struct tri_hit_t {
    float32 t, u, v, det;
};

/// a * b rounded on its own: never fused with a following add into one FMA (NVRTC contracts
/// by default), so the edge functions of two faces sharing an edge are exact negations and
/// no ray slips between them.
CUDA_CALLABLE float32 mul_rn(float32 a, float32 b) {
#if defined(__CUDA_ARCH__)
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}

/// The watertight ray-triangle test (see the header comment); hits behind the start (t < 0)
/// are rejected, so a hit has t >= 0.
CUDA_CALLABLE bool ray_triangle(const vec3& o, const vec3& d, const vec3& a, const vec3& b,
                                const vec3& c, tri_hit_t& hit) {
    const int32 kz = dominant_axis(d);
    if (!(abs(d.c[kz]) > 0.0f)) return false;  // a zero (or NaN) direction meets nothing
    int32 kx = kz == 2 ? 0 : kz + 1;
    int32 ky = kx == 2 ? 0 : kx + 1;
    if (d.c[kz] < 0.0f) {
        const int32 s = kx;
        kx = ky;
        ky = s;
    }
    const float32 sx = d.c[kx] / d.c[kz], sy = d.c[ky] / d.c[kz], sz = 1.0f / d.c[kz];
    const vec3 pa = sub(a, o), pb = sub(b, o), pc = sub(c, o);
    const float32 ax = pa.c[kx] - mul_rn(sx, pa.c[kz]), ay = pa.c[ky] - mul_rn(sy, pa.c[kz]);
    const float32 bx = pb.c[kx] - mul_rn(sx, pb.c[kz]), by = pb.c[ky] - mul_rn(sy, pb.c[kz]);
    const float32 cx = pc.c[kx] - mul_rn(sx, pc.c[kz]), cy = pc.c[ky] - mul_rn(sy, pc.c[kz]);
    float32 eu = mul_rn(cx, by) - mul_rn(cy, bx), ev = mul_rn(ax, cy) - mul_rn(ay, cx),
            ew = mul_rn(bx, ay) - mul_rn(by, ax);
    if (eu == 0.0f || ev == 0.0f || ew == 0.0f) {
        eu = float32(float64(cx) * float64(by) - float64(cy) * float64(bx));
        ev = float32(float64(ax) * float64(cy) - float64(ay) * float64(cx));
        ew = float32(float64(bx) * float64(ay) - float64(by) * float64(ax));
    }
    if ((eu < 0.0f || ev < 0.0f || ew < 0.0f) && (eu > 0.0f || ev > 0.0f || ew > 0.0f))
        return false;
    const float32 det = eu + ev + ew;
    if (det == 0.0f) return false;
    const float32 tt = eu * (sz * pa.c[kz]) + ev * (sz * pb.c[kz]) + ew * (sz * pc.c[kz]);
    if ((det < 0.0f) != (tt < 0.0f) && tt != 0.0f) return false;
    const float32 inv = 1.0f / det;
    if (!(tt * inv >= 0.0f)) return false;  // NaN from non-finite input
    hit.t = tt * inv;
    hit.u = eu * inv;
    hit.v = ev * inv;
    hit.det = det;
    return true;
}

/// Walks the faces whose boxes the ray start + t dir (t >= 0) meets within `limit`, nearer
/// child first; visit(face, limit) may lower limit (closest hit) or return true to stop.
template <typename Visit>
CUDA_CALLABLE bool ray_walk(const mesh_t& m, const vec3& o, const vec3& d, int32 root,
                            float32& limit, Visit& visit) {
    const vec3 inv(1.0f / d.c[0], 1.0f / d.c[1], 1.0f / d.c[2]);
    int32 stack[stack_size];
    int32 count = 0;
    const int32 r = start_node(m, root);
    if (r < 0) return false;
    if (node_entry(m, r, o, inv) >= 0.0f) stack[count++] = r;
    while (count > 0) {
        const int32 n = stack[--count];
        const bvh_node_t& node = m.bvh.nodes[n];
        if (node.left < 0) {
            for (int32 i = ~node.left; i < node.right; ++i)
                if (visit(m.bvh.items[i], limit)) return true;
            continue;
        }
        const float32 tl = node_entry(m, node.left, o, inv);
        const float32 tr = node_entry(m, node.right, o, inv);
        const bool hl = tl >= 0.0f && tl <= limit, hr = tr >= 0.0f && tr <= limit;
        if (hl && hr && count + 2 <= stack_size) {
            stack[count++] = tl < tr ? node.right : node.left;
            stack[count++] = tl < tr ? node.left : node.right;
        } else if (hl && count < stack_size) {
            stack[count++] = node.left;
        } else if (hr && count < stack_size) {
            stack[count++] = node.right;
        }
    }
    return false;
}

/// The closest hit with t < limit.
struct closest_visit {
    const mesh_t& m;
    vec3 o, d;
    tri_hit_t best;
    int32 face;
    CUDA_CALLABLE bool operator()(int32 f, float32& limit) {
        vec3 a, b, c;
        face_points(m, f, a, b, c);
        tri_hit_t h;
        if (ray_triangle(o, d, a, b, c, h) && h.t < limit) {
            limit = h.t;
            best = h;
            face = f;
        }
        return false;
    }
};

/// Any hit with t < limit stops the walk.
struct any_visit {
    const mesh_t& m;
    vec3 o, d;
    CUDA_CALLABLE bool operator()(int32 f, float32& limit) {
        vec3 a, b, c;
        face_points(m, f, a, b, c);
        tri_hit_t h;
        return ray_triangle(o, d, a, b, c, h) && h.t < limit;
    }
};

/// Counts every hit (t >= 0).
struct count_visit {
    const mesh_t& m;
    vec3 o, d;
    int32 count;
    CUDA_CALLABLE bool operator()(int32 f, float32&) {
        vec3 a, b, c;
        face_points(m, f, a, b, c);
        tri_hit_t h;
        if (ray_triangle(o, d, a, b, c, h)) ++count;
        return false;
    }
};

/// The closest hit of the ray with t < max_t below `root`; face -1 when there is none.
CUDA_CALLABLE closest_visit closest_hit(const mesh_t& m, const vec3& o, const vec3& d,
                                        float32 max_t, int32 root) {
    closest_visit v{m, o, d, tri_hit_t{0.0f, 0.0f, 0.0f, 0.0f}, -1};
    float32 limit = max_t;
    ray_walk(m, o, d, root, limit, v);
    return v;
}

CUDA_CALLABLE int32 count_hits(const mesh_t& m, const vec3& o, const vec3& d, int32 root) {
    count_visit v{m, o, d, 0};
    float32 limit = flt_max;
    ray_walk(m, o, d, root, limit, v);
    return v.count;
}

/// The sign of mesh_query_point: -1 when at least two of the rays along +x, +y and +z first
/// hit a face from behind (det < 0), else 1 (a ray that misses votes outside).
CUDA_CALLABLE float32 inside_by_rays(const mesh_t& m, const vec3& p) {
    int32 votes = 0;
    for (int32 k = 0; k < 3; ++k) {
        const vec3 d(k == 0 ? 1.0f : 0.0f, k == 1 ? 1.0f : 0.0f, k == 2 ? 1.0f : 0.0f);
        const closest_visit h = closest_hit(m, p, d, flt_max, -1);
        if (h.face >= 0 && h.best.det < 0.0f) ++votes;
    }
    return votes >= 2 ? -1.0f : 1.0f;
}

/// The sign of mesh_query_point_sign_parity: n_sample rays along (1, 1, 1) plus a per-axis
/// offset uniform in [-scale, scale) (random stream rand_init(42), offsets drawn x, y, z and
/// redrawn while the direction's squared length is below 1e-8); -1 when at least half of them
/// cross the mesh an odd number of times (so always when n_sample <= 0), else 1.
CUDA_CALLABLE float32 inside_by_parity(const mesh_t& m, const vec3& p, int32 n_sample,
                                       float32 scale) {
    uint32 state = rand_init(42);
    int32 votes = 0;
    for (int32 i = 0; i < n_sample; ++i) {
        vec3 d;
        do {
            const float32 x = randf(state, -scale, scale);
            const float32 y = randf(state, -scale, scale);
            const float32 z = randf(state, -scale, scale);
            d = vec3(1.0f + x, 1.0f + y, 1.0f + z);
        } while (length_sq(d) < 1e-8f);
        if (count_hits(m, p, d, -1) % 2) ++votes;
    }
    return votes * 2 >= n_sample ? -1.0f : 1.0f;
}

/// The solid angle triangle abc subtends at p (Van Oosterom and Strackee), > 0 when p is on
/// the back of the triangle (inside, for an outward-wound closed mesh).
CUDA_CALLABLE float32 triangle_solid_angle(const vec3& a, const vec3& b, const vec3& c,
                                           const vec3& p) {
    const vec3 x = sub(a, p), y = sub(b, p), z = sub(c, p);
    const float32 lx = length(x), ly = length(y), lz = length(z);
    const float32 num = dot(x, cross(y, z));
    const float32 den = lx * ly * lz + dot(x, y) * lz + dot(y, z) * lx + dot(z, x) * ly;
    return 2.0f * atan2(num, den);
}

/// The far-field solid angle of a node's triangles seen from p: the expansion of
/// sum_t int_t n.f(x - p) dA, f(r) = r / |r|^3, to second order about the node's centre
/// (r = c - p): N.f(r) + J_ij M_ij + H_ijk T_ijk / 2 with J and H f's first and second
/// derivatives.
CUDA_CALLABLE float32 far_solid_angle(const mesh_winding_node_t& w, const vec3& r) {
    const float32 r2 = length_sq(r);
    const float32 inv3 = 1.0f / (r2 * sqrt(r2)), inv5 = inv3 / r2, inv7 = inv5 / r2;
    float32 trace = 0.0f, rmr = 0.0f, ra = 0.0f, rb = 0.0f, rrrt = 0.0f;
    for (int32 i = 0; i < 3; ++i) {
        trace += w.first[4 * i];
        float32 a = 0.0f, b = 0.0f, rtr = 0.0f;
        for (int32 j = 0; j < 3; ++j) {
            rmr += r.c[i] * w.first[3 * i + j] * r.c[j];
            a += w.second[6 * j + mesh_sym_slot(j, i)];  // sum_j T_jji
            b += w.second[6 * i + mesh_sym_slot(j, j)];  // sum_j T_ijj
            for (int32 k = 0; k < 3; ++k)
                rtr += r.c[j] * w.second[6 * i + mesh_sym_slot(j, k)] * r.c[k];
        }
        ra += r.c[i] * a;
        rb += r.c[i] * b;
        rrrt += r.c[i] * rtr;
    }
    return (dot(r, w.normal) + trace) * inv3 - 3.0f * rmr * inv5 +
           0.5f * ((-6.0f * ra - 3.0f * rb) * inv5 + 15.0f * rrrt * inv7);
}

/// The winding number of the mesh at p (Barill et al. 2018): a node whose moments' centre is
/// farther from p than accuracy times its radius contributes its far-field expansion
/// (far_solid_angle); nearer nodes are opened and their leaves summed exactly.
CUDA_CALLABLE float32 winding_number(const mesh_t& m, const vec3& p, float32 accuracy) {
    if (m.bvh.root < 0) return 0.0f;
    int32 stack[stack_size];
    int32 count = 0;
    stack[count++] = m.bvh.root;
    float32 omega = 0.0f;
    while (count > 0) {
        const int32 n = stack[--count];
        const bvh_node_t& node = m.bvh.nodes[n];
        const mesh_winding_node_t& w = m.winding[n];
        const vec3 r = sub(w.centre, p);
        if (node.left >= 0 && length_sq(r) > accuracy * accuracy * w.radius * w.radius) {
            omega += far_solid_angle(w, r);
            continue;
        }
        if (node.left < 0) {
            for (int32 i = ~node.left; i < node.right; ++i) {
                vec3 a, b, c;
                face_points(m, m.bvh.items[i], a, b, c);
                omega += triangle_solid_angle(a, b, c, p);
            }
        } else if (count + 2 <= stack_size) {
            stack[count++] = node.left;
            stack[count++] = node.right;
        }
    }
    return omega * 0.0795774715459476678f;  // 1 / (4 pi)
}

}  // namespace mesh_detail

/// See mesh.h.
CUDA_CALLABLE bool mesh_query_ray(uint64 id, vec3 start, vec3 dir, float32 max_t, float32& t,
                                  float32& u, float32& v, float32& sign, vec3& normal, int32& face,
                                  int32 root = -1) {
    const mesh_t& m = mesh_detail::mesh_of(id);
    const mesh_detail::closest_visit h = mesh_detail::closest_hit(m, start, dir, max_t, root);
    if (h.face < 0) return false;
    vec3 a, b, c;
    mesh_detail::face_points(m, h.face, a, b, c);
    t = h.best.t;
    u = h.best.u;
    v = h.best.v;
    sign = h.best.det;
    normal = normalize(cross(sub(b, a), sub(c, a)));
    face = h.face;
    return true;
}

/// The result of mesh_query_ray (wp.MeshQueryRay); members in the order the type table lists.
struct mesh_query_ray_t {
    bool result = false;
    float32 sign = 0.0f;
    int32 face = 0;
    float32 t = 0.0f;
    float32 u = 0.0f;
    float32 v = 0.0f;
    vec3 normal = vec3(0.0f, 0.0f, 0.0f);
    CUDA_CALLABLE mesh_query_ray_t& operator+=(const mesh_query_ray_t& o) {
        sign += o.sign;
        t += o.t;
        u += o.u;
        v += o.v;
        normal = add(normal, o.normal);
        return *this;
    }
};

/// See mesh.h.
CUDA_CALLABLE mesh_query_ray_t mesh_query_ray(uint64 id, vec3 start, vec3 dir, float32 max_t,
                                              int32 root = -1) {
    mesh_query_ray_t r;
    r.result = mesh_query_ray(id, start, dir, max_t, r.t, r.u, r.v, r.sign, r.normal, r.face, root);
    return r;
}

/// See mesh.h.
CUDA_CALLABLE bool mesh_query_ray_anyhit(uint64 id, vec3 start, vec3 dir, float32 max_t,
                                         int32 root = -1) {
    const mesh_t& m = mesh_detail::mesh_of(id);
    mesh_detail::any_visit visit{m, start, dir};
    float32 limit = max_t;
    return mesh_detail::ray_walk(m, start, dir, root, limit, visit);
}

/// See mesh.h.
CUDA_CALLABLE int32 mesh_query_ray_count_intersections(uint64 id, vec3 start, vec3 dir,
                                                       int32 root = -1) {
    return mesh_detail::count_hits(mesh_detail::mesh_of(id), start, dir, root);
}

namespace mesh_detail {

/// The gradients of a hit's (t, u, v) with respect to the ray: with M = [-dir, b - a, c - a]
/// and (t, wb, wc) = M^-1 (start - a), d/dstart = M^-1 and d/ddir = t M^-1 (u = 1 - wb - wc,
/// v = wb). The sign and the normal carry no gradient.
CUDA_CALLABLE void adj_ray_hit(const vec3& a, const vec3& b, const vec3& c, const vec3& dir,
                               float32 t, float32 adj_t, float32 adj_u, float32 adj_v,
                               vec3& adj_start, vec3& adj_dir) {
    const vec3 c0 = mul(dir, -1.0f), c1 = sub(b, a), c2 = sub(c, a);
    const vec3 r0 = cross(c1, c2), r1 = cross(c2, c0), r2 = cross(c0, c1);
    const float32 det = dot(c0, r0);
    if (det == 0.0f) return;
    const float32 y0 = adj_t, y1 = adj_v - adj_u, y2 = -adj_u;
    const vec3 g = mul(add(add(mul(r0, y0), mul(r1, y1)), mul(r2, y2)), 1.0f / det);
    adj_start = add(adj_start, g);
    adj_dir = add(adj_dir, mul(g, t));
}

}  // namespace mesh_detail

/// adj_mesh_query_ray: the closest hit is found again, then (t, u, v)'s gradients flow to
/// start and dir (mesh_detail::adj_ray_hit).
CUDA_CALLABLE void adj_mesh_query_ray(uint64 id, vec3 start, vec3 dir, float32 max_t, int32 root,
                                      uint64&, vec3& adj_start, vec3& adj_dir, float32&, int32&,
                                      const mesh_query_ray_t& adj_ret) {
    const mesh_t& m = mesh_detail::mesh_of(id);
    const mesh_detail::closest_visit h = mesh_detail::closest_hit(m, start, dir, max_t, root);
    if (h.face < 0) return;
    vec3 a, b, c;
    mesh_detail::face_points(m, h.face, a, b, c);
    mesh_detail::adj_ray_hit(a, b, c, dir, h.best.t, adj_ret.t, adj_ret.u, adj_ret.v, adj_start,
                             adj_dir);
}

/// The out-argument form's adjoint (its outputs' gradients adj_t, adj_u, adj_v).
CUDA_CALLABLE void adj_mesh_query_ray(uint64 id, vec3 start, vec3 dir, float32 max_t, float32,
                                      float32, float32, float32, vec3, int32, int32 root, uint64&,
                                      vec3& adj_start, vec3& adj_dir, float32&, float32& adj_t,
                                      float32& adj_u, float32& adj_v, float32&, vec3&, int32&,
                                      int32&, bool) {
    mesh_query_ray_t g;
    g.t = adj_t;
    g.u = adj_u;
    g.v = adj_v;
    uint64 adj_id = 0;
    float32 adj_max_t = 0.0f;
    int32 adj_root = 0;
    adj_mesh_query_ray(id, start, dir, max_t, root, adj_id, adj_start, adj_dir, adj_max_t, adj_root,
                       g);
}

/// The out-argument form called without a root (the whole mesh).
CUDA_CALLABLE void adj_mesh_query_ray(uint64 id, vec3 start, vec3 dir, float32 max_t, float32 t,
                                      float32 u, float32 v, float32 sign, vec3 normal, int32 face,
                                      uint64& adj_id, vec3& adj_start, vec3& adj_dir,
                                      float32& adj_max_t, float32& adj_t, float32& adj_u,
                                      float32& adj_v, float32& adj_sign, vec3& adj_normal,
                                      int32& adj_face, bool adj_ret) {
    int32 adj_root = 0;
    adj_mesh_query_ray(id, start, dir, max_t, t, u, v, sign, normal, face, -1, adj_id, adj_start,
                       adj_dir, adj_max_t, adj_t, adj_u, adj_v, adj_sign, adj_normal, adj_face,
                       adj_root, adj_ret);
}

CUDA_CALLABLE void adj_mesh_query_ray_anyhit(uint64, vec3, vec3, float32, int32, uint64&, vec3&,
                                             vec3&, float32&, int32&, bool) {}
CUDA_CALLABLE void adj_mesh_query_ray_count_intersections(uint64, vec3, vec3, int32, uint64&, vec3&,
                                                          vec3&, int32&, int32) {}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
