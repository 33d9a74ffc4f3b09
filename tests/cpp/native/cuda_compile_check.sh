#!/usr/bin/env bash
# tests/cpp/native/cuda_compile_check.sh -- compile every native/treadle family with nvcc (no GPU)
#
# Usage: tests/cpp/native/cuda_compile_check.sh [nvcc] ; exits non-zero on any error or warning.
set -euo pipefail
NVCC="${1:-${NVCC:-/usr/local/cuda/bin/nvcc}}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

cat > "$WORK/check.cu" <<'CU'
#include "treadle/cuda.h"

// Generated code calls every builtin qualified (wp::f), as here: unqualified names would be
// ambiguous with the global C math functions that nvcc and NVRTC declare.

template <typename T>
__device__ void scalar_family(T a, T b, T* out) {
    out[0] = wp::add(a, b);
    out[1] = wp::sub(a, b);
    out[2] = wp::mul(a, b);
    out[3] = wp::div(a, b);
    out[4] = wp::mod(a, b);
    out[5] = wp::floordiv(a, b);
    out[6] = wp::neg(a);
    out[7] = wp::pos(a);
    out[8] = wp::abs(a);
    out[9] = wp::min(a, b);
    out[10] = wp::max(a, b);
    out[11] = wp::clamp(a, b, a);
    out[12] = wp::sign(a);
    out[13] = wp::pow(a, b);
    out[14] = T(wp::isnan(a) || wp::isinf(a) || !wp::isfinite(b));
    out[15] = wp::cast<T>(wp::cast<float>(a) + wp::cast<float>(wp::cast<double>(b)));
    out[16] = wp::cast<T>(wp::cast<bool>(a));
    wp::print(a);
}

template <typename T>
__device__ void int_family(T a, T b, T* out) {
    out[0] = wp::bit_and(a, b);
    out[1] = wp::bit_or(a, b);
    out[2] = wp::bit_xor(a, b);
    out[3] = wp::lshift(a, b);
    out[4] = wp::rshift(a, b);
    out[5] = wp::invert(a);
}

template <typename T>
__device__ void float_family(T a, T b, T* out) {
    out[0] = wp::sqrt(a) + wp::cbrt(a) + wp::exp(a) + wp::log(a) + wp::log2(a) + wp::log10(a);
    out[1] = wp::sin(a) + wp::cos(a) + wp::tan(a) + wp::asin(a) + wp::acos(a) + wp::atan(a);
    out[2] = wp::atan2(a, b);
    out[2] += wp::sinh(a) + wp::cosh(a) + wp::tanh(a) + wp::degrees(a) + wp::radians(a);
    out[3] = wp::floor(a) + wp::ceil(a) + wp::round(a) + wp::trunc(a) + wp::rint(a);
    T g[3] = {T(0), T(0), T(0)};
    wp::adj_add(a, b, g[0], g[1], a);
    wp::adj_sub(a, b, g[0], g[1], a);
    wp::adj_mul(a, b, g[0], g[1], a);
    wp::adj_div(a, b, g[0], g[1], a);
    wp::adj_mod(a, b, g[0], g[1], a);
    wp::adj_pow(a, b, g[0], g[1], a);
    wp::adj_atan2(a, b, g[0], g[1], a);
    wp::adj_min(a, b, g[0], g[1], a);
    wp::adj_max(a, b, g[0], g[1], a);
    wp::adj_floordiv(a, b, g[0], g[1], a);
    wp::adj_clamp(a, b, a, g[0], g[1], g[2], a);
    wp::adj_neg(a, g[0], a);
    wp::adj_pos(a, g[0], a);
    wp::adj_abs(a, g[0], a);
    wp::adj_sign(a, g[0], a);
    wp::adj_sqrt(a, g[0], a);
    wp::adj_cbrt(a, g[0], a);
    wp::adj_exp(a, g[0], a);
    wp::adj_log(a, g[0], a);
    wp::adj_log2(a, g[0], a);
    wp::adj_log10(a, g[0], a);
    wp::adj_sin(a, g[0], a);
    wp::adj_cos(a, g[0], a);
    wp::adj_tan(a, g[0], a);
    wp::adj_asin(a, g[0], a);
    wp::adj_acos(a, g[0], a);
    wp::adj_atan(a, g[0], a);
    wp::adj_sinh(a, g[0], a);
    wp::adj_cosh(a, g[0], a);
    wp::adj_tanh(a, g[0], a);
    wp::adj_degrees(a, g[0], a);
    wp::adj_radians(a, g[0], a);
    wp::adj_floor(a, g[0], a);
    wp::adj_ceil(a, g[0], a);
    wp::adj_round(a, g[0], a);
    wp::adj_trunc(a, g[0], a);
    wp::adj_rint(a, g[0], a);
    wp::adj_cast<double>(a, g[0], 1.0);
    out[4] = g[0] + g[1] + g[2];
}

