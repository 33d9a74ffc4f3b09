"""treadle.sim.collide_pairs -- the narrow phase of rigid contacts: for one candidate contact
point of a shape pair, the closest points on both shapes, the contact normal (from b to a) and
their distance along it, in world space.

Each function takes the shapes' world transforms X_ws (and inverses X_sw), scales, mesh ids and
the candidate's ``point_id`` (which vertex, edge or half-segment it stands for) and returns
(found, p_a, p_b, normal, distance); `found` is False when the candidate is skipped. The pairs
follow Warp's choices: vertex contacts for meshes and box corners against planes, edge contacts
(golden-section search along the edge) for boxes and capsules.
"""

import treadle as wp

from .collide_geometry import (box_sdf, box_sdf_grad, closest_edge_coordinate_box,
                               closest_edge_coordinate_capsule, closest_edge_coordinate_mesh,
                               closest_point_box, closest_point_line_segment, closest_point_plane,
                               get_box_edge, get_box_vertex, get_plane_edge)
from .constants import GEO_BOX, GEO_CAPSULE, GEO_MESH, GEO_PLANE, GEO_SPHERE

_UP = wp.constant(wp.vec3(0.0, 1.0, 0.0))


@wp.func
def _mesh_closest_world(mesh: wp.uint64, X_ws: wp.transform, X_sw: wp.transform, scale: wp.vec3,
                        p_world: wp.vec3, max_dist: float):
    """(found, closest point in world space, inside sign) of a scaled mesh to `p_world`."""
    face = int(0)
    u = float(0.0)
    v = float(0.0)
    sign = float(0.0)
    local = wp.cw_div(wp.transform_point(X_sw, p_world), scale)
    found = wp.mesh_query_point_sign_normal(mesh, local, max_dist, sign, face, u, v)
    p = wp.vec3()
    if found:
        p = wp.transform_point(X_ws, wp.cw_mul(wp.mesh_eval_position(mesh, face, u, v), scale))
    return found, p, sign


@wp.func
def _capsule_segment(X_ws: wp.transform, half_height: float):
    return (wp.transform_point(X_ws, wp.vec3(0.0, half_height, 0.0)),
            wp.transform_point(X_ws, wp.vec3(0.0, -half_height, 0.0)))


@wp.func
def _separation(p_a: wp.vec3, p_b: wp.vec3):
    """Normal from p_b to p_a and the distance along it."""
    diff = p_a - p_b
    normal = wp.normalize(diff)
    return normal, wp.dot(diff, normal)


@wp.func
def sphere_contact(type_b: int, X_ws_a: wp.transform, X_ws_b: wp.transform,
                   X_sw_b: wp.transform, scale_b: wp.vec3, mesh_b: wp.uint64, max_dist: float):
    """A sphere's centre against shape b (the radius is in the sphere's thickness)."""
    p_a = wp.transform_get_translation(X_ws_a)
    p_b = wp.vec3()
    found = True
    if type_b == GEO_SPHERE:
        p_b = wp.transform_get_translation(X_ws_b)
    elif type_b == GEO_BOX:
        p_b = wp.transform_point(X_ws_b, closest_point_box(scale_b, wp.transform_point(X_sw_b, p_a)))
    elif type_b == GEO_CAPSULE:
        top, bottom = _capsule_segment(X_ws_b, scale_b[1])
        p_b = closest_point_line_segment(top, bottom, p_a)
    elif type_b == GEO_MESH:
        found, p_b, sign = _mesh_closest_world(mesh_b, X_ws_b, X_sw_b, scale_b, p_a, max_dist)
    elif type_b == GEO_PLANE:
        local = closest_point_plane(scale_b[0], scale_b[1], wp.transform_point(X_sw_b, p_a))
        p_b = wp.transform_point(X_ws_b, local)
    else:
        found = False
    normal, distance = _separation(p_a, p_b)
    return found, p_a, p_b, normal, distance


