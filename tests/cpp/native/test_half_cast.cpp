// tests/cpp/native/test_half_cast.cpp -- float16 conversions/arithmetic and cast<> rules
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "../../../native/treadle/core.h"

namespace {

using wp::half;

// GCC's _Float16 (x86-64, correctly rounded) is the reference for conversions.
wp::uint16 ref_bits(float f) {
    _Float16 h = static_cast<_Float16>(f);
    wp::uint16 b;
    std::memcpy(&b, &h, 2);
    return b;
}
wp::uint16 ref_bits(double d) {
    _Float16 h = static_cast<_Float16>(d);
    wp::uint16 b;
    std::memcpy(&b, &h, 2);
    return b;
}
float ref_float(wp::uint16 b) {
    _Float16 h;
    std::memcpy(&h, &b, 2);
    return static_cast<float>(h);
}
bool is_nan_bits(wp::uint16 b) { return (b & 0x7fff) > 0x7c00; }

TEST(NativeHalf, EveryHalfToFloatAndBack) {
    for (unsigned b = 0; b < 0x10000; ++b) {
        const wp::uint16 h = wp::uint16(b);
        const float f = float(half::from_bits(h));
        if (is_nan_bits(h)) {
            EXPECT_TRUE(std::isnan(f)) << std::hex << b;
            EXPECT_TRUE(is_nan_bits(half(f).bits)) << std::hex << b;
            EXPECT_EQ(half(f).bits & 0x8000, h & 0x8000);
            continue;
        }
        const float r = ref_float(h);
        EXPECT_EQ(wp::float_bits(f), wp::float_bits(r)) << std::hex << b;
        EXPECT_EQ(half(f).bits, h) << std::hex << b;
        EXPECT_EQ(half(double(f)).bits, h) << std::hex << b;
    }
}

TEST(NativeHalf, FloatToHalfMatchesReferenceOnManyFloats) {
    // Every 4093rd bit pattern over all floats, plus every pattern in the subnormal/overflow and
    // rounding-sensitive regions.
    auto check = [](wp::uint32 u) {
        const float f = wp::bits_float(u);
        const wp::uint16 got = half(f).bits;
        const wp::uint16 want = ref_bits(f);
        if (is_nan_bits(want)) {
            ASSERT_TRUE(is_nan_bits(got)) << std::hex << u;
        } else {
            ASSERT_EQ(got, want) << "float bits " << std::hex << u;
        }
    };
    for (wp::uint64 u = 0; u <= 0xffffffffull; u += 4093) check(wp::uint32(u));
    for (wp::uint32 u = 0x32f00000u; u < 0x38900000u; u += 97) {  // around 2^-25 .. 2^-14
        check(u);
        check(u | 0x80000000u);
    }
    for (wp::uint32 u = 0x477f0000u; u < 0x47810000u; ++u) check(u);  // around 65504..65536
}

TEST(NativeHalf, DoubleToHalfRoundsOnce) {
    // 2049 + 2^-30 is just above the midpoint between halves 2048 and 2050 (spacing 2 there):
    // rounding through float (24 bits) first would land exactly on 2049 and tie to 2048.
    const double d = 2049.0 + std::ldexp(1.0, -30);
    EXPECT_EQ(float(half(d)), 2050.0f);
    EXPECT_EQ(float(half(float(d))), 2048.0f);
    wp::uint64 x = 0x3e50000000000000ull;  // 2^-26
    for (int n = 0; n < 200000; ++n) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        const double v = wp::bits_double(x);
        const wp::uint16 want = ref_bits(v);
        const wp::uint16 got = half(v).bits;
        if (is_nan_bits(want)) {
            ASSERT_TRUE(is_nan_bits(got));
        } else {
            ASSERT_EQ(got, want) << v;
        }
    }
    const double edges[] = {65504.0,
                            65519.999,
                            65520.0,
                            1e300,
                            -1e300,
                            5.960464477539063e-8,
                            2.9802322387695312e-8,
                            2.9802322387695315e-8,
                            6.097555160522461e-5,
                            6.103515625e-05,
                            0.0,
                            -0.0};
    for (double e : edges) EXPECT_EQ(half(e).bits, ref_bits(e)) << e;
}

TEST(NativeHalf, EdgeValues) {
    EXPECT_EQ(half(65504.0f).bits, 0x7bff);
    EXPECT_EQ(half(65519.0f).bits, 0x7bff);
    EXPECT_EQ(half(65520.0f).bits, 0x7c00);  // ties to even -> inf
    EXPECT_EQ(half(-1e9f).bits, 0xfc00);
    EXPECT_EQ(half(std::numeric_limits<float>::infinity()).bits, 0x7c00);
    EXPECT_EQ(half(-0.0f).bits, 0x8000);
    EXPECT_EQ(half(5.9604644775390625e-8f).bits, 0x0001);   // smallest subnormal
    EXPECT_EQ(half(2.98023223876953125e-8f).bits, 0x0000);  // half of it: tie to even (0)
    EXPECT_EQ(half(2.9802326e-8f).bits, 0x0001);            // just above the tie
    EXPECT_EQ(half(8.940697e-8f).bits, 0x0002);             // 1.5 ulp: tie to even (2)
    EXPECT_EQ(half(6.1035156e-5f).bits, 0x0400);            // smallest normal
    EXPECT_EQ(half(1.0f).bits, 0x3c00);
    EXPECT_EQ(half(1.0f + 1.0f / 2048).bits, 0x3c00);  // tie -> even
    EXPECT_EQ(half(1.0f + 3.0f / 2048).bits, 0x3c02);  // tie -> even (up)
    EXPECT_TRUE(std::isnan(float(half(std::nanf("")))));
    EXPECT_EQ(half(2).bits, 0x4000);
}

