"""wp.Mesh and the mesh_* builtins against numpy brute force, on every device."""

import numpy as np
import pytest

import treadle as wp


def _torus(n_major=24, n_minor=12, r_major=1.0, r_minor=0.35):
    """A closed torus: points (n, 3) float32 and faces (m, 3) int32, outward-facing."""
    pts = []
    for i in range(n_major):
        a = 2 * np.pi * i / n_major
        for j in range(n_minor):
            b = 2 * np.pi * j / n_minor
            r = r_major + r_minor * np.cos(b)
            pts.append([r * np.cos(a), r * np.sin(a), r_minor * np.sin(b)])
    faces = []
    for i in range(n_major):
        for j in range(n_minor):
            p = i * n_minor + j
            q = ((i + 1) % n_major) * n_minor + j
            pn = i * n_minor + (j + 1) % n_minor
            qn = ((i + 1) % n_major) * n_minor + (j + 1) % n_minor
            faces += [[p, q, qn], [p, qn, pn]]
    return np.array(pts, np.float32), np.array(faces, np.int32)


def _closest_on_triangle(p, a, b, c):
    """The closest point to p on triangle abc, by projection and clamping to the edges."""
    n = np.cross(b - a, c - a)
    q = p - np.dot(p - a, n) / np.dot(n, n) * n
    m = np.array([b - a, c - a]).T
    s, t = np.linalg.lstsq(m, q - a, rcond=None)[0]
    if s >= 0 and t >= 0 and s + t <= 1:
        return q
    best = None
    for u, v in ((a, b), (b, c), (c, a)):
        e = v - u
        x = u + np.clip(np.dot(p - u, e) / np.dot(e, e), 0.0, 1.0) * e
        if best is None or np.linalg.norm(p - x) < np.linalg.norm(p - best):
            best = x
    return best


@wp.kernel
def _closest(mesh: wp.uint64, queries: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3),
             signs: wp.array(dtype=float), faces: wp.array(dtype=int)):
    i = wp.tid()
    r = wp.mesh_query_point_sign_normal(mesh, queries[i], 10.0)
    out[i] = wp.mesh_eval_position(mesh, r.face, r.u, r.v)
    signs[i] = r.sign
    # the older form with output locals agrees
    face = int(-1)
    u = float(0.0)
    v = float(0.0)
    if wp.mesh_query_point_no_sign(mesh, queries[i], 10.0, face, u, v):
        faces[i] = face


@wp.kernel
def _rays(mesh: wp.uint64, starts: wp.array(dtype=wp.vec3), d: wp.vec3,
          t_out: wp.array(dtype=float), anyhit: wp.array(dtype=int),
          counts: wp.array(dtype=int)):
    i = wp.tid()
    h = wp.mesh_query_ray(mesh, starts[i], d, 100.0)
    t_out[i] = -1.0
    if h.result:
        t_out[i] = h.t
    if wp.mesh_query_ray_anyhit(mesh, starts[i], d, 100.0):
        anyhit[i] = 1
    counts[i] = wp.mesh_query_ray_count_intersections(mesh, starts[i], d)


@wp.kernel
def _box(mesh: wp.uint64, lo: wp.vec3, hi: wp.vec3, hits: wp.array(dtype=int)):
    q = wp.mesh_query_aabb(mesh, lo, hi)
    f = int(0)
    while wp.mesh_query_next(q, f):
        hits[f] = hits[f] + 1


def _mesh(device, constructor=None):
    pts, faces = _torus()
    return pts, faces, wp.Mesh(points=wp.array(pts, dtype=wp.vec3, device=device),
                               indices=wp.array(faces.ravel(), dtype=wp.int32, device=device),
                               bvh_constructor=constructor)


def test_closest_points_and_signs(device):
    pts, faces, mesh = _mesh(device)
    rng = np.random.default_rng(1)
    q = rng.uniform(-1.6, 1.6, (64, 3)).astype(np.float32)
    out = wp.zeros(64, dtype=wp.vec3, device=device)
    signs = wp.zeros(64, dtype=float, device=device)
    faces_out = wp.full(64, -1, dtype=int, device=device)
    wp.launch(_closest, dim=64, inputs=[mesh.id, wp.array(q, dtype=wp.vec3, device=device), out,
                                       signs, faces_out], device=device)
    tri = pts[faces].astype(np.float64)
    for i in range(64):
        cands = [_closest_on_triangle(q[i].astype(np.float64), *t) for t in tri]
        d = min(np.linalg.norm(q[i] - c) for c in cands)
        assert np.linalg.norm(q[i] - out.numpy()[i]) == pytest.approx(d, abs=1e-4)
        # inside the tube exactly when the distance to the core circle is below r_minor
        core = np.hypot(np.hypot(q[i][0], q[i][1]) - 1.0, q[i][2])
        if abs(core - 0.35) > 0.05:
            assert (signs.numpy()[i] < 0) == (core < 0.35)
        f = faces_out.numpy()[i]
        fd = np.linalg.norm(q[i] - _closest_on_triangle(q[i].astype(np.float64), *tri[f]))
        assert fd == pytest.approx(d, abs=1e-4)