@wp.func
def box_box_contact(point_id: int, X_ws_a: wp.transform, X_ws_b: wp.transform,
                    X_sw_b: wp.transform, scale_a: wp.vec3, scale_b: wp.vec3, edge_iter: int):
    """Edge `point_id` of box a against box b."""
    edge = get_box_edge(point_id, scale_a)
    e0 = wp.transform_point(X_ws_a, wp.spatial_top(edge))
    e1 = wp.transform_point(X_ws_a, wp.spatial_bottom(edge))
    u = closest_edge_coordinate_box(scale_b, wp.transform_point(X_sw_b, e0),
                                    wp.transform_point(X_sw_b, e1), edge_iter)
    p_a = (1.0 - u) * e0 + u * e1
    query = wp.transform_point(X_sw_b, p_a)
    p_b = wp.transform_point(X_ws_b, closest_point_box(scale_b, query))
    normal = wp.transform_vector(X_ws_b, box_sdf_grad(scale_b, query))
    return True, p_a, p_b, normal, wp.dot(p_a - p_b, normal)


@wp.func
def box_capsule_contact(point_id: int, X_ws_a: wp.transform, X_sw_a: wp.transform,
                        X_ws_b: wp.transform, scale_a: wp.vec3, scale_b: wp.vec3,
                        edge_iter: int):
    """One half (by `point_id` parity) of capsule b's segment against box a."""
    h = scale_b[1]
    e0 = wp.transform_point(X_ws_b, wp.vec3(0.0, -h * float(point_id % 2), 0.0))
    e1 = wp.transform_point(X_ws_b, wp.vec3(0.0, h * float((point_id + 1) % 2), 0.0))
    u = closest_edge_coordinate_box(scale_a, wp.transform_point(X_sw_a, e0),
                                    wp.transform_point(X_sw_a, e1), edge_iter)
    p_b = (1.0 - u) * e0 + u * e1
    query = wp.transform_point(X_sw_a, p_b)
    p_a = wp.transform_point(X_ws_a, closest_point_box(scale_a, query))
    normal = -wp.transform_vector(X_ws_a, box_sdf_grad(scale_a, query))
    return True, p_a, p_b, normal, wp.dot(p_a - p_b, normal)


@wp.func
def _inside_plane(query: wp.vec3, width: float, length: float):
    return wp.abs(query[0]) <= width and wp.abs(query[2]) <= length


@wp.func
def box_plane_contact(point_id: int, X_ws_a: wp.transform, X_sw_a: wp.transform,
                      X_ws_b: wp.transform, X_sw_b: wp.transform, scale_a: wp.vec3,
                      scale_b: wp.vec3, edge_iter: int):
    """Corner `point_id` (< 8) of box a against plane b, or edge point_id - 8 of a finite
    plane against the box."""
    width = scale_b[0]
    length = scale_b[1]
    finite = width > 0.0 and length > 0.0
    if point_id < 8:
        p_a = wp.transform_point(X_ws_a, get_box_vertex(point_id, scale_a))
        query = wp.transform_point(X_sw_b, p_a)
        p_b = wp.transform_point(X_ws_b, closest_point_plane(width, length, query))
        normal = wp.transform_vector(X_ws_b, _UP)
        found = not finite or _inside_plane(query, width, length)
        return found, p_a, p_b, normal, wp.dot(p_a - p_b, normal)
    edge = get_plane_edge(point_id - 8, width, length)
    e0 = wp.transform_point(X_ws_b, wp.spatial_top(edge))
    e1 = wp.transform_point(X_ws_b, wp.spatial_bottom(edge))
    u = closest_edge_coordinate_box(scale_a, wp.transform_point(X_sw_a, e0),
                                    wp.transform_point(X_sw_a, e1), edge_iter)
    p_b = (1.0 - u) * e0 + u * e1
    p_a = wp.transform_point(X_ws_a, closest_point_box(scale_a, wp.transform_point(X_sw_a, p_b)))
    found = _inside_plane(wp.transform_point(X_sw_b, p_a), width, length)
    com_a = wp.transform_get_translation(X_ws_a)
    normal = wp.transform_vector(X_ws_b, _UP)
    if not _inside_plane(wp.transform_point(X_sw_b, com_a), width, length):
        normal = wp.normalize(com_a - p_b)
    return found, p_a, p_b, normal, wp.dot(p_a - p_b, normal)