template <typename T>
__device__ void atomic_family(wp::array_t<T> a, wp::int32 i, T v) {
    T r = wp::atomic_add(a, i, v);
    r = wp::add(r, wp::atomic_sub(a, i, 0, v));
    r = wp::add(r, wp::atomic_min(a, i, 0, 0, v));
    r = wp::add(r, wp::atomic_max(a, i, 0, 0, 0, v));
    r = wp::add(r, wp::atomic_add(wp::address_checked(a, i, "check.py", 1, 5, "k"), v));
    r = wp::add(r, wp::atomic_min(&a.data[1], v));
    r = wp::add(r, wp::atomic_max(&a.data[2], v));
    r = wp::add(r, wp::atomic_sub(&a.data[3], v));
    wp::store(a, i, r);
    wp::store(wp::view(a, 0), 1, wp::load(a, 0, 0));
    wp::store(wp::view_checked(a, i, "check.py", 2, 5, "k"), 0, wp::load(a, 0, 0, 0, 0));
}

#define INSTANTIATE(T)                                                                      \
    WP_EXPORT __global__ void k_##T(wp::launch_bounds_t dim, wp::array_t<wp::T> arr, wp::T a, \
                                    wp::T b, wp::T* out) {                                  \
        const wp::int64 tid = wp::int64(blockIdx.x) * blockDim.x + threadIdx.x;             \
        if (tid >= dim.size) return;                                                        \
        wp::int32 i, j, k, l;                                                               \
        wp::tid_unravel(tid, dim, i);                                                       \
        wp::tid_unravel(tid, dim, i, j);                                                    \
        wp::tid_unravel(tid, dim, i, j, k);                                                 \
        wp::tid_unravel(tid, dim, i, j, k, l);                                              \
        scalar_family(a, b, out);                                                           \
        atomic_family(arr, i + j + k + l, a);                                               \
        *wp::address_checked(arr, i, j, "check.py", 3, 5, "k") = a;                            \
        *wp::address_checked(arr, i, j, k, l, "check.py", 4, 5, "k") = b;                      \
    }

INSTANTIATE(int8)
INSTANTIATE(uint8)
INSTANTIATE(int16)
INSTANTIATE(uint16)
INSTANTIATE(int32)
INSTANTIATE(uint32)
INSTANTIATE(int64)
INSTANTIATE(uint64)
INSTANTIATE(float16)
INSTANTIATE(float32)
INSTANTIATE(float64)

WP_EXPORT __global__ void k_int_family(wp::int32* o32, wp::uint64* o64, wp::int8* o8,
                                       wp::uint16* o16) {
    int_family(o32[0], o32[1], o32);
    int_family(o64[0], o64[1], o64);
    int_family(o8[0], o8[1], o8);
    int_family(o16[0], o16[1], o16);
    wp::print(true);
    wp::print("text");
}

