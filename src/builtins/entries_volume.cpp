// src/builtins/entries_volume.cpp -- the builtin table's volume builtins (NanoVDB grids)
//
// Lookups, samples (with gradients), stores, voxel indices and the index/world map of the
// volume whose uint64 id (the address of its grid buffer) is the first argument. The generic
// forms take their value type as a type argument (`volume_lookup(id, i, j, k, dtype=wp.vec3)`,
// TemplateArgs::Dtype) or from the value or array they are given; the _f/_v/_i forms are
// float32, vec3f and int32. Their native code is native/treadle/volume.h, which only kernels
// calling one of them include (`header` trait).
#include "builtins/entries.h"

namespace treadle::builtins::entries {

namespace {

using types::Type;

const Type* u64() { return types::scalar_type(ScalarType::UInt64); }
const Type* vec3f() { return types::vector_type(3, ScalarType::Float32); }
const Type* i32() { return types::int32_type(); }

/// Whether volumes hold values of type t (Warp's list).
bool supported(const Type* t) {
    if (!t) return false;
    if (t->is_scalar())
        return t->scalar == ScalarType::Int32 || t->scalar == ScalarType::Int64 ||
               t->scalar == ScalarType::UInt32 || t->scalar == ScalarType::Float32 ||
               t->scalar == ScalarType::Float64;
    return t->is_vector() && (t->rows == 3 || t->rows == 4) &&
           (t->scalar == ScalarType::Float32 || t->scalar == ScalarType::Float64);
}

/// Whether samples of t have a gradient: float scalars and 3-vectors.
bool sample_has_gradient(const Type* t) {
    return (t->is_float()) || (t->is_vector() && t->rows == 3);
}

/// The gradient type of values t: vec3 of its scalar, or a 3x3 matrix for 3-vectors.
const Type* gradient_of(const Type* t) {
    return t->is_vector() ? types::matrix_type(3, 3, t->scalar) : types::vector_type(3, t->scalar);
}

bool is_vec3f(const ArgInfo& a) { return a.type && !a.is_type && a.type == vec3f(); }
bool is_value(const ArgInfo& a) { return a.type && !a.is_type; }
bool is_index(const ArgInfo& a) { return is_value(a) && rules::scalar_fits(a, ScalarType::Int32); }
bool is_id(const ArgInfo& a) { return is_value(a) && rules::scalar_fits(a, ScalarType::UInt64); }

/// (id, i, j, k) followed by `rest` arguments.
bool voxel_args(const std::vector<ArgInfo>& a, size_t rest) {
    return a.size() == 4 + rest && is_id(a[0]) && is_index(a[1]) && is_index(a[2]) &&
           is_index(a[3]);
}

/// (id, uvw, sampling_mode) followed by `rest` arguments.
bool sample_args(const std::vector<ArgInfo>& a, size_t rest) {
    return a.size() == 3 + rest && is_id(a[0]) && is_vec3f(a[1]) && is_index(a[2]);
}

std::vector<const Type*> voxel_params() { return {u64(), i32(), i32(), i32()}; }
std::vector<const Type*> sample_params() { return {u64(), vec3f(), i32()}; }

/// The value type a store's argument gives (weak literals: float32 or int32).
const Type* stored_type(const ArgInfo& a) {
    if (!is_value(a)) return nullptr;
    if (a.weak && a.type->is_float()) return types::float32_type();
    if (a.weak && a.type->is_integer()) return i32();
    return a.type;
}

std::optional<Signature> rule_lookup(const std::vector<ArgInfo>& a) {
    if (!voxel_args(a, 1) || !a[4].is_type || !supported(a[4].type)) return std::nullopt;
    return Signature{voxel_params(), a[4].type};
}

std::optional<Signature> rule_sample(const std::vector<ArgInfo>& a) {
    if (!sample_args(a, 1) || !a[3].is_type || !supported(a[3].type)) return std::nullopt;
    return Signature{sample_params(), a[3].type};
}

std::optional<Signature> rule_sample_grad(const std::vector<ArgInfo>& a) {
    if (!sample_args(a, 1) || !a[3].is_type || !supported(a[3].type) ||
        !sample_has_gradient(a[3].type))
        return std::nullopt;
    return Signature{sample_params(), types::tuple_type({a[3].type, gradient_of(a[3].type)})};
}

std::optional<Signature> rule_store(const std::vector<ArgInfo>& a) {
    if (!voxel_args(a, 1) || !supported(stored_type(a[4]))) return std::nullopt;
    std::vector<const Type*> p = voxel_params();
    p.push_back(stored_type(a[4]));
    return Signature{p, i32()};
}

/// (id, uvw, mode, voxel_data: array(T), background: T) -> T, or its (T, gradient) tuple.
std::optional<Signature> index_rule(const std::vector<ArgInfo>& a, bool grad) {
    if (!sample_args(a, 2) || !is_value(a[3]) || !a[3].type->is_array() || !is_value(a[4]))
        return std::nullopt;
    const Type* t = a[3].type->dtype;
    if (!supported(t) || (grad && !sample_has_gradient(t))) return std::nullopt;
    const Type* bg = a[4].weak && (t->is_scalar()) ? t : a[4].type;
    if (bg != t) return std::nullopt;
    std::vector<const Type*> p = sample_params();
    p.push_back(a[3].type);
    p.push_back(t);
    return Signature{p, grad ? types::tuple_type({t, gradient_of(t)}) : t};
}
std::optional<Signature> rule_sample_index(const std::vector<ArgInfo>& a) {
    return index_rule(a, false);
}
std::optional<Signature> rule_sample_grad_index(const std::vector<ArgInfo>& a) {
    return index_rule(a, true);
}

template <const Type* (*T)()>
std::optional<Signature> rule_lookup_typed(const std::vector<ArgInfo>& a) {
    if (!voxel_args(a, 0)) return std::nullopt;
    return Signature{voxel_params(), T()};
}
template <const Type* (*T)()>
std::optional<Signature> rule_sample_typed(const std::vector<ArgInfo>& a) {
    if (!sample_args(a, 0)) return std::nullopt;
    return Signature{sample_params(), T()};
}
template <const Type* (*T)()>
std::optional<Signature> rule_store_typed(const std::vector<ArgInfo>& a) {
    if (!voxel_args(a, 1) || !is_value(a[4])) return std::nullopt;
    std::vector<const Type*> p = voxel_params();
    p.push_back(T());
    if (!rules::scalar_fits(a[4], T()->scalar) && a[4].type != T()) return std::nullopt;
    return Signature{p, i32()};
}

std::optional<Signature> rule_sample_i(const std::vector<ArgInfo>& a) {
    if (a.size() != 2 || !is_id(a[0]) || !is_vec3f(a[1])) return std::nullopt;
    return Signature{{u64(), vec3f()}, i32()};
}
std::optional<Signature> rule_sample_grad_f(const std::vector<ArgInfo>& a) {
    if (!sample_args(a, 0)) return std::nullopt;
    return Signature{sample_params(), types::tuple_type({types::float32_type(), vec3f()})};
}
std::optional<Signature> rule_lookup_index(const std::vector<ArgInfo>& a) {
    if (!voxel_args(a, 0)) return std::nullopt;
    return Signature{voxel_params(), i32()};
}
std::optional<Signature> rule_voxel_count(const std::vector<ArgInfo>& a) {
    if (a.size() != 1 || !is_id(a[0])) return std::nullopt;
    return Signature{{u64()}, i32()};
}
/// (id, point: vec3f or vec3d) -> the point's type (float or double map).
std::optional<Signature> rule_map(const std::vector<ArgInfo>& a) {
    if (a.size() != 2 || !is_id(a[0]) || !is_value(a[1])) return std::nullopt;
    const Type* vec3d = types::vector_type(3, ScalarType::Float64);
    if (a[1].type != vec3f() && a[1].type != vec3d) return std::nullopt;
    return Signature{{u64(), a[1].type}, a[1].type};
}

Builtin entry(const char* name, const char* sig, const char* doc, bool differentiable,
              TypeRule rule, Traits traits = with()) {
    traits.header = "volume.h";
    return {name, name, BuiltinKind::Regular, "Volumes", sig, doc, differentiable, rule, traits};
}

/// A sample with its gradient: Multi, Warp's form returns the value and writes `grad`.
Builtin with_gradient(const char* name, const char* sig, const char* doc, TypeRule rule,
                      TemplateArgs templ) {
    Builtin b = entry(
        name, sig, doc, true, rule,
        with().results(2).rebinds(Rebinds::Outputs).returns_first_result().template_args(templ));
    b.kind = BuiltinKind::Multi;
    return b;
}

}  // namespace

/// Warp's "Volumes" group: the generic forms first, then the typed ones, indices and maps.
std::vector<Builtin> volumes() {
    return {
        entry("volume_sample",
              "volume_sample(id: uint64, uvw: vec3f, sampling_mode: int32, dtype: Any) -> Any",
              "The volume `id` of value type dtype sampled at index-space point uvw: the "
              "nearest voxel (sampling_mode Volume.CLOSEST, halves rounded away from zero) or "
              "the trilinear interpolation of the eight voxels around it (Volume.LINEAR; "
              "integer values always read the nearest voxel). 0 if the volume does not hold "
              "dtype values. Differentiable in uvw.",
              true, rule_sample, with().template_args(TemplateArgs::Dtype)),
        with_gradient("volume_sample_grad",
                      "volume_sample_grad(id: uint64, uvw: vec3f, sampling_mode: int32, grad: "
                      "Any, dtype: Any) -> Any",
                      "volume_sample, also writing the gradient of the sample in uvw to the "
                      "local grad (vec3 for scalar values, a 3x3 matrix with a row per "
                      "component for 3-vectors; zero for Volume.CLOSEST).",
                      rule_sample_grad, TemplateArgs::Dtype),
        entry("volume_lookup",
              "volume_lookup(id: uint64, i: int32, j: int32, k: int32, dtype: Any) -> Any",
              "The value of type dtype that voxel (i, j, k) of the volume `id` resolves to (a "
              "leaf voxel, a tile's value or the background); 0 if the volume does not hold "
              "dtype values.",
              false, rule_lookup, with().template_args(TemplateArgs::Dtype)),
        entry("volume_store",
              "volume_store(id: uint64, i: int32, j: int32, k: int32, value: Any) -> None",
              "Writes value to voxel (i, j, k) of the volume `id` when the voxel has leaf "
              "storage and the volume holds values of value's type; otherwise does nothing.",
              false, rule_store),
        entry("volume_sample_f",
              "volume_sample_f(id: uint64, uvw: vec3f, sampling_mode: int32) -> float32",
              "volume_sample of a float32 volume.", true, rule_sample_typed<types::float32_type>),
        with_gradient("volume_sample_grad_f",
                      "volume_sample_grad_f(id: uint64, uvw: vec3f, sampling_mode: int32, grad: "
                      "vec3f) -> float32",
                      "volume_sample_grad of a float32 volume.", rule_sample_grad_f,
                      TemplateArgs::None),
        entry("volume_lookup_f",
              "volume_lookup_f(id: uint64, i: int32, j: int32, k: int32) -> float32",
              "volume_lookup of a float32 volume.", false, rule_lookup_typed<types::float32_type>),
        entry("volume_store_f",
              "volume_store_f(id: uint64, i: int32, j: int32, k: int32, value: float32) -> None",
              "volume_store to a float32 volume.", false, rule_store_typed<types::float32_type>),
        entry("volume_sample_v",
              "volume_sample_v(id: uint64, uvw: vec3f, sampling_mode: int32) -> vec3f",
              "volume_sample of a vec3f volume.", true, rule_sample_typed<vec3f>),
        entry("volume_lookup_v",
              "volume_lookup_v(id: uint64, i: int32, j: int32, k: int32) -> vec3f",
              "volume_lookup of a vec3f volume.", false, rule_lookup_typed<vec3f>),
        entry("volume_store_v",
              "volume_store_v(id: uint64, i: int32, j: int32, k: int32, value: vec3f) -> None",
              "volume_store to a vec3f volume.", false, rule_store_typed<vec3f>),
        entry("volume_sample_i", "volume_sample_i(id: uint64, uvw: vec3f) -> int32",
              "The int32 volume `id` at the voxel nearest index-space point uvw.", false,
              rule_sample_i),
        entry("volume_lookup_i",
              "volume_lookup_i(id: uint64, i: int32, j: int32, k: int32) -> int32",
              "volume_lookup of an int32 volume.", false, rule_lookup_typed<i32>),
        entry("volume_store_i",
              "volume_store_i(id: uint64, i: int32, j: int32, k: int32, value: int32) -> None",
              "volume_store to an int32 volume.", false, rule_store_typed<i32>),
        entry("volume_sample_index",
              "volume_sample_index(id: uint64, uvw: vec3f, sampling_mode: int32, voxel_data: "
              "array(dtype=Any), background: Any) -> Any",
              "A sample at uvw (as volume_sample) of per-voxel values: voxel_data[n] for the "
              "voxel of index n (volume_lookup_index), background for voxels without an index. "
              "Differentiable in uvw, voxel_data and background.",
              true, rule_sample_index),
        with_gradient("volume_sample_grad_index",
                      "volume_sample_grad_index(id: uint64, uvw: vec3f, sampling_mode: int32, "
                      "voxel_data: array(dtype=Any), background: Any, grad: Any) -> Any",
                      "volume_sample_index, also writing the sample's gradient in uvw to the "
                      "local grad (as volume_sample_grad).",
                      rule_sample_grad_index, TemplateArgs::None),
        entry("volume_lookup_index",
              "volume_lookup_index(id: uint64, i: int32, j: int32, k: int32) -> int32",
              "The index of voxel (i, j, k): on OnIndex grids their active voxels' indices, on "
              "other grids leaf * 512 + the voxel's place in its leaf; -1 for a voxel without "
              "one.",
              false, rule_lookup_index),
        entry("volume_voxel_count", "volume_voxel_count(id: uint64) -> int32",
              "The number of indexable voxels (OnIndex grids: active voxels; other grids: 512 "
              "per leaf), capped at 2^31 - 1.",
              false, rule_voxel_count),
        entry("volume_index_to_world",
              "volume_index_to_world(id: uint64, uvw: vec3f | vec3d) -> vec3f | vec3d",
              "The world-space point of index-space point uvw (the grid's affine map, in the "
              "precision of uvw).",
              true, rule_map),
        entry("volume_world_to_index",
              "volume_world_to_index(id: uint64, xyz: vec3f | vec3d) -> vec3f | vec3d",
              "The index-space point of world-space point xyz (the inverse map).", true, rule_map),
        entry("volume_index_to_world_dir",
              "volume_index_to_world_dir(id: uint64, uvw: vec3f | vec3d) -> vec3f | vec3d",
              "An index-space direction in world space (the map without its translation).", true,
              rule_map),
        entry("volume_world_to_index_dir",
              "volume_world_to_index_dir(id: uint64, xyz: vec3f | vec3d) -> vec3f | vec3d",
              "A world-space direction in index space (the inverse map without translation).", true,
              rule_map),
    };
}

}  // namespace treadle::builtins::entries
