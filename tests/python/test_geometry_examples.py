"""The geometry examples run: SPH densities through wp.hash_grid_query against a numpy
brute-force neighbour sum."""

import numpy as np

from treadle.examples import sph


def _densities(x, mass, h):
    d2 = np.sum((x[:, None, :] - x[None, :, :]) ** 2, axis=-1)
    w = np.where(d2 < h * h, (h * h - d2) ** 3, 0.0) * 315.0 / (64.0 * np.pi * h**9)
    return mass * w.sum(1)


def test_sph_densities_match_brute_force():
    ex = sph.Example(n=6, device="cpu")
    for _ in range(20):
        ex.step()
    ex.density()
    x = ex.x.numpy().astype(np.float64)
    assert np.all(np.isfinite(x))
    ref = _densities(x, ex.mass, ex.h)
    assert np.allclose(ex.rho.numpy(), ref, rtol=1e-3, atol=1e-3 * ref.max())
    assert ref.min() > 0.0
    # the block fell: the particles moved down under gravity
    assert x[:, 1].mean() < 0.05 + 2.5 * 0.5 * ex.h
