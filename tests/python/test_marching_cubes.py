"""wp.MarchingCubes against a marching-cubes reference written here in numpy: the same vertices,
the same triangles, watertight surfaces, gradients against finite differences, errors."""

import importlib.util

import numpy as np
import pytest

import treadle as wp
from treadle import _treadle

# --- a reference marching cubes, written independently of the C++ tables ---------------------

CORNERS = np.array([(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1),
                    (0, 1, 1)], dtype=float)
EDGES = [(0, 1), (1, 2), (3, 2), (0, 3), (4, 5), (5, 6), (7, 6), (4, 7), (0, 4), (1, 5), (2, 6),
         (3, 7)]


def _faces():
    """(corners in cyclic order, outward normal) of each cube face."""
    out = []
    for axis in range(3):
        for side in (0, 1):
            cs = [c for c in range(8) if CORNERS[c][axis] == side]
            n = np.zeros(3)
            n[axis] = 1.0 if side else -1.0
            centre = CORNERS[cs].mean(0)
            u = CORNERS[cs[0]] - centre
            w = np.cross(n, u)
            cs.sort(key=lambda c: np.arctan2((CORNERS[c] - centre) @ w, (CORNERS[c] - centre) @ u))
            out.append((cs, n))
    return out


def _edge(a, b):
    return next(k for k, e in enumerate(EDGES) if set(e) == {a, b})


def reference_case(case):
    """Triangles (edge triples) of a case: segments on each face, inside corners kept apart on
    ambiguous faces, oriented with the inside on their right seen from outside, chained into
    loops, fanned from each loop's lowest edge."""
    inside = [(case >> c) & 1 for c in range(8)]
    mid = np.array([(CORNERS[p] + CORNERS[q]) / 2 for p, q in EDGES])
    nxt = {}
    for cs, n in _faces():
        s = [inside[c] for c in cs]
        edges = [_edge(cs[k], cs[(k + 1) % 4]) for k in range(4)]
        crossed = [k for k in range(4) if s[k] != s[(k + 1) % 4]]
        pairs = []
        if len(crossed) == 2:
            ins = [cs[k] for k in range(4) if s[k]]
            outs = [cs[k] for k in range(4) if not s[k]]
            towards = CORNERS[ins].mean(0) - CORNERS[outs].mean(0)
            pairs.append((edges[crossed[0]], edges[crossed[1]], towards))
        elif len(crossed) == 4:
            for k in range(4):
                if s[k]:
                    ea, eb = edges[(k - 1) % 4], edges[k]
                    pairs.append((ea, eb, CORNERS[cs[k]] - (mid[ea] + mid[eb]) / 2))
        for ea, eb, towards in pairs:
            d = mid[eb] - mid[ea]
            a, b = (ea, eb) if towards @ np.cross(n, d) < 0 else (eb, ea)
            nxt[a] = b
    tris = []
    while nxt:
        start = min(nxt)
        loop = [start]
        e = nxt.pop(start)
        while e != start:
            loop.append(e)
            e = nxt.pop(e)
        tris += [(loop[0], loop[k], loop[k + 1]) for k in range(1, len(loop) - 1)]
    return tris


def reference_surface(f, threshold):
    """(verts, triangles) of field `f` (numpy, 3-D) in node coordinates."""
    nx, ny, nz = f.shape
    below = f < threshold
    vert_of = {}
    verts = []
    for i in range(nx):
        for j in range(ny):
            for k in range(nz):
                for axis in range(3):
                    q = [i, j, k]
                    q[axis] += 1
                    if q[axis] >= f.shape[axis] or below[i, j, k] == below[tuple(q)]:
                        continue
                    a, b = f[i, j, k], f[tuple(q)]
                    p = np.array([i, j, k], dtype=np.float64)
                    p[axis] += (threshold - a) / (b - a)
                    vert_of[(i, j, k, axis)] = len(verts)
                    verts.append(p)
    cases = [reference_case(c) for c in range(256)]
    tris = []
    for i in range(nx - 1):
        for j in range(ny - 1):
            for k in range(nz - 1):
                c = sum(int(below[i + int(o[0]), j + int(o[1]), k + int(o[2])]) << n
                        for n, o in enumerate(CORNERS))
                for tri in cases[c]:
                    ids = []
                    for e in tri:
                        o = CORNERS[EDGES[e][0]].astype(int)
                        axis = int(np.argmax(CORNERS[EDGES[e][1]] - CORNERS[EDGES[e][0]]))
                        ids.append(vert_of[(i + o[0], j + o[1], k + o[2], axis)])
                    tris.append(ids)
    return np.array(verts).reshape(-1, 3), np.array(tris, dtype=np.int64).reshape(-1, 3)


