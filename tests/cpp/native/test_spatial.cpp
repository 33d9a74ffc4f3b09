// tests/cpp/native/test_spatial.cpp -- spatial vectors and matrices: builtins and adjoints
#include <gtest/gtest.h>

#include "../../../native/treadle/spatial.h"
#include "adjoint_check.h"

namespace {

using adjoint_check::check_adjoint;
using adjoint_check::rand_like;
using V3 = wp::vec_t<3, double>;
using V6 = wp::vec_t<6, double>;
using M3 = wp::mat_t<3, 3, double>;

TEST(NativeSpatial, PartsDotAndAdjointBlocks) {
    const V6 a = wp::spatial_vector(V3{{1, 2, 3}}, V3{{4, 5, 6}});
    EXPECT_EQ(a, (V6{{1, 2, 3, 4, 5, 6}}));
    EXPECT_EQ(wp::spatial_top(a), (V3{{1, 2, 3}}));
    EXPECT_EQ(wp::spatial_bottom(a), (V3{{4, 5, 6}}));
    EXPECT_EQ(wp::spatial_dot(a, a), 91.0);
    const M3 r{{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}}, s = wp::skew(V3{{1, 2, 3}});
    const wp::mat_t<6, 6, double> m = wp::spatial_adjoint(r, s);
    EXPECT_EQ(m.m[0][0], 1.0);
    EXPECT_EQ(m.m[5][5], 9.0);
    EXPECT_EQ(m.m[0][3], 0.0);
    EXPECT_EQ(m.m[4][0], s.m[1][0]);
    // Warp's documented examples
    const V6 z = wp::spatial_vector(V3{{0, 0, 1}}, V3{{0, 0, 0}});
    const V6 x = wp::spatial_vector(V3{{0, 0, 0}}, V3{{1, 0, 0}});
    EXPECT_EQ(wp::spatial_cross(z, x), (V6{{0, 0, 0, 0, 1, 0}}));
    const V6 tw = wp::spatial_vector(V3{{0, 0, 1}}, V3{{1, 0, 0}});
    const V6 wr = wp::spatial_vector(V3{{0, 0, 0}}, V3{{0, 1, 0}});
    EXPECT_EQ(wp::spatial_cross_dual(tw, wr), (V6{{0, 0, 1, -1, 0, 0}}));
}

TEST(NativeSpatial, CrossProductsAreAntisymmetricAndDual) {
    for (int n = 0; n < 20; ++n) {
        const V6 a = rand_like<V6>(), b = rand_like<V6>(), c = rand_like<V6>();
        const V6 ab = wp::spatial_cross(a, b), ba = wp::spatial_cross(b, a);
        for (int i = 0; i < 6; ++i) EXPECT_NEAR(ab.c[i], -ba.c[i], 1e-14);
        // <a x* f, m> = -<f, a x m>: the dual cross product is minus the transpose
        EXPECT_NEAR(wp::dot(wp::spatial_cross_dual(a, c), b), -wp::dot(c, wp::spatial_cross(a, b)),
                    1e-13);
    }
}

TEST(NativeSpatial, Adjoints) {
    for (int n = 0; n < 5; ++n) {
        check_adjoint([](V3 w, V3 v) { return wp::spatial_vector(w, v); },
                      [](auto&&... x) { wp::adj_spatial_vector(x...); }, 1e-6, rand_like<V3>(),
                      rand_like<V3>());
        check_adjoint([](V6 a) { return wp::spatial_top(a); },
                      [](auto&&... x) { wp::adj_spatial_top(x...); }, 1e-6, rand_like<V6>());
        check_adjoint([](V6 a) { return wp::spatial_bottom(a); },
                      [](auto&&... x) { wp::adj_spatial_bottom(x...); }, 1e-6, rand_like<V6>());
        check_adjoint([](V6 a, V6 b) { return wp::spatial_dot(a, b); },
                      [](auto&&... x) { wp::adj_spatial_dot(x...); }, 1e-6, rand_like<V6>(),
                      rand_like<V6>());
        check_adjoint([](V6 a, V6 b) { return wp::spatial_cross(a, b); },
                      [](auto&&... x) { wp::adj_spatial_cross(x...); }, 1e-6, rand_like<V6>(),
                      rand_like<V6>());
        check_adjoint([](V6 a, V6 b) { return wp::spatial_cross_dual(a, b); },
                      [](auto&&... x) { wp::adj_spatial_cross_dual(x...); }, 1e-6, rand_like<V6>(),
                      rand_like<V6>());
        check_adjoint([](M3 r, M3 s) { return wp::spatial_adjoint(r, s); },
                      [](auto&&... x) { wp::adj_spatial_adjoint(x...); }, 1e-6, rand_like<M3>(),
                      rand_like<M3>());
    }
}

}  // namespace
