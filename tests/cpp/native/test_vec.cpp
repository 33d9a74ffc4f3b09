// tests/cpp/native/test_vec.cpp -- vec_t: construction, arithmetic, vector math, adjoints, atomics
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "../../../native/treadle/vec.h"
#include "adjoint_check.h"

namespace {

using wp::half;
using wp::int32;
using wp::vec_t;
using V2 = vec_t<2, double>;
using V3 = vec_t<3, double>;
using V4 = vec_t<4, double>;

// ---- finite-difference adjoint checker: adjoint_check.h, at the tolerance these tests use ----

using adjoint_check::Flat;
using adjoint_check::rand_like;
using adjoint_check::urand;

template <typename F, typename G, typename... In>
void check_adjoint(F f, G g, In... in) {
    adjoint_check::check_adjoint(f, g, 1e-6, in...);
}

// ---- construction and access ----------------------------------------------------------------

TEST(NativeVec, AggregateInitAndAccess) {
    const auto v = wp::vec_t<3, wp::float32>{{1.0f, 2.0f, 3.0f}};
    EXPECT_EQ(v[0], 1.0f);
    EXPECT_EQ(v[2], 3.0f);
    wp::vec3 z{};
    EXPECT_EQ(z, (wp::vec_fill<3, float>(0.0f)));
    z[1] = 5.0f;
    EXPECT_EQ(z.c[1], 5.0f);
    EXPECT_EQ(sizeof(wp::vec3), 12u);
    EXPECT_EQ((sizeof(wp::vec_t<4, half>)), 8u);
    const wp::vec4 f = wp::vec_fill<4, float>(2.5f);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(f[i], 2.5f);
}

TEST(NativeVec, ExtractAndWithComponentAreSafeOutOfRange) {
    const wp::vec3 v{{1.0f, 2.0f, 3.0f}};
    EXPECT_EQ(wp::extract(v, 1), 2.0f);
    EXPECT_EQ(wp::extract(v, -1), 0.0f);
    EXPECT_EQ(wp::extract(v, 3), 0.0f);
    EXPECT_EQ(wp::with_component(v, 2, 9.0f), (wp::vec3{{1.0f, 2.0f, 9.0f}}));
    EXPECT_EQ(wp::with_component(v, 3, 9.0f), v);
    EXPECT_EQ(wp::with_component(v, -7, 9.0f), v);
    EXPECT_EQ(v, (wp::vec3{{1.0f, 2.0f, 3.0f}}));  // by value: the input is untouched
}

// ---- arithmetic -----------------------------------------------------------------------------

TEST(NativeVec, Arithmetic) {
    const wp::vec3 a{{1.0f, -2.0f, 4.0f}}, b{{0.5f, 4.0f, -2.0f}};
    EXPECT_EQ(wp::add(a, b), (wp::vec3{{1.5f, 2.0f, 2.0f}}));
    EXPECT_EQ(wp::sub(a, b), (wp::vec3{{0.5f, -6.0f, 6.0f}}));
    EXPECT_EQ(wp::mul(a, 2.0f), (wp::vec3{{2.0f, -4.0f, 8.0f}}));
    EXPECT_EQ(wp::mul(2.0f, a), (wp::vec3{{2.0f, -4.0f, 8.0f}}));
    EXPECT_EQ(wp::div(a, 4.0f), (wp::vec3{{0.25f, -0.5f, 1.0f}}));
    EXPECT_EQ(wp::neg(a), (wp::vec3{{-1.0f, 2.0f, -4.0f}}));
    EXPECT_EQ(wp::pos(a), a);
    EXPECT_EQ(wp::cw_mul(a, b), (wp::vec3{{0.5f, -8.0f, -8.0f}}));
    EXPECT_EQ(wp::cw_div(a, b), (wp::vec3{{2.0f, -0.5f, -2.0f}}));
    EXPECT_EQ(wp::min(a, b), (wp::vec3{{0.5f, -2.0f, -2.0f}}));
    EXPECT_EQ(wp::max(a, b), (wp::vec3{{1.0f, 4.0f, 4.0f}}));
    EXPECT_EQ(wp::abs(a), (wp::vec3{{1.0f, 2.0f, 4.0f}}));
    EXPECT_TRUE(a == a);
    EXPECT_FALSE(a != a);
    EXPECT_TRUE(a != b);
    const wp::vec3 n{{NAN, 0.0f, 0.0f}};
    EXPECT_FALSE(n == n);
    EXPECT_TRUE(n != n);
}

TEST(NativeVec, IntegerVectorsWrapAndNeverTrap) {
    const wp::vec3i a{{2147483647, -7, 7}}, b{{1, 0, 2}};
    EXPECT_EQ(wp::add(a, b), (wp::vec3i{{-2147483647 - 1, -7, 9}}));
    EXPECT_EQ(wp::cw_div(a, b), (wp::vec3i{{2147483647, 0, 3}}));
    EXPECT_EQ(wp::div(a, 0), (wp::vec3i{{0, 0, 0}}));
    EXPECT_EQ(wp::dot(b, b), 5);
    EXPECT_EQ(wp::abs(a), (wp::vec3i{{2147483647, 7, 7}}));
    wp::vec3i g{};
    wp::adj_add(a, b, g, g, a);  // no-op for integers
    EXPECT_EQ(g, (wp::vec3i{}));
}

TEST(NativeVec, HalfVectors) {
    const wp::vec3h a{{half(1.0f), half(2.0f), half(3.0f)}};
    const wp::vec3h b{{half(0.5f), half(0.25f), half(-1.0f)}};
    const wp::vec3h s = wp::add(a, b), d = wp::sub(a, b), m = wp::mul(a, half(2.0f));
    EXPECT_EQ(float(s[0]), 1.5f);
    EXPECT_EQ(float(s[2]), 2.0f);
    EXPECT_EQ(float(d[1]), 1.75f);
    EXPECT_EQ(float(m[2]), 6.0f);
    EXPECT_EQ(float(wp::mul(half(2.0f), a)[1]), 4.0f);
    EXPECT_EQ(float(wp::dot(a, b)), 0.5f + 0.5f - 3.0f);
    EXPECT_EQ(float(wp::length(wp::vec2h{{half(3.0f), half(4.0f)}})), 5.0f);
}

// ---- vector math ----------------------------------------------------------------------------

TEST(NativeVec, VectorMath) {
    const wp::vec3d a{{1.0, 2.0, 2.0}}, b{{-3.0, 0.5, 4.0}};
    EXPECT_DOUBLE_EQ(wp::dot(a, b), -3.0 + 1.0 + 8.0);
    EXPECT_DOUBLE_EQ(wp::length_sq(a), 9.0);
    EXPECT_DOUBLE_EQ(wp::length(a), 3.0);
    const wp::vec3d n = wp::normalize(a);
    EXPECT_DOUBLE_EQ(n[0], 1.0 / 3.0);
    EXPECT_DOUBLE_EQ(n[2], 2.0 / 3.0);
    EXPECT_EQ(wp::normalize(wp::vec3d{}), wp::vec3d{});
    EXPECT_EQ(wp::normalize(wp::vec3{}), wp::vec3{});
    // numpy: np.cross([1, 2, 2], [-3, 0.5, 4]) == [7, -10, 6.5]
    EXPECT_EQ(wp::cross(a, b), (wp::vec3d{{7.0, -10.0, 6.5}}));
    EXPECT_DOUBLE_EQ(wp::dot(wp::cross(a, b), a), 0.0);
    const wp::vec3 x{{1.0f, 0.0f, 0.0f}}, y{{0.0f, 1.0f, 0.0f}};
    EXPECT_EQ(wp::cross(x, y), (wp::vec3{{0.0f, 0.0f, 1.0f}}));
    EXPECT_FLOAT_EQ(wp::length(wp::vec4{{1.0f, 1.0f, 1.0f, 1.0f}}), 2.0f);
}

// ---- adjoints against central finite differences ------------------------------------------

TEST(NativeVecAdjoint, Construction) {
    check_adjoint(
        [](double x, double y) {
            return V2{{x, y}};
        },
        [](double, double, double& gx, double& gy, V2 w) { wp::adj_vec_components(w, gx, gy); },
        0.3, -0.7);
    check_adjoint(
        [](double x, double y, double z) {
            return V3{{x, y, z}};
        },
        [](double, double, double, double& gx, double& gy, double& gz, V3 w) {
            wp::adj_vec_components(w, gx, gy, gz);
        },
        0.3, -0.7, 0.1);
    check_adjoint(
        [](double x, double y, double z, double u) {
            return V4{{x, y, z, u}};
        },
        [](double, double, double, double, double& gx, double& gy, double& gz, double& gu, V4 w) {
            wp::adj_vec_components(w, gx, gy, gz, gu);
        },
        0.3, -0.7, 0.1, 2.0);
    check_adjoint([](double s) { return wp::vec_fill<3, double>(s); },
                  [](double s, double& gs, V3 w) { wp::adj_vec_fill(s, gs, w); }, 0.4);
}

TEST(NativeVecAdjoint, ExtractAndWithComponent) {
    for (int i = -1; i <= 3; ++i) {
        check_adjoint(
            [](V3 a, int32 k) { return wp::extract(a, k); },
            [](V3 a, int32 k, V3& ga, int32& gk, double w) { wp::adj_extract(a, k, ga, gk, w); },
            rand_like<V3>(), i);
        check_adjoint([](V3 a, int32 k, double s) { return wp::with_component(a, k, s); },
                      [](V3 a, int32 k, double s, V3& ga, int32& gk, double& gs, V3 w) {
                          wp::adj_with_component(a, k, s, ga, gk, gs, w);
                      },
                      rand_like<V3>(), i, 0.6);
    }
}

TEST(NativeVecAdjoint, Arithmetic) {
    const V3 a = rand_like<V3>(), b = rand_like<V3>();
    const V3 bb = wp::add(b, wp::vec_fill<3, double>(3.0));  // away from zero for division
    check_adjoint([](V3 x, V3 y) { return wp::add(x, y); },
                  [](V3 x, V3 y, V3& gx, V3& gy, V3 w) { wp::adj_add(x, y, gx, gy, w); }, a, b);
    check_adjoint([](V3 x, V3 y) { return wp::sub(x, y); },
                  [](V3 x, V3 y, V3& gx, V3& gy, V3 w) { wp::adj_sub(x, y, gx, gy, w); }, a, b);
    check_adjoint([](V3 x, V3 y) { return wp::cw_mul(x, y); },
                  [](V3 x, V3 y, V3& gx, V3& gy, V3 w) { wp::adj_cw_mul(x, y, gx, gy, w); }, a, b);
    check_adjoint([](V3 x, V3 y) { return wp::cw_div(x, y); },
                  [](V3 x, V3 y, V3& gx, V3& gy, V3 w) { wp::adj_cw_div(x, y, gx, gy, w); }, a, bb);
    check_adjoint([](V3 x, double s) { return wp::mul(x, s); },
                  [](V3 x, double s, V3& gx, double& gs, V3 w) { wp::adj_mul(x, s, gx, gs, w); }, a,
                  1.7);
    check_adjoint([](double s, V3 x) { return wp::mul(s, x); },
                  [](double s, V3 x, double& gs, V3& gx, V3 w) { wp::adj_mul(s, x, gs, gx, w); },
                  -1.3, a);
    check_adjoint([](V3 x, double s) { return wp::div(x, s); },
                  [](V3 x, double s, V3& gx, double& gs, V3 w) { wp::adj_div(x, s, gx, gs, w); }, a,
                  1.7);
    check_adjoint([](V3 x) { return wp::neg(x); },
                  [](V3 x, V3& gx, V3 w) { wp::adj_neg(x, gx, w); }, a);
    check_adjoint([](V3 x) { return wp::pos(x); },
                  [](V3 x, V3& gx, V3 w) { wp::adj_pos(x, gx, w); }, a);
    check_adjoint([](V3 x, V3 y) { return wp::min(x, y); },
                  [](V3 x, V3 y, V3& gx, V3& gy, V3 w) { wp::adj_min(x, y, gx, gy, w); }, a, b);
    check_adjoint([](V3 x, V3 y) { return wp::max(x, y); },
                  [](V3 x, V3 y, V3& gx, V3& gy, V3 w) { wp::adj_max(x, y, gx, gy, w); }, a, b);
    check_adjoint([](V3 x) { return wp::abs(x); },
                  [](V3 x, V3& gx, V3 w) { wp::adj_abs(x, gx, w); }, a);
}

TEST(NativeVecAdjoint, VectorMath) {
    for (int trial = 0; trial < 5; ++trial) {
        const V3 a = rand_like<V3>(), b = rand_like<V3>();
        check_adjoint([](V3 x, V3 y) { return wp::dot(x, y); },
                      [](V3 x, V3 y, V3& gx, V3& gy, double w) { wp::adj_dot(x, y, gx, gy, w); }, a,
                      b);
        check_adjoint([](V3 x) { return wp::length_sq(x); },
                      [](V3 x, V3& gx, double w) { wp::adj_length_sq(x, gx, w); }, a);
        check_adjoint([](V3 x) { return wp::length(x); },
                      [](V3 x, V3& gx, double w) { wp::adj_length(x, gx, w); }, a);
        check_adjoint([](V3 x) { return wp::normalize(x); },
                      [](V3 x, V3& gx, V3 w) { wp::adj_normalize(x, gx, w); }, a);
        check_adjoint([](V3 x, V3 y) { return wp::cross(x, y); },
                      [](V3 x, V3 y, V3& gx, V3& gy, V3 w) { wp::adj_cross(x, y, gx, gy, w); }, a,
                      b);
        const V4 c = rand_like<V4>();
        check_adjoint([](V4 x) { return wp::normalize(x); },
                      [](V4 x, V4& gx, V4 w) { wp::adj_normalize(x, gx, w); }, c);
    }
    // Zero vector: no gradient (and no NaN).
    V3 g{};
    wp::adj_length(V3{}, g, 1.0);
    wp::adj_normalize(V3{}, g, V3{{1.0, 1.0, 1.0}});
    EXPECT_EQ(g, V3{});
}

// ---- atomics --------------------------------------------------------------------------------

template <typename E>
wp::array_t<E> make_array(E* data, int n0, int n1 = 0) {
    wp::array_t<E> a{};
    a.data = data;
    a.shape[0] = n0;
    a.ndim = 1;
    a.strides[0] = wp::int64(sizeof(E)) * (n1 ? n1 : 1);
    if (n1) {
        a.shape[1] = n1;
        a.strides[1] = sizeof(E);
        a.ndim = 2;
    }
    return a;
}

TEST(NativeVecAtomic, ContendedAddSubUnderEightThreads) {
    constexpr int kThreads = 8, kIters = 20000;
    std::vector<wp::vec3> fbuf(4, wp::vec3{});
    std::vector<wp::vec4i> ibuf(6, wp::vec4i{});
    const auto fa = make_array(fbuf.data(), 4);
    const auto ia = make_array(ibuf.data(), 2, 3);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&] {
            for (int n = 0; n < kIters; ++n) {
                wp::atomic_add(fa, 1, wp::vec3{{1.0f, 2.0f, -0.5f}});
                wp::atomic_sub(fa, 2, wp::vec3{{1.0f, 0.25f, 4.0f}});
                wp::atomic_add(ia, 1, 2, wp::vec4i{{1, -1, 3, 0}});
                wp::atomic_sub(&ibuf[0], wp::vec4i{{1, 2, 3, 4}});
            }
        });
    }
    for (auto& th : threads) th.join();
    const float n = float(kThreads) * kIters;
    EXPECT_EQ(fbuf[1], (wp::vec3{{n, 2 * n, -0.5f * n}}));
    EXPECT_EQ(fbuf[2], (wp::vec3{{-n, -0.25f * n, -4 * n}}));
    EXPECT_EQ(fbuf[0], wp::vec3{});
    const int m = kThreads * kIters;
    EXPECT_EQ(ibuf[5], (wp::vec4i{{m, -m, 3 * m, 0}}));
    EXPECT_EQ(ibuf[0], (wp::vec4i{{-m, -2 * m, -3 * m, -4 * m}}));
    EXPECT_EQ(ibuf[4], wp::vec4i{});
}

