// native/treadle/vec.h -- vec_t<N, T>: fixed-size vectors, their builtins, adjoints and atomics
//
// vec_t is plain data (trivially copyable): `wp::vec_t<3, wp::float32>{{x, y, z}}`, or
// `(x, y, z)` and `(s)` (every component s) as native snippets write it. Builtins take vectors by
// value and compute component by component with the scalar builtins of scalar.h, so integer vectors
// wrap and never trap (division by zero gives 0) and float16/bfloat16 vectors compute in float32.
// Overloads of the scalar names (add, mul, ...) are templates more specialized than the scalar
// ones, so wp::add(a, b) picks the vector version for vectors.
//
// Indices: extract/with_component take an int32 index; an index outside [0, N) reads as zero
// and writes are ignored (the vector is returned unchanged), never an out-of-bounds access.
//
// Adjoint convention as in scalar.h: adj_f(inputs..., adj_inputs&..., adj_ret) adds (+=) to the
// adjoints. Integer inputs (including indices) get no gradient; their adj_ parameters exist so
// that generated code can call every adjoint uniformly. Every adjoint is a no-op for integer T.
#pragma once

#include "array.h"
#include "atomic.h"
#include "print.h"
#include "scalar.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// vec_t<N, T>: N components of scalar type T (bool, any integer type, float16/32/64,
/// bfloat16). Plain data; operator[] is unchecked (generated code uses extract/with_component,
/// which are checked). A vector of no components (an empty slice) stores one unused component,
/// so that the array is never empty; every builtin loops over N and never touches it.
template <int N, typename T>
struct vec_t {
    static_assert(N >= 0, "vec_t cannot have a negative length");
    T c[N > 0 ? N : 1];

    vec_t() = default;
    /// From the components as a braced list (`vec_t<3, float>{{x, y, z}}`; missing ones 0).
    CUDA_CALLABLE vec_t(const T (&v)[N > 0 ? N : 1]) {
        for (int i = 0; i < (N > 0 ? N : 1); ++i) c[i] = v[i];
    }
    /// From N components (`wp::vec_t<3, wp::float32>(x, y, z)`, as native snippets write it).
    template <typename... Ts, typename = enable_if_t<(sizeof...(Ts) == N && N >= 1)>>
    CUDA_CALLABLE vec_t(Ts... xs) : c{T(xs)...} {}
    /// Every component `s` (a number: a braced list is the components).
    template <typename S, typename = enable_if_t<(N > 1 && is_number_v<S>)>>
    CUDA_CALLABLE explicit vec_t(S s) {
        for (int i = 0; i < N; ++i) c[i] = T(s);
    }

    CUDA_CALLABLE T& operator[](int i) { return c[i]; }
    CUDA_CALLABLE const T& operator[](int i) const { return c[i]; }
};

/// Short names for the common vector types.
using vec2 = vec_t<2, float32>;
using vec3 = vec_t<3, float32>;
using vec4 = vec_t<4, float32>;
using vec2f = vec2;
using vec3f = vec3;
using vec4f = vec4;
using vec2d = vec_t<2, float64>;
using vec3d = vec_t<3, float64>;
using vec4d = vec_t<4, float64>;
using vec2h = vec_t<2, float16>;
using vec3h = vec_t<3, float16>;
using vec4h = vec_t<4, float16>;
using vec2i = vec_t<2, int32>;
using vec3i = vec_t<3, int32>;
using vec4i = vec_t<4, int32>;

// ---- construction and component access ------------------------------------------------------

/// vec_fill<N, T>(s): every component s. (vec_fill<N, T>(T(0)) is the zero vector.)
template <int N, typename T>
CUDA_CALLABLE vec_t<N, T> vec_fill(type_identity_t<T> s) {
    vec_t<N, T> r{};
    for (int i = 0; i < N; ++i) r.c[i] = s;
    return r;
}

/// extract(a, i): component i, or zero when i is outside [0, N).
template <int N, typename T>
CUDA_CALLABLE T extract(const vec_t<N, T>& a, int32 i) {
    return (i >= 0 && i < N) ? a.c[i] : T(0);
}

