"""treadle.sim.builder_cloth -- the cloth part of ``ModelBuilder``: triangular FEM membrane
elements, bending edges between neighbouring triangles, and the cloth helpers that make both
from a grid or a triangle mesh.

A triangle's rest pose is the inverse of its 2x2 edge matrix in a frame of its own plane
(``tri_poses``); its area is half that matrix's determinant. An edge (o0, o1, v0, v1) bends
across v0-v1 between the triangles (o0, v0, v1) and (o1, v1, v0); -1 marks a missing one.
"""

import numpy as np

import treadle as wp

from .._src.utils import MeshAdjacency
from .constants import PARTICLE_FLAG_ACTIVE
from .host_utils import rotate_points


def _normalized(a):
    length = np.linalg.norm(a, axis=-1, keepdims=True)
    return a / np.where(length == 0.0, 1.0, length)


def _triangle_rest_frames(p, q, r):
    """Edge matrices D (n x 2 x 2) of triangles (p, q, r) in their own planes, and areas."""
    qp, rp = q - p, r - p
    normal = _normalized(np.cross(qp, rp))
    e1 = _normalized(qp)
    e2 = _normalized(np.cross(normal, e1))
    basis = np.stack((e1, e2), axis=1)  # rows e1, e2
    edges = np.stack((qp, rp), axis=2)  # columns qp, rp
    d = basis @ edges
    return d, np.linalg.det(d) / 2.0


def _edge_rest_angles(x1, x2, x3, x4):
    """Signed dihedral angles across edges x3-x4 between triangles (x1, x3, x4), (x2, x4, x3)."""
    n1 = _normalized(np.cross(x3 - x1, x4 - x1))
    n2 = _normalized(np.cross(x4 - x2, x3 - x2))
    e = _normalized(x4 - x3)
    cos_angle = np.clip(np.sum(n1 * n2, axis=-1), -1.0, 1.0)
    return np.arccos(cos_angle) * np.sign(np.sum(np.cross(n2, n1) * e, axis=-1))


def _defaults(values, default, count):
    return [default] * count if values is None else values


