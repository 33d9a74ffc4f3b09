// native/treadle/core.h -- base macros, fixed-width scalar types, float16, bfloat16 and cast<>
//
// Every header of this library compiles three ways: with g++ for the CPU back end, with nvcc,
// and with NVRTC, where no host header exists at all. Nothing here includes a system header;
// the CPU back end uses GCC builtins (__builtin_sqrtf, ...) so <cmath> is never needed.
#pragma once

/// CUDA_CALLABLE: every library function (host and device under CUDA, plain inline on the CPU);
/// CUDA_CALLABLE_DEVICE: functions only device code may call.
#if defined(__CUDACC__)
#define CUDA_CALLABLE __host__ __device__ inline
#define CUDA_CALLABLE_DEVICE __device__ inline
#else
#define CUDA_CALLABLE inline
#define CUDA_CALLABLE_DEVICE inline
#endif

/// WP_DEVICE_CODE is 1 while compiling code that runs on the GPU (NVRTC, or nvcc's device pass).
#if defined(__CUDA_ARCH__)
#define WP_DEVICE_CODE 1
#else
#define WP_DEVICE_CODE 0
#endif

/// WP_CMATH(f): the C math function f for the back end being compiled: the CUDA math library
/// function ::f under nvcc/NVRTC, the GCC builtin __builtin_f (a libm call or inline code) on
/// the CPU. WP_CMATH(sqrtf)(x) is sqrtf(x) without including <cmath>.
#if defined(__CUDACC__)
#define WP_CMATH(f) ::f
#else
#define WP_CMATH(f) __builtin_##f
#endif

/// WP_EXPORT: put before a kernel entry point so the host can find it by name (dlsym on the
/// CPU, cuModuleGetFunction on CUDA).
#if defined(__CUDACC__)
#define WP_EXPORT extern "C"
#else
#define WP_EXPORT extern "C" __attribute__((visibility("default")))
#endif

// On the CPU every wp:: symbol is hidden: each kernel module (.so) keeps private copies of the
// header's inline functions and globals, and never shares them with another module through
// symbol interposition or GNU "unique" symbols (which would also make dlclose a no-op).
#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

/// Fixed-width scalar types; int64 is `long long` on every back end (matches CUDA's atomics).
using int8 = signed char;
using uint8 = unsigned char;
using int16 = short;
using uint16 = unsigned short;
using int32 = int;
using uint32 = unsigned int;
using int64 = long long;
using uint64 = unsigned long long;
using float32 = float;
using float64 = double;

static_assert(sizeof(int64) == 8 && sizeof(void*) == 8, "treadle kernels need a 64-bit target");

// ---- minimal type traits (no <type_traits> under NVRTC) -------------------------------------

/// is_same_v<A, B>: whether A and B are the same type.
template <typename A, typename B>
inline constexpr bool is_same_v = false;
template <typename A>
inline constexpr bool is_same_v<A, A> = true;

/// enable_if_t<B, T>: T when B holds, else no type (takes an overload out of the running).
template <bool B, typename T = void>
struct enable_if {};
template <typename T>
struct enable_if<true, T> {
    using type = T;
};
template <bool B, typename T = void>
using enable_if_t = typename enable_if<B, T>::type;

template <typename T>
struct type_identity {
    using type = T;
};
/// type_identity_t<T> in a parameter keeps that parameter out of template deduction.
template <typename T>
using type_identity_t = typename type_identity<T>::type;

struct half;      // float16, defined below
struct bfloat16;  // bfloat16, defined below

/// is_int_v<T>: the eight integer types (not bool). is_signed_int_v: the four signed ones.
template <typename T>
inline constexpr bool is_int_v =
    is_same_v<T, int8> || is_same_v<T, uint8> || is_same_v<T, int16> || is_same_v<T, uint16> ||
    is_same_v<T, int32> || is_same_v<T, uint32> || is_same_v<T, int64> || is_same_v<T, uint64>;
template <typename T>
inline constexpr bool is_signed_int_v =
    is_same_v<T, int8> || is_same_v<T, int16> || is_same_v<T, int32> || is_same_v<T, int64>;
/// is_narrow_float_v<T>: the 16-bit floats (half, bfloat16), stored as bits and computed in
/// float. is_float_v<T>: those, float and double.
template <typename T>
inline constexpr bool is_narrow_float_v = is_same_v<T, half> || is_same_v<T, bfloat16>;
template <typename T>
inline constexpr bool is_float_v =
    is_narrow_float_v<T> || is_same_v<T, float> || is_same_v<T, double>;

