// src/builtins/entries_geometry.cpp -- the builtin table's free geometry functions
//
// Closest points of segments and triangles, and the triangle-triangle test. Their native code is
// native/treadle/geometry.h, which only kernels calling one of them include (`header` trait).
#include "builtins/entries.h"

namespace treadle::builtins::entries {

namespace {

bool is_vec3_of(const types::Type* t, ScalarType s) {
    return t && t->is_vector() && t->rows == 3 && t->scalar == s;
}

/// closest_point_edge_edge(p1, q1, p2, q2: vec3f, epsilon: float32) -> vec3f.
std::optional<Signature> rule_closest_point_edge_edge(const std::vector<ArgInfo>& a) {
    if (a.size() != 5 || !rules::scalar_fits(a[4], ScalarType::Float32)) return std::nullopt;
    for (size_t i = 0; i < 4; ++i)
        if (!is_vec3_of(a[i].type, ScalarType::Float32)) return std::nullopt;
    const types::Type* v = a[0].type;
    return Signature{{v, v, v, v, types::float32_type()}, v};
}

/// `n` vec3 arguments of one float type (float32 or float64); the result from `result`.
std::optional<Signature> same_vec3(const std::vector<ArgInfo>& a, size_t n,
                                   const types::Type* result) {
    if (a.size() != n || !a[0].type) return std::nullopt;
    const types::Type* v = a[0].type;
    if (!is_vec3_of(v, ScalarType::Float32) && !is_vec3_of(v, ScalarType::Float64))
        return std::nullopt;
    for (const ArgInfo& x : a)
        if (x.type != v) return std::nullopt;
    return Signature{std::vector<const types::Type*>(n, v), result ? result : v};
}

std::optional<Signature> rule_intersect_tri_tri(const std::vector<ArgInfo>& a) {
    return same_vec3(a, 6, types::int32_type());
}

std::optional<Signature> rule_triangle_closest_point(const std::vector<ArgInfo>& a) {
    return same_vec3(a, 4, nullptr);
}

}  // namespace

/// The free geometry functions (Warp's "Geometry" group, without the mesh, BVH and hash-grid
/// queries).
std::vector<Builtin> geometry() {
    return {
        {"closest_point_edge_edge", "closest_point_edge_edge", BuiltinKind::Regular, "Geometry",
         "closest_point_edge_edge(p1: vec3f, q1: vec3f, p2: vec3f, q2: vec3f, epsilon: float32) "
         "-> vec3f",
         "The closest points of the segments [p1, q1] and [p2, q2], as a vec3 (s, t, d): the "
         "point p1 + s (q1 - p1) of the first segment and p2 + t (q2 - p2) of the second, s and "
         "t in [0, 1], are closest, and d is their distance. A segment whose squared length is "
         "at most epsilon counts as the point at its start (its weight is 0). The gradient of d "
         "moves the closest points along their separation; those of s and t follow the "
         "closest points where they lie strictly inside their segments.",
         true, rule_closest_point_edge_edge, with().header("geometry.h")},
        {"intersect_tri_tri", "intersect_tri_tri", BuiltinKind::Regular, "Geometry",
         "intersect_tri_tri(v0: vec3, v1: vec3, v2: vec3, u0: vec3, u1: vec3, u2: vec3) -> int32",
         "1 when the triangles (v0, v1, v2) and (u0, u1, u2) intersect (touching counts), else "
         "0, by Moller's interval test; triangles in one plane intersect when they overlap in "
         "it. Vertices are vec3f or vec3d (all six alike); the float32 form may misjudge "
         "nearly degenerate configurations, which the float64 form resolves better.",
         false, rule_intersect_tri_tri, with().header("geometry.h")},
        {"triangle_closest_point_barycentric", "triangle_closest_point_barycentric",
         BuiltinKind::Regular, "Geometry",
         "triangle_closest_point_barycentric(a: vec3, b: vec3, c: vec3, p: vec3) -> vec3",
         "The barycentric weights (wa, wb, wc) of the point of triangle abc closest to p (the "
         "point is wa a + wb b + wc c): exactly (1, 0, 0) and its permutations when a vertex "
         "is closest, a weight exactly 0 for the vertex opposite the closest edge. vec3f or "
         "vec3d (all four alike). Beyond Warp 1.17, which has no builtin of this name.",
         false, rule_triangle_closest_point, with().header("geometry.h")},
    };
}

}  // namespace treadle::builtins::entries
