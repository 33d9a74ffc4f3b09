// native/treadle/scalar.h -- scalar arithmetic, bitwise, min/max/rounding builtins and adjoints
//
// Builtins take operands of one type T (the code generator inserts cast<> where needed), so
// most are templates over T. Integer arithmetic wraps modulo 2^bits and never traps: division
// and modulo by zero give 0. float16 and bfloat16 are computed in float32 and rounded back.
//
// Adjoint convention: adj_f(inputs..., adj_inputs&..., adj_ret) adds (+=) the gradient of each
// input to its adjoint. Integer inputs carry no gradient: every adjoint is a no-op for them.
// The transcendental functions live in scalar_math.h, included at the end of this file.
#pragma once

#include "core.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

// ---- arithmetic -----------------------------------------------------------------------------

/// add/sub/mul/neg/pos: + - * unary- unary+. Integers wrap modulo 2^bits (no UB).
template <typename T>
CUDA_CALLABLE T add(T a, T b) {
    if constexpr (is_int_v<T>) {
        return T(unsigned_t<T>(a) + unsigned_t<T>(b));
    } else {
        return a + b;
    }
}
template <typename T>
CUDA_CALLABLE T sub(T a, T b) {
    if constexpr (is_int_v<T>) {
        return T(unsigned_t<T>(a) - unsigned_t<T>(b));
    } else {
        return a - b;
    }
}
template <typename T>
CUDA_CALLABLE T mul(T a, T b) {
    if constexpr (is_int_v<T>) {
        // uint16 * uint16 would promote to (signed) int and could overflow: widen first.
        return T(uint64(unsigned_t<T>(a)) * uint64(unsigned_t<T>(b)));
    } else {
        return a * b;
    }
}
template <typename T>
CUDA_CALLABLE T neg(T a) {
    if constexpr (is_int_v<T>) {
        return T(unsigned_t<T>(0) - unsigned_t<T>(a));
    } else {
        return -a;
    }
}
template <typename T>
CUDA_CALLABLE T pos(T a) {
    return a;
}

/// div: integers truncate toward zero (C rules); x / 0 == 0 and MIN / -1 == MIN (wraps).
/// Floats: IEEE division (x / 0 is +-inf or NaN).
template <typename T>
CUDA_CALLABLE T div(T a, T b) {
    if constexpr (is_int_v<T>) {
        if (b == T(0)) return T(0);
        if constexpr (is_signed_int_v<T>) {
            if (b == T(-1)) return neg(a);
        }
        return T(a / b);
    } else {
        return a / b;
    }
}

/// mod: integers take the sign of the dividend (C %); x % 0 == 0. Floats: fmod.
template <typename T>
CUDA_CALLABLE T mod(T a, T b) {
    if constexpr (is_int_v<T>) {
        if (b == T(0)) return T(0);
        if constexpr (is_signed_int_v<T>) {
            if (b == T(-1)) return T(0);
        }
        return T(a % b);
    } else if constexpr (is_same_v<T, float>) {
        return WP_CMATH(fmodf)(a, b);
    } else if constexpr (is_same_v<T, double>) {
        return WP_CMATH(fmod)(a, b);
    } else {
        return T(WP_CMATH(fmodf)(float(a), float(b)));
    }
}

/// floor(x): largest integral value <= x (float types only); also used by floordiv.
CUDA_CALLABLE float floor(float x) { return WP_CMATH(floorf)(x); }
CUDA_CALLABLE double floor(double x) { return WP_CMATH(floor)(x); }
CUDA_CALLABLE half floor(half x) { return half(WP_CMATH(floorf)(float(x))); }
CUDA_CALLABLE bfloat16 floor(bfloat16 x) { return bfloat16(WP_CMATH(floorf)(float(x))); }

/// floordiv (Python //): for integers the same as div (Warp's rule: truncation, not floor);
/// for floats floor(a / b).
template <typename T>
CUDA_CALLABLE T floordiv(T a, T b) {
    if constexpr (is_int_v<T>) {
        return div(a, b);
    } else {
        return floor(a / b);
    }
}