def _ray_hits(o, d, tri):
    ts = []
    for a, b, c in tri:
        e1, e2 = b - a, c - a
        h = np.cross(d, e2)
        det = np.dot(e1, h)
        if abs(det) < 1e-12:
            continue
        s = o - a
        u = np.dot(s, h) / det
        qv = np.cross(s, e1)
        v = np.dot(d, qv) / det
        t = np.dot(e2, qv) / det
        if u >= 0 and v >= 0 and u + v <= 1 and t >= 0:
            ts.append(t)
    return sorted(ts)


def test_rays_match_moller_trumbore(device):
    pts, faces, mesh = _mesh(device)
    rng = np.random.default_rng(2)
    starts = np.column_stack([rng.uniform(-1.5, 1.5, 48), rng.uniform(-1.5, 1.5, 48),
                              np.full(48, -2.0)]).astype(np.float32)
    d = np.array([0.05, 0.02, 1.0], np.float32)
    t = wp.zeros(48, dtype=float, device=device)
    anyhit = wp.zeros(48, dtype=int, device=device)
    counts = wp.zeros(48, dtype=int, device=device)
    wp.launch(_rays, dim=48, inputs=[mesh.id, wp.array(starts, dtype=wp.vec3, device=device),
                                    wp.vec3(*d), t, anyhit, counts], device=device)
    tri = pts[faces].astype(np.float64)
    hits = 0
    for i in range(48):
        ref = _ray_hits(starts[i].astype(np.float64), d.astype(np.float64), tri)
        if ref:
            hits += 1
            assert t.numpy()[i] == pytest.approx(ref[0], rel=1e-4)
            assert anyhit.numpy()[i] == 1
            assert counts.numpy()[i] == len(ref)
        else:
            assert t.numpy()[i] == -1.0 and anyhit.numpy()[i] == 0 and counts.numpy()[i] == 0
    assert hits > 10


@pytest.mark.parametrize("constructor", [None, "lbvh"])
def test_box_query_and_refit(device, constructor):
    # "lbvh" on CUDA: the face BVH is built on the device
    pts, faces, mesh = _mesh(device, constructor)
    lo, hi = np.array([-0.5, 0.2, -1.0], np.float32), np.array([1.5, 1.5, 0.1], np.float32)
    for shift in (0.0, 0.4):
        if shift:
            moved = pts + np.float32(shift)
            mesh.points.assign(moved)
            mesh.refit()
        cur = pts + np.float32(shift)
        hits = wp.zeros(len(faces), dtype=int, device=device)
        wp.launch(_box, dim=1, inputs=[mesh.id, wp.vec3(*lo), wp.vec3(*hi), hits], device=device)
        tl, th = cur[faces].min(axis=1), cur[faces].max(axis=1)
        ref = np.all((tl <= hi) & (th >= lo), axis=1)
        assert ref.any()
        np.testing.assert_array_equal(hits.numpy(), ref.astype(int))


@wp.kernel
def _shift_points(points: wp.array(dtype=wp.vec3), by: wp.vec3):
    i = wp.tid()
    points[i] = points[i] + by