WP_EXPORT __global__ void k_float_family(wp::float16* h, float* f, double* d) {
    float_family(h[0], h[1], h);
    float_family(f[0], f[1], f);
    float_family(d[0], d[1], d);
    wp::adj_cast<float>(h[0], h[1], 1.0f);
}
// vec.h / mat.h: every builtin and adjoint for float types, the arithmetic subset for the rest.
template <typename T>
__device__ void vec_mat_arith(wp::array_t<wp::vec_t<3, T>> av, wp::array_t<wp::mat_t<3, 3, T>> am,
                              wp::int32 i, T s) {
    using V = wp::vec_t<3, T>;
    using M = wp::mat_t<3, 3, T>;
    V a = wp::vec_t<3, T>{{s, s, s}};
    V b = wp::add(a, wp::vec_fill<3, T>(s));
    b = wp::sub(wp::mul(b, s), wp::mul(s, a));
    b = wp::add(b, wp::cw_mul(a, b));
    M m = wp::mat_t<3, 3, T>{{{s, s, s}, {s, s, s}, {s, s, s}}};
    M n = wp::add(wp::mul(m, m), wp::identity<3, T>());
    V c = wp::add(wp::mul(n, a), wp::mul(a, n));
    T d = wp::add(wp::dot(a, c), wp::extract(c, i));
    c = wp::with_component(c, i, d);
    n = wp::with_row(wp::with_component(n, i, 0, d), 1, c);
    wp::store(av, i, wp::add(wp::atomic_add(av, i, c), wp::atomic_sub(av, i, 0, b)));
    wp::store(am, i, wp::atomic_add(wp::address_checked(am, i, "check.py", 5, 5, "k"), n));
    if (a == b || m != n) wp::print(a);
    wp::print(m);
}