/// with_component(a, i, s): a copy of a with component i replaced by s (a unchanged when i is
/// outside [0, N)).
template <int N, typename T>
CUDA_CALLABLE vec_t<N, T> with_component(vec_t<N, T> a, int32 i, type_identity_t<T> s) {
    if (i >= 0 && i < N) a.c[i] = s;
    return a;
}

/// vec_cast<T>(v): v with every component converted by cast<T> (Warp's vec3d(v), vec3i(v)).
template <typename T, int N, typename U>
CUDA_CALLABLE vec_t<N, T> vec_cast(const vec_t<N, U>& v) {
    vec_t<N, T> r{};
    for (int i = 0; i < N; ++i) r.c[i] = cast<T>(v.c[i]);
    return r;
}

// ---- arithmetic -----------------------------------------------------------------------------

/// add/sub/cw_mul/cw_div(a, b): componentwise a+b, a-b, a*b, a/b (scalar rules per component:
/// integers wrap, integer division by zero gives 0).
template <int N, typename T>
CUDA_CALLABLE vec_t<N, T> add(vec_t<N, T> a, vec_t<N, T> b) {
    for (int i = 0; i < N; ++i) a.c[i] = add(a.c[i], b.c[i]);
    return a;
}
template <int N, typename T>
CUDA_CALLABLE vec_t<N, T> sub(vec_t<N, T> a, vec_t<N, T> b) {
    for (int i = 0; i < N; ++i) a.c[i] = sub(a.c[i], b.c[i]);
    return a;
}
template <int N, typename T>
CUDA_CALLABLE vec_t<N, T> cw_mul(vec_t<N, T> a, vec_t<N, T> b) {
    for (int i = 0; i < N; ++i) a.c[i] = mul(a.c[i], b.c[i]);
    return a;
}
template <int N, typename T>
CUDA_CALLABLE vec_t<N, T> cw_div(vec_t<N, T> a, vec_t<N, T> b) {
    for (int i = 0; i < N; ++i) a.c[i] = div(a.c[i], b.c[i]);
    return a;
}

/// mul(a, s) / mul(s, a): every component times the scalar s. div(a, s): divided by s.
template <int N, typename T>
CUDA_CALLABLE vec_t<N, T> mul(vec_t<N, T> a, type_identity_t<T> s) {
    for (int i = 0; i < N; ++i) a.c[i] = mul(a.c[i], s);
    return a;
}
template <int N, typename T>
CUDA_CALLABLE vec_t<N, T> mul(type_identity_t<T> s, vec_t<N, T> a) {
    for (int i = 0; i < N; ++i) a.c[i] = mul(s, a.c[i]);
    return a;
}
template <int N, typename T>
CUDA_CALLABLE vec_t<N, T> div(vec_t<N, T> a, type_identity_t<T> s) {
    for (int i = 0; i < N; ++i) a.c[i] = div(a.c[i], s);
    return a;
}
/// div(s, a): the scalar s divided by every component (Warp's s / v).
template <int N, typename T>
CUDA_CALLABLE vec_t<N, T> div(type_identity_t<T> s, vec_t<N, T> a) {
    for (int i = 0; i < N; ++i) a.c[i] = div(s, a.c[i]);
    return a;
}

/// neg(a) / pos(a): -a / a.
template <int N, typename T>
CUDA_CALLABLE vec_t<N, T> neg(vec_t<N, T> a) {
    for (int i = 0; i < N; ++i) a.c[i] = neg(a.c[i]);
    return a;
}
template <int N, typename T>
CUDA_CALLABLE vec_t<N, T> pos(vec_t<N, T> a) {
    return a;
}

