// tests/cpp/native/test_bfloat16.cpp -- bfloat16 conversions, arithmetic, math and cast<> rules
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "../../../native/treadle/scalar.h"

namespace {

using wp::bfloat16;

bool is_nan_bits(wp::uint16 b) { return (b & 0x7fff) > 0x7f80; }

/// The reference: the bfloat16 nearest to `d` (ties to even), worked out from the two
/// neighbours and their midpoint, all exact in double (bfloat16 values have 8 significant
/// bits). Finite non-NaN inputs only.
wp::uint16 ref_bits(double d) {
    const wp::uint16 sign = std::signbit(d) ? 0x8000 : 0;
    const double a = std::fabs(d);
    if (std::isinf(a)) return wp::uint16(sign | 0x7f80);
    int e = 0;
    std::frexp(a, &e);                                 // a = m * 2^e with m in [0.5, 1)
    const int exponent = std::max(e - 1, -126);        // of the binade, subnormals share -126
    const double ulp = std::ldexp(1.0, exponent - 7);  // 7 mantissa bits
    const double lo = std::floor(a / ulp) * ulp;
    const double hi = lo + ulp;
    const double mid = lo + ulp / 2;
    const double lo_units = lo / ulp;
    double pick = a < mid ? lo : a > mid ? hi : (std::fmod(lo_units, 2.0) == 0.0 ? lo : hi);
    if (pick >= std::ldexp(1.0, 128)) return wp::uint16(sign | 0x7f80);  // rounds to infinity
    return wp::uint16(sign | (wp::float_bits(float(pick)) >> 16));
}

TEST(NativeBfloat16, EveryBfloat16ToFloatAndBack) {
    for (unsigned b = 0; b < 0x10000; ++b) {
        const wp::uint16 h = wp::uint16(b);
        const float f = float(bfloat16::from_bits(h));
        EXPECT_EQ(wp::float_bits(f), wp::uint32(b) << 16) << std::hex << b;
        if (is_nan_bits(h)) {
            EXPECT_TRUE(std::isnan(f));
            EXPECT_TRUE(is_nan_bits(bfloat16(f).bits)) << std::hex << b;
            EXPECT_EQ(bfloat16(f).bits & 0x8000, h & 0x8000);
            continue;
        }
        EXPECT_EQ(bfloat16(f).bits, h) << std::hex << b;
        EXPECT_EQ(bfloat16(double(f)).bits, h) << std::hex << b;
    }
}

TEST(NativeBfloat16, FloatToBfloat16RoundsToNearestEven) {
    auto check = [](wp::uint32 u) {
        const float f = wp::bits_float(u);
        if (std::isnan(f)) {
            ASSERT_TRUE(is_nan_bits(bfloat16(f).bits)) << std::hex << u;
            return;
        }
        ASSERT_EQ(bfloat16(f).bits, ref_bits(f)) << "float bits " << std::hex << u;
    };
    for (wp::uint64 u = 0; u <= 0xffffffffull; u += 4093) check(wp::uint32(u));
    for (wp::uint32 u = 0x3f807f00u; u < 0x3f808100u; ++u) check(u);     // ties around 1 + 2^-8
    for (wp::uint32 u = 0x7f7f0000u; u < 0x7f800000u; u += 7) check(u);  // rounding to infinity
    for (wp::uint32 u = 0; u < 0x00200000u; u += 13) {                   // subnormals
        check(u);
        check(u | 0x80000000u);
    }
}

TEST(NativeBfloat16, DoubleToBfloat16RoundsOnce) {
    // 1 + 2^-8 + 2^-40 lies just above the midpoint of 1 and 1 + 2^-7: rounding to float first
    // lands on the midpoint exactly, which ties to even (1.0).
    const double d = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);
    EXPECT_EQ(bfloat16(d).bits, 0x3f81);
    EXPECT_EQ(bfloat16(float(d)).bits, 0x3f80);
    wp::uint64 x = 0x3800000000000000ull;
    for (int n = 0; n < 200000; ++n) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        const double v = wp::bits_double(x);
        if (std::isnan(v)) {
            ASSERT_TRUE(is_nan_bits(bfloat16(v).bits));
            continue;
        }
        ASSERT_EQ(bfloat16(v).bits, ref_bits(v)) << v;
    }
    const double edges[] = {3.3895313892515355e38,
                            3.3961775292304019e38,
                            3.3961775292304020e38,
                            1e300,
                            -1e300,
                            1e-300,
                            -1e-300,
                            std::ldexp(1.0, -133),
                            std::ldexp(1.0, -134),
                            std::ldexp(1.5, -134),
                            0.0,
                            -0.0};
    for (double e : edges) EXPECT_EQ(bfloat16(e).bits, ref_bits(e)) << e;
}

