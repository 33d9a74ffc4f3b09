// native/treadle/scalar_special.h -- step, nonzero, copysign, frac, smoothstep, erf and inverses
//
// Scalar builtins beyond the C math library's basics, with their adjoints. step and nonzero take
// every numeric type; the others are float-only (float16 computed in float32). Included by
// scalar.h after scalar_math.h.
#pragma once

#include "scalar_math.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// step(x): 1 when x < 0, else 0 (of x's type). nonzero(x): 1 when x != 0, else 0. Their
/// gradients are zero everywhere (the adjoints add nothing).
template <typename T>
CUDA_CALLABLE T step(T x) {
    return x < T(0) ? T(1) : T(0);
}
template <typename T>
CUDA_CALLABLE T nonzero(T x) {
    return x != T(0) ? T(1) : T(0);
}
template <typename T>
CUDA_CALLABLE void adj_step(T, T&, T) {}
template <typename T>
CUDA_CALLABLE void adj_nonzero(T, T&, T) {}

/// copysign(x, y): |x| with the sign of y (the sign bit, so -0.0 counts as negative).
CUDA_CALLABLE float copysign(float x, float y) { return WP_CMATH(copysignf)(x, y); }
CUDA_CALLABLE double copysign(double x, double y) { return WP_CMATH(copysign)(x, y); }
CUDA_CALLABLE half copysign(half x, half y) { return half(copysign(float(x), float(y))); }
CUDA_CALLABLE bfloat16 copysign(bfloat16 x, bfloat16 y) {
    return bfloat16(copysign(float(x), float(y)));
}
/// frac(x): the fractional part x - trunc(x), with the sign of x.
CUDA_CALLABLE float frac(float x) { return x - WP_CMATH(truncf)(x); }
CUDA_CALLABLE double frac(double x) { return x - WP_CMATH(trunc)(x); }
CUDA_CALLABLE half frac(half x) { return half(frac(float(x))); }
CUDA_CALLABLE bfloat16 frac(bfloat16 x) { return bfloat16(frac(float(x))); }

/// smoothstep(a, b, x): the Hermite step t^2 (3 - 2t) of t = clamp((x - a) / (b - a), 0, 1).
template <typename T>
CUDA_CALLABLE T smoothstep(T a, T b, T x) {
    T t = (x - a) / (b - a);
    t = t < T(0) ? T(0) : (t > T(1) ? T(1) : t);
    return t * t * (T(3) - T(2) * t);
}
CUDA_CALLABLE half smoothstep(half a, half b, half x) {
    return half(smoothstep(float(a), float(b), float(x)));
}
CUDA_CALLABLE bfloat16 smoothstep(bfloat16 a, bfloat16 b, bfloat16 x) {
    return bfloat16(smoothstep(float(a), float(b), float(x)));
}

/// erf, erfc: the error function and its complement.
CUDA_CALLABLE float erf(float x) { return WP_CMATH(erff)(x); }
CUDA_CALLABLE double erf(double x) { return WP_CMATH(erf)(x); }
CUDA_CALLABLE half erf(half x) { return half(erf(float(x))); }
CUDA_CALLABLE bfloat16 erf(bfloat16 x) { return bfloat16(erf(float(x))); }
CUDA_CALLABLE float erfc(float x) { return WP_CMATH(erfcf)(x); }
CUDA_CALLABLE double erfc(double x) { return WP_CMATH(erfc)(x); }
CUDA_CALLABLE half erfc(half x) { return half(erfc(float(x))); }
CUDA_CALLABLE bfloat16 erfc(bfloat16 x) { return bfloat16(erfc(float(x))); }

