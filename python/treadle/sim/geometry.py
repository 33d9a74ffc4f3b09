"""treadle.sim.geometry -- the collision geometry sources of warp.sim (``Mesh``, ``SDF``) and the
mass properties of a shape (``compute_shape_mass``), read by the builder when a shape is added.

A ``Mesh``'s mass, centre of mass and inertia are those of density 1; ``compute_shape_mass``
scales them by the shape's density and scale, or integrates the scaled mesh again when the
stored ones do not apply (a hollow shape of a solid mesh, say).
"""

import numpy as np

import treadle as wp

from .constants import (GEO_BOX, GEO_CAPSULE, GEO_CONE, GEO_CYLINDER, GEO_MESH, GEO_PLANE, GEO_SDF,
                        GEO_SPHERE)
from .inertia import (compute_box_inertia, compute_capsule_inertia, compute_cone_inertia,
                      compute_cylinder_inertia, compute_mesh_inertia, compute_sphere_inertia)


class SDF:
    """A signed distance field shape source: a ``wp.Volume`` and the mass properties it stands
    for (`I` about the centre of mass `com`, `mass`), given by the caller."""

    def __init__(self, volume=None, I=None, mass=1.0, com=None):
        self.volume = volume
        self.I = I if I is not None else wp.mat33(np.eye(3))
        self.mass = mass
        self.com = com if com is not None else wp.vec3()
        self.has_inertia = True
        self.is_solid = True

    def finalize(self, device=None):
        """The id of the volume, for ``ModelShapeGeometry.source``."""
        return self.volume.id

    def __hash__(self):
        return hash(self.volume.id)


class Mesh:
    """A triangle collision mesh: `vertices` (n x 3) and `indices` (3 per triangle, flattened).

    With ``compute_inertia`` the mass, centre of mass `com` and inertia `I` (about `com`) of
    the mesh at density 1 are computed at once, valid for a closed mesh; `is_solid` picks the
    enclosed volume or a thin shell."""

    def __init__(self, vertices, indices, compute_inertia=True, is_solid=True):
        self.vertices = np.array(vertices).reshape(-1, 3)
        self.indices = np.array(indices, dtype=np.int32).flatten()
        self.is_solid = is_solid
        self.has_inertia = compute_inertia
        if compute_inertia:
            self.mass, self.com, self.I, _ = compute_mesh_inertia(1.0, vertices, indices,
                                                                  is_solid=is_solid)
        else:
            self.I = wp.mat33(np.eye(3))
            self.mass = 1.0
            self.com = wp.vec3()

    def finalize(self, device=None):
        """Builds the ``wp.Mesh`` (with zero vertex velocities) on `device` and returns its id;
        the mesh is kept as ``self.mesh``."""
        with wp.ScopedDevice(device):
            points = wp.array(self.vertices, dtype=wp.vec3)
            indices = wp.array(self.indices, dtype=wp.int32)
            self.mesh = wp.Mesh(points=points, velocities=wp.zeros_like(points), indices=indices)
            return self.mesh.id

    def __hash__(self):
        """Hash of the vertices, indices and solidity, so that equal meshes are built once."""
        return hash((tuple(np.array(self.vertices).flatten()),
                     tuple(np.array(self.indices).flatten()), self.is_solid))


def _solid_minus_hollow(inertia_fn, solid_args, hollow_args, is_solid):
    solid = inertia_fn(*solid_args)
    if is_solid:
        return solid
    hollow = inertia_fn(*hollow_args)
    return solid[0] - hollow[0], solid[1], solid[2] - hollow[2]


def _scaled_source_mass(src, scale, density):
    """A mesh or SDF source's stored unit-density mass properties, scaled per axis."""
    sx, sy, sz = scale
    ratio = sx * sy * sz * density
    inertia = src.I
    ixx = inertia[0, 0] * (sy * sy + sz * sz) / 2.0 * ratio
    iyy = inertia[1, 1] * (sx * sx + sz * sz) / 2.0 * ratio
    izz = inertia[2, 2] * (sx * sx + sy * sy) / 2.0 * ratio
    ixy = inertia[0, 1] * sx * sy * ratio
    ixz = inertia[0, 2] * sx * sz * ratio
    iyz = inertia[1, 2] * sy * sz * ratio
    com = wp.cw_mul(src.com, wp.vec3(scale))
    return src.mass * ratio, com, wp.mat33(ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz)


def compute_shape_mass(type, scale, src, density, is_solid, thickness):
    """Mass, centre of mass (shape frame) and inertia of a shape: ``(m, com, I)``.

    `scale` is the shape's ``shape_geo_scale`` (radius, half height, ... as the kind reads
    them); a hollow shape is the solid minus the solid `thickness` smaller. Zero density and
    planes have no mass."""
    if density == 0.0 or type == GEO_PLANE:
        return 0.0, wp.vec3(), wp.mat33()
    if type == GEO_SPHERE:
        r = scale[0]
        return _solid_minus_hollow(compute_sphere_inertia, (density, r),
                                   (density, r - thickness), is_solid)
    if type == GEO_BOX:
        w, h, d = (2.0 * s for s in scale)
        return _solid_minus_hollow(compute_box_inertia, (density, w, h, d),
                                   (density, w - thickness, h - thickness, d - thickness),
                                   is_solid)
    rounded = {GEO_CAPSULE: compute_capsule_inertia, GEO_CYLINDER: compute_cylinder_inertia,
               GEO_CONE: compute_cone_inertia}
    if type in rounded:
        r, h = scale[0], 2.0 * scale[1]
        return _solid_minus_hollow(rounded[type], (density, r, h),
                                   (density, r - thickness, h - 2.0 * thickness), is_solid)
    if type in (GEO_MESH, GEO_SDF):
        if src.has_inertia and src.mass > 0.0 and src.is_solid == is_solid:
            return _scaled_source_mass(src, scale, density)
        if type == GEO_MESH:
            vertices = np.array(src.vertices) * np.array(scale)
            m, com, inertia, _ = compute_mesh_inertia(density, vertices, src.indices, is_solid,
                                                      thickness)
            return m, com, inertia
    raise ValueError(f"compute_shape_mass(): unsupported shape type {type}")
