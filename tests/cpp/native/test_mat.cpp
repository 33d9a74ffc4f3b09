// tests/cpp/native/test_mat.cpp -- mat_t: construction, arithmetic, det/inverse, adjoints, atomics
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "../../../native/treadle/mat.h"
#include "adjoint_check.h"

namespace {

using wp::half;
using wp::int32;
using wp::mat_t;
using wp::vec_t;
using V2 = vec_t<2, double>;
using V3 = vec_t<3, double>;
using V4 = vec_t<4, double>;
using M22 = mat_t<2, 2, double>;
using M23 = mat_t<2, 3, double>;
using M32 = mat_t<3, 2, double>;
using M33 = mat_t<3, 3, double>;
using M44 = mat_t<4, 4, double>;

// ---- finite-difference adjoint checker: adjoint_check.h, at the tolerance these tests use ----

using adjoint_check::Flat;
using adjoint_check::rand_like;
using adjoint_check::urand;

template <typename F, typename G, typename... In>
void check_adjoint(F f, G g, In... in) {
    adjoint_check::check_adjoint(f, g, 1e-6, in...);
}

// A random matrix near 3 I: well conditioned (|det| bounded away from 0).
template <int N, typename T>
mat_t<N, N, T> well_conditioned() {
    mat_t<N, N, T> a{};
    for (int i = 0; i < N; ++i) {
        for (int j = 0; j < N; ++j) a.m[i][j] = T(urand() + (i == j ? 3.0 : 0.0));
    }
    return a;
}

// Reference determinant by Gaussian elimination with partial pivoting.
template <int N>
double ref_det(mat_t<N, N, double> a) {
    double d = 1.0;
    for (int k = 0; k < N; ++k) {
        int p = k;
        for (int i = k + 1; i < N; ++i) {
            if (std::fabs(a.m[i][k]) > std::fabs(a.m[p][k])) p = i;
        }
        if (p != k) {
            for (int j = 0; j < N; ++j) std::swap(a.m[k][j], a.m[p][j]);
            d = -d;
        }
        d *= a.m[k][k];
        for (int i = k + 1; i < N; ++i) {
            const double f = a.m[i][k] / a.m[k][k];
            for (int j = k; j < N; ++j) a.m[i][j] -= f * a.m[k][j];
        }
    }
    return d;
}

template <int R, int C, typename T>
void expect_mat_near(const mat_t<R, C, T>& a, const mat_t<R, C, T>& b, double tol) {
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) {
            EXPECT_NEAR(double(a.m[i][j]), double(b.m[i][j]), tol) << "(" << i << ", " << j << ")";
        }
    }
}

// ---- construction and access ----------------------------------------------------------------

TEST(NativeMat, AggregateInitIsRowMajor) {
    const float a = 1.0f, b = 2.0f, c = 3.0f, d = 4.0f;
    const auto m = wp::mat_t<2, 2, float>{{{a, b}, {c, d}}};
    EXPECT_EQ(m.m[0][1], 2.0f);
    EXPECT_EQ(m.m[1][0], 3.0f);
    EXPECT_EQ(wp::extract(m, 0, 1), 2.0f);
    EXPECT_EQ(wp::extract(m, 1), (wp::vec2{{3.0f, 4.0f}}));
    EXPECT_EQ(sizeof(wp::mat33), 36u);
    const wp::mat_t<2, 3, float> r{{{1, 2, 3}, {4, 5, 6}}};
    EXPECT_EQ(wp::extract(r, 1, 2), 6.0f);
}