TEST(NativeVecAtomic, ReturnsOldValueAndMinMax) {
    wp::vec3 buf[2] = {wp::vec3{{1.0f, 5.0f, -2.0f}}, wp::vec3{}};
    const auto a = make_array(buf, 2);
    EXPECT_EQ(wp::atomic_add(a, 0, wp::vec3{{1.0f, 1.0f, 1.0f}}), (wp::vec3{{1.0f, 5.0f, -2.0f}}));
    EXPECT_EQ(wp::atomic_min(a, 0, wp::vec3{{0.0f, 9.0f, 0.0f}}), (wp::vec3{{2.0f, 6.0f, -1.0f}}));
    EXPECT_EQ(buf[0], (wp::vec3{{0.0f, 6.0f, -1.0f}}));
    EXPECT_EQ(wp::atomic_max(&buf[0], wp::vec3{{3.0f, 3.0f, 3.0f}}),
              (wp::vec3{{0.0f, 6.0f, -1.0f}}));
    EXPECT_EQ(buf[0], (wp::vec3{{3.0f, 6.0f, 3.0f}}));
    wp::vec3d d{};
    wp::atomic_add(&d, wp::vec3d{{0.5, 0.25, 1.0}});
    EXPECT_EQ(d, (wp::vec3d{{0.5, 0.25, 1.0}}));
}

// ---- print ----------------------------------------------------------------------------------

std::string printed(void (*fn)()) {
    ::testing::internal::CaptureStdout();
    fn();
    fflush(stdout);
    return ::testing::internal::GetCapturedStdout();
}

TEST(NativeVec, PrintUsesWarpFormat) {
    EXPECT_EQ(printed([] { wp::print(wp::vec3{{1.0f, 2.5f, -3.0f}}); }), "1 2.5 -3 \n");
    EXPECT_EQ(printed([] { wp::print(wp::vec2h{{half(0.5f), half(2.0f)}}); }), "0.5 2 \n");
    EXPECT_EQ(printed([] { wp::print(wp::vec4i{{1, -2, 3, 4}}); }), "1 -2 3 4 \n");
    EXPECT_EQ(printed([] { wp::print(vec_t<5, wp::uint8>{{1, 2, 3, 4, 255}}); }), "1 2 3 4 255 \n");
    EXPECT_EQ(printed([] { wp::print(vec_t<1, double>{{1e-7}}); }), "1e-07 \n");
}

}  // namespace
