// native/treadle/noise.h -- Perlin noise (noise, pnoise, curlnoise) on the PCG hash, and adjoints
//
// Warp's gradient noise over 1 to 4 dimensions, float32. The lattice corner i (int32 per axis)
// gets a pseudo-random gradient from the PCG stream started at the hash
// (i_0 p_0) ^ ... ^ (i_{N-1} p_{N-1} + state) with the primes p = 73856093, 19349663, 53471161,
// 10000019 (uint32 arithmetic): in 1-D the draw 2 u - 1, in N-D the normalised
// sample_unit_square / cube / hypercube. A point's value blends the corners' dot(offset,
// gradient) with Perlin's quintic 6t^5 - 15t^4 + 10t^3, axis 0 first, exactly as Warp orders
// the operations, so values and curl noise match Warp's bit for bit on the same back end.
// noise is 0 at lattice points; `state` selects the field and is never advanced.
//
// Adjoints: noise and pnoise pass adj_ret times the analytic gradient; curlnoise (itself made
// of noise gradients) passes its Jacobian, built from analytic Hessians of the noise. The
// period, octave, lacunarity and gain arguments get no gradient, as in Warp.
#pragma once

#include "mat.h"
#include "random.h"

#if !defined(__CUDACC__)
#pragma GCC visibility push(hidden)
#endif

