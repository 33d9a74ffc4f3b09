"""treadle.sim.forces_contact -- penalty contact forces of the Euler integrators: particles
against the ground plane, against shapes (the soft contacts ``collide`` found) and against
triangles, and rigid shapes against each other (particles against each other: particles.py).

Every contact pushes along its normal with ke times the penetration plus kd times the
approaching normal speed, and resists sliding with min(kf |v_t|, mu |f_n|) (Coulomb with a
viscous regularisation). Materials of a particle-shape pair are the means of the model's
``soft_contact_*`` values and the shape's; those of a rigid pair the means of both shapes'.
"""

import treadle as wp

from .collide_geometry import triangle_closest_point_barycentric
from .constants import PARTICLE_FLAG_ACTIVE
from .model_core import ModelShapeGeometry, ModelShapeMaterials
from .particles import particle_force


@wp.kernel
def eval_particle_ground_contacts(particle_x: wp.array(dtype=wp.vec3),
                                  particle_v: wp.array(dtype=wp.vec3),
                                  particle_radius: wp.array(dtype=float),
                                  particle_flags: wp.array(dtype=wp.uint32), ke: float, kd: float,
                                  kf: float, mu: float, ground: wp.array(dtype=float),
                                  f: wp.array(dtype=wp.vec3)):
    """Contact of each active particle with the plane ground (normal ground[0:3], offset
    ground[3])."""
    tid = wp.tid()
    if (particle_flags[tid] & PARTICLE_FLAG_ACTIVE) == 0:
        return
    x = particle_x[tid]
    n = wp.vec3(ground[0], ground[1], ground[2])
    c = wp.min(wp.dot(n, x) + ground[3] - particle_radius[tid], 0.0)
    if c >= 0.0:
        return
    # an atomic add, not f[tid] = f[tid] + ...: treadle's tape refuses a launch that
    # overwrites an array it read
    wp.atomic_add(f, tid, particle_force(n, particle_v[tid], c, ke, kd, kf, mu))


@wp.kernel
def eval_particle_contacts(particle_x: wp.array(dtype=wp.vec3),
                           particle_v: wp.array(dtype=wp.vec3),
                           body_q: wp.array(dtype=wp.transform),
                           body_qd: wp.array(dtype=wp.spatial_vector),
                           particle_radius: wp.array(dtype=float),
                           particle_flags: wp.array(dtype=wp.uint32),
                           body_com: wp.array(dtype=wp.vec3), shape_body: wp.array(dtype=int),
                           shape_materials: ModelShapeMaterials, particle_ke: float,
                           particle_kd: float, particle_kf: float, particle_mu: float,
                           particle_ka: float, contact_count: wp.array(dtype=int),
                           contact_particle: wp.array(dtype=int),
                           contact_shape: wp.array(dtype=int),
                           contact_body_pos: wp.array(dtype=wp.vec3),
                           contact_body_vel: wp.array(dtype=wp.vec3),
                           contact_normal: wp.array(dtype=wp.vec3), contact_max: int,
                           body_f_in_world_frame: bool, particle_f: wp.array(dtype=wp.vec3),
                           body_f: wp.array(dtype=wp.spatial_vector)):
    """Force of soft contact tid on its particle and, with the opposite sign, its body (a
    wrench about the body's centre of mass, or about the world origin)."""
    tid = wp.tid()
    if tid >= wp.min(contact_max, contact_count[0]):
        return
    shape = contact_shape[tid]
    body = shape_body[shape]
    particle = contact_particle[tid]
    if (particle_flags[particle] & PARTICLE_FLAG_ACTIVE) == 0:
        return
    X_wb = wp.transform_identity()
    com = wp.vec3()
    twist = wp.spatial_vector()
    if body >= 0:
        X_wb = body_q[body]
        com = body_com[body]
        twist = body_qd[body]
    bx = wp.transform_point(X_wb, contact_body_pos[tid])
    r = bx - wp.transform_point(X_wb, com)
    n = contact_normal[tid]
    c = wp.dot(n, particle_x[particle] - bx) - particle_radius[particle]
    if c > particle_ka:
        return
    ke = 0.5 * (particle_ke + shape_materials.ke[shape])
    kd = 0.5 * (particle_kd + shape_materials.kd[shape])
    kf = 0.5 * (particle_kf + shape_materials.kf[shape])
    mu = 0.5 * (particle_mu + shape_materials.mu[shape])
    body_w = wp.spatial_top(twist)
    bv = wp.spatial_bottom(twist) + wp.transform_vector(X_wb, contact_body_vel[tid])
    if body_f_in_world_frame:
        bv += wp.cross(body_w, bx)
    else:
        bv += wp.cross(body_w, r)
    v = particle_v[particle] - bv
    vn = wp.dot(n, v)
    vt = v - n * vn
    fn = n * c * ke
    fd = n * wp.min(vn, 0.0) * kd
    ft = wp.normalize(vt) * wp.min(kf * wp.length(vt), wp.abs(mu * c * ke))
    f_total = fn + (fd + ft)
    wp.atomic_sub(particle_f, particle, f_total)
    if body >= 0:
        if body_f_in_world_frame:
            wp.atomic_sub(body_f, body, wp.spatial_vector(wp.cross(bx, f_total), f_total))
        else:
            wp.atomic_add(body_f, body, wp.spatial_vector(wp.cross(r, f_total), f_total))