/// is_number_v<T>: a scalar a vector or matrix can be filled with (bool, integers, floats).
template <typename T>
inline constexpr bool is_number_v = is_int_v<T> || is_float_v<T> || is_same_v<T, bool>;

/// uint_of_size_t<N>: the unsigned integer of N bytes (1, 2, 4, 8).
template <int N>
struct uint_of_size;
template <>
struct uint_of_size<1> {
    using type = uint8;
};
template <>
struct uint_of_size<2> {
    using type = uint16;
};
template <>
struct uint_of_size<4> {
    using type = uint32;
};
template <>
struct uint_of_size<8> {
    using type = uint64;
};
template <int N>
using uint_of_size_t = typename uint_of_size<N>::type;
/// unsigned_t<T>: the unsigned type of T's size (used for wrapping integer arithmetic).
template <typename T>
using unsigned_t = uint_of_size_t<int(sizeof(T))>;

// ---- bit casts ------------------------------------------------------------------------------

/// Reinterpret the bits of a float/double as an unsigned integer and back.
CUDA_CALLABLE uint32 float_bits(float x) {
#if WP_DEVICE_CODE
    return __float_as_uint(x);
#else
    uint32 u;
    __builtin_memcpy(&u, &x, 4);
    return u;
#endif
}
CUDA_CALLABLE float bits_float(uint32 u) {
#if WP_DEVICE_CODE
    return __uint_as_float(u);
#else
    float x;
    __builtin_memcpy(&x, &u, 4);
    return x;
#endif
}
CUDA_CALLABLE uint64 double_bits(double x) {
#if WP_DEVICE_CODE
    return uint64(__double_as_longlong(x));
#else
    uint64 u;
    __builtin_memcpy(&u, &x, 8);
    return u;
#endif
}
CUDA_CALLABLE double bits_double(uint64 u) {
#if WP_DEVICE_CODE
    return __longlong_as_double(int64(u));
#else
    double x;
    __builtin_memcpy(&x, &u, 8);
    return x;
#endif
}

/// wp.cast(s, T): the bytes of `s` read as a T (the compiler checks that the sizes match).
template <typename T, typename S>
CUDA_CALLABLE T bit_cast(const S& s) {
    static_assert(sizeof(T) == sizeof(S), "bit_cast needs types of one size");
    T t;
    const unsigned char* from = reinterpret_cast<const unsigned char*>(&s);
    unsigned char* to = reinterpret_cast<unsigned char*>(&t);
    for (unsigned i = 0; i < sizeof(T); ++i) to[i] = from[i];
    return t;
}

/// NaN and +infinity as float64: the code generator's spelling of those constants (NVRTC folds
/// `(0.0 / 0.0) == (0.0 / 0.0)` to true, and has no __builtin_nan).
CUDA_CALLABLE double nan_f64() { return bits_double(0x7ff8000000000000ull); }
CUDA_CALLABLE double inf_f64() { return bits_double(0x7ff0000000000000ull); }

// ---- float16 --------------------------------------------------------------------------------

/// IEEE binary16 bits from a float, rounded to nearest even; subnormals, infinities and NaN
/// (kept quiet, top payload bits preserved) are handled exactly.
CUDA_CALLABLE uint16 float_to_half_bits(float f) {
#if WP_DEVICE_CODE
    uint16 h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
#else
    const uint32 x = float_bits(f);
    const uint32 sign = (x >> 16) & 0x8000u;
    const uint32 ax = x & 0x7fffffffu;
    if (ax >= 0x7f800000u) {  // inf or NaN
        return uint16(sign | (ax > 0x7f800000u ? 0x7e00u | ((ax >> 13) & 0x3ffu) : 0x7c00u));
    }
    if (ax >= 0x477ff000u) return uint16(sign | 0x7c00u);  // >= 65520 rounds to inf
    if (ax >= 0x38800000u) {                               // normal half: >= 2^-14
        uint32 m = ax - 0x38000000u;                       // rebias the exponent 127 -> 15
        m += 0x0fffu + ((m >> 13) & 1u);                   // round to nearest even
        return uint16(sign | (m >> 13));
    }
    if (ax < 0x33000000u) return uint16(sign);  // < 2^-25: rounds to (signed) zero
    // Subnormal half: the result is round(|f| * 2^24) in units of 2^-24.
    const uint32 e = ax >> 23;
    const uint32 mant = (ax & 0x7fffffu) | 0x800000u;
    const uint32 shift = 126u - e;  // 14..24
    uint32 r = mant >> shift;
    const uint32 rem = mant & ((1u << shift) - 1u);
    const uint32 halfway = 1u << (shift - 1u);
    if (rem > halfway || (rem == halfway && (r & 1u))) ++r;
    return uint16(sign | r);
#endif
}