/// min/max/abs: componentwise, with the scalar tie and NaN rules.
template <int N, typename T>
CUDA_CALLABLE vec_t<N, T> min(vec_t<N, T> a, vec_t<N, T> b) {
    for (int i = 0; i < N; ++i) a.c[i] = min(a.c[i], b.c[i]);
    return a;
}
template <int N, typename T>
CUDA_CALLABLE vec_t<N, T> max(vec_t<N, T> a, vec_t<N, T> b) {
    for (int i = 0; i < N; ++i) a.c[i] = max(a.c[i], b.c[i]);
    return a;
}
/// min(a)/max(a): the smallest / largest component, reduced from the first with the scalar
/// min/max (NaN components count as missing). argmin/argmax: the index that reduction picks.
template <int N, typename T>
CUDA_CALLABLE uint32 argmin(const vec_t<N, T>& a) {
    uint32 k = 0;
    for (int i = 1; i < N; ++i)
        if (!(a.c[k] == a.c[k]) || a.c[i] < a.c[k]) k = uint32(i);
    return k;
}
template <int N, typename T>
CUDA_CALLABLE uint32 argmax(const vec_t<N, T>& a) {
    uint32 k = 0;
    for (int i = 1; i < N; ++i)
        if (!(a.c[k] == a.c[k]) || a.c[k] < a.c[i]) k = uint32(i);
    return k;
}
template <int N, typename T>
CUDA_CALLABLE T min(const vec_t<N, T>& a) {
    return a.c[argmin(a)];
}
template <int N, typename T>
CUDA_CALLABLE T max(const vec_t<N, T>& a) {
    return a.c[argmax(a)];
}
template <int N, typename T>
CUDA_CALLABLE vec_t<N, T> abs(vec_t<N, T> a) {
    for (int i = 0; i < N; ++i) a.c[i] = abs(a.c[i]);
    return a;
}
/// mod/sign: componentwise, with the scalar rules (C remainder for integers, fmod for floats).
template <int N, typename T>
CUDA_CALLABLE vec_t<N, T> mod(vec_t<N, T> a, const vec_t<N, T>& b) {
    for (int i = 0; i < N; ++i) a.c[i] = mod(a.c[i], b.c[i]);
    return a;
}
template <int N, typename T>
CUDA_CALLABLE vec_t<N, T> sign(vec_t<N, T> a) {
    for (int i = 0; i < N; ++i) a.c[i] = sign(a.c[i]);
    return a;
}
/// isnan/isinf: some component is NaN / infinite; isfinite: every component is finite.
template <int N, typename T>
CUDA_CALLABLE bool isnan(const vec_t<N, T>& a) {
    for (int i = 0; i < N; ++i)
        if (isnan(a.c[i])) return true;
    return false;
}
template <int N, typename T>
CUDA_CALLABLE bool isinf(const vec_t<N, T>& a) {
    for (int i = 0; i < N; ++i)
        if (isinf(a.c[i])) return true;
    return false;
}
template <int N, typename T>
CUDA_CALLABLE bool isfinite(const vec_t<N, T>& a) {
    for (int i = 0; i < N; ++i)
        if (!isfinite(a.c[i])) return false;
    return true;
}

/// a == b: every component equal (so a vector containing NaN is never equal); a != b: !(a == b).
template <int N, typename T>
CUDA_CALLABLE bool operator==(const vec_t<N, T>& a, const vec_t<N, T>& b) {
    for (int i = 0; i < N; ++i) {
        if (!(a.c[i] == b.c[i])) return false;
    }
    return true;
}
template <int N, typename T>
CUDA_CALLABLE bool operator!=(const vec_t<N, T>& a, const vec_t<N, T>& b) {
    return !(a == b);
}

// ---- vector math ----------------------------------------------------------------------------

/// dot(a, b): sum of a[i] * b[i], accumulated in order from i = 0 (in T).
template <int N, typename T>
CUDA_CALLABLE T dot(vec_t<N, T> a, vec_t<N, T> b) {
    T s = mul(a.c[0], b.c[0]);
    for (int i = 1; i < N; ++i) s = add(s, mul(a.c[i], b.c[i]));
    return s;
}

