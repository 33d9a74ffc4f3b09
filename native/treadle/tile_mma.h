// native/treadle/tile_mma.h -- the CUDA tile products that outrun the generic loop: tensor-core
// mma.sync for float16 and bfloat16 operands, a register-blocked FFMA product for float32
// (included by tile_ops.h, whose tile_matmul_as picks them)
//
// Both stage a and b in the block's scratch with every row padded by 16 bytes, so that the
// fragment loads of neighbouring rows fall in different banks (the emitter sizes the scratch
// for the padding), compute each warp's (mma) or thread's (FFMA) block of the product in
// registers, stage the product as float32 in the scratch, and read back the elements of the
// thread's slots. Each plan says at compile time whether it applies (`usable`); otherwise
// tile_matmul_as uses its generic loop. Only device code of a block of several threads has them.
#pragma once

#include "tile.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// Writes the elements of a tile of rows of C elements to `s`, row r at s + r * Stride.
template <int C, int Stride, typename Tile, typename T>
CUDA_CALLABLE void tile_stage_rows(const Tile& t, T* s) {
    tile_slots<Tile>([&](int k, int e) { s[(e / C) * Stride + e % C] = t.data[k]; });
}

/// Reads each slot of a tile of rows of N elements from a float32 staging area (row stride
/// Stride), converted to the tile's element type.
template <int N, int Stride, typename Tile>
CUDA_CALLABLE void tile_unstage_rows(Tile& r, const float32* s) {
    using T = typename Tile::value_type;
    tile_slots<Tile>([&](int k, int e) { r.data[k] = T(s[(e / N) * Stride + e % N]); });
}

// ---- tensor cores: mma.sync.m16n8k16 with float32 sums -------------------------------------

/// The warp tiling of an (M, K) @ (K, N) product of 16-bit floats: the product is cut into
/// 16 x 16 blocks, and each warp tile of fm x fn blocks is one warp's work.
template <typename TA, typename TB, int M, int K, int N>
struct tile_mma_plan {
    static constexpr bool f16 = is_same_v<TA, half> && is_same_v<TB, half>;
    static constexpr bool bf16 = is_same_v<TA, bfloat16> && is_same_v<TB, bfloat16>;
    static constexpr bool shaped = M % 16 == 0 && N % 16 == 0 && K % 16 == 0;
    static constexpr int warps = tile_block_dim / 32;
    static constexpr int bm = M / 16, bn = N / 16, depth = K;
    /// fm * 8 + fn of the largest warp tile (at most 8 blocks: 64 float sums a thread) that
    /// still leaves every warp a tile; 1 x 1 blocks when there are fewer blocks than warps.
    static constexpr CUDA_CALLABLE int pick() {
        int best = 8 + 1, best_size = 0;
        for (int fm = 1; fm <= 4; fm *= 2)
            for (int fn = 1; fn <= 4; fn *= 2) {
                if (bm % fm != 0 || bn % fn != 0 || fm * fn > 8) continue;
                if ((bm / fm) * (bn / fn) < warps) continue;
                const int size = fm * fn * 4 - (fm > fn ? fm - fn : fn - fm);  // squarer wins ties
                if (size > best_size) best = fm * 8 + fn, best_size = size;
            }
        return best;
    }
    static constexpr int fm = shaped ? pick() / 8 : 1, fn = shaped ? pick() % 8 : 1;
    static constexpr int tiles = (bm / fm) * (bn / fn);
    /// Every warp has at most one tile: the product is staged over a and b after a barrier.
    static constexpr bool single = tiles <= warps;
    static constexpr int lda = K + 8, ldb = N + 8, ldc = N + 4;
    static constexpr int a_bytes = M * lda * 2, ab_bytes = a_bytes + K * ldb * 2;
    static constexpr int c_at = single ? 0 : ab_bytes;
    static constexpr bool usable =
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        (f16 || bf16) && shaped && tile_block_dim % 32 == 0 && warps >= 1 &&
        ab_bytes <= WP_TILE_SCRATCH_BYTES && c_at + M * ldc * 4 <= WP_TILE_SCRATCH_BYTES;
#else
        false;
#endif
};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
/// Four 8 x 8 matrices of 16-bit elements from shared memory (`trans`: transposed), each lane
/// naming one row: the A (or, transposed, two B) fragments of mma.m16n8k16.
template <bool trans>
__device__ inline void tile_ldmatrix_x4(uint32 (&r)[4], const void* row) {
    const unsigned at = (unsigned)__cvta_generic_to_shared(row);
    if constexpr (trans)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(at));
    else
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(at));
}