TEST(NativeMat, Construction) {
    EXPECT_EQ((wp::mat_fill<2, 3, float>(1.5f)),
              (wp::mat_t<2, 3, float>{{{1.5f, 1.5f, 1.5f}, {1.5f, 1.5f, 1.5f}}}));
    EXPECT_EQ((wp::identity<3, float>()), (wp::mat33{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}));
    EXPECT_EQ(wp::diag(wp::vec3{{1, 2, 3}}), (wp::mat33{{{1, 0, 0}, {0, 2, 0}, {0, 0, 3}}}));
    const wp::vec3 x{{1, 2, 3}}, y{{4, 5, 6}}, z{{7, 8, 9}}, w{{10, 11, 12}};
    EXPECT_EQ(wp::mat_from_rows(x, y), (wp::mat_t<2, 3, float>{{{1, 2, 3}, {4, 5, 6}}}));
    EXPECT_EQ(wp::mat_from_rows(x, y, z), (wp::mat33{{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}}));
    EXPECT_EQ(wp::mat_from_rows(x, y, z, w),
              (wp::mat_t<4, 3, float>{{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11, 12}}}));
    EXPECT_EQ(wp::mat_from_cols(x, y), (wp::mat_t<3, 2, float>{{{1, 4}, {2, 5}, {3, 6}}}));
    EXPECT_EQ(wp::mat_from_cols(x, y, z), wp::transpose(wp::mat_from_rows(x, y, z)));
    EXPECT_EQ(wp::mat_from_cols(x, y, z, w), wp::transpose(wp::mat_from_rows(x, y, z, w)));
}

TEST(NativeMat, AccessIsSafeOutOfRange) {
    const wp::mat22 m{{{1, 2}, {3, 4}}};
    EXPECT_EQ(wp::extract(m, 2), wp::vec2{});
    EXPECT_EQ(wp::extract(m, -1), wp::vec2{});
    EXPECT_EQ(wp::extract(m, 0, 2), 0.0f);
    EXPECT_EQ(wp::extract(m, -1, 0), 0.0f);
    EXPECT_EQ(wp::with_component(m, 1, 0, 9.0f), (wp::mat22{{{1, 2}, {9, 4}}}));
    EXPECT_EQ(wp::with_component(m, 2, 0, 9.0f), m);
    EXPECT_EQ(wp::with_component(m, 0, -1, 9.0f), m);
    EXPECT_EQ(wp::with_row(m, 0, wp::vec2{{7, 8}}), (wp::mat22{{{7, 8}, {3, 4}}}));
    EXPECT_EQ(wp::with_row(m, 5, wp::vec2{{7, 8}}), m);
    EXPECT_EQ(m, (wp::mat22{{{1, 2}, {3, 4}}}));
}

// ---- arithmetic -----------------------------------------------------------------------------