/// length_sq(a) = dot(a, a); length(a) = sqrt(dot(a, a)) (float types only).
template <int N, typename T>
CUDA_CALLABLE T length_sq(vec_t<N, T> a) {
    return dot(a, a);
}
template <int N, typename T>
CUDA_CALLABLE T length(vec_t<N, T> a) {
    static_assert(is_float_v<T>, "length() takes a float vector");
    return sqrt(dot(a, a));
}

/// normalize(a): a / length(a); the zero vector (length exactly 0) gives the zero vector.
template <int N, typename T>
CUDA_CALLABLE vec_t<N, T> normalize(vec_t<N, T> a) {
    const T l = length(a);
    if (l > T(0)) return div(a, l);
    return vec_fill<N, T>(T(0));
}

/// cross(a, b): the 3-D cross product.
template <typename T>
CUDA_CALLABLE vec_t<3, T> cross(vec_t<3, T> a, vec_t<3, T> b) {
    return vec_t<3, T>{{sub(mul(a.c[1], b.c[2]), mul(a.c[2], b.c[1])),
                        sub(mul(a.c[2], b.c[0]), mul(a.c[0], b.c[2])),
                        sub(mul(a.c[0], b.c[1]), mul(a.c[1], b.c[0]))}};
}

// ---- adjoints -------------------------------------------------------------------------------

/// adj_vec_components(adj_ret, adj_0, ...): adjoint of the aggregate construction
/// vec_t<N, T>{{x0, ..., x(N-1)}}: adj_i += adj_ret[i] (N = 2, 3, 4). Note the argument order:
/// adj_ret comes first.
template <typename T>
CUDA_CALLABLE void adj_vec_components(const vec_t<2, T>& adj_ret, T& adj_0, T& adj_1) {
    if constexpr (is_int_v<T>) return;
    adj_0 += adj_ret.c[0];
    adj_1 += adj_ret.c[1];
}
template <typename T>
CUDA_CALLABLE void adj_vec_components(const vec_t<3, T>& adj_ret, T& adj_0, T& adj_1, T& adj_2) {
    if constexpr (is_int_v<T>) return;
    adj_0 += adj_ret.c[0];
    adj_1 += adj_ret.c[1];
    adj_2 += adj_ret.c[2];
}
template <typename T>
CUDA_CALLABLE void adj_vec_components(const vec_t<4, T>& adj_ret, T& adj_0, T& adj_1, T& adj_2,
                                      T& adj_3) {
    if constexpr (is_int_v<T>) return;
    adj_0 += adj_ret.c[0];
    adj_1 += adj_ret.c[1];
    adj_2 += adj_ret.c[2];
    adj_3 += adj_ret.c[3];
}

/// adj_vec_fill(s, adj_s, adj_ret): adj_s += sum of adj_ret.
template <int N, typename T>
CUDA_CALLABLE void adj_vec_fill(T, T& adj_s, const vec_t<N, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < N; ++i) adj_s += adj_ret.c[i];
}

/// adj_extract(a, i, adj_a, adj_i, adj_ret): adj_a[i] += adj_ret (nothing when out of range).
template <int N, typename T>
CUDA_CALLABLE void adj_extract(const vec_t<N, T>&, int32 i, vec_t<N, T>& adj_a, int32&, T adj_ret) {
    if constexpr (is_int_v<T>) return;
    if (i >= 0 && i < N) adj_a.c[i] += adj_ret;
}

/// adj_with_component(a, i, s, adj_a, adj_i, adj_s, adj_ret): adj_s += adj_ret[i]; every other
/// component of adj_ret goes to adj_a (all of it when i is out of range).
template <int N, typename T>
CUDA_CALLABLE void adj_with_component(const vec_t<N, T>&, int32 i, T, vec_t<N, T>& adj_a, int32&,
                                      T& adj_s, const vec_t<N, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int k = 0; k < N; ++k) {
        if (k == i) {
            adj_s += adj_ret.c[k];
        } else {
            adj_a.c[k] += adj_ret.c[k];
        }
    }
}

