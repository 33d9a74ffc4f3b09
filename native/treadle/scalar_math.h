// native/treadle/scalar_math.h -- transcendental scalar builtins (sqrt, exp, sin, ...) and adjoints
//
// Float-only functions, overloaded for float32 (sqrtf, sinf, ... intrinsics), float64 (the double
// versions), float16 and bfloat16 (computed in float32, rounded back). Included by scalar.h.
#pragma once

#include "scalar.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

// Define name() for float (C function namef), double (name), half and bfloat16 (through namef).
#define WP_FLOAT_UNARY(name)                                                      \
    CUDA_CALLABLE float name(float x) { return WP_CMATH(name##f)(x); }            \
    CUDA_CALLABLE double name(double x) { return WP_CMATH(name)(x); }             \
    CUDA_CALLABLE half name(half x) { return half(WP_CMATH(name##f)(float(x))); } \
    CUDA_CALLABLE bfloat16 name(bfloat16 x) { return bfloat16(WP_CMATH(name##f)(float(x))); }
#define WP_FLOAT_BINARY(name)                                                      \
    CUDA_CALLABLE float name(float a, float b) { return WP_CMATH(name##f)(a, b); } \
    CUDA_CALLABLE double name(double a, double b) { return WP_CMATH(name)(a, b); } \
    CUDA_CALLABLE half name(half a, half b) {                                      \
        return half(WP_CMATH(name##f)(float(a), float(b)));                        \
    }                                                                              \
    CUDA_CALLABLE bfloat16 name(bfloat16 a, bfloat16 b) {                          \
        return bfloat16(WP_CMATH(name##f)(float(a), float(b)));                    \
    }

/// sqrt, cbrt: square / cube root (sqrt of a negative number is NaN; cbrt is odd).
WP_FLOAT_UNARY(sqrt)
WP_FLOAT_UNARY(cbrt)
/// exp, log (natural), log2, log10.
WP_FLOAT_UNARY(exp)
WP_FLOAT_UNARY(log)
WP_FLOAT_UNARY(log2)
WP_FLOAT_UNARY(log10)
/// sin, cos, tan, asin, acos, atan (radians), sinh, cosh, tanh.
WP_FLOAT_UNARY(sin)
WP_FLOAT_UNARY(cos)
WP_FLOAT_UNARY(tan)
/// asin and acos take x clamped to [-1, 1] as Warp's do (a value rounded just past +-1 gives
/// the end of the range, not NaN); NaN stays NaN.
#define WP_CLAMPED_UNARY(name)                                             \
    CUDA_CALLABLE float name(float x) {                                    \
        return WP_CMATH(name##f)(x < -1.0f ? -1.0f : x > 1.0f ? 1.0f : x); \
    }                                                                      \
    CUDA_CALLABLE double name(double x) {                                  \
        return WP_CMATH(name)(x < -1.0 ? -1.0 : x > 1.0 ? 1.0 : x);        \
    }                                                                      \
    CUDA_CALLABLE half name(half x) { return half(name(float(x))); }       \
    CUDA_CALLABLE bfloat16 name(bfloat16 x) { return bfloat16(name(float(x))); }
WP_CLAMPED_UNARY(asin)
WP_CLAMPED_UNARY(acos)
#undef WP_CLAMPED_UNARY
WP_FLOAT_UNARY(atan)
WP_FLOAT_UNARY(sinh)
WP_FLOAT_UNARY(cosh)
WP_FLOAT_UNARY(tanh)
/// pow(a, b) = a^b (C pow rules); atan2(y, x): the angle of the point (x, y), in [-pi, pi].
WP_FLOAT_BINARY(pow)
WP_FLOAT_BINARY(atan2)

#undef WP_FLOAT_UNARY
#undef WP_FLOAT_BINARY

/// degrees(x) = x * 180/pi; radians(x) = x * pi/180.
CUDA_CALLABLE float degrees(float x) { return x * 57.295779513082320876f; }
CUDA_CALLABLE double degrees(double x) { return x * 57.295779513082320876; }
CUDA_CALLABLE half degrees(half x) { return half(degrees(float(x))); }
CUDA_CALLABLE bfloat16 degrees(bfloat16 x) { return bfloat16(degrees(float(x))); }
CUDA_CALLABLE float radians(float x) { return x * 0.017453292519943295769f; }
CUDA_CALLABLE double radians(double x) { return x * 0.017453292519943295769; }
CUDA_CALLABLE half radians(half x) { return half(radians(float(x))); }
CUDA_CALLABLE bfloat16 radians(bfloat16 x) { return bfloat16(radians(float(x))); }

// ---- adjoints (templates for float and double; 16-bit floats forward to float32) ------------
//
// Kinks and singular points: sqrt and cbrt give gradient 0 at x == 0 (not inf, which would
// turn 0 * inf into NaN in e.g. length(v) at v == 0); asin/acos give 0 at |x| >= 1; atan2 gives
// 0 at the origin; pow gives no gradient to the base when b == 0 and none to the exponent when
// a <= 0 (log(a) undefined). log/log2/log10 at 0 give +-inf as the math says.

/// adj_sqrt: 1/(2 sqrt(x)); 0 at x == 0.
template <typename T>
CUDA_CALLABLE void adj_sqrt(T x, T& adj_x, T adj_ret) {
    if (x != T(0)) adj_x += T(0.5) / sqrt(x) * adj_ret;
}
/// adj_cbrt: 1/(3 cbrt(x)^2); 0 at x == 0.
template <typename T>
CUDA_CALLABLE void adj_cbrt(T x, T& adj_x, T adj_ret) {
    if (x != T(0)) {
        const T c = cbrt(x);
        adj_x += adj_ret / (T(3) * c * c);
    }
}
/// adj_exp: exp(x).
template <typename T>
CUDA_CALLABLE void adj_exp(T x, T& adj_x, T adj_ret) {
    adj_x += exp(x) * adj_ret;
}
/// adj_log: 1/x; adj_log2: 1/(x ln 2); adj_log10: 1/(x ln 10).
template <typename T>
CUDA_CALLABLE void adj_log(T x, T& adj_x, T adj_ret) {
    adj_x += adj_ret / x;
}
template <typename T>
CUDA_CALLABLE void adj_log2(T x, T& adj_x, T adj_ret) {
    adj_x += adj_ret / (x * T(0.69314718055994530942));
}
template <typename T>
CUDA_CALLABLE void adj_log10(T x, T& adj_x, T adj_ret) {
    adj_x += adj_ret / (x * T(2.30258509299404568402));
}
/// adj_pow: d/da = b a^(b-1) (0 when b == 0), d/db = a^b ln(a) (0 when a <= 0).
/// Integer pow has no gradient.
template <typename T>
CUDA_CALLABLE void adj_pow(T a, T b, T& adj_a, T& adj_b, T adj_ret) {
    if constexpr (!is_int_v<T>) {
        if (b != T(0)) adj_a += b * pow(a, b - T(1)) * adj_ret;
        if (a > T(0)) adj_b += pow(a, b) * log(a) * adj_ret;
    }
}
/// adj_sin: cos(x); adj_cos: -sin(x); adj_tan: 1/cos(x)^2.
template <typename T>
CUDA_CALLABLE void adj_sin(T x, T& adj_x, T adj_ret) {
    adj_x += cos(x) * adj_ret;
}
template <typename T>
CUDA_CALLABLE void adj_cos(T x, T& adj_x, T adj_ret) {
    adj_x -= sin(x) * adj_ret;
}
template <typename T>
CUDA_CALLABLE void adj_tan(T x, T& adj_x, T adj_ret) {
    const T c = cos(x);
    adj_x += adj_ret / (c * c);
}
/// adj_asin: 1/sqrt(1-x^2); adj_acos: -1/sqrt(1-x^2); both 0 at |x| >= 1.
template <typename T>
CUDA_CALLABLE void adj_asin(T x, T& adj_x, T adj_ret) {
    const T d = T(1) - x * x;
    if (d > T(0)) adj_x += adj_ret / sqrt(d);
}
template <typename T>
CUDA_CALLABLE void adj_acos(T x, T& adj_x, T adj_ret) {
    const T d = T(1) - x * x;
    if (d > T(0)) adj_x -= adj_ret / sqrt(d);
}
/// adj_atan: 1/(1+x^2).
template <typename T>
CUDA_CALLABLE void adj_atan(T x, T& adj_x, T adj_ret) {
    adj_x += adj_ret / (T(1) + x * x);
}
/// adj_atan2(y, x): d/dy = x/(x^2+y^2), d/dx = -y/(x^2+y^2); 0 at the origin.
template <typename T>
CUDA_CALLABLE void adj_atan2(T y, T x, T& adj_y, T& adj_x, T adj_ret) {
    const T r = x * x + y * y;
    if (r > T(0)) {
        adj_y += x / r * adj_ret;
        adj_x -= y / r * adj_ret;
    }
}
/// adj_sinh: cosh(x); adj_cosh: sinh(x); adj_tanh: 1 - tanh(x)^2.
template <typename T>
CUDA_CALLABLE void adj_sinh(T x, T& adj_x, T adj_ret) {
    adj_x += cosh(x) * adj_ret;
}
template <typename T>
CUDA_CALLABLE void adj_cosh(T x, T& adj_x, T adj_ret) {
    adj_x += sinh(x) * adj_ret;
}
template <typename T>
CUDA_CALLABLE void adj_tanh(T x, T& adj_x, T adj_ret) {
    const T t = tanh(x);
    adj_x += (T(1) - t * t) * adj_ret;
}
/// adj_degrees: 180/pi; adj_radians: pi/180.
template <typename T>
CUDA_CALLABLE void adj_degrees(T, T& adj_x, T adj_ret) {
    adj_x += T(57.295779513082320876) * adj_ret;
}
template <typename T>
CUDA_CALLABLE void adj_radians(T, T& adj_x, T adj_ret) {
    adj_x += T(0.017453292519943295769) * adj_ret;
}

WP_NARROW_ADJ1(sqrt)
WP_NARROW_ADJ1(cbrt)
WP_NARROW_ADJ1(exp)
WP_NARROW_ADJ1(log)
WP_NARROW_ADJ1(log2)
WP_NARROW_ADJ1(log10)
WP_NARROW_ADJ2(pow)
WP_NARROW_ADJ1(sin)
WP_NARROW_ADJ1(cos)
WP_NARROW_ADJ1(tan)
WP_NARROW_ADJ1(asin)
WP_NARROW_ADJ1(acos)
WP_NARROW_ADJ1(atan)
WP_NARROW_ADJ2(atan2)
WP_NARROW_ADJ1(sinh)
WP_NARROW_ADJ1(cosh)
WP_NARROW_ADJ1(tanh)
WP_NARROW_ADJ1(degrees)
WP_NARROW_ADJ1(radians)

/// div_approx(a, b): a / b with the fast approximate quotient (__fdividef) for float32 scalars
/// on CUDA devices, the exact one elsewhere (vectors, matrices and quaternions divide exactly).
template <typename A, typename B>
CUDA_CALLABLE auto div_approx(const A& a, const B& b) -> decltype(div(a, b)) {
    return div(a, b);
}
CUDA_CALLABLE float32 div_approx(float32 a, float32 b) {
#if defined(__CUDA_ARCH__)
    return __fdividef(a, b);
#else
    return a / b;
#endif
}
/// adj_div_approx: the adjoint of the exact quotient.
template <typename A, typename B, typename R>
CUDA_CALLABLE void adj_div_approx(const A& a, const B& b, A& adj_a, B& adj_b, const R& adj_ret) {
    adj_div(a, b, adj_a, adj_b, adj_ret);
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
