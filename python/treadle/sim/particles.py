"""treadle.sim.particles -- particle-particle contact forces through the model's hash grid
(``warp.sim.particles``), and the single-contact force law the particle contacts share."""

import treadle as wp

from .constants import PARTICLE_FLAG_ACTIVE


@wp.func
def particle_force(n: wp.vec3, v: wp.vec3, c: float, k_n: float, k_d: float, k_f: float,
                   k_mu: float):
    """Force on a particle in contact along normal `n` at penetration `c` (< 0) moving at `v`
    relative to the other side."""
    vn = wp.dot(n, v)
    fn = c * k_n + wp.min(vn, 0.0) * k_d
    vt = v - n * vn
    vs = wp.length(vt)
    if vs > 0.0:
        vt = vt / vs
    return -n * fn - vt * wp.min(vs * k_f, k_mu * wp.abs(fn))


@wp.kernel
def eval_particle_forces_kernel(grid: wp.uint64, particle_x: wp.array(dtype=wp.vec3),
                                particle_v: wp.array(dtype=wp.vec3),
                                particle_radius: wp.array(dtype=float),
                                particle_flags: wp.array(dtype=wp.uint32), k_contact: float,
                                k_damp: float, k_friction: float, k_mu: float, k_cohesion: float,
                                max_radius: float, particle_f: wp.array(dtype=wp.vec3)):
    """Particle-particle contact forces through the model's hash grid (nothing until the grid
    is built). Like Warp's, it stores each particle's total, replacing the forces before it."""
    tid = wp.tid()
    i = wp.hash_grid_point_id(grid, tid)
    if i == -1:
        return
    if (particle_flags[i] & PARTICLE_FLAG_ACTIVE) == 0:
        return
    x = particle_x[i]
    radius = particle_radius[i]
    f = wp.vec3()
    query = wp.hash_grid_query(grid, x, radius + max_radius + k_cohesion)
    index = int(0)
    while wp.hash_grid_query_next(query, index):
        if (particle_flags[index] & PARTICLE_FLAG_ACTIVE) != 0 and index != i:
            n = x - particle_x[index]
            d = wp.length(n)
            err = d - radius - particle_radius[index]
            if err <= k_cohesion:
                f = f + particle_force(n / d, particle_v[i] - particle_v[index], err, k_contact,
                                       k_damp, k_friction, k_mu)
    particle_f[i] = f


def eval_particle_forces(model, state, forces):
    """Particle-particle contacts through ``model.particle_grid`` (once the program has built
    it with the particle positions); stores into `forces`."""
    if model.particle_count > 1 and model.particle_max_radius > 0.0:
        wp.launch(eval_particle_forces_kernel, dim=model.particle_count,
                  inputs=[model.particle_grid.id, state.particle_q, state.particle_qd,
                          model.particle_radius, model.particle_flags, model.particle_ke,
                          model.particle_kd, model.particle_kf, model.particle_mu,
                          model.particle_cohesion, model.particle_max_radius],
                  outputs=[forces], device=model.device)