/// pow for integers: exponentiation by squaring, wrapping. A negative exponent gives the
/// truncated result: 1 for a == 1, +-1 for a == -1, 0 otherwise. (Float pow: scalar_math.h.)
template <typename T>
CUDA_CALLABLE T pow(T a, T b) {
    static_assert(is_int_v<T>, "pow() takes two numbers of one type");
    if constexpr (is_signed_int_v<T>) {
        if (b < T(0)) {
            if (a == T(1)) return T(1);
            if (a == T(-1)) return (b & T(1)) ? T(-1) : T(1);
            return T(0);
        }
    }
    T result = T(1);
    unsigned_t<T> e = unsigned_t<T>(b);
    while (e) {
        if (e & 1u) result = mul(result, a);
        a = mul(a, a);
        e = unsigned_t<T>(e >> 1);
    }
    return result;
}

// ---- bitwise (integers; bit_and/bit_or/bit_xor also accept bool) ----------------------------

/// bit_and/bit_or/bit_xor: & | ^.
template <typename T>
CUDA_CALLABLE T bit_and(T a, T b) {
    return T(a & b);
}
template <typename T>
CUDA_CALLABLE T bit_or(T a, T b) {
    return T(a | b);
}
template <typename T>
CUDA_CALLABLE T bit_xor(T a, T b) {
    return T(a ^ b);
}
/// invert: ~a.
template <typename T>
CUDA_CALLABLE T invert(T a) {
    static_assert(is_int_v<T>, "invert() takes an integer");
    return T(~a);
}
/// lshift/rshift: the shift count is taken modulo the bit width of T (so it is always
/// defined). lshift wraps; rshift is arithmetic for signed T and logical for unsigned T.
template <typename T>
CUDA_CALLABLE T lshift(T a, T b) {
    static_assert(is_int_v<T>, "lshift() takes integers");
    const unsigned n = unsigned(b) & unsigned(sizeof(T) * 8 - 1);
    return T(unsigned_t<T>(unsigned_t<T>(a) << n));
}
template <typename T>
CUDA_CALLABLE T rshift(T a, T b) {
    static_assert(is_int_v<T>, "rshift() takes integers");
    const unsigned n = unsigned(b) & unsigned(sizeof(T) * 8 - 1);
    return T(a >> n);
}

// ---- abs / sign / min / max / clamp (every int and float type) ------------------------------

/// abs: |x|. abs(MIN) of a signed integer wraps to MIN; float abs clears the sign bit.
template <typename T>
CUDA_CALLABLE T abs(T x) {
    if constexpr (is_same_v<T, float>) {
        return WP_CMATH(fabsf)(x);
    } else if constexpr (is_same_v<T, double>) {
        return WP_CMATH(fabs)(x);
    } else if constexpr (is_narrow_float_v<T>) {
        return T::from_bits(uint16(x.bits & 0x7fffu));
    } else if constexpr (is_signed_int_v<T>) {
        return x < T(0) ? neg(x) : x;
    } else {
        return x;
    }
}

/// sign: -1 for x < 0, else +1 (so sign(0) == sign(-0.0) == sign(NaN) == 1).
template <typename T>
CUDA_CALLABLE T sign(T x) {
    if constexpr (is_int_v<T> && !is_signed_int_v<T>) {
        return T(1);
    } else {
        return x < T(0) ? T(-1) : T(1);
    }
}

/// min/max: C's fmin/fmax for floats, as Warp: a NaN argument counts as missing (the other
/// is returned; NaN only when both are). On ties the first argument is returned.
template <typename T>
CUDA_CALLABLE T min(T a, T b) {
    if (!(a == a)) return b;  // a is NaN (never for integers)
    return b < a ? b : a;
}
template <typename T>
CUDA_CALLABLE T max(T a, T b) {
    if (!(a == a)) return b;
    return a < b ? b : a;
}
/// clamp(x, lo, hi) = min(max(x, lo), hi); hi wins if lo > hi.
template <typename T>
CUDA_CALLABLE T clamp(T x, T lo, T hi) {
    return min(max(x, lo), hi);
}

// ---- rounding (float types) -----------------------------------------------------------------

