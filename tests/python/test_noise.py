"""Perlin noise in kernels: noise, pnoise, curlnoise (range, continuity, periods, curl)."""

import numpy as np
import pytest

import treadle as wp


@wp.kernel
def sample_noise(seed: int, x: wp.array(dtype=float), p2: wp.array(dtype=wp.vec2),
                 p3: wp.array(dtype=wp.vec3), p4: wp.array(dtype=wp.vec4),
                 out: wp.array2d(dtype=float)):
    i = wp.tid()
    state = wp.rand_init(seed)
    out[i, 0] = wp.noise(state, x[i])
    out[i, 1] = wp.noise(state, p2[i])
    out[i, 2] = wp.noise(state, p3[i])
    out[i, 3] = wp.noise(state, p4[i])
    out[i, 4] = wp.pnoise(state, x[i], 4)
    out[i, 5] = wp.pnoise(state, p2[i], 3, 5)
    out[i, 6] = wp.pnoise(state, p3[i], 2, 3, 4)
    out[i, 7] = wp.pnoise(state, p4[i], 2, 3, 4, 5)


def run_noise(device, x, p2, p3, p4, seed=42):
    n = len(x)
    out = wp.zeros((n, 8), dtype=float, device=device)
    wp.launch(sample_noise, dim=n, device=device,
              inputs=[seed, wp.array(x, dtype=float, device=device),
                      wp.array(p2, dtype=wp.vec2, device=device),
                      wp.array(p3, dtype=wp.vec3, device=device),
                      wp.array(p4, dtype=wp.vec4, device=device), out])
    return out.numpy()


def test_noise_range_continuity_and_lattice_zeros(device):
    rng = np.random.default_rng(3)
    n = 4000
    pts = rng.uniform(0.0, 20.0, (n, 4)).astype(np.float32)
    v = run_noise(device, pts[:, 0], pts[:, :2], pts[:, :3], pts)
    assert (np.abs(v) <= 1.0).all()
    assert (v.std(0) > 0.05).all()  # not constant
    assert (np.abs(v.mean(0)) < 0.05).all()  # centred on zero
    # continuity: a small step changes the value a little
    w = run_noise(device, pts[:, 0] + 1e-3, pts[:, :2] + 1e-3, pts[:, :3] + 1e-3, pts + 1e-3)
    assert np.abs(w - v).max() < 0.02
    # lattice points
    ints = np.floor(pts)
    z = run_noise(device, ints[:, 0], ints[:, :2], ints[:, :3], ints)
    assert (z == 0).all()
    # another seed is another field
    other = run_noise(device, pts[:, 0], pts[:, :2], pts[:, :3], pts, seed=43)
    assert (np.abs(other - v).max(0) > 0.1).all()


def test_pnoise_repeats(device):
    rng = np.random.default_rng(4)
    n = 256
    pts = (rng.integers(0, 80, (n, 4)) / 8.0).astype(np.float32)  # exact in float32
    v = run_noise(device, pts[:, 0], pts[:, :2], pts[:, :3], pts)
    # shifted by whole periods: (4), (3, 5), (2, 3, 4), (2, 3, 4, 5)
    shifted = run_noise(device, pts[:, 0] + 4.0, pts[:, :2] + [3.0, 5.0],
                        pts[:, :3] + [2.0, 3.0, 4.0], pts + [2.0, 3.0, 4.0, 5.0])
    np.testing.assert_array_equal(v[:, 4:], shifted[:, 4:])


@wp.kernel
def curl_field(seed: int, p2: wp.array(dtype=wp.vec2), p3: wp.array(dtype=wp.vec3),
               p4: wp.array(dtype=wp.vec4), c2: wp.array2d(dtype=wp.vec2),
               c3: wp.array2d(dtype=wp.vec3)):
    i = wp.tid()
    state = wp.rand_init(seed)
    c2[i, 0] = wp.curlnoise(state, p2[i])
    c2[i, 1] = wp.curlnoise(state, p2[i], wp.uint32(3), 2.0, 0.5)
    c3[i, 0] = wp.curlnoise(state, p3[i])
    c3[i, 1] = wp.curlnoise(state, p3[i], wp.uint32(2))
    c3[i, 2] = wp.curlnoise(state, p4[i], wp.uint32(2), 1.5)
    g = wp.vec2(wp.noise(state, p2[i] + wp.vec2(1.0e-3, 0.0)) - wp.noise(state, p2[i]),
                wp.noise(state, p2[i] + wp.vec2(0.0, 1.0e-3)) - wp.noise(state, p2[i]))
    c2[i, 2] = wp.vec2(-g[1], g[0]) * 1.0e3


def test_curlnoise_is_divergence_free(device):
    rng = np.random.default_rng(5)
    n = 200
    base = rng.uniform(-4.0, 4.0, (n, 4)).astype(np.float32)
    h = np.float32(2e-3)

    def field(pts):
        c2 = wp.zeros((len(pts), 3), dtype=wp.vec2, device=device)
        c3 = wp.zeros((len(pts), 3), dtype=wp.vec3, device=device)
        wp.launch(curl_field, dim=len(pts), device=device,
                  inputs=[9, wp.array(pts[:, :2].copy(), dtype=wp.vec2, device=device),
                          wp.array(pts[:, :3].copy(), dtype=wp.vec3, device=device),
                          wp.array(pts, dtype=wp.vec4, device=device), c2, c3])
        return c2.numpy().astype(np.float64), c3.numpy().astype(np.float64)

    c2, c3 = field(base)
    # the 2-D curl noise is the noise gradient turned by 90 degrees
    np.testing.assert_allclose(c2[:, 0], c2[:, 2], atol=0.05)
    div2 = np.zeros(n)
    div3 = np.zeros((n, 3))
    for k in range(3):
        step = np.zeros(4, dtype=np.float32)
        step[k] = h
        p2, p3 = field(base + step)
        m2, m3 = field(base - step)
        if k < 2:
            div2 += (p2[:, 1, k] - m2[:, 1, k]) / (2 * h)
        div3 += (p3[:, :, k] - m3[:, :, k]) / (2 * h)
    scale = np.abs(c3).max()
    assert np.abs(div2).max() < 0.05 * max(1.0, np.abs(c2[:, 1]).max())
    assert np.abs(div3).max() < 0.05 * max(1.0, scale)
    assert (np.linalg.norm(c3, axis=2).mean(0) > 0.1).all()


def test_noise_errors():
    @wp.kernel
    def bad(x: wp.array(dtype=wp.vec3)):
        s = wp.rand_init(1)
        x[0] = wp.vec3(wp.pnoise(s, x[0], 2, 2))

    with pytest.raises(TypeError, match=r"pnoise\(\): no overload accepts \(uint32, vec3f, "
                                        r"int literal, int literal\)"):
        bad._compile("cpu")