TEST(NativeMat, Arithmetic) {
    const wp::mat22 a{{{1, 2}, {3, 4}}}, b{{{0.5f, -1}, {2, 8}}};
    EXPECT_EQ(wp::add(a, b), (wp::mat22{{{1.5f, 1}, {5, 12}}}));
    EXPECT_EQ(wp::sub(a, b), (wp::mat22{{{0.5f, 3}, {1, -4}}}));
    EXPECT_EQ(wp::mul(a, 2.0f), (wp::mat22{{{2, 4}, {6, 8}}}));
    EXPECT_EQ(wp::mul(2.0f, a), (wp::mat22{{{2, 4}, {6, 8}}}));
    EXPECT_EQ(wp::div(a, 2.0f), (wp::mat22{{{0.5f, 1}, {1.5f, 2}}}));
    EXPECT_EQ(wp::neg(a), (wp::mat22{{{-1, -2}, {-3, -4}}}));
    EXPECT_EQ(wp::pos(a), a);
    EXPECT_EQ(wp::cw_mul(a, b), (wp::mat22{{{0.5f, -2}, {6, 32}}}));
    EXPECT_EQ(wp::cw_div(a, b), (wp::mat22{{{2, -2}, {1.5f, 0.5f}}}));
    // [[1,2],[3,4]] @ [[0.5,-1],[2,8]] = [[4.5, 15], [9.5, 29]]
    EXPECT_EQ(wp::mul(a, b), (wp::mat22{{{4.5f, 15}, {9.5f, 29}}}));
    EXPECT_EQ(wp::mul(a, wp::vec2{{1, -1}}), (wp::vec2{{-1, -1}}));
    EXPECT_EQ(wp::mul(wp::vec2{{1, -1}}, a), (wp::vec2{{-2, -2}}));
    // Non-square, checked with numpy: B @ C, [1, 2] @ B, B @ [1, 1, 1].
    const wp::mat_t<2, 3, float> B{{{1, 2, 0}, {0, 1, 3}}};
    const wp::mat_t<3, 2, float> C{{{1, 0}, {2, 1}, {0, 4}}};
    EXPECT_EQ(wp::mul(B, C), (wp::mat22{{{5, 2}, {2, 13}}}));
    EXPECT_EQ(wp::mul(wp::vec2{{1, 2}}, B), (wp::vec3{{1, 4, 6}}));
    EXPECT_EQ(wp::mul(B, wp::vec3{{1, 1, 1}}), (wp::vec2{{3, 4}}));
    EXPECT_TRUE(a == a);
    EXPECT_TRUE(a != b);
    EXPECT_FALSE(a != a);
    const wp::mat22 n{{{NAN, 0}, {0, 0}}};
    EXPECT_FALSE(n == n);
    // Integer matrices wrap and never trap; float16 matrices compile and compute.
    const mat_t<2, 2, int32> ia{{{2147483647, 1}, {2, 3}}};
    EXPECT_EQ(wp::add(ia, ia).m[0][0], -2);
    EXPECT_EQ(wp::div(ia, 0), (mat_t<2, 2, int32>{}));
    const mat_t<2, 2, half> h{{{half(1.0f), half(2.0f)}, {half(3.0f), half(4.0f)}}};
    EXPECT_EQ(float(wp::mul(h, h).m[1][1]), 22.0f);
    EXPECT_EQ(float(wp::add(h, h).m[0][1]), 4.0f);
    EXPECT_EQ(float(wp::mul(h, wp::vec2h{{half(1.0f), half(1.0f)}})[1]), 7.0f);
}

TEST(NativeMat, MatrixMath) {
    const wp::vec2 a{{1, 2}};
    const wp::vec3 b{{3, 4, 5}};
    EXPECT_EQ(wp::outer(a, b), (wp::mat_t<2, 3, float>{{{3, 4, 5}, {6, 8, 10}}}));
    const wp::mat_t<2, 3, float> B{{{1, 2, 0}, {0, 1, 3}}};
    EXPECT_EQ(wp::transpose(B), (wp::mat_t<3, 2, float>{{{1, 0}, {2, 1}, {0, 3}}}));
    EXPECT_EQ(wp::trace(wp::mat33{{{1, 9, 9}, {9, 2, 9}, {9, 9, 3}}}), 6.0f);
    EXPECT_EQ(wp::ddot(B, B), 1.0f + 4.0f + 1.0f + 9.0f);
    const wp::vec3 v{{1, -2, 0.5f}}, w{{4, 1, -3}};
    EXPECT_EQ(wp::skew(v), (wp::mat33{{{0, -0.5f, -2}, {0.5f, 0, -1}, {2, 1, 0}}}));
    EXPECT_EQ(wp::mul(wp::skew(v), w), wp::cross(v, w));
}

TEST(NativeMat, DeterminantHandComputed) {
    EXPECT_EQ(wp::determinant(wp::mat22{{{1, 2}, {3, 4}}}), -2.0f);
    EXPECT_EQ(wp::determinant(wp::mat33{{{2, -1, 0}, {-1, 2, -1}, {0, -1, 2}}}), 4.0f);
    EXPECT_EQ(wp::determinant(wp::mat33{{{2, 0, 1}, {1, 3, 2}, {1, 1, 1}}}), 0.0f);
    const M44 a{{{1, 2, 3, 4}, {5, 6, 7, 8}, {2, 6, 4, 8}, {3, 1, 1, 2}}};
    EXPECT_DOUBLE_EQ(wp::determinant(a), 72.0);  // numpy.linalg.det
    EXPECT_EQ(wp::determinant(wp::identity<4, float>()), 1.0f);
    EXPECT_EQ(float(wp::determinant(
                  mat_t<2, 2, half>{{{half(1.0f), half(2.0f)}, {half(3.0f), half(4.0f)}}})),
              -2.0f);
}

