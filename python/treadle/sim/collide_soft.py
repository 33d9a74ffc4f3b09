"""treadle.sim.collide_soft -- particle-shape ("soft") contact generation: every particle is
tested against every shape but the ground plane, and each particle within ``margin`` + its
radius of a shape's surface becomes a contact (particle, shape, surface point and velocity in
the body frame, world normal) in the ``soft_contact_*`` buffers.

Contact slots come from an atomic counter. On a tape, the backward pass replays the kernel;
``counter_increment``'s replay reads the slot each thread received in the forward pass (kept
in ``soft_contact_tids``), so that the replay writes the same contacts to the same slots.
"""

import treadle as wp

from .collide_geometry import (box_sdf, box_sdf_grad, capsule_sdf, capsule_sdf_grad, cone_sdf,
                               cone_sdf_grad, cylinder_sdf, cylinder_sdf_grad, plane_sdf,
                               sphere_sdf, sphere_sdf_grad)
from .constants import (GEO_BOX, GEO_CAPSULE, GEO_CONE, GEO_CYLINDER, GEO_MESH, GEO_PLANE,
                        GEO_SDF, GEO_SPHERE, PARTICLE_FLAG_ACTIVE)
from .model_core import ModelShapeGeometry


@wp.func
def counter_increment(counter: wp.array(dtype=int), counter_index: int,
                      tids: wp.array(dtype=int), tid: int):
    """Takes the next slot of counter[counter_index] and records it as thread `tid`'s."""
    slot = wp.atomic_add(counter, counter_index, 1)
    tids[tid] = slot
    return slot


@wp.func_replay(counter_increment)
def replay_counter_increment(counter: wp.array(dtype=int), counter_index: int,
                             tids: wp.array(dtype=int), tid: int):
    """The slot thread `tid` took in the forward pass."""
    return tids[tid]


@wp.func
def limited_counter_increment(counter: wp.array(dtype=int), counter_index: int,
                              tids: wp.array(dtype=int), tid: int, index_limit: int):
    """counter_increment that gives -1 once `index_limit` slots are taken (no limit if < 0)."""
    slot = wp.atomic_add(counter, counter_index, 1)
    # no branch: treadle's replay substitution refuses a consumed atomic under one
    kept = wp.where(index_limit < 0, slot, wp.where(slot < index_limit, slot, -1))
    tids[tid] = kept
    return kept


@wp.func_replay(limited_counter_increment)
def replay_limited_counter_increment(counter: wp.array(dtype=int), counter_index: int,
                                     tids: wp.array(dtype=int), tid: int, index_limit: int):
    """The slot (or -1) thread `tid` got in the forward pass."""
    return tids[tid]


@wp.func
def shape_distance(geo_type: int, scale: wp.vec3, source: wp.uint64, x_local: wp.vec3,
                   max_dist: float):
    """Signed distance from `x_local` (shape frame) to the shape, the outward normal there and
    the surface velocity (non-zero for deforming meshes only); distance 1e6 when unknown."""
    d = float(1.0e6)
    n = wp.vec3()
    v = wp.vec3()
    if geo_type == GEO_SPHERE:
        d = sphere_sdf(wp.vec3(), scale[0], x_local)
        n = sphere_sdf_grad(wp.vec3(), scale[0], x_local)
    elif geo_type == GEO_BOX:
        d = box_sdf(scale, x_local)
        n = box_sdf_grad(scale, x_local)
    elif geo_type == GEO_CAPSULE:
        d = capsule_sdf(scale[0], scale[1], x_local)
        n = capsule_sdf_grad(scale[0], scale[1], x_local)
    elif geo_type == GEO_CYLINDER:
        d = cylinder_sdf(scale[0], scale[1], x_local)
        n = cylinder_sdf_grad(scale[0], scale[1], x_local)
    elif geo_type == GEO_CONE:
        d = cone_sdf(scale[0], scale[1], x_local)
        n = cone_sdf_grad(scale[0], scale[1], x_local)
    elif geo_type == GEO_MESH:
        face = int(0)
        u = float(0.0)
        w = float(0.0)
        sign = float(0.0)
        if wp.mesh_query_point_sign_normal(source, wp.cw_div(x_local, scale),
                                           max_dist / wp.min(scale), sign, face, u, w):
            surface = wp.cw_mul(wp.mesh_eval_position(source, face, u, w), scale)
            delta = x_local - surface
            d = wp.length(delta) * sign
            n = wp.normalize(delta) * sign
            v = wp.cw_mul(wp.mesh_eval_velocity(source, face, u, w), scale)
    elif geo_type == GEO_SDF:
        grad = wp.vec3()
        index = wp.volume_world_to_index(source, wp.cw_div(x_local, scale))
        d = wp.volume_sample_grad_f(source, index, wp.Volume.LINEAR, grad)
        n = wp.normalize(grad)
    elif geo_type == GEO_PLANE:
        d = plane_sdf(scale[0], scale[1], x_local)
        n = wp.vec3(0.0, 1.0, 0.0)
    return d, n, v


@wp.kernel
def create_soft_contacts(particle_x: wp.array(dtype=wp.vec3),
                         particle_radius: wp.array(dtype=float),
                         particle_flags: wp.array(dtype=wp.uint32),
                         body_X_wb: wp.array(dtype=wp.transform),
                         shape_X_bs: wp.array(dtype=wp.transform),
                         shape_body: wp.array(dtype=int), geo: ModelShapeGeometry, margin: float,
                         soft_contact_max: int, shape_count: int,
                         soft_contact_count: wp.array(dtype=int),
                         soft_contact_particle: wp.array(dtype=int),
                         soft_contact_shape: wp.array(dtype=int),
                         soft_contact_body_pos: wp.array(dtype=wp.vec3),
                         soft_contact_body_vel: wp.array(dtype=wp.vec3),
                         soft_contact_normal: wp.array(dtype=wp.vec3),
                         soft_contact_tids: wp.array(dtype=int)):
    """One thread per (particle, shape) pair; a close pair becomes a contact."""
    tid = wp.tid()
    particle = tid // shape_count
    shape = tid % shape_count
    if (particle_flags[particle] & PARTICLE_FLAG_ACTIVE) == 0:
        return
    body = shape_body[shape]
    X_wb = wp.transform_identity()
    if body >= 0:
        X_wb = body_X_wb[body]
    X_bs = shape_X_bs[shape]
    X_ws = X_wb * X_bs
    x_local = wp.transform_point(wp.transform_inverse(X_ws), particle_x[particle])
    radius = particle_radius[particle]
    d, n, v = shape_distance(geo.type[shape], geo.scale[shape], geo.source[shape], x_local,
                             margin + radius)
    if d < margin + radius:
        index = counter_increment(soft_contact_count, 0, soft_contact_tids, tid)
        if index < soft_contact_max:
            soft_contact_shape[index] = shape
            soft_contact_body_pos[index] = wp.transform_point(X_bs, x_local - n * d)
            soft_contact_body_vel[index] = wp.transform_vector(X_bs, v)
            soft_contact_particle[index] = particle
            soft_contact_normal[index] = wp.transform_vector(X_ws, n)
