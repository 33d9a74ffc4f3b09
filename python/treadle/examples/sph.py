"""Smoothed-particle hydrodynamics: a block of fluid collapses under gravity in a box.

Each step rebuilds a wp.HashGrid over the particles, sums every particle's density over its
neighbours (poly6 kernel) through ``wp.hash_grid_query``, derives the pressure from the
density (a stiff equation of state), adds the pressure (spiky kernel gradient) and viscosity
(kernel Laplacian) forces of the neighbours, and integrates with semi-implicit Euler, with
damped reflection off the box walls. The script prints the mean density and the height of the
fluid as it settles.

    python -m treadle.examples.sph [--device cpu] [--steps 300] [--n 12]
"""

import argparse
import math
import time

import numpy as np

import treadle as wp

GRAVITY = wp.constant(wp.vec3(0.0, -9.8, 0.0))


@wp.func
def poly6(r2: float, h: float):
    # (h^2 - r^2)^3, scaled by the 3-D normalisation 315 / (64 pi h^9)
    if r2 >= h * h:
        return 0.0
    d = h * h - r2
    return 315.0 / (64.0 * wp.pi * wp.pow(h, 9.0)) * d * d * d


@wp.kernel
def compute_density(grid: wp.uint64, x: wp.array(dtype=wp.vec3), mass: float, h: float,
                    rho: wp.array(dtype=float)):
    t = wp.tid()
    i = wp.hash_grid_point_id(grid, t)  # threads in cell order
    p = x[i]
    s = float(0.0)
    for j in wp.hash_grid_query(grid, p, h):
        d = p - x[j]
        s += mass * poly6(wp.dot(d, d), h)
    rho[i] = s


@wp.kernel
def compute_forces(grid: wp.uint64, x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3),
                   rho: wp.array(dtype=float), mass: float, h: float, rest_density: float,
                   stiffness: float, viscosity: float, f: wp.array(dtype=wp.vec3)):
    t = wp.tid()
    i = wp.hash_grid_point_id(grid, t)
    p = x[i]
    pi = stiffness * (rho[i] - rest_density)
    spiky = -45.0 / (wp.pi * wp.pow(h, 6.0))
    lap = 45.0 / (wp.pi * wp.pow(h, 6.0))
    force = wp.vec3(0.0)
    for j in wp.hash_grid_query(grid, p, h):
        if j != i:
            d = p - x[j]
            r = wp.length(d)
            if r < h and r > 1.0e-6:
                pj = stiffness * (rho[j] - rest_density)
                # symmetric pressure force and viscosity, Muller et al. (2003)
                force += (-mass * (pi + pj) / (2.0 * rho[j]) * spiky * (h - r) * (h - r) / r) * d
                force += (viscosity * mass / rho[j] * lap * (h - r)) * (v[j] - v[i])
    f[i] = force / rho[i] + GRAVITY


@wp.kernel
def integrate(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3),
              f: wp.array(dtype=wp.vec3), dt: float, box: float, damping: float):
    i = wp.tid()
    vel = v[i] + f[i] * dt
    pos = x[i] + vel * dt
    for k in range(3):
        if pos[k] < 0.0:
            pos[k] = 0.0
            vel[k] = -vel[k] * damping
        if pos[k] > box:
            pos[k] = box
            vel[k] = -vel[k] * damping
    x[i] = pos
    v[i] = vel


class Example:
    """An SPH block of n^3 particles (spacing h / 2) in a cube of side `box`."""

    def __init__(self, n=12, device=None, seed=0):
        self.device = wp.get_device(device)
        self.h = 0.1
        spacing = 0.5 * self.h
        self.rest_density = 1000.0
        self.mass = self.rest_density * spacing**3
        self.stiffness = 20.0
        self.viscosity = 0.05
        self.dt = 1.0e-3
        self.box = 1.0
        rng = np.random.default_rng(seed)
        g = np.stack(np.meshgrid(*(np.arange(n),) * 3, indexing="ij"), -1).reshape(-1, 3)
        pts = 0.05 + g * spacing + rng.uniform(0.0, 0.01 * spacing, g.shape)
        self.x = wp.array(pts, dtype=wp.vec3, device=self.device)
        self.v = wp.zeros(len(pts), dtype=wp.vec3, device=self.device)
        self.f = wp.zeros(len(pts), dtype=wp.vec3, device=self.device)
        self.rho = wp.zeros(len(pts), dtype=float, device=self.device)
        cells = int(math.ceil(self.box / self.h)) + 1
        self.grid = wp.HashGrid(cells, cells, cells, device=self.device)

    def density(self):
        """Rebuilds the grid and computes every particle's density."""
        self.grid.build(self.x, self.h)
        wp.launch(compute_density, dim=len(self.x),
                  inputs=[self.grid.id, self.x, self.mass, self.h, self.rho], device=self.device)

    def step(self):
        self.density()
        wp.launch(compute_forces, dim=len(self.x),
                  inputs=[self.grid.id, self.x, self.v, self.rho, self.mass, self.h,
                          self.rest_density, self.stiffness, self.viscosity, self.f],
                  device=self.device)
        wp.launch(integrate, dim=len(self.x),
                  inputs=[self.x, self.v, self.f, self.dt, self.box, 0.5], device=self.device)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default=None)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--n", type=int, default=12)
    args = parser.parse_args()
    ex = Example(args.n, args.device)
    start = time.perf_counter()
    for s in range(args.steps):
        ex.step()
        if s % 50 == 0 or s == args.steps - 1:
            height = ex.x.numpy()[:, 1].max()
            print(f"step {s:4d}  mean density {ex.rho.numpy().mean():8.2f}  "
                  f"fluid height {height:.3f}")
    print(f"{args.steps} steps of {len(ex.x)} particles in {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
