// native/treadle/volume.h -- the volume builtins: NanoVDB grid reads, samples, stores (CPU, CUDA)
//
// Included only by kernels that call a volume builtin (the table's `header` trait); the grid
// layout is volume_layout.h, the samples volume_sample.h. Values are T in {float32, float64,
// int32, int64, uint32, vec3f, vec3d, vec4f, vec4d}; a read of a grid of another type gives 0
// and a store to it does nothing.
//
//   volume_lookup<T>(id, i, j, k): the value voxel (i, j, k) resolves to (leaf voxel, node tile
//       or background).
//   volume_sample<T>(id, uvw, mode): mode 0 (CLOSEST) the voxel nearest uvw (halves away from
//       zero), mode 1 (LINEAR) the trilinear interpolant of the eight voxels around uvw (integer
//       values: always the closest voxel). volume_sample_grad<T> also gives d value / d uvw
//       (vec3 for scalars, one row per component for vectors).
//   volume_store(id, i, j, k, v): writes a voxel that has leaf storage, else nothing.
//   volume_lookup_index / volume_voxel_count / volume_sample_index: voxel indices (OnIndex grids:
//       their active voxels; other grids: leaf * 512 + voxel) and samples of per-voxel arrays.
//   volume_index_to_world(_dir), volume_world_to_index(_dir): the grid's affine map (vec3f
//       points use its float map, vec3d points its double map).
// Adjoints: samples are differentiable in uvw (index samples also in their array and
// background); a LINEAR sample's derivative at an integer plane is the positive side's.
#pragma once

#include "volume_sample.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// The value voxel (i, j, k) of the volume `id` resolves to (0 if it does not hold T).
template <typename T>
CUDA_CALLABLE T volume_lookup(uint64 id, int32 i, int32 j, int32 k) {
    return volume_detail::GridReader<T>(id)(i, j, k);
}

/// The volume `id` sampled at index-space point uvw (mode 0 closest, 1 trilinear).
template <typename T>
CUDA_CALLABLE T volume_sample(uint64 id, const vec3f& uvw, int32 mode) {
    T v;
    volume_detail::write<T>(volume_detail::sample<T>(volume_detail::GridReader<T>(id), uvw, mode),
                            v, nullptr);
    return v;
}

template <typename T>
CUDA_CALLABLE void adj_volume_sample(uint64 id, const vec3f& uvw, int32 mode, uint64&,
                                     vec3f& adj_uvw, int32&, const T& adj_ret) {
    const auto s = volume_detail::sample<T>(volume_detail::GridReader<T>(id), uvw, mode);
    volume_detail::adj_position<T, typename volume_detail::Grad<T>::type>(s, adj_ret, nullptr,
                                                                          adj_uvw);
}

/// A sample and its gradient in uvw, written to `value` and `grad`.
template <typename T, typename G>
CUDA_CALLABLE void volume_sample_grad(uint64 id, const vec3f& uvw, int32 mode, T& value, G& grad) {
    volume_detail::write<T>(volume_detail::sample<T>(volume_detail::GridReader<T>(id), uvw, mode),
                            value, &grad);
}

template <typename T, typename G>
CUDA_CALLABLE void adj_volume_sample_grad(uint64 id, const vec3f& uvw, int32 mode, const T&,
                                          const G&, uint64&, vec3f& adj_uvw, int32&,
                                          const T& adj_value, const G& adj_grad) {
    const auto s = volume_detail::sample<T>(volume_detail::GridReader<T>(id), uvw, mode);
    volume_detail::adj_position<T, G>(s, adj_value, &adj_grad, adj_uvw);
}