template <typename T>
__device__ void vec_mat_float(wp::array_t<wp::vec_t<3, T>> av, wp::array_t<wp::mat_t<3, 3, T>> am,
                              wp::int32 i, T s) {
    using V = wp::vec_t<3, T>;
    using M = wp::mat_t<3, 3, T>;
    V a = wp::load(av, i), b = wp::load(av, i + 1), ga{}, gb{};
    M m = wp::load(am, i), gm{}, gn{};
    T gs = T(0), gt = T(0);
    wp::int32 gi = 0, gj = 0;
    V r = wp::add(wp::normalize(a), wp::cross(a, b));
    r = wp::add(r, wp::mul(wp::length(a) + wp::length_sq(b), wp::min(wp::abs(a), wp::max(a, b))));
    r = wp::cw_div(wp::div(wp::neg(r), s), wp::pos(b));
    M n = wp::add(wp::outer(a, b), wp::transpose(m));
    n = wp::add(n, wp::mul(wp::inverse(m), wp::determinant(m) + wp::trace(m) + wp::ddot(m, m)));
    n = wp::add(n, wp::add(wp::skew(a), wp::diag(b)));
    n = wp::add(n, wp::mat_from_rows(a, b, r));
    n = wp::cw_div(wp::div(wp::neg(wp::cw_mul(n, m)), s), wp::mat_from_cols(a, b, r));
    auto n2 = wp::mat_from_rows(a, b);
    auto n4 = wp::mat_from_cols(a, b, r, a);
    wp::adj_vec_components(a, gs, gt, gs);
    wp::adj_vec_fill(s, gs, a);
    wp::adj_extract(a, i, ga, gi, s);
    wp::adj_with_component(a, i, s, ga, gi, gs, b);
    wp::adj_add(a, b, ga, gb, r);
    wp::adj_sub(a, b, ga, gb, r);
    wp::adj_cw_mul(a, b, ga, gb, r);
    wp::adj_cw_div(a, b, ga, gb, r);
    wp::adj_mul(a, s, ga, gs, r);
    wp::adj_mul(s, a, gs, ga, r);
    wp::adj_div(a, s, ga, gs, r);
    wp::adj_neg(a, ga, r);
    wp::adj_pos(a, ga, r);
    wp::adj_min(a, b, ga, gb, r);
    wp::adj_max(a, b, ga, gb, r);
    wp::adj_abs(a, ga, r);
    wp::adj_dot(a, b, ga, gb, s);
    wp::adj_length(a, ga, s);
    wp::adj_length_sq(a, ga, s);
    wp::adj_normalize(a, ga, r);
    wp::adj_cross(a, b, ga, gb, r);
    wp::adj_outer(a, b, ga, gb, m);
    wp::adj_mul(m, a, gm, ga, r);
    wp::adj_mul(a, m, ga, gm, r);
    wp::adj_mul(m, n, gm, gn, m);
    decltype(n2) gn2{};
    wp::adj_mul(n2, m, gn2, gm, n2);
    wp::adj_mul(m, s, gm, gs, n);
    wp::adj_mul(s, m, gs, gm, n);
    wp::adj_div(m, s, gm, gs, n);
    wp::adj_add(m, n, gm, gn, m);
    wp::adj_sub(m, n, gm, gn, m);
    wp::adj_cw_mul(m, n, gm, gn, m);
    wp::adj_cw_div(m, n, gm, gn, m);
    wp::adj_neg(m, gm, n);
    wp::adj_pos(m, gm, n);
    wp::adj_transpose(m, gm, n);
    wp::adj_trace(m, gm, s);
    wp::adj_ddot(m, n, gm, gn, s);
    wp::adj_determinant(m, gm, s);
    wp::adj_inverse(m, gm, n);
    wp::adj_skew(a, ga, m);
    wp::adj_diag(a, ga, m);
    wp::adj_mat_fill(s, gs, m);
    wp::adj_extract(m, i, gm, gi, a);
    wp::adj_extract(m, i, 1, gm, gi, gj, s);
    wp::adj_with_component(m, i, 1, s, gm, gi, gj, gs, n);
    wp::adj_with_row(m, i, a, gm, gi, ga, n);
    wp::adj_mat_from_rows(a, b, r, ga, gb, ga, n);
    wp::adj_mat_from_cols(a, b, r, a, ga, gb, ga, gb, n4);
    wp::mat_t<2, 2, T> q = wp::mul(n2, wp::transpose(n2));
    wp::mat_t<4, 4, T> p = wp::mul(wp::transpose(n4), n4);
    s = s + wp::determinant(q) + wp::determinant(p) + wp::inverse(q).m[0][0] + gs + gt;
    wp::store(am, i, wp::add(wp::add(n, gm), wp::mul(gn, s)));
    wp::store(av, i, wp::add(wp::add(r, ga), gb));
    wp::store(wp::view(am, 0), 0, wp::add(wp::inverse(p), p).m[0][0] == s ? m : n);
}

#define INSTANTIATE_VM(T)                                                                    \
    WP_EXPORT __global__ void vm_##T(wp::array_t<wp::vec_t<3, wp::T>> av,                    \
                                     wp::array_t<wp::mat_t<3, 3, wp::T>> am, wp::T s) {      \
        const wp::int32 i = wp::int32(threadIdx.x);                                          \
        vec_mat_arith(av, am, i, s);                                                         \
        if constexpr (wp::is_same_v<wp::T, float> || wp::is_same_v<wp::T, double>) {         \
            vec_mat_float(av, am, i, s);                                                     \
        }                                                                                    \
    }

INSTANTIATE_VM(float32)
INSTANTIATE_VM(float64)
INSTANTIATE_VM(int32)
INSTANTIATE_VM(uint8)
INSTANTIATE_VM(int64)

