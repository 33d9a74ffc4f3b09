// native/treadle/volume.h -- NanoVDB grid reads for the volume builtins (CPU and CUDA)
//
// Included only by kernels that call a volume builtin (the table's `header` trait). A volume's
// id is the address of its NanoVDB grid buffer in the device's memory; every read walks the
// published NanoVDB layout by byte offsets (GridData 672 bytes, TreeData 64 bytes, then the root
// with its tile table, upper nodes 32^3, lower nodes 16^3, leaves 8^3, every node 32-byte
// aligned), so no NanoVDB header is needed. Values are float32, vec3f or int32 (the grid types
// 1, 6 and 4); a voxel outside every node reads the root's background value.
//
//   volume_lookup_f/v/i(id, i, j, k): the value of voxel (i, j, k).
//   volume_sample_f/v/i(id, uvw, mode): mode 0 (CLOSEST) reads the voxel nearest uvw (halves round away from zero), mode 1
//       (LINEAR) interpolates the eight voxels around uvw trilinearly (int32 grids: CLOSEST).
//   volume_index_to_world(_dir), volume_world_to_index(_dir): the grid's affine map (the dir
//       forms leave out the translation).
#pragma once

#include "vec.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

namespace volume_detail {

/// Byte offsets of the NanoVDB layout.
constexpr uint64 kGridSize = 672;
constexpr uint64 kMapOffset = 296;
constexpr uint64 kUpperHeader = 8256;
constexpr uint64 kLowerHeader = 1088;

template <typename V>
CUDA_CALLABLE V read_at(const uint8* p) {
    return *reinterpret_cast<const V*>(p);
}

template <typename V>
struct Layout {
    /// RootData: bbox (24), table size (4), background, min, max, average, deviation.
    static constexpr uint64 root_header() { return (28 + 3 * sizeof(V) + 8 + 31) & ~31ull; }
    static constexpr uint64 root_tile() { return (20 + sizeof(V) + 31) & ~31ull; }
    static constexpr uint64 node_tile() { return sizeof(V) > 8 ? 16 : 8; }
    static constexpr uint64 leaf_header() { return (80 + 2 * sizeof(V) + 8 + 31) & ~31ull; }
};

CUDA_CALLABLE bool bit_on(const uint8* mask, uint32 n) {
    return (read_at<uint64>(mask + 8 * (n >> 6)) >> (n & 63)) & 1ull;
}

/// The value of voxel (i, j, k) of the grid at `grid`.
template <typename V>
CUDA_CALLABLE V lookup(const uint8* grid, int32 i, int32 j, int32 k) {
    using L = Layout<V>;
    const uint8* tree = grid + kGridSize;
    const uint8* root = tree + read_at<int64>(tree + 24);
    const V background = read_at<V>(root + 28);
    const uint32 table = read_at<uint32>(root + 24);
    const uint64 key = (uint64(uint32(k) >> 12)) | (uint64(uint32(j) >> 12) << 21) |
                         (uint64(uint32(i) >> 12) << 42);
    const uint8* tile = nullptr;
    for (uint32 n = 0; n < table; ++n) {
        const uint8* t = root + L::root_header() + n * L::root_tile();
        if (read_at<uint64>(t) == key) {
            tile = t;
            break;
        }
    }
    if (!tile) return background;
    const int64 child = read_at<int64>(tile + 8);
    if (child == 0) return read_at<V>(tile + 20);
    const uint8* upper = root + child;
    const uint32 nu = (((uint32(i) & 4095u) >> 7) << 10) |
                        (((uint32(j) & 4095u) >> 7) << 5) | ((uint32(k) & 4095u) >> 7);
    const uint8* utile = upper + kUpperHeader + nu * L::node_tile();
    if (!bit_on(upper + 32 + 4096, nu)) return read_at<V>(utile);
    const uint8* lower = upper + read_at<int64>(utile);
    const uint32 nl = (((uint32(i) & 127u) >> 3) << 8) | (((uint32(j) & 127u) >> 3) << 4) |
                        ((uint32(k) & 127u) >> 3);
    const uint8* ltile = lower + kLowerHeader + nl * L::node_tile();
    if (!bit_on(lower + 32 + 512, nl)) return read_at<V>(ltile);
    const uint8* leaf = lower + read_at<int64>(ltile);
    const uint32 nv = ((uint32(i) & 7u) << 6) | ((uint32(j) & 7u) << 3) | (uint32(k) & 7u);
    return read_at<V>(leaf + L::leaf_header() + nv * sizeof(V));
}

CUDA_CALLABLE const uint8* grid_of(uint64 id) {
    return reinterpret_cast<const uint8*>(id);
}

CUDA_CALLABLE float32 floor_f(float32 x) {
    float32 t = float32(int32(x));
    return t > x ? t - 1.0f : t;
}

/// x rounded to the nearest integer, halves away from zero (Warp's round).
CUDA_CALLABLE int32 round_i(float32 x) {
    return x >= 0.0f ? int32(floor_f(x + 0.5f)) : -int32(floor_f(0.5f - x));
}

template <typename V>
CUDA_CALLABLE V scaled(const V& v, float32 w);

template <>
CUDA_CALLABLE float32 scaled(const float32& v, float32 w) {
    return v * w;
}

template <>
CUDA_CALLABLE vec3f scaled(const vec3f& v, float32 w) {
    return vec3f(v.c[0] * w, v.c[1] * w, v.c[2] * w);
}

template <typename V>
CUDA_CALLABLE V add(const V& a, const V& b) {
    return a + b;
}

template <>
CUDA_CALLABLE vec3f add(const vec3f& a, const vec3f& b) {
    return vec3f(a.c[0] + b.c[0], a.c[1] + b.c[1], a.c[2] + b.c[2]);
}

/// Trilinear interpolation (mode 1) or the nearest voxel (mode 0) at index-space point uvw.
template <typename V>
CUDA_CALLABLE V sample(uint64 id, const vec3f& uvw, int32 mode) {
    const uint8* g = grid_of(id);
    if (mode == 0) {
        return lookup<V>(g, round_i(uvw.c[0]), round_i(uvw.c[1]), round_i(uvw.c[2]));
    }
    const float32 fx = floor_f(uvw.c[0]), fy = floor_f(uvw.c[1]), fz = floor_f(uvw.c[2]);
    const int32 x = int32(fx), y = int32(fy), z = int32(fz);
    const float32 tx = uvw.c[0] - fx, ty = uvw.c[1] - fy, tz = uvw.c[2] - fz;
    V acc = scaled(lookup<V>(g, x, y, z), 0.0f);
    for (int c = 0; c < 8; ++c) {
        const int dx = c >> 2, dy = (c >> 1) & 1, dz = c & 1;
        const float32 w = (dx ? tx : 1.0f - tx) * (dy ? ty : 1.0f - ty) * (dz ? tz : 1.0f - tz);
        acc = add(acc, scaled(lookup<V>(g, x + dx, y + dy, z + dz), w));
    }
    return acc;
}

/// m (row-major 3x3 at `m`) times p, plus t when `t` is not null.
CUDA_CALLABLE vec3f affine(const float32* m, const vec3f& p, const float32* t) {
    vec3f r;
    for (int row = 0; row < 3; ++row)
        r.c[row] = m[3 * row] * p.c[0] + m[3 * row + 1] * p.c[1] + m[3 * row + 2] * p.c[2] +
                   (t ? t[row] : 0.0f);
    return r;
}

CUDA_CALLABLE const float32* map_f(uint64 id, int which) {
    return reinterpret_cast<const float32*>(grid_of(id) + kMapOffset) + which;
}

}  // namespace volume_detail