/// ceil/trunc: round up / toward zero. round: nearest, halves away from zero.
/// rint: nearest, halves to even.
CUDA_CALLABLE float ceil(float x) { return WP_CMATH(ceilf)(x); }
CUDA_CALLABLE double ceil(double x) { return WP_CMATH(ceil)(x); }
CUDA_CALLABLE float trunc(float x) { return WP_CMATH(truncf)(x); }
CUDA_CALLABLE double trunc(double x) { return WP_CMATH(trunc)(x); }
CUDA_CALLABLE float round(float x) { return WP_CMATH(roundf)(x); }
CUDA_CALLABLE double round(double x) { return WP_CMATH(round)(x); }
CUDA_CALLABLE float rint(float x) { return WP_CMATH(rintf)(x); }
CUDA_CALLABLE double rint(double x) { return WP_CMATH(rint)(x); }
/// The 16-bit floats round in float (exact: every 16-bit float is a float).
#define WP_NARROW_ROUNDING(T)                                            \
    CUDA_CALLABLE T ceil(T x) { return T(WP_CMATH(ceilf)(float(x))); }   \
    CUDA_CALLABLE T trunc(T x) { return T(WP_CMATH(truncf)(float(x))); } \
    CUDA_CALLABLE T round(T x) { return T(WP_CMATH(roundf)(float(x))); } \
    CUDA_CALLABLE T rint(T x) { return T(WP_CMATH(rintf)(float(x))); }
WP_NARROW_ROUNDING(half)
WP_NARROW_ROUNDING(bfloat16)
#undef WP_NARROW_ROUNDING

// ---- classification: computed from the bits (immune to -ffast-math) -------------------------

/// isnan/isinf/isfinite; for integer types these are false / false / true.
CUDA_CALLABLE bool isnan(float x) { return (float_bits(x) & 0x7fffffffu) > 0x7f800000u; }
CUDA_CALLABLE bool isnan(double x) {
    return (double_bits(x) & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}
CUDA_CALLABLE bool isnan(half x) { return (x.bits & 0x7fffu) > 0x7c00u; }
CUDA_CALLABLE bool isinf(float x) { return (float_bits(x) & 0x7fffffffu) == 0x7f800000u; }
CUDA_CALLABLE bool isinf(double x) {
    return (double_bits(x) & 0x7fffffffffffffffull) == 0x7ff0000000000000ull;
}
CUDA_CALLABLE bool isinf(half x) { return (x.bits & 0x7fffu) == 0x7c00u; }
CUDA_CALLABLE bool isfinite(float x) { return (float_bits(x) & 0x7f800000u) != 0x7f800000u; }
CUDA_CALLABLE bool isfinite(double x) {
    return (double_bits(x) & 0x7ff0000000000000ull) != 0x7ff0000000000000ull;
}
CUDA_CALLABLE bool isfinite(half x) { return (x.bits & 0x7c00u) != 0x7c00u; }
CUDA_CALLABLE bool isnan(bfloat16 x) { return (x.bits & 0x7fffu) > 0x7f80u; }
CUDA_CALLABLE bool isinf(bfloat16 x) { return (x.bits & 0x7fffu) == 0x7f80u; }
CUDA_CALLABLE bool isfinite(bfloat16 x) { return (x.bits & 0x7f80u) != 0x7f80u; }
template <typename T>
CUDA_CALLABLE bool isnan(T) {
    static_assert(is_int_v<T>, "isnan() takes a number");
    return false;
}
template <typename T>
CUDA_CALLABLE bool isinf(T) {
    static_assert(is_int_v<T>, "isinf() takes a number");
    return false;
}
template <typename T>
CUDA_CALLABLE bool isfinite(T) {
    static_assert(is_int_v<T>, "isfinite() takes a number");
    return true;
}

// ---- adjoints -------------------------------------------------------------------------------
//
// The templates below are for float and double (and are no-ops for integers); float16 and
// bfloat16 use the non-template overloads generated by WP_NARROW_ADJ*, which run the float32
// adjoint and round the accumulated sum once.

/// Forward the adjoint of a 1/2/3-input builtin on 16-bit floats T to its float32 adjoint.
#define WP_NARROW_ADJ1_T(T, f)                             \
    CUDA_CALLABLE void adj_##f(T x, T& adj_x, T adj_ret) { \
        float gx = 0.0f;                                   \
        adj_##f(float(x), gx, float(adj_ret));             \
        adj_x = T(float(adj_x) + gx);                      \
    }