/// IEEE binary16 bits from a double, rounded once (no double rounding through float).
CUDA_CALLABLE uint16 double_to_half_bits(double d) {
#if WP_DEVICE_CODE
    uint16 h;
    asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(d));
    return h;
#else
    const uint64 x = double_bits(d);
    const uint32 sign = uint32(x >> 48) & 0x8000u;
    const uint64 ax = x & 0x7fffffffffffffffull;
    if (ax >= 0x7ff0000000000000ull) {
        return uint16(
            sign | (ax > 0x7ff0000000000000ull ? 0x7e00u | uint32((ax >> 42) & 0x3ffu) : 0x7c00u));
    }
    if (ax >= 0x40effe0000000000ull) return uint16(sign | 0x7c00u);  // >= 65520
    if (ax >= 0x3f10000000000000ull) {                               // >= 2^-14
        uint64 m = ax - 0x3f00000000000000ull;  // rebias the exponent 1023 -> 15
        m += 0x1ffffffffffull + ((m >> 42) & 1u);
        return uint16(sign | uint32(m >> 42));
    }
    if (ax < 0x3e60000000000000ull) return uint16(sign);  // < 2^-25
    const uint32 e = uint32(ax >> 52);
    const uint64 mant = (ax & 0xfffffffffffffull) | 0x10000000000000ull;
    const uint32 shift = 1051u - e;  // 43..53: value * 2^24 = mant * 2^(e - 1075 + 24)
    uint64 r = mant >> shift;
    const uint64 rem = mant & ((1ull << shift) - 1u);
    const uint64 halfway = 1ull << (shift - 1u);
    if (rem > halfway || (rem == halfway && (r & 1u))) ++r;
    return uint16(sign | uint32(r));
#endif
}

/// The float value of IEEE binary16 bits (exact).
CUDA_CALLABLE float half_bits_to_float(uint16 h) {
#if WP_DEVICE_CODE
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
#else
    const uint32 sign = uint32(h & 0x8000u) << 16;
    const uint32 e = (h >> 10) & 0x1fu;
    const uint32 m = h & 0x3ffu;
    if (e == 0x1fu) return bits_float(sign | 0x7f800000u | (m << 13));
    if (e != 0) return bits_float(sign | ((e + 112u) << 23) | (m << 13));
    const float v = float(m) * 5.9604644775390625e-8f;  // m * 2^-24, exact
    return sign ? -v : v;
#endif
}

/// float16: IEEE binary16 stored as its bits. Conversions are explicit; arithmetic and
/// comparisons are done in float and rounded back (correctly rounded for + - * /).
struct half {
    uint16 bits;

    half() = default;
    CUDA_CALLABLE explicit half(float f) : bits(float_to_half_bits(f)) {}
    CUDA_CALLABLE explicit half(double d) : bits(double_to_half_bits(d)) {}
    CUDA_CALLABLE explicit half(int32 i) : bits(float_to_half_bits(float(i))) {}
    CUDA_CALLABLE explicit operator float() const { return half_bits_to_float(bits); }
    CUDA_CALLABLE explicit operator double() const { return double(half_bits_to_float(bits)); }

    /// A half with the given bit pattern.
    CUDA_CALLABLE static half from_bits(uint16 b) {
        half h;
        h.bits = b;
        return h;
    }

    CUDA_CALLABLE half& operator+=(half o) { return *this = half(float(*this) + float(o)); }
    CUDA_CALLABLE half& operator-=(half o) { return *this = half(float(*this) - float(o)); }
    CUDA_CALLABLE half& operator*=(half o) { return *this = half(float(*this) * float(o)); }
    CUDA_CALLABLE half& operator/=(half o) { return *this = half(float(*this) / float(o)); }
};
/// float16 is the kernel-language name of half.
using float16 = half;
static_assert(sizeof(half) == 2, "float16 must be 2 bytes");

