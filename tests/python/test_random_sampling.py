"""Random sampling on the PCG stream: sample_* domains and statistics, poisson, draw order."""

import numpy as np
import pytest

import treadle as wp

MASK = 0xFFFFFFFF


def pcg(state):
    b = (state * 747796405 + 2891336453) & MASK
    c = (((b >> ((b >> 28) + 4)) ^ b) * 277803737) & MASK
    return (c >> 22) ^ c


def uniforms(seed, i, count):
    """The first `count` randf draws of thread i's state rand_init(seed, i), as float32."""
    s = pcg((seed + pcg(i)) & MASK)
    out = []
    for _ in range(count):
        s = pcg(s)
        out.append(np.float32(s >> 8) * np.float32(1.0 / 16777216.0))
    return out


@wp.kernel
def sample_all(seed: int, v2: wp.array2d(dtype=wp.vec2), v3: wp.array2d(dtype=wp.vec3)):
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


def run_samples(device, n=20000, seed=7):
    v2 = wp.zeros((n, 4), dtype=wp.vec2, device=device)
    v3 = wp.zeros((n, 5), dtype=wp.vec3, device=device)
    wp.launch(sample_all, dim=n, inputs=[seed, v2, v3], device=device)
    return v2.numpy().astype(np.float64), v3.numpy().astype(np.float64)


def test_samples_lie_in_their_domains(device):
    v2, v3 = run_samples(device)
    tri, ring, disk, square = (v2[:, k] for k in range(4))
    sphere_s, ball, hemi_s, half_ball, cube = (v3[:, k] for k in range(5))
    assert (tri >= 0).all() and (tri.sum(1) <= 1 + 1e-6).all()
    np.testing.assert_allclose(np.linalg.norm(ring, axis=1), 1.0, atol=1e-6)
    assert (np.linalg.norm(disk, axis=1) <= 1 + 1e-6).all()
    assert (square >= -0.5).all() and (square < 0.5).all()
    np.testing.assert_allclose(np.linalg.norm(sphere_s, axis=1), 1.0, atol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(hemi_s, axis=1), 1.0, atol=1e-6)
    assert (np.linalg.norm(ball, axis=1) <= 1 + 1e-6).all()
    assert (np.linalg.norm(half_ball, axis=1) <= 1 + 1e-6).all()
    assert (hemi_s[:, 2] >= 0).all() and (half_ball[:, 2] >= 0).all()
    assert (cube >= -0.5).all() and (cube < 0.5).all()


def test_samples_are_uniform(device):
    v2, v3 = run_samples(device)
    tri, ring, disk, square = (v2[:, k] for k in range(4))
    sphere_s, ball, hemi_s, half_ball, cube = (v3[:, k] for k in range(5))
    tol = 0.02  # about 4 standard errors for 20000 samples
    np.testing.assert_allclose(tri.mean(0), [1 / 3, 1 / 3], atol=tol)
    for pts in (ring, disk, square, sphere_s, ball, cube):
        np.testing.assert_allclose(pts.mean(0), 0.0, atol=tol)
    # uniform area / volume: P(r < 1/2) is 1/4 in the disk and 1/8 in the ball
    assert abs((np.linalg.norm(disk, axis=1) < 0.5).mean() - 0.25) < tol
    assert abs((np.linalg.norm(ball, axis=1) < 0.5).mean() - 0.125) < tol
    assert abs((np.linalg.norm(half_ball, axis=1) < 0.5).mean() - 0.125) < tol
    # on a sphere z is uniform in [-1, 1] (Archimedes), on the hemisphere in [0, 1]
    np.testing.assert_allclose(np.var(sphere_s, axis=0), 1 / 3, atol=tol)
    np.testing.assert_allclose(hemi_s[:, 2].mean(), 0.5, atol=tol)
    np.testing.assert_allclose(np.var(cube, axis=0), 1 / 12, atol=tol / 4)


def test_draw_order_follows_warp(device):
    n = 16
    v2, v3 = run_samples(device, n=n, seed=3)
    for i in range(n):
        u = [float(x) for x in uniforms(3, i, 25)]
        r = np.sqrt(u[0])
        np.testing.assert_allclose(v2[i, 0], [1 - r, u[1] * r], rtol=1e-6)
        t = 2 * np.pi * u[2]
        np.testing.assert_allclose(v2[i, 1], [np.cos(t), np.sin(t)], atol=1e-6)
        r, t = np.sqrt(u[3]), 2 * np.pi * u[4]
        np.testing.assert_allclose(v2[i, 2], [r * np.cos(t), r * np.sin(t)], atol=1e-6)
        assert (v2[i, 3] == [np.float32(u[5]) - np.float32(0.5),
                             np.float32(u[6]) - np.float32(0.5)]).all()
        phi, t = np.arccos(1 - 2 * u[7]), 2 * np.pi * u[8]
        sph = [np.cos(t) * np.sin(phi), np.sin(t) * np.sin(phi), np.cos(phi)]
        np.testing.assert_allclose(v3[i, 0], sph, atol=2e-6)
        phi, t, r = np.arccos(1 - 2 * u[9]), 2 * np.pi * u[10], u[11] ** (1 / 3)
        np.testing.assert_allclose(
            v3[i, 1], [r * np.cos(t) * np.sin(phi), r * np.sin(t) * np.sin(phi), r * np.cos(phi)],
            atol=2e-6)
        phi, t = np.arccos(1 - u[12]), 2 * np.pi * u[13]
        np.testing.assert_allclose(
            v3[i, 2], [np.cos(t) * np.sin(phi), np.sin(t) * np.sin(phi), np.cos(phi)], atol=2e-6)
        cube = [np.float32(x) - np.float32(0.5) for x in u[17:20]]
        assert (v3[i, 4] == cube).all()


