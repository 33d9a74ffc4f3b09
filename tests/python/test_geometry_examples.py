"""The geometry examples run: SPH densities through wp.hash_grid_query against a numpy
brute-force neighbour sum, and the ray-cast picture's depths against Möller-Trumbore in
float64."""

import numpy as np

from treadle.examples import raycast, sph
from treadle.examples.png import write_png


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


def _first_hits(origin, dirs, tri):
    """Möller-Trumbore in float64: the smallest t >= 0 of each ray over every triangle (-1: none)."""
    a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
    e1, e2 = b - a, c - a
    best = np.full(len(dirs), np.inf)
    for k, d in enumerate(dirs):
        h = np.cross(d, e2)
        det = np.einsum("ij,ij->i", e1, h)
        ok = np.abs(det) > 1e-12
        inv = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
        s = origin - a
        u = np.einsum("ij,ij->i", s, h) * inv
        q = np.cross(s, e1)
        v = (q @ d) * inv
        t = np.einsum("ij,ij->i", e2, q) * inv
        hit = ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (t >= 0)
        if hit.any():
            best[k] = t[hit].min()
    return np.where(np.isfinite(best), best, -1.0)


def test_raycast_depth_matches_brute_force(tmp_path):
    ex = raycast.Example(width=40, height=30, device="cpu")
    ex.render()
    depth = ex.depth.numpy()
    f, r, u = (x.astype(np.float64) for x in ex.basis)
    ys, xs = np.divmod(np.arange(40 * 30), 40)
    sx = 2.0 * (xs + 0.5) / 40 - 1.0
    sy = 1.0 - 2.0 * (ys + 0.5) / 30
    dirs = f + np.outer(sx * (40 / 30) * 0.45, r) + np.outer(sy * 0.45, u)
    dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
    tri = ex.points[ex.faces].astype(np.float64)
    ref = _first_hits(ex.cam_pos.astype(np.float64), dirs, tri)
    assert 0.1 < (ref > 0).mean() < 0.9  # the mesh fills part of the picture
    np.testing.assert_array_equal(depth > 0, ref > 0)
    np.testing.assert_allclose(depth[ref > 0], ref[ref > 0], rtol=1e-4)
    img = ex.image()
    assert img.shape == (30, 40, 3)
    # hit pixels are lit, misses the background colour
    assert (img.reshape(-1, 3)[ref > 0].sum(axis=1) > 60).all()
    path = tmp_path / "raycast.png"
    write_png(str(path), img)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