class ClothBuilder:
    """Methods of ModelBuilder that add triangles, bending edges and cloth."""

    def _positions(self, indices):
        """Positions (n x 3, float64) of the particles `indices` (-1 and other negative
        indices count from the end, as in a list)."""
        q = self.particle_q
        return np.array([q[i] for i in np.asarray(indices).reshape(-1).tolist()],
                        dtype=np.float64).reshape(-1, 3)

    def add_triangle(self, i: int, j: int, k: int, tri_ke: float = None, tri_ka: float = None,
                     tri_kd: float = None, tri_drag: float = None,
                     tri_lift: float = None) -> float:
        """Adds a triangular FEM element over particles i, j, k at rest in their present
        positions, with the builder's ``default_tri_*`` for parameters not given; returns its
        rest area (0.0, and nothing is added, for a degenerate triangle)."""
        d, area = _triangle_rest_frames(*(self._positions([v]) for v in (i, j, k)))
        if area[0] <= 0.0:
            print("inverted or degenerate triangle element")
            return 0.0
        material = (self.default_tri_ke if tri_ke is None else tri_ke,
                    self.default_tri_ka if tri_ka is None else tri_ka,
                    self.default_tri_kd if tri_kd is None else tri_kd,
                    self.default_tri_drag if tri_drag is None else tri_drag,
                    self.default_tri_lift if tri_lift is None else tri_lift)
        self.tri_indices.append((i, j, k))
        self.tri_poses.append(np.linalg.inv(d[0]).tolist())
        self.tri_activations.append(0.0)
        self.tri_materials.append(material)
        self.tri_areas.append(float(area[0]))
        return float(area[0])

    def add_triangles(self, i, j, k, tri_ke=None, tri_ka=None, tri_kd=None, tri_drag=None,
                      tri_lift=None):
        """Adds triangular FEM elements over the particles i[n], j[n], k[n] (arrays), with one
        parameter value per triangle or the defaults; returns the list of rest areas, 0.0 for
        the degenerate triangles, which are left out."""
        i, j, k = (np.asarray(v) for v in (i, j, k))
        d, areas = _triangle_rest_frames(self._positions(i), self._positions(j),
                                         self._positions(k))
        areas = np.maximum(areas, 0.0)
        valid = (areas > 0.0).nonzero()[0]
        if len(valid) < len(areas):
            print("inverted or degenerate triangle elements")
        d[areas == 0.0] = np.eye(2)
        poses = np.linalg.inv(d)
        self.tri_indices.extend(np.stack((i[valid], j[valid], k[valid]), axis=-1).tolist())
        self.tri_poses.extend(poses[valid].tolist())
        self.tri_activations.extend([0.0] * len(valid))
        n = len(areas)
        columns = [np.asarray(_defaults(v, default, n))[valid] for v, default in (
            (tri_ke, self.default_tri_ke), (tri_ka, self.default_tri_ka),
            (tri_kd, self.default_tri_kd), (tri_drag, self.default_tri_drag),
            (tri_lift, self.default_tri_lift))]
        self.tri_materials.extend(zip(*columns))
        self.tri_areas.extend(areas[valid].tolist())
        return areas.tolist()

    def add_edge(self, i: int, j: int, k: int, l: int, rest: float = None, edge_ke: float = None,
                 edge_kd: float = None) -> None:
        """Adds a bending element across edge k-l between triangles (i, k, l) and (j, l, k),
        counter-clockwise; `rest` (radians) defaults to the present angle, the stiffness and
        damping to ``default_edge_ke`` / ``default_edge_kd``."""
        self.add_edges(np.array([i]), np.array([j]), np.array([k]), np.array([l]),
                       None if rest is None else [rest],
                       None if edge_ke is None else [edge_ke],
                       None if edge_kd is None else [edge_kd])

    def add_edges(self, i, j, k, l, rest=None, edge_ke=None, edge_kd=None) -> None:
        """Adds bending elements across the edges k[n]-l[n] between triangles (i, k, l) and
        (j, l, k); -1 in i or j marks an open edge (its rest angle is 0)."""
        i, j, k, l = (np.asarray(v, dtype=np.int64) for v in (i, j, k, l))
        x3, x4 = self._positions(k), self._positions(l)
        if rest is None:
            open_edge = (i < 0) | (j < 0)
            x1 = self._positions(np.where(open_edge, k, i))
            x2 = self._positions(np.where(open_edge, l, j))
            rest = np.where(open_edge, 0.0, _edge_rest_angles(x1, x2, x3, x4))
        self.edge_indices.extend(np.stack((i, j, k, l), axis=-1).tolist())
        self.edge_rest_angle.extend(np.asarray(rest, dtype=np.float64).tolist())
        self.edge_rest_length.extend(np.linalg.norm(x4 - x3, axis=1).tolist())
        n = len(i)
        self.edge_bending_properties.extend(zip(_defaults(edge_ke, self.default_edge_ke, n),
                                                _defaults(edge_kd, self.default_edge_kd, n)))

    def _add_mesh_edges(self, start_tri, edge_ke, edge_kd, add_springs, spring_ke, spring_kd):
        """Bending edges of the triangles from `start_tri` on, and optionally springs along
        every edge and across every pair of neighbouring triangles."""
        tris = self.tri_indices[start_tri:]
        adjacency = MeshAdjacency(tris, len(tris))
        edges = np.array([(e.o0, e.o1, e.v0, e.v1) for e in adjacency.edges.values()],
                         dtype=np.int64).reshape(-1, 4)
        self.add_edges(edges[:, 0], edges[:, 1], edges[:, 2], edges[:, 3],
                       edge_ke=[edge_ke] * len(edges), edge_kd=[edge_kd] * len(edges))
        if not add_springs:
            return
        springs = {}
        for o0, o1, v0, v1 in edges.tolist():
            pairs = [(v0, v1)]
            if o0 != -1:
                pairs += [(o0, v0), (o0, v1)]
            if o1 != -1:
                pairs += [(o1, v0), (o1, v1)]
            if o0 != -1 and o1 != -1:
                pairs.append((o0, o1))
            for a, b in pairs:
                springs[(min(a, b), max(a, b))] = None
        for a, b in springs:
            self.add_spring(a, b, spring_ke, spring_kd, control=0.0)

    def _cloth_settings(self, settings):
        """The given cloth parameters with the builder's defaults for those left None."""
        names = ("tri_ke", "tri_ka", "tri_kd", "tri_drag", "tri_lift", "edge_ke", "edge_kd",
                 "spring_ke", "spring_kd", "particle_radius")
        return [getattr(self, "default_" + n) if settings[n] is None else settings[n]
                for n in names]

    def add_cloth_grid(self, pos, rot, vel, dim_x: int, dim_y: int, cell_x: float, cell_y: float,
                       mass: float, reverse_winding: bool = False, fix_left: bool = False,
                       fix_right: bool = False, fix_top: bool = False, fix_bottom: bool = False,
                       tri_ke: float = None, tri_ka: float = None, tri_kd: float = None,
                       tri_drag: float = None, tri_lift: float = None, edge_ke: float = None,
                       edge_kd: float = None, add_springs: bool = False, spring_ke: float = None,
                       spring_kd: float = None, particle_radius: float = None) -> None:
        """Adds a planar cloth of dim_x x dim_y cells of size cell_x x cell_y in its local x-y
        plane, rotated by `rot`, placed at `pos`, moving with `vel`: (dim_x+1)(dim_y+1)
        particles of `mass`, two triangles per cell, bending edges, and springs when
        `add_springs`. The fixed sides' particles get mass 0 and lose PARTICLE_FLAG_ACTIVE."""
        (tri_ke, tri_ka, tri_kd, tri_drag, tri_lift, edge_ke, edge_kd, spring_ke, spring_kd,
         particle_radius) = self._cloth_settings(locals())
        start_vertex = len(self.particle_q)
        start_tri = len(self.tri_indices)
        material = (tri_ke, tri_ka, tri_kd, tri_drag, tri_lift)

        def index(x, y):
            return start_vertex + y * (dim_x + 1) + x

        tris = []
        grid = np.array([(x * cell_x, y * cell_y, 0.0) for y in range(dim_y + 1)
                         for x in range(dim_x + 1)])
        points = rotate_points(rot, grid) + np.asarray(pos, dtype=np.float64)
        for y in range(dim_y + 1):
            for x in range(dim_x + 1):
                p = wp.vec3(points[y * (dim_x + 1) + x])
                fixed = ((x == 0 and fix_left) or (x == dim_x and fix_right)
                         or (y == 0 and fix_bottom) or (y == dim_y and fix_top))
                flags = wp.uint32(0) if fixed else PARTICLE_FLAG_ACTIVE
                self.add_particle(p, vel, 0.0 if fixed else mass, flags=flags,
                                  radius=particle_radius)
                if x == 0 or y == 0:
                    continue
                if reverse_winding:
                    corners = ((x - 1, y - 1, x, y - 1, x, y), (x - 1, y - 1, x, y, x - 1, y))
                else:
                    corners = ((x - 1, y - 1, x, y - 1, x - 1, y), (x, y - 1, x, y, x - 1, y))
                for c in corners:
                    tris.append((index(c[0], c[1]), index(c[2], c[3]), index(c[4], c[5])))
        if tris:
            tris = np.array(tris)
            n = len(tris)
            self.add_triangles(tris[:, 0], tris[:, 1], tris[:, 2], *([v] * n for v in material))
        self._add_mesh_edges(start_tri, edge_ke, edge_kd, add_springs, spring_ke, spring_kd)

    def add_cloth_mesh(self, pos, rot, scale: float, vel, vertices, indices, density: float,
                       edge_callback=None, face_callback=None, tri_ke: float = None,
                       tri_ka: float = None, tri_kd: float = None, tri_drag: float = None,
                       tri_lift: float = None, edge_ke: float = None, edge_kd: float = None,
                       add_springs: bool = False, spring_ke: float = None,
                       spring_kd: float = None, particle_radius: float = None) -> None:
        """Adds a cloth from a triangle mesh (`vertices`, `indices` 3 per face) scaled by
        `scale`, rotated by `rot` and placed at `pos`: one particle per vertex, one FEM
        triangle per face and one bending element per edge; each triangle gives a third of
        `density` x its area to each of its particles. The mesh should be two-manifold."""
        (tri_ke, tri_ka, tri_kd, tri_drag, tri_lift, edge_ke, edge_kd, spring_ke, spring_kd,
         particle_radius) = self._cloth_settings(locals())
        start_vertex = len(self.particle_q)
        start_tri = len(self.tri_indices)
        points = rotate_points(rot, np.array([np.asarray(v, dtype=np.float64) for v in vertices])
                               * scale) + np.asarray(pos, dtype=np.float64)
        for p in points:
            self.add_particle(wp.vec3(p), vel, 0.0, radius=particle_radius)
        tris = (start_vertex + np.asarray(indices, dtype=np.int64)).reshape(-1, 3)
        n = len(tris)
        areas = self.add_triangles(tris[:, 0], tris[:, 1], tris[:, 2], [tri_ke] * n,
                                   [tri_ka] * n, [tri_kd] * n, [tri_drag] * n, [tri_lift] * n)
        for t in range(n):
            for v in tris[t]:
                self.particle_mass[v] += density * areas[t] / 3.0
        self._add_mesh_edges(start_tri, edge_ke, edge_kd, add_springs, spring_ke, spring_kd)