/// d += a @ b for one 16 x 8 block (k = 16) of 16-bit floats T, summed in float32.
template <typename T>
__device__ inline void tile_mma_16816(float32 (&d)[4], const uint32 (&a)[4], uint32 b0, uint32 b1) {
    if constexpr (is_same_v<T, half>)
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
            "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    else
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
            "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

/// One warp's tile `w` of the product: acc[i][j] holds block (i, j) as two 16 x 8 halves in
/// the mma accumulator layout.
template <typename P, typename T>
__device__ void tile_mma_warp_tile(const T* sa, const T* sb, int w,
                                   float32 (&acc)[P::fm][P::fn][8]) {
    const int lane = tile_lane() & 31;
    const int row0 = (w / (P::bn / P::fn)) * P::fm * 16, col0 = (w % (P::bn / P::fn)) * P::fn * 16;
    for (int i = 0; i < P::fm; ++i)
        for (int j = 0; j < P::fn; ++j)
            for (int q = 0; q < 8; ++q) acc[i][j][q] = 0.0f;
    // lanes 0-15 name rows 0-15 of a fragment's first 8 columns, lanes 16-31 of its last 8
    const int frag_row = lane & 15, frag_col = (lane >> 4) * 8;
    for (int k0 = 0; k0 < P::depth; k0 += 16) {
        uint32 af[P::fm][4], bf[P::fn][4];
        for (int i = 0; i < P::fm; ++i)
            tile_ldmatrix_x4<false>(af[i],
                                    &sa[(row0 + i * 16 + frag_row) * P::lda + k0 + frag_col]);
        for (int j = 0; j < P::fn; ++j)
            tile_ldmatrix_x4<true>(bf[j], &sb[(k0 + frag_row) * P::ldb + col0 + j * 16 + frag_col]);
        for (int i = 0; i < P::fm; ++i)
            for (int j = 0; j < P::fn; ++j) {
                float32(&lo)[4] = *reinterpret_cast<float32(*)[4]>(&acc[i][j][0]);
                float32(&hi)[4] = *reinterpret_cast<float32(*)[4]>(&acc[i][j][4]);
                tile_mma_16816<T>(lo, af[i], bf[j][0], bf[j][1]);
                tile_mma_16816<T>(hi, af[i], bf[j][2], bf[j][3]);
            }
    }
}

/// Writes warp tile `w` (tile_mma_warp_tile's layout) to the float32 staging area c.
template <typename P>
__device__ void tile_mma_store(const float32 (&acc)[P::fm][P::fn][8], int w, float32* c) {
    const int lane = tile_lane() & 31;
    const int row0 = (w / (P::bn / P::fn)) * P::fm * 16, col0 = (w % (P::bn / P::fn)) * P::fn * 16;
    for (int i = 0; i < P::fm; ++i)
        for (int j = 0; j < P::fn; ++j)
            for (int h = 0; h < 2; ++h) {
                const int row = row0 + i * 16 + (lane >> 2),
                          col = col0 + j * 16 + h * 8 + (lane & 3) * 2;
                c[row * P::ldc + col] = acc[i][j][h * 4 + 0];
                c[row * P::ldc + col + 1] = acc[i][j][h * 4 + 1];
                c[(row + 8) * P::ldc + col] = acc[i][j][h * 4 + 2];
                c[(row + 8) * P::ldc + col + 1] = acc[i][j][h * 4 + 3];
            }
}

/// a @ b on the tensor cores (tile_mma_plan<...>::usable), as a tile of TC.
template <typename TC, typename T, int M, int K, int N>
__device__ tile_t<TC, M, N> tile_matmul_mma(const tile_t<T, M, K>& a, const tile_t<T, K, N>& b) {
    using P = tile_mma_plan<T, T, M, K, N>;
    unsigned char* s = tile_scratch();
    T* sa = reinterpret_cast<T*>(s);
    T* sb = reinterpret_cast<T*>(s + P::a_bytes);
    float32* c = reinterpret_cast<float32*>(s + P::c_at);
    tile_sync();
    tile_stage_rows<K, P::lda>(a, sa);
    tile_stage_rows<N, P::ldb>(b, sb);
    tile_sync();
    const int warp = tile_lane() >> 5;
    float32 acc[P::fm][P::fn][8];
    if constexpr (P::single) {
        if (warp < P::tiles) tile_mma_warp_tile<P>(sa, sb, warp, acc);
        tile_sync();  // the product goes over a and b
        if (warp < P::tiles) tile_mma_store<P>(acc, warp, c);
    } else {
        for (int w = warp; w < P::tiles; w += P::warps) {
            tile_mma_warp_tile<P>(sa, sb, w, acc);
            tile_mma_store<P>(acc, w, c);
        }
    }
    tile_sync();
    tile_t<TC, M, N> r;
    tile_unstage_rows<N, P::ldc>(r, c);
    return r;
}
#endif

// ---- float32: a register-blocked product ---------------------------------------------------

/// The thread blocking of an (M, K) @ (K, N) float32 product: thread t computes the tm x tn
/// block at rows (t / (N / tn)) * tm and columns (t % (N / tn)) * tn, reading rows of a and b
/// from the scratch four floats at a time.
template <typename TA, typename TB, int M, int K, int N>
struct tile_ffma_plan {
    static constexpr int per = M * N / tile_block_dim;
    /// tm * 16 + tn with tm * tn == per, tn a multiple of 4, threads covering the product once.
    static constexpr CUDA_CALLABLE int pick() {
        for (int tn = 4; tn <= 8; tn *= 2)
            for (int tm = 1; tm <= 8; tm *= 2)
                if (tm * tn == per && M % tm == 0 && N % tn == 0 &&
                    (M / tm) * (N / tn) == tile_block_dim)
                    return tm * 16 + tn;
        return 0;
    }
    static constexpr int tm = pick() / 16, tn = pick() % 16;
    static constexpr int lda = K + 4, ldc = N + 4;
    static constexpr int a_bytes = M * lda * 4, ab_bytes = a_bytes + K * N * 4;
    static constexpr bool usable =
#if WP_DEVICE_CODE
        is_same_v<TA, float32> && is_same_v<TB, float32> && tile_block_dim > 1 &&
        M* N % tile_block_dim == 0 && pick() != 0 && K % 4 == 0 &&
        ab_bytes <= WP_TILE_SCRATCH_BYTES&& M* ldc * 4 <= WP_TILE_SCRATCH_BYTES;
#else
        false;
#endif
};

#if WP_DEVICE_CODE
/// a @ b for float32 tiles by tile_ffma_plan (usable), as a tile of TC; every sum adds its
/// products in k order.
template <typename TC, int M, int K, int N>
__device__ tile_t<TC, M, N> tile_matmul_ffma(const tile_t<float32, M, K>& a,
                                             const tile_t<float32, K, N>& b) {
    using P = tile_ffma_plan<float32, float32, M, K, N>;
    constexpr int tm = P::tm, tn = P::tn;
    unsigned char* s = tile_scratch();
    float32* sa = reinterpret_cast<float32*>(s);
    float32* sb = reinterpret_cast<float32*>(s + P::a_bytes);
    tile_sync();
    tile_stage_rows<K, P::lda>(a, sa);
    tile_stage_rows<N, N>(b, sb);
    tile_sync();
    const int t = tile_lane();
    const int row0 = (t / (N / tn)) * tm, col0 = (t % (N / tn)) * tn;
    float32 acc[tm][tn];
    for (int i = 0; i < tm; ++i)
        for (int j = 0; j < tn; ++j) acc[i][j] = 0.0f;
#pragma unroll 2
    for (int p0 = 0; p0 < K; p0 += 4) {
        float4 av[tm];
        for (int i = 0; i < tm; ++i)
            av[i] = *reinterpret_cast<const float4*>(&sa[(row0 + i) * P::lda + p0]);
        for (int q = 0; q < 4; ++q) {
            float32 bv[tn];
            for (int j = 0; j < tn; j += 4)
                *reinterpret_cast<float4*>(&bv[j]) =
                    *reinterpret_cast<const float4*>(&sb[(p0 + q) * N + col0 + j]);
            for (int i = 0; i < tm; ++i) {
                const float32 ai = q == 0 ? av[i].x : q == 1 ? av[i].y : q == 2 ? av[i].z : av[i].w;
                for (int j = 0; j < tn; ++j) acc[i][j] += ai * bv[j];
            }
        }
    }
    float32* c = reinterpret_cast<float32*>(s);
    tile_sync();  // the product goes over a and b
    for (int i = 0; i < tm; ++i)
        for (int j = 0; j < tn; ++j) c[(row0 + i) * P::ldc + col0 + j] = acc[i][j];
    tile_sync();
    tile_t<TC, M, N> r;
    tile_unstage_rows<N, P::ldc>(r, c);
    return r;
}
#endif

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
