#!/usr/bin/env bash
# tests/cpp/native/cuda_compile_check.sh -- compile every native/treadle family with nvcc (no GPU)
#
# Usage: tests/cpp/native/cuda_compile_check.sh [nvcc] ; exits non-zero on any error or warning.
set -euo pipefail
NVCC="${1:-${NVCC:-/usr/local/cuda/bin/nvcc}}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

cat > "$WORK/check.cu" <<'CU'
#include "treadle/cuda.h"

// Generated code calls every builtin qualified (wp::f), as here: unqualified names would be
// ambiguous with the global C math functions that nvcc and NVRTC declare.

template <typename T>
__device__ void scalar_family(T a, T b, T* out) {
    out[0] = wp::add(a, b);
    out[1] = wp::sub(a, b);
    out[2] = wp::mul(a, b);
    out[3] = wp::div(a, b);
    out[4] = wp::mod(a, b);
    out[5] = wp::floordiv(a, b);
    out[6] = wp::neg(a);
    out[7] = wp::pos(a);
    out[8] = wp::abs(a);
    out[9] = wp::min(a, b);
    out[10] = wp::max(a, b);
    out[11] = wp::clamp(a, b, a);
    out[12] = wp::sign(a);
    out[13] = wp::pow(a, b);
    out[14] = T(wp::isnan(a) || wp::isinf(a) || !wp::isfinite(b));
    out[15] = wp::cast<T>(wp::cast<float>(a) + wp::cast<float>(wp::cast<double>(b)));
    out[16] = wp::cast<T>(wp::cast<bool>(a));
    wp::print(a);
}

template <typename T>
__device__ void int_family(T a, T b, T* out) {
    out[0] = wp::bit_and(a, b);
    out[1] = wp::bit_or(a, b);
    out[2] = wp::bit_xor(a, b);
    out[3] = wp::lshift(a, b);
    out[4] = wp::rshift(a, b);
    out[5] = wp::invert(a);
}

template <typename T>
__device__ void float_family(T a, T b, T* out) {
    out[0] = wp::sqrt(a) + wp::cbrt(a) + wp::exp(a) + wp::log(a) + wp::log2(a) + wp::log10(a);
    out[1] = wp::sin(a) + wp::cos(a) + wp::tan(a) + wp::asin(a) + wp::acos(a) + wp::atan(a);
    out[2] = wp::atan2(a, b);
    out[2] += wp::sinh(a) + wp::cosh(a) + wp::tanh(a) + wp::degrees(a) + wp::radians(a);
    out[3] = wp::floor(a) + wp::ceil(a) + wp::round(a) + wp::trunc(a) + wp::rint(a);
    T g[3] = {T(0), T(0), T(0)};
    wp::adj_add(a, b, g[0], g[1], a);
    wp::adj_sub(a, b, g[0], g[1], a);
    wp::adj_mul(a, b, g[0], g[1], a);
    wp::adj_div(a, b, g[0], g[1], a);
    wp::adj_mod(a, b, g[0], g[1], a);
    wp::adj_pow(a, b, g[0], g[1], a);
    wp::adj_atan2(a, b, g[0], g[1], a);
    wp::adj_min(a, b, g[0], g[1], a);
    wp::adj_max(a, b, g[0], g[1], a);
    wp::adj_floordiv(a, b, g[0], g[1], a);
    wp::adj_clamp(a, b, a, g[0], g[1], g[2], a);
    wp::adj_neg(a, g[0], a);
    wp::adj_pos(a, g[0], a);
    wp::adj_abs(a, g[0], a);
    wp::adj_sign(a, g[0], a);
    wp::adj_sqrt(a, g[0], a);
    wp::adj_cbrt(a, g[0], a);
    wp::adj_exp(a, g[0], a);
    wp::adj_log(a, g[0], a);
    wp::adj_log2(a, g[0], a);
    wp::adj_log10(a, g[0], a);
    wp::adj_sin(a, g[0], a);
    wp::adj_cos(a, g[0], a);
    wp::adj_tan(a, g[0], a);
    wp::adj_asin(a, g[0], a);
    wp::adj_acos(a, g[0], a);
    wp::adj_atan(a, g[0], a);
    wp::adj_sinh(a, g[0], a);
    wp::adj_cosh(a, g[0], a);
    wp::adj_tanh(a, g[0], a);
    wp::adj_degrees(a, g[0], a);
    wp::adj_radians(a, g[0], a);
    wp::adj_floor(a, g[0], a);
    wp::adj_ceil(a, g[0], a);
    wp::adj_round(a, g[0], a);
    wp::adj_trunc(a, g[0], a);
    wp::adj_rint(a, g[0], a);
    wp::adj_cast<double>(a, g[0], 1.0);
    out[4] = g[0] + g[1] + g[2];
}