/// half arithmetic (+ - * / and unary - +) and comparisons, computed in float. Unary minus
/// flips the sign bit (exact, NaN stays NaN).
CUDA_CALLABLE half operator+(half a, half b) { return half(float(a) + float(b)); }
CUDA_CALLABLE half operator-(half a, half b) { return half(float(a) - float(b)); }
CUDA_CALLABLE half operator*(half a, half b) { return half(float(a) * float(b)); }
CUDA_CALLABLE half operator/(half a, half b) { return half(float(a) / float(b)); }
CUDA_CALLABLE half operator-(half a) { return half::from_bits(uint16(a.bits ^ 0x8000u)); }
CUDA_CALLABLE half operator+(half a) { return a; }
CUDA_CALLABLE bool operator==(half a, half b) { return float(a) == float(b); }
CUDA_CALLABLE bool operator!=(half a, half b) { return float(a) != float(b); }
CUDA_CALLABLE bool operator<(half a, half b) { return float(a) < float(b); }
CUDA_CALLABLE bool operator<=(half a, half b) { return float(a) <= float(b); }
CUDA_CALLABLE bool operator>(half a, half b) { return float(a) > float(b); }
CUDA_CALLABLE bool operator>=(half a, half b) { return float(a) >= float(b); }

// ---- bfloat16 -------------------------------------------------------------------------------
//
// bfloat16 is the top half of a float32 (sign, 8 exponent bits, 7 mantissa bits). The
// conversions are done on the bits on every back end, so CPU and CUDA results agree bit for bit.

