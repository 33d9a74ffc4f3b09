// tests/cpp/native/test_mat_decomp.cpp -- svd3, qr3, eig3, quat_to_axis_angle and their adjoints
#include <gtest/gtest.h>

#include <cmath>

#include "../../../native/treadle/mat_decomp.h"
#include "adjoint_check.h"

namespace {

using adjoint_check::check_results_adjoint;
using adjoint_check::rand_like;
using wp::mat_t;
using wp::vec_t;
template <typename T>
using M3 = mat_t<3, 3, T>;
template <typename T>
using V3 = vec_t<3, T>;

template <typename T>
M3<T> random_matrix(double scale = 1.0) {
    M3<T> m;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) m.m[i][j] = T(scale * adjoint_check::urand());
    return m;
}
template <typename T>
M3<T> sym(const M3<T>& a) {
    return wp::mul(wp::add(a, wp::transpose(a)), T(0.5));
}
template <typename T>
double max_abs_diff(const M3<T>& a, const M3<T>& b) {
    double d = 0.0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            d = std::max(d, std::fabs(double(a.m[i][j]) - double(b.m[i][j])));
    return d;
}
template <typename T>
void expect_rotation(const M3<T>& r, double tol) {
    EXPECT_LT(max_abs_diff(wp::mul(wp::transpose(r), r), wp::identity<3, T>()), tol);
    EXPECT_NEAR(double(wp::determinant(r)), 1.0, tol);
}
template <typename T>
void expect_finite(const M3<T>& a) {
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) EXPECT_TRUE(std::isfinite(double(a.m[i][j]))) << i << "," << j;
}

// ---- svd3 -----------------------------------------------------------------------------------

template <typename T>
void check_svd(const M3<T>& a, double tol) {
    M3<T> u, v;
    V3<T> s;
    wp::svd3(a, u, s, v);
    expect_rotation(u, tol);
    expect_rotation(v, tol);
    const double scale = std::max(1.0, double(s.c[0]));
    EXPECT_LT(max_abs_diff(wp::mul(wp::mul(u, wp::diag(s)), wp::transpose(v)), a), tol * scale);
    EXPECT_GE(s.c[0], s.c[1]);
    EXPECT_GE(s.c[1], wp::abs(s.c[2]) * T(1 - 1e-6));
    EXPECT_GE(s.c[1], T(0));
    const T det = wp::determinant(a);
    if (std::fabs(double(det)) > tol * scale * scale * scale) EXPECT_EQ(s.c[2] < T(0), det < T(0));
}

TEST(NativeMatDecomp, Svd3RandomMatrices) {
    for (int n = 0; n < 200; ++n) {
        check_svd(random_matrix<double>(n % 7 == 0 ? 1e3 : 1.0), 1e-12);
        check_svd(random_matrix<float>(), 2e-6);
    }
}

TEST(NativeMatDecomp, Svd3KnownSignedStretches) {
    // Warp's documented example: a reflection ends up in the sign of the last value.
    const M3<double> f{{{2.598076, -1.0, 0.0}, {1.5, 1.732051, 0.0}, {0.0, 0.0, -1.0}}};
    M3<double> u, v;
    V3<double> s;
    wp::svd3(f, u, s, v);
    EXPECT_NEAR(s.c[0], 3.0, 1e-5);
    EXPECT_NEAR(s.c[1], 2.0, 1e-5);
    EXPECT_NEAR(s.c[2], -1.0, 1e-6);
    const M3<double> r = wp::mul(u, wp::transpose(v));
    EXPECT_NEAR(r.m[0][0], 0.866025, 1e-5);
    EXPECT_NEAR(r.m[1][0], 0.5, 1e-5);
    EXPECT_NEAR(r.m[2][2], 1.0, 1e-6);
}

TEST(NativeMatDecomp, Svd3DegenerateMatrices) {
    const M3<double> zero = wp::mat_fill<3, 3, double>(0.0);
    check_svd(zero, 1e-12);
    check_svd(wp::identity<3, double>(), 1e-12);
    check_svd(wp::mul(wp::identity<3, double>(), -2.0), 1e-12);
    check_svd(wp::outer(V3<double>{{1, 2, 3}}, V3<double>{{-1, 0.5, 2}}), 1e-12);  // rank 1
    const M3<double> rank2{{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}};
    check_svd(rank2, 1e-12);
    check_svd(wp::diag(V3<double>{{2, 2, 1}}), 1e-12);
    check_svd(M3<float>{{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}}, 5e-6);
    check_svd(wp::mat_fill<3, 3, float>(0.0f), 1e-6);
}

TEST(NativeMatDecomp, Svd3Adjoint) {
    auto f = [](M3<double> a) {
        M3<double> u, v;
        V3<double> s;
        wp::svd3(a, u, s, v);
        return std::make_tuple(u, s, v);
    };
    auto g = [](auto&&... x) { wp::adj_svd3(x...); };
    for (int n = 0; n < 20; ++n) check_results_adjoint(f, g, 1e-5, random_matrix<double>());
}