/// adj_vec_cast<T>(v, adj_v, adj_ret): adj_cast per component (float to float passes the
/// gradient through; casts from or to integers have none).
template <typename T, int N, typename U>
CUDA_CALLABLE void adj_vec_cast(const vec_t<N, U>& v, vec_t<N, U>& adj_v,
                                const vec_t<N, T>& adj_ret) {
    for (int i = 0; i < N; ++i) adj_cast<T>(v.c[i], adj_v.c[i], adj_ret.c[i]);
}

/// adj_add/adj_sub/adj_neg/adj_pos: the linear rules, componentwise.
template <int N, typename T>
CUDA_CALLABLE void adj_add(const vec_t<N, T>&, const vec_t<N, T>&, vec_t<N, T>& adj_a,
                           vec_t<N, T>& adj_b, const vec_t<N, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < N; ++i) {
        adj_a.c[i] += adj_ret.c[i];
        adj_b.c[i] += adj_ret.c[i];
    }
}
template <int N, typename T>
CUDA_CALLABLE void adj_sub(const vec_t<N, T>&, const vec_t<N, T>&, vec_t<N, T>& adj_a,
                           vec_t<N, T>& adj_b, const vec_t<N, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < N; ++i) {
        adj_a.c[i] += adj_ret.c[i];
        adj_b.c[i] -= adj_ret.c[i];
    }
}
template <int N, typename T>
CUDA_CALLABLE void adj_neg(const vec_t<N, T>&, vec_t<N, T>& adj_a, const vec_t<N, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < N; ++i) adj_a.c[i] -= adj_ret.c[i];
}
template <int N, typename T>
CUDA_CALLABLE void adj_pos(const vec_t<N, T>&, vec_t<N, T>& adj_a, const vec_t<N, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < N; ++i) adj_a.c[i] += adj_ret.c[i];
}

/// adj_cw_mul: adj_a += b * adj_ret, adj_b += a * adj_ret (componentwise).
/// adj_cw_div: adj_a += adj_ret / b, adj_b -= adj_ret * (a / b) / b.
template <int N, typename T>
CUDA_CALLABLE void adj_cw_mul(const vec_t<N, T>& a, const vec_t<N, T>& b, vec_t<N, T>& adj_a,
                              vec_t<N, T>& adj_b, const vec_t<N, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < N; ++i) {
        adj_a.c[i] += b.c[i] * adj_ret.c[i];
        adj_b.c[i] += a.c[i] * adj_ret.c[i];
    }
}
template <int N, typename T>
CUDA_CALLABLE void adj_cw_div(const vec_t<N, T>& a, const vec_t<N, T>& b, vec_t<N, T>& adj_a,
                              vec_t<N, T>& adj_b, const vec_t<N, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < N; ++i) {
        adj_a.c[i] += adj_ret.c[i] / b.c[i];
        adj_b.c[i] -= adj_ret.c[i] * (a.c[i] / b.c[i]) / b.c[i];
    }
}

/// adj_mul(a, s) / adj_mul(s, a): adj_a += s * adj_ret, adj_s += dot(a, adj_ret).
/// adj_div(a, s): adj_a += adj_ret / s, adj_s -= dot(a, adj_ret) / s^2.
template <int N, typename T>
CUDA_CALLABLE void adj_mul(const vec_t<N, T>& a, T s, vec_t<N, T>& adj_a, T& adj_s,
                           const vec_t<N, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < N; ++i) adj_a.c[i] += s * adj_ret.c[i];
    adj_s += dot(a, adj_ret);
}
template <int N, typename T>
CUDA_CALLABLE void adj_mul(T s, const vec_t<N, T>& a, T& adj_s, vec_t<N, T>& adj_a,
                           const vec_t<N, T>& adj_ret) {
    adj_mul(a, s, adj_a, adj_s, adj_ret);
}
template <int N, typename T>
CUDA_CALLABLE void adj_div(const vec_t<N, T>& a, T s, vec_t<N, T>& adj_a, T& adj_s,
                           const vec_t<N, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < N; ++i) adj_a.c[i] += adj_ret.c[i] / s;
    adj_s -= dot(a, adj_ret) / s / s;
}
/// adj_div(s, a): adj_s += sum adj_ret[i] / a[i], adj_a[i] -= s / a[i]^2 adj_ret[i].
template <int N, typename T>
CUDA_CALLABLE void adj_div(T s, const vec_t<N, T>& a, T& adj_s, vec_t<N, T>& adj_a,
                           const vec_t<N, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < N; ++i) {
        adj_s += adj_ret.c[i] / a.c[i];
        adj_a.c[i] -= s / a.c[i] / a.c[i] * adj_ret.c[i];
    }
}

