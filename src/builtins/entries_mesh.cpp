// src/builtins/entries_mesh.cpp -- the builtin table's triangle-mesh queries (wp.Mesh ids)
//
// Their native code is native/treadle/mesh.h (with mesh_point.h and mesh_ray.h), which only
// kernels calling one of them include (`header` trait). A mesh id is a uint64. Point and ray
// queries have Warp's two forms: one returning a MeshQueryPoint / MeshQueryRay struct, and the
// older out-argument form returning bool that writes local variables (Signature::outputs_from).
// Box and sphere queries are advanced by mesh_query_next (a QueryNext builtin).
#include "builtins/entries.h"

namespace treadle::builtins::entries {

namespace {

const types::Type* vec3f() { return types::vector_type(3, ScalarType::Float32); }
const types::Type* u64() { return types::scalar_type(ScalarType::UInt64); }
const types::Type* point_result() { return types::native_struct_by_name("MeshQueryPoint"); }
const types::Type* ray_result() { return types::native_struct_by_name("MeshQueryRay"); }
const types::Type* aabb_query() { return types::native_struct_by_name("MeshQueryAABB"); }
const types::Type* sphere_query() { return types::native_struct_by_name("MeshQuery"); }

/// The parameter type of a shape letter: u uint64, v vec3f, f float32, i int32; capitals are
/// output locals (F float32, I int32, V vec3f).
const types::Type* type_of(char c) {
    switch (c) {
        case 'u':
            return u64();
        case 'v':
        case 'V':
            return vec3f();
        case 'f':
        case 'F':
            return types::float32_type();
        default:
            return types::int32_type();
    }
}

bool fits(const ArgInfo& a, char c) {
    if (!a.type) return false;
    switch (c) {
        case 'u':
            return a.type->is_integer() && (a.type->scalar == ScalarType::UInt64 ||
                                            a.type->scalar == ScalarType::Int64 || a.weak);
        case 'v':
            return a.type == vec3f();
        case 'f':
            return a.type->is_scalar() && rules::scalar_fits(a, ScalarType::Float32);
        case 'i':
            return a.type->is_integer() && rules::scalar_fits(a, ScalarType::Int32);
        default:  // an output local: exactly its type
            return !a.weak && a.type == type_of(c);
    }
}

/// The signature of `a` under `shape` (one letter per argument), giving `ret`.
std::optional<Signature> shaped(const std::vector<ArgInfo>& a, const char* shape,
                                const types::Type* ret) {
    const std::string s(shape);
    if (a.size() != s.size()) return std::nullopt;
    Signature sig;
    sig.ret = ret;
    for (size_t i = 0; i < s.size(); ++i) {
        if (!fits(a[i], s[i])) return std::nullopt;
        sig.params.push_back(type_of(s[i]));
        if (s[i] >= 'A' && s[i] <= 'Z') {
            if (sig.outputs_from == SIZE_MAX) sig.outputs_from = i;
            ++sig.outputs;
        }
    }
    return sig;
}

/// The first of `shapes` that `a` fits: lower-case-only shapes give `ret`, shapes with
/// output locals give bool. Struct forms list only their full shape: inference fills the
/// documented defaults of the trailing arguments, so the adjoint sees every argument.
std::optional<Signature> first_fit(const std::vector<ArgInfo>& a,
                                   std::initializer_list<const char*> shapes,
                                   const types::Type* ret) {
    for (const char* shape : shapes) {
        bool outputs = false;
        for (const char* c = shape; *c; ++c) outputs = outputs || (*c >= 'A' && *c <= 'Z');
        if (auto sig = shaped(a, shape, outputs ? types::bool_type() : ret)) return sig;
    }
    return std::nullopt;
}

std::optional<Signature> rule_point(const std::vector<ArgInfo>& a) {
    return first_fit(a, {"uvf", "uvfFIFF"}, point_result());
}
std::optional<Signature> rule_point_no_sign(const std::vector<ArgInfo>& a) {
    return first_fit(a, {"uvf", "uvfIFF"}, point_result());
}
std::optional<Signature> rule_point_normal(const std::vector<ArgInfo>& a) {
    return first_fit(a, {"uvff", "uvfFIFF", "uvfFIFFf"}, point_result());
}
std::optional<Signature> rule_point_winding(const std::vector<ArgInfo>& a) {
    return first_fit(a, {"uvfff", "uvfFIFF", "uvfFIFFf", "uvfFIFFff"}, point_result());
}
std::optional<Signature> rule_point_parity(const std::vector<ArgInfo>& a) {
    return first_fit(a, {"uvfif", "uvfFIFF", "uvfFIFFi", "uvfFIFFif"}, point_result());
}
std::optional<Signature> rule_ray(const std::vector<ArgInfo>& a) {
    return first_fit(a, {"uvvfi", "uvvfFFFFVI", "uvvfFFFFVIi"}, ray_result());
}
std::optional<Signature> rule_anyhit(const std::vector<ArgInfo>& a) {
    return first_fit(a, {"uvvfi"}, types::bool_type());
}
std::optional<Signature> rule_count(const std::vector<ArgInfo>& a) {
    return first_fit(a, {"uvvi"}, types::int32_type());
}
std::optional<Signature> rule_aabb(const std::vector<ArgInfo>& a) {
    return shaped(a, "uvv", aabb_query());
}
std::optional<Signature> rule_sphere(const std::vector<ArgInfo>& a) {
    return shaped(a, "uvf", sphere_query());
}
/// mesh_query_next(query: MeshQueryAABB | MeshQuery, index: int32) -> bool.
std::optional<Signature> rule_next(const std::vector<ArgInfo>& a) {
    if (a.size() != 2 || (a[0].type != aabb_query() && a[0].type != sphere_query()) ||
        a[1].type != types::int32_type())
        return std::nullopt;
    return Signature{{a[0].type, types::int32_type()}, types::bool_type()};
}
std::optional<Signature> rule_eval(const std::vector<ArgInfo>& a) {
    return shaped(a, "uiff", vec3f());
}
std::optional<Signature> rule_face_vec(const std::vector<ArgInfo>& a) {
    return shaped(a, "ui", vec3f());
}
std::optional<Signature> rule_face_int(const std::vector<ArgInfo>& a) {
    return shaped(a, "ui", types::int32_type());
}
std::optional<Signature> rule_get_bvh(const std::vector<ArgInfo>& a) {
    return shaped(a, "u", u64());
}
std::optional<Signature> rule_get(const std::vector<ArgInfo>& a) {
    return shaped(a, "u", types::native_struct_by_name("Mesh"));
}

constexpr const char* k_point_doc =
    " Returns a MeshQueryPoint {result, sign, face, u, v}: result is false (and the rest zero) "
    "when no face qualifies; (u, v) are the barycentric coordinates of the closest point on "
    "`face` (u weighs its first vertex, v its second). The older form with output locals "
    "(..., inside, face, u, v) returns result and writes them only when it is true. "
    "Differentiable: gradients of u and v reach `point`.";

}  // namespace

/// The mesh queries (Warp's "Geometry" group: mesh_*).
std::vector<Builtin> mesh_queries() {
    return {
        {"mesh_query_point", "mesh_query_point", BuiltinKind::Regular, "Geometry",
         "mesh_query_point(id: uint64, point: vec3f, max_dist: float32) -> MeshQueryPoint",
         "The point of the mesh `id` closest to `point`, among faces closer than max_dist; "
         "sign < 0 when `point` is inside (at least two of three rays along +x, +y, +z first "
         "meet a face from its back), else 1.",
         true, rule_point, with().header("mesh.h").rebinds(Rebinds::OutputLocals)},
        {"mesh_query_point_no_sign", "mesh_query_point_no_sign", BuiltinKind::Regular, "Geometry",
         "mesh_query_point_no_sign(id: uint64, point: vec3f, max_dist: float32) -> "
         "MeshQueryPoint",
         "The point of the mesh `id` closest to `point`, among faces closer than max_dist, "
         "without a sign (sign stays 0; output form: ..., face, u, v).",
         true, rule_point_no_sign, with().header("mesh.h").rebinds(Rebinds::OutputLocals)},
        {"mesh_query_furthest_point_no_sign", "mesh_query_furthest_point_no_sign",
         BuiltinKind::Regular, "Geometry",
         "mesh_query_furthest_point_no_sign(id: uint64, point: vec3f, min_dist: float32) -> "
         "MeshQueryPoint",
         "The point of the mesh `id` farthest from `point` (a vertex), if farther than "
         "min_dist; no sign (output form: ..., face, u, v).",
         true, rule_point_no_sign, with().header("mesh.h").rebinds(Rebinds::OutputLocals)},
        {"mesh_query_point_sign_normal", "mesh_query_point_sign_normal", BuiltinKind::Regular,
         "Geometry",
         "mesh_query_point_sign_normal(id: uint64, point: vec3f, max_dist: float32, epsilon: "
         "float32 = 1e-3) -> MeshQueryPoint",
         "The closest point as mesh_query_point, signed by the angle-weighted pseudo-normal of "
         "the faces within epsilon (a fraction of the average edge length) of the closest "
         "distance: robust for watertight meshes.",
         true, rule_point_normal, with().header("mesh.h").rebinds(Rebinds::OutputLocals)},
        {"mesh_query_point_sign_winding_number", "mesh_query_point_sign_winding_number",
         BuiltinKind::Regular, "Geometry",
         "mesh_query_point_sign_winding_number(id: uint64, point: vec3f, max_dist: float32, "
         "accuracy: float32 = 2.0, threshold: float32 = 0.5) -> MeshQueryPoint",
         "The closest point as mesh_query_point, inside when the mesh's winding number at "
         "`point` exceeds threshold (fast winding number: BVH nodes farther than accuracy times "
         "their radius count as dipoles). Needs wp.Mesh(..., support_winding_number=True); "
         "otherwise the sign falls back to mesh_query_point's.",
         true, rule_point_winding, with().header("mesh.h").rebinds(Rebinds::OutputLocals)},
        {"mesh_query_point_sign_parity", "mesh_query_point_sign_parity", BuiltinKind::Regular,
         "Geometry",
         "mesh_query_point_sign_parity(id: uint64, point: vec3f, max_dist: float32, n_sample: "
         "int32 = 1, perturbation_scale: float32 = 0.1) -> MeshQueryPoint",
         "The closest point as mesh_query_point, inside when at least half of n_sample rays "
         "along (1, 1, 1) plus uniform offsets in [-perturbation_scale, perturbation_scale) "
         "cross the mesh an odd number of times.",
         true, rule_point_parity, with().header("mesh.h").rebinds(Rebinds::OutputLocals)},
        {"mesh_query_ray", "mesh_query_ray", BuiltinKind::Regular, "Geometry",
         "mesh_query_ray(id: uint64, start: vec3f, dir: vec3f, max_t: float32, root: int32 = "
         "-1) -> MeshQueryRay",
         "The closest hit of the ray start + t dir with 0 <= t < max_t (t in multiples of "
         "|dir|) on the mesh `id`: MeshQueryRay {result, sign (> 0 front face, < 0 back), face, "
         "t, u, v, normal (the face's unit normal)}. `root` confines the search to a group "
         "(mesh_get_group_root). The older form (..., max_t, t, u, v, sign, normal, face) "
         "returns result and writes the locals. Differentiable in start and dir through t, u, "
         "v.",
         true, rule_ray, with().header("mesh.h").rebinds(Rebinds::OutputLocals)},
        {"mesh_query_ray_anyhit", "mesh_query_ray_anyhit", BuiltinKind::Regular, "Geometry",
         "mesh_query_ray_anyhit(id: uint64, start: vec3f, dir: vec3f, max_t: float32, root: "
         "int32 = -1) -> bool",
         "Whether the ray start + t dir meets the mesh `id` for some 0 <= t < max_t (stops at "
         "the first hit found).",
         false, rule_anyhit, with().header("mesh.h")},
        {"mesh_query_ray_count_intersections", "mesh_query_ray_count_intersections",
         BuiltinKind::Regular, "Geometry",
         "mesh_query_ray_count_intersections(id: uint64, start: vec3f, dir: vec3f, root: int32 "
         "= -1) -> int32",
         "The number of faces of the mesh `id` the ray start + t dir (t >= 0) meets.", false,
         rule_count, with().header("mesh.h")},
        {"mesh_query_aabb", "mesh_query_aabb", BuiltinKind::Regular, "Geometry",
         "mesh_query_aabb(id: uint64, low: vec3f, high: vec3f) -> MeshQueryAABB",
         "A query over the faces of the mesh `id` whose bounding boxes overlap [low, high] "
         "(touching counts; a broad phase), advanced by mesh_query_next.",
         false, rule_aabb, with().header("mesh.h")},
        {"mesh_query_sphere", "mesh_query_sphere", BuiltinKind::Regular, "Geometry",
         "mesh_query_sphere(id: uint64, center: vec3f, radius: float32) -> MeshQuery",
         "A query over the faces of the mesh `id` that come within `radius` of `center` (the "
         "exact triangle distance), advanced by mesh_query_next.",
         false, rule_sphere, with().header("mesh.h")},
        {"mesh_query_next", "mesh_query_next_dynamic", BuiltinKind::QueryNext, "Geometry",
         "mesh_query_next(query: MeshQueryAABB | MeshQuery, index: int32) -> bool",
         "Advances a box or sphere query to its next face and writes the face's index to "
         "`index`; false, `index` unchanged, once none is left. Both are local variables.",
         false, rule_next, with().rebinds(Rebinds::Query).header("mesh.h")},
        {"mesh_query_aabb_next", "mesh_query_next_dynamic", BuiltinKind::QueryNext, "Geometry",
         "mesh_query_aabb_next(query: MeshQueryAABB | MeshQuery, index: int32) -> bool",
         "The same as mesh_query_next (Warp's older name).", false, rule_next,
         with().rebinds(Rebinds::Query).header("mesh.h")},
        {"mesh_eval_position", "mesh_eval_position", BuiltinKind::Regular, "Geometry",
         "mesh_eval_position(id: uint64, face: int32, bary_u: float32, bary_v: float32) -> "
         "vec3f",
         "The point u p0 + v p1 + (1 - u - v) p2 of face `face` of the mesh `id`. "
         "Differentiable in bary_u and bary_v.",
         true, rule_eval, with().header("mesh.h")},
        {"mesh_eval_velocity", "mesh_eval_velocity", BuiltinKind::Regular, "Geometry",
         "mesh_eval_velocity(id: uint64, face: int32, bary_u: float32, bary_v: float32) -> "
         "vec3f",
         "The velocity at barycentric (u, v) of face `face`, interpolated as "
         "mesh_eval_position interpolates points (zero for a mesh without velocities).",
         true, rule_eval, with().header("mesh.h")},
        {"mesh_eval_face_normal", "mesh_eval_face_normal", BuiltinKind::Regular, "Geometry",
         "mesh_eval_face_normal(id: uint64, face: int32) -> vec3f",
         "The unit normal normalize(cross(p1 - p0, p2 - p0)) of face `face`.", false, rule_face_vec,
         with().header("mesh.h")},
        {"mesh_get_point", "mesh_get_point", BuiltinKind::Regular, "Geometry",
         "mesh_get_point(id: uint64, index: int32) -> vec3f",
         "The point of face-vertex `index` (in [0, 3 * faces)): points[indices[index]].", false,
         rule_face_vec, with().header("mesh.h")},
        {"mesh_get_velocity", "mesh_get_velocity", BuiltinKind::Regular, "Geometry",
         "mesh_get_velocity(id: uint64, index: int32) -> vec3f",
         "The velocity of face-vertex `index`: velocities[indices[index]].", false, rule_face_vec,
         with().header("mesh.h")},
        {"mesh_get_index", "mesh_get_index", BuiltinKind::Regular, "Geometry",
         "mesh_get_index(id: uint64, index: int32) -> int32",
         "The point index of face-vertex `index`: indices[index].", false, rule_face_int,
         with().header("mesh.h")},
        {"mesh_get_group_root", "mesh_get_group_root", BuiltinKind::Regular, "Geometry",
         "mesh_get_group_root(id: uint64, group: int32) -> int32",
         "The BVH node holding the faces of group `group` (wp.Mesh(..., groups=...)), to pass "
         "as a ray query's root; -1 (the whole mesh) when the group has no face.",
         false, rule_face_int, with().header("mesh.h")},
        {"mesh_get_bvh", "mesh_get_bvh", BuiltinKind::Regular, "Geometry",
         "mesh_get_bvh(id: uint64) -> uint64",
         "The id of the mesh's BVH over its faces' boxes (items are face indices), for the "
         "bvh_query_* builtins.",
         false, rule_get_bvh, with().header("mesh.h")},
        {"mesh_get", "mesh_get", BuiltinKind::Regular, "Geometry", "mesh_get(id: uint64) -> Mesh",
         "The mesh `id` as a struct of its arrays: points, velocities and indices (flat, three "
         "per face).",
         false, rule_get, with().header("mesh.h")},
    };
}

}  // namespace treadle::builtins::entries