template <typename T>
__device__ void atomic_family(wp::array_t<T> a, wp::int32 i, T v) {
    T r = wp::atomic_add(a, i, v);
    r = wp::add(r, wp::atomic_sub(a, i, 0, v));
    r = wp::add(r, wp::atomic_min(a, i, 0, 0, v));
    r = wp::add(r, wp::atomic_max(a, i, 0, 0, 0, v));
    r = wp::add(r, wp::atomic_add(wp::address_checked(a, i, "check.py", 1, "k"), v));
    r = wp::add(r, wp::atomic_min(&a.data[1], v));
    r = wp::add(r, wp::atomic_max(&a.data[2], v));
    r = wp::add(r, wp::atomic_sub(&a.data[3], v));
    wp::store(a, i, r);
    wp::store(wp::view(a, 0), 1, wp::load(a, 0, 0));
    wp::store(wp::view_checked(a, i, "check.py", 2, "k"), 0, wp::load(a, 0, 0, 0, 0));
}

#define INSTANTIATE(T)                                                                      \
    WP_EXPORT __global__ void k_##T(wp::launch_bounds_t dim, wp::array_t<wp::T> arr, wp::T a, \
                                    wp::T b, wp::T* out) {                                  \
        const wp::int64 tid = wp::int64(blockIdx.x) * blockDim.x + threadIdx.x;             \
        if (tid >= dim.size) return;                                                        \
        wp::int32 i, j, k, l;                                                               \
        wp::tid_unravel(tid, dim, i);                                                       \
        wp::tid_unravel(tid, dim, i, j);                                                    \
        wp::tid_unravel(tid, dim, i, j, k);                                                 \
        wp::tid_unravel(tid, dim, i, j, k, l);                                              \
        scalar_family(a, b, out);                                                           \
        atomic_family(arr, i + j + k + l, a);                                               \
        *wp::address_checked(arr, i, j, "check.py", 3, "k") = a;                            \
        *wp::address_checked(arr, i, j, k, l, "check.py", 4, "k") = b;                      \
    }

INSTANTIATE(int8)
INSTANTIATE(uint8)
INSTANTIATE(int16)
INSTANTIATE(uint16)
INSTANTIATE(int32)
INSTANTIATE(uint32)
INSTANTIATE(int64)
INSTANTIATE(uint64)
INSTANTIATE(float16)
INSTANTIATE(float32)
INSTANTIATE(float64)

WP_EXPORT __global__ void k_int_family(wp::int32* o32, wp::uint64* o64, wp::int8* o8,
                                       wp::uint16* o16) {
    int_family(o32[0], o32[1], o32);
    int_family(o64[0], o64[1], o64);
    int_family(o8[0], o8[1], o8);
    int_family(o16[0], o16[1], o16);
    wp::print(true);
    wp::print("text");
}

WP_EXPORT __global__ void k_float_family(wp::float16* h, float* f, double* d) {
    float_family(h[0], h[1], h);
    float_family(f[0], f[1], f);
    float_family(d[0], d[1], d);
    wp::adj_cast<float>(h[0], h[1], 1.0f);
}
CU

cd "$WORK"
"$NVCC" -arch=sm_90 -std=c++17 -O2 -Werror all-warnings -I"$ROOT/native" -c check.cu -o check.o
"$NVCC" -arch=sm_90 -std=c++17 -O2 -Werror all-warnings -I"$ROOT/native" -ptx check.cu -o check.ptx
echo "cuda_compile_check: OK ($("$NVCC" --version | tail -1))"