@wp.func
def capsule_capsule_contact(point_id: int, X_ws_a: wp.transform, X_ws_b: wp.transform,
                            X_sw_b: wp.transform, scale_a: wp.vec3, scale_b: wp.vec3,
                            edge_iter: int):
    """One half of capsule a's segment against capsule b."""
    h = scale_a[1]
    e0 = wp.transform_point(X_ws_a, wp.vec3(0.0, h * float(point_id % 2), 0.0))
    e1 = wp.transform_point(X_ws_a, wp.vec3(0.0, -h * float((point_id + 1) % 2), 0.0))
    u = closest_edge_coordinate_capsule(scale_b[0], scale_b[1], wp.transform_point(X_sw_b, e0),
                                        wp.transform_point(X_sw_b, e1), edge_iter)
    p_a = (1.0 - u) * e0 + u * e1
    top, bottom = _capsule_segment(X_ws_b, scale_b[1])
    p_b = closest_point_line_segment(top, bottom, p_a)
    normal, distance = _separation(p_a, p_b)
    return True, p_a, p_b, normal, distance


@wp.func
def capsule_mesh_contact(point_id: int, X_ws_a: wp.transform, X_ws_b: wp.transform,
                         X_sw_b: wp.transform, scale_a: wp.vec3, scale_b: wp.vec3,
                         mesh_b: wp.uint64, max_dist: float, edge_iter: int):
    """One half of capsule a's segment against mesh b."""
    h = scale_a[1]
    e0 = wp.transform_point(X_ws_a, wp.vec3(0.0, -h * float(point_id % 2), 0.0))
    e1 = wp.transform_point(X_ws_a, wp.vec3(0.0, h * float((point_id + 1) % 2), 0.0))
    u = closest_edge_coordinate_mesh(mesh_b, wp.cw_div(wp.transform_point(X_sw_b, e0), scale_b),
                                     wp.cw_div(wp.transform_point(X_sw_b, e1), scale_b),
                                     edge_iter, max_dist)
    found, p_b, sign = _mesh_closest_world(mesh_b, X_ws_b, X_sw_b, scale_b,
                                           (1.0 - u) * e0 + u * e1, max_dist)
    p_a = closest_point_line_segment(e0, e1, p_b)
    normal, distance = _separation(p_a, p_b)
    return found, p_a, p_b, normal, distance


@wp.func
def mesh_vertex_world(mesh: wp.uint64, point_id: int, X_ws: wp.transform, scale: wp.vec3):
    """World position of vertex `point_id` of a scaled mesh."""
    return wp.transform_point(X_ws, wp.cw_mul(wp.mesh_get(mesh).points[point_id], scale))


@wp.func
def mesh_capsule_contact(point_id: int, mesh_a: wp.uint64, X_ws_a: wp.transform,
                         X_ws_b: wp.transform, scale_a: wp.vec3, scale_b: wp.vec3):
    """Vertex `point_id` of mesh a against capsule b."""
    p_a = mesh_vertex_world(mesh_a, point_id, X_ws_a, scale_a)
    top, bottom = _capsule_segment(X_ws_b, scale_b[1])
    p_b = closest_point_line_segment(top, bottom, p_a)
    normal, distance = _separation(p_a, p_b)
    return True, p_a, p_b, normal, distance