TEST(NativeBfloat16, NaNsStayNaN) {
    // a signalling NaN whose payload lies in the dropped bits would truncate to infinity
    EXPECT_TRUE(is_nan_bits(bfloat16(wp::bits_float(0x7f800001u)).bits));
    EXPECT_TRUE(is_nan_bits(bfloat16(wp::bits_float(0xff800001u)).bits));
    EXPECT_EQ(bfloat16(wp::bits_float(0xff800001u)).bits & 0x8000, 0x8000);
    EXPECT_TRUE(is_nan_bits(bfloat16(wp::bits_float(0x7fbfffffu)).bits));  // no carry into sign
    EXPECT_TRUE(is_nan_bits(bfloat16(std::nan("")).bits));
    EXPECT_EQ(bfloat16(std::numeric_limits<float>::infinity()).bits, 0x7f80);
    EXPECT_EQ(bfloat16(-std::numeric_limits<double>::infinity()).bits, 0xff80);
}

TEST(NativeBfloat16, ArithmeticIsCorrectlyRounded) {
    wp::uint32 x = 12345;
    for (int n = 0; n < 100000; ++n) {
        x = x * 1664525u + 1013904223u;
        const bfloat16 a = bfloat16::from_bits(wp::uint16(x >> 16));
        const bfloat16 b = bfloat16::from_bits(wp::uint16(x));
        if (is_nan_bits(a.bits) || is_nan_bits(b.bits)) continue;
        const double da = double(float(a)), db = double(float(b));
        auto same = [](bfloat16 got, double exact) {
            if (std::isnan(exact)) return is_nan_bits(got.bits);
            return got.bits == ref_bits(exact);
        };
        ASSERT_TRUE(same(a + b, da + db)) << da << " + " << db;
        ASSERT_TRUE(same(a - b, da - db)) << da << " - " << db;
        ASSERT_TRUE(same(a * b, da * db)) << da << " * " << db;  // exact in double
        if (db != 0.0) ASSERT_TRUE(same(a / b, da / db)) << da << " / " << db;
    }
    const bfloat16 a(1.5f), b(0.25f);
    EXPECT_EQ(float(-a), -1.5f);
    EXPECT_EQ((-bfloat16(0.0f)).bits, 0x8000);
    EXPECT_TRUE(b < a && a > b && a >= a && b <= b && a == a && a != b);
    EXPECT_TRUE(bfloat16(0.0f) == bfloat16(-0.0f));
    bfloat16 c(1.0f);
    c += bfloat16(2.0f);
    c *= bfloat16(3.0f);
    c -= bfloat16(1.0f);
    c /= bfloat16(4.0f);
    EXPECT_EQ(float(c), 2.0f);
    EXPECT_EQ(float(bfloat16(256.0f) + bfloat16(1.0f)), 256.0f);  // 257 ties to even
    EXPECT_EQ(float(bfloat16(256.0f) + bfloat16(3.0f)), 260.0f);
}