TEST(NativeMatDecomp, Svd3AdjointAtRepeatedValuesIsFinite) {
    // U V^T (the polar rotation) is smooth at repeated singular values; its gradient is exact.
    const M3<double> a = wp::diag(V3<double>{{2, 2, 1}});
    M3<double> u, v, gu, gv, ga = wp::mat_fill<3, 3, double>(0.0);
    V3<double> s;
    wp::svd3(a, u, s, v);
    const M3<double> w = random_matrix<double>();  // d/dA of <w, U V^T>
    gu = wp::mul(w, v);
    gv = wp::mul(wp::transpose(w), u);
    wp::adj_svd3(a, u, s, v, ga, gu, V3<double>{{1, 1, 1}}, gv);
    expect_finite(ga);
    auto polar = [&](const M3<double>& m) {
        M3<double> uu, vv;
        V3<double> ss;
        wp::svd3(m, uu, ss, vv);
        return wp::ddot(w, wp::mul(uu, wp::transpose(vv))) + ss.c[0] + ss.c[1] + ss.c[2];
    };
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            M3<double> p = a, m = a;
            p.m[i][j] += 1e-6;
            m.m[i][j] -= 1e-6;
            EXPECT_NEAR(ga.m[i][j], (polar(p) - polar(m)) / 2e-6, 1e-5) << i << "," << j;
        }
    }
    M3<double> gz = wp::mat_fill<3, 3, double>(0.0);
    wp::adj_svd3(a, u, s, v, gz, random_matrix<double>(), V3<double>{{1, 0, 0}},
                 random_matrix<double>());
    expect_finite(gz);
}

TEST(NativeMatDecomp, Svd2) {
    using M2 = mat_t<2, 2, double>;
    for (int n = 0; n < 100; ++n) {
        M2 a;
        for (int i = 0; i < 4; ++i) (&a.m[0][0])[i] = adjoint_check::urand();
        if (n == 0) a = wp::mat_fill<2, 2, double>(0.0);
        if (n == 1) a = M2{{{1, 2}, {2, 4}}};   // rank 1
        if (n == 2) a = M2{{{0, -3}, {3, 0}}};  // repeated values
        M2 u, v;
        vec_t<2, double> s;
        wp::svd2(a, u, s, v);
        EXPECT_GE(s.c[0], s.c[1]);
        EXPECT_GE(s.c[1], 0.0);
        EXPECT_NEAR(wp::determinant(v), 1.0, 1e-12);
        const M2 ut = wp::mul(wp::transpose(u), u),
                 rec = wp::mul(wp::mul(u, wp::diag(s)), wp::transpose(v));
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j) {
                EXPECT_NEAR(ut.m[i][j], i == j ? 1.0 : 0.0, 1e-12);
                EXPECT_NEAR(rec.m[i][j], a.m[i][j], 1e-12);
            }
    }
    auto f = [](mat_t<2, 2, double> a) {
        mat_t<2, 2, double> u, v;
        vec_t<2, double> s;
        wp::svd2(a, u, s, v);
        return std::make_tuple(u, s, v);
    };
    auto g = [](auto&&... x) { wp::adj_svd2(x...); };
    for (int n = 0; n < 20; ++n)
        check_results_adjoint(f, g, 1e-5, rand_like<mat_t<2, 2, double>>());
}

// ---- qr3 ------------------------------------------------------------------------------------

template <typename T>
void check_qr(const M3<T>& a, double tol) {
    M3<T> q, r;
    wp::qr3(a, q, r);
    expect_rotation(q, tol);
    EXPECT_LT(max_abs_diff(wp::mul(q, r), a), tol * std::max(1.0, double(r.m[0][0])));
    EXPECT_EQ(r.m[1][0], T(0));
    EXPECT_EQ(r.m[2][0], T(0));
    EXPECT_EQ(r.m[2][1], T(0));
    EXPECT_GE(r.m[0][0], T(0));
    EXPECT_GE(r.m[1][1], T(0));
}

TEST(NativeMatDecomp, Qr3RandomAndDegenerateMatrices) {
    for (int n = 0; n < 200; ++n) {
        check_qr(random_matrix<double>(), 1e-12);
        check_qr(random_matrix<float>(), 2e-6);
    }
    check_qr(wp::mat_fill<3, 3, double>(0.0), 1e-12);
    check_qr(M3<double>{{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}}, 1e-12);
    check_qr(wp::outer(V3<double>{{1, 2, 3}}, V3<double>{{-1, 0.5, 2}}), 1e-12);
}

TEST(NativeMatDecomp, Qr3KnownFrame) {
    // Warp's documented example: a left-handed frame gives a negative R[2][2].
    const M3<double> a{{{1, 1, 0}, {1, 0, 1}, {0, 1, 1}}};
    M3<double> q, r;
    wp::qr3(a, q, r);
    EXPECT_NEAR(r.m[0][0], 1.414214, 1e-6);
    EXPECT_NEAR(r.m[1][1], 1.224745, 1e-6);
    EXPECT_NEAR(r.m[2][2], -1.154701, 1e-6);
    EXPECT_NEAR(q.m[0][0], 0.707107, 1e-6);
    EXPECT_NEAR(q.m[2][1], 0.816497, 1e-6);
}

