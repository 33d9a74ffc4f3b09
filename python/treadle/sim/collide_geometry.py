"""treadle.sim.collide_geometry -- the geometric kernel functions of collision detection: closest
points on triangles, segments, boxes and planes, signed distances of the primitive shapes in
their local frames (y is the axis of capsules, cylinders and cones; planes are the x-z plane,
of half extents width x length, infinite where 0), mesh and volume queries, box and plane edges,
and a golden-section search for the point of an edge closest to a shape.
"""

import treadle as wp

# which feature of a triangle its closest point lies on (triangle_closest_point)
TRI_CONTACT_FEATURE_VERTEX_A = wp.constant(0)
TRI_CONTACT_FEATURE_VERTEX_B = wp.constant(1)
TRI_CONTACT_FEATURE_VERTEX_C = wp.constant(2)
TRI_CONTACT_FEATURE_EDGE_AB = wp.constant(3)
TRI_CONTACT_FEATURE_EDGE_AC = wp.constant(4)
TRI_CONTACT_FEATURE_EDGE_BC = wp.constant(5)
TRI_CONTACT_FEATURE_FACE_INTERIOR = wp.constant(6)

# shape kinds of edge_sdf / closest_edge_coordinate
_EDGE_VS_BOX = wp.constant(0)
_EDGE_VS_PLANE = wp.constant(1)
_EDGE_VS_CAPSULE = wp.constant(2)
_EDGE_VS_MESH = wp.constant(3)


@wp.func
def build_orthonormal_basis(n: wp.vec3):
    """Two unit vectors completing the unit normal `n` to an orthonormal basis (Duff et al.
    2017, branchless in the sign of n.z)."""
    b1 = wp.vec3()
    b2 = wp.vec3()
    if n[2] < 0.0:
        a = 1.0 / (1.0 - n[2])
        b = n[0] * n[1] * a
        b1 = wp.vec3(1.0 - n[0] * n[0] * a, -b, n[0])
        b2 = wp.vec3(b, n[1] * n[1] * a - 1.0, -n[1])
    else:
        a = 1.0 / (1.0 + n[2])
        b = -n[0] * n[1] * a
        b1 = wp.vec3(1.0 - n[0] * n[0] * a, b, -n[0])
        b2 = wp.vec3(b, 1.0 - n[1] * n[1] * a, -n[1])
    return b1, b2


@wp.func
def _triangle_region(a: wp.vec3, b: wp.vec3, c: wp.vec3, p: wp.vec3):
    """Barycentric coordinates of the point of triangle (a, b, c) closest to `p` and the
    Voronoi region (``TRI_CONTACT_FEATURE_*``) `p` lies in (Ericson, Real-Time Collision
    Detection, 5.1.5)."""
    ab = b - a
    ac = c - a
    ap = p - a
    d1 = wp.dot(ab, ap)
    d2 = wp.dot(ac, ap)
    if d1 <= 0.0 and d2 <= 0.0:
        return wp.vec3(1.0, 0.0, 0.0), TRI_CONTACT_FEATURE_VERTEX_A
    bp = p - b
    d3 = wp.dot(ab, bp)
    d4 = wp.dot(ac, bp)
    if d3 >= 0.0 and d4 <= d3:
        return wp.vec3(0.0, 1.0, 0.0), TRI_CONTACT_FEATURE_VERTEX_B
    cp = p - c
    d5 = wp.dot(ab, cp)
    d6 = wp.dot(ac, cp)
    if d6 >= 0.0 and d5 <= d6:
        return wp.vec3(0.0, 0.0, 1.0), TRI_CONTACT_FEATURE_VERTEX_C
    vc = d1 * d4 - d3 * d2
    if vc <= 0.0 and d1 >= 0.0 and d3 <= 0.0:
        t = d1 / (d1 - d3)
        return wp.vec3(1.0 - t, t, 0.0), TRI_CONTACT_FEATURE_EDGE_AB
    vb = d5 * d2 - d1 * d6
    if vb <= 0.0 and d2 >= 0.0 and d6 <= 0.0:
        t = d2 / (d2 - d6)
        return wp.vec3(1.0 - t, 0.0, t), TRI_CONTACT_FEATURE_EDGE_AC
    va = d3 * d6 - d5 * d4
    if va <= 0.0 and (d4 - d3) >= 0.0 and (d5 - d6) >= 0.0:
        t = (d4 - d3) / ((d4 - d3) + (d5 - d6))
        return wp.vec3(0.0, 1.0 - t, t), TRI_CONTACT_FEATURE_EDGE_BC
    denom = 1.0 / (va + vb + vc)
    v = vb * denom
    w = vc * denom
    return wp.vec3(1.0 - v - w, v, w), TRI_CONTACT_FEATURE_FACE_INTERIOR