/// Writes `value` to voxel (i, j, k) when it has leaf storage and the volume holds T; the
/// result is a dummy.
template <typename T>
CUDA_CALLABLE int32 volume_store(uint64 id, int32 i, int32 j, int32 k, const T& value) {
    uint8* g = volume_detail::grid_of(id);
    if (volume_detail::grid_type(g) != volume_detail::Value<T>::code) return 0;
    const volume_detail::Found f = volume_detail::find<T>(g, i, j, k);
    if (f.level == 0) *reinterpret_cast<T*>(f.value) = value;
    return 0;
}

// The typed forms (float32 _f, vec3f _v, int32 _i).
CUDA_CALLABLE float32 volume_lookup_f(uint64 id, int32 i, int32 j, int32 k) {
    return volume_lookup<float32>(id, i, j, k);
}
CUDA_CALLABLE vec3f volume_lookup_v(uint64 id, int32 i, int32 j, int32 k) {
    return volume_lookup<vec3f>(id, i, j, k);
}
CUDA_CALLABLE int32 volume_lookup_i(uint64 id, int32 i, int32 j, int32 k) {
    return volume_lookup<int32>(id, i, j, k);
}
CUDA_CALLABLE float32 volume_sample_f(uint64 id, const vec3f& uvw, int32 mode) {
    return volume_sample<float32>(id, uvw, mode);
}
CUDA_CALLABLE void adj_volume_sample_f(uint64 id, const vec3f& uvw, int32 mode, uint64& adj_id,
                                       vec3f& adj_uvw, int32& adj_mode, const float32& adj_ret) {
    adj_volume_sample<float32>(id, uvw, mode, adj_id, adj_uvw, adj_mode, adj_ret);
}
CUDA_CALLABLE vec3f volume_sample_v(uint64 id, const vec3f& uvw, int32 mode) {
    return volume_sample<vec3f>(id, uvw, mode);
}
CUDA_CALLABLE void adj_volume_sample_v(uint64 id, const vec3f& uvw, int32 mode, uint64& adj_id,
                                       vec3f& adj_uvw, int32& adj_mode, const vec3f& adj_ret) {
    adj_volume_sample<vec3f>(id, uvw, mode, adj_id, adj_uvw, adj_mode, adj_ret);
}
CUDA_CALLABLE int32 volume_sample_i(uint64 id, const vec3f& uvw) {
    return volume_sample<int32>(id, uvw, 0);
}
CUDA_CALLABLE void volume_sample_grad_f(uint64 id, const vec3f& uvw, int32 mode, float32& value,
                                        vec3f& grad) {
    volume_sample_grad<float32>(id, uvw, mode, value, grad);
}
CUDA_CALLABLE void adj_volume_sample_grad_f(uint64 id, const vec3f& uvw, int32 mode,
                                            const float32& value, const vec3f& grad, uint64& adj_id,
                                            vec3f& adj_uvw, int32& adj_mode,
                                            const float32& adj_value, const vec3f& adj_grad) {
    adj_volume_sample_grad<float32>(id, uvw, mode, value, grad, adj_id, adj_uvw, adj_mode,
                                    adj_value, adj_grad);
}
CUDA_CALLABLE int32 volume_store_f(uint64 id, int32 i, int32 j, int32 k, float32 v) {
    return volume_store<float32>(id, i, j, k, v);
}
CUDA_CALLABLE int32 volume_store_v(uint64 id, int32 i, int32 j, int32 k, const vec3f& v) {
    return volume_store<vec3f>(id, i, j, k, v);
}
CUDA_CALLABLE int32 volume_store_i(uint64 id, int32 i, int32 j, int32 k, int32 v) {
    return volume_store<int32>(id, i, j, k, v);
}

/// The zero-based index of voxel (i, j, k), -1 when it has none.
CUDA_CALLABLE int32 volume_lookup_index(uint64 id, int32 i, int32 j, int32 k) {
    return int32(volume_detail::voxel_index(volume_detail::grid_of(id), i, j, k));
}