@wp.kernel
def _closest_no_sign(mesh: wp.uint64, queries: wp.array(dtype=wp.vec3),
                     out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    q = wp.mesh_query_point_no_sign(mesh, queries[i], 100.0)
    out[i] = wp.mesh_eval_position(mesh, q.face, q.u, q.v)


@pytest.mark.parametrize("constructor", [None, "lbvh"])
def test_refit_on_the_device_replays_in_a_graph(device, constructor):
    # points move by a kernel, the mesh refits and is queried: on CUDA inside one captured
    # graph, replayed; closest points match numpy each time
    pts, faces, mesh = _mesh(device, constructor)
    rng = np.random.default_rng(4)
    queries_np = rng.uniform(-2.0, 2.0, (64, 3)).astype(np.float32)
    queries = wp.array(queries_np, dtype=wp.vec3, device=device)
    out = wp.zeros(64, dtype=wp.vec3, device=device)
    by = np.array([0.3, -0.2, 0.1], np.float32)

    def step():
        wp.launch(_shift_points, dim=len(pts), inputs=[mesh.points, wp.vec3(*by)], device=device)
        mesh.refit()
        wp.launch(_closest_no_sign, dim=64, inputs=[mesh.id, queries, out], device=device)

    graph = None
    if wp.get_device(device).is_cuda:
        with wp.ScopedCapture(device=device) as capture:
            step()
        graph = capture.graph
    for k in range(1, 3):
        if graph is None:
            step()
        else:
            wp.capture_launch(graph)
        cur = mesh.points.numpy()
        np.testing.assert_allclose(cur, pts + k * by, atol=1e-5)
        got = out.numpy()
        for i in range(0, 64, 7):
            best = min(np.linalg.norm(queries_np[i] - _closest_on_triangle(queries_np[i], *cur[f]))
                       for f in faces)
            assert np.linalg.norm(queries_np[i] - got[i]) == pytest.approx(best, abs=1e-4)


@wp.kernel
def _eval(mesh: wp.uint64, uv: wp.array(dtype=wp.vec2), out: wp.array(dtype=float)):
    p = wp.mesh_eval_position(mesh, 5, uv[0][0], uv[0][1])
    out[0] = wp.dot(p, wp.vec3(1.0, 2.0, 3.0))


def test_eval_position_gradient(device):
    pts, faces, mesh = _mesh(device)
    uv = wp.array([[0.2, 0.3]], dtype=wp.vec2, device=device, requires_grad=True)
    out = wp.zeros(1, dtype=float, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(_eval, dim=1, inputs=[mesh.id, uv, out], device=device)
    tape.backward(grads={out: wp.ones(1, dtype=float, device=device)})
    a, b, c = pts[faces[5]].astype(np.float64)
    w = np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(uv.grad.numpy()[0], [np.dot(a - c, w), np.dot(b - c, w)],
                               rtol=1e-5)


def test_mistakes_raise():
    pts, faces = _torus()
    p = wp.array(pts, dtype=wp.vec3, device="cpu")
    with pytest.raises(RuntimeError, match="wp.int32"):
        wp.Mesh(points=p, indices=wp.array(faces.ravel(), dtype=wp.int64, device="cpu"))
    with pytest.raises(RuntimeError, match="one-dimensional"):
        wp.Mesh(points=p, indices=wp.array(faces, dtype=wp.int32, device="cpu"))
    with pytest.raises(RuntimeError, match="multiple of 3"):
        wp.Mesh(points=p, indices=wp.array(faces.ravel()[:-1], dtype=wp.int32, device="cpu"))
    with pytest.raises(RuntimeError, match="out of range"):
        wp.Mesh(points=p, indices=wp.array(faces.ravel() + 1000, dtype=wp.int32, device="cpu"))
    with pytest.raises(ValueError, match="constructor"):
        wp.Mesh(points=p, indices=wp.array(faces.ravel(), dtype=wp.int32, device="cpu"),
                bvh_constructor="octree")

    @wp.kernel
    def bad(mesh: wp.uint64, out: wp.array(dtype=int)):
        face = float(0.0)
        u = float(0.0)
        v = float(0.0)
        if wp.mesh_query_point_no_sign(mesh, wp.vec3(0.0), 1.0, face, u, v):
            out[0] = 1

    mesh = wp.Mesh(points=p, indices=wp.array(faces.ravel(), dtype=wp.int32, device="cpu"))
    with pytest.raises(Exception, match="no overload accepts"):
        wp.launch(bad, dim=1, inputs=[mesh.id, wp.zeros(1, dtype=int, device="cpu")],
                  device="cpu")


@wp.kernel
def _query_grads(mesh: wp.uint64, p: wp.array(dtype=wp.vec3), start: wp.array(dtype=wp.vec3),
                 out: wp.array(dtype=float)):
    r = wp.mesh_query_point_no_sign(mesh, p[0], 10.0)
    h = wp.mesh_query_ray(mesh, start[0], wp.vec3(0.1, 0.2, 1.0), 100.0)
    out[0] = 2.0 * r.u + 3.0 * r.v + h.t


def test_query_gradients_match_finite_differences(device):
    pts, faces, mesh = _mesh(device)
    p0 = np.array([0.9, 0.3, 0.5], np.float32)  # above the tube: the closest point is on a face
    s0 = np.array([0.8, 0.1, -2.0], np.float32)

    def value(p, s):
        out = wp.zeros(1, dtype=float, device=device)
        wp.launch(_query_grads, dim=1, inputs=[mesh.id, wp.array([p], dtype=wp.vec3,
                                                                device=device),
                                               wp.array([s], dtype=wp.vec3, device=device), out],
                  device=device)
        return float(out.numpy()[0])

    p = wp.array([p0], dtype=wp.vec3, device=device, requires_grad=True)
    s = wp.array([s0], dtype=wp.vec3, device=device, requires_grad=True)
    out = wp.zeros(1, dtype=float, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(_query_grads, dim=1, inputs=[mesh.id, p, s, out], device=device)
    tape.backward(grads={out: wp.ones(1, dtype=float, device=device)})
    h = 1e-3
    for k in range(3):
        e = np.zeros(3, np.float32)
        e[k] = h
        fd_p = (value(p0 + e, s0) - value(p0 - e, s0)) / (2 * h)
        fd_s = (value(p0, s0 + e) - value(p0, s0 - e)) / (2 * h)
        assert p.grad.numpy()[0][k] == pytest.approx(fd_p, rel=2e-2, abs=2e-2)
        assert s.grad.numpy()[0][k] == pytest.approx(fd_s, rel=2e-2, abs=2e-2)
    assert np.abs(p.grad.numpy()).max() > 0.1 and np.abs(s.grad.numpy()).max() > 0.1


@wp.kernel
def _group_rays(mesh: wp.uint64, starts: wp.array(dtype=wp.vec3), d: wp.vec3, group: int,
                faces: wp.array(dtype=int)):
    i = wp.tid()
    root = wp.mesh_get_group_root(mesh, group)
    q = wp.mesh_query_ray(mesh, starts[i], d, 100.0, root)
    faces[i] = wp.where(q.result, q.face, -1)


@pytest.mark.parametrize("constructor", ["sah", "lbvh"])
def test_group_rays_see_only_their_group(device, constructor):
    # two stacked copies of a grid of quads; group g is copy g. A ray down through both from
    # above hits copy 1 first, unless confined to group 0 (lbvh on CUDA: a device build)
    n = 6
    u = np.linspace(0.0, 1.0, n + 1, dtype=np.float32)
    gx, gy = np.meshgrid(u, u, indexing="ij")
    layer = np.stack([gx, gy, np.zeros_like(gx)], -1).reshape(-1, 3)
    pts = np.concatenate([layer, layer + np.float32([0.0, 0.0, 1.0])]).astype(np.float32)
    ids = np.arange((n + 1) ** 2).reshape(n + 1, n + 1)
    a, b, c, e = ids[:-1, :-1], ids[1:, :-1], ids[1:, 1:], ids[:-1, 1:]
    quads = np.concatenate([np.stack([a, b, c], -1).reshape(-1, 3),
                            np.stack([a, c, e], -1).reshape(-1, 3)])
    faces = np.concatenate([quads, quads + len(layer)]).astype(np.int32)
    groups = np.repeat(np.int32([0, 1]), len(quads))
    mesh = wp.Mesh(points=wp.array(pts, dtype=wp.vec3, device=device),
                   indices=wp.array(faces.ravel(), dtype=wp.int32, device=device),
                   groups=wp.array(groups, dtype=wp.int32, device=device),
                   bvh_constructor=constructor)
    rng = np.random.default_rng(2)
    starts_np = np.concatenate([rng.uniform(0.05, 0.95, (32, 2)), np.full((32, 1), 3.0)],
                               axis=1).astype(np.float32)
    starts = wp.array(starts_np, dtype=wp.vec3, device=device)
    for group, (lo, hi) in ((0, (0, len(quads))), (1, (len(quads), 2 * len(quads))),
                            (5, (len(quads), 2 * len(quads)))):  # 5: no such group, whole mesh
        out = wp.zeros(32, dtype=int, device=device)
        wp.launch(_group_rays, dim=32, inputs=[mesh.id, starts, wp.vec3(0.0, 0.0, -1.0), group,
                                               out], device=device)
        got = out.numpy()
        assert np.all((got >= lo) & (got < hi)), (group, got)


@pytest.mark.parametrize("constructor", ["sah", "lbvh"])
def test_an_index_out_of_range_is_refused_on_every_device(device, constructor):
    # lbvh on CUDA checks the indices on the device; the message is the host check's
    pts = wp.array(np.zeros((8, 3), np.float32), dtype=wp.vec3, device=device)
    idx = wp.array(np.int32([0, 1, 2, 3, 99, 5]), dtype=wp.int32, device=device)
    with pytest.raises(RuntimeError) as e:
        wp.Mesh(points=pts, indices=idx, bvh_constructor=constructor)
    assert "Mesh: index 4 (99) is out of range for 8 points" in str(e.value)