WP_EXPORT __global__ void vm_half(wp::vec3h* v, wp::half s) {
    wp::vec3h a = wp::add(v[0], v[1]);
    a = wp::sub(wp::mul(a, s), wp::mul(s, v[2]));
    v[3] = wp::mul(wp::vec_fill<3, wp::half>(wp::dot(a, v[0])), wp::length(a));
    wp::vec3h g{};
    wp::adj_add(a, a, g, g, a);
    wp::adj_dot(a, a, g, g, s);
    wp::atomic_add(&v[4], g);
    wp::print(g);
}
// quat.h / transform.h: every builtin and adjoint, float32 and float64 (float16 builtins only).
template <typename T>
__device__ void quat_family(wp::array_t<wp::quat_t<T>> aq, wp::array_t<wp::transform_t<T>> at,
                            wp::int32 i, T s) {
    using V = wp::vec_t<3, T>;
    using Q = wp::quat_t<T>;
    using X = wp::transform_t<T>;
    using M = wp::mat_t<3, 3, T>;
    Q a = wp::load(aq, i), b = wp::quat_t<T>{{s, s, s, s}}, ga{}, gb{};
    X t = wp::load(at, i), u = wp::transform_from(V{{s, s, s}}, a), gt{}, gu{};
    V v{{s, T(1), T(2)}}, gv{}, axis{};
    T gs = T(0), gr = T(0), gp = T(0), angle = T(0);
    wp::int32 gi = 0;
    Q r = wp::add(wp::mul(a, b), wp::sub(wp::mul(a, s), wp::mul(s, wp::neg(b))));
    r = wp::add(r, wp::quat_inverse(wp::normalize(r)));
    r = wp::with_component(r, i, wp::extract(r, i) + wp::dot(a, b) + wp::length(a));
    r = wp::add(r, wp::quat_slerp(a, b, s));
    r = wp::add(r, wp::mul(wp::quat_rpy(s, s, s), wp::quat_from_axis_angle(v, s)));
    r = wp::add(r, wp::quat_from_matrix(wp::quat_to_matrix(a)));
    r = wp::add(r, wp::pos(wp::quat_identity<T>()));
    wp::quat_to_axis_angle(r, axis, angle);
    V w = wp::add(wp::quat_rotate(a, v), wp::quat_rotate_inv(b, axis));
    w = wp::add(w, wp::transform_point(t, v));
    w = wp::add(w, wp::transform_vector(wp::transform_inverse(t), w));
    X c = wp::mul(wp::transform_multiply(t, u), wp::transform_identity<T>());
    c = wp::transform_from(wp::add(wp::transform_get_translation(c), w),
                           wp::add(wp::transform_get_rotation(c), r));
    wp::adj_quat_components(a, gs, gr, gp, gs);
    wp::adj_quat_identity(a);
    wp::adj_extract(a, i, ga, gi, s);
    wp::adj_with_component(a, i, s, ga, gi, gs, b);
    wp::adj_quat_from_axis_angle(v, s, gv, gs, a);
    wp::adj_quat_rpy(s, s, s, gs, gr, gp, a);
    wp::adj_quat_rotate(a, v, ga, gv, w);
    wp::adj_quat_rotate_inv(a, v, ga, gv, w);
    wp::adj_quat_inverse(a, ga, b);
    wp::adj_mul(a, b, ga, gb, r);
    wp::adj_mul(a, s, ga, gs, r);
    wp::adj_mul(s, a, gs, ga, r);
    wp::adj_add(a, b, ga, gb, r);
    wp::adj_sub(a, b, ga, gb, r);
    wp::adj_neg(a, ga, r);
    wp::adj_pos(a, ga, r);
    wp::adj_dot(a, b, ga, gb, s);
    wp::adj_length(a, ga, s);
    wp::adj_normalize(a, ga, r);
    M gm = wp::quat_to_matrix(b);
    wp::adj_quat_to_matrix(a, ga, gm);
    wp::adj_transform_from(v, a, gv, ga, c);
    wp::adj_transform_identity(c);
    wp::adj_transform_get_translation(t, gt, w);
    wp::adj_transform_get_rotation(t, gt, r);
    wp::adj_transform_point(t, v, gt, gv, w);
    wp::adj_transform_vector(t, v, gt, gv, w);
    wp::adj_transform_multiply(t, u, gt, gu, c);
    wp::adj_mul(t, u, gt, gu, c);
    wp::adj_transform_inverse(t, gt, c);
    wp::store(aq, i, wp::add(wp::atomic_add(aq, i, r), wp::atomic_sub(&aq.data[0], ga)));
    wp::store(at, i, wp::atomic_add(wp::address_checked(at, i, "check.py", 6, 5, "k"), gt));
    wp::atomic_sub(at, i, 0, gu);
    if (a == b || t != u) wp::print(a);
    wp::print(c);
    wp::store(aq, 0, wp::add(gb, wp::mul(ga, gs + gr + gp + angle)));
}

