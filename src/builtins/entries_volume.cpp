// src/builtins/entries_volume.cpp -- the builtin table's volume reads (NanoVDB grids)
//
// Typed lookups and samples of float32, vec3f and int32 grids and the grid's index/world map.
// A volume is its uint64 id (the address of its grid buffer). Their native code is
// native/treadle/volume.h, which only kernels calling one of them include (`header` trait).
#include "builtins/entries.h"

namespace treadle::builtins::entries {

namespace {

const types::Type* vec3f_type() { return types::vector_type(3, ScalarType::Float32); }

bool is_vec3f(const ArgInfo& a) {
    return a.type && a.type->is_vector() && a.type->rows == 3 &&
           a.type->scalar == ScalarType::Float32;
}

/// (id: uint64, i, j, k: int32) -> `result`.
std::optional<Signature> lookup_rule(const std::vector<ArgInfo>& a, const types::Type* result) {
    if (a.size() != 4 || !rules::scalar_fits(a[0], ScalarType::UInt64)) return std::nullopt;
    for (size_t n = 1; n < 4; ++n)
        if (!rules::scalar_fits(a[n], ScalarType::Int32)) return std::nullopt;
    const types::Type* i = types::int32_type();
    return Signature{{types::scalar_type(ScalarType::UInt64), i, i, i}, result};
}

/// (id: uint64, uvw: vec3f[, mode: int32]) -> `result`.
std::optional<Signature> sample_rule(const std::vector<ArgInfo>& a, bool mode,
                                     const types::Type* result) {
    if (a.size() != (mode ? 3u : 2u) || !rules::scalar_fits(a[0], ScalarType::UInt64) ||
        !is_vec3f(a[1]))
        return std::nullopt;
    if (mode && !rules::scalar_fits(a[2], ScalarType::Int32)) return std::nullopt;
    std::vector<const types::Type*> params{types::scalar_type(ScalarType::UInt64), vec3f_type()};
    if (mode) params.push_back(types::int32_type());
    return Signature{params, result};
}

std::optional<Signature> rule_lookup_f(const std::vector<ArgInfo>& a) {
    return lookup_rule(a, types::float32_type());
}
std::optional<Signature> rule_lookup_v(const std::vector<ArgInfo>& a) {
    return lookup_rule(a, vec3f_type());
}
std::optional<Signature> rule_lookup_i(const std::vector<ArgInfo>& a) {
    return lookup_rule(a, types::int32_type());
}
std::optional<Signature> rule_sample_f(const std::vector<ArgInfo>& a) {
    return sample_rule(a, true, types::float32_type());
}
std::optional<Signature> rule_sample_v(const std::vector<ArgInfo>& a) {
    return sample_rule(a, true, vec3f_type());
}
std::optional<Signature> rule_sample_i(const std::vector<ArgInfo>& a) {
    return sample_rule(a, false, types::int32_type());
}
std::optional<Signature> rule_map(const std::vector<ArgInfo>& a) {
    return sample_rule(a, false, vec3f_type());
}

Builtin entry(const char* name, const char* sig, const char* doc,
              std::optional<Signature> (*rule)(const std::vector<ArgInfo>&)) {
    return {name, name, BuiltinKind::Regular, "Volumes", sig, doc, false, rule,
            with().header("volume.h")};
}

}  // namespace

/// The volume reads (Warp's "Volumes" group: typed lookups, samples and the grid's map).
std::vector<Builtin> volumes() {
    return {
        entry("volume_sample_f", "volume_sample_f(id: uint64, uvw: vec3f, sampling_mode: int32) -> float",
              "The float32 volume `id` at index-space point uvw: the nearest voxel "
              "(sampling_mode Volume.CLOSEST) or the trilinear interpolation of the eight "
              "voxels around it (Volume.LINEAR). Voxels outside the grid read its background.",
              rule_sample_f),
        entry("volume_lookup_f", "volume_lookup_f(id: uint64, i: int32, j: int32, k: int32) -> float",
              "The value of voxel (i, j, k) of the float32 volume `id` (its background when "
              "the voxel is not in the grid).",
              rule_lookup_f),
        entry("volume_sample_v", "volume_sample_v(id: uint64, uvw: vec3f, sampling_mode: int32) -> vec3f",
              "The vec3f volume `id` at index-space point uvw (Volume.CLOSEST or "
              "Volume.LINEAR, as volume_sample_f).",
              rule_sample_v),
        entry("volume_lookup_v", "volume_lookup_v(id: uint64, i: int32, j: int32, k: int32) -> vec3f",
              "The value of voxel (i, j, k) of the vec3f volume `id`.", rule_lookup_v),
        entry("volume_sample_i", "volume_sample_i(id: uint64, uvw: vec3f) -> int32",
              "The int32 volume `id` at the voxel nearest index-space point uvw.", rule_sample_i),
        entry("volume_lookup_i", "volume_lookup_i(id: uint64, i: int32, j: int32, k: int32) -> int32",
              "The value of voxel (i, j, k) of the int32 volume `id`.", rule_lookup_i),
        entry("volume_index_to_world", "volume_index_to_world(id: uint64, uvw: vec3f) -> vec3f",
              "The world-space point of index-space point uvw (the grid's affine map).", rule_map),
        entry("volume_world_to_index", "volume_world_to_index(id: uint64, xyz: vec3f) -> vec3f",
              "The index-space point of world-space point xyz (the inverse map).", rule_map),
        entry("volume_index_to_world_dir",
              "volume_index_to_world_dir(id: uint64, uvw: vec3f) -> vec3f",
              "An index-space direction in world space (the map without its translation).",
              rule_map),
        entry("volume_world_to_index_dir",
              "volume_world_to_index_dir(id: uint64, xyz: vec3f) -> vec3f",
              "A world-space direction in index space (the inverse map without translation).",
              rule_map),
    };
}

}  // namespace treadle::builtins::entries
