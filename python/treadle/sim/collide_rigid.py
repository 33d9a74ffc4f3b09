"""treadle.sim.collide_rigid -- rigid contact generation in two kernels.

``broadphase_collision_pairs`` (one thread per shape pair, never on the tape) orders each pair
by geometry kind, drops pairs whose bounding spheres are apart by more than the margin or whose
bodies are both static, and reserves one candidate slot per contact point the pair may have
(``rigid_contact_broad_shape0/1``, ``rigid_contact_point_id``). ``handle_contact_pairs`` (one
thread per candidate, differentiable) runs the pair's narrow phase (collide_pairs.py) and keeps
candidates within ``rigid_contact_margin`` as contacts: the points on both shapes in their
bodies' frames, the world normal from b to a, and the thickness offsets.
"""

import treadle as wp

from .collide_pairs import (box_box_contact, box_capsule_contact, box_plane_contact,
                            capsule_capsule_contact, capsule_mesh_contact, capsule_plane_contact,
                            mesh_box_contact, mesh_capsule_contact, mesh_plane_contact,
                            mesh_vertex_world, point_mesh_contact, sphere_contact)
from .collide_geometry import closest_point_plane, get_box_vertex
from .collide_soft import counter_increment, limited_counter_increment
from .constants import GEO_BOX, GEO_CAPSULE, GEO_MESH, GEO_PLANE, GEO_SPHERE
from .model_core import ModelShapeGeometry


@wp.func
def _world_shape(shape: int, body_q: wp.array(dtype=wp.transform),
                 shape_X_bs: wp.array(dtype=wp.transform), shape_body: wp.array(dtype=int)):
    body = shape_body[shape]
    if body == -1:
        return shape_X_bs[shape]
    return body_q[body] * shape_X_bs[shape]


@wp.func
def pair_point_counts(type_a: int, type_b: int, scale_b: wp.vec3, points_a: int, points_b: int,
                      iterate_mesh_vertices: bool):
    """Candidate points of an ordered pair (type_a <= type_b): those of a against b, those of
    b against a, and whether the pair is handled at all."""
    finite_b = not (scale_b[0] == 0.0 and scale_b[1] == 0.0)
    mesh_points_b = int(0)
    if iterate_mesh_vertices:
        mesh_points_b = points_b
    if type_a == GEO_SPHERE:
        return 1, 0, True
    if type_a == GEO_CAPSULE:
        if type_b == GEO_PLANE:
            return wp.where(finite_b, 6, 2), 0, True
        if type_b == GEO_MESH:
            return 2, mesh_points_b, True
        return 2, 0, True
    if type_a == GEO_BOX:
        if type_b == GEO_BOX:
            return 12, 12, True
        if type_b == GEO_MESH:
            return 8, mesh_points_b, True
        if type_b == GEO_PLANE:
            return wp.where(finite_b, 12, 8), 0, True
        return 8, 0, True
    if type_a == GEO_MESH:
        if type_b == GEO_MESH:
            return points_a, points_b, True
        if type_b == GEO_PLANE:
            return points_a, 0, True
    return 0, 0, False


@wp.func
def _mesh_points(geo: ModelShapeGeometry, shape: int):
    if geo.type[shape] == GEO_MESH:
        return wp.mesh_get(geo.source[shape]).points.shape[0]
    return 0


