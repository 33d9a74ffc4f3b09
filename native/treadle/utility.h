// native/treadle/utility.h -- lerp over scalars and composites, and the expect_* checks
//
// Composites (vectors, matrices, quaternions, transforms) are aggregates of one scalar type with
// no padding, so the componentwise builtins here walk them as arrays of their scalar
// (components()). The checks print Warp's messages when they fail and nothing otherwise.
#pragma once

#include "mat.h"
#include "print.h"
#include "quat.h"
#include "transform.h"
#include "vec.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// composite_traits<V>: the scalar type of a composite and its number of components.
template <typename V>
struct composite_traits {};
template <int N, typename T>
struct composite_traits<vec_t<N, T>> {
    using scalar = T;
    static constexpr int size = N;
};
template <int R, int C, typename T>
struct composite_traits<mat_t<R, C, T>> {
    using scalar = T;
    static constexpr int size = R * C;
};
template <typename T>
struct composite_traits<quat_t<T>> {
    using scalar = T;
    static constexpr int size = 4;
};
template <typename T>
struct composite_traits<transform_t<T>> {
    using scalar = T;
    static constexpr int size = 7;
};

/// The components of composite v, in memory order (row-major for matrices; p then q).
template <typename V, typename T = typename composite_traits<V>::scalar>
CUDA_CALLABLE const T* components(const V& v) {
    static_assert(sizeof(V) == sizeof(T) * composite_traits<V>::size, "composite with padding");
    return reinterpret_cast<const T*>(&v);
}
template <typename V, typename T = typename composite_traits<V>::scalar>
CUDA_CALLABLE T* components(V& v) {
    return reinterpret_cast<T*>(&v);
}

// ---- lerp ----------------------------------------------------------------------------------

/// lerp(a, b, t): a * (1 - t) + b * t, for float scalars and componentwise for composites.
template <typename T>
CUDA_CALLABLE T lerp(T a, T b, T t) {
    return a * (T(1) - t) + b * t;
}
CUDA_CALLABLE half lerp(half a, half b, half t) { return half(lerp(float(a), float(b), float(t))); }
CUDA_CALLABLE bfloat16 lerp(bfloat16 a, bfloat16 b, bfloat16 t) {
    return bfloat16(lerp(float(a), float(b), float(t)));
}
template <typename V, typename T = typename composite_traits<V>::scalar>
CUDA_CALLABLE V lerp(const V& a, const V& b, type_identity_t<T> t) {
    V r;
    for (int i = 0; i < composite_traits<V>::size; ++i)
        components(r)[i] = lerp(components(a)[i], components(b)[i], t);
    return r;
}
/// adj_lerp: d/da = 1 - t, d/db = t, d/dt = b - a (summed over the components).
template <typename T>
CUDA_CALLABLE void adj_lerp(T a, T b, T t, T& adj_a, T& adj_b, T& adj_t, T adj_ret) {
    adj_a += (T(1) - t) * adj_ret;
    adj_b += t * adj_ret;
    adj_t += (b - a) * adj_ret;
}
WP_NARROW_ADJ3(lerp)
template <typename V, typename T = typename composite_traits<V>::scalar>
CUDA_CALLABLE void adj_lerp(const V& a, const V& b, type_identity_t<T> t, V& adj_a, V& adj_b,
                            type_identity_t<T>& adj_t, const V& adj_ret) {
    for (int i = 0; i < composite_traits<V>::size; ++i)
        adj_lerp(components(a)[i], components(b)[i], t, components(adj_a)[i], components(adj_b)[i],
                 adj_t, components(adj_ret)[i]);
}

// ---- checks --------------------------------------------------------------------------------

/// expect_eq(actual, expected): prints Warp's message with both values when they differ.
/// expect_neq: when they are equal. The result is a dummy 0 (the builtins return None).
template <typename T>
CUDA_CALLABLE int expect_eq(const T& actual, const T& expected) {
    if (!(actual == expected)) {
        WP_PRINTF("Error, expect_eq() failed:\n");
        WP_PRINTF("\t Expected: ");
        print(expected);
        WP_PRINTF("\t Actual: ");
        print(actual);
    }
    return 0;
}
template <typename T>
CUDA_CALLABLE int expect_neq(const T& actual, const T& expected) {
    if (actual == expected) {
        WP_PRINTF("Error, expect_neq() failed:\n");
        WP_PRINTF("\t Expected: ");
        print(expected);
        WP_PRINTF("\t Actual: ");
        print(actual);
    }
    return 0;
}

/// expect_near(actual, expected, tolerance): prints when |actual - expected| > tolerance for a
/// scalar, or for any component of a composite (with the largest difference); NaN fails.
template <typename T>
CUDA_CALLABLE int expect_near(T actual, T expected, T tolerance) {
    const double d = double(actual) > double(expected) ? double(actual) - double(expected)
                                                       : double(expected) - double(actual);
    if (!(d <= double(tolerance))) {
        WP_PRINTF("Error, expect_near() failed with tolerance ");
        print(tolerance);
        WP_PRINTF("\t Expected: ");
        print(expected);
        WP_PRINTF("\t Actual: ");
        print(actual);
    }
    return 0;
}
template <typename V, typename T = typename composite_traits<V>::scalar>
CUDA_CALLABLE int expect_near(const V& actual, const V& expected, type_identity_t<T> tolerance) {
    double worst = 0.0;
    bool failed = false;
    for (int i = 0; i < composite_traits<V>::size; ++i) {
        const double a = double(components(actual)[i]), e = double(components(expected)[i]);
        const double d = a > e ? a - e : e - a;
        if (!(d <= double(tolerance))) failed = true;
        if (d > worst) worst = d;
    }
    if (failed) {
        WP_PRINTF("Error, expect_near() failed with tolerance ");
        print(tolerance);
        WP_PRINTF("    Expected: ");
        print(expected);
        WP_PRINTF("    Actual: ");
        print(actual);
        WP_PRINTF("    Max absolute difference: ");
        print(worst);
    }
    return 0;
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