@wp.kernel
def eval_triangles_contact(num_particles: int, x: wp.array(dtype=wp.vec3),
                           v: wp.array(dtype=wp.vec3), indices: wp.array2d(dtype=int),
                           materials: wp.array2d(dtype=float),
                           particle_radius: wp.array(dtype=float), f: wp.array(dtype=wp.vec3)):
    """Particle-triangle repulsion (thread = face x particle), stiffness 1e5 on the squared
    distance inside the particle radius, as Warp's."""
    tid = wp.tid()
    face = tid // num_particles
    particle = tid % num_particles
    i = indices[face, 0]
    j = indices[face, 1]
    k = indices[face, 2]
    if i == particle or j == particle or k == particle:
        return
    pos = x[particle]
    bary = triangle_closest_point_barycentric(x[i], x[j], x[k], pos)
    diff = pos - (x[i] * bary[0] + x[j] * bary[1] + x[k] * bary[2])
    c = wp.min(wp.dot(diff, diff) - particle_radius[particle], 0.0)
    fn = wp.normalize(diff) * c * 1e5
    wp.atomic_sub(f, particle, fn)
    wp.atomic_add(f, i, fn * bary[0])
    wp.atomic_add(f, j, fn * bary[1])
    wp.atomic_add(f, k, fn * bary[2])


@wp.func
def _pair_material(shape: int, materials: ModelShapeMaterials):
    return wp.vec4(materials.ke[shape], materials.kd[shape], materials.kf[shape],
                   materials.mu[shape]), materials.ka[shape]


@wp.func
def _contact_point_velocity(body_qd: wp.array(dtype=wp.spatial_vector), body: int, bx: wp.vec3,
                            r: wp.vec3, world_frame: bool):
    if body < 0:
        return wp.vec3(0.0)
    twist = body_qd[body]
    if world_frame:
        return wp.spatial_bottom(twist) + wp.cross(wp.spatial_top(twist), bx)
    return wp.spatial_bottom(twist) + wp.cross(wp.spatial_top(twist), r)


@wp.kernel
def eval_rigid_contacts(body_q: wp.array(dtype=wp.transform),
                        body_qd: wp.array(dtype=wp.spatial_vector),
                        body_com: wp.array(dtype=wp.vec3), shape_materials: ModelShapeMaterials,
                        geo: ModelShapeGeometry, shape_body: wp.array(dtype=int),
                        contact_count: wp.array(dtype=int),
                        contact_point0: wp.array(dtype=wp.vec3),
                        contact_point1: wp.array(dtype=wp.vec3),
                        contact_normal: wp.array(dtype=wp.vec3),
                        contact_shape0: wp.array(dtype=int), contact_shape1: wp.array(dtype=int),
                        force_in_world_frame: bool, friction_smoothing: float,
                        body_f: wp.array(dtype=wp.spatial_vector)):
    """Force of rigid contact tid on both bodies. Friction normalises the sliding velocity with
    a Huber norm of width `friction_smoothing`, which keeps its gradient finite at rest."""
    tid = wp.tid()
    if tid >= contact_count[0]:
        return
    shape_a = contact_shape0[tid]
    shape_b = contact_shape1[tid]
    if shape_a == shape_b:
        return
    mat = wp.vec4()
    ka = float(0.0)
    shapes = int(0)
    body_a = int(-1)
    body_b = int(-1)
    thickness_a = float(0.0)
    thickness_b = float(0.0)
    if shape_a >= 0:
        m, a = _pair_material(shape_a, shape_materials)
        mat += m
        ka += a
        shapes += 1
        thickness_a = geo.thickness[shape_a]
        body_a = shape_body[shape_a]
    if shape_b >= 0:
        m, a = _pair_material(shape_b, shape_materials)
        mat += m
        ka += a
        shapes += 1
        thickness_b = geo.thickness[shape_b]
        body_b = shape_body[shape_b]
    if shapes > 0:
        mat = mat / float(shapes)
        ka = ka / float(shapes)
    n = contact_normal[tid]
    bx_a = contact_point0[tid]
    bx_b = contact_point1[tid]
    r_a = wp.vec3(0.0)
    r_b = wp.vec3(0.0)
    if body_a >= 0:
        bx_a = wp.transform_point(body_q[body_a], bx_a) - thickness_a * n
        r_a = bx_a - wp.transform_point(body_q[body_a], body_com[body_a])
    if body_b >= 0:
        bx_b = wp.transform_point(body_q[body_b], bx_b) + thickness_b * n
        r_b = bx_b - wp.transform_point(body_q[body_b], body_com[body_b])
    d = wp.dot(n, bx_a - bx_b)
    if d >= ka:
        return
    v = (_contact_point_velocity(body_qd, body_a, bx_a, r_a, force_in_world_frame)
         - _contact_point_velocity(body_qd, body_b, bx_b, r_b, force_in_world_frame))
    vn = wp.dot(n, v)
    vt = v - n * vn
    fn = d * mat[0]
    fd = wp.min(vn, 0.0) * mat[1] * wp.step(d)
    ft = wp.vec3(0.0)
    if d < 0.0:
        vs = wp.norm_huber(vt, delta=friction_smoothing)
        if vs > 0.0:
            ft = vt / vs * wp.min(mat[2] * vs, -mat[3] * (fn + fd))
    f_total = n * (fn + fd) + ft
    if body_a >= 0:
        if force_in_world_frame:
            wp.atomic_add(body_f, body_a, wp.spatial_vector(wp.cross(bx_a, f_total), f_total))
        else:
            wp.atomic_sub(body_f, body_a, wp.spatial_vector(wp.cross(r_a, f_total), f_total))
    if body_b >= 0:
        if force_in_world_frame:
            wp.atomic_sub(body_f, body_b, wp.spatial_vector(wp.cross(bx_b, f_total), f_total))
        else:
            wp.atomic_add(body_f, body_b, wp.spatial_vector(wp.cross(r_b, f_total), f_total))