@wp.kernel(enable_backward=False)
def broadphase_collision_pairs(contact_pairs: wp.array(dtype=int, ndim=2),
                               body_q: wp.array(dtype=wp.transform),
                               shape_X_bs: wp.array(dtype=wp.transform),
                               shape_body: wp.array(dtype=int), body_mass: wp.array(dtype=float),
                               num_shapes: int, geo: ModelShapeGeometry,
                               collision_radius: wp.array(dtype=float), rigid_contact_max: int,
                               rigid_contact_margin: float, mesh_contact_max: int,
                               iterate_mesh_vertices: bool, contact_count: wp.array(dtype=int),
                               contact_shape0: wp.array(dtype=int),
                               contact_shape1: wp.array(dtype=int),
                               contact_point_id: wp.array(dtype=int),
                               contact_point_limit: wp.array(dtype=int)):
    """Reserves candidate contact slots for shape pair contact_pairs[tid] (see the module)."""
    tid = wp.tid()
    a = contact_pairs[tid, 0]
    b = contact_pairs[tid, 1]
    mass_a = float(0.0)
    mass_b = float(0.0)
    if shape_body[a] >= 0:
        mass_a = body_mass[shape_body[a]]
    if shape_body[b] >= 0:
        mass_b = body_mass[shape_body[b]]
    if mass_a == 0.0 and mass_b == 0.0:
        return
    if geo.type[a] >= geo.type[b]:
        swap = a
        a = b
        b = swap
    type_a = geo.type[a]
    type_b = geo.type[b]
    X_ws_a = _world_shape(a, body_q, shape_X_bs, shape_body)
    X_ws_b = _world_shape(b, body_q, shape_X_bs, shape_body)
    p_a = wp.transform_get_translation(X_ws_a)
    if type_b == GEO_PLANE:
        if type_a == GEO_PLANE:
            return
        query = wp.transform_point(wp.transform_inverse(X_ws_b), p_a)
        scale = geo.scale[b]
        gap = wp.length(query - closest_point_plane(scale[0], scale[1], query))
        if gap > collision_radius[a] + rigid_contact_margin:
            return
    else:
        gap = wp.length(p_a - wp.transform_get_translation(X_ws_b)) * 0.5 - 0.1
        if gap > collision_radius[a] + collision_radius[b] + rigid_contact_margin:
            return
    count_ab, count_ba, handled = pair_point_counts(type_a, type_b, geo.scale[b],
                                                    _mesh_points(geo, a), _mesh_points(geo, b),
                                                    iterate_mesh_vertices)
    total = count_ab + count_ba
    if not handled or total == 0:
        return
    index = wp.atomic_add(contact_count, 0, total)
    if index + total - 1 >= rigid_contact_max:
        print("Number of rigid contacts exceeded limit. Increase Model.rigid_contact_max.")
        return
    for i in range(count_ab):
        contact_shape0[index + i] = a
        contact_shape1[index + i] = b
        contact_point_id[index + i] = i
    for i in range(count_ba):
        contact_shape0[index + count_ab + i] = b
        contact_shape1[index + count_ab + i] = a
        contact_point_id[index + count_ab + i] = i
    if contact_point_limit:
        limit_ab = count_ab
        limit_ba = count_ba
        if mesh_contact_max > 0:
            if type_a == GEO_MESH:
                limit_ab = wp.min(mesh_contact_max, count_ab)
            if type_b == GEO_MESH:
                limit_ba = wp.min(mesh_contact_max, count_ba)
        if a * num_shapes + b < contact_point_limit.shape[0]:
            contact_point_limit[a * num_shapes + b] = limit_ab
        if b * num_shapes + a < contact_point_limit.shape[0]:
            contact_point_limit[b * num_shapes + a] = limit_ba


@wp.func
def narrow_phase(type_a: int, type_b: int, point_id: int, X_ws_a: wp.transform,
                 X_ws_b: wp.transform, geo: ModelShapeGeometry, shape_a: int, shape_b: int,
                 margin: float, thickness: float, edge_sdf_iter: int):
    """(found, p_a, p_b, normal, distance) of candidate `point_id` of shapes a and b."""
    X_sw_a = wp.transform_inverse(X_ws_a)
    X_sw_b = wp.transform_inverse(X_ws_b)
    scale_a = geo.scale[shape_a]
    scale_b = geo.scale[shape_b]
    mesh_a = geo.source[shape_a]
    mesh_b = geo.source[shape_b]
    max_dist_b = (thickness + margin) / wp.min(scale_b)
    if type_a == GEO_SPHERE:
        return sphere_contact(type_b, X_ws_a, X_ws_b, X_sw_b, scale_b, mesh_b, max_dist_b)
    if type_a == GEO_BOX and type_b == GEO_BOX:
        return box_box_contact(point_id, X_ws_a, X_ws_b, X_sw_b, scale_a, scale_b, edge_sdf_iter)
    if type_a == GEO_BOX and type_b == GEO_CAPSULE:
        return box_capsule_contact(point_id, X_ws_a, X_sw_a, X_ws_b, scale_a, scale_b,
                                   edge_sdf_iter)
    if type_a == GEO_BOX and type_b == GEO_PLANE:
        return box_plane_contact(point_id, X_ws_a, X_sw_a, X_ws_b, X_sw_b, scale_a, scale_b,
                                 edge_sdf_iter)
    if type_a == GEO_CAPSULE and type_b == GEO_CAPSULE:
        return capsule_capsule_contact(point_id, X_ws_a, X_ws_b, X_sw_b, scale_a, scale_b,
                                       edge_sdf_iter)
    if type_a == GEO_CAPSULE and type_b == GEO_MESH:
        return capsule_mesh_contact(point_id, X_ws_a, X_ws_b, X_sw_b, scale_a, scale_b, mesh_b,
                                    max_dist_b, edge_sdf_iter)
    if type_a == GEO_MESH and type_b == GEO_CAPSULE:
        return mesh_capsule_contact(point_id, mesh_a, X_ws_a, X_ws_b, scale_a, scale_b)
    if type_a == GEO_CAPSULE and type_b == GEO_PLANE:
        return capsule_plane_contact(point_id, X_ws_a, X_sw_a, X_ws_b, X_sw_b, scale_a, scale_b,
                                     edge_sdf_iter)
    if type_a == GEO_MESH and type_b == GEO_BOX:
        return mesh_box_contact(point_id, mesh_a, X_ws_a, X_ws_b, X_sw_b, scale_a, scale_b)
    if type_a == GEO_BOX and type_b == GEO_MESH:
        p_a = wp.transform_point(X_ws_a, get_box_vertex(point_id, scale_a))
        return point_mesh_contact(p_a, mesh_b, X_ws_b, X_sw_b, scale_b, max_dist_b)
    if type_a == GEO_MESH and type_b == GEO_MESH:
        p_a = mesh_vertex_world(mesh_a, point_id, X_ws_a, scale_a)
        max_dist = (thickness + margin) / wp.min(wp.min(scale_a), wp.min(scale_b))
        return point_mesh_contact(p_a, mesh_b, X_ws_b, X_sw_b, scale_b, max_dist)
    if type_a == GEO_MESH and type_b == GEO_PLANE:
        return mesh_plane_contact(point_id, mesh_a, X_ws_a, X_ws_b, X_sw_b, scale_a, scale_b,
                                  margin)
    print("Unsupported geometry pair in collision handling")
    return False, wp.vec3(), wp.vec3(), wp.vec3(), 0.0