WP_EXPORT __global__ void quat_f32(wp::array_t<wp::quat> aq, wp::array_t<wp::transform> at,
                                   float s) {
    quat_family(aq, at, wp::int32(threadIdx.x), s);
}
WP_EXPORT __global__ void quat_f64(wp::array_t<wp::quatd> aq, wp::array_t<wp::transformd> at,
                                   double s) {
    quat_family(aq, at, wp::int32(threadIdx.x), s);
}
WP_EXPORT __global__ void quat_f16(wp::quath* q, wp::transformh* t, wp::half s) {
    const wp::vec3h v{{s, s, s}};
    q[0] = wp::normalize(wp::mul(q[1], wp::quat_from_axis_angle(v, s)));
    t[0] = wp::mul(t[1], wp::transform_inverse(t[2]));
    t[0].p = wp::add(wp::transform_point(t[0], v), wp::quat_rotate(q[0], v));
    wp::print(q[0]);
}
// mat_decomp.h, spatial.h, noise.h, the samplers and flavour casts: builtins and adjoints.
template <typename T>
__device__ void decomp_spatial_family(wp::array_t<wp::mat_t<3, 3, T>> am, wp::int32 i) {
    using M = wp::mat_t<3, 3, T>;
    using V = wp::vec_t<3, T>;
    using S = wp::vec_t<6, T>;
    M a = wp::load(am, i), u, v, q, r, e, ga{}, gr{};
    V s, d;
    wp::svd3(a, u, s, v);
    wp::qr3(a, q, r);
    wp::eig3(a, e, d);
    wp::adj_svd3(a, u, s, v, ga, u, s, v);
    wp::adj_qr3(a, q, r, ga, q, r);
    wp::adj_eig3(a, e, d, ga, e, d);
    wp::mat_t<2, 2, T> a2 = wp::mat_t<2, 2, T>{{{a.m[0][0], a.m[0][1]}, {a.m[1][0], a.m[1][1]}}};
    wp::mat_t<2, 2, T> u2, v2, g2{};
    wp::vec_t<2, T> s2;
    wp::svd2(a2, u2, s2, v2);
    wp::adj_svd2(a2, u2, s2, v2, g2, u2, s2, v2);
    ga.m[0][0] += g2.m[1][1];
    S x = wp::spatial_vector(s, d), y = wp::spatial_cross(x, x), gx{}, gy{};
    y = wp::add(y, wp::spatial_cross_dual(x, y));
    V top = wp::spatial_top(y), gt{}, gb{};
    T dot = wp::spatial_dot(x, y) + wp::spatial_bottom(x).c[0];
    wp::mat_t<6, 6, T> big = wp::spatial_adjoint(u, v);
    wp::adj_spatial_vector(s, d, gt, gb, y);
    wp::adj_spatial_top(x, gx, top);
    wp::adj_spatial_bottom(x, gx, top);
    wp::adj_spatial_dot(x, y, gx, gy, dot);
    wp::adj_spatial_cross(x, y, gx, gy, y);
    wp::adj_spatial_cross_dual(x, y, gx, gy, y);
    wp::adj_spatial_adjoint(u, v, ga, gr, big);
    wp::vec_t<3, float> f = wp::vec_cast<float>(top);
    wp::vec_t<3, T> gtop{};
    wp::adj_vec_cast<float>(top, gtop, f);
    wp::adj_mat_cast<double>(a, gr, wp::mat_cast<double>(a));
    wp::store(am, i, wp::add(wp::add(ga, gr), wp::mul(big.m[0][0] + gx.c[0] + gtop.c[0], a)));
}