#define WP_NARROW_ADJ2_T(T, f)                                            \
    CUDA_CALLABLE void adj_##f(T a, T b, T& adj_a, T& adj_b, T adj_ret) { \
        float ga = 0.0f, gb = 0.0f;                                       \
        adj_##f(float(a), float(b), ga, gb, float(adj_ret));              \
        adj_a = T(float(adj_a) + ga);                                     \
        adj_b = T(float(adj_b) + gb);                                     \
    }
#define WP_NARROW_ADJ3_T(T, f)                                                           \
    CUDA_CALLABLE void adj_##f(T a, T b, T c, T& adj_a, T& adj_b, T& adj_c, T adj_ret) { \
        float ga = 0.0f, gb = 0.0f, gc = 0.0f;                                           \
        adj_##f(float(a), float(b), float(c), ga, gb, gc, float(adj_ret));               \
        adj_a = T(float(adj_a) + ga);                                                    \
        adj_b = T(float(adj_b) + gb);                                                    \
        adj_c = T(float(adj_c) + gc);                                                    \
    }
/// The same for float16 and bfloat16 at once.
#define WP_NARROW_ADJ1(f) WP_NARROW_ADJ1_T(half, f) WP_NARROW_ADJ1_T(bfloat16, f)
#define WP_NARROW_ADJ2(f) WP_NARROW_ADJ2_T(half, f) WP_NARROW_ADJ2_T(bfloat16, f)
#define WP_NARROW_ADJ3(f) WP_NARROW_ADJ3_T(half, f) WP_NARROW_ADJ3_T(bfloat16, f)

/// adj_add/adj_sub/adj_mul/adj_neg/adj_pos: the usual linear rules.
template <typename T>
CUDA_CALLABLE void adj_add(T, T, T& adj_a, T& adj_b, T adj_ret) {
    if constexpr (!is_int_v<T>) {
        // add() rather than +=: a struct (a tile's element) has add() and no operators
        adj_a = add(adj_a, adj_ret);
        adj_b = add(adj_b, adj_ret);
    }
}
template <typename T>
CUDA_CALLABLE void adj_sub(T, T, T& adj_a, T& adj_b, T adj_ret) {
    if constexpr (!is_int_v<T>) {
        adj_a = add(adj_a, adj_ret);
        adj_b = sub(adj_b, adj_ret);
    }
}
template <typename T>
CUDA_CALLABLE void adj_mul(T a, T b, T& adj_a, T& adj_b, T adj_ret) {
    if constexpr (!is_int_v<T>) {
        adj_a += b * adj_ret;
        adj_b += a * adj_ret;
    }
}
template <typename T>
CUDA_CALLABLE void adj_neg(T, T& adj_a, T adj_ret) {
    if constexpr (!is_int_v<T>) adj_a -= adj_ret;
}
template <typename T>
CUDA_CALLABLE void adj_pos(T, T& adj_a, T adj_ret) {
    if constexpr (!is_int_v<T>) adj_a += adj_ret;
}

/// adj_div: d(a/b) = da/b - (a/b)/b db.
template <typename T>
CUDA_CALLABLE void adj_div(T a, T b, T& adj_a, T& adj_b, T adj_ret) {
    if constexpr (!is_int_v<T>) {
        adj_a += adj_ret / b;
        adj_b -= (a / b) / b * adj_ret;
    }
}
/// adj_mod: Warp's rule for fmod(a, b) = a - trunc(a/b) b: da passes through and b gets no
/// gradient (the -trunc(a/b) term is left out, as Warp leaves it out).
template <typename T>
CUDA_CALLABLE void adj_mod(T, T, T& adj_a, T&, T adj_ret) {
    if constexpr (!is_int_v<T>) adj_a += adj_ret;
}
/// adj_floordiv: piecewise constant, zero gradient.
template <typename T>
CUDA_CALLABLE void adj_floordiv(T, T, T&, T&, T) {}