TEST(NativeBfloat16, MathRoundingAndClassification) {
    const bfloat16 x(-1.75f);
    EXPECT_EQ(float(wp::floor(x)), -2.0f);
    EXPECT_EQ(float(wp::ceil(x)), -1.0f);
    EXPECT_EQ(float(wp::trunc(x)), -1.0f);
    EXPECT_EQ(float(wp::round(x)), -2.0f);
    EXPECT_EQ(float(wp::rint(bfloat16(2.5f))), 2.0f);
    EXPECT_EQ(float(wp::abs(x)), 1.75f);
    EXPECT_EQ(float(wp::sign(x)), -1.0f);
    EXPECT_EQ(float(wp::min(x, bfloat16(0.5f))), -1.75f);
    EXPECT_EQ(float(wp::max(x, bfloat16(0.5f))), 0.5f);
    EXPECT_EQ(float(wp::mod(bfloat16(7.0f), bfloat16(2.0f))), 1.0f);
    EXPECT_EQ(float(wp::floordiv(bfloat16(7.0f), bfloat16(2.0f))), 3.0f);
    EXPECT_EQ(wp::sqrt(bfloat16(2.0f)).bits, bfloat16(std::sqrt(2.0f)).bits);
    EXPECT_EQ(wp::sin(bfloat16(0.5f)).bits, bfloat16(std::sin(0.5f)).bits);
    EXPECT_EQ(wp::atan2(bfloat16(1.0f), bfloat16(2.0f)).bits,
              bfloat16(std::atan2(1.0f, 2.0f)).bits);
    EXPECT_EQ(float(wp::degrees(bfloat16(0.0f))), 0.0f);
    const bfloat16 inf = bfloat16::from_bits(0x7f80), nan = bfloat16::from_bits(0x7fc0);
    EXPECT_TRUE(wp::isinf(inf) && !wp::isnan(inf) && !wp::isfinite(inf));
    EXPECT_TRUE(wp::isnan(nan) && !wp::isinf(nan) && !wp::isfinite(nan));
    EXPECT_TRUE(wp::isfinite(x) && !wp::isnan(x) && !wp::isinf(x));
    EXPECT_TRUE(wp::isfinite(bfloat16::from_bits(0x7f7f)));  // the largest finite value
}

TEST(NativeBfloat16, AdjointsRunInFloat) {
    bfloat16 adj(1.0f);
    wp::adj_mul(bfloat16(3.0f), bfloat16(5.0f), adj, adj, bfloat16(2.0f));
    EXPECT_EQ(float(adj), 1.0f + 10.0f + 6.0f);
    bfloat16 g(0.0f);
    wp::adj_sin(bfloat16(0.0f), g, bfloat16(1.0f));
    EXPECT_EQ(float(g), 1.0f);
    bfloat16 ga(0.0f), gb(0.0f);
    wp::adj_add(bfloat16(1.0f), bfloat16(2.0f), ga, gb, bfloat16(0.5f));
    EXPECT_EQ(float(ga), 0.5f);
    EXPECT_EQ(float(gb), 0.5f);
}

TEST(NativeCast, Bfloat16Rules) {
    EXPECT_EQ((wp::cast<bfloat16>(3)).bits, 0x4040);
    EXPECT_EQ((wp::cast<bfloat16>(257)).bits, bfloat16(256.0f).bits);  // tie to even
    EXPECT_EQ((wp::cast<bfloat16>(wp::int32(16777217))).bits, ref_bits(16777217.0));
    EXPECT_EQ((wp::cast<bfloat16>(wp::uint8(255))).bits, 0x437f);  // 8 bits: exact
    EXPECT_EQ((wp::cast<bfloat16>(0.1)).bits, ref_bits(0.1));
    EXPECT_EQ((wp::cast<bfloat16>(0.1f)).bits, ref_bits(0.1f));
    EXPECT_EQ((wp::cast<bfloat16>(wp::half(0.5f))).bits, 0x3f00);
    EXPECT_EQ((wp::cast<wp::half>(bfloat16(0.5f))).bits, 0x3800);
    EXPECT_EQ((wp::cast<wp::int32>(bfloat16(-2.75f))), -2);
    EXPECT_EQ((wp::cast<float>(bfloat16(0.5f))), 0.5f);
    EXPECT_EQ((wp::cast<double>(bfloat16(-0.5f))), -0.5);
    EXPECT_TRUE((wp::cast<bool>(bfloat16(0.001f))));
    EXPECT_FALSE((wp::cast<bool>(bfloat16(-0.0f))));
    EXPECT_EQ((wp::cast<bfloat16>(true)).bits, 0x3f80);
    EXPECT_EQ(wp::to_bits(bfloat16(1.0f)), 0x3f80);
    EXPECT_EQ(wp::from_bits<bfloat16>(0x4000).bits, 0x4000);
}

}  // namespace
