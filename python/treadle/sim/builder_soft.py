"""treadle.sim.builder_soft -- the volumetric part of ``ModelBuilder``: tetrahedral FEM elements
(Neo-Hookean, Lame parameters k_mu and k_lambda) and the soft-body helpers that fill a box or a
tetrahedral mesh with them, covering the open faces with FEM triangles.

A tetrahedron's rest pose is the inverse of its edge matrix [x1-x0, x2-x0, x3-x0]
(``tet_poses``); its rest volume is a sixth of that matrix's determinant.
"""

import numpy as np

import treadle as wp

from .host_utils import rotate_points


class _OpenFaces:
    """Triangle faces seen an odd number of times (the surface of a set of tetrahedra), each
    kept in the winding of its first appearance, in order of appearance."""

    def __init__(self):
        self.faces = {}

    def toggle(self, i, j, k):
        key = tuple(sorted((i, j, k)))
        if key in self.faces:
            del self.faces[key]
        else:
            self.faces[key] = (i, j, k)

    def add_tetrahedron(self, v0, v1, v2, v3):
        for face in ((v0, v2, v1), (v1, v2, v3), (v0, v1, v3), (v0, v3, v2)):
            self.toggle(*face)


class SoftBuilder:
    """Methods of ModelBuilder that add tetrahedra and soft bodies."""

    def add_tetrahedron(self, i: int, j: int, k: int, l: int, k_mu: float = 1.0e3,
                        k_lambda: float = 1.0e3, k_damp: float = 0.0) -> float:
        """Adds a tetrahedral FEM element over particles i, j, k, l at rest in their present
        positions; returns its signed rest volume (an inverted element, volume <= 0, is not
        added)."""
        p, q, r, s = (np.array(self.particle_q[v], dtype=np.float64) for v in (i, j, k, l))
        dm = np.array((q - p, r - p, s - p)).T
        volume = float(np.linalg.det(dm) / 6.0)
        if volume <= 0.0:
            print("inverted tetrahedral element")
            return volume
        self.tet_indices.append((i, j, k, l))
        self.tet_poses.append(np.linalg.inv(dm).tolist())
        self.tet_activations.append(0.0)
        self.tet_materials.append((k_mu, k_lambda, k_damp))
        return volume

    def _surface_settings(self, tri_ke, tri_ka, tri_kd, tri_drag, tri_lift):
        return (self.default_tri_ke if tri_ke is None else tri_ke,
                self.default_tri_ka if tri_ka is None else tri_ka,
                self.default_tri_kd if tri_kd is None else tri_kd,
                self.default_tri_drag if tri_drag is None else tri_drag,
                self.default_tri_lift if tri_lift is None else tri_lift)

    def add_soft_grid(self, pos, rot, vel, dim_x: int, dim_y: int, dim_z: int, cell_x: float,
                      cell_y: float, cell_z: float, density: float, k_mu: float, k_lambda: float,
                      k_damp: float, fix_left: bool = False, fix_right: bool = False,
                      fix_top: bool = False, fix_bottom: bool = False, tri_ke: float = None,
                      tri_ka: float = None, tri_kd: float = None, tri_drag: float = None,
                      tri_lift: float = None) -> None:
        """Adds a box of dim_x x dim_y x dim_z cells, each cut into five tetrahedra (mirrored
        in alternate cells so that faces match), with FEM triangles on its surface. Every
        particle gets the mass of one cell (cell volume x `density`); fixed sides get mass 0."""
        surface = self._surface_settings(tri_ke, tri_ka, tri_kd, tri_drag, tri_lift)
        start = len(self.particle_q)
        mass = cell_x * cell_y * cell_z * density
        cells = [(x, y, z) for z in range(dim_z + 1) for y in range(dim_y + 1)
                 for x in range(dim_x + 1)]
        points = rotate_points(rot, np.array(cells) * (cell_x, cell_y, cell_z))
        points += np.asarray(pos, dtype=np.float64)
        for (x, y, z), p in zip(cells, points):
            fixed = ((fix_left and x == 0) or (fix_right and x == dim_x)
                     or (fix_top and y == dim_y) or (fix_bottom and y == 0))
            self.add_particle(wp.vec3(p), vel, 0.0 if fixed else mass)

        def index(x, y, z):
            return start + (dim_x + 1) * (dim_y + 1) * z + (dim_x + 1) * y + x

        faces = _OpenFaces()
        for z in range(dim_z):
            for y in range(dim_y):
                for x in range(dim_x):
                    v = [index(x, y, z), index(x + 1, y, z), index(x + 1, y, z + 1),
                         index(x, y, z + 1), index(x, y + 1, z), index(x + 1, y + 1, z),
                         index(x + 1, y + 1, z + 1), index(x, y + 1, z + 1)]
                    if (x & 1) ^ (y & 1) ^ (z & 1):
                        tets = ((0, 1, 4, 3), (2, 3, 6, 1), (5, 4, 1, 6), (7, 6, 3, 4),
                                (4, 1, 6, 3))
                    else:
                        tets = ((1, 2, 5, 0), (3, 0, 7, 2), (4, 7, 0, 5), (6, 5, 2, 7),
                                (5, 2, 7, 0))
                    for a, b, c, d in tets:
                        self.add_tetrahedron(v[a], v[b], v[c], v[d], k_mu, k_lambda, k_damp)
                        faces.add_tetrahedron(v[a], v[b], v[c], v[d])
        for i, j, k in faces.faces.values():
            self.add_triangle(i, j, k, *surface)

    def add_soft_mesh(self, pos, rot, scale: float, vel, vertices, indices, density: float,
                      k_mu: float, k_lambda: float, k_damp: float, tri_ke: float = None,
                      tri_ka: float = None, tri_kd: float = None, tri_drag: float = None,
                      tri_lift: float = None) -> None:
        """Adds a soft body from a tetrahedral mesh (`vertices`, `indices` 4 per element,
        flattened) scaled, rotated and placed like add_cloth_mesh; each tetrahedron gives a
        quarter of its mass (`density` x volume) to each of its particles, and the open faces
        become FEM triangles."""
        surface = self._surface_settings(tri_ke, tri_ka, tri_kd, tri_drag, tri_lift)
        start = len(self.particle_q)
        points = rotate_points(rot, np.array([(v[0], v[1], v[2]) for v in vertices]) * scale)
        for p in points + np.asarray(pos, dtype=np.float64):
            self.add_particle(wp.vec3(p), vel, 0.0)
        faces = _OpenFaces()
        tets = np.asarray(indices, dtype=np.int64).reshape(-1, 4) + start
        for v0, v1, v2, v3 in tets.tolist():
            volume = self.add_tetrahedron(v0, v1, v2, v3, k_mu, k_lambda, k_damp)
            if volume > 0.0:
                for v in (v0, v1, v2, v3):
                    self.particle_mass[v] += density * volume / 4.0
                faces.add_tetrahedron(v0, v1, v2, v3)
        for i, j, k in faces.faces.values():
            try:
                self.add_triangle(i, j, k, *surface)
            except np.linalg.LinAlgError:
                continue