@wp.kernel
def handle_contact_pairs(body_q: wp.array(dtype=wp.transform),
                         shape_X_bs: wp.array(dtype=wp.transform),
                         shape_body: wp.array(dtype=int), geo: ModelShapeGeometry,
                         rigid_contact_margin: float, contact_broad_shape0: wp.array(dtype=int),
                         contact_broad_shape1: wp.array(dtype=int), num_shapes: int,
                         contact_point_id: wp.array(dtype=int),
                         contact_point_limit: wp.array(dtype=int), edge_sdf_iter: int,
                         contact_count: wp.array(dtype=int), contact_shape0: wp.array(dtype=int),
                         contact_shape1: wp.array(dtype=int),
                         contact_point0: wp.array(dtype=wp.vec3),
                         contact_point1: wp.array(dtype=wp.vec3),
                         contact_offset0: wp.array(dtype=wp.vec3),
                         contact_offset1: wp.array(dtype=wp.vec3),
                         contact_normal: wp.array(dtype=wp.vec3),
                         contact_thickness: wp.array(dtype=float),
                         contact_pairwise_counter: wp.array(dtype=int),
                         contact_tids: wp.array(dtype=int)):
    """Narrow phase of candidate tid; a contact within the margin is appended."""
    tid = wp.tid()
    shape_a = contact_broad_shape0[tid]
    shape_b = contact_broad_shape1[tid]
    if shape_a == shape_b:
        return
    pair_index = shape_a * num_shapes + shape_b
    contact_limit = int(-1)
    if contact_point_limit:
        contact_limit = contact_point_limit[pair_index]
        if contact_pairwise_counter[pair_index] >= contact_limit:
            return
    X_wb_a = wp.transform_identity()
    X_wb_b = wp.transform_identity()
    if shape_body[shape_a] >= 0:
        X_wb_a = body_q[shape_body[shape_a]]
    if shape_body[shape_b] >= 0:
        X_wb_b = body_q[shape_body[shape_b]]
    thickness_a = geo.thickness[shape_a]
    thickness_b = geo.thickness[shape_b]
    thickness = thickness_a + thickness_b
    found, p_a, p_b, normal, distance = narrow_phase(
        geo.type[shape_a], geo.type[shape_b], contact_point_id[tid], X_wb_a * shape_X_bs[shape_a],
        X_wb_b * shape_X_bs[shape_b], geo, shape_a, shape_b, rigid_contact_margin, thickness,
        edge_sdf_iter)
    if not found or distance - thickness >= rigid_contact_margin:
        return
    if contact_pairwise_counter:
        if limited_counter_increment(contact_pairwise_counter, pair_index, contact_tids, tid,
                                     contact_limit) == -1:
            return
    index = counter_increment(contact_count, 0, contact_tids, tid)
    X_bw_a = wp.transform_inverse(X_wb_a)
    X_bw_b = wp.transform_inverse(X_wb_b)
    contact_shape0[index] = shape_a
    contact_shape1[index] = shape_b
    contact_point0[index] = wp.transform_point(X_bw_a, p_a)
    contact_point1[index] = wp.transform_point(X_bw_b, p_b)
    contact_offset0[index] = wp.transform_vector(X_bw_a, -thickness_a * normal)
    contact_offset1[index] = wp.transform_vector(X_bw_b, thickness_b * normal)
    contact_normal[index] = normal
    contact_thickness[index] = thickness
