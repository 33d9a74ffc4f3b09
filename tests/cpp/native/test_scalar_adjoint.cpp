// tests/cpp/native/test_scalar_adjoint.cpp -- every scalar adjoint against central differences
#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>

#include "../../../native/treadle/scalar.h"

namespace {

using wp::half;

constexpr double kStep = 1e-6;
constexpr double kAdjRet = 1.3;    // a non-unit incoming adjoint
constexpr double kAdjInit = 0.25;  // adjoints must accumulate with +=

void expect_close(double got, double want, const char* what, double x) {
    EXPECT_NEAR(got, want, 1e-6 * std::fmax(1.0, std::fabs(want))) << what << " at " << x;
}

// Unary: compare d/dx against (f(x+h) - f(x-h)) / 2h in double, then check that the float and
// float16 overloads agree with the double gradient to their precision.
template <typename F, typename FF, typename FH, typename A, typename AF, typename AH>
void check_unary(const char* name, F f, FF, FH, A adj, AF adjf, AH adjh,
                 std::initializer_list<double> points) {
    for (double x : points) {
        const double fd = (f(x + kStep) - f(x - kStep)) / (2 * kStep);
        double g = kAdjInit;
        adj(x, g, kAdjRet);
        expect_close(g - kAdjInit, fd * kAdjRet, name, x);
        float gf = float(kAdjInit);
        adjf(float(x), gf, float(kAdjRet));
        EXPECT_NEAR(gf - kAdjInit, fd * kAdjRet, 1e-4 * std::fmax(1.0, std::fabs(fd)))
            << name << " (float) at " << x;
        const half xh(x);
        double gref = 0.0;
        adj(double(xh), gref, kAdjRet);  // the exact gradient at the rounded point
        half gh(0.0f);
        adjh(xh, gh, half(kAdjRet));
        EXPECT_NEAR(float(gh), gref, 4e-3 * std::fmax(1.0, std::fabs(gref)))
            << name << " (half) at " << x;
    }
}

#define UNARY(name, ...)                                                                  \
    check_unary(                                                                          \
        #name, [](double x) { return wp::name(x); }, [](float x) { return wp::name(x); }, \
        [](half x) { return wp::name(x); },                                               \
        [](double x, double& g, double r) { wp::adj_##name(x, g, r); },                   \
        [](float x, float& g, float r) { wp::adj_##name(x, g, r); },                      \
        [](half x, half& g, half r) { wp::adj_##name(x, g, r); }, {__VA_ARGS__})

TEST(NativeAdjoint, UnaryAgainstFiniteDifferences) {
    UNARY(sqrt, 0.3, 1.7, 5.0);
    UNARY(cbrt, -2.0, -0.3, 0.5, 3.0);
    UNARY(exp, -2.3, -0.7, 0.4, 1.9);
    UNARY(log, 0.3, 1.7, 5.0);
    UNARY(log2, 0.3, 1.7, 5.0);
    UNARY(log10, 0.3, 1.7, 5.0);
    UNARY(sin, -2.3, -0.7, 0.4, 1.9);
    UNARY(cos, -2.3, -0.7, 0.4, 1.9);
    UNARY(tan, -1.2, 0.3, 1.0);
    UNARY(asin, -0.8, -0.2, 0.3, 0.9);
    UNARY(acos, -0.8, -0.2, 0.3, 0.9);
    UNARY(atan, -2.3, -0.7, 0.4, 1.9);
    UNARY(sinh, -2.3, -0.7, 0.4, 1.9);
    UNARY(cosh, -2.3, -0.7, 0.4, 1.9);
    UNARY(tanh, -2.3, -0.7, 0.4, 1.9);
    UNARY(degrees, -2.3, 0.4);
    UNARY(radians, -2.3, 0.4);
    UNARY(abs, -2.3, -0.7, 0.4, 1.9);
    UNARY(neg, -2.3, 0.4);
    UNARY(pos, -2.3, 0.4);
    UNARY(sign, -2.3, 0.4);
    UNARY(floor, -2.3, -0.7, 0.4, 1.9);
    UNARY(ceil, -2.3, -0.7, 0.4, 1.9);
    UNARY(round, -2.3, -0.7, 0.4, 1.9);
    UNARY(rint, -2.3, -0.7, 0.4, 1.9);
    UNARY(trunc, -2.3, -0.7, 0.4, 1.9);
}

template <typename F, typename A>
void check_binary(const char* name, F f, A adj, std::initializer_list<double> as,
                  std::initializer_list<double> bs) {
    for (double a : as) {
        for (double b : bs) {
            const double fa = (f(a + kStep, b) - f(a - kStep, b)) / (2 * kStep);
            const double fb = (f(a, b + kStep) - f(a, b - kStep)) / (2 * kStep);
            double ga = kAdjInit, gb = kAdjInit;
            adj(a, b, ga, gb, kAdjRet);
            expect_close(ga - kAdjInit, fa * kAdjRet, name, a);
            expect_close(gb - kAdjInit, fb * kAdjRet, name, b);
        }
    }
}

#define BINARY(name, as, bs)                                       \
    check_binary(                                                  \
        #name, [](double a, double b) { return wp::name(a, b); },  \
        [](double a, double b, double& ga, double& gb, double r) { \
            wp::adj_##name(a, b, ga, gb, r);                       \
        },                                                         \
        std::initializer_list<double> as, std::initializer_list<double> bs)

TEST(NativeAdjoint, BinaryAgainstFiniteDifferences) {
    BINARY(add, ({-1.7, 0.6, 2.2}), ({-1.3, 0.8, 2.9}));
    BINARY(sub, ({-1.7, 0.6, 2.2}), ({-1.3, 0.8, 2.9}));
    BINARY(mul, ({-1.7, 0.6, 2.2}), ({-1.3, 0.8, 2.9}));
    BINARY(div, ({-1.7, 0.6, 2.2}), ({-1.3, 0.8, 2.9}));
    BINARY(floordiv, ({-1.7, 0.6, 2.2}), ({-1.3, 0.8, 2.9}));
    BINARY(min, ({-1.7, 0.6, 2.2}), ({-1.3, 0.8, 2.9}));
    BINARY(max, ({-1.7, 0.6, 2.2}), ({-1.3, 0.8, 2.9}));
    BINARY(pow, ({0.6, 2.2, 3.1}), ({-1.3, 0.8, 2.9}));
    BINARY(atan2, ({-1.7, 0.6, 2.2}), ({-1.3, 0.8, 2.9}));
}

// Warp's adjoint of mod (fmod): the gradient goes to a only; b gets none (not -trunc(a/b)).
TEST(NativeAdjoint, ModPassesTheGradientToAOnly) {
    for (double a : {-1.7, 0.6, 2.2}) {
        double ga = kAdjInit, gb = kAdjInit;
        wp::adj_mod(a, 0.8, ga, gb, kAdjRet);
        expect_close(ga - kAdjInit, kAdjRet, "mod a", a);
        expect_close(gb, kAdjInit, "mod b", a);
    }
}

TEST(NativeAdjoint, ClampAgainstFiniteDifferences) {
    auto f = [](double x, double lo, double hi) { return wp::clamp(x, lo, hi); };
    for (double x : {-2.0, -0.3, 0.3, 2.0}) {
        const double lo = -1.0, hi = 1.0;
        double gx = 0, glo = 0, ghi = 0;
        wp::adj_clamp(x, lo, hi, gx, glo, ghi, kAdjRet);
        const double h = kStep;
        expect_close(gx, (f(x + h, lo, hi) - f(x - h, lo, hi)) / (2 * h) * kAdjRet, "clamp x", x);
        expect_close(glo, (f(x, lo + h, hi) - f(x, lo - h, hi)) / (2 * h) * kAdjRet, "clamp lo", x);
        expect_close(ghi, (f(x, lo, hi + h) - f(x, lo, hi - h)) / (2 * h) * kAdjRet, "clamp hi", x);
    }
    float gx = 0, glo = 0, ghi = 0;
    wp::adj_clamp(0.5f, 0.0f, 1.0f, gx, glo, ghi, 2.0f);
    EXPECT_EQ(gx, 2.0f);
    half hx(0.0f), hlo(0.0f), hhi(0.0f);
    wp::adj_clamp(half(3.0f), half(0.0f), half(1.0f), hx, hlo, hhi, half(2.0f));
    EXPECT_EQ(float(hhi), 2.0f);
    EXPECT_EQ(float(hx), 0.0f);
}

TEST(NativeAdjoint, BinaryFloatAndHalfOverloads) {
    float ga = 0, gb = 0;
    wp::adj_mul(2.0f, 3.0f, ga, gb, 1.0f);
    EXPECT_EQ(ga, 3.0f);
    EXPECT_EQ(gb, 2.0f);
    half ha(1.0f), hb(0.0f);
    wp::adj_mul(half(2.0f), half(3.0f), ha, hb, half(1.0f));
    EXPECT_EQ(float(ha), 4.0f);
    EXPECT_EQ(float(hb), 2.0f);
    half pa(0.0f), pb(0.0f);
    wp::adj_pow(half(2.0f), half(3.0f), pa, pb, half(1.0f));
    EXPECT_EQ(float(pa), 12.0f);
    EXPECT_NEAR(float(pb), 8.0 * std::log(2.0), 1e-2);
    half da(0.0f), db(0.0f);
    wp::adj_div(half(1.0f), half(2.0f), da, db, half(1.0f));
    EXPECT_EQ(float(da), 0.5f);
    EXPECT_EQ(float(db), -0.25f);
    half sa(0.0f), sb(0.0f);
    wp::adj_add(half(1.0f), half(2.0f), sa, sb, half(1.5f));
    wp::adj_sub(half(1.0f), half(2.0f), sa, sb, half(1.0f));
    EXPECT_EQ(float(sa), 2.5f);
    EXPECT_EQ(float(sb), 0.5f);
    half ya(0.0f), yb(0.0f);
    wp::adj_atan2(half(1.0f), half(1.0f), ya, yb, half(1.0f));
    EXPECT_EQ(float(ya), 0.5f);
    EXPECT_EQ(float(yb), -0.5f);
    half ma(0.0f), mb(0.0f);
    wp::adj_min(half(1.0f), half(2.0f), ma, mb, half(1.0f));
    wp::adj_max(half(1.0f), half(2.0f), ma, mb, half(1.0f));
    EXPECT_EQ(float(ma), 1.0f);
    EXPECT_EQ(float(mb), 1.0f);
}

TEST(NativeAdjoint, DocumentedChoicesAtKinks) {
    double g = 0;
    wp::adj_sqrt(0.0, g, 1.0);
    EXPECT_EQ(g, 0.0);
    wp::adj_cbrt(0.0, g, 1.0);
    EXPECT_EQ(g, 0.0);
    wp::adj_asin(1.0, g, 1.0);
    wp::adj_acos(-1.0, g, 1.0);
    EXPECT_EQ(g, 0.0);
    double gy = 0, gx = 0;
    wp::adj_atan2(0.0, 0.0, gy, gx, 1.0);
    EXPECT_EQ(gy, 0.0);
    EXPECT_EQ(gx, 0.0);
    double pa = 0, pb = 0;
    wp::adj_pow(0.0, 0.0, pa, pb, 1.0);  // b == 0: no base gradient; a <= 0: none to b
    EXPECT_EQ(pa, 0.0);
    EXPECT_EQ(pb, 0.0);
    wp::adj_pow(-2.0, 3.0, pa, pb, 1.0);
    EXPECT_EQ(pa, 12.0);
    EXPECT_EQ(pb, 0.0);
    double ga = 0;
    wp::adj_abs(0.0, ga, 1.0);  // +1 at zero
    EXPECT_EQ(ga, 1.0);
    double a = 0, b = 0;
    wp::adj_min(1.0, 1.0, a, b, 1.0);  // ties -> first argument
    EXPECT_EQ(a, 1.0);
    EXPECT_EQ(b, 0.0);
    wp::adj_max(1.0, 1.0, a, b, 1.0);
    EXPECT_EQ(a, 2.0);
    EXPECT_EQ(b, 0.0);
    double cx = 0, clo = 0, chi = 0;
    wp::adj_clamp(-1.0, -1.0, 1.0, cx, clo, chi, 1.0);  // x == lo passes through
    wp::adj_clamp(1.0, -1.0, 1.0, cx, clo, chi, 1.0);   // x == hi passes through
    EXPECT_EQ(cx, 2.0);
    wp::adj_clamp(0.0, 2.0, 1.0, cx, clo, chi, 1.0);  // lo > hi: hi was returned
    EXPECT_EQ(chi, 1.0);
    EXPECT_EQ(clo, 0.0);
    double s = 0;
    wp::adj_sign(0.0, s, 1.0);
    wp::adj_floor(1.0, s, 1.0);
    EXPECT_EQ(s, 0.0);
}

TEST(NativeAdjoint, IntegersCarryNoGradient) {
    int ga = 5, gb = 7;
    wp::adj_add(1, 2, ga, gb, 3);
    wp::adj_mul(1, 2, ga, gb, 3);
    wp::adj_div(1, 2, ga, gb, 3);
    wp::adj_mod(1, 2, ga, gb, 3);
    wp::adj_pow(1, 2, ga, gb, 3);
    wp::adj_min(1, 2, ga, gb, 3);
    wp::adj_max(1, 2, ga, gb, 3);
    wp::adj_bit_xor(1, 2, ga, gb, 3);
    wp::adj_abs(-1, ga, 3);
    wp::adj_neg(-1, ga, 3);
    EXPECT_EQ(ga, 5);
    EXPECT_EQ(gb, 7);
}

TEST(NativeAdjoint, Cast) {
    double gd = 1.0;
    wp::adj_cast<float>(2.0, gd, 0.5f);
    EXPECT_EQ(gd, 1.5);
    float gf = 0.0f;
    wp::adj_cast<half>(2.0f, gf, half(0.25f));
    EXPECT_EQ(gf, 0.25f);
    float gi = 0.0f;
    wp::adj_cast<int>(2.5f, gi, 3);
    EXPECT_EQ(gi, 0.0f);
}

}  // namespace
