// tests/cpp/native/test_noise_sampling.cpp -- sample_*, poisson, Perlin noise and noise adjoints
#include <gtest/gtest.h>

#include <cmath>

#include "../../../native/treadle/noise.h"

namespace {

using wp::float32;
using wp::uint32;
using wp::vec_t;

// ---- sampling -------------------------------------------------------------------------------

TEST(NativeSampling, PointsLieInTheirDomains) {
    uint32 s = wp::rand_init(3, 4);
    for (int n = 0; n < 2000; ++n) {
        const auto tri = wp::sample_triangle(s);
        EXPECT_GE(tri.c[0], 0.0f);
        EXPECT_GE(tri.c[1], 0.0f);
        EXPECT_LE(tri.c[0] + tri.c[1], 1.0f + 1e-6f);
        EXPECT_NEAR(wp::length(wp::sample_unit_ring(s)), 1.0f, 1e-6f);
        EXPECT_LE(wp::length(wp::sample_unit_disk(s)), 1.0f + 1e-6f);
        EXPECT_NEAR(wp::length(wp::sample_unit_sphere_surface(s)), 1.0f, 1e-6f);
        EXPECT_LE(wp::length(wp::sample_unit_sphere(s)), 1.0f + 1e-6f);
        const auto hs = wp::sample_unit_hemisphere_surface(s);
        EXPECT_NEAR(wp::length(hs), 1.0f, 1e-6f);
        EXPECT_GE(hs.c[2], 0.0f);
        const auto hb = wp::sample_unit_hemisphere(s);
        EXPECT_LE(wp::length(hb), 1.0f + 1e-6f);
        EXPECT_GE(hb.c[2], 0.0f);
        const auto cube = wp::sample_unit_hypercube(s);
        for (int k = 0; k < 4; ++k) {
            EXPECT_GE(cube.c[k], -0.5f);
            EXPECT_LT(cube.c[k], 0.5f);
        }
    }
}

TEST(NativeSampling, DrawCounts) {
    // Each sampler advances the state by its number of draws.
    auto draws = [](auto sampler) {
        uint32 s = wp::rand_init(5), t = s;
        sampler(s);
        int n = 0;
        while (t != s && n < 10) {
            t = wp::rand_pcg(t);
            ++n;
        }
        return n;
    };
    EXPECT_EQ(draws([](uint32& s) { wp::sample_triangle(s); }), 2);
    EXPECT_EQ(draws([](uint32& s) { wp::sample_unit_ring(s); }), 1);
    EXPECT_EQ(draws([](uint32& s) { wp::sample_unit_disk(s); }), 2);
    EXPECT_EQ(draws([](uint32& s) { wp::sample_unit_sphere_surface(s); }), 2);
    EXPECT_EQ(draws([](uint32& s) { wp::sample_unit_sphere(s); }), 3);
    EXPECT_EQ(draws([](uint32& s) { wp::sample_unit_hemisphere(s); }), 3);
    EXPECT_EQ(draws([](uint32& s) { wp::sample_unit_square(s); }), 2);
    EXPECT_EQ(draws([](uint32& s) { wp::sample_unit_cube(s); }), 3);
    EXPECT_EQ(draws([](uint32& s) { wp::poisson(s, 0.0f); }), 0);
}

TEST(NativeSampling, SampleCdfIsTheInverseTransform) {
    float32 cdf_data[4] = {0.1f, 0.5f, 0.5f, 1.0f};
    wp::array_t<float32> cdf{};
    cdf.data = cdf_data;
    cdf.shape[0] = 4;
    cdf.strides[0] = sizeof(float32);
    cdf.ndim = 1;
    int counts[4] = {0, 0, 0, 0};
    uint32 s = wp::rand_init(12);
    for (int n = 0; n < 20000; ++n) {
        uint32 t = s;
        const float32 u = wp::randf(t);
        const wp::int32 k = wp::sample_cdf(s, cdf);
        EXPECT_EQ(s, t);  // one draw
        EXPECT_TRUE(cdf_data[k] >= u && (k == 0 || cdf_data[k - 1] < u));
        ++counts[k];
    }
    EXPECT_NEAR(counts[0] / 20000.0, 0.1, 0.01);
    EXPECT_NEAR(counts[1] / 20000.0, 0.4, 0.015);
    EXPECT_EQ(counts[2], 0);  // an empty bin is never chosen
    EXPECT_NEAR(counts[3] / 20000.0, 0.5, 0.015);
}

TEST(NativeSampling, LogGammaAndPoissonMoments) {
    for (float32 x : {1.0f, 1.5f, 2.0f, 3.0f, 6.5f, 7.0f, 12.0f, 101.0f, 1000.0f})
        EXPECT_NEAR(wp::rand_log_gamma(x), std::lgamma(double(x)), 2e-4 * std::max(1.0, double(x)));
    for (float32 lam : {0.3f, 4.0f, 12.0f, 80.0f}) {
        uint32 s = wp::rand_init(7);
        double sum = 0, sq = 0;
        const int n = 20000;
        for (int i = 0; i < n; ++i) {
            const double k = wp::poisson(s, lam);
            sum += k;
            sq += k * k;
        }
        const double mean = sum / n, var = sq / n - mean * mean;
        EXPECT_NEAR(mean, lam, 5 * std::sqrt(lam / n)) << lam;
        EXPECT_NEAR(var / lam, 1.0, 0.06) << lam;
    }
}

// ---- noise ----------------------------------------------------------------------------------

template <int N>
vec_t<N, float32> point(uint32& s, float32 scale = 8.0f) {
    vec_t<N, float32> p{};
    for (int k = 0; k < N; ++k) p.c[k] = wp::randf(s, -scale, scale);
    return p;
}

template <int N>
void check_noise_gradient() {
    uint32 s = wp::rand_init(N);
    const uint32 field = wp::rand_init(42);
    for (int n = 0; n < 200; ++n) {
        const vec_t<N, float32> x = point<N>(s);
        vec_t<N, float32> g{};
        uint32 gs = 0;
        wp::adj_noise(field, x, gs, g, 2.0f);
        const float32 v = wp::noise(field, x);
        EXPECT_LE(std::fabs(v), 1.0f);
        for (int k = 0; k < N; ++k) {
            const float32 h = 1e-3f;
            auto xp = x, xm = x;
            xp.c[k] += h;
            xm.c[k] -= h;
            const float32 fd = (wp::noise(field, xp) - wp::noise(field, xm)) / (2 * h);
            EXPECT_NEAR(g.c[k], 2.0f * fd, 1e-2f) << "axis " << k;
        }
    }
}

TEST(NativeNoise, ZeroAtLatticePointsAndContinuous) {
    const uint32 field = wp::rand_init(1);
    for (int i = -5; i < 5; ++i) {
        EXPECT_EQ(wp::noise(field, float32(i)), 0.0f);
        EXPECT_EQ(wp::noise(field, vec_t<3, float32>{{float32(i), 2.0f, -3.0f}}), 0.0f);
        // continuous across cell faces
        const float32 below = wp::noise(field, vec_t<2, float32>{{float32(i) - 1e-4f, 0.3f}});
        const float32 above = wp::noise(field, vec_t<2, float32>{{float32(i) + 1e-4f, 0.3f}});
        EXPECT_NEAR(below, above, 1e-3f);
    }
    EXPECT_NE(wp::noise(field, 0.5f), wp::noise(wp::rand_init(2), 0.5f));
}

TEST(NativeNoise, GradientMatchesFiniteDifferences) {
    uint32 s = wp::rand_init(9);
    for (int n = 0; n < 200; ++n) {
        const float32 x = wp::randf(s, -10.0f, 10.0f);
        float32 g = 0.0f;
        uint32 gs = 0;
        wp::adj_noise(wp::rand_init(4), x, gs, g, 1.0f);
        const float32 fd =
            (wp::noise(wp::rand_init(4), x + 1e-3f) - wp::noise(wp::rand_init(4), x - 1e-3f)) /
            2e-3f;
        EXPECT_NEAR(g, fd, 1e-2f);
    }
    check_noise_gradient<2>();
    check_noise_gradient<3>();
    check_noise_gradient<4>();
}

TEST(NativeNoise, PeriodicNoiseRepeatsAndHasTheSameGradient) {
    const uint32 field = wp::rand_init(5);
    for (int i = 0; i < 40; ++i) {
        const float32 x = 0.125f * float32(i);
        EXPECT_EQ(wp::pnoise(field, x, 3), wp::pnoise(field, x + 3.0f, 3));
        const vec_t<4, float32> p{{x, 0.25f * x, 1.5f, x * 0.5f}};
        const vec_t<4, float32> q{{x + 2.0f, 0.25f * x + 4.0f, 1.5f + 5.0f, x * 0.5f + 3.0f}};
        EXPECT_EQ(wp::pnoise(field, p, 2, 4, 5, 3), wp::pnoise(field, q, 2, 4, 5, 3));
        const vec_t<2, float32> a{{x, 1.0f - x}};
        EXPECT_EQ(wp::pnoise(field, a, 1000, 1000), wp::noise(field, a));  // within one period
        vec_t<2, float32> gp{}, gn{};
        uint32 gs = 0;
        wp::int32 gi = 0;
        wp::adj_pnoise(field, a, 1000, 1000, gs, gp, gi, gi, 1.0f);
        wp::adj_noise(field, a, gs, gn, 1.0f);
        EXPECT_EQ(gp, gn);
    }
    float32 g1 = 0.0f;
    uint32 gs = 0;
    wp::int32 gi = 0;
    wp::adj_pnoise(field, 0.3f, 4, gs, g1, gi, 1.0f);
    float32 g2 = 0.0f;
    wp::adj_noise(field, 0.3f, gs, g2, 1.0f);
    EXPECT_EQ(g1, g2);
}

template <int N, int M>
void check_curl_adjoint(uint32 octaves) {
    uint32 s = wp::rand_init(10 + N);
    const uint32 field = wp::rand_init(77);
    for (int n = 0; n < 50; ++n) {
        const vec_t<N, float32> x = point<N>(s, 4.0f);
        const vec_t<M, float32> w = point<M>(s, 1.0f);
        vec_t<N, float32> g{};
        uint32 gs = 0, go = 0;
        float32 gl = 0, gg = 0;
        wp::adj_curlnoise(field, x, octaves, 2.0f, 0.5f, gs, g, go, gl, gg, w);
        for (int k = 0; k < N; ++k) {
            const float32 h = 1e-3f;
            auto xp = x, xm = x;
            xp.c[k] += h;
            xm.c[k] -= h;
            const float32 fd = (wp::dot(w, wp::curlnoise(field, xp, octaves, 2.0f, 0.5f)) -
                                wp::dot(w, wp::curlnoise(field, xm, octaves, 2.0f, 0.5f))) /
                               (2 * h);
            EXPECT_NEAR(g.c[k], fd, 3e-2f * std::max(1.0f, std::fabs(fd))) << "axis " << k;
        }
    }
}

TEST(NativeNoise, CurlNoiseIsDivergenceFreeAndItsAdjointMatches) {
    const uint32 field = wp::rand_init(8);
    uint32 s = wp::rand_init(1);
    for (int n = 0; n < 50; ++n) {
        const vec_t<3, float32> x = point<3>(s, 3.0f);
        float32 div = 0.0f;
        for (int k = 0; k < 3; ++k) {
            auto xp = x, xm = x;
            xp.c[k] += 1e-3f;
            xm.c[k] -= 1e-3f;
            div += (wp::curlnoise(field, xp).c[k] - wp::curlnoise(field, xm).c[k]) / 2e-3f;
        }
        EXPECT_NEAR(div, 0.0f, 5e-2f);
    }
    // the 2-D curl is the gradient turned by 90 degrees
    const vec_t<2, float32> p{{0.3f, -1.7f}};
    vec_t<2, float32> grad{};
    uint32 gs = 0;
    wp::adj_noise(field, p, gs, grad, 1.0f);
    const vec_t<2, float32> c = wp::curlnoise(field, p);
    EXPECT_EQ(c.c[0], -grad.c[1]);
    EXPECT_EQ(c.c[1], grad.c[0]);
    check_curl_adjoint<2, 2>(1);
    check_curl_adjoint<2, 2>(3);
    check_curl_adjoint<3, 3>(1);
    check_curl_adjoint<3, 3>(2);
    check_curl_adjoint<4, 3>(2);
}

}  // namespace