TEST(NativeHalf, ArithmeticAndComparison) {
    const half a(1.5f), b(0.25f);
    EXPECT_EQ(float(a + b), 1.75f);
    EXPECT_EQ(float(a - b), 1.25f);
    EXPECT_EQ(float(a * b), 0.375f);
    EXPECT_EQ(float(a / b), 6.0f);
    EXPECT_EQ(float(-a), -1.5f);
    EXPECT_EQ(float(+a), 1.5f);
    EXPECT_TRUE(b < a && a > b && a >= a && b <= b && a == a && a != b);
    EXPECT_TRUE(half(0.0f) == half(-0.0f));
    const half n(std::nanf(""));
    EXPECT_FALSE(n == n);
    EXPECT_TRUE(n != n);
    half c(1.0f);
    c += half(2.0f);
    c *= half(3.0f);
    c -= half(1.0f);
    c /= half(4.0f);
    EXPECT_EQ(float(c), 2.0f);
    // 2048 + 1 is not representable: rounds to even.
    EXPECT_EQ(float(half(2048.0f) + half(1.0f)), 2048.0f);
    EXPECT_EQ(float(half(2048.0f) + half(3.0f)), 2052.0f);
}

TEST(NativeCast, IntegerAndFloatRules) {
    EXPECT_EQ((wp::cast<wp::int32>(2.9f)), 2);
    EXPECT_EQ((wp::cast<wp::int32>(-2.9f)), -2);
    EXPECT_EQ((wp::cast<wp::int64>(-7.99)), -7);
    EXPECT_EQ((wp::cast<wp::uint8>(300)), 44);
    EXPECT_EQ((wp::cast<wp::int8>(200)), -56);
    EXPECT_EQ((wp::cast<wp::uint32>(-1)), 0xffffffffu);
    EXPECT_EQ((wp::cast<wp::int16>(wp::uint16(65535))), -1);
    EXPECT_EQ((wp::cast<float>(16777217)), 16777216.0f);
    EXPECT_EQ((wp::cast<double>(1.25f)), 1.25);
    EXPECT_EQ((wp::cast<float>(0.1)), 0.1f);
    EXPECT_EQ((wp::cast<wp::uint64>(wp::int64(-2))), 0xfffffffffffffffeull);
}

TEST(NativeCast, BoolRules) {
    EXPECT_TRUE((wp::cast<bool>(0.5f)));
    EXPECT_FALSE((wp::cast<bool>(0.0f)));
    EXPECT_FALSE((wp::cast<bool>(-0.0)));
    EXPECT_TRUE((wp::cast<bool>(std::nan(""))));
    EXPECT_TRUE((wp::cast<bool>(-3)));
    EXPECT_FALSE((wp::cast<bool>(wp::uint64(0))));
    EXPECT_TRUE((wp::cast<bool>(wp::uint8(2))));  // not truncated to the low bit
    EXPECT_TRUE((wp::cast<bool>(half(0.001f))));
    EXPECT_FALSE((wp::cast<bool>(half(-0.0f))));
    EXPECT_EQ((wp::cast<wp::int32>(true)), 1);
    EXPECT_EQ((wp::cast<float>(false)), 0.0f);
    EXPECT_EQ((wp::cast<half>(true)).bits, 0x3c00);
    EXPECT_EQ((wp::cast<bool>(true)), true);
}

TEST(NativeCast, HalfRules) {
    EXPECT_EQ((wp::cast<half>(3)).bits, half(3.0f).bits);
    EXPECT_EQ((wp::cast<half>(wp::int64(70000))).bits, 0x7c00);
    EXPECT_EQ((wp::cast<half>(wp::uint8(255))).bits, half(255.0f).bits);
    EXPECT_EQ((wp::cast<half>(0.1)).bits, ref_bits(0.1));
    EXPECT_EQ((wp::cast<half>(0.1f)).bits, ref_bits(0.1f));
    EXPECT_EQ((wp::cast<wp::int32>(half(-2.75f))), -2);
    EXPECT_EQ((wp::cast<wp::uint16>(half(65504.0f))), 65504);
    EXPECT_EQ((wp::cast<float>(half(0.5f))), 0.5f);
    EXPECT_EQ((wp::cast<double>(half(-0.5f))), -0.5);
    EXPECT_EQ((wp::cast<half>(half(7.0f))).bits, half(7.0f).bits);
}

TEST(NativeCast, BitsHelpers) {
    EXPECT_EQ(wp::to_bits(1.0f), 0x3f800000u);
    EXPECT_EQ(wp::from_bits<float>(0x40000000u), 2.0f);
    EXPECT_EQ(wp::to_bits(-2.0), 0xc000000000000000ull);
    EXPECT_EQ(wp::from_bits<double>(0x3ff0000000000000ull), 1.0);
    EXPECT_EQ(wp::to_bits(half(1.0f)), 0x3c00);
    EXPECT_EQ(wp::to_bits(wp::int8(-1)), 0xff);
    EXPECT_EQ(wp::from_bits<wp::int16>(0xffff), -1);
}

}  // namespace
