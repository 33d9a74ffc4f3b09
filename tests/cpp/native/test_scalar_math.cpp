// tests/cpp/native/test_scalar_math.cpp -- transcendental builtins against <cmath>
#include <gtest/gtest.h>

#include <cmath>

#include "../../../native/treadle/scalar.h"

namespace {

using wp::half;

const double kPoints[] = {-3.7, -1.0, -0.5, -0.1, 0.0, 0.1, 0.3, 0.5, 0.9, 1.0, 2.0, 10.5, 100.0};

// Compare one unary builtin for double (exact vs std), float (exact vs std float version) and
// half (the float result rounded to half).
#define CHECK_UNARY(name, stdfn)                                                 \
    TEST(NativeMath, name) {                                                     \
        for (double x : kPoints) {                                               \
            const double want = stdfn(x);                                        \
            const double got = wp::name(x);                                      \
            if (std::isnan(want)) {                                              \
                EXPECT_TRUE(std::isnan(got)) << #name << "(" << x << ")";        \
            } else {                                                             \
                EXPECT_EQ(got, want) << #name << "(" << x << ")";                \
            }                                                                    \
            const float xf = float(x);                                           \
            const float wantf = stdfn(xf);                                       \
            const float gotf = wp::name(xf);                                     \
            if (std::isnan(wantf)) {                                             \
                EXPECT_TRUE(std::isnan(gotf));                                   \
            } else {                                                             \
                EXPECT_EQ(gotf, wantf) << #name << "(" << xf << ")";             \
            }                                                                    \
            const half xh(xf);                                                   \
            const float wanth = float(half(float(stdfn(float(xh)))));            \
            const float goth = float(wp::name(xh));                              \
            if (std::isnan(wanth)) {                                             \
                EXPECT_TRUE(std::isnan(goth));                                   \
            } else {                                                             \
                EXPECT_EQ(goth, wanth) << #name << "(half " << float(xh) << ")"; \
            }                                                                    \
        }                                                                        \
    }

double std_degrees(double x) { return x * (180.0 / M_PI); }
float std_degrees(float x) { return x * float(180.0 / M_PI); }
double std_radians(double x) { return x * (M_PI / 180.0); }
float std_radians(float x) { return x * float(M_PI / 180.0); }
// asin and acos clamp their argument to [-1, 1] (Warp's rule); NaN stays NaN
template <typename T>
T clamp_unit(T x) {
    return x < T(-1) ? T(-1) : x > T(1) ? T(1) : x;
}
double std_asin_clamped(double x) { return std::asin(clamp_unit(x)); }
float std_asin_clamped(float x) { return std::asin(clamp_unit(x)); }
double std_acos_clamped(double x) { return std::acos(clamp_unit(x)); }
float std_acos_clamped(float x) { return std::acos(clamp_unit(x)); }

CHECK_UNARY(sqrt, std::sqrt)
CHECK_UNARY(cbrt, std::cbrt)
CHECK_UNARY(exp, std::exp)
CHECK_UNARY(log, std::log)
CHECK_UNARY(log2, std::log2)
CHECK_UNARY(log10, std::log10)
CHECK_UNARY(sin, std::sin)
CHECK_UNARY(cos, std::cos)
CHECK_UNARY(tan, std::tan)
CHECK_UNARY(asin, std_asin_clamped)
CHECK_UNARY(acos, std_acos_clamped)
CHECK_UNARY(atan, std::atan)
CHECK_UNARY(sinh, std::sinh)
CHECK_UNARY(cosh, std::cosh)
CHECK_UNARY(tanh, std::tanh)
CHECK_UNARY(floor, std::floor)
CHECK_UNARY(ceil, std::ceil)
CHECK_UNARY(trunc, std::trunc)
CHECK_UNARY(round, std::round)
CHECK_UNARY(rint, std::rint)
CHECK_UNARY(degrees, std_degrees)
CHECK_UNARY(radians, std_radians)

TEST(NativeMath, BinaryFunctions) {
    for (double a : kPoints) {
        for (double b : kPoints) {
            const double wp_pow = wp::pow(a, b), std_pow = std::pow(a, b);
            if (std::isnan(std_pow)) {
                EXPECT_TRUE(std::isnan(wp_pow));
            } else {
                EXPECT_EQ(wp_pow, std_pow) << a << " ** " << b;
            }
            EXPECT_EQ(wp::atan2(a, b), std::atan2(a, b));
            EXPECT_EQ(wp::atan2(float(a), float(b)), std::atan2(float(a), float(b)));
            const float pf = wp::pow(float(a), float(b)), spf = std::pow(float(a), float(b));
            if (std::isnan(spf)) {
                EXPECT_TRUE(std::isnan(pf));
            } else {
                EXPECT_EQ(pf, spf);
            }
            if (b != 0.0) {
                EXPECT_EQ(wp::mod(a, b), std::fmod(a, b));
                EXPECT_EQ(wp::mod(float(a), float(b)), std::fmod(float(a), float(b)));
                EXPECT_EQ(wp::floordiv(a, b), std::floor(a / b));
            }
        }
    }
    EXPECT_EQ(float(wp::pow(half(2.0f), half(10.0f))), 1024.0f);
    EXPECT_EQ(float(wp::atan2(half(1.0f), half(1.0f))), float(half(float(M_PI / 4))));
    EXPECT_TRUE(std::isnan(wp::mod(1.0, 0.0)));
}

}  // namespace
