// src/builtins/entries_bvh.cpp -- the builtin table's BVH queries (wp.Bvh ids in kernels)
//
// Their native code is native/treadle/bvh.h, which only kernels calling one of them include
// (`header` trait). A BVH id is a uint64; queries are wp.BvhQuery values advanced by
// bvh_query_next (a QueryNext builtin: `while wp.bvh_query_next(q, i)` or `for i in q`).
#include "builtins/entries.h"

namespace treadle::builtins::entries {

namespace {

const types::Type* vec3f() { return types::vector_type(3, ScalarType::Float32); }
const types::Type* bvh_query() { return types::native_struct_by_name("BvhQuery"); }

/// (id: uint64, then `shape` — 'v' a vec3f, 'f' a float32 — then an optional root: int32).
std::optional<Signature> query_rule(const std::vector<ArgInfo>& a, const char* shape) {
    const size_t n = std::char_traits<char>::length(shape);
    if (a.size() != n + 1 && a.size() != n + 2) return std::nullopt;
    if (!rules::scalar_fits(a[0], ScalarType::UInt64)) return std::nullopt;
    std::vector<const types::Type*> params{types::scalar_type(ScalarType::UInt64)};
    for (size_t i = 0; i < n; ++i) {
        if (shape[i] == 'v') {
            if (a[i + 1].type != vec3f()) return std::nullopt;
            params.push_back(vec3f());
        } else {
            if (!rules::scalar_fits(a[i + 1], ScalarType::Float32)) return std::nullopt;
            params.push_back(types::float32_type());
        }
    }
    if (a.size() == n + 2) {
        if (!rules::scalar_fits(a[n + 1], ScalarType::Int32)) return std::nullopt;
        params.push_back(types::int32_type());
    }
    return Signature{params, bvh_query()};
}

std::optional<Signature> rule_aabb(const std::vector<ArgInfo>& a) { return query_rule(a, "vv"); }
std::optional<Signature> rule_sphere(const std::vector<ArgInfo>& a) { return query_rule(a, "vf"); }
std::optional<Signature> rule_capsule(const std::vector<ArgInfo>& a) {
    return query_rule(a, "vvf");
}

/// bvh_query_next(query: BvhQuery, index: int32, max_dist: float32 = inf) -> bool.
std::optional<Signature> rule_next(const std::vector<ArgInfo>& a) {
    if (a.size() < 2 || a.size() > 3 || a[0].type != bvh_query() ||
        a[1].type != types::int32_type())
        return std::nullopt;
    std::vector<const types::Type*> params{bvh_query(), types::int32_type()};
    if (a.size() == 3) {
        if (!rules::scalar_fits(a[2], ScalarType::Float32)) return std::nullopt;
        params.push_back(types::float32_type());
    }
    return Signature{params, types::bool_type()};
}

std::optional<Signature> rule_group_root(const std::vector<ArgInfo>& a) {
    if (a.size() != 2 || !rules::scalar_fits(a[0], ScalarType::UInt64) ||
        !rules::scalar_fits(a[1], ScalarType::Int32))
        return std::nullopt;
    return Signature{{types::scalar_type(ScalarType::UInt64), types::int32_type()},
                     types::int32_type()};
}

}  // namespace

/// The BVH queries (Warp's "Geometry" group: bvh_query_*, bvh_get_group_root).
std::vector<Builtin> bvh_queries() {
    return {
        {"bvh_query_aabb", "bvh_query_aabb", BuiltinKind::Regular, "Geometry",
         "bvh_query_aabb(id: uint64, low: vec3f, high: vec3f, root: int32 = -1) -> BvhQuery",
         "A query over the items of the BVH `id` whose boxes overlap the box [low, high] "
         "(touching counts), advanced by bvh_query_next. `root` starts the traversal at a node "
         "(a group's root from bvh_get_group_root); -1 starts at the global root.",
         false, rule_aabb, with().header("bvh.h")},
        {"bvh_query_ray", "bvh_query_ray", BuiltinKind::Regular, "Geometry",
         "bvh_query_ray(id: uint64, start: vec3f, dir: vec3f, root: int32 = -1) -> BvhQuery",
         "A query over the items of the BVH `id` whose boxes the ray start + t dir (t >= 0) "
         "meets, advanced by bvh_query_next (whose max_dist bounds t). `root` as in "
         "bvh_query_aabb.",
         false, rule_aabb, with().header("bvh.h")},
        {"bvh_query_sphere", "bvh_query_sphere", BuiltinKind::Regular, "Geometry",
         "bvh_query_sphere(id: uint64, center: vec3f, radius: float32, root: int32 = -1) -> "
         "BvhQuery",
         "A query over the items of the BVH `id` whose boxes come within `radius` of "
         "`center`, advanced by bvh_query_next. `root` as in bvh_query_aabb.",
         false, rule_sphere, with().header("bvh.h")},
        {"bvh_query_capsule", "bvh_query_capsule", BuiltinKind::Regular, "Geometry",
         "bvh_query_capsule(id: uint64, start: vec3f, dir: vec3f, radius: float32, root: int32 "
         "= -1) -> BvhQuery",
         "A query over the items of the BVH `id` whose boxes, grown by `radius`, the ray "
         "start + t dir meets for t in [0, max_dist] (bvh_query_next's; pass dir = p1 - p0 and "
         "max_dist = 1 to sweep a capsule from p0 to p1). It reports every item the capsule "
         "touches, and may report items near its ends' corners too. `root` as in "
         "bvh_query_aabb.",
         false, rule_capsule, with().header("bvh.h")},
        {"bvh_query_next", "bvh_query_next", BuiltinKind::QueryNext, "Geometry",
         "bvh_query_next(query: BvhQuery, index: int32, max_dist: float32 = inf) -> bool",
         "Advances `query` to its next item and writes the item's index (into the lowers and "
         "uppers of wp.Bvh) to `index`: true when one was found, false once none is left "
         "(`index` then unchanged). For ray and capsule queries `max_dist` bounds how far "
         "along the ray to look, in multiples of dir's length; only reducing it during a "
         "query is safe. Both arguments are local variables.",
         false, rule_next, with().rebinds(Rebinds::Query).header("bvh.h")},
        {"bvh_get_group_root", "bvh_get_group_root", BuiltinKind::Regular, "Geometry",
         "bvh_get_group_root(id: uint64, group: int32) -> int32",
         "The root node of the items of group `group` of the BVH `id` (built with groups=), "
         "to start queries from; -1 (the global root) when the group has no item.",
         false, rule_group_root, with().header("bvh.h")},
    };
}

}  // namespace treadle::builtins::entries