namespace wp {

namespace perlin {

/// Perlin's quintic fade S(t) and its first two derivatives.
CUDA_CALLABLE float32 fade(float32 t) { return t * t * t * (t * (t * 6.0f - 15.0f) + 10.0f); }
CUDA_CALLABLE float32 fade_d1(float32 t) { return 30.0f * t * t * (t * (t - 2.0f) + 1.0f); }
CUDA_CALLABLE float32 fade_d2(float32 t) { return 60.0f * t * (t * (t * 2.0f - 3.0f) + 1.0f); }

/// The lattice cell of a point: corner indices along each axis and the offset in the cell.
template <int N>
struct Cell {
    int32 lo[N];
    int32 hi[N];
    float32 d[N];
};

/// The cell containing x; with periods (period != null) the indices wrap with C's %.
template <int N>
CUDA_CALLABLE Cell<N> cell_of(const float32* x, const int32* period) {
    Cell<N> c;
    for (int k = 0; k < N; ++k) {
        const float32 f = wp::floor(x[k]);
        c.d[k] = x[k] - f;
        c.lo[k] = int32(f);
        c.hi[k] = c.lo[k] + 1;
        if (period) {
            c.lo[k] = mod(c.lo[k], period[k]);
            c.hi[k] = mod(c.lo[k] + 1, period[k]);
        }
    }
    return c;
}

/// The pseudo-random unit gradient of lattice corner i (see the file comment).
template <int N>
CUDA_CALLABLE vec_t<N, float32> corner_gradient(uint32 state, const int32* i) {
    constexpr uint32 k_primes[4] = {73856093u, 19349663u, 53471161u, 10000019u};
    uint32 h = uint32(i[N - 1]) * k_primes[N - 1] + state;
    for (int k = N - 2; k >= 0; --k) h = (uint32(i[k]) * k_primes[k]) ^ h;
    if constexpr (N == 1) {
        return vec_t<1, float32>{{2.0f * randf(h) - 1.0f}};
    } else {
        vec_t<N, float32> g = sample_centered_box<N>(h);
        float32 sq = g.c[0] * g.c[0];
        for (int k = 1; k < N; ++k) sq = sq + g.c[k] * g.c[k];
        const float32 l = wp::sqrt(sq);
        for (int k = 0; k < N; ++k) g.c[k] = l > 0.0f ? g.c[k] / l : 0.0f;
        return g;
    }
}

/// A noise value with, up to `Order`, its gradient and Hessian in the point's coordinates.
template <int N, int Order>
struct Jet {
    float32 v = 0.0f;
    vec_t<N, float32> g{};
    mat_t<N, N, float32> h{};
};

/// Corner `bits` (bit k set: the upper corner along axis k): dot(offset, gradient), which is
/// linear in the point (gradient g, no Hessian).
template <int N, int Order>
CUDA_CALLABLE Jet<N, Order> corner(uint32 state, const Cell<N>& c, int bits) {
    int32 idx[N];
    float32 off[N];
    for (int k = 0; k < N; ++k) {
        const bool upper = (bits >> k) & 1;
        idx[k] = upper ? c.hi[k] : c.lo[k];
        off[k] = upper ? c.d[k] - 1.0f : c.d[k];
    }
    const vec_t<N, float32> g = corner_gradient<N>(state, idx);
    Jet<N, Order> j;
    j.v = off[0] * g.c[0];
    for (int k = 1; k < N; ++k) j.v = j.v + off[k] * g.c[k];
    if constexpr (Order >= 1) j.g = g;
    return j;
}

/// Blends a (lower) and b (upper) along axis k at fade parameter t: a + (b - a) S(t), with the
/// product rule for the gradient and Hessian.
template <int N, int Order>
CUDA_CALLABLE Jet<N, Order> blend(const Jet<N, Order>& a, const Jet<N, Order>& b, int k,
                                  float32 t) {
    Jet<N, Order> r;
    const float32 s = fade(t), dv = b.v - a.v;
    r.v = dv * s + a.v;
    if constexpr (Order >= 1) {
        const float32 s1 = fade_d1(t);
        for (int i = 0; i < N; ++i)
            r.g.c[i] = (b.g.c[i] - a.g.c[i]) * s + dv * s1 * (i == k ? 1.0f : 0.0f) + a.g.c[i];
        if constexpr (Order >= 2) {
            const float32 s2 = fade_d2(t);
            for (int i = 0; i < N; ++i) {
                for (int j = 0; j < N; ++j)
                    r.h.m[i][j] = a.h.m[i][j] + (b.h.m[i][j] - a.h.m[i][j]) * s;
            }
            for (int i = 0; i < N; ++i) {
                const float32 dg = (b.g.c[i] - a.g.c[i]) * s1;
                r.h.m[i][k] += dg;
                r.h.m[k][i] += dg;
            }
            r.h.m[k][k] += dv * s2;
        }
    }
    return r;
}

/// The noise of cell c: the 2^N corners blended along axis 0, then 1, ...
template <int N, int Order>
CUDA_CALLABLE Jet<N, Order> evaluate(uint32 state, const Cell<N>& c) {
    Jet<N, Order> level[1 << N];
    for (int b = 0; b < (1 << N); ++b) level[b] = corner<N, Order>(state, c, b);
    int count = 1 << N;
    for (int k = 0; k < N; ++k) {
        count >>= 1;
        for (int j = 0; j < count; ++j)
            level[j] = blend<N, Order>(level[2 * j], level[2 * j + 1], k, c.d[k]);
    }
    return level[0];
}

template <int N, int Order>
CUDA_CALLABLE Jet<N, Order> at(uint32 state, const vec_t<N, float32>& x,
                               const int32* period = nullptr) {
    return evaluate<N, Order>(state, cell_of<N>(x.c, period));
}

}  // namespace perlin

// ---- noise and pnoise -----------------------------------------------------------------------

/// noise(state, x): non-periodic Perlin noise of a float, vec2, vec3 or vec4 point.
CUDA_CALLABLE float32 noise(uint32 state, float32 x) {
    return perlin::at<1, 0>(state, vec_t<1, float32>{{x}}).v;
}
template <int N>
CUDA_CALLABLE float32 noise(uint32 state, const vec_t<N, float32>& x) {
    return perlin::at<N, 0>(state, x).v;
}

/// pnoise(state, x, px[, py, pz, pt]): noise whose lattice repeats every p cells per axis
/// (periods > 0; negative coordinates are unsupported, as in Warp).
CUDA_CALLABLE float32 pnoise(uint32 state, float32 x, int32 px) {
    return perlin::at<1, 0>(state, vec_t<1, float32>{{x}}, &px).v;
}
CUDA_CALLABLE float32 pnoise(uint32 state, const vec_t<2, float32>& x, int32 px, int32 py) {
    const int32 p[2] = {px, py};
    return perlin::at<2, 0>(state, x, p).v;
}
CUDA_CALLABLE float32 pnoise(uint32 state, const vec_t<3, float32>& x, int32 px, int32 py,
                             int32 pz) {
    const int32 p[3] = {px, py, pz};
    return perlin::at<3, 0>(state, x, p).v;
}
CUDA_CALLABLE float32 pnoise(uint32 state, const vec_t<4, float32>& x, int32 px, int32 py, int32 pz,
                             int32 pt) {
    const int32 p[4] = {px, py, pz, pt};
    return perlin::at<4, 0>(state, x, p).v;
}

/// adj_noise / adj_pnoise: adj_x += adj_ret * gradient of the noise at x.
CUDA_CALLABLE void adj_noise(uint32 state, float32 x, uint32&, float32& adj_x, float32 adj_ret) {
    adj_x += perlin::at<1, 1>(state, vec_t<1, float32>{{x}}).g.c[0] * adj_ret;
}
template <int N>
CUDA_CALLABLE void adj_noise(uint32 state, const vec_t<N, float32>& x, uint32&,
                             vec_t<N, float32>& adj_x, float32 adj_ret) {
    const vec_t<N, float32> g = perlin::at<N, 1>(state, x).g;
    for (int k = 0; k < N; ++k) adj_x.c[k] += g.c[k] * adj_ret;
}
CUDA_CALLABLE void adj_pnoise(uint32 state, float32 x, int32 px, uint32&, float32& adj_x, int32&,
                              float32 adj_ret) {
    adj_x += perlin::at<1, 1>(state, vec_t<1, float32>{{x}}, &px).g.c[0] * adj_ret;
}
template <int N>
CUDA_CALLABLE void adj_pnoise_n(uint32 state, const vec_t<N, float32>& x, const int32* p,
                                vec_t<N, float32>& adj_x, float32 adj_ret) {
    const vec_t<N, float32> g = perlin::at<N, 1>(state, x, p).g;
    for (int k = 0; k < N; ++k) adj_x.c[k] += g.c[k] * adj_ret;
}
CUDA_CALLABLE void adj_pnoise(uint32 state, const vec_t<2, float32>& x, int32 px, int32 py, uint32&,
                              vec_t<2, float32>& adj_x, int32&, int32&, float32 adj_ret) {
    const int32 p[2] = {px, py};
    adj_pnoise_n<2>(state, x, p, adj_x, adj_ret);
}
CUDA_CALLABLE void adj_pnoise(uint32 state, const vec_t<3, float32>& x, int32 px, int32 py,
                              int32 pz, uint32&, vec_t<3, float32>& adj_x, int32&, int32&, int32&,
                              float32 adj_ret) {
    const int32 p[3] = {px, py, pz};
    adj_pnoise_n<3>(state, x, p, adj_x, adj_ret);
}
CUDA_CALLABLE void adj_pnoise(uint32 state, const vec_t<4, float32>& x, int32 px, int32 py,
                              int32 pz, int32 pt, uint32&, vec_t<4, float32>& adj_x, int32&, int32&,
                              int32&, int32&, float32 adj_ret) {
    const int32 p[4] = {px, py, pz, pt};
    adj_pnoise_n<4>(state, x, p, adj_x, adj_ret);
}

// ---- curl noise -----------------------------------------------------------------------------

/// The 3-D curl (s3.y - s2.z, s1.z - s3.x, s2.x - s1.y) of three gradient sums.
template <int N>
CUDA_CALLABLE vec_t<3, float32> curl_of(const vec_t<N, float32>& s1, const vec_t<N, float32>& s2,
                                        const vec_t<N, float32>& s3) {
    return vec_t<3, float32>{{s3.c[1] - s2.c[2], s1.c[2] - s3.c[0], s2.c[0] - s1.c[1]}};
}

/// The three fields of 3-D/4-D curl noise use the state, then rand_init(state, 10019689), then
/// rand_init of that with 13112221; the state keeps changing from one octave to the next.
CUDA_CALLABLE uint32 curl_next_field(uint32 state, int32 salt) {
    return rand_init(int32(state), salt);
}

/// curlnoise(state, x, octaves = 1, lacunarity = 2, gain = 0.5): a divergence-free field from
/// noise gradients summed over octaves (octave i: frequency lacunarity^i, weight gain^i). A vec2
/// point gives the 2-D curl (-dN/dy, dN/dx); vec3 and vec4 points give the 3-D curl of three
/// noise fields (the fourth axis, often time, only moves the fields).
CUDA_CALLABLE vec_t<2, float32> curlnoise(uint32 state, const vec_t<2, float32>& x,
                                          uint32 octaves = 1u, float32 lacunarity = 2.0f,
                                          float32 gain = 0.5f) {
    vec_t<2, float32> sum{{0.0f, 0.0f}};
    float32 freq = 1.0f, amplitude = 1.0f;
    for (uint32 i = 0; i < octaves; ++i) {
        const vec_t<2, float32> g = perlin::at<2, 1>(state, mul(freq, x)).g;
        for (int k = 0; k < 2; ++k) sum.c[k] = sum.c[k] + amplitude * g.c[k];
        amplitude *= gain;
        freq *= lacunarity;
    }
    return vec_t<2, float32>{{-sum.c[1], sum.c[0]}};
}
template <int N>
CUDA_CALLABLE vec_t<3, float32> curlnoise(uint32 state, const vec_t<N, float32>& x,
                                          uint32 octaves = 1u, float32 lacunarity = 2.0f,
                                          float32 gain = 0.5f) {
    static_assert(N == 3 || N == 4, "curlnoise takes a vec2, vec3 or vec4 point");
    vec_t<N, float32> s[3] = {};
    float32 freq = 1.0f, amplitude = 1.0f;
    for (uint32 i = 0; i < octaves; ++i) {
        const perlin::Cell<N> c = perlin::cell_of<N>(mul(freq, x).c, nullptr);
        for (int f = 0; f < 3; ++f) {
            if (f == 1) state = curl_next_field(state, 10019689);
            if (f == 2) state = curl_next_field(state, 13112221);
            const vec_t<N, float32> g = perlin::evaluate<N, 1>(state, c).g;
            for (int k = 0; k < N; ++k) s[f].c[k] = s[f].c[k] + amplitude * g.c[k];
        }
        amplitude *= gain;
        freq *= lacunarity;
    }
    return curl_of(s[0], s[1], s[2]);
}

/// adj_curlnoise: adj_x += J^T adj_ret, J the Jacobian of the curl: per octave the weight times
/// the frequency times the matching rows of the noise Hessians.
CUDA_CALLABLE void adj_curlnoise(uint32 state, const vec_t<2, float32>& x, uint32 octaves,
                                 float32 lacunarity, float32 gain, uint32&,
                                 vec_t<2, float32>& adj_x, uint32&, float32&, float32&,
                                 const vec_t<2, float32>& adj_ret) {
    float32 freq = 1.0f, amplitude = 1.0f;
    for (uint32 i = 0; i < octaves; ++i) {
        const mat_t<2, 2, float32> h = perlin::at<2, 2>(state, mul(freq, x)).h;
        const float32 w = amplitude * freq;
        for (int c = 0; c < 2; ++c)
            adj_x.c[c] += w * (h.m[0][c] * adj_ret.c[1] - h.m[1][c] * adj_ret.c[0]);
        amplitude *= gain;
        freq *= lacunarity;
    }
}
template <int N>
CUDA_CALLABLE void adj_curlnoise(uint32 state, const vec_t<N, float32>& x, uint32 octaves,
                                 float32 lacunarity, float32 gain, uint32&,
                                 vec_t<N, float32>& adj_x, uint32&, float32&, float32&,
                                 const vec_t<3, float32>& adj_ret) {
    float32 freq = 1.0f, amplitude = 1.0f;
    for (uint32 i = 0; i < octaves; ++i) {
        const perlin::Cell<N> cell = perlin::cell_of<N>(mul(freq, x).c, nullptr);
        mat_t<N, N, float32> h[3];
        for (int f = 0; f < 3; ++f) {
            if (f == 1) state = curl_next_field(state, 10019689);
            if (f == 2) state = curl_next_field(state, 13112221);
            h[f] = perlin::evaluate<N, 2>(state, cell).h;
        }
        const float32 w = amplitude * freq;
        for (int c = 0; c < N; ++c) {
            adj_x.c[c] += w * (adj_ret.c[0] * (h[2].m[1][c] - h[1].m[2][c]) +
                               adj_ret.c[1] * (h[0].m[2][c] - h[2].m[0][c]) +
                               adj_ret.c[2] * (h[1].m[0][c] - h[0].m[1][c]));
        }
        amplitude *= gain;
        freq *= lacunarity;
    }
}

/// adj_curlnoise(state, x, adj_state, adj_x, adj_ret) and with octaves / lacunarity: the
/// adjoints of the calls that leave the trailing arguments at their defaults.
template <int N, int M>
CUDA_CALLABLE void adj_curlnoise(uint32 state, const vec_t<N, float32>& x, uint32& adj_state,
                                 vec_t<N, float32>& adj_x, const vec_t<M, float32>& adj_ret) {
    uint32 adj_octaves = 0;
    float32 adj_lacunarity = 0.0f, adj_gain = 0.0f;
    adj_curlnoise(state, x, 1u, 2.0f, 0.5f, adj_state, adj_x, adj_octaves, adj_lacunarity, adj_gain,
                  adj_ret);
}
template <int N, int M>
CUDA_CALLABLE void adj_curlnoise(uint32 state, const vec_t<N, float32>& x, uint32 octaves,
                                 uint32& adj_state, vec_t<N, float32>& adj_x, uint32& adj_octaves,
                                 const vec_t<M, float32>& adj_ret) {
    float32 adj_lacunarity = 0.0f, adj_gain = 0.0f;
    adj_curlnoise(state, x, octaves, 2.0f, 0.5f, adj_state, adj_x, adj_octaves, adj_lacunarity,
                  adj_gain, adj_ret);
}
template <int N, int M>
CUDA_CALLABLE void adj_curlnoise(uint32 state, const vec_t<N, float32>& x, uint32 octaves,
                                 float32 lacunarity, uint32& adj_state, vec_t<N, float32>& adj_x,
                                 uint32& adj_octaves, float32& adj_lacunarity,
                                 const vec_t<M, float32>& adj_ret) {
    float32 adj_gain = 0.0f;
    adj_curlnoise(state, x, octaves, lacunarity, 0.5f, adj_state, adj_x, adj_octaves,
                  adj_lacunarity, adj_gain, adj_ret);
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
