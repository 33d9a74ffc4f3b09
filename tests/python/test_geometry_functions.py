"""The free geometry builtins against numpy references written here: closest points of segment
pairs, triangle-triangle intersection, closest points of triangles, and the gradients of
closest_point_edge_edge against finite differences."""

import numpy as np
import pytest

import treadle as wp

# --- closest points of two segments ----------------------------------------------------------


def reference_edge_edge(p1, q1, p2, q2):
    """(s, t, d) of the closest points of segments [p1, q1] and [p2, q2] (float64): the best of
    the interior stationary point and the four boundary cases, each exact."""
    d1, d2 = q1 - p1, q2 - p2

    def on_segment(p, a, b):  # parameter of the point of [a, b] closest to p
        d = b - a
        dd = d @ d
        return 0.0 if dd == 0 else float(np.clip((p - a) @ d / dd, 0.0, 1.0))

    candidates = []
    for s in (0.0, 1.0):
        candidates.append((s, on_segment(p1 + s * d1, p2, q2)))
    for t in (0.0, 1.0):
        candidates.append((on_segment(p2 + t * d2, p1, q1), t))
    m = np.array([[d1 @ d1, -(d1 @ d2)], [d1 @ d2, -(d2 @ d2)]])
    if abs(np.linalg.det(m)) > 1e-12:
        s, t = np.linalg.solve(m, [-(d1 @ (p1 - p2)), -(d2 @ (p1 - p2))])
        if 0 <= s <= 1 and 0 <= t <= 1:
            candidates.append((s, t))
    best = min(candidates, key=lambda st: np.linalg.norm(p1 + st[0] * d1 - p2 - st[1] * d2))
    return best[0], best[1], float(np.linalg.norm(p1 + best[0] * d1 - p2 - best[1] * d2))


