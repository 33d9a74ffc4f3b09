// native/treadle/geometry.h -- free geometry builtins: closest points of segments, triangle tests
//
// Included only by kernels that call one of these builtins (the table's `header` trait), and by
// other geometry headers (mesh and BVH queries), so it includes nothing beyond vec.h. Every
// function compiles with g++ and NVRTC.
//
//   closest_point_edge_edge(p1, q1, p2, q2, eps) -> (s, t, d): the closest points of two
//       segments (Ericson's clamped solution of the 2x2 normal equations; the denominator is
//       |d1 x d2|^2, which stays accurate for nearly parallel segments). Its adjoint gives d's
//       gradient from the closest points alone (they minimise the distance, so moving them
//       changes d only to second order) and s's and t's by implicit differentiation of the
//       optimality conditions of whichever of them is free (strictly inside [0, 1]).
//   intersect_tri_tri(v0, v1, v2, u0, u1, u2) -> 0/1: Moller's interval test, with a coplanar
//       fallback (edge crossings and containment in the plane's dominant projection).
//   triangle_closest_point_barycentric(a, b, c, p): barycentric weights of the point of
//       triangle abc closest to p (Voronoi regions of the vertices, edges and face).
#pragma once

#include "vec.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

namespace geometry_detail {

template <typename T>
CUDA_CALLABLE T clamp01(T x) {
    return x < T(0) ? T(0) : (x > T(1) ? T(1) : x);
}

template <typename T>
CUDA_CALLABLE vec_t<3, T> madd(const vec_t<3, T>& p, const vec_t<3, T>& d, T s) {
    return vec_t<3, T>(p.c[0] + d.c[0] * s, p.c[1] + d.c[1] * s, p.c[2] + d.c[2] * s);
}

/// The forward solution of closest_point_edge_edge, with which of s and t came out of an
/// optimality condition strictly inside (0, 1) (what the adjoint differentiates).
template <typename T>
struct EdgeEdge {
    T s, t;
    bool s_free, t_free;
};

template <typename T>
CUDA_CALLABLE EdgeEdge<T> solve_edge_edge(const vec_t<3, T>& p1, const vec_t<3, T>& q1,
                                          const vec_t<3, T>& p2, const vec_t<3, T>& q2, T epsilon) {
    const vec_t<3, T> d1 = sub(q1, p1), d2 = sub(q2, p2), r = sub(p1, p2);
    const T a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
    EdgeEdge<T> out{T(0), T(0), false, false};
    if (a <= epsilon && e <= epsilon) return out;
    if (a <= epsilon) {
        out.t = clamp01(f / e);
        out.t_free = out.t > T(0) && out.t < T(1);
        return out;
    }
    const T c = dot(d1, r);
    if (e <= epsilon) {
        out.s = clamp01(-c / a);
        out.s_free = out.s > T(0) && out.s < T(1);
        return out;
    }
    const T b = dot(d1, d2);
    const vec_t<3, T> n = cross(d1, d2);
    const T denom = dot(n, n);
    T s = T(0);
    bool s_free = false;
    if (denom > T(0)) {
        const T raw = (b * f - c * e) / denom;
        s = clamp01(raw);
        s_free = raw > T(0) && raw < T(1);
    }
    T t = (b * s + f) / e;
    if (t < T(0)) {
        t = T(0);
        const T raw = -c / a;
        s = clamp01(raw);
        s_free = raw > T(0) && raw < T(1);
        out.t_free = false;
    } else if (t > T(1)) {
        t = T(1);
        const T raw = (b - c) / a;
        s = clamp01(raw);
        s_free = raw > T(0) && raw < T(1);
        out.t_free = false;
    } else {
        out.t_free = t > T(0) && t < T(1);
    }
    out.s = s;
    out.t = t;
    out.s_free = s_free;
    return out;
}

}  // namespace geometry_detail

// ---- closest points of two segments ---------------------------------------------------------

/// closest_point_edge_edge: (s, t, d) with p1 + s (q1 - p1) and p2 + t (q2 - p2) the closest
/// points of the segments and d their distance. A segment whose squared length is <= epsilon is
/// a point (its weight is 0).
template <typename T>
CUDA_CALLABLE vec_t<3, T> closest_point_edge_edge(vec_t<3, T> p1, vec_t<3, T> q1, vec_t<3, T> p2,
                                                  vec_t<3, T> q2, T epsilon) {
    using namespace geometry_detail;
    const EdgeEdge<T> st = solve_edge_edge(p1, q1, p2, q2, epsilon);
    const vec_t<3, T> c1 = madd(p1, sub(q1, p1), st.s), c2 = madd(p2, sub(q2, p2), st.t);
    return vec_t<3, T>(st.s, st.t, length(sub(c1, c2)));
}