TEST(NativeMat, InverseHandComputed) {
    // inv of the 1-D Laplacian: [[3,2,1],[2,4,2],[1,2,3]] / 4.
    expect_mat_near(wp::inverse(M33{{{2, -1, 0}, {-1, 2, -1}, {0, -1, 2}}}),
                    wp::div(M33{{{3, 2, 1}, {2, 4, 2}, {1, 2, 3}}}, 4.0), 1e-15);
    expect_mat_near(wp::inverse(M22{{{1, 2}, {3, 4}}}), M22{{{-2, 1}, {1.5, -0.5}}}, 1e-15);
    // numpy: inv(a) * det(a) for the 4x4 above.
    const M44 a{{{1, 2, 3, 4}, {5, 6, 7, 8}, {2, 6, 4, 8}, {3, 1, 1, 2}}};
    const M44 adjugate{
        {{-12, 4, -4, 24}, {-60, 20, 16, -24}, {12, 20, -20, -24}, {42, -26, 8, 24}}};
    expect_mat_near(wp::mul(wp::inverse(a), 72.0), adjugate, 1e-12);
    expect_mat_near(wp::cofactor(a), wp::transpose(adjugate), 1e-12);
}

TEST(NativeMat, SingularInverseIsZero) {
    EXPECT_EQ(wp::inverse(wp::mat22{{{1, 2}, {2, 4}}}), wp::mat22{});
    EXPECT_EQ(wp::inverse(wp::mat33{{{2, 0, 1}, {1, 3, 2}, {1, 1, 1}}}), wp::mat33{});
    EXPECT_EQ(wp::inverse(wp::mat44{}), wp::mat44{});
    EXPECT_EQ(wp::inverse(wp::mat_fill<4, 4, double>(2.0)), M44{});
    M44 g{};
    wp::adj_inverse(M44{}, g, wp::identity<4, double>());
    EXPECT_EQ(g, M44{});
}

template <int N>
void check_random_inverse() {
    for (int trial = 0; trial < 50; ++trial) {
        const mat_t<N, N, double> a = well_conditioned<N, double>();
        EXPECT_NEAR(wp::determinant(a), ref_det(a), 1e-12 * std::fabs(ref_det(a)));
        expect_mat_near(wp::mul(a, wp::inverse(a)), wp::identity<N, double>(), 1e-13);
        expect_mat_near(wp::mul(wp::inverse(a), a), wp::identity<N, double>(), 1e-13);
        const mat_t<N, N, float> f = well_conditioned<N, float>();
        expect_mat_near(wp::mul(f, wp::inverse(f)), wp::identity<N, float>(), 1e-5);
    }
}

TEST(NativeMat, RandomInverses) {
    check_random_inverse<2>();
    check_random_inverse<3>();
    check_random_inverse<4>();
}

// ---- adjoints against central finite differences ------------------------------------------