/// adj_min/adj_max/adj_abs: the scalar rules, componentwise.
template <int N, typename T>
CUDA_CALLABLE void adj_min(const vec_t<N, T>& a, const vec_t<N, T>& b, vec_t<N, T>& adj_a,
                           vec_t<N, T>& adj_b, const vec_t<N, T>& adj_ret) {
    for (int i = 0; i < N; ++i) adj_min(a.c[i], b.c[i], adj_a.c[i], adj_b.c[i], adj_ret.c[i]);
}
template <int N, typename T>
CUDA_CALLABLE void adj_max(const vec_t<N, T>& a, const vec_t<N, T>& b, vec_t<N, T>& adj_a,
                           vec_t<N, T>& adj_b, const vec_t<N, T>& adj_ret) {
    for (int i = 0; i < N; ++i) adj_max(a.c[i], b.c[i], adj_a.c[i], adj_b.c[i], adj_ret.c[i]);
}
/// adj_min(a)/adj_max(a): to the component the reduction picked.
template <int N, typename T>
CUDA_CALLABLE void adj_min(const vec_t<N, T>& a, vec_t<N, T>& adj_a, T adj_ret) {
    if constexpr (!is_int_v<T>) adj_a.c[argmin(a)] += adj_ret;
}
template <int N, typename T>
CUDA_CALLABLE void adj_max(const vec_t<N, T>& a, vec_t<N, T>& adj_a, T adj_ret) {
    if constexpr (!is_int_v<T>) adj_a.c[argmax(a)] += adj_ret;
}
template <int N, typename T>
CUDA_CALLABLE void adj_abs(const vec_t<N, T>& a, vec_t<N, T>& adj_a, const vec_t<N, T>& adj_ret) {
    for (int i = 0; i < N; ++i) adj_abs(a.c[i], adj_a.c[i], adj_ret.c[i]);
}
/// adj_mod/adj_sign: the scalar rules, componentwise.
template <int N, typename T>
CUDA_CALLABLE void adj_mod(const vec_t<N, T>& a, const vec_t<N, T>& b, vec_t<N, T>& adj_a,
                           vec_t<N, T>& adj_b, const vec_t<N, T>& adj_ret) {
    for (int i = 0; i < N; ++i) adj_mod(a.c[i], b.c[i], adj_a.c[i], adj_b.c[i], adj_ret.c[i]);
}
template <int N, typename T>
CUDA_CALLABLE void adj_sign(const vec_t<N, T>&, vec_t<N, T>&, const vec_t<N, T>&) {}

/// adj_dot: adj_a += b * adj_ret, adj_b += a * adj_ret. adj_length_sq: adj_a += 2 a adj_ret.
template <int N, typename T>
CUDA_CALLABLE void adj_dot(const vec_t<N, T>& a, const vec_t<N, T>& b, vec_t<N, T>& adj_a,
                           vec_t<N, T>& adj_b, T adj_ret) {
    if constexpr (is_int_v<T>) return;
    for (int i = 0; i < N; ++i) {
        adj_a.c[i] += b.c[i] * adj_ret;
        adj_b.c[i] += a.c[i] * adj_ret;
    }
}
template <int N, typename T>
CUDA_CALLABLE void adj_length_sq(const vec_t<N, T>& a, vec_t<N, T>& adj_a, T adj_ret) {
    if constexpr (is_int_v<T>) return;
    const T g = T(2) * adj_ret;
    for (int i = 0; i < N; ++i) adj_a.c[i] += a.c[i] * g;
}