@wp.kernel
def poisson_counts(seed: int, lam: float, out: wp.array(dtype=wp.uint32),
                   after: wp.array(dtype=float)):
    i = wp.tid()
    state = wp.rand_init(seed, i)
    out[i] = wp.poisson(state, lam)
    after[i] = wp.randf(state)


@pytest.mark.parametrize("lam", [0.5, 3.0, 9.5, 15.0, 250.0])
def test_poisson_mean_and_variance(device, lam):
    n = 20000
    out = wp.zeros(n, dtype=wp.uint32, device=device)
    after = wp.zeros(n, dtype=float, device=device)
    wp.launch(poisson_counts, dim=n, inputs=[5, lam, out, after], device=device)
    k = out.numpy().astype(np.float64)
    se = np.sqrt(lam / n)
    assert abs(k.mean() - lam) < 5 * se
    assert abs(k.var() / lam - 1.0) < 0.05
    # for small lam the count is the number of products of draws above exp(-lam)
    if lam < 10:
        for i in range(8):
            u = uniforms(5, i, 64)
            prod, count = np.float32(1.0), 0
            while True:
                prod = np.float32(prod * u[count])
                if not prod > np.float32(np.exp(np.float32(-lam))):
                    break
                count += 1
            assert k[i] == count


def test_poisson_of_zero_draws_nothing(device):
    out = wp.zeros(4, dtype=wp.uint32, device=device)
    after = wp.zeros(4, dtype=float, device=device)
    wp.launch(poisson_counts, dim=4, inputs=[9, 0.0, out, after], device=device)
    assert (out.numpy() == 0).all()
    assert (after.numpy() == [uniforms(9, i, 1)[0] for i in range(4)]).all()


@wp.kernel
def draws_in_a_loop(n: int, out: wp.array(dtype=float), pts: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    state = wp.rand_init(11, i)
    for k in range(n):  # a dynamic loop: the state is carried from one trip to the next
        out[k] = wp.randf(state)
    if n > 2:
        pts[0] = wp.sample_unit_square(state)
    pts[1] = wp.sample_unit_square(state)


def test_state_advances_through_loops_and_branches(device):
    n = 5
    out = wp.zeros(n, dtype=float, device=device)
    pts = wp.zeros(2, dtype=wp.vec2, device=device)
    wp.launch(draws_in_a_loop, dim=1, inputs=[n, out, pts], device=device)
    u = uniforms(11, 0, n + 4)
    assert (out.numpy() == u[:n]).all()
    half = np.float32(0.5)
    assert (pts.numpy()[0] == [u[n] - half, u[n + 1] - half]).all()
    assert (pts.numpy()[1] == [u[n + 2] - half, u[n + 3] - half]).all()


def test_sampling_errors():
    @wp.kernel
    def bad(x: wp.array(dtype=float)):
        s = wp.rand_init(1)
        x[0] = wp.poisson(s, 1.0, 2.0)

    with pytest.raises(TypeError, match=r"poisson\(\): no overload accepts the state and "
                                        r"\(float literal, float literal\)"):
        bad._compile("cpu")


@wp.kernel
def sample_bins(cdf: wp.array(dtype=float), out: wp.array(dtype=int)):
    i = wp.tid()
    state = wp.rand_init(17, i)
    out[i] = wp.sample_cdf(state, cdf)


def test_sample_cdf_follows_the_weights(device):
    weights = np.array([0.1, 0.4, 0.0, 0.5], dtype=np.float32)
    cdf = wp.array(np.cumsum(weights) / weights.sum(), dtype=float, device=device)
    n = 20000
    out = wp.zeros(n, dtype=int, device=device)
    wp.launch(sample_bins, dim=n, inputs=[cdf, out], device=device)
    k = out.numpy()
    np.testing.assert_allclose(np.bincount(k, minlength=4) / n, weights, atol=0.015)
    c = cdf.numpy()
    for i in range(16):
        u = uniforms(17, i, 1)[0]
        assert k[i] == np.searchsorted(c, u, side="left")
