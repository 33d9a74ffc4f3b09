// native/treadle/random.h -- random numbers: the PCG hash of Jarzynski & Olano (2020)
//
// A generator state is a uint32 that each draw advances by one PCG hash step, composed the
// way Warp composes it so that results are bit-identical: rand_init(seed) = pcg(seed),
// rand_init(seed, offset) = pcg(seed + pcg(offset)); a float is the top 24 bits of the new
// state scaled to [0, 1); randn is the Box-Muller transform of two uniform draws.
//
// The sample_* functions and poisson draw in the order Warp draws (each draw is its own
// statement, never two in one expression, whose evaluation order C++ leaves open) and
// compute in float32 with the same operations, so their results are Warp's bit for bit
// on the same back end (the CUDA math library may round sin/cos/acos/pow differently from
// the CPU's).
#pragma once

#include "core.h"
#include "scalar.h"
#include "vec.h"

namespace wp {

/// One step of the PCG hash ("PCG-RXS-M-XS" output permutation of an LCG step).
CUDA_CALLABLE uint32 rand_pcg(uint32 state) {
    uint32 b = state * 747796405u + 2891336453u;
    uint32 c = ((b >> ((b >> 28u) + 4u)) ^ b) * 277803737u;
    return (c >> 22u) ^ c;
}

/// A generator state from a seed, or from a seed and an offset (e.g. the thread index).
CUDA_CALLABLE uint32 rand_init(int32 seed) { return rand_pcg(uint32(seed)); }
CUDA_CALLABLE uint32 rand_init(int32 seed, int32 offset) {
    return rand_pcg(uint32(seed) + rand_pcg(uint32(offset)));
}

/// A random int32 over the whole range; advances `state`.
CUDA_CALLABLE int32 randi(uint32& state) {
    state = rand_pcg(state);
    return int32(state);
}
/// A random int32 in [lo, hi); advances `state`.
CUDA_CALLABLE int32 randi(uint32& state, int32 lo, int32 hi) {
    state = rand_pcg(state);
    return int32(state % uint32(hi - lo)) + lo;
}
/// A random uint32; advances `state`.
CUDA_CALLABLE uint32 randu(uint32& state) {
    state = rand_pcg(state);
    return state;
}
/// A random uint32 in [lo, hi); advances `state`.
CUDA_CALLABLE uint32 randu(uint32& state, uint32 lo, uint32 hi) {
    state = rand_pcg(state);
    return state % (hi - lo) + lo;
}
/// A random float32 in [0, 1) from the top 24 bits; advances `state`.
CUDA_CALLABLE float32 randf(uint32& state) {
    state = rand_pcg(state);
    return float32(state >> 8) * (1.0f / 16777216.0f);
}
/// A random float32 in [lo, hi); advances `state`.
CUDA_CALLABLE float32 randf(uint32& state, float32 lo, float32 hi) {
    return (hi - lo) * randf(state) + lo;
}
/// A standard normal float32 (Box-Muller); advances `state` twice.
CUDA_CALLABLE float32 randn(uint32& state) {
    const float32 u1 = randf(state);
    const float32 u2 = randf(state);
    return wp::sqrt(-2.0f * wp::log(u1 + 5.96046448e-08f)) * wp::cos(6.28318530717958647692f * u2);
}

// ---- uniform points in simple domains -------------------------------------------------------

/// 2 pi in float32 (the float nearest 2 pi is twice the float nearest pi).
inline constexpr float32 k_rand_two_pi = 6.28318530717958647692f;

/// sample_triangle(state): barycentric (u, v) of a uniform point in a triangle; the third
/// coordinate is 1 - u - v. Two draws: r = sqrt(first), v = second * r, u = 1 - r.
CUDA_CALLABLE vec_t<2, float32> sample_triangle(uint32& state) {
    const float32 r = wp::sqrt(randf(state));
    const float32 v = randf(state) * r;
    return vec_t<2, float32>{{1.0f - r, v}};
}

/// sample_unit_ring(state): (cos t, sin t) for one uniform angle t in [0, 2 pi).
CUDA_CALLABLE vec_t<2, float32> sample_unit_ring(uint32& state) {
    const float32 t = k_rand_two_pi * randf(state);
    return vec_t<2, float32>{{wp::cos(t), wp::sin(t)}};
}

/// sample_unit_disk(state): radius sqrt(first draw), angle 2 pi * second draw.
CUDA_CALLABLE vec_t<2, float32> sample_unit_disk(uint32& state) {
    const float32 r = wp::sqrt(randf(state));
    const float32 t = k_rand_two_pi * randf(state);
    return vec_t<2, float32>{{r * wp::cos(t), r * wp::sin(t)}};
}

/// A point at polar angle acos(1 - scale * first draw) and azimuth 2 pi * second draw, at
/// radius cbrt-like pow(third draw, 1/3) when `solid` (a ball), else on the unit sphere.
/// scale 2 covers the sphere, 1 the upper hemisphere (z >= 0).
CUDA_CALLABLE vec_t<3, float32> sample_spherical(uint32& state, float32 scale, bool solid) {
    const float32 phi = wp::acos(1.0f - scale * randf(state));
    const float32 t = k_rand_two_pi * randf(state);
    const float32 sp = wp::sin(phi), cp = wp::cos(phi), ct = wp::cos(t), st = wp::sin(t);
    if (!solid) return vec_t<3, float32>{{ct * sp, st * sp, cp}};
    const float32 r = wp::pow(randf(state), 1.0f / 3.0f);
    return vec_t<3, float32>{{r * ct * sp, r * st * sp, r * cp}};
}

/// sample_unit_sphere_surface / sample_unit_sphere / sample_unit_hemisphere_surface /
/// sample_unit_hemisphere (state): uniform on / in the unit sphere or its z >= 0 half.
CUDA_CALLABLE vec_t<3, float32> sample_unit_sphere_surface(uint32& state) {
    return sample_spherical(state, 2.0f, false);
}
CUDA_CALLABLE vec_t<3, float32> sample_unit_sphere(uint32& state) {
    return sample_spherical(state, 2.0f, true);
}
CUDA_CALLABLE vec_t<3, float32> sample_unit_hemisphere_surface(uint32& state) {
    return sample_spherical(state, 1.0f, false);
}
CUDA_CALLABLE vec_t<3, float32> sample_unit_hemisphere(uint32& state) {
    return sample_spherical(state, 1.0f, true);
}

/// sample_unit_square/cube/hypercube(state): one draw - 0.5 per axis, x first: [-0.5, 0.5)^N.
template <int N>
CUDA_CALLABLE vec_t<N, float32> sample_centered_box(uint32& state) {
    vec_t<N, float32> p{};
    for (int i = 0; i < N; ++i) p.c[i] = randf(state) - 0.5f;
    return p;
}
CUDA_CALLABLE vec_t<2, float32> sample_unit_square(uint32& state) {
    return sample_centered_box<2>(state);
}
CUDA_CALLABLE vec_t<3, float32> sample_unit_cube(uint32& state) {
    return sample_centered_box<3>(state);
}
CUDA_CALLABLE vec_t<4, float32> sample_unit_hypercube(uint32& state) {
    return sample_centered_box<4>(state);
}

/// sample_cdf(state, cdf): one uniform draw u; the index of the first entry of the
/// non-decreasing 1-D cdf that is >= u (the last index when none is), by binary search.
CUDA_CALLABLE int32 sample_cdf(uint32& state, const array_t<float32>& cdf) {
    const float32 u = randf(state);
    int32 lo = 0, hi = cdf.shape[0] - 1;
    while (lo < hi) {
        const int32 mid = lo + (hi - lo) / 2;
        if (load(cdf, mid) < u) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// ---- Poisson counts -------------------------------------------------------------------------

/// log Gamma(x) for x >= 1 in float32: Stirling's series at x0 = x + n >= 7 with the
/// coefficients B_2k / (2k (2k - 1)), shifted back by log Gamma(x) = log Gamma(x0) -
/// sum log(x0 - i) (Zhang & Jin's SPECFUN method, as NumPy's random_loggam).
CUDA_CALLABLE float32 rand_log_gamma(float32 x) {
    if (x == 1.0f || x == 2.0f) return 0.0f;
    const uint32 n = x < 7.0f ? uint32(7.0f - x) : 0u;
    float32 x0 = x + float32(n);
    const float32 inv = 1.0f / x0;
    const float32 x2 = inv * inv;
    // B2/(2*1), B4/(4*3), ... B20/(20*19): 1/12, -1/360, 1/1260, -1/1680, 1/1188,
    // -691/360360, 1/156, -3617/122400, 43867/244188, -174611/125400
    const float32 series[10] = {8.333333333333333e-02f, -2.777777777777778e-03f,
                                7.936507936507937e-04f, -5.952380952380952e-04f,
                                8.417508417508418e-04f, -1.917526917526918e-03f,
                                6.410256410256410e-03f, -2.955065359477124e-02f,
                                1.796443723688307e-01f, -1.39243221690590e+00f};
    float32 acc = series[9];
    for (int i = 8; i >= 0; --i) acc = acc * x2 + series[i];
    const float32 half_log_two_pi = 0.5f * 1.8378770664093453f;
    float32 g = acc / x0 + half_log_two_pi + (x0 - 0.5f) * wp::log(x0) - x0;
    for (uint32 i = 0; i < n; ++i) {
        g -= wp::log(x0 - 1.0f);
        x0 -= 1.0f;
    }
    return g;
}

/// Poisson by multiplying uniform draws until the product falls to exp(-lam) (small lam).
CUDA_CALLABLE uint32 poisson_by_products(uint32& state, float32 lam) {
    const float32 limit = wp::exp(-lam);
    uint32 count = 0;
    float32 product = 1.0f;
    for (;;) {
        product *= randf(state);
        if (!(product > limit)) return count;
        ++count;
    }
}

/// Poisson by Hoermann's transformed rejection with squeeze (PTRS, 1993) for lam >= 10; the
/// candidate stays a float until it is known to be non-negative.
CUDA_CALLABLE uint32 poisson_ptrs(uint32& state, float32 lam) {
    const float32 slam = wp::sqrt(lam), loglam = wp::log(lam);
    const float32 b = 0.931f + 2.53f * slam;
    const float32 a = -0.059f + 0.02483f * b;
    const float32 inv_alpha = 1.1239f + 1.1328f / (b - 3.4f);
    const float32 v_r = 0.9277f - 3.6224f / (b - 2.0f);
    for (;;) {
        const float32 u = randf(state) - 0.5f;
        const float32 v = randf(state);
        const float32 us = 0.5f - wp::abs(u);
        const float32 k = wp::floor((2.0f * a / us + b) * u + lam + 0.43f);
        if (us >= 0.07f && v <= v_r) return uint32(k);
        if (k < 0.0f || (us < 0.013f && v > us)) continue;
        const float32 lhs = wp::log(v) + wp::log(inv_alpha) - wp::log(a / (us * us) + b);
        if (lhs <= -lam + k * loglam - rand_log_gamma(k + 1.0f)) return uint32(k);
    }
}

/// poisson(state, lam): a count with mean and variance lam; lam == 0 gives 0 without a draw.
CUDA_CALLABLE uint32 poisson(uint32& state, float32 lam) {
    if (lam >= 10.0f) return poisson_ptrs(state, lam);
    if (lam == 0.0f) return 0u;
    return poisson_by_products(state, lam);
}

}  // namespace wp
