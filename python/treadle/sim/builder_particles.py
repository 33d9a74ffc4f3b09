"""treadle.sim.builder_particles -- the particle part of ``ModelBuilder``: single particles,
particle grids and damped springs between particles."""

import numpy as np

import treadle as wp

from .constants import PARTICLE_FLAG_ACTIVE


class ParticleBuilder:
    """Methods of ModelBuilder that add particles and springs (lists set up by its __init__)."""

    def add_particle(self, pos, vel, mass: float, radius: float = None,
                     flags=PARTICLE_FLAG_ACTIVE) -> int:
        """Adds a particle at `pos` with velocity `vel` and `mass` (0: kinematic), collision
        `radius` (default ``default_particle_radius``) and `flags` (``PARTICLE_FLAG_*``);
        returns its index."""
        self.particle_q.append(pos)
        self.particle_qd.append(vel)
        self.particle_mass.append(mass)
        self.particle_radius.append(self.default_particle_radius if radius is None else radius)
        self.particle_flags.append(flags)
        return self.particle_count - 1

    def add_spring(self, i: int, j, ke: float, kd: float, control: float):
        """Adds a damped spring between particles `i` and `j` with stiffness `ke`, damping `kd`
        and actuation `control`; its rest length is their present distance."""
        self.spring_indices.append(i)
        self.spring_indices.append(j)
        self.spring_stiffness.append(ke)
        self.spring_damping.append(kd)
        self.spring_control.append(control)
        delta = np.asarray(self.particle_q[i], dtype=np.float64) - np.asarray(self.particle_q[j])
        self.spring_rest_length.append(float(np.sqrt(np.dot(delta, delta))))

    def add_particle_grid(self, pos, rot, vel, dim_x: int, dim_y: int, dim_z: int, cell_x: float,
                          cell_y: float, cell_z: float, mass: float, jitter: float,
                          radius_mean: float = None, radius_std: float = 0.0) -> None:
        """Adds a dim_x x dim_y x dim_z block of particles of `mass`, spaced by the cell sizes,
        rotated by `rot` and placed at `pos`, each moved by up to `jitter` along each axis and
        given a radius drawn around `radius_mean` with deviation `radius_std` (a fixed seed,
        so the same call gives the same grid)."""
        radius_mean = self.default_particle_radius if radius_mean is None else radius_mean
        rng = np.random.default_rng(42)
        for z in range(dim_z):
            for y in range(dim_y):
                for x in range(dim_x):
                    v = wp.vec3(x * cell_x, y * cell_y, z * cell_z)
                    offset = wp.vec3(pos) + wp.vec3(rng.random(3) * jitter)
                    p = wp.quat_rotate(wp.quat(rot), v) + offset
                    r = radius_mean
                    if radius_std > 0.0:
                        r = radius_mean + rng.standard_normal() * radius_std
                    self.add_particle(p, vel, mass, r)
