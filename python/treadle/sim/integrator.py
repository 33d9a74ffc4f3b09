"""treadle.sim.integrator -- the ``Integrator`` base class and its two time-stepping kernels:
symplectic (semi-implicit) Euler for particles and for rigid bodies.

Both take the forces accumulated in the input state, update velocities first and positions
with the new velocities. A body's linear velocity is that of its centre of mass; its angular
velocity is integrated in the body frame with the gyroscopic term, and its orientation with the
quaternion derivative, renormalised.
"""

import treadle as wp

from .constants import PARTICLE_FLAG_ACTIVE


@wp.kernel
def integrate_particles(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3),
                        f: wp.array(dtype=wp.vec3), w: wp.array(dtype=float),
                        particle_flags: wp.array(dtype=wp.uint32), gravity: wp.vec3, dt: float,
                        v_max: float, x_new: wp.array(dtype=wp.vec3),
                        v_new: wp.array(dtype=wp.vec3)):
    """One symplectic Euler step of each particle: v += (f w + g) dt (gravity only for
    particles with mass), speed clamped to `v_max`, x += v dt. Inactive particles stay put."""
    tid = wp.tid()
    x0 = x[tid]
    if (particle_flags[tid] & PARTICLE_FLAG_ACTIVE) == 0:
        x_new[tid] = x0
        v_new[tid] = wp.vec3(0.0)
        return
    inv_mass = w[tid]
    v1 = v[tid] + (f[tid] * inv_mass + gravity * wp.step(-inv_mass)) * dt
    speed = wp.length(v1)
    if speed > v_max:
        v1 *= v_max / speed
    x_new[tid] = x0 + v1 * dt
    v_new[tid] = v1


@wp.func
def integrate_rigid_body(q: wp.transform, qd: wp.spatial_vector, f: wp.spatial_vector,
                         com: wp.vec3, inertia: wp.mat33, inv_mass: float, inv_inertia: wp.mat33,
                         gravity: wp.vec3, angular_damping: float, dt: float):
    """One symplectic Euler step of a rigid body: (new pose, new twist). `f` is the world
    wrench about the centre of mass `com` (body frame)."""
    p0 = wp.transform_get_translation(q)
    r0 = wp.transform_get_rotation(q)
    w0 = wp.spatial_top(qd)
    v0 = wp.spatial_bottom(qd)
    torque = wp.spatial_top(f)
    force = wp.spatial_bottom(f)
    v1 = v0 + (force * inv_mass + gravity * wp.nonzero(inv_mass)) * dt
    com1 = p0 + wp.quat_rotate(r0, com) + v1 * dt
    w_body = wp.quat_rotate_inv(r0, w0)
    torque_body = wp.quat_rotate_inv(r0, torque) - wp.cross(w_body, inertia * w_body)
    w1 = wp.quat_rotate(r0, w_body + inv_inertia * torque_body * dt)
    r1 = wp.normalize(r0 + wp.quat(w1, 0.0) * r0 * 0.5 * dt)
    w1 *= 1.0 - angular_damping * dt
    return wp.transform(com1 - wp.quat_rotate(r1, com), r1), wp.spatial_vector(w1, v1)


@wp.kernel
def integrate_bodies(body_q: wp.array(dtype=wp.transform),
                     body_qd: wp.array(dtype=wp.spatial_vector),
                     body_f: wp.array(dtype=wp.spatial_vector), body_com: wp.array(dtype=wp.vec3),
                     m: wp.array(dtype=float), I: wp.array(dtype=wp.mat33),
                     inv_m: wp.array(dtype=float), inv_I: wp.array(dtype=wp.mat33),
                     gravity: wp.vec3, angular_damping: float, dt: float,
                     body_q_new: wp.array(dtype=wp.transform),
                     body_qd_new: wp.array(dtype=wp.spatial_vector)):
    """One symplectic Euler step of each rigid body (integrate_rigid_body)."""
    tid = wp.tid()
    q_new, qd_new = integrate_rigid_body(body_q[tid], body_qd[tid], body_f[tid], body_com[tid],
                                         I[tid], inv_m[tid], inv_I[tid], gravity,
                                         angular_damping, dt)
    body_q_new[tid] = q_new
    body_qd_new[tid] = qd_new


class Integrator:
    """Base of the integrators: steps bodies and particles with the kernels above."""

    def integrate_bodies(self, model, state_in, state_out, dt: float,
                         angular_damping: float = 0.0):
        """Steps the model's rigid bodies from `state_in` to `state_out` by `dt` seconds."""
        if model.body_count:
            wp.launch(integrate_bodies, dim=model.body_count,
                      inputs=[state_in.body_q, state_in.body_qd, state_in.body_f, model.body_com,
                              model.body_mass, model.body_inertia, model.body_inv_mass,
                              model.body_inv_inertia, model.gravity, angular_damping, dt],
                      outputs=[state_out.body_q, state_out.body_qd], device=model.device)

    def integrate_particles(self, model, state_in, state_out, dt: float):
        """Steps the model's particles from `state_in` to `state_out` by `dt` seconds."""
        if model.particle_count:
            wp.launch(integrate_particles, dim=model.particle_count,
                      inputs=[state_in.particle_q, state_in.particle_qd, state_in.particle_f,
                              model.particle_inv_mass, model.particle_flags, model.gravity, dt,
                              model.particle_max_velocity],
                      outputs=[state_out.particle_q, state_out.particle_qd], device=model.device)

    def simulate(self, model, state_in, state_out, dt: float, control=None):
        """Advances `state_in` by `dt` into `state_out` (control: the model's by default)."""
        raise NotImplementedError(f"{type(self).__name__}.simulate(): not implemented")


class UnimplementedIntegrator(Integrator):
    """Base of the integrators of Warp that treadle.sim does not have yet (XPBD, Featherstone,
    VBD): their names exist, so programs may test ``isinstance`` against them, and
    constructing one raises NotImplementedError."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__}(): not implemented in treadle.sim yet "
                                  "(SemiImplicitIntegrator is)")