TEST(NativeMatAdjoint, ConstructionAndAccess) {
    check_adjoint([](double s) { return wp::mat_fill<2, 3, double>(s); },
                  [](double s, double& gs, M23 w) { wp::adj_mat_fill(s, gs, w); }, 0.3);
    check_adjoint([](V3 v) { return wp::diag(v); },
                  [](V3 v, V3& gv, M33 w) { wp::adj_diag(v, gv, w); }, rand_like<V3>());
    const V3 x = rand_like<V3>(), y = rand_like<V3>(), z = rand_like<V3>(), u = rand_like<V3>();
    check_adjoint([](V3 a, V3 b) { return wp::mat_from_rows(a, b); },
                  [](V3 a, V3 b, V3& ga, V3& gb, M23 w) { wp::adj_mat_from_rows(a, b, ga, gb, w); },
                  x, y);
    check_adjoint([](V3 a, V3 b, V3 c) { return wp::mat_from_rows(a, b, c); },
                  [](V3 a, V3 b, V3 c, V3& ga, V3& gb, V3& gc, M33 w) {
                      wp::adj_mat_from_rows(a, b, c, ga, gb, gc, w);
                  },
                  x, y, z);
    check_adjoint(
        [](V3 a, V3 b, V3 c, V3 d) { return wp::mat_from_rows(a, b, c, d); },
        [](V3 a, V3 b, V3 c, V3 d, V3& ga, V3& gb, V3& gc, V3& gd, mat_t<4, 3, double> w) {
            wp::adj_mat_from_rows(a, b, c, d, ga, gb, gc, gd, w);
        },
        x, y, z, u);
    check_adjoint([](V3 a, V3 b) { return wp::mat_from_cols(a, b); },
                  [](V3 a, V3 b, V3& ga, V3& gb, M32 w) { wp::adj_mat_from_cols(a, b, ga, gb, w); },
                  x, y);
    check_adjoint([](V3 a, V3 b, V3 c) { return wp::mat_from_cols(a, b, c); },
                  [](V3 a, V3 b, V3 c, V3& ga, V3& gb, V3& gc, M33 w) {
                      wp::adj_mat_from_cols(a, b, c, ga, gb, gc, w);
                  },
                  x, y, z);
    check_adjoint(
        [](V3 a, V3 b, V3 c, V3 d) { return wp::mat_from_cols(a, b, c, d); },
        [](V3 a, V3 b, V3 c, V3 d, V3& ga, V3& gb, V3& gc, V3& gd, mat_t<3, 4, double> w) {
            wp::adj_mat_from_cols(a, b, c, d, ga, gb, gc, gd, w);
        },
        x, y, z, u);
    const M23 m = rand_like<M23>();
    for (int i = -1; i <= 2; ++i) {
        check_adjoint(
            [](M23 a, int32 r) { return wp::extract(a, r); },
            [](M23 a, int32 r, M23& ga, int32& gr, V3 w) { wp::adj_extract(a, r, ga, gr, w); }, m,
            i);
        check_adjoint([](M23 a, V3 v, int32 r) { return wp::with_row(a, r, v); },
                      [](M23 a, V3 v, int32 r, M23& ga, V3& gv, int32& gr, M23 w) {
                          wp::adj_with_row(a, r, v, ga, gr, gv, w);
                      },
                      m, x, i);
        for (int j = -1; j <= 3; ++j) {
            check_adjoint([](M23 a, int32 r, int32 c) { return wp::extract(a, r, c); },
                          [](M23 a, int32 r, int32 c, M23& ga, int32& gr, int32& gc, double w) {
                              wp::adj_extract(a, r, c, ga, gr, gc, w);
                          },
                          m, i, j);
            check_adjoint(
                [](M23 a, int32 r, int32 c, double s) { return wp::with_component(a, r, c, s); },
                [](M23 a, int32 r, int32 c, double s, M23& ga, int32& gr, int32& gc, double& gs,
                   M23 w) { wp::adj_with_component(a, r, c, s, ga, gr, gc, gs, w); },
                m, i, j, 0.7);
        }
    }
}