def extract(field_np, threshold=0.0, device="cpu", **bounds):
    field = wp.array(field_np.astype(np.float32), dtype=float, device=device)
    verts, indices = wp.MarchingCubes.extract_surface_marching_cubes(field, threshold, **bounds)
    return verts.numpy(), indices.numpy().reshape(-1, 3)


def sphere_field(shape, centre, radius):
    grid = np.meshgrid(*[np.arange(n, dtype=np.float64) for n in shape], indexing="ij")
    return np.sqrt(sum((g - c) ** 2 for g, c in zip(grid, centre))) - radius


def canonical(tris):
    """Triangles rotated to start at their smallest index (orientation kept), sorted."""
    out = []
    for t in tris.tolist():
        r = t.index(min(t))
        out.append(tuple(t[r:] + t[:r]))
    return sorted(out)


def directed_edges(tris):
    return [(t[a], t[(a + 1) % 3]) for t in tris.tolist() for a in range(3)]


# --- tables ----------------------------------------------------------------------------------


def test_tables_are_the_reference_cases():
    mc = wp.MarchingCubes
    assert mc.CUBE_CORNER_OFFSETS == tuple(tuple(int(x) for x in c) for c in CORNERS)
    assert mc.EDGE_TO_CORNERS == tuple(EDGES)
    assert len(mc.CASE_TO_TRI_RANGE) == 257 and mc.CASE_TO_TRI_RANGE[-1] == 2460
    for c in range(256):
        first, last = mc.CASE_TO_TRI_RANGE[c], mc.CASE_TO_TRI_RANGE[c + 1]
        got = [tuple(mc.TRI_LOCAL_INDICES[e:e + 3]) for e in range(first, last, 3)]
        assert got == reference_case(c), c
    # complementary cases cross the same edges
    for c in range(256):
        def edges_of(case):
            r = mc.CASE_TO_TRI_RANGE
            return set(mc.TRI_LOCAL_INDICES[r[case]:r[case + 1]])
        assert edges_of(c) == edges_of(255 - c)


# --- extraction against the reference --------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_field_matches_reference(device, seed):
    rng = np.random.default_rng(seed)
    f = rng.standard_normal((6, 5, 7)).astype(np.float32)
    verts, tris = extract(f, 0.1, device)
    ref_verts, ref_tris = reference_surface(f.astype(np.float64), np.float32(0.1))
    assert verts.shape == ref_verts.shape
    np.testing.assert_allclose(verts, ref_verts, atol=1e-5)
    assert tris.dtype == np.int32
    # cells in row-major order, each case's triangles in table order
    assert np.array_equal(tris, ref_tris)


@pytest.mark.parametrize("seed", [3, 4])
def test_random_field_has_no_cracks(device, seed):
    # Ambiguous faces are frequent in noise. Inside the grid every mesh edge is used as often
    # in one direction as in the other (twice in all, or four times where two cells' fans both
    # cut a face along the same chord); only edges on the grid's boundary faces are not.
    rng = np.random.default_rng(seed)
    shape = (9, 8, 10)
    f = rng.standard_normal(shape).astype(np.float32)
    verts, tris = extract(f, 0.0, device)
    uses = {}
    for a, b in directed_edges(tris):
        key = (min(a, b), max(a, b))
        uses.setdefault(key, [0, 0])[a > b] += 1
    open_edges = 0
    for (a, b), (forward, backward) in uses.items():
        if forward == backward:
            continue
        open_edges += 1
        assert abs(forward - backward) == 1
        mid = (verts[a] + verts[b]) / 2
        on_boundary = np.any(np.isclose(mid, 0.0) | np.isclose(mid, np.array(shape) - 1))
        assert on_boundary, (verts[a], verts[b])
    assert open_edges > 0  # the noise reaches the boundary