#if WP_DEVICE_CODE
/// erfinv(x): y with erf(y) == x, for x in [-1, 1] (+-inf at +-1, NaN outside); erfcinv(x):
/// y with erfc(y) == x, for x in [0, 2]. On the GPU, the CUDA math library's.
CUDA_CALLABLE float erfinv(float x) { return ::erfinvf(x); }
CUDA_CALLABLE double erfinv(double x) { return ::erfinv(x); }
CUDA_CALLABLE float erfcinv(float x) { return ::erfcinvf(x); }
CUDA_CALLABLE double erfcinv(double x) { return ::erfcinv(x); }
#else
/// erfinv on the CPU: M. Giles' polynomial approximation ("Approximating the erfinv function",
/// 2010) as a start, refined by two Newton steps on erf(y) - x in double precision.
CUDA_CALLABLE double erfinv(double x) {
    if (!(x > -1.0 && x < 1.0)) {
        if (x == 1.0) return __builtin_inf();
        if (x == -1.0) return -__builtin_inf();
        return __builtin_nan("");
    }
    double w = -__builtin_log((1.0 - x) * (1.0 + x)), p;
    if (w < 5.0) {
        w -= 2.5;
        p = 2.81022636e-08;
        p = 3.43273939e-07 + p * w;
        p = -3.5233877e-06 + p * w;
        p = -4.39150654e-06 + p * w;
        p = 0.00021858087 + p * w;
        p = -0.00125372503 + p * w;
        p = -0.00417768164 + p * w;
        p = 0.246640727 + p * w;
        p = 1.50140941 + p * w;
    } else {
        w = __builtin_sqrt(w) - 3.0;
        p = -0.000200214257;
        p = 0.000100950558 + p * w;
        p = 0.00134934322 + p * w;
        p = -0.00367342844 + p * w;
        p = 0.00573950773 + p * w;
        p = -0.0076224613 + p * w;
        p = 0.00943887047 + p * w;
        p = 1.00167406 + p * w;
        p = 2.83297682 + p * w;
    }
    double y = p * x;
    for (int k = 0; k < 2; ++k)
        y -= (__builtin_erf(y) - x) / (1.1283791670955125739 * __builtin_exp(-y * y));
    return y;
}
CUDA_CALLABLE float erfinv(float x) { return float(erfinv(double(x))); }
/// erfcinv(x) on the CPU: erfinv(1 - x), refined by Newton steps on erfc(y) - x, which keeps
/// the precision of small x.
CUDA_CALLABLE double erfcinv(double x) {
    if (!(x > 0.0 && x < 2.0)) {
        if (x == 0.0) return __builtin_inf();
        if (x == 2.0) return -__builtin_inf();
        return __builtin_nan("");
    }
    double y = erfinv(1.0 - x);
    if (__builtin_isinf(y)) y = x < 1.0 ? 5.9 : -5.9;  // 1 - x rounded to +-1
    for (int k = 0; k < 4; ++k)
        y += (__builtin_erfc(y) - x) / (1.1283791670955125739 * __builtin_exp(-y * y));
    return y;
}
CUDA_CALLABLE float erfcinv(float x) { return float(erfcinv(double(x))); }
#endif
CUDA_CALLABLE half erfinv(half x) { return half(erfinv(float(x))); }
CUDA_CALLABLE bfloat16 erfinv(bfloat16 x) { return bfloat16(erfinv(float(x))); }
CUDA_CALLABLE half erfcinv(half x) { return half(erfcinv(float(x))); }
CUDA_CALLABLE bfloat16 erfcinv(bfloat16 x) { return bfloat16(erfcinv(float(x))); }

// ---- adjoints ------------------------------------------------------------------------------

/// adj_copysign: d/dx = sign(x) sign(y) (+-1, by the sign bits, so -0.0 counts as negative);
/// y gets no gradient.
template <typename T>
CUDA_CALLABLE void adj_copysign(T x, T y, T& adj_x, T&, T adj_ret) {
    adj_x += ((copysign(T(1), x) < T(0)) == (copysign(T(1), y) < T(0)) ? adj_ret : -adj_ret);
}
/// adj_frac: 1 (trunc is piecewise constant).
template <typename T>
CUDA_CALLABLE void adj_frac(T, T& adj_x, T adj_ret) {
    adj_x += adj_ret;
}
/// adj_smoothstep: ds/dt = 6 t (1 - t) (zero where t is clamped), through t = (x - a) / (b - a).
template <typename T>
CUDA_CALLABLE void adj_smoothstep(T a, T b, T x, T& adj_a, T& adj_b, T& adj_x, T adj_ret) {
    const T d = b - a;
    T t = (x - a) / d;
    if (!(t > T(0) && t < T(1))) return;
    const T g = T(6) * t * (T(1) - t) * adj_ret / d;
    adj_x += g;
    adj_a += g * (x - b) / d;
    adj_b -= g * (x - a) / d;
}
/// adj_erf: 2/sqrt(pi) exp(-x^2); adj_erfc: its negation.
template <typename T>
CUDA_CALLABLE void adj_erf(T x, T& adj_x, T adj_ret) {
    adj_x += T(1.1283791670955125739) * exp(-x * x) * adj_ret;
}
template <typename T>
CUDA_CALLABLE void adj_erfc(T x, T& adj_x, T adj_ret) {
    adj_x -= T(1.1283791670955125739) * exp(-x * x) * adj_ret;
}
/// adj_erfinv: sqrt(pi)/2 exp(erfinv(x)^2); adj_erfcinv: its negation at erfcinv(x).
template <typename T>
CUDA_CALLABLE void adj_erfinv(T x, T& adj_x, T adj_ret) {
    const T y = erfinv(x);
    adj_x += T(0.88622692545275801365) * exp(y * y) * adj_ret;
}
template <typename T>
CUDA_CALLABLE void adj_erfcinv(T x, T& adj_x, T adj_ret) {
    const T y = erfcinv(x);
    adj_x -= T(0.88622692545275801365) * exp(y * y) * adj_ret;
}

WP_NARROW_ADJ2(copysign)
WP_NARROW_ADJ1(frac)
WP_NARROW_ADJ3(smoothstep)
WP_NARROW_ADJ1(erf)
WP_NARROW_ADJ1(erfc)
WP_NARROW_ADJ1(erfinv)
WP_NARROW_ADJ1(erfcinv)

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