@wp.func
def triangle_closest_point_barycentric(a: wp.vec3, b: wp.vec3, c: wp.vec3, p: wp.vec3):
    """Barycentric coordinates of the point of triangle (a, b, c) closest to `p`."""
    bary, feature = _triangle_region(a, b, c, p)
    return bary


@wp.func
def triangle_closest_point(a: wp.vec3, b: wp.vec3, c: wp.vec3, p: wp.vec3):
    """The point of triangle (a, b, c) closest to `p`, its barycentric coordinates and the
    feature it lies on (``TRI_CONTACT_FEATURE_*``)."""
    bary, feature = _triangle_region(a, b, c, p)
    return a * bary[0] + b * bary[1] + c * bary[2], bary, feature


@wp.func
def sphere_sdf(center: wp.vec3, radius: float, p: wp.vec3):
    """Signed distance from `p` to a sphere."""
    return wp.length(p - center) - radius


@wp.func
def sphere_sdf_grad(center: wp.vec3, radius: float, p: wp.vec3):
    """Outward unit normal of a sphere's distance field at `p`."""
    return wp.normalize(p - center)


@wp.func
def box_sdf(upper: wp.vec3, p: wp.vec3):
    """Signed distance from `p` to the box of half extents `upper` centred at the origin."""
    q = wp.vec3(wp.abs(p[0]) - upper[0], wp.abs(p[1]) - upper[1], wp.abs(p[2]) - upper[2])
    outside = wp.vec3(wp.max(q[0], 0.0), wp.max(q[1], 0.0), wp.max(q[2], 0.0))
    return wp.length(outside) + wp.min(wp.max(q[0], wp.max(q[1], q[2])), 0.0)


@wp.func
def box_sdf_grad(upper: wp.vec3, p: wp.vec3):
    """Outward unit normal of the box distance field at `p`: towards `p` from the closest
    surface point outside, the normal of the nearest face inside."""
    qx = wp.abs(p[0]) - upper[0]
    qy = wp.abs(p[1]) - upper[1]
    qz = wp.abs(p[2]) - upper[2]
    if qx > 0.0 or qy > 0.0 or qz > 0.0:
        clamped = wp.vec3(wp.clamp(p[0], -upper[0], upper[0]), wp.clamp(p[1], -upper[1], upper[1]),
                          wp.clamp(p[2], -upper[2], upper[2]))
        return wp.normalize(p - clamped)
    if (qx > qy and qx > qz) or (qy == 0.0 and qz == 0.0):
        return wp.vec3(wp.sign(p[0]), 0.0, 0.0)
    if (qy > qx and qy > qz) or (qx == 0.0 and qz == 0.0):
        return wp.vec3(0.0, wp.sign(p[1]), 0.0)
    return wp.vec3(0.0, 0.0, wp.sign(p[2]))


@wp.func
def _capsule_axis_offset(half_height: float, p: wp.vec3):
    """`p` minus the closest point of the capsule's segment (y from -h to h)."""
    return wp.vec3(p[0], p[1] - wp.clamp(p[1], -half_height, half_height), p[2])


