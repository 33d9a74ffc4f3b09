// native/treadle/vec_norms.h -- Warp's vector norms (norm_l1, norm_l2, norm_huber,
// norm_pseudo_huber) and smooth_normalize, with adjoints
//
// Float vectors only. delta defaults to 1 as in Warp; the adjoints without delta are the ones
// generated code calls for a call that left it out. Included at the end of vec.h.
#pragma once

#include "vec.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// norm_l1(v): the sum of |v[i]|. norm_l2(v): length(v).
template <int N, typename T>
CUDA_CALLABLE T norm_l1(const vec_t<N, T>& v) {
    T s = T(0);
    for (int i = 0; i < N; ++i) s = s + abs(v.c[i]);
    return s;
}
template <int N, typename T>
CUDA_CALLABLE T norm_l2(const vec_t<N, T>& v) {
    return length(v);
}

/// norm_huber(v, delta): with a = |v|^2, a / 2 when |v| <= delta, else delta (|v| - delta / 2).
template <int N, typename T>
CUDA_CALLABLE T norm_huber(const vec_t<N, T>& v, type_identity_t<T> delta = T(1)) {
    const T a = dot(v, v);
    if (a <= delta * delta) return T(0.5) * a;
    return delta * (sqrt(a) - T(0.5) * delta);
}

/// norm_pseudo_huber(v, delta): delta sqrt(delta^2 + |v|^2) (Warp's form, which is delta^2 more
/// than SciPy's).
template <int N, typename T>
CUDA_CALLABLE T norm_pseudo_huber(const vec_t<N, T>& v, type_identity_t<T> delta = T(1)) {
    return delta * sqrt(delta * delta + dot(v, v));
}

/// smooth_normalize(v, delta): v / norm_pseudo_huber(v, delta), smooth through zero.
template <int N, typename T>
CUDA_CALLABLE vec_t<N, T> smooth_normalize(const vec_t<N, T>& v, type_identity_t<T> delta = T(1)) {
    return div(v, norm_pseudo_huber(v, delta));
}

/// adj_norm_l1: sign(v[i]) (0 at 0). adj_norm_l2: v / |v| (0 for the zero vector).
template <int N, typename T>
CUDA_CALLABLE void adj_norm_l1(const vec_t<N, T>& v, vec_t<N, T>& adj_v, T adj_ret) {
    for (int i = 0; i < N; ++i) {
        if (v.c[i] > T(0))
            adj_v.c[i] += adj_ret;
        else if (v.c[i] < T(0))
            adj_v.c[i] -= adj_ret;
    }
}
template <int N, typename T>
CUDA_CALLABLE void adj_norm_l2(const vec_t<N, T>& v, vec_t<N, T>& adj_v, T adj_ret) {
    const T l = length(v);
    if (l > T(0))
        for (int i = 0; i < N; ++i) adj_v.c[i] += v.c[i] / l * adj_ret;
}

/// adj_norm_huber: v inside delta, delta v / |v| outside; delta gets |v| - delta outside.
template <int N, typename T>
CUDA_CALLABLE void adj_norm_huber(const vec_t<N, T>& v, T delta, vec_t<N, T>& adj_v, T& adj_delta,
                                  T adj_ret) {
    const T a = dot(v, v);
    if (a <= delta * delta) {
        for (int i = 0; i < N; ++i) adj_v.c[i] += v.c[i] * adj_ret;
        return;
    }
    const T l = sqrt(a);
    for (int i = 0; i < N; ++i) adj_v.c[i] += delta * v.c[i] / l * adj_ret;
    adj_delta += (l - delta) * adj_ret;
}
template <int N, typename T>
CUDA_CALLABLE void adj_norm_huber(const vec_t<N, T>& v, vec_t<N, T>& adj_v, T adj_ret) {
    T adj_delta = T(0);
    adj_norm_huber(v, T(1), adj_v, adj_delta, adj_ret);
}

/// adj_norm_pseudo_huber: with r = sqrt(delta^2 + |v|^2), d/dv = delta v / r and d/ddelta =
/// r + delta^2 / r.
template <int N, typename T>
CUDA_CALLABLE void adj_norm_pseudo_huber(const vec_t<N, T>& v, T delta, vec_t<N, T>& adj_v,
                                         T& adj_delta, T adj_ret) {
    const T r = sqrt(delta * delta + dot(v, v));
    for (int i = 0; i < N; ++i) adj_v.c[i] += delta * v.c[i] / r * adj_ret;
    adj_delta += (r + delta * delta / r) * adj_ret;
}
template <int N, typename T>
CUDA_CALLABLE void adj_norm_pseudo_huber(const vec_t<N, T>& v, vec_t<N, T>& adj_v, T adj_ret) {
    T adj_delta = T(0);
    adj_norm_pseudo_huber(v, T(1), adj_v, adj_delta, adj_ret);
}

/// adj_smooth_normalize: through v / n with n = norm_pseudo_huber(v, delta).
template <int N, typename T>
CUDA_CALLABLE void adj_smooth_normalize(const vec_t<N, T>& v, T delta, vec_t<N, T>& adj_v,
                                        T& adj_delta, const vec_t<N, T>& adj_ret) {
    const T n = norm_pseudo_huber(v, delta);
    T adj_n = T(0);
    for (int i = 0; i < N; ++i) {
        adj_v.c[i] += adj_ret.c[i] / n;
        adj_n -= v.c[i] * adj_ret.c[i] / (n * n);
    }
    adj_norm_pseudo_huber(v, delta, adj_v, adj_delta, adj_n);
}
template <int N, typename T>
CUDA_CALLABLE void adj_smooth_normalize(const vec_t<N, T>& v, vec_t<N, T>& adj_v,
                                        const vec_t<N, T>& adj_ret) {
    T adj_delta = T(0);
    adj_smooth_normalize(v, T(1), adj_v, adj_delta, adj_ret);
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