TEST(NativeMatAdjoint, Arithmetic) {
    const M23 a = rand_like<M23>(), b = rand_like<M23>();
    const M23 bb = wp::add(b, wp::mat_fill<2, 3, double>(3.0));
    check_adjoint([](M23 x, M23 y) { return wp::add(x, y); },
                  [](M23 x, M23 y, M23& gx, M23& gy, M23 w) { wp::adj_add(x, y, gx, gy, w); }, a,
                  b);
    check_adjoint([](M23 x, M23 y) { return wp::sub(x, y); },
                  [](M23 x, M23 y, M23& gx, M23& gy, M23 w) { wp::adj_sub(x, y, gx, gy, w); }, a,
                  b);
    check_adjoint([](M23 x, M23 y) { return wp::cw_mul(x, y); },
                  [](M23 x, M23 y, M23& gx, M23& gy, M23 w) { wp::adj_cw_mul(x, y, gx, gy, w); }, a,
                  b);
    check_adjoint([](M23 x, M23 y) { return wp::cw_div(x, y); },
                  [](M23 x, M23 y, M23& gx, M23& gy, M23 w) { wp::adj_cw_div(x, y, gx, gy, w); }, a,
                  bb);
    check_adjoint([](M23 x, double s) { return wp::mul(x, s); },
                  [](M23 x, double s, M23& gx, double& gs, M23 w) { wp::adj_mul(x, s, gx, gs, w); },
                  a, 1.3);
    check_adjoint([](double s, M23 x) { return wp::mul(s, x); },
                  [](double s, M23 x, double& gs, M23& gx, M23 w) { wp::adj_mul(s, x, gs, gx, w); },
                  -0.4, a);
    check_adjoint([](M23 x, double s) { return wp::div(x, s); },
                  [](M23 x, double s, M23& gx, double& gs, M23 w) { wp::adj_div(x, s, gx, gs, w); },
                  a, 1.3);
    check_adjoint([](M23 x) { return wp::neg(x); },
                  [](M23 x, M23& gx, M23 w) { wp::adj_neg(x, gx, w); }, a);
    check_adjoint([](M23 x) { return wp::pos(x); },
                  [](M23 x, M23& gx, M23 w) { wp::adj_pos(x, gx, w); }, a);
}

TEST(NativeMatAdjoint, Products) {
    const M23 a = rand_like<M23>();
    const M32 c = rand_like<M32>();
    const M33 s = rand_like<M33>(), t = rand_like<M33>();
    check_adjoint([](M23 x, V3 v) { return wp::mul(x, v); },
                  [](M23 x, V3 v, M23& gx, V3& gv, V2 w) { wp::adj_mul(x, v, gx, gv, w); }, a,
                  rand_like<V3>());
    check_adjoint([](V2 v, M23 x) { return wp::mul(v, x); },
                  [](V2 v, M23 x, V2& gv, M23& gx, V3 w) { wp::adj_mul(v, x, gv, gx, w); },
                  rand_like<V2>(), a);
    check_adjoint([](M23 x, M32 y) { return wp::mul(x, y); },
                  [](M23 x, M32 y, M23& gx, M32& gy, M22 w) { wp::adj_mul(x, y, gx, gy, w); }, a,
                  c);
    check_adjoint([](M33 x, M33 y) { return wp::mul(x, y); },
                  [](M33 x, M33 y, M33& gx, M33& gy, M33 w) { wp::adj_mul(x, y, gx, gy, w); }, s,
                  t);
    check_adjoint([](V2 x, V3 y) { return wp::outer(x, y); },
                  [](V2 x, V3 y, V2& gx, V3& gy, M23 w) { wp::adj_outer(x, y, gx, gy, w); },
                  rand_like<V2>(), rand_like<V3>());
    check_adjoint([](M23 x) { return wp::transpose(x); },
                  [](M23 x, M23& gx, M32 w) { wp::adj_transpose(x, gx, w); }, a);
    check_adjoint([](M33 x) { return wp::trace(x); },
                  [](M33 x, M33& gx, double w) { wp::adj_trace(x, gx, w); }, s);
    check_adjoint([](M33 x, M33 y) { return wp::ddot(x, y); },
                  [](M33 x, M33 y, M33& gx, M33& gy, double w) { wp::adj_ddot(x, y, gx, gy, w); },
                  s, t);
    check_adjoint([](V3 v) { return wp::skew(v); },
                  [](V3 v, V3& gv, M33 w) { wp::adj_skew(v, gv, w); }, rand_like<V3>());
}

template <int N>
void check_det_inverse_adjoints() {
    using M = mat_t<N, N, double>;
    for (int trial = 0; trial < 5; ++trial) {
        const M a = well_conditioned<N, double>();
        check_adjoint([](M x) { return wp::determinant(x); },
                      [](M x, M& gx, double w) { wp::adj_determinant(x, gx, w); }, a);
        check_adjoint([](M x) { return wp::inverse(x); },
                      [](M x, M& gx, M w) { wp::adj_inverse(x, gx, w); }, a);
    }
}