WP_EXPORT __global__ void decomp_f32(wp::array_t<wp::mat33> am) {
    decomp_spatial_family(am, wp::int32(threadIdx.x));
}
WP_EXPORT __global__ void decomp_f64(wp::array_t<wp::mat33d> am) {
    decomp_spatial_family(am, wp::int32(threadIdx.x));
}

WP_EXPORT __global__ void random_noise(wp::array_t<wp::vec4> ap, float* out, wp::uint32* counts) {
    const wp::int32 i = wp::int32(threadIdx.x);
    wp::uint32 state = wp::rand_init(3, i), gs = 0, go = 0;
    const wp::vec4 p = wp::load(ap, i);
    const wp::vec3 p3{{p.c[0], p.c[1], p.c[2]}};
    const wp::vec2 p2{{p.c[0], p.c[1]}};
    wp::vec2 s2 = wp::add(wp::sample_triangle(state), wp::sample_unit_ring(state));
    s2 = wp::add(s2, wp::add(wp::sample_unit_disk(state), wp::sample_unit_square(state)));
    wp::vec3 s3 = wp::add(wp::sample_unit_sphere_surface(state), wp::sample_unit_sphere(state));
    s3 = wp::add(s3, wp::sample_unit_hemisphere_surface(state));
    s3 = wp::add(s3, wp::add(wp::sample_unit_hemisphere(state), wp::sample_unit_cube(state)));
    counts[i] = wp::poisson(state, p.c[0]) + wp::poisson(state, 20.0f);
    float v = wp::noise(state, p.c[0]) + wp::noise(state, p2) + wp::noise(state, p3) +
              wp::noise(state, p) + wp::pnoise(state, p.c[0], 2) + wp::pnoise(state, p2, 2, 3) +
              wp::pnoise(state, p3, 2, 3, 4) + wp::pnoise(state, p, 2, 3, 4, 5);
    wp::vec2 c2 = wp::curlnoise(state, p2);
    wp::vec3 c3 = wp::add(wp::curlnoise(state, p3, 2u), wp::curlnoise(state, p, 3u, 2.0f, 0.5f));
    float gf = 0.0f, gl = 0.0f, gg = 0.0f;
    wp::int32 gi = 0;
    wp::vec2 g2{};
    wp::vec3 g3{};
    wp::vec4 g4{};
    wp::adj_noise(state, p.c[0], gs, gf, v);
    wp::adj_noise(state, p3, gs, g3, v);
    wp::adj_pnoise(state, p.c[0], 2, gs, gf, gi, v);
    wp::adj_pnoise(state, p, 2, 3, 4, 5, gs, g4, gi, gi, gi, gi, v);
    wp::adj_curlnoise(state, p2, 2u, 2.0f, 0.5f, gs, g2, go, gl, gg, c2);
    wp::adj_curlnoise(state, p3, 2u, 2.0f, 0.5f, gs, g3, go, gl, gg, c3);
    wp::adj_curlnoise(state, p, 2u, 2.0f, 0.5f, gs, g4, go, gl, gg, c3);
    out[i] = v + s2.c[0] + s3.c[1] + c2.c[0] + c3.c[2] + gf + g2.c[0] + g3.c[1] + g4.c[3];
}
CU

cd "$WORK"
"$NVCC" -arch=sm_90 -std=c++17 -O2 -Werror all-warnings -I"$ROOT/native" -c check.cu -o check.o
"$NVCC" -arch=sm_90 -std=c++17 -O2 -Werror all-warnings -I"$ROOT/native" -ptx check.cu -o check.ptx
echo "cuda_compile_check: OK ($("$NVCC" --version | tail -1))"
