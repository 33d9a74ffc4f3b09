// tests/cpp/native/test_quat.cpp -- quat_t / transform_t: rotations, composition, adjoints
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <tuple>
#include <utility>

#include "../../../native/treadle/quat.h"
#include "adjoint_check.h"

namespace {

using wp::int32;
using wp::mat_t;
using wp::quat_t;
using wp::transform_t;
using wp::vec_t;
using V3 = vec_t<3, double>;
using Q = quat_t<double>;
using M33 = mat_t<3, 3, double>;
using X = transform_t<double>;

constexpr double kPi = 3.14159265358979323846;

// ---- finite-difference adjoint checker: adjoint_check.h, at the tolerance these tests use ----

using adjoint_check::Flat;
using adjoint_check::rand_like;
using adjoint_check::urand;

template <typename F, typename G, typename... In>
void check_adjoint(F f, G g, In... in) {
    adjoint_check::check_adjoint(f, g, 1e-6, in...);
}
Q rand_unit_quat() { return wp::normalize(rand_like<Q>()); }
X rand_transform() { return X{rand_like<V3>(), rand_unit_quat()}; }

template <int N>
void expect_vec_near(const vec_t<N, double>& a, const vec_t<N, double>& b, double tol = 1e-12) {
    for (int i = 0; i < N; ++i) EXPECT_NEAR(a.c[i], b.c[i], tol) << "component " << i;
}
void expect_quat_near(const Q& a, const Q& b, double tol = 1e-12) {
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(a.c[i], b.c[i], tol) << "component " << i;
}
// a and b are the same rotation: a == b or a == -b.
void expect_same_rotation(const Q& a, const Q& b, double tol = 1e-12) {
    expect_quat_near(wp::dot(a, b) < 0 ? wp::neg(b) : b, a, tol);
}

const V3 ex{{1, 0, 0}}, ey{{0, 1, 0}}, ez{{0, 0, 1}};

// ---- construction and access ----------------------------------------------------------------

TEST(NativeQuat, AggregateAndAccess) {
    const float x = 1, y = 2, z = 3, w = 4;
    const auto q = wp::quat_t<wp::float32>{{x, y, z, w}};
    EXPECT_EQ(sizeof(wp::quat), 16u);
    EXPECT_EQ(sizeof(wp::transform), 28u);
    EXPECT_EQ(wp::extract(q, 3), 4.0f);
    EXPECT_EQ(wp::extract(q, 4), 0.0f);
    EXPECT_EQ(wp::extract(q, -1), 0.0f);
    EXPECT_EQ(wp::with_component(q, 0, 9.0f), (wp::quat{{9, 2, 3, 4}}));
    EXPECT_EQ(wp::with_component(q, 4, 9.0f), q);
    EXPECT_EQ(wp::with_component(q, -1, 9.0f), q);
    EXPECT_TRUE(q != wp::quat_identity<float>());
    EXPECT_EQ(wp::quat_identity<float>(), (wp::quat{{0, 0, 0, 1}}));
    const wp::transform t = wp::transform_from(wp::vec3{{1, 2, 3}}, q);
    EXPECT_EQ(wp::transform_get_translation(t), (wp::vec3{{1, 2, 3}}));
    EXPECT_EQ(wp::transform_get_rotation(t), q);
    EXPECT_EQ(t, (wp::transform{{{1, 2, 3}}, {{1, 2, 3, 4}}}));
    EXPECT_TRUE(t != wp::transform_identity<float>());
    EXPECT_EQ(wp::transform_identity<float>(), (wp::transform{{{0, 0, 0}}, {{0, 0, 0, 1}}}));
}

TEST(NativeQuat, Arithmetic) {
    const Q a{{1, 2, 3, 4}}, b{{0.5, -1, 2, -3}};
    EXPECT_EQ(wp::add(a, b), (Q{{1.5, 1, 5, 1}}));
    EXPECT_EQ(wp::sub(a, b), (Q{{0.5, 3, 1, 7}}));
    EXPECT_EQ(wp::neg(a), (Q{{-1, -2, -3, -4}}));
    EXPECT_EQ(wp::pos(a), a);
    EXPECT_EQ(wp::mul(a, 2.0), (Q{{2, 4, 6, 8}}));
    EXPECT_EQ(wp::mul(2.0, a), (Q{{2, 4, 6, 8}}));
    EXPECT_EQ(wp::dot(a, b), 0.5 - 2 + 6 - 12);
    EXPECT_DOUBLE_EQ(wp::length(a), std::sqrt(30.0));
    EXPECT_NEAR(wp::length(wp::normalize(a)), 1.0, 1e-15);
    EXPECT_EQ(wp::normalize(Q{}), wp::quat_identity<double>());
    // Hamilton product: i j = k, j i = -k, i i = -1.
    const Q i{{1, 0, 0, 0}}, j{{0, 1, 0, 0}}, k{{0, 0, 1, 0}};
    EXPECT_EQ(wp::mul(i, j), k);
    EXPECT_EQ(wp::mul(j, i), wp::neg(k));
    EXPECT_EQ(wp::mul(i, i), (Q{{0, 0, 0, -1}}));
    // quat_inverse is Warp's conjugate: the inverse up to the factor |a|^2 = 30
    expect_quat_near(wp::mul(a, wp::quat_inverse(a)), wp::mul(wp::quat_identity<double>(), 30.0),
                     1e-13);
    expect_quat_near(wp::mul(wp::quat_inverse(a), a), wp::mul(wp::quat_identity<double>(), 30.0),
                     1e-13);
    const Q u = rand_unit_quat();
    expect_quat_near(wp::quat_inverse(u), Q{{-u.c[0], -u.c[1], -u.c[2], u.c[3]}}, 1e-15);
}

// ---- rotations ------------------------------------------------------------------------------

TEST(NativeQuat, KnownRotations) {
    const Q rz = wp::quat_from_axis_angle(ez, kPi / 2);
    expect_quat_near(rz, Q{{0, 0, std::sqrt(0.5), std::sqrt(0.5)}});
    expect_vec_near(wp::quat_rotate(rz, ex), ey);
    expect_vec_near(wp::quat_rotate(rz, ey), wp::neg(ex));
    expect_vec_near(wp::quat_rotate_inv(rz, ey), ex);
    const Q rx = wp::quat_from_axis_angle(ex, kPi / 2);
    expect_vec_near(wp::quat_rotate(rx, ey), ez);
    const Q ry = wp::quat_from_axis_angle(ey, kPi);
    expect_vec_near(wp::quat_rotate(ry, ex), wp::neg(ex));
    // Composition: mul(a, b) applies b first.
    expect_vec_near(wp::quat_rotate(wp::mul(rz, rx), ey), wp::quat_rotate(rz, ez));
    expect_vec_near(wp::quat_rotate(wp::mul(rz, rx), ey), ez);
    // Float path.
    const wp::quat f = wp::quat_from_axis_angle(wp::vec3{{0, 0, 1}}, float(kPi / 2));
    const wp::vec3 r = wp::quat_rotate(f, wp::vec3{{1, 0, 0}});
    EXPECT_NEAR(r.c[0], 0.0f, 1e-6f);
    EXPECT_NEAR(r.c[1], 1.0f, 1e-6f);
}

TEST(NativeQuat, RandomRotationsAgree) {
    for (int n = 0; n < 20; ++n) {
        const Q q = rand_unit_quat();
        const V3 v = rand_like<V3>();
        const M33 m = wp::quat_to_matrix(q);
        expect_vec_near(wp::mul(m, v), wp::quat_rotate(q, v));
        expect_vec_near(wp::quat_rotate_inv(q, wp::quat_rotate(q, v)), v);
        expect_vec_near(wp::quat_rotate(wp::quat_inverse(q), v), wp::quat_rotate_inv(q, v));
        const M33 mtm = wp::mul(wp::transpose(m), m);
        for (int r = 0; r < 3; ++r) {
            for (int c = 0; c < 3; ++c) EXPECT_NEAR(mtm.m[r][c], r == c ? 1.0 : 0.0, 1e-12);
        }
        EXPECT_NEAR(wp::determinant(m), 1.0, 1e-12);
        expect_same_rotation(wp::quat_from_matrix(m), q);
        EXPECT_NEAR(wp::length(wp::quat_rotate(q, v)), wp::length(v), 1e-12);
    }
    // Every branch of quat_from_matrix: rotations by pi about x, y, z and the identity.
    for (const V3& axis : {ex, ey, ez, wp::normalize(V3{{1, 1, 1}})}) {
        for (double angle : {0.0, kPi, 0.9 * kPi, 0.3}) {
            const Q q = wp::quat_from_axis_angle(axis, angle);
            expect_same_rotation(wp::quat_from_matrix(wp::quat_to_matrix(q)), q);
        }
    }
}

TEST(NativeQuat, AxisAngleRoundTrip) {
    const V3 axis = wp::normalize(V3{{1, -2, 0.5}});
    for (double angle : {0.3, 1.5, 3.0}) {
        V3 a{};
        double t = 0;
        wp::quat_to_axis_angle(wp::quat_from_axis_angle(axis, angle), a, t);
        expect_vec_near(a, axis);
        EXPECT_NEAR(t, angle, 1e-12);
        // -q is the same rotation: same axis and angle.
        wp::quat_to_axis_angle(wp::neg(wp::quat_from_axis_angle(axis, angle)), a, t);
        expect_vec_near(a, axis);
        EXPECT_NEAR(t, angle, 1e-12);
    }
    V3 a{{9, 9, 9}};
    double t = 9;
    wp::quat_to_axis_angle(wp::quat_identity<double>(), a, t);
    EXPECT_EQ(a, V3{});
    EXPECT_EQ(t, 0.0);
}

TEST(NativeQuat, Rpy) {
    const double r = 0.3, p = -0.7, y = 1.1;
    const Q expected =
        wp::mul(wp::mul(wp::quat_from_axis_angle(ez, y), wp::quat_from_axis_angle(ey, p)),
                wp::quat_from_axis_angle(ex, r));
    expect_quat_near(wp::quat_rpy(r, p, y), expected);
    expect_quat_near(wp::quat_rpy(0.0, 0.0, kPi / 2), wp::quat_from_axis_angle(ez, kPi / 2));
}

TEST(NativeQuat, Slerp) {
    const Q a = wp::quat_from_axis_angle(ez, 0.2);
    const Q b = wp::quat_from_axis_angle(ez, 1.4);
    expect_quat_near(wp::quat_slerp(a, b, 0.0), a);
    expect_quat_near(wp::quat_slerp(a, b, 1.0), b);
    expect_quat_near(wp::quat_slerp(a, b, 0.5), wp::quat_from_axis_angle(ez, 0.8));
    expect_quat_near(wp::quat_slerp(a, b, 0.25), wp::quat_from_axis_angle(ez, 0.5));
    // Shortest path: -b is the same rotation, slerp still goes from a through angle 0.8.
    expect_same_rotation(wp::quat_slerp(a, wp::neg(b), 0.5), wp::quat_from_axis_angle(ez, 0.8));
    // Nearly equal inputs (the lerp fallback).
    const Q c = wp::quat_from_axis_angle(ez, 0.2001);
    expect_quat_near(wp::quat_slerp(a, c, 0.5), wp::quat_from_axis_angle(ez, 0.20005), 1e-9);
    // General axis.
    const Q u = rand_unit_quat(), v = rand_unit_quat();
    EXPECT_NEAR(wp::length(wp::quat_slerp(u, v, 0.3)), 1.0, 1e-12);
}

// ---- transforms -----------------------------------------------------------------------------

TEST(NativeTransform, PointAndVector) {
    const X t{{{1, 2, 3}}, wp::quat_from_axis_angle(ez, kPi / 2)};
    expect_vec_near(wp::transform_point(t, ex), V3{{1, 3, 3}});
    expect_vec_near(wp::transform_vector(t, ex), ey);
    for (int n = 0; n < 10; ++n) {
        const X a = rand_transform(), b = rand_transform(), c = rand_transform();
        const V3 p = rand_like<V3>();
        expect_vec_near(wp::transform_point(wp::transform_inverse(a), wp::transform_point(a, p)),
                        p);
        expect_vec_near(wp::transform_point(wp::transform_multiply(a, b), p),
                        wp::transform_point(a, wp::transform_point(b, p)));
        const X l = wp::mul(wp::mul(a, b), c), r = wp::mul(a, wp::mul(b, c));
        expect_vec_near(l.p, r.p);
        expect_quat_near(l.q, r.q);
        const X id = wp::mul(a, wp::transform_inverse(a));
        expect_vec_near(id.p, V3{});
        expect_quat_near(id.q, wp::quat_identity<double>());
        expect_vec_near(wp::transform_vector(a, p), wp::quat_rotate(a.q, p));
    }
}

// ---- adjoints -------------------------------------------------------------------------------

TEST(NativeQuat, Adjoints) {
    for (int rep = 0; rep < 3; ++rep) {
        const Q a = rand_like<Q>(), b = rand_like<Q>();
        const V3 v = rand_like<V3>();
        const double s = urand();
        check_adjoint(
            [](double x, double y, double z, double w) {
                return Q{{x, y, z, w}};
            },
            [](double, double, double, double, double& gx, double& gy, double& gz, double& gw,
               const Q& g) { wp::adj_quat_components(g, gx, gy, gz, gw); },
            s, urand(), urand(), urand());
        for (int32 i : {0, 3, 4}) {
            check_adjoint([i](Q q) { return wp::extract(q, i); },
                          [i](Q q, Q& gq, double g) {
                              int32 gi = 0;
                              wp::adj_extract(q, i, gq, gi, g);
                          },
                          a);
            check_adjoint([i](Q q, double x) { return wp::with_component(q, i, x); },
                          [i](Q q, double x, Q& gq, double& gx, const Q& g) {
                              int32 gi = 0;
                              wp::adj_with_component(q, i, x, gq, gi, gx, g);
                          },
                          a, s);
        }
        check_adjoint([](V3 ax, double t) { return wp::quat_from_axis_angle(ax, t); },
                      [](V3 ax, double t, V3& ga, double& gt, const Q& g) {
                          wp::adj_quat_from_axis_angle(ax, t, ga, gt, g);
                      },
                      v, 2 * s);
        check_adjoint([](double r, double p, double y) { return wp::quat_rpy(r, p, y); },
                      [](double r, double p, double y, double& gr, double& gp, double& gy,
                         const Q& g) { wp::adj_quat_rpy(r, p, y, gr, gp, gy, g); },
                      s, urand(), urand());
        // quat_rotate(_inv) for unit and non-unit q.
        for (const Q& q : {a, wp::normalize(a)}) {
            check_adjoint(
                [](Q q, V3 x) { return wp::quat_rotate(q, x); },
                [](Q q, V3 x, Q& gq, V3& gx, const V3& g) { wp::adj_quat_rotate(q, x, gq, gx, g); },
                q, v);
            check_adjoint([](Q q, V3 x) { return wp::quat_rotate_inv(q, x); },
                          [](Q q, V3 x, Q& gq, V3& gx, const V3& g) {
                              wp::adj_quat_rotate_inv(q, x, gq, gx, g);
                          },
                          q, v);
        }
        check_adjoint([](Q q) { return wp::quat_inverse(q); },
                      [](Q q, Q& gq, const Q& g) { wp::adj_quat_inverse(q, gq, g); }, a);
        check_adjoint([](Q x, Q y) { return wp::mul(x, y); },
                      [](Q x, Q y, Q& gx, Q& gy, const Q& g) { wp::adj_mul(x, y, gx, gy, g); }, a,
                      b);
        check_adjoint(
            [](Q x, double y) { return wp::mul(x, y); },
            [](Q x, double y, Q& gx, double& gy, const Q& g) { wp::adj_mul(x, y, gx, gy, g); }, a,
            s);
        check_adjoint(
            [](double y, Q x) { return wp::mul(y, x); },
            [](double y, Q x, double& gy, Q& gx, const Q& g) { wp::adj_mul(y, x, gy, gx, g); }, s,
            a);
        check_adjoint([](Q x, Q y) { return wp::add(x, y); },
                      [](Q x, Q y, Q& gx, Q& gy, const Q& g) { wp::adj_add(x, y, gx, gy, g); }, a,
                      b);
        check_adjoint([](Q x, Q y) { return wp::sub(x, y); },
                      [](Q x, Q y, Q& gx, Q& gy, const Q& g) { wp::adj_sub(x, y, gx, gy, g); }, a,
                      b);
        check_adjoint([](Q x) { return wp::neg(x); },
                      [](Q x, Q& gx, const Q& g) { wp::adj_neg(x, gx, g); }, a);
        check_adjoint([](Q x) { return wp::pos(x); },
                      [](Q x, Q& gx, const Q& g) { wp::adj_pos(x, gx, g); }, a);
        check_adjoint([](Q x, Q y) { return wp::dot(x, y); },
                      [](Q x, Q y, Q& gx, Q& gy, double g) { wp::adj_dot(x, y, gx, gy, g); }, a, b);
        check_adjoint([](Q x) { return wp::length(x); },
                      [](Q x, Q& gx, double g) { wp::adj_length(x, gx, g); }, a);
        check_adjoint([](Q x) { return wp::normalize(x); },
                      [](Q x, Q& gx, const Q& g) { wp::adj_normalize(x, gx, g); }, a);
        check_adjoint([](Q x) { return wp::quat_to_matrix(x); },
                      [](Q x, Q& gx, const M33& g) { wp::adj_quat_to_matrix(x, gx, g); }, a);
    }
}

TEST(NativeTransform, Adjoints) {
    for (int rep = 0; rep < 3; ++rep) {
        // Non-unit rotations too: the adjoints are exact for any q.
        const X a{rand_like<V3>(), rand_like<Q>()}, b = rand_transform();
        const V3 v = rand_like<V3>();
        check_adjoint(
            [](V3 p, Q q) { return wp::transform_from(p, q); },
            [](V3 p, Q q, V3& gp, Q& gq, const X& g) { wp::adj_transform_from(p, q, gp, gq, g); },
            v, a.q);
        check_adjoint([](X t) { return wp::transform_get_translation(t); },
                      [](X t, X& gt, const V3& g) { wp::adj_transform_get_translation(t, gt, g); },
                      a);
        check_adjoint([](X t) { return wp::transform_get_rotation(t); },
                      [](X t, X& gt, const Q& g) { wp::adj_transform_get_rotation(t, gt, g); }, a);
        check_adjoint(
            [](X t, V3 x) { return wp::transform_point(t, x); },
            [](X t, V3 x, X& gt, V3& gx, const V3& g) { wp::adj_transform_point(t, x, gt, gx, g); },
            a, v);
        check_adjoint([](X t, V3 x) { return wp::transform_vector(t, x); },
                      [](X t, V3 x, X& gt, V3& gx, const V3& g) {
                          wp::adj_transform_vector(t, x, gt, gx, g);
                      },
                      a, v);
        check_adjoint(
            [](X x, X y) { return wp::transform_multiply(x, y); },
            [](X x, X y, X& gx, X& gy, const X& g) { wp::adj_transform_multiply(x, y, gx, gy, g); },
            a, b);
        check_adjoint([](X x, X y) { return wp::mul(x, y); },
                      [](X x, X y, X& gx, X& gy, const X& g) { wp::adj_mul(x, y, gx, gy, g); }, b,
                      a);
        for (const X& t : {a, b}) {
            check_adjoint([](X x) { return wp::transform_inverse(x); },
                          [](X x, X& gx, const X& g) { wp::adj_transform_inverse(x, gx, g); }, t);
        }
    }
}

// ---- atomics, print, float16 ----------------------------------------------------------------

TEST(NativeQuat, AtomicsAndHalf) {
    wp::quat q{{1, 2, 3, 4}};
    const wp::quat old = wp::atomic_add(&q, wp::quat{{1, 1, 1, 1}});
    EXPECT_EQ(old, (wp::quat{{1, 2, 3, 4}}));
    EXPECT_EQ(q, (wp::quat{{2, 3, 4, 5}}));
    wp::transform t{{{1, 2, 3}}, {{0, 0, 0, 1}}};
    wp::atomic_sub(&t, wp::transform{{{1, 1, 1}}, {{0, 0, 0, 1}}});
    EXPECT_EQ(t, (wp::transform{{{0, 1, 2}}, {{0, 0, 0, 0}}}));
    const wp::half h0(0.0f), h1(1.0f);
    const wp::quath hq{{h0, h0, h1, h1}};
    const wp::vec3h r = wp::quat_rotate(wp::normalize(hq), wp::vec3h{{h1, h0, h0}});
    EXPECT_NEAR(float(r.c[1]), 1.0f, 1e-3f);
    EXPECT_NEAR(float(r.c[0]), 0.0f, 1e-3f);
}

TEST(NativeQuat, Print) {
    testing::internal::CaptureStdout();
    wp::print(wp::quat{{1, 2.5f, 3, 4}});
    wp::print(wp::transform{{{1, 2, 3}}, {{0, 0, 0, 1}}});
    fflush(stdout);
    EXPECT_EQ(testing::internal::GetCapturedStdout(), "1 2.5 3 4 \n1 2 3 0 0 0 1 \n");
}

}  // namespace