TEST(NativeMatAdjoint, DeterminantAndInverse) {
    check_det_inverse_adjoints<2>();
    check_det_inverse_adjoints<3>();
    check_det_inverse_adjoints<4>();
    // The determinant's gradient is defined at singular matrices too (the cofactor matrix).
    check_adjoint([](M33 x) { return wp::determinant(x); },
                  [](M33 x, M33& gx, double w) { wp::adj_determinant(x, gx, w); },
                  M33{{{2, 0, 1}, {1, 3, 2}, {1, 1, 1}}});
}

// ---- atomics and print ----------------------------------------------------------------------

TEST(NativeMatAtomic, ContendedAddUnderEightThreads) {
    constexpr int kThreads = 8, kIters = 20000;
    std::vector<wp::mat22> buf(3, wp::mat22{});
    wp::array_t<wp::mat22> a{};
    a.data = buf.data();
    a.shape[0] = 3;
    a.strides[0] = sizeof(wp::mat22);
    a.ndim = 1;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&] {
            for (int n = 0; n < kIters; ++n) {
                wp::atomic_add(a, 1, wp::mat22{{{1, 2}, {-1, 0.5f}}});
                wp::atomic_sub(&buf[2], wp::mat22{{{1, 0}, {0, 1}}});
            }
        });
    }
    for (auto& th : threads) th.join();
    const float n = float(kThreads) * kIters;
    EXPECT_EQ(buf[1], (wp::mat22{{{n, 2 * n}, {-n, 0.5f * n}}}));
    EXPECT_EQ(buf[2], (wp::mat22{{{-n, 0}, {0, -n}}}));
    EXPECT_EQ(buf[0], wp::mat22{});
    EXPECT_EQ(wp::atomic_max(a, 0, wp::mat22{{{1, -1}, {0, 2}}}), wp::mat22{});
    EXPECT_EQ(buf[0], (wp::mat22{{{1, 0}, {0, 2}}}));
}

std::string printed(void (*fn)()) {
    ::testing::internal::CaptureStdout();
    fn();
    fflush(stdout);
    return ::testing::internal::GetCapturedStdout();
}

TEST(NativeMat, PrintOneRowPerLine) {
    EXPECT_EQ(printed([] { wp::print(wp::mat22{{{1, 2.5f}, {-3, 4}}}); }), "1 2.5 \n-3 4 \n");
    EXPECT_EQ(printed([] { wp::print(mat_t<1, 3, int32>{{{1, 2, 3}}}); }), "1 2 3 \n");
}

TEST(NativeMat, FlavourCastsAndTheirAdjoints) {
    const vec_t<3, float> v{{1.5f, -2.75f, 3.999f}};
    EXPECT_EQ(wp::vec_cast<double>(v), (vec_t<3, double>{{1.5, -2.75, double(3.999f)}}));
    EXPECT_EQ(wp::vec_cast<wp::int32>(v), (vec_t<3, wp::int32>{{1, -2, 3}}));  // truncation
    const mat_t<2, 2, float> m{{{0.5f, 1.0f}, {-3.0f, 7.25f}}};
    EXPECT_EQ(wp::mat_cast<double>(m), (mat_t<2, 2, double>{{{0.5, 1.0}, {-3.0, 7.25}}}));
    vec_t<3, float> gv{{1, 1, 1}};
    wp::adj_vec_cast<double>(v, gv, vec_t<3, double>{{0.5, 1.0, 2.0}});
    EXPECT_EQ(gv, (vec_t<3, float>{{1.5f, 2.0f, 3.0f}}));  // float -> double passes through
    wp::adj_vec_cast<wp::int32>(v, gv, vec_t<3, wp::int32>{{5, 5, 5}});
    EXPECT_EQ(gv, (vec_t<3, float>{{1.5f, 2.0f, 3.0f}}));  // to an integer: no gradient
    mat_t<2, 2, float> gm{};
    wp::adj_mat_cast<double>(m, gm, mat_t<2, 2, double>{{{1, 2}, {3, 4}}});
    EXPECT_EQ(gm, (mat_t<2, 2, float>{{{1, 2}, {3, 4}}}));
}

}  // namespace
