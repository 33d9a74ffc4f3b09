// src/builtins/entries_random.cpp -- the builtin table's random numbers, sampling and noise
#include "builtins/entries.h"

namespace treadle::builtins::entries {

using namespace rules;

/// Random numbers (PCG hash of Jarzynski & Olano, composed as Warp does), sampling and noise.
std::vector<Builtin> random_numbers() {
    return {
        {"rand_init", "rand_init", BuiltinKind::Regular, "Random",
         "rand_init(seed: int32, offset: int32 = ...) -> uint32",
         "A random generator state (uint32) from a seed, and from an offset such as the thread "
         "index so that each thread draws its own sequence.",
         false, rule_rand_init},
        {"randi", "randi", BuiltinKind::Random, "Random",
         "randi(state: uint32, low: int32 = ..., high: int32 = ...) -> int32",
         "A random int32 drawn from state (uniform over all int32 values, or over [low, high) when "
         "the bounds are given); advances state.",
         false, rule_randi, with().rebinds(Rebinds::State)},
        {"randu", "randu", BuiltinKind::Random, "Random",
         "randu(state: uint32, low: uint32 = ..., high: uint32 = ...) -> uint32",
         "A random uint32 drawn from state (uniform over all uint32 values, or over [low, high) "
         "when the bounds are given); advances state.",
         false, rule_randu, with().rebinds(Rebinds::State)},
        {"randf", "randf", BuiltinKind::Random, "Random",
         "randf(state: uint32, low: float32 = ..., high: float32 = ...) -> float32",
         "A uniform random float32 in [0, 1) drawn from state (or in [low, high) when the bounds "
         "are given); advances state.",
         false, rule_randf, with().rebinds(Rebinds::State)},
        {"randn", "randn", BuiltinKind::Random, "Random", "randn(state: uint32) -> float32",
         "A standard normal (mean 0, variance 1) random float32 drawn from state; advances state.",
         false, rule_randn, with().rebinds(Rebinds::State)},
        {"sample_triangle", "sample_triangle", BuiltinKind::Random, "Random",
         "sample_triangle(state: uint32) -> vec2",
         "Uniform barycentric coordinates (u, v) of a random point in a triangle (the third is w = "
         "1 - u - v), drawn from state; advances state.",
         false, rule_sample2, with().rebinds(Rebinds::State)},
        {"sample_unit_ring", "sample_unit_ring", BuiltinKind::Random, "Random",
         "sample_unit_ring(state: uint32) -> vec2",
         "A uniformly distributed random point on the unit circle, as a vec2, drawn from state; "
         "advances state.",
         false, rule_sample2, with().rebinds(Rebinds::State)},
        {"sample_unit_disk", "sample_unit_disk", BuiltinKind::Random, "Random",
         "sample_unit_disk(state: uint32) -> vec2",
         "A uniformly distributed random point inside the unit disk, as a vec2, drawn from state; "
         "advances state.",
         false, rule_sample2, with().rebinds(Rebinds::State)},
        {"sample_unit_sphere_surface", "sample_unit_sphere_surface", BuiltinKind::Random, "Random",
         "sample_unit_sphere_surface(state: uint32) -> vec3",
         "A uniformly distributed random point on the unit sphere, as a vec3, drawn from state; "
         "advances state.",
         false, rule_sample3, with().rebinds(Rebinds::State)},
        {"sample_unit_sphere", "sample_unit_sphere", BuiltinKind::Random, "Random",
         "sample_unit_sphere(state: uint32) -> vec3",
         "A uniformly distributed random point inside the unit ball, as a vec3, drawn from state; "
         "advances state.",
         false, rule_sample3, with().rebinds(Rebinds::State)},
        {"sample_unit_hemisphere_surface", "sample_unit_hemisphere_surface", BuiltinKind::Random,
         "Random", "sample_unit_hemisphere_surface(state: uint32) -> vec3",
         "A uniformly distributed random point on the unit hemisphere z >= 0, as a vec3, drawn "
         "from state; advances state.",
         false, rule_sample3, with().rebinds(Rebinds::State)},
        {"sample_unit_hemisphere", "sample_unit_hemisphere", BuiltinKind::Random, "Random",
         "sample_unit_hemisphere(state: uint32) -> vec3",
         "A uniformly distributed random point inside the unit half ball z >= 0, as a vec3, drawn "
         "from state; advances state.",
         false, rule_sample3, with().rebinds(Rebinds::State)},
        {"sample_unit_square", "sample_unit_square", BuiltinKind::Random, "Random",
         "sample_unit_square(state: uint32) -> vec2",
         "A uniformly distributed random point in the square [-0.5, 0.5)^2, as a vec2, drawn from "
         "state; advances state.",
         false, rule_sample2, with().rebinds(Rebinds::State)},
        {"sample_unit_cube", "sample_unit_cube", BuiltinKind::Random, "Random",
         "sample_unit_cube(state: uint32) -> vec3",
         "A uniformly distributed random point in the cube [-0.5, 0.5)^3, as a vec3, drawn from "
         "state; advances state.",
         false, rule_sample3, with().rebinds(Rebinds::State)},
        {"sample_cdf", "sample_cdf", BuiltinKind::Random, "Random",
         "sample_cdf(state: uint32, cdf: array(dtype=float32)) -> int32",
         "Samples an index from a discrete distribution: the index of the first entry of cdf (a "
         "normalised, non-decreasing float32 array) that is >= one uniform draw from state; "
         "advances state.",
         false, rule_sample_cdf, with().rebinds(Rebinds::State)},
        {"poisson", "poisson", BuiltinKind::Random, "Random",
         "poisson(state: uint32, lam: float32) -> uint32",
         "A Poisson-distributed random count (uint32) with mean lam, drawn from state (no draw "
         "when lam is 0); advances state.",
         false, rule_poisson, with().rebinds(Rebinds::State)},
        {"noise", "noise", BuiltinKind::Regular, "Random",
         "noise(state: uint32, x: float32 | vec2 | vec3 | vec4) -> float32",
         "Perlin noise at point x (a float32 or a float32 vector of 2 to 4 components) of the "
         "noise field that state selects; state is not advanced. The noise is 0 at lattice points.",
         true, rule_noise},
        {"pnoise", "pnoise", BuiltinKind::Regular, "Random",
         "pnoise(state: uint32, x: float32 | vec2 | vec3 | vec4, px: int32, ...) -> float32",
         "Periodic Perlin noise at point x of the field that state selects, repeating every px "
         "(and py, pz, pt: one integer period per component of x) cells; state is not advanced.",
         true, rule_pnoise},
        {"curlnoise", "curlnoise", BuiltinKind::Regular, "Random",
         "curlnoise(state: uint32, x: vec2 | vec3 | vec4, octaves: uint32 = 1, lacunarity: float32 "
         "= 2.0, gain: float32 = 0.5) -> vec2 | vec3",
         "Divergence-free noise at point x: the curl of Perlin noise of the field that state "
         "selects, summed over octaves with frequency scaled by lacunarity and amplitude by gain "
         "per octave. A vec2 point gives a vec2, vec3 and vec4 points a vec3.",
         true, rule_curlnoise},
    };
}

}  // namespace treadle::builtins::entries
