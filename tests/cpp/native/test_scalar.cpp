// tests/cpp/native/test_scalar.cpp -- integer/float arithmetic, bitwise, min/max/rounding, print
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "../../../native/treadle/print.h"
#include "../../../native/treadle/scalar.h"

namespace {

using wp::half;
using wp::int16;
using wp::int32;
using wp::int64;
using wp::int8;
using wp::uint16;
using wp::uint32;
using wp::uint64;
using wp::uint8;

template <typename T>
class NativeIntOps : public ::testing::Test {};
using IntTypes = ::testing::Types<int8, uint8, int16, uint16, int32, uint32, int64, uint64>;
TYPED_TEST_SUITE(NativeIntOps, IntTypes);

TYPED_TEST(NativeIntOps, DivModByZeroAndBasics) {
    using T = TypeParam;
    EXPECT_EQ(wp::div(T(7), T(0)), T(0));
    EXPECT_EQ(wp::mod(T(7), T(0)), T(0));
    EXPECT_EQ(wp::floordiv(T(7), T(0)), T(0));
    EXPECT_EQ(wp::div(T(7), T(2)), T(3));
    EXPECT_EQ(wp::mod(T(7), T(2)), T(1));
    EXPECT_EQ(wp::floordiv(T(7), T(2)), T(3));
    EXPECT_EQ(wp::add(T(100), T(27)), T(127));
    EXPECT_EQ(wp::sub(T(100), T(27)), T(73));
    EXPECT_EQ(wp::mul(T(11), T(11)), T(121));
    EXPECT_EQ(wp::pos(T(5)), T(5));
    EXPECT_EQ(wp::add(wp::neg(T(5)), T(5)), T(0));
    EXPECT_EQ(wp::pow(T(3), T(4)), T(81));
    EXPECT_EQ(wp::pow(T(5), T(0)), T(1));
    EXPECT_EQ(wp::pow(T(0), T(0)), T(1));
    EXPECT_EQ(wp::min(T(3), T(9)), T(3));
    EXPECT_EQ(wp::max(T(3), T(9)), T(9));
    EXPECT_EQ(wp::clamp(T(12), T(2), T(9)), T(9));
    EXPECT_EQ(wp::clamp(T(1), T(2), T(9)), T(2));
    EXPECT_EQ(wp::clamp(T(5), T(2), T(9)), T(5));
    EXPECT_EQ(wp::abs(T(5)), T(5));
    EXPECT_EQ(wp::sign(T(0)), T(1));
    EXPECT_EQ(wp::sign(T(5)), T(1));
    EXPECT_FALSE(wp::isnan(T(1)));
    EXPECT_FALSE(wp::isinf(T(1)));
    EXPECT_TRUE(wp::isfinite(T(1)));
    // Wrapping arithmetic.
    constexpr T mx = std::numeric_limits<T>::max();
    constexpr T mn = std::numeric_limits<T>::min();
    EXPECT_EQ(wp::add(mx, T(1)), mn);
    EXPECT_EQ(wp::sub(mn, T(1)), mx);
    EXPECT_EQ(wp::mul(mx, T(2)), T(wp::unsigned_t<T>(mx) * 2u));
    EXPECT_EQ(wp::mul(mx, mx), T(1));  // (2^k - 1)^2 and (2^(k-1) - 1)^2 are 1 mod 2^k
}

TYPED_TEST(NativeIntOps, BitwiseAndShifts) {
    using T = TypeParam;
    constexpr int bits = int(sizeof(T) * 8);
    EXPECT_EQ(wp::bit_and(T(0x5a), T(0x0f)), T(0x0a));
    EXPECT_EQ(wp::bit_or(T(0x50), T(0x0a)), T(0x5a));
    EXPECT_EQ(wp::bit_xor(T(0x5a), T(0x0f)), T(0x55));
    EXPECT_EQ(wp::invert(T(0)), T(~T(0)));
    EXPECT_EQ(wp::lshift(T(1), T(3)), T(8));
    EXPECT_EQ(wp::rshift(T(64), T(3)), T(8));
    EXPECT_EQ(wp::lshift(T(1), T(bits - 1)), std::numeric_limits<T>::is_signed
                                                 ? std::numeric_limits<T>::min()
                                                 : T(T(1) << (bits - 1)));
    // Counts are taken modulo the width.
    EXPECT_EQ(wp::lshift(T(3), T(bits)), T(3));
    EXPECT_EQ(wp::rshift(T(6), T(bits + 1)), T(3));
}

TEST(NativeScalar, SignedDivModFollowC) {
    EXPECT_EQ(wp::div(-7, 2), -3);
    EXPECT_EQ(wp::div(7, -2), -3);
    EXPECT_EQ(wp::div(-7, -2), 3);
    EXPECT_EQ(wp::mod(-7, 2), -1);
    EXPECT_EQ(wp::mod(7, -2), 1);
    EXPECT_EQ(wp::mod(-7, -2), -1);
    EXPECT_EQ(wp::floordiv(-7, 2), -3);  // Warp: integer // truncates like /
    EXPECT_EQ(wp::div(int64(-9), int64(4)), -2);
    EXPECT_EQ(wp::mod(int8(-9), int8(4)), -1);
    // MIN / -1 and MIN % -1 must not trap.
    const int32 mn = std::numeric_limits<int32>::min();
    EXPECT_EQ(wp::div(mn, -1), mn);
    EXPECT_EQ(wp::mod(mn, -1), 0);
    const int64 mn64 = std::numeric_limits<int64>::min();
    EXPECT_EQ(wp::div(mn64, int64(-1)), mn64);
    EXPECT_EQ(wp::mod(mn64, int64(-1)), 0);
    EXPECT_EQ(wp::div(int8(-128), int8(-1)), int8(-128));
    EXPECT_EQ(wp::div(5, -1), -5);
}

TEST(NativeScalar, SignedMiscellany) {
    EXPECT_EQ(wp::abs(-5), 5);
    EXPECT_EQ(wp::abs(int8(-128)), int8(-128));  // wraps
    EXPECT_EQ(wp::sign(-3), -1);
    EXPECT_EQ(wp::sign(int64(-3)), int64(-1));
    EXPECT_EQ(wp::neg(std::numeric_limits<int32>::min()), std::numeric_limits<int32>::min());
    EXPECT_EQ(wp::rshift(-16, 2), -4);  // arithmetic
    EXPECT_EQ(wp::rshift(uint32(0x80000000u), uint32(31)), 1u);
    EXPECT_EQ(wp::pow(-2, 3), -8);
    EXPECT_EQ(wp::pow(2, -1), 0);
    EXPECT_EQ(wp::pow(1, -5), 1);
    EXPECT_EQ(wp::pow(-1, -5), -1);
    EXPECT_EQ(wp::pow(-1, -4), 1);
    EXPECT_EQ(wp::pow(2, 31), std::numeric_limits<int32>::min());  // wraps
    EXPECT_EQ(wp::pow(uint64(3), uint64(40)), 12157665459056928801ull);
    EXPECT_EQ(wp::mul(uint16(65535), uint16(65535)), uint16(1));
    EXPECT_EQ(wp::mul(int32(65536), int32(65536)), 0);
    EXPECT_EQ(wp::min(-3, 2), -3);
    EXPECT_EQ(wp::max(uint8(200), uint8(100)), uint8(200));
    EXPECT_EQ(wp::clamp(-10, -5, 5), -5);
}

TEST(NativeScalar, BoolBitwise) {
    EXPECT_EQ(wp::bit_and(true, false), false);
    EXPECT_EQ(wp::bit_or(true, false), true);
    EXPECT_EQ(wp::bit_xor(true, true), false);
}

template <typename T>
class NativeFloatOps : public ::testing::Test {};
using FloatTypes = ::testing::Types<float, double, half>;
TYPED_TEST_SUITE(NativeFloatOps, FloatTypes);

template <typename T>
double d(T x) {
    return double(x);
}

TYPED_TEST(NativeFloatOps, ArithmeticRoundingAndMinMax) {
    using T = TypeParam;
    EXPECT_EQ(d(wp::add(T(1.5), T(2.25))), 3.75);
    EXPECT_EQ(d(wp::sub(T(1.5), T(2.25))), -0.75);
    EXPECT_EQ(d(wp::mul(T(1.5), T(-2.0))), -3.0);
    EXPECT_EQ(d(wp::div(T(3.0), T(4.0))), 0.75);
    EXPECT_EQ(d(wp::neg(T(2.0))), -2.0);
    EXPECT_EQ(d(wp::pos(T(2.0))), 2.0);
    EXPECT_TRUE(std::isinf(d(wp::div(T(1.0), T(0.0)))));
    EXPECT_EQ(d(wp::mod(T(7.5), T(2.0))), 1.5);
    EXPECT_EQ(d(wp::mod(T(-7.5), T(2.0))), -1.5);  // fmod: sign of the dividend
    EXPECT_EQ(d(wp::floordiv(T(-7.0), T(2.0))), -4.0);
    EXPECT_EQ(d(wp::floordiv(T(7.0), T(2.0))), 3.0);
    EXPECT_EQ(d(wp::floor(T(-1.5))), -2.0);
    EXPECT_EQ(d(wp::ceil(T(-1.5))), -1.0);
    EXPECT_EQ(d(wp::trunc(T(-1.75))), -1.0);
    // round: halves away from zero; rint: halves to even.
    EXPECT_EQ(d(wp::round(T(0.5))), 1.0);
    EXPECT_EQ(d(wp::round(T(1.5))), 2.0);
    EXPECT_EQ(d(wp::round(T(2.5))), 3.0);
    EXPECT_EQ(d(wp::round(T(-2.5))), -3.0);
    EXPECT_EQ(d(wp::round(T(-0.25))), -0.0);
    EXPECT_EQ(d(wp::rint(T(0.5))), 0.0);
    EXPECT_EQ(d(wp::rint(T(1.5))), 2.0);
    EXPECT_EQ(d(wp::rint(T(2.5))), 2.0);
    EXPECT_EQ(d(wp::rint(T(-2.5))), -2.0);
    EXPECT_EQ(d(wp::abs(T(-3.0))), 3.0);
    EXPECT_FALSE(std::signbit(d(wp::abs(T(-0.0)))));
    EXPECT_EQ(d(wp::sign(T(0.0))), 1.0);
    EXPECT_EQ(d(wp::sign(T(-0.0))), 1.0);
    EXPECT_EQ(d(wp::sign(T(-2.0))), -1.0);
    EXPECT_EQ(d(wp::sign(T(2.0))), 1.0);
    EXPECT_EQ(d(wp::min(T(1.0), T(2.0))), 1.0);
    EXPECT_EQ(d(wp::max(T(1.0), T(2.0))), 2.0);
    EXPECT_EQ(d(wp::clamp(T(3.0), T(-1.0), T(1.0))), 1.0);
    EXPECT_EQ(d(wp::clamp(T(-3.0), T(-1.0), T(1.0))), -1.0);
    EXPECT_EQ(d(wp::clamp(T(0.5), T(-1.0), T(1.0))), 0.5);
    // Ties return the first argument (visible with signed zeros).
    EXPECT_TRUE(std::signbit(d(wp::min(T(-0.0), T(0.0)))));
    EXPECT_FALSE(std::signbit(d(wp::min(T(0.0), T(-0.0)))));
    EXPECT_TRUE(std::signbit(d(wp::max(T(-0.0), T(0.0)))));
    const T nan = T(std::nan(""));
    const T inf = T(std::numeric_limits<double>::infinity());
    EXPECT_TRUE(wp::isnan(nan));
    EXPECT_FALSE(wp::isnan(inf));
    EXPECT_FALSE(wp::isnan(T(1.0)));
    EXPECT_TRUE(wp::isinf(inf));
    EXPECT_TRUE(wp::isinf(wp::neg(inf)));
    EXPECT_FALSE(wp::isinf(nan));
    EXPECT_FALSE(wp::isinf(T(1.0)));
    EXPECT_TRUE(wp::isfinite(T(1.0)));
    EXPECT_TRUE(wp::isfinite(T(0.0)));
    EXPECT_FALSE(wp::isfinite(inf));
    EXPECT_FALSE(wp::isfinite(nan));
    EXPECT_EQ(d(wp::min(T(1.0), nan)), 1.0);  // an incoming NaN (second argument) is ignored
}

std::string printed(void (*fn)()) {
    ::testing::internal::CaptureStdout();
    fn();
    std::fflush(stdout);
    return ::testing::internal::GetCapturedStdout();
}

TEST(NativePrint, WarpFormat) {
    EXPECT_EQ(printed([] { wp::print(3.5f); }), "3.5\n");
    EXPECT_EQ(printed([] { wp::print(7); }), "7\n");
    EXPECT_EQ(printed([] { wp::print(0.1); }), "0.1\n");
    EXPECT_EQ(printed([] { wp::print(1e-7f); }), "1e-07\n");
    EXPECT_EQ(printed([] { wp::print(half(0.5f)); }), "0.5\n");
    EXPECT_EQ(printed([] { wp::print(int8(-5)); }), "-5\n");
    EXPECT_EQ(printed([] { wp::print(uint8(250)); }), "250\n");
    EXPECT_EQ(printed([] { wp::print(int16(-300)); }), "-300\n");
    EXPECT_EQ(printed([] { wp::print(uint16(60000)); }), "60000\n");
    EXPECT_EQ(printed([] { wp::print(uint32(4000000000u)); }), "4000000000\n");
    EXPECT_EQ(printed([] { wp::print(int64(-5000000000ll)); }), "-5000000000\n");
    EXPECT_EQ(printed([] { wp::print(uint64(18000000000000000000ull)); }),
              "18000000000000000000\n");
    EXPECT_EQ(printed([] { wp::print(true); }), "True\n");
    EXPECT_EQ(printed([] { wp::print(false); }), "False\n");
    EXPECT_EQ(printed([] { wp::print("hi"); }), "hi\n");
}

}  // namespace
