"""Bit-for-bit agreement with NVIDIA Warp on the CPU, when Warp is importable (skipped if not).

The same kernel source is compiled by both: each kernel is defined inside make_kernels(wp),
so `wp` is a closure variable naming treadle or warp.
"""

import numpy as np
import pytest

import treadle

warp = pytest.importorskip("warp")
warp.config.quiet = True


def make_kernels(wp):
    @wp.kernel
    def sampling(seed: int, lam: float, cdf: wp.array(dtype=float), v2: wp.array2d(dtype=wp.vec2),
                 v3: wp.array2d(dtype=wp.vec3), counts: wp.array2d(dtype=wp.uint32)):
        i = wp.tid()
        state = wp.rand_init(seed, i)
        v2[i, 0] = wp.sample_triangle(state)
        v2[i, 1] = wp.sample_unit_ring(state)
        v2[i, 2] = wp.sample_unit_disk(state)
        v2[i, 3] = wp.sample_unit_square(state)
        v3[i, 0] = wp.sample_unit_sphere_surface(state)
        v3[i, 1] = wp.sample_unit_sphere(state)
        v3[i, 2] = wp.sample_unit_hemisphere_surface(state)
        v3[i, 3] = wp.sample_unit_hemisphere(state)
        v3[i, 4] = wp.sample_unit_cube(state)
        counts[i, 0] = wp.poisson(state, lam)
        counts[i, 1] = wp.poisson(state, lam * 0.01)
        counts[i, 2] = wp.poisson(state, lam * 10.0)
        counts[i, 3] = wp.randu(state)
        counts[i, 4] = wp.uint32(wp.sample_cdf(state, cdf))

    @wp.kernel
    def noise(seed: int, p4: wp.array(dtype=wp.vec4), out: wp.array2d(dtype=float),
              c2: wp.array2d(dtype=wp.vec2), c3: wp.array2d(dtype=wp.vec3)):
        i = wp.tid()
        state = wp.rand_init(seed)
        p = p4[i]
        xy = wp.vec2(p[0], p[1])
        xyz = wp.vec3(p[0], p[1], p[2])
        out[i, 0] = wp.noise(state, p[0])
        out[i, 1] = wp.noise(state, xy)
        out[i, 2] = wp.noise(state, xyz)
        out[i, 3] = wp.noise(state, p)
        out[i, 4] = wp.pnoise(state, p[0], 3)
        out[i, 5] = wp.pnoise(state, xy, 3, 5)
        out[i, 6] = wp.pnoise(state, xyz, 2, 3, 4)
        out[i, 7] = wp.pnoise(state, p, 2, 3, 4, 5)
        c2[i, 0] = wp.curlnoise(state, xy)
        c2[i, 1] = wp.curlnoise(state, xy, wp.uint32(4), 2.0, 0.5)
        c3[i, 0] = wp.curlnoise(state, xyz)
        c3[i, 1] = wp.curlnoise(state, xyz, wp.uint32(3), 1.7, 0.6)
        c3[i, 2] = wp.curlnoise(state, p, wp.uint32(2), 2.0, 0.5)

    return {"sampling": sampling, "noise": noise}


@pytest.fixture(scope="module")
def both():
    warp.init()
    return make_kernels(treadle), make_kernels(warp)


def run(module, kernel, dim, inputs, outputs):
    """Launches on the CPU with fresh zeroed arrays of (shape, dtype name) and returns numpy."""
    arrays = [module.zeros(shape, dtype=getattr(module, dtype), device="cpu")
              for shape, dtype in outputs]
    module.launch(kernel, dim=dim, inputs=[*inputs, *arrays], device="cpu")
    return [a.numpy() for a in arrays]


def test_sampling_and_poisson_match_warp(both):
    ours, theirs = both
    n = 512
    outputs = [((n, 4), "vec2"), ((n, 5), "vec3"), ((n, 5), "uint32")]
    cdf = np.cumsum(np.arange(1.0, 9.0, dtype=np.float32)) / np.float32(36.0)
    for lam in (4.0, 17.5, 60.0):
        a = run(treadle, ours["sampling"], n,
                [3, lam, treadle.array(cdf, dtype=treadle.float32, device="cpu")], outputs)
        b = run(warp, theirs["sampling"], n,
                [3, lam, warp.array(cdf, dtype=warp.float32, device="cpu")], outputs)
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)


def test_noise_matches_warp(both):
    ours, theirs = both
    n = 512
    pts = np.random.default_rng(8).uniform(0.0, 30.0, (n, 4)).astype(np.float32)
    outputs = [((n, 8), "float32"), ((n, 2), "vec2"), ((n, 3), "vec3")]
    a = run(treadle, ours["noise"], n, [5, treadle.array(pts, dtype=treadle.vec4, device="cpu")], outputs)
    b = run(warp, theirs["noise"], n, [5, warp.array(pts, dtype=warp.vec4, device="cpu")],
            outputs)
    for x, y in zip(a, b):
        assert np.abs(x).max() > 0.01
        np.testing.assert_array_equal(x, y)