/// adj_closest_point_edge_edge: d's gradient moves the closest points along their separation;
/// s's and t's come from the optimality conditions F1 = d1.w = 0 (s free) and F2 = d2.w = 0
/// (t free), w = c1 - c2. When both are free but the segments are nearly parallel (sin^2 of
/// their angle below 1e-6) the 2x2 system is ill-conditioned and s is held fixed instead.
template <typename T>
CUDA_CALLABLE void adj_closest_point_edge_edge(vec_t<3, T> p1, vec_t<3, T> q1, vec_t<3, T> p2,
                                               vec_t<3, T> q2, T epsilon, vec_t<3, T>& adj_p1,
                                               vec_t<3, T>& adj_q1, vec_t<3, T>& adj_p2,
                                               vec_t<3, T>& adj_q2, T& adj_epsilon,
                                               const vec_t<3, T>& adj_ret) {
    using namespace geometry_detail;
    (void)adj_epsilon;
    const EdgeEdge<T> st = solve_edge_edge(p1, q1, p2, q2, epsilon);
    const T s = st.s, t = st.t;
    const vec_t<3, T> d1 = sub(q1, p1), d2 = sub(q2, p2);
    const vec_t<3, T> w = sub(madd(p1, d1, s), madd(p2, d2, t));
    const T dist = length(w);
    // d: dd/dc1 = w / |w|, dd/dc2 = -w / |w|.
    if (dist > T(0) && adj_ret.c[2] != T(0)) {
        const vec_t<3, T> g = mul(w, adj_ret.c[2] / dist);
        adj_p1 = add(adj_p1, mul(g, T(1) - s));
        adj_q1 = add(adj_q1, mul(g, s));
        adj_p2 = sub(adj_p2, mul(g, T(1) - t));
        adj_q2 = sub(adj_q2, mul(g, t));
    }
    const T a = dot(d1, d1), e = dot(d2, d2), b = dot(d1, d2);
    bool s_free = st.s_free, t_free = st.t_free;
    if (s_free && t_free) {
        const vec_t<3, T> n = cross(d1, d2);
        if (dot(n, n) < T(1e-6) * a * e) s_free = false;
    }
    // The adjoint of each condition: adj_theta = l1 dF1/dtheta + l2 dF2/dtheta.
    T l1 = T(0), l2 = T(0);
    if (s_free && t_free) {
        const vec_t<3, T> n = cross(d1, d2);
        const T det = -dot(n, n);  // of J = [[a, -b], [b, -e]]
        l1 = -(-e * adj_ret.c[0] - b * adj_ret.c[1]) / det;
        l2 = -(b * adj_ret.c[0] + a * adj_ret.c[1]) / det;
    } else if (s_free) {
        l1 = -adj_ret.c[0] / a;
    } else if (t_free) {
        l2 = adj_ret.c[1] / e;
    }
    if (l1 != T(0)) {
        adj_p1 = add(adj_p1, mul(sub(mul(d1, T(1) - s), w), l1));
        adj_q1 = add(adj_q1, mul(add(mul(d1, s), w), l1));
        adj_p2 = sub(adj_p2, mul(d1, (T(1) - t) * l1));
        adj_q2 = sub(adj_q2, mul(d1, t * l1));
    }
    if (l2 != T(0)) {
        adj_p1 = add(adj_p1, mul(d2, (T(1) - s) * l2));
        adj_q1 = add(adj_q1, mul(d2, s * l2));
        adj_p2 = sub(adj_p2, mul(add(mul(d2, T(1) - t), w), l2));
        adj_q2 = add(adj_q2, mul(sub(w, mul(d2, t)), l2));
    }
}

// ---- triangle-triangle intersection ---------------------------------------------------------

