"""treadle.sim.builder_shapes -- the collision-shape part of ``ModelBuilder``: spheres, boxes,
capsules, cylinders, cones, planes, meshes and SDFs attached to bodies (or static, body -1),
with their contact materials, collision groups and filters, and the ground plane.

Each shape with density adds its mass and inertia to its body. Shapes of one body never
collide with each other, nor with those of a body a joint connects them to. Rounded shapes
(sphere, capsule) store their radius plus the contact thickness as ``shape_geo_thickness``.
"""

import math

import numpy as np

import treadle as wp

from .constants import (GEO_BOX, GEO_CAPSULE, GEO_CONE, GEO_CYLINDER, GEO_MESH, GEO_PLANE, GEO_SDF,
                        GEO_SPHERE)
from .geometry import compute_shape_mass

_HALF_SQRT = math.sqrt(0.5)
_UP_AXIS_ROTATIONS = {0: wp.quat(0.0, 0.0, -_HALF_SQRT, _HALF_SQRT),
                      2: wp.quat(_HALF_SQRT, 0.0, 0.0, _HALF_SQRT)}
"""Rotations taking a y-aligned shape to the x (0) or z (2) axis."""


def _along_axis(rot, up_axis):
    q = wp.quat(rot)
    if up_axis in _UP_AXIS_ROTATIONS:
        q = q * _UP_AXIS_ROTATIONS[up_axis]
    return q