TEST(NativeMatDecomp, Qr3Adjoint) {
    auto f = [](M3<double> a) {
        M3<double> q, r;
        wp::qr3(a, q, r);
        return std::make_tuple(q, r);
    };
    auto g = [](auto&&... x) { wp::adj_qr3(x...); };
    for (int n = 0; n < 20; ++n) check_results_adjoint(f, g, 1e-5, random_matrix<double>());
    M3<double> q, r, ga = wp::mat_fill<3, 3, double>(0.0);
    wp::qr3(wp::mat_fill<3, 3, double>(0.0), q, r);  // rank 0: no NaN
    wp::adj_qr3(wp::mat_fill<3, 3, double>(0.0), q, r, ga, random_matrix<double>(),
                random_matrix<double>());
    expect_finite(ga);
}

// ---- eig3 -----------------------------------------------------------------------------------

template <typename T>
void check_eig(const M3<T>& a, double tol) {
    M3<T> q;
    V3<T> d;
    wp::eig3(a, q, d);
    expect_rotation(q, tol);
    double scale = 1.0;
    for (int i = 0; i < 3; ++i) scale = std::max(scale, std::fabs(double(d.c[i])));
    EXPECT_LT(max_abs_diff(wp::mul(wp::mul(q, wp::diag(d)), wp::transpose(q)), sym(a)),
              tol * scale);
    EXPECT_LE(d.c[0], d.c[1]);
    EXPECT_LE(d.c[1], d.c[2]);
}

TEST(NativeMatDecomp, Eig3SymmetricMatrices) {
    for (int n = 0; n < 200; ++n) {
        check_eig(sym(random_matrix<double>(n % 5 == 0 ? 100.0 : 1.0)), 1e-12);
        check_eig(sym(random_matrix<float>()), 2e-6);
    }
    check_eig(wp::mat_fill<3, 3, double>(0.0), 1e-12);
    check_eig(wp::identity<3, double>(), 1e-12);
    check_eig(wp::diag(V3<double>{{1, 1, 2}}), 1e-12);
    check_eig(M3<double>{{{0, 1, 0}, {1, 0, 0}, {0, 0, 0}}}, 1e-12);
    check_eig(M3<double>{{{4, 1, 2}, {1, 3, 1}, {2, 1, 5}}}, 1e-12);
    check_eig(random_matrix<double>(), 1e-12);  // not symmetric: its symmetric part
}

TEST(NativeMatDecomp, Eig3Adjoint) {
    auto f = [](M3<double> a) {
        M3<double> q;
        V3<double> d;
        wp::eig3(a, q, d);
        return std::make_tuple(q, d);
    };
    auto g = [](auto&&... x) { wp::adj_eig3(x...); };
    for (int n = 0; n < 20; ++n) check_results_adjoint(f, g, 1e-5, random_matrix<double>());
}

TEST(NativeMatDecomp, Eig3AdjointOfEigenvaluesAtRepeatedValues) {
    // sum(d^2) = |A|^2 for symmetric A: gradient 2 A, whatever the multiplicities.
    const M3<double> a = wp::diag(V3<double>{{1, 1, 3}});
    M3<double> q, ga = wp::mat_fill<3, 3, double>(0.0);
    V3<double> d;
    wp::eig3(a, q, d);
    wp::adj_eig3(a, q, d, ga, random_matrix<double>(), wp::mul(d, 2.0));
    expect_finite(ga);
    wp::adj_eig3(a, q, d, ga = wp::mat_fill<3, 3, double>(0.0), wp::mat_fill<3, 3, double>(0.0),
                 wp::mul(d, 2.0));
    EXPECT_LT(max_abs_diff(ga, wp::mul(a, 2.0)), 1e-12);
}

// ---- quat_to_axis_angle ---------------------------------------------------------------------

TEST(NativeMatDecomp, QuatToAxisAngleAndAdjoint) {
    using Q = wp::quat_t<double>;
    const V3<double> axis{{0, 0.6, 0.8}};
    V3<double> got;
    double angle;
    wp::quat_to_axis_angle(wp::quat_from_axis_angle(axis, 2.5), got, angle);
    EXPECT_NEAR(angle, 2.5, 1e-12);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(got.c[i], axis.c[i], 1e-12);
    wp::quat_to_axis_angle(wp::neg(wp::quat_from_axis_angle(axis, 2.5)), got, angle);  // -q
    EXPECT_NEAR(angle, 2.5, 1e-12);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(got.c[i], axis.c[i], 1e-12);
    auto f = [](Q q) {
        V3<double> a;
        double t;
        wp::quat_to_axis_angle(q, a, t);
        return std::make_tuple(a, t);
    };
    auto g = [](auto&&... x) { wp::adj_quat_to_axis_angle(x...); };
    for (int n = 0; n < 20; ++n) check_results_adjoint(f, g, 1e-6, rand_like<Q>());
    Q gq{};
    wp::adj_quat_to_axis_angle(wp::quat_identity<double>(), V3<double>{}, 0.0, gq,
                               V3<double>{{1, 1, 1}}, 1.0);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(gq.c[i], 0.0);  // no NaN at the identity
}

}  // namespace
