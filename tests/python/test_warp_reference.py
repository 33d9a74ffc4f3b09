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
    def sampling(seed: int, lam: float, v2: wp.array2d(dtype=wp.vec2),
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

    return {"sampling": sampling}


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
    outputs = [((n, 4), "vec2"), ((n, 5), "vec3"), ((n, 4), "uint32")]
    for lam in (4.0, 17.5, 60.0):
        a = run(treadle, ours["sampling"], n, [3, lam], outputs)
        b = run(warp, theirs["sampling"], n, [3, lam], outputs)
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