@wp.func
def capsule_sdf(radius: float, half_height: float, p: wp.vec3):
    """Signed distance from `p` to a capsule along y."""
    return wp.length(_capsule_axis_offset(half_height, p)) - radius


@wp.func
def capsule_sdf_grad(radius: float, half_height: float, p: wp.vec3):
    """Outward unit normal of a capsule's distance field at `p`."""
    return wp.normalize(_capsule_axis_offset(half_height, p))


@wp.func
def cylinder_sdf(radius: float, half_height: float, p: wp.vec3):
    """Signed distance from `p` to a cylinder along y."""
    dx = wp.length(wp.vec3(p[0], 0.0, p[2])) - radius
    dy = wp.abs(p[1]) - half_height
    return wp.min(wp.max(dx, dy), 0.0) + wp.length(wp.vec2(wp.max(dx, 0.0), wp.max(dy, 0.0)))


@wp.func
def cylinder_sdf_grad(radius: float, half_height: float, p: wp.vec3):
    """Normal of the cylinder side or cap nearest in the distance field's sense."""
    dx = wp.length(wp.vec3(p[0], 0.0, p[2])) - radius
    dy = wp.abs(p[1]) - half_height
    if dx > dy:
        return wp.normalize(wp.vec3(p[0], 0.0, p[2]))
    return wp.vec3(0.0, wp.sign(p[1]), 0.0)


@wp.func
def cone_sdf(radius: float, half_height: float, p: wp.vec3):
    """Approximate signed distance from `p` to a cone along y (base radius `radius`, the apex
    at -half_height and the base at +half_height, as Warp's)."""
    dx = wp.length(wp.vec3(p[0], 0.0, p[2])) - radius * (p[1] + half_height) / (2.0 * half_height)
    dy = wp.abs(p[1]) - half_height
    return wp.min(wp.max(dx, dy), 0.0) + wp.length(wp.vec2(wp.max(dx, 0.0), wp.max(dy, 0.0)))


@wp.func
def cone_sdf_grad(radius: float, half_height: float, p: wp.vec3):
    """Direction of increasing cone distance at `p` (not normalised on the side)."""
    dx = wp.length(wp.vec3(p[0], 0.0, p[2])) - radius * (p[1] + half_height) / (2.0 * half_height)
    dy = wp.abs(p[1]) - half_height
    if dy < 0.0 or dx == 0.0:
        return wp.vec3(0.0, wp.sign(p[1]), 0.0)
    return wp.normalize(wp.vec3(p[0], 0.0, p[2])) + wp.vec3(0.0, radius / (2.0 * half_height), 0.0)


@wp.func
def plane_sdf(width: float, length: float, p: wp.vec3):
    """Distance from `p` to the plane's rectangle (unsigned) or, for an infinite plane, the
    signed height above it."""
    if width > 0.0 and length > 0.0:
        d = wp.max(wp.abs(p[0]) - width, wp.abs(p[2]) - length)
        return wp.max(d, wp.abs(p[1]))
    return p[1]


@wp.func
def closest_point_plane(width: float, length: float, point: wp.vec3):
    """Projection of `point` onto the plane's rectangle (clamped where the extent is > 0)."""
    x = point[0]
    z = point[2]
    if width > 0.0:
        x = wp.clamp(x, -width, width)
    if length > 0.0:
        z = wp.clamp(z, -length, length)
    return wp.vec3(x, 0.0, z)


@wp.func
def closest_point_line_segment(a: wp.vec3, b: wp.vec3, point: wp.vec3):
    """The point of segment a-b closest to `point`."""
    ab = b - a
    t = wp.clamp(wp.dot(point - a, ab) / wp.dot(ab, ab), 0.0, 1.0)
    return a + t * ab


