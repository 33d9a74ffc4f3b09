"""treadle.sim.collide_trimesh -- the small kernel helpers of Warp's triangle-mesh self-collision
detection (vertex-triangle adjacency, triangle bounds, buffer initialisation). Warp's
``TriMeshCollisionDetector`` itself (BVH queries for VBD's self-contact) is not implemented
yet: constructing one raises NotImplementedError."""

import treadle as wp


@wp.func
def compute_tri_aabb(v1: wp.vec3, v2: wp.vec3, v3: wp.vec3):
    """Lower and upper corners of a triangle's bounding box."""
    return wp.min(wp.min(v1, v2), v3), wp.max(wp.max(v1, v2), v3)


@wp.kernel
def compute_tri_aabbs(pos: wp.array(dtype=wp.vec3), tri_indices: wp.array(dtype=wp.int32, ndim=2),
                      lower_bounds: wp.array(dtype=wp.vec3),
                      upper_bounds: wp.array(dtype=wp.vec3)):
    """Bounding box of each triangle."""
    t = wp.tid()
    lower, upper = compute_tri_aabb(pos[tri_indices[t, 0]], pos[tri_indices[t, 1]],
                                    pos[tri_indices[t, 2]])
    lower_bounds[t] = lower
    upper_bounds[t] = upper


@wp.kernel
def compute_edge_aabbs(pos: wp.array(dtype=wp.vec3),
                       edge_indices: wp.array(dtype=wp.int32, ndim=2),
                       lower_bounds: wp.array(dtype=wp.vec3),
                       upper_bounds: wp.array(dtype=wp.vec3)):
    """Bounding box of each bending edge's segment (columns 2 and 3)."""
    e = wp.tid()
    v1 = pos[edge_indices[e, 2]]
    v2 = pos[edge_indices[e, 3]]
    lower_bounds[e] = wp.min(v1, v2)
    upper_bounds[e] = wp.max(v1, v2)


@wp.func
def tri_is_neighbor(a_1: wp.int32, a_2: wp.int32, a_3: wp.int32, b_1: wp.int32, b_2: wp.int32,
                    b_3: wp.int32):
    """Whether triangles (a_1, a_2, a_3) and (b_1, b_2, b_3) share a vertex."""
    shared = int(0)
    for a in range(3):
        va = wp.where(a == 0, a_1, wp.where(a == 1, a_2, a_3))
        if va == b_1 or va == b_2 or va == b_3:
            shared = 1
    return shared != 0


@wp.func
def vertex_adjacent_to_triangle(v: wp.int32, a: wp.int32, b: wp.int32, c: wp.int32):
    """Whether vertex v is a corner of triangle (a, b, c)."""
    return v == a or v == b or v == c


@wp.kernel
def init_triangle_collision_data_kernel(query_radius: float,
                                        triangle_colliding_vertices_count: wp.array(dtype=wp.int32),
                                        triangle_colliding_vertices_min_dist: wp.array(dtype=float),
                                        resize_flags: wp.array(dtype=wp.int32)):
    """Clears each triangle's collision count, sets its closest distance to `query_radius`,
    and clears the three resize flags."""
    t = wp.tid()
    triangle_colliding_vertices_count[t] = 0
    triangle_colliding_vertices_min_dist[t] = query_radius
    if t == 0:
        for i in range(3):
            resize_flags[i] = 0


class TriMeshCollisionDetector:
    """Warp's vertex-triangle and edge-edge proximity queries of a cloth model; not in
    treadle.sim yet."""

    def __init__(self, model, *args, **kwargs):
        raise NotImplementedError("TriMeshCollisionDetector(): not implemented in treadle.sim "
                                  "yet")