class ShapeBuilder:
    """Methods of ModelBuilder that add collision shapes and set the ground plane."""

    def _shape_radius(self, type, scale, src):
        """Radius of a sphere around the shape, for the broad phase."""
        scale = np.asarray(scale, dtype=np.float64)
        if type == GEO_SPHERE:
            return scale[0]
        if type == GEO_BOX:
            return float(np.linalg.norm(scale))
        if type in (GEO_CAPSULE, GEO_CYLINDER, GEO_CONE):
            return scale[0] + scale[1]
        if type == GEO_MESH:
            return float(np.linalg.norm(np.max(np.abs(src.vertices), axis=0) * np.max(scale)))
        if type == GEO_PLANE:
            return float(np.linalg.norm(scale)) if scale[0] > 0.0 and scale[1] > 0.0 else 1.0e6
        return 10.0

    def _add_shape(self, body, pos, rot, type, scale, src=None, density=None, ke=None, kd=None,
                   kf=None, ka=None, mu=None, restitution=None, thickness=None, is_solid=True,
                   collision_group=-1, collision_filter_parent=True, has_ground_collision=True,
                   has_shape_collision=True, is_visible: bool = True) -> int:
        shape = self.shape_count
        self.shape_body.append(body)
        if body in self.body_shapes:
            for sibling in self.body_shapes[body]:
                self.shape_collision_filter_pairs.add((sibling, shape))
            self.body_shapes[body].append(shape)
        else:
            self.body_shapes[body] = [shape]

        def pick(value, default):
            return default if value is None else value

        thickness = pick(thickness, self.default_shape_thickness)
        density = pick(density, self.default_shape_density)
        self.shape_transform.append(wp.transform(wp.vec3(pos), wp.quat(rot)))
        self.shape_visible.append(is_visible)
        self.shape_geo_type.append(type)
        self.shape_geo_scale.append((scale[0], scale[1], scale[2]))
        self.shape_geo_src.append(src)
        self.shape_geo_thickness.append(thickness)
        self.shape_geo_is_solid.append(is_solid)
        self.shape_material_ke.append(pick(ke, self.default_shape_ke))
        self.shape_material_kd.append(pick(kd, self.default_shape_kd))
        self.shape_material_kf.append(pick(kf, self.default_shape_kf))
        self.shape_material_ka.append(pick(ka, self.default_shape_ka))
        self.shape_material_mu.append(pick(mu, self.default_shape_mu))
        self.shape_material_restitution.append(pick(restitution, self.default_shape_restitution))
        self.shape_collision_group.append(collision_group)
        self.shape_collision_group_map.setdefault(collision_group, []).append(shape)
        self.last_collision_group = max(self.last_collision_group, collision_group)
        self.shape_collision_radius.append(self._shape_radius(type, scale, src))
        if collision_filter_parent and body > -1:
            for parent_body in self.joint_parents.get(body, []):
                if parent_body > -1:
                    for parent_shape in self.body_shapes[parent_body]:
                        self.shape_collision_filter_pairs.add((parent_shape, shape))
        self.shape_ground_collision.append(has_ground_collision and body != -1)
        self.shape_shape_collision.append(has_shape_collision)
        if density > 0.0:
            m, c, inertia = compute_shape_mass(type, scale, src, density, is_solid, thickness)
            com_body = wp.transform_point(wp.transform(wp.vec3(pos), wp.quat(rot)), c)
            self._update_body_mass(body, m, inertia, com_body, wp.quat(rot))
        return shape

    def add_shape_plane(self, plane=(0.0, 1.0, 0.0, 0.0), pos=None, rot=None,
                        width: float = 10.0, length: float = 10.0, body: int = -1,
                        ke: float = None, kd: float = None, kf: float = None, ka: float = None,
                        mu: float = None, restitution: float = None, thickness: float = None,
                        has_ground_collision: bool = False, has_shape_collision: bool = True,
                        is_visible: bool = True, collision_group: int = -1) -> int:
        """Adds a plane: the rectangle of half extents `width` (x) by `length` (z) of its local
        x-z plane (infinite where 0), placed by `pos` and `rot`, or, when either is None, by
        the plane equation a x + b y + c z + d = 0 in `plane`. It has no mass."""
        if pos is None or rot is None:
            normal = np.array(plane[:3], dtype=np.float64)
            normal /= np.linalg.norm(normal)
            pos = plane[3] * normal
            if np.allclose(normal, (0.0, 1.0, 0.0)):
                rot = (0.0, 0.0, 0.0, 1.0)
            else:
                c = np.cross(normal, (0.0, 1.0, 0.0))
                angle = np.arcsin(np.linalg.norm(c))
                axis = np.abs(c) / np.linalg.norm(c)
                rot = wp.quat_from_axis_angle(wp.vec3(*axis), wp.float32(angle))
        return self._add_shape(body, pos, rot, GEO_PLANE, wp.vec3(width, length, 0.0), None, 0.0,
                               ke, kd, kf, ka, mu, restitution, thickness,
                               has_ground_collision=has_ground_collision,
                               has_shape_collision=has_shape_collision, is_visible=is_visible,
                               collision_group=collision_group)

    def _add_primitive(self, body, pos, rot, type, scale, density, material, is_solid,
                       thickness, flags):
        return self._add_shape(body, pos, rot, type, scale, None, density, *material, thickness,
                               is_solid, **flags)

    def add_shape_sphere(self, body, pos=(0.0, 0.0, 0.0), rot=(0.0, 0.0, 0.0, 1.0),
                         radius: float = 1.0, density: float = None, ke: float = None,
                         kd: float = None, kf: float = None, ka: float = None, mu: float = None,
                         restitution: float = None, is_solid: bool = True,
                         thickness: float = None, has_ground_collision: bool = True,
                         has_shape_collision: bool = True, collision_group: int = -1,
                         is_visible: bool = True) -> int:
        """Adds a sphere of `radius` to `body` (-1: static) at `pos`, `rot` in its frame;
        material parameters default to the builder's ``default_shape_*``. Returns its index."""
        thickness = self.default_shape_thickness if thickness is None else thickness
        return self._add_primitive(body, pos, rot, GEO_SPHERE, wp.vec3(radius, 0.0, 0.0), density,
                                   (ke, kd, kf, ka, mu, restitution), is_solid, thickness + radius,
                                   _flags(has_ground_collision, has_shape_collision,
                                          collision_group, is_visible))

    def add_shape_box(self, body: int, pos=(0.0, 0.0, 0.0), rot=(0.0, 0.0, 0.0, 1.0),
                      hx: float = 0.5, hy: float = 0.5, hz: float = 0.5, density: float = None,
                      ke: float = None, kd: float = None, kf: float = None, ka: float = None,
                      mu: float = None, restitution: float = None, is_solid: bool = True,
                      thickness: float = None, has_ground_collision: bool = True,
                      has_shape_collision: bool = True, collision_group: int = -1,
                      is_visible: bool = True) -> int:
        """Adds a box of half extents `hx`, `hy`, `hz` (otherwise as add_shape_sphere)."""
        return self._add_primitive(body, pos, rot, GEO_BOX, wp.vec3(hx, hy, hz), density,
                                   (ke, kd, kf, ka, mu, restitution), is_solid, thickness,
                                   _flags(has_ground_collision, has_shape_collision,
                                          collision_group, is_visible))

    def add_shape_capsule(self, body: int, pos=(0.0, 0.0, 0.0), rot=(0.0, 0.0, 0.0, 1.0),
                          radius: float = 1.0, half_height: float = 0.5, up_axis: int = 1,
                          density: float = None, ke: float = None, kd: float = None,
                          kf: float = None, ka: float = None, mu: float = None,
                          restitution: float = None, is_solid: bool = True,
                          thickness: float = None, has_ground_collision: bool = True,
                          has_shape_collision: bool = True, collision_group: int = -1,
                          is_visible: bool = True) -> int:
        """Adds a capsule of `radius` whose inner segment, 2 `half_height` long, lies along
        `up_axis` (0: x, 1: y, 2: z)."""
        thickness = self.default_shape_thickness if thickness is None else thickness
        return self._add_primitive(body, pos, _along_axis(rot, up_axis), GEO_CAPSULE,
                                   wp.vec3(radius, half_height, 0.0), density,
                                   (ke, kd, kf, ka, mu, restitution), is_solid, thickness + radius,
                                   _flags(has_ground_collision, has_shape_collision,
                                          collision_group, is_visible))

    def add_shape_cylinder(self, body: int, pos=(0.0, 0.0, 0.0), rot=(0.0, 0.0, 0.0, 1.0),
                           radius: float = 1.0, half_height: float = 0.5, up_axis: int = 1,
                           density: float = None, ke: float = None, kd: float = None,
                           kf: float = None, ka: float = None, mu: float = None,
                           restitution: float = None, is_solid: bool = True,
                           thickness: float = None, has_ground_collision: bool = True,
                           has_shape_collision: bool = True, collision_group: int = -1,
                           is_visible: bool = True) -> int:
        """Adds a cylinder of `radius` and height 2 `half_height` along `up_axis` (particles
        collide with it; rigid contacts do not handle cylinders, as in Warp)."""
        return self._add_primitive(body, pos, _along_axis(rot, up_axis), GEO_CYLINDER,
                                   wp.vec3(radius, half_height, 0.0), density,
                                   (ke, kd, kf, ka, mu, restitution), is_solid, thickness,
                                   _flags(has_ground_collision, has_shape_collision,
                                          collision_group, is_visible))

    def add_shape_cone(self, body: int, pos=(0.0, 0.0, 0.0), rot=(0.0, 0.0, 0.0, 1.0),
                       radius: float = 1.0, half_height: float = 0.5, up_axis: int = 1,
                       density: float = None, ke: float = None, kd: float = None,
                       kf: float = None, ka: float = None, mu: float = None,
                       restitution: float = None, is_solid: bool = True,
                       thickness: float = None, has_ground_collision: bool = True,
                       has_shape_collision: bool = True, collision_group: int = -1,
                       is_visible: bool = True) -> int:
        """Adds a cone of base radius `radius` and height 2 `half_height` along `up_axis`
        (particles collide with it; rigid contacts do not handle cones, as in Warp)."""
        return self._add_primitive(body, pos, _along_axis(rot, up_axis), GEO_CONE,
                                   wp.vec3(radius, half_height, 0.0), density,
                                   (ke, kd, kf, ka, mu, restitution), is_solid, thickness,
                                   _flags(has_ground_collision, has_shape_collision,
                                          collision_group, is_visible))

    def add_shape_mesh(self, body: int, pos=None, rot=None, mesh=None, scale=None,
                       density: float = None, ke: float = None, kd: float = None,
                       kf: float = None, ka: float = None, mu: float = None,
                       restitution: float = None, is_solid: bool = True,
                       thickness: float = None, has_ground_collision: bool = True,
                       has_shape_collision: bool = True, collision_group: int = -1,
                       is_visible: bool = True) -> int:
        """Adds a triangle mesh (a ``treadle.sim.Mesh``) scaled per axis by `scale`."""
        pos = wp.vec3(0.0, 0.0, 0.0) if pos is None else pos
        rot = wp.quat(0.0, 0.0, 0.0, 1.0) if rot is None else rot
        scale = (1.0, 1.0, 1.0) if scale is None else scale
        return self._add_shape(body, pos, rot, GEO_MESH, wp.vec3(scale[0], scale[1], scale[2]),
                               mesh, density, ke, kd, kf, ka, mu, restitution, thickness,
                               is_solid, **_flags(has_ground_collision, has_shape_collision,
                                                  collision_group, is_visible))

    def add_shape_sdf(self, body: int, pos=(0.0, 0.0, 0.0), rot=(0.0, 0.0, 0.0, 1.0), sdf=None,
                      scale=(1.0, 1.0, 1.0), density: float = None, ke: float = None,
                      kd: float = None, kf: float = None, ka: float = None, mu: float = None,
                      restitution: float = None, is_solid: bool = True, thickness: float = None,
                      has_ground_collision: bool = True, has_shape_collision: bool = True,
                      collision_group: int = -1, is_visible: bool = True) -> int:
        """Adds a signed-distance-field shape (a ``treadle.sim.SDF``) scaled by `scale`."""
        return self._add_shape(body, pos, rot, GEO_SDF, wp.vec3(scale[0], scale[1], scale[2]),
                               sdf, density, ke, kd, kf, ka, mu, restitution, thickness,
                               is_solid, **_flags(has_ground_collision, has_shape_collision,
                                                  collision_group, is_visible))

    def set_ground_plane(self, normal=None, offset=0.0, ke: float = None, kd: float = None,
                         kf: float = None, mu: float = None, restitution: float = None) -> None:
        """Sets the ground plane finalize() adds: normal (default ``up_vector``), offset and
        contact material (default the builder's ``default_shape_*``)."""
        normal = self.up_vector if normal is None else normal
        self._ground_params = {
            "plane": (*normal, offset), "width": 0.0, "length": 0.0,
            "ke": self.default_shape_ke if ke is None else ke,
            "kd": self.default_shape_kd if kd is None else kd,
            "kf": self.default_shape_kf if kf is None else kf,
            "mu": self.default_shape_mu if mu is None else mu,
            "restitution": self.default_shape_restitution if restitution is None else restitution}

    def _create_ground_plane(self) -> None:
        ground = self.add_shape_plane(**self._ground_params)
        self._ground_created = True
        # the ground's contacts are handled as ground contacts, never as shape pairs
        for i in range(self.shape_count - 1):
            self.shape_collision_filter_pairs.add((i, ground))


def _flags(has_ground_collision, has_shape_collision, collision_group, is_visible):
    return {"has_ground_collision": has_ground_collision,
            "has_shape_collision": has_shape_collision, "collision_group": collision_group,
            "is_visible": is_visible}