/// adj_length: adj_a += a / length(a) * adj_ret; no gradient at the zero vector.
template <int N, typename T>
CUDA_CALLABLE void adj_length(const vec_t<N, T>& a, vec_t<N, T>& adj_a, T adj_ret) {
    const T l = length(a);
    if (l > T(0)) {
        const T g = adj_ret / l;
        for (int i = 0; i < N; ++i) adj_a.c[i] += a.c[i] * g;
    }
}

/// adj_normalize: with n = a / |a|, adj_a += (adj_ret - n dot(n, adj_ret)) / |a|; no gradient
/// at the zero vector.
template <int N, typename T>
CUDA_CALLABLE void adj_normalize(const vec_t<N, T>& a, vec_t<N, T>& adj_a,
                                 const vec_t<N, T>& adj_ret) {
    const T l = length(a);
    if (l > T(0)) {
        const vec_t<N, T> n = div(a, l);
        const T d = dot(n, adj_ret);
        for (int i = 0; i < N; ++i) adj_a.c[i] += (adj_ret.c[i] - n.c[i] * d) / l;
    }
}

/// adj_cross: adj_a += cross(b, adj_ret), adj_b += cross(adj_ret, a).
template <typename T>
CUDA_CALLABLE void adj_cross(const vec_t<3, T>& a, const vec_t<3, T>& b, vec_t<3, T>& adj_a,
                             vec_t<3, T>& adj_b, const vec_t<3, T>& adj_ret) {
    if constexpr (is_int_v<T>) return;
    adj_a = add(adj_a, cross(b, adj_ret));
    adj_b = add(adj_b, cross(adj_ret, a));
}

// ---- atomics --------------------------------------------------------------------------------

/// atomic_rmw_n<Op>(p, v, old, n): atomic_rmw<Op> on each of the n scalars at p; old[k] gets
/// the previous value of p[k]. Each component is atomic on its own: the returned vector/matrix
/// of old values is not one atomic snapshot of the whole element.
template <int Op, typename T>
CUDA_CALLABLE void atomic_rmw_n(T* p, const T* v, T* old, int n) {
    for (int k = 0; k < n; ++k) old[k] = atomic_rmw<Op>(p + k, v[k]);
}

/// atomic_add/sub/min/max/and/or/xor on vector elements: (ptr, v) and
/// (array, i..., v) with 1-4 indices (unchecked; checked mode passes address_checked(...) as
/// ptr). Per-component atomics (min/max componentwise); return the old vector.
#define WP_VEC_ATOMIC_FAMILY(name, op)                                                       \
    template <int N, typename T>                                                             \
    CUDA_CALLABLE vec_t<N, T> name(vec_t<N, T>* ptr, vec_t<N, T> v) {                        \
        vec_t<N, T> old{};                                                                   \
        atomic_rmw_n<op>(ptr->c, v.c, old.c, N);                                             \
        return old;                                                                          \
    }                                                                                        \
    template <int N, typename T>                                                             \
    CUDA_CALLABLE vec_t<N, T> name(const array_t<vec_t<N, T>>& a, int32 i, vec_t<N, T> v) {  \
        return name(address(a, i), v);                                                       \
    }                                                                                        \
    template <int N, typename T>                                                             \
    CUDA_CALLABLE vec_t<N, T> name(const array_t<vec_t<N, T>>& a, int32 i, int32 j,          \
                                   vec_t<N, T> v) {                                          \
        return name(address(a, i, j), v);                                                    \
    }                                                                                        \
    template <int N, typename T>                                                             \
    CUDA_CALLABLE vec_t<N, T> name(const array_t<vec_t<N, T>>& a, int32 i, int32 j, int32 k, \
                                   vec_t<N, T> v) {                                          \
        return name(address(a, i, j, k), v);                                                 \
    }                                                                                        \
    template <int N, typename T>                                                             \
    CUDA_CALLABLE vec_t<N, T> name(const array_t<vec_t<N, T>>& a, int32 i, int32 j, int32 k, \
                                   int32 l, vec_t<N, T> v) {                                 \
        return name(address(a, i, j, k, l), v);                                              \
    }

