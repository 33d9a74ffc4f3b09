"""treadle.sim.inertia -- mass, centre of mass and inertia tensors of solid primitives and
triangle meshes, and the parallel-axis shift of an inertia tensor (``warp.sim.inertia``).

Every function returns Warp's tuple: ``(mass, com, I)`` with ``com`` a ``wp.vec3`` and ``I`` a
``wp.mat33`` about the centre of mass; the primitives are centred at their origin with their
axis along y. Meshes are integrated on the host in float64 (divergence theorem over signed
tetrahedra), so a closed mesh's answer does not depend on how finely it is triangulated.
"""

import math

import numpy as np

import treadle as wp


def _diagonal(a, b, c):
    return wp.mat33(a, 0.0, 0.0, 0.0, b, 0.0, 0.0, 0.0, c)


def compute_sphere_inertia(density: float, r: float):
    """Mass and inertia of a solid sphere of radius `r`: ``(m, com, I)``, I = 2/5 m r^2."""
    m = density * 4.0 / 3.0 * math.pi * r * r * r
    ia = 0.4 * m * r * r
    return m, wp.vec3(), _diagonal(ia, ia, ia)


def compute_capsule_inertia(density: float, r: float, h: float):
    """Mass and inertia of a solid capsule along y: radius `r`, `h` the height of its cylinder
    (the two hemispheres add 2 r); ``(m, com, I)``."""
    m_caps = density * 4.0 / 3.0 * math.pi * r * r * r
    m_cyl = density * math.pi * r * r * h
    # the hemispheres sit at +-h/2; their own inertia about an axis through their centre of
    # mass plus the parallel-axis shift gives the bracket (as in ODE's capsule)
    i_side = (m_cyl * (0.25 * r * r + h * h / 12.0)
              + m_caps * (0.4 * r * r + 0.375 * r * h + 0.25 * h * h))
    i_axis = (0.5 * m_cyl + 0.4 * m_caps) * r * r
    return m_caps + m_cyl, wp.vec3(), _diagonal(i_side, i_axis, i_side)


def compute_cylinder_inertia(density: float, r: float, h: float):
    """Mass and inertia of a solid cylinder along y of radius `r` and height `h`."""
    m = density * math.pi * r * r * h
    i_side = m * (3.0 * r * r + h * h) / 12.0
    i_axis = 0.5 * m * r * r
    return m, wp.vec3(), _diagonal(i_side, i_axis, i_side)


def compute_cone_inertia(density: float, r: float, h: float):
    """Mass and inertia of a solid cone along y of base radius `r` and height `h`. As in Warp,
    the transverse moment is the one about the centre of the base, m (3 r^2 + 2 h^2) / 20, and
    the centre of mass is reported at the origin."""
    m = density * math.pi * r * r * h / 3.0
    i_side = m * (3.0 * r * r + 2.0 * h * h) / 20.0
    i_axis = 0.3 * m * r * r
    return m, wp.vec3(), _diagonal(i_side, i_axis, i_side)


def compute_box_inertia(density: float, w: float, h: float, d: float):
    """Mass and inertia of a solid box with full extents `w` (x), `h` (y) and `d` (z)."""
    m = density * w * h * d
    return m, wp.vec3(), _diagonal(m * (h * h + d * d) / 12.0, m * (w * w + d * d) / 12.0,
                                   m * (w * w + h * h) / 12.0)


def _tetrahedra_moments(a, b, c, d):
    """Signed volume, first moment and second moment (integral of x x^T) summed over the
    tetrahedra (a[i], b[i], c[i], d[i]); arrays of shape (n, 3)."""
    vol = np.einsum("ij,ij->i", np.cross(b - a, c - a), d - a) / 6.0
    s = a + b + c + d
    first = (vol[:, None] * s).sum(axis=0) / 4.0
    outer = sum(np.einsum("ij,ik->ijk", v, v) for v in (a, b, c, d))
    outer = outer + np.einsum("ij,ik->ijk", s, s)
    second = np.einsum("i,ijk->jk", vol, outer) / 20.0
    return vol.sum(), first, second


def compute_mesh_inertia(density: float, vertices, indices, is_solid: bool = True,
                         thickness=0.001):
    """Mass, centre of mass, inertia (about the centre of mass) and volume of a closed triangle
    mesh: ``(mass, com, I, volume)``.

    A solid mesh is the volume it encloses; a hollow one (``is_solid=False``) is a shell
    reaching `thickness` (one value, or one per vertex) to either side of each face. Either
    winding works: an inward-wound mesh gives the same positive volume."""
    verts = np.asarray(vertices, dtype=np.float64).reshape(-1, 3)
    tris = np.asarray(indices, dtype=np.int64).reshape(-1, 3)
    p, q, r = verts[tris[:, 0]], verts[tris[:, 1]], verts[tris[:, 2]]
    if is_solid:
        origin = np.zeros_like(p)
        volume, first, second = _tetrahedra_moments(origin, p, q, r)
    else:
        t = np.broadcast_to(np.asarray(thickness, dtype=np.float64), (len(verts),))
        normal = -np.cross(q - p, r - p)
        length = np.linalg.norm(normal, axis=1, keepdims=True)
        normal = np.divide(normal, length, out=np.zeros_like(normal), where=length > 0.0)
        offsets = [normal * t[tris[:, k], None] for k in range(3)]
        lower = [v - o for v, o in zip((p, q, r), offsets)]
        upper = [v + o for v, o in zip((p, q, r), offsets)]
        # each face's shell is a prism, cut into three tetrahedra of one orientation
        parts = [_tetrahedra_moments(lower[0], lower[1], lower[2], upper[0]),
                 _tetrahedra_moments(lower[1], lower[2], upper[0], upper[1]),
                 _tetrahedra_moments(lower[2], upper[0], upper[1], upper[2])]
        volume = sum(part[0] for part in parts)
        first = sum(part[1] for part in parts)
        second = sum(part[2] for part in parts)
    if volume < 0.0:
        volume, first, second = -volume, -first, -second
    mass = density * volume
    com = first / volume if volume > 0.0 else first
    second = second * density
    inertia_origin = np.trace(second) * np.eye(3) - second
    inertia = inertia_origin - mass * (np.dot(com, com) * np.eye(3) - np.outer(com, com))
    return float(mass), wp.vec3(*com), wp.mat33(*inertia.flatten()), float(volume)


def transform_inertia(m, I, p, q):
    """The inertia tensor `I` of a body of mass `m` rotated by quaternion `q` and expressed about
    a point at offset -`p` from its centre of mass: R I R^T + m (|p|^2 1 - p p^T)."""
    rot = np.array(wp.quat_to_matrix(wp.quat(q)), dtype=np.float64).reshape(3, 3)
    inertia = np.array(I, dtype=np.float64).reshape(3, 3)
    offset = np.array(p, dtype=np.float64).reshape(3)
    shifted = rot @ inertia @ rot.T + m * (offset @ offset * np.eye(3) - np.outer(offset, offset))
    return wp.mat33(*shifted.flatten())