@wp.func
def closest_point_box(upper: wp.vec3, point: wp.vec3):
    """The point of the box surface closest to `point` (inside: on the nearest face)."""
    x = wp.clamp(point[0], -upper[0], upper[0])
    y = wp.clamp(point[1], -upper[1], upper[1])
    z = wp.clamp(point[2], -upper[2], upper[2])
    if wp.abs(point[0]) <= upper[0] and wp.abs(point[1]) <= upper[1] and wp.abs(point[2]) <= upper[2]:
        sx = wp.abs(wp.abs(point[0]) - upper[0])
        sy = wp.abs(wp.abs(point[1]) - upper[1])
        sz = wp.abs(wp.abs(point[2]) - upper[2])
        if (sx < sy and sx < sz) or (sy == 0.0 and sz == 0.0):
            x = wp.sign(point[0]) * upper[0]
        elif (sy < sx and sy < sz) or (sx == 0.0 and sz == 0.0):
            y = wp.sign(point[1]) * upper[1]
        else:
            z = wp.sign(point[2]) * upper[2]
    return wp.vec3(x, y, z)


@wp.func
def get_box_vertex(point_id: int, upper: wp.vec3):
    """Vertex `point_id` (0-7) of the box: bit 0 picks +x, bit 1 +y, bit 2 +z."""
    sx = float(point_id % 2) * 2.0 - 1.0
    sy = float((point_id // 2) % 2) * 2.0 - 1.0
    sz = float((point_id // 4) % 2) * 2.0 - 1.0
    return wp.vec3(sx * upper[0], sy * upper[1], sz * upper[2])


@wp.func
def get_box_edge(edge_id: int, upper: wp.vec3):
    """Edge `edge_id` (0-11) of the box as (start, end) in one spatial vector: 0-3 along x,
    4-7 along y, 8-11 along z."""
    i = int(0)
    j = int(0)
    if edge_id < 4:
        i = edge_id * 2
        j = i + 1
    elif edge_id < 8:
        e = edge_id - 4
        i = e % 2 + e // 2 * 4
        j = i + 2
    else:
        i = edge_id - 8
        j = i + 4
    return wp.spatial_vector(get_box_vertex(i, upper), get_box_vertex(j, upper))


@wp.func
def get_plane_edge(edge_id: int, plane_width: float, plane_length: float):
    """Edge `edge_id` (0-3) of the plane's rectangle as (start, end)."""
    x0 = (2.0 * float(edge_id % 2) - 1.0) * plane_width
    z0 = (2.0 * float(edge_id // 2) - 1.0) * plane_length
    x1 = -x0
    z1 = z0
    if edge_id == 0 or edge_id == 3:
        x1 = x0
        z1 = -z0
    return wp.spatial_vector(wp.vec3(x0, 0.0, z0), wp.vec3(x1, 0.0, z1))


@wp.func
def mesh_sdf(mesh: wp.uint64, point: wp.vec3, max_dist: float):
    """Signed distance from `point` to the mesh, `max_dist` when nothing is that close."""
    face = int(0)
    u = float(0.0)
    v = float(0.0)
    sign = float(0.0)
    if wp.mesh_query_point_sign_normal(mesh, point, max_dist, sign, face, u, v):
        return wp.length(point - wp.mesh_eval_position(mesh, face, u, v)) * sign
    return max_dist


@wp.func
def closest_point_mesh(mesh: wp.uint64, point: wp.vec3, max_dist: float):
    """The mesh point closest to `point` within `max_dist` (else the first vertex of face 0)."""
    face = int(0)
    u = float(0.0)
    v = float(0.0)
    sign = float(0.0)
    if wp.mesh_query_point_sign_normal(mesh, point, max_dist, sign, face, u, v):
        return wp.mesh_eval_position(mesh, face, u, v)
    return wp.mesh_eval_position(mesh, 0, 0.0, 0.0)


@wp.func
def volume_grad(volume: wp.uint64, p: wp.vec3):
    """Unit gradient of the volume's distance field at world point `p` (central differences
    of 0.05 voxel)."""
    eps = 0.05
    q = wp.volume_world_to_index(volume, p)
    g = wp.vec3()
    for axis in range(3):
        step = wp.vec3()
        step[axis] = eps
        g[axis] = (wp.volume_sample_f(volume, q + step, wp.Volume.LINEAR)
                   - wp.volume_sample_f(volume, q - step, wp.Volume.LINEAR))
    return wp.normalize(g)


@wp.func
def edge_sdf(kind: int, scale: wp.vec3, mesh: wp.uint64, max_dist: float, p: wp.vec3):
    """Distance from `p` to the shape an edge search runs against (``_EDGE_VS_*``)."""
    if kind == _EDGE_VS_BOX:
        return box_sdf(scale, p)
    if kind == _EDGE_VS_PLANE:
        return plane_sdf(scale[0], scale[1], p)
    if kind == _EDGE_VS_CAPSULE:
        return capsule_sdf(scale[0], scale[1], p)
    return mesh_sdf(mesh, p, max_dist)


@wp.func
def closest_edge_coordinate(kind: int, scale: wp.vec3, mesh: wp.uint64, max_dist: float,
                            edge_a: wp.vec3, edge_b: wp.vec3, max_iter: int):
    """Coordinate u in [0, 1] of the point (1-u) a + u b of edge a-b nearest the shape, by
    `max_iter` steps of golden-section search on the shape's distance."""
    lo = float(0.0)
    hi = float(1.0)
    inv_phi = 0.61803398875
    inv_phi2 = 0.38196601125
    h = hi - lo
    c = lo + inv_phi2 * h
    d = lo + inv_phi * h
    yc = edge_sdf(kind, scale, mesh, max_dist, (1.0 - c) * edge_a + c * edge_b)
    yd = edge_sdf(kind, scale, mesh, max_dist, (1.0 - d) * edge_a + d * edge_b)
    for _k in range(max_iter):
        h = inv_phi * h
        if yc < yd:
            hi = d
            d = c
            yd = yc
            c = lo + inv_phi2 * h
            yc = edge_sdf(kind, scale, mesh, max_dist, (1.0 - c) * edge_a + c * edge_b)
        else:
            lo = c
            c = d
            yc = yd
            d = lo + inv_phi * h
            yd = edge_sdf(kind, scale, mesh, max_dist, (1.0 - d) * edge_a + d * edge_b)
    if yc < yd:
        return 0.5 * (lo + d)
    return 0.5 * (c + hi)


@wp.func
def closest_edge_coordinate_box(upper: wp.vec3, edge_a: wp.vec3, edge_b: wp.vec3, max_iter: int):
    """closest_edge_coordinate against a box of half extents `upper`."""
    return closest_edge_coordinate(_EDGE_VS_BOX, upper, wp.uint64(0), 0.0, edge_a, edge_b,
                                   max_iter)


@wp.func
def closest_edge_coordinate_plane(plane_width: float, plane_length: float, edge_a: wp.vec3,
                                  edge_b: wp.vec3, max_iter: int):
    """closest_edge_coordinate against a plane."""
    return closest_edge_coordinate(_EDGE_VS_PLANE, wp.vec3(plane_width, plane_length, 0.0),
                                   wp.uint64(0), 0.0, edge_a, edge_b, max_iter)


@wp.func
def closest_edge_coordinate_capsule(radius: float, half_height: float, edge_a: wp.vec3,
                                    edge_b: wp.vec3, max_iter: int):
    """closest_edge_coordinate against a capsule."""
    return closest_edge_coordinate(_EDGE_VS_CAPSULE, wp.vec3(radius, half_height, 0.0),
                                   wp.uint64(0), 0.0, edge_a, edge_b, max_iter)


@wp.func
def closest_edge_coordinate_mesh(mesh: wp.uint64, edge_a: wp.vec3, edge_b: wp.vec3,
                                 max_iter: int, max_dist: float):
    """closest_edge_coordinate against a mesh (distances beyond `max_dist` count as it)."""
    return closest_edge_coordinate(_EDGE_VS_MESH, wp.vec3(), mesh, max_dist, edge_a, edge_b,
                                   max_iter)
