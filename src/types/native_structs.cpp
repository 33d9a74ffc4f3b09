// src/types/native_structs.cpp -- the structs the native library defines (geometry queries)
#include <string>
#include <utility>
#include <vector>

#include "types/types.h"

namespace treadle::types {

namespace {

struct NativeStruct {
    const char* name;    ///< Warp's name (wp.MeshQueryPoint)
    const char* native;  ///< the C++ type in namespace wp
    std::vector<std::pair<std::string, const Type*>> fields;
};

const std::vector<NativeStruct>& native_structs() {
    static const std::vector<NativeStruct> table = [] {
        const Type* b = bool_type();
        const Type* f = float32_type();
        const Type* i = int32_type();
        const Type* v3 = vector_type(3, ScalarType::Float32);
        const Type* points = array_type(v3, 1);
        return std::vector<NativeStruct>{
            // one per coordinate precision of the grid (wp.HashGridQuery[wp.float16], ...)
            {"HashGridQuery", "hash_grid_query_f", {}},
            {"HashGridQueryH", "hash_grid_query_h", {}},
            {"HashGridQueryD", "hash_grid_query_d", {}},
            {"BvhQuery", "bvh_query_t", {}},
            {"MeshQueryAABB", "mesh_query_aabb_t", {}},
            // the queries a thread block runs together (native/treadle/tile_query.h)
            {"BvhQueryTiled", "bvh_query_tiled_t", {}},
            {"MeshQueryAABBTiled", "mesh_query_aabb_tiled_t", {}},
            // mesh_query_sphere's query: the same native state as a box query's
            {"MeshQuery", "mesh_query_aabb_t", {}},
            {"MeshQueryPoint",
             "mesh_query_point_t",
             {{"result", b}, {"sign", f}, {"face", i}, {"u", f}, {"v", f}}},
            {"MeshQueryRay",
             "mesh_query_ray_t",
             {{"result", b},
              {"sign", f},
              {"face", i},
              {"t", f},
              {"u", f},
              {"v", f},
              {"normal", v3}}},
            // mesh_get(id): the mesh's arrays, as wp.Mesh exposes them in kernels
            {"Mesh",
             "mesh_t",
             {{"points", points}, {"velocities", points}, {"indices", array_type(i, 1)}}},
        };
    }();
    return table;
}

}  // namespace

const Type* native_struct_by_name(const std::string& name) {
    for (const NativeStruct& s : native_structs())
        if (name == s.name) return native_struct_type(s.name, s.native, s.fields);
    return nullptr;
}

std::vector<std::string> native_struct_names() {
    std::vector<std::string> out;
    for (const NativeStruct& s : native_structs()) out.push_back(s.name);
    return out;
}

}  // namespace treadle::types