/// adj_abs: -1 for x < 0, else +1 (so the subgradient at 0 is +1, as in Warp).
template <typename T>
CUDA_CALLABLE void adj_abs(T x, T& adj_x, T adj_ret) {
    if constexpr (!is_int_v<T>) {
        if (x < T(0)) {
            adj_x -= adj_ret;
        } else {
            adj_x += adj_ret;
        }
    }
}
/// adj_sign, adj_floor, adj_ceil, adj_round, adj_rint, adj_trunc: zero gradient.
template <typename T>
CUDA_CALLABLE void adj_sign(T, T&, T) {}
template <typename T>
CUDA_CALLABLE void adj_floor(T, T&, T) {}
template <typename T>
CUDA_CALLABLE void adj_ceil(T, T&, T) {}
template <typename T>
CUDA_CALLABLE void adj_round(T, T&, T) {}
template <typename T>
CUDA_CALLABLE void adj_rint(T, T&, T) {}
template <typename T>
CUDA_CALLABLE void adj_trunc(T, T&, T) {}

/// adj_min/adj_max: the gradient goes to the argument that was returned (the first on ties,
/// the other one when an argument is NaN).
template <typename T>
CUDA_CALLABLE void adj_min(T a, T b, T& adj_a, T& adj_b, T adj_ret) {
    if constexpr (!is_int_v<T>) {
        if (!(a == a) || b < a) {
            adj_b += adj_ret;
        } else {
            adj_a += adj_ret;
        }
    }
}
template <typename T>
CUDA_CALLABLE void adj_max(T a, T b, T& adj_a, T& adj_b, T adj_ret) {
    if constexpr (!is_int_v<T>) {
        if (!(a == a) || a < b) {
            adj_b += adj_ret;
        } else {
            adj_a += adj_ret;
        }
    }
}
/// adj_clamp: to x when lo <= x <= hi, else to the bound that was returned (lo when x < lo,
/// hi when x > hi; hi when lo > hi and hi was returned).
template <typename T>
CUDA_CALLABLE void adj_clamp(T x, T lo, T hi, T& adj_x, T& adj_lo, T& adj_hi, T adj_ret) {
    if constexpr (!is_int_v<T>) {
        const bool below = !(x == x) || x < lo;  // max(x, lo): lo for a NaN x
        const T m = below ? lo : x;
        if (hi < m) {
            adj_hi += adj_ret;
        } else if (below) {
            adj_lo += adj_ret;
        } else {
            adj_x += adj_ret;
        }
    }
}

WP_NARROW_ADJ2(mul)
WP_NARROW_ADJ2(div)
WP_NARROW_ADJ2(mod)

/// Adjoints of the integer-only builtins and the classifiers: no-ops, present so that
/// generated backward code can call adj_f for every f uniformly.
template <typename T>
CUDA_CALLABLE void adj_bit_and(T, T, T&, T&, T) {}
template <typename T>
CUDA_CALLABLE void adj_bit_or(T, T, T&, T&, T) {}
template <typename T>
CUDA_CALLABLE void adj_bit_xor(T, T, T&, T&, T) {}
template <typename T>
CUDA_CALLABLE void adj_lshift(T, T, T&, T&, T) {}
template <typename T>
CUDA_CALLABLE void adj_rshift(T, T, T&, T&, T) {}
template <typename T>
CUDA_CALLABLE void adj_invert(T, T&, T) {}
template <typename T>
CUDA_CALLABLE void adj_isnan(T, T&, bool) {}
template <typename T>
CUDA_CALLABLE void adj_isinf(T, T&, bool) {}
template <typename T>
CUDA_CALLABLE void adj_isfinite(T, T&, bool) {}

/// adj_cast<To>(x, adj_x, adj_ret): float -> float casts pass the gradient through (converted
/// back to From); any cast from or to an integer or bool has zero gradient.
template <typename To, typename From>
CUDA_CALLABLE void adj_cast(From, From& adj_x, To adj_ret) {
    if constexpr (is_float_v<To> && is_float_v<From>) {
        adj_x += cast<From>(adj_ret);
    }
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif

#include "scalar_math.h"
#include "scalar_special.h"