namespace geometry_detail {

/// Signed distances are snapped to 0 below this fraction of |n| times the triangles' size.
template <typename T>
CUDA_CALLABLE T plane_tolerance();
template <>
CUDA_CALLABLE float32 plane_tolerance<float32>() {
    return 1e-6f;
}
template <>
CUDA_CALLABLE float64 plane_tolerance<float64>() {
    return 1e-12;
}

/// 2-D orientation of (a, b, c): > 0 counter-clockwise.
template <typename T>
CUDA_CALLABLE T orient2(T ax, T ay, T bx, T by, T cx, T cy) {
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/// Whether 2-D point x lies in the bounding box of p and q.
template <typename T>
CUDA_CALLABLE bool in_box2(const T* p, const T* q, const T* x) {
    return min(p[0], q[0]) <= x[0] && x[0] <= max(p[0], q[0]) && min(p[1], q[1]) <= x[1] &&
           x[1] <= max(p[1], q[1]);
}

/// Whether closed 2-D segments ab and cd share a point.
template <typename T>
CUDA_CALLABLE bool segments_touch(const T* a, const T* b, const T* c, const T* d) {
    const T o1 = orient2(a[0], a[1], b[0], b[1], c[0], c[1]);
    const T o2 = orient2(a[0], a[1], b[0], b[1], d[0], d[1]);
    const T o3 = orient2(c[0], c[1], d[0], d[1], a[0], a[1]);
    const T o4 = orient2(c[0], c[1], d[0], d[1], b[0], b[1]);
    if (((o1 > T(0) && o2 < T(0)) || (o1 < T(0) && o2 > T(0))) &&
        ((o3 > T(0) && o4 < T(0)) || (o3 < T(0) && o4 > T(0))))
        return true;
    return (o1 == T(0) && in_box2(a, b, c)) || (o2 == T(0) && in_box2(a, b, d)) ||
           (o3 == T(0) && in_box2(c, d, a)) || (o4 == T(0) && in_box2(c, d, b));
}

/// Whether 2-D point p lies in (or on) triangle t0 t1 t2.
template <typename T>
CUDA_CALLABLE bool point_in_triangle2(const T* p, const T* t0, const T* t1, const T* t2) {
    const T d0 = orient2(t0[0], t0[1], t1[0], t1[1], p[0], p[1]);
    const T d1 = orient2(t1[0], t1[1], t2[0], t2[1], p[0], p[1]);
    const T d2 = orient2(t2[0], t2[1], t0[0], t0[1], p[0], p[1]);
    const bool neg = d0 < T(0) || d1 < T(0) || d2 < T(0);
    const bool pos = d0 > T(0) || d1 > T(0) || d2 > T(0);
    return !(neg && pos);
}

/// Triangles v and u in one plane of normal n: do they overlap in it?
template <typename T>
CUDA_CALLABLE bool coplanar_overlap(const vec_t<3, T>* v, const vec_t<3, T>* u,
                                    const vec_t<3, T>& n) {
    // Project onto the coordinate plane the normal is most perpendicular to.
    const T ax = abs(n.c[0]), ay = abs(n.c[1]), az = abs(n.c[2]);
    const int drop = (ax >= ay && ax >= az) ? 0 : (ay >= az ? 1 : 2);
    const int i0 = drop == 0 ? 1 : 0, i1 = drop == 2 ? 1 : 2;
    T pv[3][2], pu[3][2];
    for (int k = 0; k < 3; ++k) {
        pv[k][0] = v[k].c[i0];
        pv[k][1] = v[k].c[i1];
        pu[k][0] = u[k].c[i0];
        pu[k][1] = u[k].c[i1];
    }
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            if (segments_touch(pv[i], pv[(i + 1) % 3], pu[j], pu[(j + 1) % 3])) return true;
    return point_in_triangle2(pv[0], pu[0], pu[1], pu[2]) ||
           point_in_triangle2(pu[0], pv[0], pv[1], pv[2]);
}

/// The interval a triangle covers on the intersection line: `p` are its vertices' coordinates
/// along the line, `d` their signed distances to the other triangle's plane (not all of one
/// sign). False when all three distances are 0 (coplanar).
template <typename T>
CUDA_CALLABLE bool line_interval(const T* p, const T* d, T& lo, T& hi) {
    int alone;
    if (d[0] * d[1] > T(0))
        alone = 2;
    else if (d[0] * d[2] > T(0))
        alone = 1;
    else if (d[1] * d[2] > T(0) || d[0] != T(0))
        alone = 0;
    else if (d[1] != T(0))
        alone = 1;
    else if (d[2] != T(0))
        alone = 2;
    else
        return false;
    const int b = (alone + 1) % 3, c = (alone + 2) % 3;
    const T x1 = p[alone] + (p[b] - p[alone]) * d[alone] / (d[alone] - d[b]);
    const T x2 = p[alone] + (p[c] - p[alone]) * d[alone] / (d[alone] - d[c]);
    lo = min(x1, x2);
    hi = max(x1, x2);
    return true;
}

/// Signed distances of `pts` to the plane through `o` with normal `n`, snapped to 0 within tol.
template <typename T>
CUDA_CALLABLE void plane_distances(const vec_t<3, T>* pts, const vec_t<3, T>& o,
                                   const vec_t<3, T>& n, T tol, T* d) {
    for (int k = 0; k < 3; ++k) {
        d[k] = dot(n, sub(pts[k], o));
        if (abs(d[k]) <= tol) d[k] = T(0);
    }
}

template <typename T>
CUDA_CALLABLE bool same_side(const T* d) {
    return (d[0] > T(0) && d[1] > T(0) && d[2] > T(0)) ||
           (d[0] < T(0) && d[1] < T(0) && d[2] < T(0));
}

}  // namespace geometry_detail

/// intersect_tri_tri: 1 when triangles (v0, v1, v2) and (u0, u1, u2) share a point, else 0.
template <typename T>
CUDA_CALLABLE int32 intersect_tri_tri(vec_t<3, T> v0, vec_t<3, T> v1, vec_t<3, T> v2,
                                      vec_t<3, T> u0, vec_t<3, T> u1, vec_t<3, T> u2) {
    using namespace geometry_detail;
    const vec_t<3, T> v[3] = {v0, v1, v2};
    const vec_t<3, T> u[3] = {u0, u1, u2};
    T size = T(0);
    for (int k = 0; k < 3; ++k) {
        size = max(size, length(sub(v[(k + 1) % 3], v[k])));
        size = max(size, length(sub(u[(k + 1) % 3], u[k])));
    }
    const vec_t<3, T> nv = cross(sub(v1, v0), sub(v2, v0));
    const vec_t<3, T> nu = cross(sub(u1, u0), sub(u2, u0));
    T du[3], dv[3];
    plane_distances(u, v0, nv, plane_tolerance<T>() * length(nv) * size, du);
    if (same_side(du)) return 0;
    plane_distances(v, u0, nu, plane_tolerance<T>() * length(nu) * size, dv);
    if (same_side(dv)) return 0;
    if (du[0] == T(0) && du[1] == T(0) && du[2] == T(0)) return coplanar_overlap(v, u, nv) ? 1 : 0;
    // Coordinates along the intersection line, on the axis the line is most aligned with.
    const vec_t<3, T> line = cross(nv, nu);
    const T lx = abs(line.c[0]), ly = abs(line.c[1]), lz = abs(line.c[2]);
    const int axis = (lx >= ly && lx >= lz) ? 0 : (ly >= lz ? 1 : 2);
    const T pv[3] = {v0.c[axis], v1.c[axis], v2.c[axis]};
    const T pu[3] = {u0.c[axis], u1.c[axis], u2.c[axis]};
    T v_lo, v_hi, u_lo, u_hi;
    if (!line_interval(pv, dv, v_lo, v_hi) || !line_interval(pu, du, u_lo, u_hi))
        return coplanar_overlap(v, u, nv) ? 1 : 0;
    return (v_hi < u_lo || u_hi < v_lo) ? 0 : 1;
}

// ---- closest point of a triangle ------------------------------------------------------------

/// triangle_closest_point_barycentric: barycentric weights (wa, wb, wc) of the point of
/// triangle abc closest to p, found by the Voronoi region p lies in (a vertex, an edge or the
/// face); weights of a vertex region are exactly 1 and 0, those of an edge region exactly 0 for
/// the opposite vertex.
template <typename T>
CUDA_CALLABLE vec_t<3, T> triangle_closest_point_barycentric(vec_t<3, T> a, vec_t<3, T> b,
                                                             vec_t<3, T> c, vec_t<3, T> p) {
    const vec_t<3, T> ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
    const T d1 = dot(ab, ap), d2 = dot(ac, ap);
    if (d1 <= T(0) && d2 <= T(0)) return vec_t<3, T>(T(1), T(0), T(0));
    const vec_t<3, T> bp = sub(p, b);
    const T d3 = dot(ab, bp), d4 = dot(ac, bp);
    if (d3 >= T(0) && d4 <= d3) return vec_t<3, T>(T(0), T(1), T(0));
    const T vc = d1 * d4 - d3 * d2;
    if (vc <= T(0) && d1 >= T(0) && d3 <= T(0)) {
        const T x = d1 / (d1 - d3);
        return vec_t<3, T>(T(1) - x, x, T(0));
    }
    const vec_t<3, T> cp = sub(p, c);
    const T d5 = dot(ab, cp), d6 = dot(ac, cp);
    if (d6 >= T(0) && d5 <= d6) return vec_t<3, T>(T(0), T(0), T(1));
    const T vb = d5 * d2 - d1 * d6;
    if (vb <= T(0) && d2 >= T(0) && d6 <= T(0)) {
        const T x = d2 / (d2 - d6);
        return vec_t<3, T>(T(1) - x, T(0), x);
    }
    const T va = d3 * d6 - d5 * d4;
    if (va <= T(0) && (d4 - d3) >= T(0) && (d5 - d6) >= T(0)) {
        const T x = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return vec_t<3, T>(T(0), T(1) - x, x);
    }
    const T inv = T(1) / (va + vb + vc);
    const T y = vb * inv, z = vc * inv;
    return vec_t<3, T>(T(1) - y - z, y, z);
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