/// The number of indexable voxels (capped at 2^31 - 1).
CUDA_CALLABLE int32 volume_voxel_count(uint64 id) {
    const uint8* g = volume_detail::grid_of(id);
    const uint8* tree = g + volume_detail::kGridSize;
    const uint64 n = volume_detail::grid_type(g) == volume_detail::kGridOnIndex
                         ? volume_detail::read_at<uint64>(tree + 56)
                         : uint64(volume_detail::read_at<uint32>(tree + 32)) * 512;
    return n > 2147483647ull ? 2147483647 : int32(n);
}

/// The per-voxel values `data` sampled at uvw by voxel index (`background` outside leaves).
template <typename T>
CUDA_CALLABLE T volume_sample_index(uint64 id, const vec3f& uvw, int32 mode, const array_t<T>& data,
                                    const T& background) {
    const volume_detail::IndexReader<T> read{volume_detail::grid_of(id), data, background, nullptr};
    T v;
    volume_detail::write<T>(volume_detail::sample<T>(read, uvw, mode), v, nullptr);
    return v;
}

template <typename T, typename A>
CUDA_CALLABLE void adj_volume_sample_index(uint64 id, const vec3f& uvw, int32 mode,
                                           const array_t<T>& data, const T& background, uint64&,
                                           vec3f& adj_uvw, int32&, A&, T& adj_background,
                                           const T& adj_ret) {
    const volume_detail::IndexReader<T> read{volume_detail::grid_of(id), data, background,
                                             &adj_background};
    const auto s = volume_detail::sample<T>(read, uvw, mode);
    using G = typename volume_detail::Grad<T>::type;
    volume_detail::adj_position<T, G>(s, adj_ret, nullptr, adj_uvw);
    volume_detail::scatter_sample<T, volume_detail::IndexReader<T>, G>(read, uvw, mode, adj_ret,
                                                                       nullptr);
}

/// volume_sample_index with the gradient in uvw, written to `value` and `grad`.
template <typename T, typename G>
CUDA_CALLABLE void volume_sample_grad_index(uint64 id, const vec3f& uvw, int32 mode,
                                            const array_t<T>& data, const T& background, T& value,
                                            G& grad) {
    const volume_detail::IndexReader<T> read{volume_detail::grid_of(id), data, background, nullptr};
    volume_detail::write<T>(volume_detail::sample<T>(read, uvw, mode), value, &grad);
}

template <typename T, typename G, typename A>
CUDA_CALLABLE void adj_volume_sample_grad_index(uint64 id, const vec3f& uvw, int32 mode,
                                                const array_t<T>& data, const T& background,
                                                const T&, const G&, uint64&, vec3f& adj_uvw, int32&,
                                                A&, T& adj_background, const T& adj_value,
                                                const G& adj_grad) {
    const volume_detail::IndexReader<T> read{volume_detail::grid_of(id), data, background,
                                             &adj_background};
    const auto s = volume_detail::sample<T>(read, uvw, mode);
    volume_detail::adj_position<T, G>(s, adj_value, &adj_grad, adj_uvw);
    volume_detail::scatter_sample<T, volume_detail::IndexReader<T>, G>(read, uvw, mode, adj_value,
                                                                       &adj_grad);
}

/// The world-space point of index-space point uvw.
CUDA_CALLABLE vec3f volume_index_to_world(uint64 id, const vec3f& uvw) {
    return volume_detail::affine(volume_detail::map_f(id, 0), uvw, volume_detail::map_f(id, 18));
}
CUDA_CALLABLE void adj_volume_index_to_world(uint64 id, const vec3f&, uint64&, vec3f& adj_uvw,
                                             const vec3f& adj_ret) {
    volume_detail::adj_affine(volume_detail::map_f(id, 0), adj_ret, adj_uvw);
}