def test_sphere_is_closed_outward_and_on_the_sphere(device):
    centre, radius = (10.3, 9.6, 11.1), 6.2
    f = sphere_field((22, 20, 23), centre, radius)
    verts, tris = extract(f, 0.0, device)
    dist = np.linalg.norm(verts - np.array(centre), axis=1)
    assert np.max(np.abs(dist - radius)) < 0.05
    # closed: every edge used exactly twice, once each way; Euler characteristic 2
    directed = directed_edges(tris)
    assert len(set(directed)) == len(directed)
    assert all((b, a) in set(directed) for a, b in directed)
    assert len(verts) - len(directed) // 2 + len(tris) == 2
    # normals point to higher values (outward)
    n = np.cross(verts[tris[:, 1]] - verts[tris[:, 0]], verts[tris[:, 2]] - verts[tris[:, 0]])
    assert np.all(np.einsum("ij,ij->i", n, verts[tris].mean(1) - np.array(centre)) > 0)
    # every vertex is used, each triangle's vertices differ
    assert np.array_equal(np.unique(tris), np.arange(len(verts)))
    assert np.all((tris[:, 0] != tris[:, 1]) & (tris[:, 1] != tris[:, 2]) &
                  (tris[:, 0] != tris[:, 2]))


def test_domain_bounds_scale_positions(device):
    f = sphere_field((8, 9, 10), (3.5, 4.1, 4.6), 2.7)
    plain, tris = extract(f, 0.0, device)
    lower, upper = (-1.0, 2.0, 0.5), (1.0, 3.0, 4.0)
    scaled, tris2 = extract(f, 0.0, device, domain_bounds_lower_corner=lower,
                            domain_bounds_upper_corner=upper)
    spacing = (np.array(upper) - np.array(lower)) / (np.array(f.shape) - 1)
    np.testing.assert_allclose(scaled, np.array(lower) + plain * spacing, rtol=1e-5, atol=1e-5)
    assert np.array_equal(tris, tris2)
    # a lower corner alone: the upper corner stays at the node indices' maximum
    shifted, _ = extract(f, 0.0, device, domain_bounds_lower_corner=wp.vec3(10.0, 10.0, 10.0))
    spacing = (np.array(f.shape) - 1 - 10.0) / (np.array(f.shape) - 1)
    np.testing.assert_allclose(shifted, 10.0 + plain * spacing, rtol=1e-5, atol=1e-5)


def test_strided_field_matches_contiguous(device):
    rng = np.random.default_rng(5)
    f = rng.standard_normal((10, 6, 7)).astype(np.float32)
    big = wp.array(f, dtype=float, device=device)
    verts, idx = wp.MarchingCubes.extract_surface_marching_cubes(big[::2], 0.0)
    ref_verts, ref_tris = extract(f[::2].copy(), 0.0, device)
    np.testing.assert_allclose(verts.numpy(), ref_verts)
    assert np.array_equal(idx.numpy().reshape(-1, 3), ref_tris)


def test_stateful_surface_and_empty_output(device):
    f = sphere_field((12, 12, 12), (5.5, 5.5, 5.5), 3.0)
    field = wp.array(f.astype(np.float32), dtype=float, device=device)
    mc = wp.MarchingCubes(12, 12, 12)
    assert mc.verts is None and mc.indices is None
    mc.surface(field, 0.0)
    ref_verts, ref_tris = extract(f, 0.0, device)
    np.testing.assert_allclose(mc.verts.numpy(), ref_verts)
    assert mc.verts.dtype is wp.vec3 and mc.indices.dtype is wp.int32
    assert str(mc.verts.device) == device
    mc.surface(field, 1000.0)
    assert mc.verts.shape == (0,) and mc.indices.shape == (0,)
    mc.resize(6, 6, 6)
    with pytest.raises(ValueError) as e:
        mc.surface(field, 0.0)
    assert str(e.value) == ("Field shape (12, 12, 12) does not match context grid dimensions "
                            "(6, 6, 6).")


