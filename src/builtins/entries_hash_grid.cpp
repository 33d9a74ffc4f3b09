// src/builtins/entries_hash_grid.cpp -- the builtin table's hash-grid queries
//
// hash_grid_query, hash_grid_query_next and hash_grid_point_id over a grid's uint64 id, for
// grids of float16, float32 and float64 points. Their native code is native/treadle/hash_grid.h,
// which only kernels calling one of them include (`header` trait).
#include "builtins/entries.h"

namespace treadle::builtins::entries {

namespace {

/// The query struct of a grid of `s` coordinates (HashGridQuery, ...H, ...D), or null.
const types::Type* query_type_of(ScalarType s) {
    switch (s) {
        case ScalarType::Float16:
            return types::native_struct_by_name("HashGridQueryH");
        case ScalarType::Float32:
            return types::native_struct_by_name("HashGridQuery");
        case ScalarType::Float64:
            return types::native_struct_by_name("HashGridQueryD");
        default:
            return nullptr;
    }
}

/// hash_grid_query(id: uint64, point: vec3, max_dist: scalar of point) -> HashGridQuery.
std::optional<Signature> rule_query(const std::vector<ArgInfo>& a) {
    if ((a.size() != 3 && a.size() != 4) || !rules::is_object_id(a[0]) || !a[1].type ||
        !a[1].type->is_vector() || a[1].type->rows != 3)
        return std::nullopt;
    const ScalarType s = a[1].type->scalar;
    const types::Type* q = query_type_of(s);
    if (!q || !rules::scalar_fits(a[2], s)) return std::nullopt;
    const types::Type* u64 = types::scalar_type(ScalarType::UInt64);
    if (a.size() == 3) return Signature{{u64, a[1].type, types::scalar_type(s)}, q};
    if (!a[3].type || !a[3].type->is_integer() || !rules::scalar_fits(a[3], ScalarType::Int32))
        return std::nullopt;
    return Signature{{u64, a[1].type, types::scalar_type(s), types::int32_type()}, q};
}

/// hash_grid_query_next(query, index: int32) -> bool.
std::optional<Signature> rule_query_next(const std::vector<ArgInfo>& a) {
    if (a.size() != 2 || !a[0].type) return std::nullopt;
    for (ScalarType s : {ScalarType::Float16, ScalarType::Float32, ScalarType::Float64})
        if (a[0].type == query_type_of(s))
            return Signature{{a[0].type, types::int32_type()}, types::bool_type()};
    return std::nullopt;
}

/// hash_grid_point_id(id: uint64, index: int32) -> int32.
std::optional<Signature> rule_point_id(const std::vector<ArgInfo>& a) {
    if (a.size() != 2 || !rules::is_object_id(a[0]) ||
        !rules::scalar_fits(a[1], ScalarType::Int32) || !a[1].type->is_integer())
        return std::nullopt;
    const types::Type* u64 = types::scalar_type(ScalarType::UInt64);
    return Signature{{u64, types::int32_type()}, types::int32_type()};
}

}  // namespace

/// The hash-grid queries (Warp's "Geometry" group).
std::vector<Builtin> hash_grid() {
    return {
        {"hash_grid_query", "hash_grid_query", BuiltinKind::Regular, "Geometry",
         "hash_grid_query(id: uint64, point: vec3, max_dist: Float, group: int32 = ...) -> "
         "HashGridQuery",
         "Starts a query of the hash grid `id` for the points near `point`: the query visits "
         "every point of every cell that the box of half-width `max_dist` around `point` "
         "touches (callers compare distances themselves); with `group`, only the points built in "
         "that group (HashGrid.build(..., groups=...)). The point is vec3h, vec3f or vec3d "
         "like the grid's points; the result is wp.HashGridQuery[dtype] of that precision.",
         false, rule_query, with().header("hash_grid.h")},
        {"hash_grid_query_next", "hash_grid_query_next", BuiltinKind::QueryNext, "Geometry",
         "hash_grid_query_next(query: HashGridQuery, index: int32) -> bool",
         "Advances `query` to its next point and writes that point's index into `index`; "
         "false once the query has visited every point (index is then unchanged).",
         false, rule_query_next, with().rebinds(Rebinds::Query).header("hash_grid.h")},
        {"hash_grid_point_id", "hash_grid_point_id", BuiltinKind::Regular, "Geometry",
         "hash_grid_point_id(id: uint64, index: int32) -> int",
         "The index of the point at position `index` of the grid's cell order (points of one "
         "cell are adjacent in that order, which makes it a good thread order for neighbour "
         "loops); -1 when the grid has not been built or `index` is not below its point count.",
         false, rule_point_id, with().header("hash_grid.h")},
    };
}

}  // namespace treadle::builtins::entries