/// The index-space point of world-space point xyz.
CUDA_CALLABLE vec3f volume_world_to_index(uint64 id, const vec3f& xyz) {
    const float32* t = volume_detail::map_f(id, 18);
    const vec3f d(xyz.c[0] - t[0], xyz.c[1] - t[1], xyz.c[2] - t[2]);
    return volume_detail::affine(volume_detail::map_f(id, 9), d, nullptr);
}
CUDA_CALLABLE void adj_volume_world_to_index(uint64 id, const vec3f&, uint64&, vec3f& adj_xyz,
                                             const vec3f& adj_ret) {
    volume_detail::adj_affine(volume_detail::map_f(id, 9), adj_ret, adj_xyz);
}

/// An index-space direction in world space (the map without its translation).
CUDA_CALLABLE vec3f volume_index_to_world_dir(uint64 id, const vec3f& uvw) {
    return volume_detail::affine(volume_detail::map_f(id, 0), uvw, nullptr);
}
CUDA_CALLABLE void adj_volume_index_to_world_dir(uint64 id, const vec3f&, uint64&, vec3f& adj_uvw,
                                                 const vec3f& adj_ret) {
    volume_detail::adj_affine(volume_detail::map_f(id, 0), adj_ret, adj_uvw);
}

/// A world-space direction in index space (the inverse map without its translation).
CUDA_CALLABLE vec3f volume_world_to_index_dir(uint64 id, const vec3f& xyz) {
    return volume_detail::affine(volume_detail::map_f(id, 9), xyz, nullptr);
}
CUDA_CALLABLE void adj_volume_world_to_index_dir(uint64 id, const vec3f&, uint64&, vec3f& adj_xyz,
                                                 const vec3f& adj_ret) {
    volume_detail::adj_affine(volume_detail::map_f(id, 9), adj_ret, adj_xyz);
}

// The float64 overloads: the grid's double map.
CUDA_CALLABLE vec3d volume_index_to_world(uint64 id, const vec3d& uvw) {
    return volume_detail::affine_d(volume_detail::map_d(id, 0), uvw, volume_detail::map_d(id, 18));
}
CUDA_CALLABLE void adj_volume_index_to_world(uint64 id, const vec3d&, uint64&, vec3d& adj_uvw,
                                             const vec3d& adj_ret) {
    volume_detail::adj_affine_d(volume_detail::map_d(id, 0), adj_ret, adj_uvw);
}
CUDA_CALLABLE vec3d volume_world_to_index(uint64 id, const vec3d& xyz) {
    const float64* t = volume_detail::map_d(id, 18);
    const vec3d d(xyz.c[0] - t[0], xyz.c[1] - t[1], xyz.c[2] - t[2]);
    return volume_detail::affine_d(volume_detail::map_d(id, 9), d, nullptr);
}
CUDA_CALLABLE void adj_volume_world_to_index(uint64 id, const vec3d&, uint64&, vec3d& adj_xyz,
                                             const vec3d& adj_ret) {
    volume_detail::adj_affine_d(volume_detail::map_d(id, 9), adj_ret, adj_xyz);
}
CUDA_CALLABLE vec3d volume_index_to_world_dir(uint64 id, const vec3d& uvw) {
    return volume_detail::affine_d(volume_detail::map_d(id, 0), uvw, nullptr);
}
CUDA_CALLABLE void adj_volume_index_to_world_dir(uint64 id, const vec3d&, uint64&, vec3d& adj_uvw,
                                                 const vec3d& adj_ret) {
    volume_detail::adj_affine_d(volume_detail::map_d(id, 0), adj_ret, adj_uvw);
}
CUDA_CALLABLE vec3d volume_world_to_index_dir(uint64 id, const vec3d& xyz) {
    return volume_detail::affine_d(volume_detail::map_d(id, 9), xyz, nullptr);
}
CUDA_CALLABLE void adj_volume_world_to_index_dir(uint64 id, const vec3d&, uint64&, vec3d& adj_xyz,
                                                 const vec3d& adj_ret) {
    volume_detail::adj_affine_d(volume_detail::map_d(id, 9), adj_ret, adj_xyz);
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