def test_errors():
    extract_fn = wp.MarchingCubes.extract_surface_marching_cubes
    cases = [
        (wp.zeros((4, 5), dtype=float), ValueError,
         "Expected a 3D array for 'field', but got an array with shape (4, 5)."),
        (wp.zeros((0, 5, 5), dtype=float), ValueError, "The 'field' array cannot be empty."),
        (wp.zeros((4, 5, 5), dtype=wp.float64), TypeError,
         "Expected a dtype of wp.float32 for 'field', but got float64."),
        (wp.zeros((1, 5, 5), dtype=float), ValueError,
         "The 'field' array needs at least 2 nodes along each axis, but has shape (1, 5, 5)."),
        (np.zeros((3, 3, 3), np.float32), TypeError,
         "Expected a warp array for 'field', but got ndarray."),
    ]
    for field, kind, message in cases:
        with pytest.raises(kind) as e:
            extract_fn(field, 0.0)
        assert str(e.value) == message
    with pytest.raises(ValueError) as e:
        extract_fn(wp.zeros((3, 3, 3), dtype=float), 0.0, (0.0, 0.0), (1.0, 1.0, 1.0))
    assert str(e.value) == ("Invalid number of arguments in vector constructor, expected 3 "
                            "elements, got 2")


def test_deprecated_arguments_warn(capsys):
    mc = wp.MarchingCubes(4, 4, 4, max_verts=10, max_tris=10, device="cpu")
    assert mc.max_verts == 0 and mc.max_tris == 0 and mc.id == 0
    text = capsys.readouterr().err
    for what in ("MarchingCubes() argument `max_verts`", "MarchingCubes() argument `max_tris`",
                 "MarchingCubes() argument `device`", "MarchingCubes.max_verts",
                 "MarchingCubes.id"):
        assert f"DeprecationWarning: {what} is deprecated and will be removed" in text, what


# --- gradients -------------------------------------------------------------------------------


@wp.kernel
def weighted_sum(verts: wp.array(dtype=wp.vec3), weights: wp.array(dtype=wp.vec3),
                 out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, wp.dot(verts[i], weights[i]))


def test_gradient_matches_finite_differences(device):
    rng = np.random.default_rng(7)
    f = rng.standard_normal((5, 4, 6))
    f = np.where(np.abs(f) < 0.05, 0.3, f)  # no value near the threshold: topology is stable
    lower, upper = (-1.0, -2.0, 0.0), (1.0, 1.0, 2.0)
    n_verts = len(reference_surface(f, 0.0)[0])
    weights = rng.standard_normal((n_verts, 3))

    def loss(values):
        v, _ = extract(values, 0.0, device, domain_bounds_lower_corner=lower,
                       domain_bounds_upper_corner=upper)
        return float(np.sum(v.astype(np.float64) * weights))

    field = wp.array(f.astype(np.float32), dtype=float, device=device, requires_grad=True)
    w = wp.array(weights.astype(np.float32), dtype=wp.vec3, device=device)
    out = wp.zeros(1, dtype=float, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        verts, _ = wp.MarchingCubes.extract_surface_marching_cubes(field, 0.0, lower, upper)
        assert verts.requires_grad
        wp.launch(weighted_sum, dim=len(verts), inputs=[verts, w, out], device=device)
    tape.backward(out)
    grad = field.grad.numpy()
    h = 1e-3
    for idx in [tuple(rng.integers(0, n) for n in f.shape) for _ in range(12)]:
        plus, minus = f.copy(), f.copy()
        plus[idx] += h
        minus[idx] -= h
        fd = (loss(plus) - loss(minus)) / (2 * h)
        assert abs(grad[idx] - fd) < 2e-2 * max(1.0, abs(fd)), (idx, grad[idx], fd)
    assert np.any(grad != 0)
    tape.zero()
    assert not np.any(field.grad.numpy())


# --- the kernels compile for CUDA --------------------------------------------------------------


@pytest.mark.skipif(not _treadle.nvrtc_available(), reason="NVRTC is not installed")
def test_extraction_kernels_compile_for_sm90(tmp_path):
    # The kernel module is Python syntax: imported as a module, its kernels are checked as any.
    path = tmp_path / "treadle_mc_kernels.py"
    path.write_text(_treadle.marching_cubes_kernel_source())
    spec = importlib.util.spec_from_file_location("treadle_mc_kernels", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    kernels = [v for v in vars(module).values() if isinstance(v, wp.Kernel)]
    assert len(kernels) == 5
    for k in kernels:
        ok, log = _treadle.check_cuda_compile(k._function_source(), 90)
        assert ok, f"{k.key}:\n{log}"
    ok, log = _treadle.check_cuda_compile(module.mc_verts._function_source(), 90, adjoint=True)
    assert ok, log