WP_VEC_ATOMIC_FAMILY(atomic_add, atomic_op_add)
WP_VEC_ATOMIC_FAMILY(atomic_sub, atomic_op_sub)
WP_VEC_ATOMIC_FAMILY(atomic_min, atomic_op_min)
WP_VEC_ATOMIC_FAMILY(atomic_max, atomic_op_max)
WP_VEC_ATOMIC_FAMILY(atomic_and, atomic_op_and)
WP_VEC_ATOMIC_FAMILY(atomic_or, atomic_op_or)
WP_VEC_ATOMIC_FAMILY(atomic_xor, atomic_op_xor)

#undef WP_VEC_ATOMIC_FAMILY

// ---- print ----------------------------------------------------------------------------------

/// print_row(p, n): n scalars on one line in Warp's vector format: each value followed by one
/// space, then a newline ("1 2 3 \n"). Floats use %g, integers print exactly (%lld / %llu).
/// Rows of up to 4 values are one printf call, so rows of concurrent GPU threads never mix.
template <typename T>
CUDA_CALLABLE void print_row(const T* p, int n) {
    if constexpr (is_float_v<T>) {
#define WP_V(k) double(p[k])
        if (n == 1) WP_PRINTF("%g \n", WP_V(0));
        if (n == 2) WP_PRINTF("%g %g \n", WP_V(0), WP_V(1));
        if (n == 3) WP_PRINTF("%g %g %g \n", WP_V(0), WP_V(1), WP_V(2));
        if (n == 4) WP_PRINTF("%g %g %g %g \n", WP_V(0), WP_V(1), WP_V(2), WP_V(3));
        if (n > 4) {
            for (int k = 0; k < n; ++k) WP_PRINTF("%g ", WP_V(k));
            WP_PRINTF("\n");
        }
#undef WP_V
    } else if constexpr (is_signed_int_v<T>) {
#define WP_V(k) int64(p[k])
        if (n == 1) WP_PRINTF("%lld \n", WP_V(0));
        if (n == 2) WP_PRINTF("%lld %lld \n", WP_V(0), WP_V(1));
        if (n == 3) WP_PRINTF("%lld %lld %lld \n", WP_V(0), WP_V(1), WP_V(2));
        if (n == 4) WP_PRINTF("%lld %lld %lld %lld \n", WP_V(0), WP_V(1), WP_V(2), WP_V(3));
        if (n > 4) {
            for (int k = 0; k < n; ++k) WP_PRINTF("%lld ", WP_V(k));
            WP_PRINTF("\n");
        }
#undef WP_V
    } else {
#define WP_V(k) uint64(p[k])
        if (n == 1) WP_PRINTF("%llu \n", WP_V(0));
        if (n == 2) WP_PRINTF("%llu %llu \n", WP_V(0), WP_V(1));
        if (n == 3) WP_PRINTF("%llu %llu %llu \n", WP_V(0), WP_V(1), WP_V(2));
        if (n == 4) WP_PRINTF("%llu %llu %llu %llu \n", WP_V(0), WP_V(1), WP_V(2), WP_V(3));
        if (n > 4) {
            for (int k = 0; k < n; ++k) WP_PRINTF("%llu ", WP_V(k));
            WP_PRINTF("\n");
        }
#undef WP_V
    }
}

/// print(v): the components on one line, e.g. vec3(1, 2.5, 3) prints "1 2.5 3 \n" (Warp's
/// kernel print format for vectors).
template <int N, typename T>
CUDA_CALLABLE void print(const vec_t<N, T>& v) {
    print_row(v.c, N);
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif

#include "vec_norms.h"
