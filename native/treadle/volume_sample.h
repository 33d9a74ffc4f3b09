// native/treadle/volume_sample.h -- volume samples: nearest, trilinear, derivatives, adjoints
//
// The reads behind the volume builtins (volume.h): a reader gives the value of a voxel (from
// the grid itself, or from a per-voxel array by voxel index) and takes the adjoint of a read;
// sample() gives a sample with its first and second derivatives in uvw, scatter_sample() the
// adjoint of a sample through the values read.
#pragma once

#include "volume_layout.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

namespace volume_detail {

CUDA_CALLABLE float32 floor_f(float32 x) {
    float32 t = float32(int32(x));
    return t > x ? t - 1.0f : t;
}

/// x rounded to the nearest integer, halves away from zero (Warp's round).
CUDA_CALLABLE int32 round_i(float32 x) {
    return x >= 0.0f ? int32(floor_f(x + 0.5f)) : -int32(floor_f(0.5f - x));
}

/// Reads T values of a grid of value type T (0 for a grid of another type).
template <typename T>
struct GridReader {
    uint8* grid;
    bool typed;
    CUDA_CALLABLE explicit GridReader(uint64 id)
        : grid(grid_of(id)), typed(grid_type(grid_of(id)) == Value<T>::code) {}
    CUDA_CALLABLE T operator()(int32 i, int32 j, int32 k) const {
        T v;
        for (int c = 0; c < Value<T>::N; ++c) comp(v, c) = typename Value<T>::S(0);
        if (!typed) return v;
        return *reinterpret_cast<const T*>(find<T>(grid, i, j, k).value);
    }
    CUDA_CALLABLE void scatter(int32, int32, int32, const T&) const {}
};

/// Where voxel (i, j, k) resolves in a grid of any value type the builtins read.
CUDA_CALLABLE Found find_any(uint8* g, int32 i, int32 j, int32 k) {
    switch (grid_type(g)) {
        case 1:
            return find<float32>(g, i, j, k);
        case 2:
            return find<float64>(g, i, j, k);
        case 4:
            return find<int32>(g, i, j, k);
        case 5:
            return find<int64>(g, i, j, k);
        case 6:
            return find<vec3f>(g, i, j, k);
        case 7:
            return find<vec3d>(g, i, j, k);
        case 10:
            return find<uint32>(g, i, j, k);
        case 17:
            return find<vec4f>(g, i, j, k);
        case 18:
            return find<vec4d>(g, i, j, k);
        case kGridIndex:
        case kGridOnIndex:
            return find<uint64>(g, i, j, k);
        default:
            return {nullptr, nullptr, 0, 3};
    }
}

/// The zero-based index of voxel (i, j, k), -1 when it has none.
CUDA_CALLABLE int64 voxel_index(uint8* g, int32 i, int32 j, int32 k) {
    const uint32 code = grid_type(g);
    const Found f = find_any(g, i, j, k);
    if (f.level != 0) return -1;
    if (code == kGridIndex) return int64(read_at<uint64>(f.leaf + 80) + f.n) - 1;
    if (code == kGridOnIndex) {
        const uint8* mask = f.leaf + 16;
        if (!bit_on(mask, f.n)) return -1;
        const uint32 word = f.n >> 6;
        const uint64 prefix = read_at<uint64>(f.leaf + 88);
        uint64 count = word ? (prefix >> (9 * (word - 1))) & 511u : 0;
        const uint64 bits = read_at<uint64>(mask + 8 * word) & ((uint64(1) << (f.n & 63)) - 1);
        for (uint64 b = bits; b; b &= b - 1) ++count;
        return int64(read_at<uint64>(f.leaf + 80) + count) - 1;
    }
    uint8* tree = g + kGridSize;
    const uint8* first_leaf = tree + read_at<int64>(tree);
    const uint64 leaf = uint64(f.leaf - first_leaf) / leaf_size_of(code);
    return int64(leaf * 512 + f.n);
}

/// Reads per-voxel values from an array by voxel index (`background` for voxels without one).
template <typename T>
struct IndexReader {
    uint8* grid;
    const array_t<T>& data;
    const T& background;
    T* adj_background;
    CUDA_CALLABLE T operator()(int32 i, int32 j, int32 k) const {
        const int64 n = voxel_index(grid, i, j, k);
        return n < 0 ? background : data.data[n];
    }
    /// The adjoint of one read: the array's gradient (or the background's) gains `g`.
    CUDA_CALLABLE void scatter(int32 i, int32 j, int32 k, const T& g) const {
        const int64 n = voxel_index(grid, i, j, k);
        if (n >= 0) {
            if (data.grad) atomic_add(data.grad + n, g);
        } else if (adj_background) {
            *adj_background = add(*adj_background, g);
        }
    }
};

/// A sample and its first and second derivatives in uvw, per component (S precision).
template <typename T>
struct Sample {
    using S = typename Value<T>::S;
    static constexpr int N = Value<T>::N;
    S value[N];
    S grad[N][3];
    S hess[N][3][3];
};

/// Whether LINEAR samples interpolate values T (floating-point components) or read the
/// closest voxel (integer components).
template <typename T>
CUDA_CALLABLE constexpr bool interpolates() {
    return typename Value<T>::S(0.5) != typename Value<T>::S(0);
}

/// The sample of `read` at uvw: the closest voxel (mode 0, or integer values) or the trilinear
/// interpolant with its first and second derivatives.
template <typename T, typename R>
CUDA_CALLABLE Sample<T> sample(const R& read, const vec3f& uvw, int32 mode) {
    using S = typename Value<T>::S;
    constexpr int N = Value<T>::N;
    Sample<T> s;
    for (int r = 0; r < N; ++r) {
        s.value[r] = S(0);
        for (int c = 0; c < 3; ++c) {
            s.grad[r][c] = S(0);
            for (int d = 0; d < 3; ++d) s.hess[r][c][d] = S(0);
        }
    }
    if (mode == 0 || !interpolates<T>()) {
        const T v = read(round_i(uvw.c[0]), round_i(uvw.c[1]), round_i(uvw.c[2]));
        for (int r = 0; r < N; ++r) s.value[r] = comp(v, r);
        return s;
    }
    float32 f[3], t[3];
    int32 b[3];
    for (int a = 0; a < 3; ++a) {
        f[a] = floor_f(uvw.c[a]);
        b[a] = int32(f[a]);
        t[a] = uvw.c[a] - f[a];
    }
    for (int corner = 0; corner < 8; ++corner) {
        int d[3] = {corner >> 2, (corner >> 1) & 1, corner & 1};
        S w[3], dw[3];
        for (int a = 0; a < 3; ++a) {
            w[a] = S(d[a] ? t[a] : 1.0f - t[a]);
            dw[a] = S(d[a] ? 1 : -1);
        }
        const T v = read(b[0] + d[0], b[1] + d[1], b[2] + d[2]);
        for (int r = 0; r < N; ++r) {
            const S x = comp(v, r);
            s.value[r] += x * w[0] * w[1] * w[2];
            s.grad[r][0] += x * dw[0] * w[1] * w[2];
            s.grad[r][1] += x * w[0] * dw[1] * w[2];
            s.grad[r][2] += x * w[0] * w[1] * dw[2];
            s.hess[r][0][1] += x * dw[0] * dw[1] * w[2];
            s.hess[r][0][2] += x * dw[0] * w[1] * dw[2];
            s.hess[r][1][2] += x * w[0] * dw[1] * dw[2];
        }
    }
    for (int r = 0; r < N; ++r) {
        s.hess[r][1][0] = s.hess[r][0][1];
        s.hess[r][2][0] = s.hess[r][0][2];
        s.hess[r][2][1] = s.hess[r][1][2];
    }
    return s;
}

/// The adjoint of a sample's value (adj_value) and gradient (adj_grad, may be null) through
/// the values read: each corner's value gains its weight (and weight derivatives) times them.
template <typename T, typename R, typename G>
CUDA_CALLABLE void scatter_sample(const R& read, const vec3f& uvw, int32 mode, const T& adj_value,
                                  const G* adj_grad) {
    using S = typename Value<T>::S;
    constexpr int N = Value<T>::N;
    if (mode == 0 || !interpolates<T>()) {
        read.scatter(round_i(uvw.c[0]), round_i(uvw.c[1]), round_i(uvw.c[2]), adj_value);
        return;
    }
    float32 t[3];
    int32 b[3];
    for (int a = 0; a < 3; ++a) {
        const float32 f = floor_f(uvw.c[a]);
        b[a] = int32(f);
        t[a] = uvw.c[a] - f;
    }
    for (int corner = 0; corner < 8; ++corner) {
        int d[3] = {corner >> 2, (corner >> 1) & 1, corner & 1};
        S w[3], dw[3];
        for (int a = 0; a < 3; ++a) {
            w[a] = S(d[a] ? t[a] : 1.0f - t[a]);
            dw[a] = S(d[a] ? 1 : -1);
        }
        const S dg[3] = {dw[0] * w[1] * w[2], w[0] * dw[1] * w[2], w[0] * w[1] * dw[2]};
        T g;
        for (int r = 0; r < N; ++r) {
            S x = comp(adj_value, r) * w[0] * w[1] * w[2];
            if (adj_grad)
                for (int c = 0; c < 3; ++c) x += grad_at<const G, const S>(*adj_grad, r, c) * dg[c];
            comp(g, r) = x;
        }
        read.scatter(b[0] + d[0], b[1] + d[1], b[2] + d[2], g);
    }
}

/// adj_uvw += (d value / d uvw)^T adj_value [+ (d grad / d uvw)^T adj_grad].
template <typename T, typename G>
CUDA_CALLABLE void adj_position(const Sample<T>& s, const T& adj_value, const G* adj_grad,
                                vec3f& adj_uvw) {
    using S = typename Value<T>::S;
    for (int c = 0; c < 3; ++c) {
        S acc = S(0);
        for (int r = 0; r < Value<T>::N; ++r) {
            acc += s.grad[r][c] * comp(adj_value, r);
            if (adj_grad)
                for (int d = 0; d < 3; ++d)
                    acc += s.hess[r][d][c] * grad_at<const G, const S>(*adj_grad, r, d);
        }
        adj_uvw.c[c] += float32(acc);
    }
}

template <typename T>
CUDA_CALLABLE void write(const Sample<T>& s, T& value, typename Grad<T>::type* grad) {
    using S = typename Value<T>::S;
    for (int r = 0; r < Value<T>::N; ++r) {
        comp(value, r) = s.value[r];
        if (grad)
            for (int c = 0; c < 3; ++c)
                grad_at<typename Grad<T>::type, S>(*grad, r, c) = s.grad[r][c];
    }
}

/// m (row-major 3x3 at `m`) times p, plus t when `t` is not null.
CUDA_CALLABLE vec3f affine(const float32* m, const vec3f& p, const float32* t) {
    vec3f r;
    for (int row = 0; row < 3; ++row)
        r.c[row] = m[3 * row] * p.c[0] + m[3 * row + 1] * p.c[1] + m[3 * row + 2] * p.c[2] +
                   (t ? t[row] : 0.0f);
    return r;
}

/// The adjoint of a point or direction map: adj_p += m adj. Warp 1.17 applies the map's
/// linear part itself here, not its transpose (the same for the symmetric maps of axis-aligned
/// volumes; a rotated volume's gradients follow Warp's, which its tests check).
CUDA_CALLABLE void adj_affine(const float32* m, const vec3f& adj, vec3f& adj_p) {
    const vec3f d = affine(m, adj, nullptr);
    for (int row = 0; row < 3; ++row) adj_p.c[row] += d.c[row];
}

/// The float map: 0 the index-to-world matrix, 9 its inverse, 18 the translation.
CUDA_CALLABLE const float32* map_f(uint64 id, int which) {
    return reinterpret_cast<const float32*>(grid_of(id) + kMapOffset) + which;
}

/// The double map (after the float one's 88 bytes), laid out as map_f.
CUDA_CALLABLE const float64* map_d(uint64 id, int which) {
    return reinterpret_cast<const float64*>(grid_of(id) + kMapOffset + 88) + which;
}

/// m (row-major 3x3) times p, plus t when not null, in double precision.
CUDA_CALLABLE vec3d affine_d(const float64* m, const vec3d& p, const float64* t) {
    vec3d r;
    for (int row = 0; row < 3; ++row)
        r.c[row] = m[3 * row] * p.c[0] + m[3 * row + 1] * p.c[1] + m[3 * row + 2] * p.c[2] +
                   (t ? t[row] : 0.0);
    return r;
}

/// The adjoint of a double map: adj_p += m^T adj (Warp's float64 overloads transpose).
CUDA_CALLABLE void adj_affine_d(const float64* m, const vec3d& adj, vec3d& adj_p) {
    for (int col = 0; col < 3; ++col)
        adj_p.c[col] += m[col] * adj.c[0] + m[3 + col] * adj.c[1] + m[6 + col] * adj.c[2];
}

}  // namespace volume_detail

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