/// The float32 value of voxel (i, j, k).
CUDA_CALLABLE float32 volume_lookup_f(uint64 id, int32 i, int32 j, int32 k) {
    return volume_detail::lookup<float32>(volume_detail::grid_of(id), i, j, k);
}

/// The vec3f value of voxel (i, j, k).
CUDA_CALLABLE vec3f volume_lookup_v(uint64 id, int32 i, int32 j, int32 k) {
    return volume_detail::lookup<vec3f>(volume_detail::grid_of(id), i, j, k);
}

/// The int32 value of voxel (i, j, k).
CUDA_CALLABLE int32 volume_lookup_i(uint64 id, int32 i, int32 j, int32 k) {
    return volume_detail::lookup<int32>(volume_detail::grid_of(id), i, j, k);
}

/// A float32 grid sampled at index-space point uvw (mode 0 closest, 1 trilinear).
CUDA_CALLABLE float32 volume_sample_f(uint64 id, const vec3f& uvw, int32 mode) {
    return volume_detail::sample<float32>(id, uvw, mode);
}

/// A vec3f grid sampled at index-space point uvw (mode 0 closest, 1 trilinear).
CUDA_CALLABLE vec3f volume_sample_v(uint64 id, const vec3f& uvw, int32 mode) {
    return volume_detail::sample<vec3f>(id, uvw, mode);
}

/// An int32 grid at the voxel nearest uvw (int32 grids only sample the closest voxel).
CUDA_CALLABLE int32 volume_sample_i(uint64 id, const vec3f& uvw) {
    const uint8* g = volume_detail::grid_of(id);
    return volume_detail::lookup<int32>(g, volume_detail::round_i(uvw.c[0]),
                                        volume_detail::round_i(uvw.c[1]),
                                        volume_detail::round_i(uvw.c[2]));
}

/// The world-space point of index-space point uvw.
CUDA_CALLABLE vec3f volume_index_to_world(uint64 id, const vec3f& uvw) {
    return volume_detail::affine(volume_detail::map_f(id, 0), uvw, volume_detail::map_f(id, 18));
}

/// The index-space point of world-space point xyz.
CUDA_CALLABLE vec3f volume_world_to_index(uint64 id, const vec3f& xyz) {
    const float32* t = volume_detail::map_f(id, 18);
    const vec3f d(xyz.c[0] - t[0], xyz.c[1] - t[1], xyz.c[2] - t[2]);
    return volume_detail::affine(volume_detail::map_f(id, 9), d, nullptr);
}

/// An index-space direction in world space (the map without its translation).
CUDA_CALLABLE vec3f volume_index_to_world_dir(uint64 id, const vec3f& uvw) {
    return volume_detail::affine(volume_detail::map_f(id, 0), uvw, nullptr);
}

/// A world-space direction in index space (the inverse map without its translation).
CUDA_CALLABLE vec3f volume_world_to_index_dir(uint64 id, const vec3f& xyz) {
    return volume_detail::affine(volume_detail::map_f(id, 9), xyz, nullptr);
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
