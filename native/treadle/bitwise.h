// native/treadle/bitwise.h -- the bitwise operators & | ^ ~ << >> on integer vectors and
// matrices, component by component with the scalar rules of scalar.h (shift counts modulo the
// bit width). Not differentiable: integer values have no gradient.
#pragma once

#include "mat.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

#define WP_BITWISE_BINARY(name)                                                           \
    template <int N, typename T>                                                          \
    CUDA_CALLABLE vec_t<N, T> name(const vec_t<N, T>& a, const vec_t<N, T>& b) {          \
        vec_t<N, T> r{};                                                                  \
        for (int i = 0; i < N; ++i) r.c[i] = name(a.c[i], b.c[i]);                        \
        return r;                                                                         \
    }                                                                                     \
    template <int R, int C, typename T>                                                   \
    CUDA_CALLABLE mat_t<R, C, T> name(const mat_t<R, C, T>& a, const mat_t<R, C, T>& b) { \
        mat_t<R, C, T> r{};                                                               \
        for (int i = 0; i < R; ++i) {                                                     \
            for (int j = 0; j < C; ++j) r.m[i][j] = name(a.m[i][j], b.m[i][j]);           \
        }                                                                                 \
        return r;                                                                         \
    }

WP_BITWISE_BINARY(bit_and)
WP_BITWISE_BINARY(bit_or)
WP_BITWISE_BINARY(bit_xor)
WP_BITWISE_BINARY(lshift)
WP_BITWISE_BINARY(rshift)

#undef WP_BITWISE_BINARY

/// invert(a): ~ of every component.
template <int N, typename T>
CUDA_CALLABLE vec_t<N, T> invert(const vec_t<N, T>& a) {
    vec_t<N, T> r{};
    for (int i = 0; i < N; ++i) r.c[i] = invert(a.c[i]);
    return r;
}
template <int R, int C, typename T>
CUDA_CALLABLE mat_t<R, C, T> invert(const mat_t<R, C, T>& a) {
    mat_t<R, C, T> r{};
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) r.m[i][j] = invert(a.m[i][j]);
    }
    return r;
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
