// native/treadle/volume_layout.h -- the NanoVDB grid layout the volume builtins walk (CPU, CUDA)
//
// A volume's id is the address of its NanoVDB grid buffer on the device. The buffer is GridData
// (672 bytes, the index/world map at byte 296, the grid type at 636), TreeData (64 bytes: byte
// offsets of the first leaf, lower, upper node and the root from the tree, then node counts),
// the root (its header, then a table of 32-byte aligned tiles keyed by 64-bit root keys), upper
// nodes (32^3 tiles), lower nodes (16^3) and leaves (8^3 values), each 32-byte aligned; a child
// is a byte offset from its parent. Header sizes depend on the value type: a value of N
// components of scalar S aligns to S; statistics are double for 8-byte values, float otherwise
// (uint64 for index grids, whose leaves hold an offset and prefix sums instead of values).
#pragma once

#include "atomic.h"
#include "mat.h"
#include "vec.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

namespace volume_detail {

constexpr uint64 kGridSize = 672;
constexpr uint64 kMapOffset = 296;
constexpr uint64 kGridTypeOffset = 636;
constexpr uint32 kGridIndex = 19;
constexpr uint32 kGridOnIndex = 20;

/// A value type of the volume builtins: its NanoVDB grid type, N components of scalar S,
/// and the size of its statistics.
template <typename T>
struct Value;

template <typename S_, int N_, uint32 code_, uint64 stats_>
struct ValueBase {
    using S = S_;
    static constexpr int N = N_;
    static constexpr uint32 code = code_;
    static constexpr uint64 stats = stats_;
};

// clang-format off
template <> struct Value<float32> : ValueBase<float32, 1, 1, 4> {};
template <> struct Value<float64> : ValueBase<float64, 1, 2, 8> {};
template <> struct Value<int32> : ValueBase<int32, 1, 4, 4> {};
template <> struct Value<int64> : ValueBase<int64, 1, 5, 8> {};
template <> struct Value<vec3f> : ValueBase<float32, 3, 6, 4> {};
template <> struct Value<vec3d> : ValueBase<float64, 3, 7, 4> {};
template <> struct Value<uint32> : ValueBase<uint32, 1, 10, 4> {};
template <> struct Value<vec4f> : ValueBase<float32, 4, 17, 4> {};
template <> struct Value<vec4d> : ValueBase<float64, 4, 18, 4> {};
template <> struct Value<uint64> : ValueBase<uint64, 1, kGridOnIndex, 8> {};  // index grids
// clang-format on

CUDA_CALLABLE constexpr uint64 align_up(uint64 n, uint64 a) { return (n + a - 1) / a * a; }

/// Byte offsets of the nodes of a grid of value type T.
template <typename T>
struct Layout {
    using V = Value<T>;
    static constexpr uint64 size = sizeof(typename V::S) * V::N;
    static constexpr uint64 align = sizeof(typename V::S);
    CUDA_CALLABLE static constexpr uint64 root_background() { return align_up(28, align); }
    CUDA_CALLABLE static constexpr uint64 root_header() {
        return align_up(align_up(root_background() + 3 * size, V::stats) + 2 * V::stats, 32);
    }
    CUDA_CALLABLE static constexpr uint64 root_tile_value() { return align_up(20, align); }
    CUDA_CALLABLE static constexpr uint64 root_tile() {
        return align_up(root_tile_value() + size, 32);
    }
    /// A node's table entry: a value or a child offset.
    CUDA_CALLABLE static constexpr uint64 node_tile() {
        return align_up(size > 8 ? size : 8, align > 8 ? align : 8);
    }
    /// The table of a node whose masks take `mask` bytes each.
    CUDA_CALLABLE static constexpr uint64 node_table(uint64 mask) {
        return align_up(align_up(32 + 2 * mask + 2 * size, V::stats) + 2 * V::stats, 32);
    }
    CUDA_CALLABLE static constexpr uint64 upper_table() { return node_table(4096); }
    CUDA_CALLABLE static constexpr uint64 lower_table() { return node_table(512); }
    CUDA_CALLABLE static constexpr uint64 leaf_values() {
        return align_up(align_up(80 + 2 * size, V::stats) + 2 * V::stats, 32);
    }
    CUDA_CALLABLE static constexpr uint64 leaf_size() {
        return V::code == kGridOnIndex ? 96 : leaf_values() + 512 * size;
    }
};

template <typename V>
CUDA_CALLABLE V read_at(const uint8* p) {
    return *reinterpret_cast<const V*>(p);
}

CUDA_CALLABLE uint8* grid_of(uint64 id) { return reinterpret_cast<uint8*>(id); }

CUDA_CALLABLE uint32 grid_type(const uint8* grid) {
    return read_at<uint32>(grid + kGridTypeOffset);
}

CUDA_CALLABLE bool bit_on(const uint8* mask, uint32 n) {
    return (read_at<uint64>(mask + 8 * (n >> 6)) >> (n & 63)) & 1ull;
}

/// Where voxel (i, j, k) resolves: the address of its value (a leaf voxel, a node or root tile,
/// or the background), at level 0 (leaf) to 3 (root); `leaf` and `n` for level 0.
struct Found {
    uint8* value;
    uint8* leaf;
    uint32 n;
    int32 level;
};

/// Voxel (i, j, k) of the grid at `grid`, whose values are of type T.
template <typename T>
CUDA_CALLABLE Found find(uint8* grid, int32 i, int32 j, int32 k) {
    using L = Layout<T>;
    uint8* tree = grid + kGridSize;
    uint8* root = tree + read_at<int64>(tree + 24);
    const uint32 table = read_at<uint32>(root + 24);
    const uint64 key = (uint64(uint32(k) >> 12)) | (uint64(uint32(j) >> 12) << 21) |
                       (uint64(uint32(i) >> 12) << 42);
    uint8* tile = nullptr;
    for (uint32 n = 0; n < table; ++n) {
        uint8* t = root + L::root_header() + n * L::root_tile();
        if (read_at<uint64>(t) == key) {
            tile = t;
            break;
        }
    }
    if (!tile) return {root + L::root_background(), nullptr, 0, 3};
    const int64 child = read_at<int64>(tile + 8);
    if (child == 0) return {tile + L::root_tile_value(), nullptr, 0, 3};
    uint8* upper = root + child;
    const uint32 nu = (((uint32(i) & 4095u) >> 7) << 10) | (((uint32(j) & 4095u) >> 7) << 5) |
                      ((uint32(k) & 4095u) >> 7);
    uint8* utile = upper + L::upper_table() + nu * L::node_tile();
    if (!bit_on(upper + 32 + 4096, nu)) return {utile, nullptr, 0, 2};
    uint8* lower = upper + read_at<int64>(utile);
    const uint32 nl = (((uint32(i) & 127u) >> 3) << 8) | (((uint32(j) & 127u) >> 3) << 4) |
                      ((uint32(k) & 127u) >> 3);
    uint8* ltile = lower + L::lower_table() + nl * L::node_tile();
    if (!bit_on(lower + 32 + 512, nl)) return {ltile, nullptr, 0, 1};
    uint8* leaf = lower + read_at<int64>(ltile);
    const uint32 nv = ((uint32(i) & 7u) << 6) | ((uint32(j) & 7u) << 3) | (uint32(k) & 7u);
    return {leaf + L::leaf_values() + nv * L::size, leaf, nv, 0};
}

/// The leaf size of a grid of NanoVDB type `code` (0 for types the builtins do not read).
CUDA_CALLABLE uint64 leaf_size_of(uint32 code) {
    switch (code) {
        case 1:
            return Layout<float32>::leaf_size();
        case 2:
            return Layout<float64>::leaf_size();
        case 4:
            return Layout<int32>::leaf_size();
        case 5:
            return Layout<int64>::leaf_size();
        case 6:
            return Layout<vec3f>::leaf_size();
        case 7:
            return Layout<vec3d>::leaf_size();
        case 10:
            return Layout<uint32>::leaf_size();
        case 17:
            return Layout<vec4f>::leaf_size();
        case 18:
            return Layout<vec4d>::leaf_size();
        case kGridIndex:
        case kGridOnIndex:
            return 96;
        default:
            return 0;
    }
}

/// Component c of value v.
template <typename T>
CUDA_CALLABLE typename Value<T>::S& comp(T& v, int c) {
    return reinterpret_cast<typename Value<T>::S*>(&v)[c];
}
template <typename T>
CUDA_CALLABLE typename Value<T>::S comp(const T& v, int c) {
    return reinterpret_cast<const typename Value<T>::S*>(&v)[c];
}

/// The gradient type of values T: vec3 of S for scalars, an N x 3 matrix for vectors.
template <typename T>
struct Grad {
    using type = mat_t<Value<T>::N, 3, typename Value<T>::S>;
};
template <>
struct Grad<float32> {
    using type = vec_t<3, float32>;
};
template <>
struct Grad<float64> {
    using type = vec_t<3, float64>;
};

template <typename G, typename S>
CUDA_CALLABLE S& grad_at(G& g, int r, int c) {
    if constexpr (sizeof(G) == 3 * sizeof(S))
        return reinterpret_cast<S*>(&g)[c];
    else
        return reinterpret_cast<S*>(&g)[3 * r + c];
}

}  // namespace volume_detail

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