@wp.kernel
def edge_edge_kernel(p1: wp.array(dtype=wp.vec3), q1: wp.array(dtype=wp.vec3),
                     p2: wp.array(dtype=wp.vec3), q2: wp.array(dtype=wp.vec3), eps: float,
                     out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = wp.closest_point_edge_edge(p1[i], q1[i], p2[i], q2[i], eps)


def run_edge_edge(device, p1, q1, p2, q2, eps=1e-6, grad_seed=None):
    arrays = [wp.array(x.astype(np.float32), dtype=wp.vec3, device=device, requires_grad=True)
              for x in (p1, q1, p2, q2)]
    out = wp.zeros(len(p1), dtype=wp.vec3, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(edge_edge_kernel, dim=len(p1), inputs=[*arrays, eps, out], device=device)
    if grad_seed is None:
        return out.numpy()
    out.grad.fill_(wp.vec3(*grad_seed))
    tape.backward()
    return out.numpy(), [a.grad.numpy().astype(np.float64) for a in arrays]


def test_edge_edge_matches_reference_on_random_segments(device):
    rng = np.random.default_rng(11)
    n = 400
    pts = [rng.standard_normal((n, 3)) for _ in range(4)]
    got = run_edge_edge(device, *pts)
    for i in range(n):
        p1, q1, p2, q2 = (x[i].astype(np.float32).astype(np.float64) for x in pts)
        s, t, d = got[i]
        ref = reference_edge_edge(p1, q1, p2, q2)
        assert 0.0 <= s <= 1.0 and 0.0 <= t <= 1.0
        assert abs(d - ref[2]) < 1e-5 * max(1.0, ref[2]), (i, got[i], ref)
        # d is the distance of the points (s, t) name
        c1, c2 = p1 + s * (q1 - p1), p2 + t * (q2 - p2)
        assert abs(np.linalg.norm(c1 - c2) - d) < 1e-5


def test_edge_edge_matches_dense_sampling(device):
    rng = np.random.default_rng(12)
    n = 60
    pts = [rng.uniform(-1, 1, (n, 3)) for _ in range(4)]
    got = run_edge_edge(device, *pts)
    s = np.linspace(0, 1, 301)
    for i in range(n):
        p1, q1, p2, q2 = (x[i].astype(np.float32).astype(np.float64) for x in pts)
        c1 = p1 + s[:, None] * (q1 - p1)
        c2 = p2 + s[:, None] * (q2 - p2)
        brute = np.min(np.linalg.norm(c1[:, None, :] - c2[None, :, :], axis=2))
        assert got[i][2] <= brute + 1e-5
        assert brute - got[i][2] < 0.02


def test_edge_edge_special_cases(device):
    cases = [  # p1, q1, p2, q2, (s, t, d)
        ((0, 0, 0), (1, 1, 0), (0, 1, 0), (1, 0, 0), (0.5, 0.5, 0.0)),  # crossing
        ((0, 0, 0), (1, 0, 0), (-0.5, 1, 0), (0.5, 1, 0), (0.0, 0.5, 1.0)),  # parallel
        ((0, 0, 0), (1, 1, 0), (2, 2, 0), (3, 3, 0), (1.0, 0.0, np.sqrt(2))),  # collinear
        ((0, 0, 0), (0, 0, 0), (1, 1, 1), (1, 1, 1), (0.0, 0.0, np.sqrt(3))),  # two points
        ((10, 0, 0), (10, 0, 0), (0, 0, 0), (1, 0, 0), (0.0, 1.0, 9.0)),  # a point, clamped
        ((1, 0, 0), (0, 1, 0), (1, 1, 0), (1, 1, 0), (0.5, 0.0, np.sqrt(0.5))),
        ((0, 0, 0), (1, 0, 0), (0.5, 1, 1), (0.5, 1, -1), (0.5, 0.5, 1.0)),  # skew
    ]
    arrays = [np.array([c[k] for c in cases], dtype=np.float64) for k in range(4)]
    got = run_edge_edge(device, *arrays)
    np.testing.assert_allclose(got, np.array([c[4] for c in cases]), atol=1e-6)


def well_conditioned(rng, n):
    """Segment pairs whose closest points are unique and stay in their region (interior or
    clamped) under small moves: not near parallel, parameters away from 0 and 1's kinks."""
    out = []
    while len(out) < n:
        p1, q1, p2, q2 = (rng.standard_normal(3) for _ in range(4))
        d1, d2 = q1 - p1, q2 - p2
        if np.linalg.norm(np.cross(d1, d2)) ** 2 < 0.05 * (d1 @ d1) * (d2 @ d2):
            continue
        s, t, d = reference_edge_edge(p1, q1, p2, q2)
        if d < 0.05:
            continue
        # stable: the region does not change under perturbations of the step used below
        ok = True
        for k in range(20):
            e = rng.standard_normal((4, 3)) * 2e-3
            s2, t2, _ = reference_edge_edge(p1 + e[0], q1 + e[1], p2 + e[2], q2 + e[3])
            if (s2 in (0.0, 1.0)) != (s in (0.0, 1.0)) or (t2 in (0.0, 1.0)) != (t in (0.0, 1.0)):
                ok = False
                break
        if ok:
            out.append((p1, q1, p2, q2))
    return [np.array([c[k] for c in out]) for k in range(4)]


@pytest.mark.parametrize("component", [0, 1, 2])
def test_edge_edge_gradients_match_finite_differences(device, component):
    rng = np.random.default_rng(20 + component)
    pts = well_conditioned(rng, 40)
    pts = [x.astype(np.float32).astype(np.float64) for x in pts]
    seed = [0.0, 0.0, 0.0]
    seed[component] = 1.0
    _, grads = run_edge_edge(device, *pts, grad_seed=seed)
    h = 1e-5
    for i in range(len(pts[0])):
        for which in range(4):
            for axis in range(3):
                plus = [x[i].copy() for x in pts]
                minus = [x[i].copy() for x in pts]
                plus[which][axis] += h
                minus[which][axis] -= h
                fd = (reference_edge_edge(*plus)[component] -
                      reference_edge_edge(*minus)[component]) / (2 * h)
                g = grads[which][i][axis]
                assert abs(g - fd) < 2e-3 * max(1.0, abs(fd)), (i, which, axis, g, fd)


def test_edge_edge_distance_gradient_is_bounded_near_parallel(device):
    rng = np.random.default_rng(30)
    n = 200
    p1 = rng.standard_normal((n, 3))
    d1 = rng.standard_normal((n, 3))
    tilt = 10.0 ** rng.uniform(-7, -2, n)
    p2 = p1 + rng.standard_normal((n, 3))
    q2 = p2 + d1 * rng.uniform(0.5, 2.0, (n, 1)) + tilt[:, None] * rng.standard_normal((n, 3))
    _, grads = run_edge_edge(device, p1, p1 + d1, p2, q2, grad_seed=(0.0, 0.0, 1.0))
    for g in grads:
        assert np.all(np.isfinite(g))
        assert np.max(np.linalg.norm(g, axis=1)) <= 1.0 + 1e-4  # |dd/dx| <= weight <= 1


# --- triangle-triangle intersection ----------------------------------------------------------


def segment_hits_triangle(a, b, t0, t1, t2):
    """Whether segment ab meets triangle t0 t1 t2 (float64, general position)."""
    n = np.cross(t1 - t0, t2 - t0)
    da, db = (a - t0) @ n, (b - t0) @ n
    if da * db > 0 or da == db:
        return False
    x = a + (b - a) * (da / (da - db))
    c0 = np.cross(t1 - t0, x - t0) @ n
    c1 = np.cross(t2 - t1, x - t1) @ n
    c2 = np.cross(t0 - t2, x - t2) @ n
    return (c0 >= 0 and c1 >= 0 and c2 >= 0) or (c0 <= 0 and c1 <= 0 and c2 <= 0)


def reference_intersect(v, u):
    """Two triangles in general position meet exactly when an edge of one crosses the other."""
    return any(segment_hits_triangle(v[k], v[(k + 1) % 3], *u) for k in range(3)) or \
        any(segment_hits_triangle(u[k], u[(k + 1) % 3], *v) for k in range(3))


def plane_margin(v, u):
    """The smallest distance of a vertex of either triangle to the other's plane."""
    def dists(t, pts):
        n = np.cross(t[1] - t[0], t[2] - t[0])
        n = n / np.linalg.norm(n)
        return np.abs((pts - t[0]) @ n)
    return min(dists(v, u).min(), dists(u, v).min())


@wp.kernel
def tri_tri_kernel(v: wp.array(dtype=wp.vec3), u: wp.array(dtype=wp.vec3),
                   out32: wp.array(dtype=int), out64: wp.array(dtype=int)):
    i = wp.tid()
    out32[i] = wp.intersect_tri_tri(v[3 * i], v[3 * i + 1], v[3 * i + 2], u[3 * i], u[3 * i + 1],
                                    u[3 * i + 2])
    out64[i] = wp.intersect_tri_tri(wp.vec3d(v[3 * i]), wp.vec3d(v[3 * i + 1]),
                                    wp.vec3d(v[3 * i + 2]), wp.vec3d(u[3 * i]),
                                    wp.vec3d(u[3 * i + 1]), wp.vec3d(u[3 * i + 2]))


def run_tri_tri(device, vs, us):
    n = len(vs)
    v = wp.array(np.asarray(vs, dtype=np.float32).reshape(-1, 3), dtype=wp.vec3, device=device)
    u = wp.array(np.asarray(us, dtype=np.float32).reshape(-1, 3), dtype=wp.vec3, device=device)
    out32 = wp.zeros(n, dtype=int, device=device)
    out64 = wp.zeros(n, dtype=int, device=device)
    wp.launch(tri_tri_kernel, dim=n, inputs=[v, u, out32, out64], device=device)
    return out32.numpy(), out64.numpy()


def test_intersect_tri_tri_matches_edge_crossings(device):
    rng = np.random.default_rng(40)
    vs, us = [], []
    while len(vs) < 2000:
        v = rng.uniform(-1, 1, (3, 3)).astype(np.float32).astype(np.float64)
        u = (rng.uniform(-1, 1, (3, 3)) * 0.8 + 0.2).astype(np.float32).astype(np.float64)
        if plane_margin(v, u) > 1e-3:
            vs.append(v)
            us.append(u)
    got32, got64 = run_tri_tri(device, vs, us)
    want = np.array([reference_intersect(v, u) for v, u in zip(vs, us)], dtype=int)
    assert 0.2 < want.mean() < 0.8  # both answers are well represented
    assert np.array_equal(got64, want)
    assert np.array_equal(got32, want)


def test_intersect_tri_tri_coplanar_and_touching(device):
    t = np.array([(0, 0, 0), (2, 0, 0), (0, 2, 0)], dtype=float)
    cases = [
        (t, t + (0.5, 0.5, 0), 1),  # overlapping in one plane
        (t, t + (3, 3, 0), 0),  # apart in one plane
        (t, t * 0.2 + (0.2, 0.2, 0), 1),  # one inside the other
        (t, np.array([(2, 0, 0), (3, 0, 0), (3, 1, 0)], dtype=float), 1),  # sharing a vertex
        (t, np.array([(0.5, 0.5, 0), (0.5, 0.5, 1), (1, 0.2, 1)], dtype=float), 1),  # a vertex
        (t, np.array([(0.5, 0.5, 0.1), (0.5, 0.6, 1), (1, 0.2, 1)], dtype=float), 0),  # above
        (t, np.array([(1, 1, -1), (1, 1, 1), (1, -1, 0)], dtype=float), 1),  # piercing
    ]
    got32, got64 = run_tri_tri(device, [c[0] for c in cases], [c[1] for c in cases])
    want = np.array([c[2] for c in cases])
    assert np.array_equal(got32, want)
    assert np.array_equal(got64, want)


# --- closest point of a triangle -------------------------------------------------------------


def reference_triangle_closest(a, b, c, p):
    """The point of triangle abc closest to p (float64): the plane projection when inside,
    else the closest of the three edges' closest points."""
    n = np.cross(b - a, c - a)
    x = p - ((p - a) @ n) / (n @ n) * n
    if segment_hits_triangle(x + n, x - n, a, b, c):
        return x
    best = None
    for s, e in ((a, b), (b, c), (c, a)):
        d = e - s
        q = s + np.clip((p - s) @ d / (d @ d), 0, 1) * d
        if best is None or np.linalg.norm(q - p) < np.linalg.norm(best - p):
            best = q
    return best


@wp.kernel
def closest_kernel(tri: wp.array(dtype=wp.vec3), p: wp.array(dtype=wp.vec3),
                   out: wp.array(dtype=wp.vec3), out64: wp.array(dtype=wp.vec3d)):
    i = wp.tid()
    a = tri[3 * i]
    b = tri[3 * i + 1]
    c = tri[3 * i + 2]
    out[i] = wp.triangle_closest_point_barycentric(a, b, c, p[i])
    out64[i] = wp.triangle_closest_point_barycentric(wp.vec3d(a), wp.vec3d(b), wp.vec3d(c),
                                                     wp.vec3d(p[i]))


def test_triangle_closest_point_matches_reference(device):
    rng = np.random.default_rng(50)
    n = 1000
    tris = rng.standard_normal((n, 3, 3)).astype(np.float32)
    pts = (rng.standard_normal((n, 3)) * 2).astype(np.float32)
    out = wp.zeros(n, dtype=wp.vec3, device=device)
    out64 = wp.zeros(n, dtype=wp.vec3d, device=device)
    wp.launch(closest_kernel, dim=n, inputs=[wp.array(tris.reshape(-1, 3), dtype=wp.vec3,
                                                      device=device),
                                             wp.array(pts, dtype=wp.vec3, device=device),
                                             out, out64], device=device)
    for bary, tol in ((out.numpy(), 2e-4), (out64.numpy(), 1e-9)):
        assert np.all(bary >= 0) and np.allclose(bary.sum(1), 1.0, atol=1e-5)
        for i in range(n):
            a, b, c = tris[i].astype(np.float64)
            q = bary[i] @ tris[i].astype(np.float64)
            ref = reference_triangle_closest(a, b, c, pts[i].astype(np.float64))
            scale = max(1.0, np.abs(tris[i]).max())
            assert np.linalg.norm(q - ref) < tol * scale * 10, (i, bary[i])
    # a vertex region gives exact weights
    b = out.numpy()
    corner = np.isclose(b.max(1), 1.0)
    assert np.all(np.sort(b[corner], axis=1)[:, :2] == 0.0)