/// bfloat16 bits from a float, rounded to nearest even (subnormals included: they share
/// float32's exponent range). A NaN stays a NaN: the quiet bit is set, so a signalling NaN whose
/// payload lies in the dropped bits does not become infinity.
CUDA_CALLABLE uint16 float_to_bfloat16_bits(float f) {
    const uint32 x = float_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return uint16((x >> 16) | 0x0040u);
    return uint16((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

/// bfloat16 bits from a double, rounded once: the double is first rounded to float by
/// round-to-odd (truncate, then set the last bit when inexact), which keeps the second rounding
/// exact because float carries 16 more bits than bfloat16 at every exponent.
CUDA_CALLABLE uint16 double_to_bfloat16_bits(double d) {
    const float f = float(d);
    const bool nan = (double_bits(d) & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
    if (nan || double(f) == d) return float_to_bfloat16_bits(f);
    uint32 x = float_bits(f);  // f has d's sign (-0.0 included)
    const uint64 magnitude = 0x7fffffffffffffffull;
    if ((double_bits(double(f)) & magnitude) > (double_bits(d) & magnitude))
        --x;  // rounded away from zero: take the neighbour toward zero (+-FLT_MAX from +-inf)
    return float_to_bfloat16_bits(bits_float(x | 1u));
}

/// The float value of bfloat16 bits (exact).
CUDA_CALLABLE float bfloat16_bits_to_float(uint16 b) { return bits_float(uint32(b) << 16); }

/// bfloat16: stored as its bits. Conversions are explicit; arithmetic and comparisons are done
/// in float and rounded back (correctly rounded for + - * /, since float has more than twice
/// bfloat16's precision).
struct bfloat16 {
    uint16 bits;

    bfloat16() = default;
    CUDA_CALLABLE explicit bfloat16(float f) : bits(float_to_bfloat16_bits(f)) {}
    CUDA_CALLABLE explicit bfloat16(double d) : bits(double_to_bfloat16_bits(d)) {}
    CUDA_CALLABLE explicit bfloat16(int32 i) : bits(double_to_bfloat16_bits(double(i))) {}
    CUDA_CALLABLE explicit operator float() const { return bfloat16_bits_to_float(bits); }
    CUDA_CALLABLE explicit operator double() const { return double(bfloat16_bits_to_float(bits)); }

    /// A bfloat16 with the given bit pattern.
    CUDA_CALLABLE static bfloat16 from_bits(uint16 b) {
        bfloat16 h;
        h.bits = b;
        return h;
    }

    CUDA_CALLABLE bfloat16& operator+=(bfloat16 o) {
        return *this = bfloat16(float(*this) + float(o));
    }
    CUDA_CALLABLE bfloat16& operator-=(bfloat16 o) {
        return *this = bfloat16(float(*this) - float(o));
    }
    CUDA_CALLABLE bfloat16& operator*=(bfloat16 o) {
        return *this = bfloat16(float(*this) * float(o));
    }
    CUDA_CALLABLE bfloat16& operator/=(bfloat16 o) {
        return *this = bfloat16(float(*this) / float(o));
    }
};
static_assert(sizeof(bfloat16) == 2, "bfloat16 must be 2 bytes");

/// bfloat16 arithmetic and comparisons, computed in float; unary minus flips the sign bit.
CUDA_CALLABLE bfloat16 operator+(bfloat16 a, bfloat16 b) { return bfloat16(float(a) + float(b)); }
CUDA_CALLABLE bfloat16 operator-(bfloat16 a, bfloat16 b) { return bfloat16(float(a) - float(b)); }
CUDA_CALLABLE bfloat16 operator*(bfloat16 a, bfloat16 b) { return bfloat16(float(a) * float(b)); }
CUDA_CALLABLE bfloat16 operator/(bfloat16 a, bfloat16 b) { return bfloat16(float(a) / float(b)); }
CUDA_CALLABLE bfloat16 operator-(bfloat16 a) {
    return bfloat16::from_bits(uint16(a.bits ^ 0x8000u));
}
CUDA_CALLABLE bfloat16 operator+(bfloat16 a) { return a; }
CUDA_CALLABLE bool operator==(bfloat16 a, bfloat16 b) { return float(a) == float(b); }
CUDA_CALLABLE bool operator!=(bfloat16 a, bfloat16 b) { return float(a) != float(b); }
CUDA_CALLABLE bool operator<(bfloat16 a, bfloat16 b) { return float(a) < float(b); }
CUDA_CALLABLE bool operator<=(bfloat16 a, bfloat16 b) { return float(a) <= float(b); }
CUDA_CALLABLE bool operator>(bfloat16 a, bfloat16 b) { return float(a) > float(b); }
CUDA_CALLABLE bool operator>=(bfloat16 a, bfloat16 b) { return float(a) >= float(b); }

/// to_bits(x) / from_bits<T>(b): the bit pattern of a scalar as the unsigned integer of its size
/// and back (for integers a plain modular conversion).
template <typename T>
CUDA_CALLABLE unsigned_t<T> to_bits(T x) {
    if constexpr (is_same_v<T, float>) {
        return float_bits(x);
    } else if constexpr (is_same_v<T, double>) {
        return double_bits(x);
    } else if constexpr (is_narrow_float_v<T>) {
        return x.bits;
    } else {
        return unsigned_t<T>(x);
    }
}
template <typename T>
CUDA_CALLABLE T from_bits(unsigned_t<T> b) {
    if constexpr (is_same_v<T, float>) {
        return bits_float(b);
    } else if constexpr (is_same_v<T, double>) {
        return bits_double(b);
    } else if constexpr (is_narrow_float_v<T>) {
        return T::from_bits(b);
    } else {
        return T(b);
    }
}

// ---- cast -----------------------------------------------------------------------------------

/// cast<To>(x): convert between any two of bool, the integer types, float16, bfloat16, float32,
/// float64. Float -> int truncates toward zero like C (out-of-range and NaN inputs give whatever
/// the hardware conversion gives; never a trap). X -> bool is x != 0 (NaN -> true). Int -> int
/// wraps modulo 2^bits. Double -> half or bfloat16 rounds once; int -> half goes through float,
/// which is exact for every int whose half is finite; int -> bfloat16 goes through double (exact
/// up to 2^53, so rounded once for every int32).
template <typename To, typename From>
CUDA_CALLABLE To cast(From x) {
    if constexpr (is_same_v<To, From>) {
        return x;
    } else if constexpr (is_narrow_float_v<From>) {
        return cast<To>(float(x));
    } else if constexpr (is_same_v<To, bool>) {
        return x != From(0);
    } else if constexpr (is_same_v<To, half>) {
        if constexpr (is_same_v<From, double>) {
            return half(x);
        } else {
            return half(float(x));
        }
    } else if constexpr (is_same_v<To, bfloat16>) {
        if constexpr (is_same_v<From, float>) {
            return bfloat16(x);
        } else {
            return bfloat16(double(x));
        }
    } else {
        return static_cast<To>(x);
    }
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