@wp.func
def capsule_plane_contact(point_id: int, X_ws_a: wp.transform, X_sw_a: wp.transform,
                          X_ws_b: wp.transform, X_sw_b: wp.transform, scale_a: wp.vec3,
                          scale_b: wp.vec3, edge_iter: int):
    """End `point_id` (< 2) of capsule a's segment against plane b, or edge point_id - 2 of a
    finite plane against the capsule."""
    width = scale_b[0]
    length = scale_b[1]
    if point_id < 2:
        side = float(point_id) * 2.0 - 1.0
        p_a = wp.transform_point(X_ws_a, wp.vec3(0.0, side * scale_a[1], 0.0))
        local = closest_point_plane(width, length, wp.transform_point(X_sw_b, p_a))
        p_b = wp.transform_point(X_ws_b, local)
        normal = wp.transform_vector(X_ws_b, _UP)
        if width > 0.0 and length > 0.0:
            normal = wp.normalize(p_a - p_b)
        return True, p_a, p_b, normal, wp.dot(p_a - p_b, normal)
    edge = get_plane_edge(point_id - 2, width, length)
    e0 = wp.transform_point(X_ws_b, wp.spatial_top(edge))
    e1 = wp.transform_point(X_ws_b, wp.spatial_bottom(edge))
    u = closest_edge_coordinate_capsule(scale_a[0], scale_a[1], wp.transform_point(X_sw_a, e0),
                                        wp.transform_point(X_sw_a, e1), edge_iter)
    p_b = (1.0 - u) * e0 + u * e1
    top, bottom = _capsule_segment(X_ws_a, scale_a[1])
    p_a = closest_point_line_segment(top, bottom, p_b)
    normal, distance = _separation(p_a, p_b)
    return True, p_a, p_b, normal, distance


@wp.func
def mesh_box_contact(point_id: int, mesh_a: wp.uint64, X_ws_a: wp.transform,
                     X_ws_b: wp.transform, X_sw_b: wp.transform, scale_a: wp.vec3,
                     scale_b: wp.vec3):
    """Vertex `point_id` of mesh a against box b."""
    p_a = mesh_vertex_world(mesh_a, point_id, X_ws_a, scale_a)
    query = wp.transform_point(X_sw_b, p_a)
    p_b = wp.transform_point(X_ws_b, closest_point_box(scale_b, query))
    normal = wp.normalize(p_a - p_b)
    if box_sdf(scale_b, query) < 0.0:
        normal = -normal
    return True, p_a, p_b, normal, wp.dot(p_a - p_b, normal)


@wp.func
def point_mesh_contact(p_a: wp.vec3, mesh_b: wp.uint64, X_ws_b: wp.transform,
                       X_sw_b: wp.transform, scale_b: wp.vec3, max_dist: float):
    """A point of shape a (a box corner or mesh vertex) against mesh b; the normal points out
    of b (its inside sign)."""
    found, p_b, sign = _mesh_closest_world(mesh_b, X_ws_b, X_sw_b, scale_b, p_a, max_dist)
    normal = wp.normalize(p_a - p_b) * sign
    return found, p_a, p_b, normal, wp.dot(p_a - p_b, normal)


@wp.func
def mesh_plane_contact(point_id: int, mesh_a: wp.uint64, X_ws_a: wp.transform,
                       X_ws_b: wp.transform, X_sw_b: wp.transform, scale_a: wp.vec3,
                       scale_b: wp.vec3, margin: float):
    """Vertex `point_id` of mesh a against plane b (deep points beside a finite plane are
    skipped)."""
    p_a = mesh_vertex_world(mesh_a, point_id, X_ws_a, scale_a)
    query = wp.transform_point(X_sw_b, p_a)
    p_b = wp.transform_point(X_ws_b, closest_point_plane(scale_b[0], scale_b[1], query))
    infinite = scale_b[0] == 0.0 and scale_b[1] == 0.0
    within = wp.abs(query[0]) < scale_b[0] and wp.abs(query[2]) < scale_b[1]
    if infinite or within:
        normal = wp.transform_vector(X_ws_b, _UP)
        return True, p_a, p_b, normal, wp.dot(p_a - p_b, normal)
    normal, distance = _separation(p_a, p_b)
    return distance >= -margin, p_a, p_b, normal, distance
