// native/treadle/verify_fp.h -- verify_fp builds: record the first NaN/Inf a kernel stores
//
// A kernel built with verify_fp calls verify_fp_store(value, ...) after every store (and
// atomic update) of a float-valued array element. The first non-finite value of a launch is
// recorded in wp::fp_error, a per-module global laid out like bounds_error (array.h) and read
// the same way:
//  * CPU: `int wp_take_fp_error(wp::fp_error_t*)` found with dlsym on the module handle
//    (returns 1 and clears the record when a value was recorded);
//  * CUDA: the __device__ global "_ZN2wp8fp_errorE", read with cuModuleGetGlobal after the
//    launch (which makes the launch synchronous).
//
// Record layout (host mirror in src/runtime/launch.cpp; 360 bytes): flag (0 none, 1 being
// written, 2 done), line, ndim (indices of the store), pad, index[4], value (as double),
// function[64], file[192], array[64] (NUL-terminated, truncated).
#pragma once

#include "array.h"
#include "mat.h"
#include "quat.h"
#include "transform.h"
#include "vec.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

struct fp_error_t {
    int32 flag;
    int32 line;
    int32 ndim;
    int32 pad_;
    int32 index[4];
    float64 value;
    char function[64];
    char file[192];
    char array[64];
};
static_assert(sizeof(fp_error_t) == 360, "fp_error_t layout is shared with the host");

#if defined(__CUDACC__)
__device__ fp_error_t fp_error;
#else
inline fp_error_t fp_error = {};
#endif

/// Whether a float is finite, by its exponent bits (independent of fast-math flags).
CUDA_CALLABLE bool fp_finite(float32 x) { return (float_bits(x) & 0x7f800000u) != 0x7f800000u; }
CUDA_CALLABLE bool fp_finite(float64 x) {
    return (double_bits(x) & 0x7ff0000000000000ull) != 0x7ff0000000000000ull;
}
CUDA_CALLABLE bool fp_finite(half x) { return (x.bits & 0x7c00u) != 0x7c00u; }
CUDA_CALLABLE bool fp_finite(bfloat16 x) { return (x.bits & 0x7f80u) != 0x7f80u; }
CUDA_CALLABLE float64 fp_as_double(float32 x) { return x; }
CUDA_CALLABLE float64 fp_as_double(float64 x) { return x; }
CUDA_CALLABLE float64 fp_as_double(half x) { return float64(x); }
CUDA_CALLABLE float64 fp_as_double(bfloat16 x) { return float64(x); }

/// The first non-finite component of n scalars at p (true when one is found, into *bad).
template <typename T>
CUDA_CALLABLE bool fp_find_nonfinite(const T* p, int n, float64* bad) {
    for (int i = 0; i < n; ++i) {
        if (!fp_finite(p[i])) {
            *bad = fp_as_double(p[i]);
            return true;
        }
    }
    return false;
}
template <typename T>
CUDA_CALLABLE bool fp_nonfinite(const T& v, float64* bad) {
    return fp_find_nonfinite(&v, 1, bad);
}
template <int N, typename T>
CUDA_CALLABLE bool fp_nonfinite(const vec_t<N, T>& v, float64* bad) {
    return fp_find_nonfinite(v.c, N, bad);
}
template <int R, int C, typename T>
CUDA_CALLABLE bool fp_nonfinite(const mat_t<R, C, T>& v, float64* bad) {
    return fp_find_nonfinite(&v.m[0][0], R * C, bad);
}
template <typename T>
CUDA_CALLABLE bool fp_nonfinite(const quat_t<T>& v, float64* bad) {
    return fp_find_nonfinite(v.c, 4, bad);
}
template <typename T>
CUDA_CALLABLE bool fp_nonfinite(const transform_t<T>& v, float64* bad) {
    return fp_find_nonfinite(v.p.c, 3, bad) || fp_find_nonfinite(v.q.c, 4, bad);
}

/// Records value `bad` stored at array[i, j, k, l] (n indices) unless a value is recorded
/// already (first one wins). In nvcc's host pass it does nothing.
CUDA_CALLABLE void record_fp_error(float64 bad, int32 n, int32 i, int32 j, int32 k, int32 l,
                                   const char* file, int32 line, const char* function,
                                   const char* array) {
#if WP_DEVICE_CODE || !defined(__CUDACC__)
#if WP_DEVICE_CODE
    if (atomicCAS(&fp_error.flag, 0, 1) != 0) return;
#else
    int32 expected = 0;
    if (!__atomic_compare_exchange_n(&fp_error.flag, &expected, 1, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_RELAXED)) {
        return;
    }
#endif
    fp_error.line = line;
    fp_error.ndim = n;
    fp_error.index[0] = i;
    fp_error.index[1] = j;
    fp_error.index[2] = k;
    fp_error.index[3] = l;
    fp_error.value = bad;
    copy_cstr(fp_error.function, 64, function);
    copy_cstr(fp_error.file, 192, file);
    copy_cstr(fp_error.array, 64, array);
#if WP_DEVICE_CODE
    __threadfence();
    atomicExch(&fp_error.flag, 2);
#else
    __atomic_store_n(&fp_error.flag, 2, __ATOMIC_RELEASE);
#endif
#else
    (void)bad, (void)n, (void)i, (void)j, (void)k, (void)l, (void)file, (void)line;
    (void)function, (void)array;
#endif
}

/// verify_fp_store(v, n, i, j, k, l, file, line, column, function, array): v, just stored at
/// array[i, ...] (n indices; unused ones 0), must be finite, else it is recorded (the report
/// names the line; column is accepted for the shared call-site spelling).
template <typename V>
CUDA_CALLABLE void verify_fp_store(const V& v, int32 n, int32 i, int32 j, int32 k, int32 l,
                                   const char* file, int32 line, int32 column, const char* function,
                                   const char* array) {
    (void)column;
    float64 bad = 0.0;
    if (fp_nonfinite(v, &bad)) record_fp_error(bad, n, i, j, k, l, file, line, function, array);
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop

/// CPU host accessor (see the top of this file), exported from every module like
/// wp_take_bounds_error.
extern "C" __attribute__((visibility("default"), used)) inline int wp_take_fp_error(
    wp::fp_error_t* out) {
    if (__atomic_load_n(&wp::fp_error.flag, __ATOMIC_ACQUIRE) != 2) return 0;
    if (out) *out = wp::fp_error;
    wp::fp_error = wp::fp_error_t{};
    __atomic_store_n(&wp::fp_error.flag, 0, __ATOMIC_RELEASE);
    return 1;
}
#endif
