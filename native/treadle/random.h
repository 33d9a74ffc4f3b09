// native/treadle/random.h -- random numbers: the PCG hash of Jarzynski & Olano (2020)
//
// A generator state is a uint32 that each draw advances by one PCG hash step, composed the
// way Warp composes it so that results are bit-identical: rand_init(seed) = pcg(seed),
// rand_init(seed, offset) = pcg(seed + pcg(offset)); a float is the top 24 bits of the new
// state scaled to [0, 1); randn is the Box-Muller transform of two uniform draws.
#pragma once

#include "core.h"
#include "scalar.h"

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
    return wp::sqrt(-2.0f * wp::log(u1 + 1.1920929e-07f)) * wp::cos(6.28318530717958647692f * u2);
}

}  // namespace wp
