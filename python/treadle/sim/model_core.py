"""treadle.sim.model_core -- ``Model``, the finalised, simulation-ready description of a scene
(arrays on one device, with Warp's names and dtypes), and the two structs that group the shape
arrays kernels take (``ModelShapeMaterials``, ``ModelShapeGeometry``).

``ModelBuilder.finalize()`` (builder_finalize.py) fills a Model; the Model itself only makes
states and controls, finds the shape pairs that may touch and sizes the contact buffers that
``collide()`` writes.
"""

import itertools

import numpy as np

import treadle as wp

from .constants import GEO_BOX, GEO_CAPSULE, GEO_MESH, GEO_PLANE, GEO_SPHERE
from .state import Control, State


@wp.struct
class ModelShapeMaterials:
    """Contact material of each shape: stiffness `ke`, damping `kd`, friction stiffness `kf`,
    adhesion distance `ka` (Euler integrators), friction coefficient `mu`, `restitution`."""

    ke: wp.array(dtype=float)
    kd: wp.array(dtype=float)
    kf: wp.array(dtype=float)
    ka: wp.array(dtype=float)
    mu: wp.array(dtype=float)
    restitution: wp.array(dtype=float)


@wp.struct
class ModelShapeGeometry:
    """Geometry of each shape: its kind (``GEO_*``), whether it is solid, its collision
    thickness, the id of its mesh or volume (0 otherwise) and its scale."""

    type: wp.array(dtype=wp.int32)
    is_solid: wp.array(dtype=wp.uint8)
    thickness: wp.array(dtype=float)
    source: wp.array(dtype=wp.uint64)
    scale: wp.array(dtype=wp.vec3)


_ARRAY_FIELDS = """
particle_q particle_qd particle_mass particle_inv_mass particle_radius particle_grid
particle_flags shape_transform shape_body shape_visible shape_geo_src shape_collision_group
shape_collision_group_map shape_collision_filter_pairs shape_collision_radius
shape_ground_collision shape_shape_collision shape_contact_pairs shape_ground_contact_pairs
spring_indices spring_rest_length spring_stiffness spring_damping spring_control
spring_constraint_lambdas tri_indices tri_poses tri_activations tri_materials tri_areas
edge_indices edge_rest_angle edge_rest_length edge_bending_properties edge_constraint_lambdas
tet_indices tet_poses tet_activations tet_materials muscle_start muscle_params muscle_bodies
muscle_points muscle_activations body_q body_qd body_com body_inertia body_inv_inertia body_mass
body_inv_mass body_name joint_q joint_qd joint_act joint_type joint_parent joint_child
joint_ancestor joint_X_p joint_X_c joint_axis joint_armature joint_target_ke joint_target_kd
joint_axis_start joint_axis_dim joint_axis_mode joint_linear_compliance joint_angular_compliance
joint_enabled joint_limit_lower joint_limit_upper joint_limit_ke joint_limit_kd
joint_twist_lower joint_twist_upper joint_q_start joint_qd_start articulation_start joint_name
soft_contact_particle soft_contact_shape soft_contact_body_pos soft_contact_body_vel
soft_contact_normal soft_contact_tids rigid_contact_margin rigid_contact_torsional_friction
rigid_contact_rolling_friction rigid_contact_count rigid_contact_point0 rigid_contact_point1
rigid_contact_offset0 rigid_contact_offset1 rigid_contact_normal rigid_contact_thickness
rigid_contact_shape0 rigid_contact_shape1 rigid_contact_tids rigid_contact_pairwise_counter
rigid_contact_broad_shape0 rigid_contact_broad_shape1 rigid_contact_point_id
rigid_contact_point_limit ground_plane particle_colors
""".split()
"""Model attributes that are None until ``finalize()`` sets them."""

_SETTINGS = {
    "particle_max_radius": 0.0, "particle_ke": 1.0e3, "particle_kd": 1.0e2,
    "particle_kf": 1.0e2, "particle_mu": 0.5, "particle_cohesion": 0.0,
    "particle_adhesion": 0.0, "particle_max_velocity": 1e5,
    "joint_attach_ke": 1.0e3, "joint_attach_kd": 1.0e2,
    "soft_contact_radius": 0.2, "soft_contact_margin": 0.2, "soft_contact_ke": 1.0e3,
    "soft_contact_kd": 10.0, "soft_contact_kf": 1.0e3, "soft_contact_mu": 0.5,
    "soft_contact_restitution": 0.0, "soft_contact_count": 0,
    "rigid_contact_max": 0, "rigid_contact_max_limited": 0, "rigid_mesh_contact_max": 0,
    "shape_contact_pair_count": 0, "shape_ground_contact_pair_count": 0,
    "ground": True, "up_axis": 1,
    "particle_count": 0, "body_count": 0, "shape_count": 0, "joint_count": 0,
    "joint_axis_count": 0, "tri_count": 0, "tet_count": 0, "edge_count": 0, "spring_count": 0,
    "muscle_count": 0, "articulation_count": 0, "joint_dof_count": 0, "joint_coord_count": 0,
    "enable_tri_collisions": False,
}
"""Model settings and counts with Warp's defaults (stiffnesses in N/m, distances in m)."""


class Model:
    """The non-time-varying description of a simulation: geometry, elements, bodies, joints,
    contact settings, on ``device``. Build one with ``ModelBuilder.finalize()``.

    Array attributes have Warp's names, shapes and dtypes (``particle_q``: vec3 per particle,
    ``tri_indices``: int32 (tri_count, 3), ``body_q``: transform per body, ...); settings
    such as ``soft_contact_ke`` or ``joint_attach_ke`` may be changed before simulating."""

    def __init__(self, device=None):
        self.requires_grad = False
        self.num_envs = 0
        for name in _ARRAY_FIELDS:
            setattr(self, name, None)
        for name, value in _SETTINGS.items():
            setattr(self, name, value)
        self.body_shapes = {}
        self.shape_materials = ModelShapeMaterials()
        self.shape_geo = ModelShapeGeometry()
        self.up_vector = np.array((0.0, 1.0, 0.0))
        self.gravity = np.array((0.0, -9.80665, 0.0))
        self.particle_color_groups = []
        self.device = wp.get_device(device)

    def state(self, requires_grad=None) -> State:
        """A new State holding copies of the model's initial particle, body and joint values
        (forces zero); `requires_grad` defaults to the model's."""
        if requires_grad is None:
            requires_grad = self.requires_grad
        s = State()
        if self.particle_count:
            s.particle_q = wp.clone(self.particle_q, requires_grad=requires_grad)
            s.particle_qd = wp.clone(self.particle_qd, requires_grad=requires_grad)
            s.particle_f = wp.zeros_like(self.particle_qd, requires_grad=requires_grad)
        if self.body_count:
            s.body_q = wp.clone(self.body_q, requires_grad=requires_grad)
            s.body_qd = wp.clone(self.body_qd, requires_grad=requires_grad)
            s.body_f = wp.zeros_like(self.body_qd, requires_grad=requires_grad)
        if self.joint_count:
            s.joint_q = wp.clone(self.joint_q, requires_grad=requires_grad)
            s.joint_qd = wp.clone(self.joint_qd, requires_grad=requires_grad)
        return s

    def control(self, requires_grad=None, clone_variables=True) -> Control:
        """A Control holding the model's control inputs: copies (``clone_variables``) or the
        model's own arrays."""
        if requires_grad is None:
            requires_grad = self.requires_grad
        c = Control()
        if not clone_variables:
            c.joint_act = self.joint_act
            c.tri_activations = self.tri_activations
            c.tet_activations = self.tet_activations
            c.muscle_activations = self.muscle_activations
            return c
        for count, name in ((self.joint_count, "joint_act"), (self.tri_count, "tri_activations"),
                            (self.tet_count, "tet_activations"),
                            (self.muscle_count, "muscle_activations")):
            if count:
                setattr(c, name, wp.clone(getattr(self, name), requires_grad=requires_grad))
        return c

    def _allocate_soft_contacts(self, target, count, requires_grad=False):
        with wp.ScopedDevice(self.device):
            target.soft_contact_count = wp.zeros(1, dtype=wp.int32)
            target.soft_contact_particle = wp.zeros(count, dtype=int)
            target.soft_contact_shape = wp.zeros(count, dtype=int)
            for name in ("soft_contact_body_pos", "soft_contact_body_vel", "soft_contact_normal"):
                setattr(target, name, wp.zeros(count, dtype=wp.vec3, requires_grad=requires_grad))
            target.soft_contact_tids = wp.zeros(self.particle_count * (self.shape_count - 1),
                                                dtype=int)

    def allocate_soft_contacts(self, count, requires_grad=False):
        """Allocates buffers for `count` particle-shape contacts."""
        self._allocate_soft_contacts(self, count, requires_grad)

    def find_shape_contact_pairs(self):
        """Lists the shape pairs that may collide (``shape_contact_pairs``, per collision group;
        group -1 meets every group) and the shapes that may touch the ground plane, the last
        shape (``shape_ground_contact_pairs``)."""
        filters = set(self.shape_collision_filter_pairs)
        filters |= {(b, a) for a, b in self.shape_collision_filter_pairs}
        groups = self.shape_collision_group_map
        pairs = []
        for group, shapes in groups.items():
            for a, b in itertools.product(shapes, shapes):
                if (self.shape_shape_collision[a] and self.shape_shape_collision[b] and a < b
                        and (a, b) not in filters):
                    pairs.append((a, b))
            if group != -1 and -1 in groups:
                for a, b in itertools.product(shapes, groups[-1]):
                    if a < b and (a, b) not in filters:
                        pairs.append((a, b))
        self.shape_contact_pairs = wp.array(np.array(pairs), dtype=wp.int32, device=self.device)
        self.shape_contact_pair_count = len(pairs)
        ground = self.shape_count - 1
        ground_pairs = [(i, ground) for i in range(ground) if self.shape_ground_collision[i]]
        self.shape_ground_contact_pairs = wp.array(np.array(ground_pairs), dtype=wp.int32,
                                                   device=self.device)
        self.shape_ground_contact_pair_count = len(ground_pairs)

    def _pair_contact_points(self, types, scales, points, a, b):
        """(potential, limited) number of contact points of shape pair (a, b)."""
        if types[a] >= types[b]:
            a, b = b, a
        limit = self.rigid_mesh_contact_max

        def limited(n):
            return min(limit, n) if limit > 0 else n

        type_a, type_b = types[a], types[b]
        infinite_b = type_b == GEO_PLANE and scales[b][0] == 0.0 and scales[b][1] == 0.0
        if type_a == GEO_SPHERE:
            return 1, 1
        if type_a == GEO_CAPSULE:
            if type_b == GEO_PLANE:
                n = 2 if infinite_b else 6
                return n, n
            if type_b == GEO_MESH:
                return 2 + points[b], 2 + limited(points[b])
            return 2, 2
        if type_a == GEO_BOX:
            if type_b == GEO_BOX:
                return 24, 24
            if type_b == GEO_MESH:
                return 8 + points[b], 8 + limited(points[b])
            if type_b == GEO_PLANE:
                n = 8 if infinite_b else 12
                return n, n
            return 8, 8
        if type_a == GEO_MESH:
            n = limited(points[a]) + (limited(points[b]) if type_b == GEO_MESH else 0)
            return n, n
        return 0, 0

    def count_contact_points(self):
        """(potential, limited): the most rigid contact points the shape pairs may produce,
        without and with the ``rigid_mesh_contact_max`` limit per mesh."""
        types = self.shape_geo.type.numpy() if self.shape_count else []
        scales = self.shape_geo.scale.numpy() if self.shape_count else []
        points = [len(src.vertices) if isinstance(getattr(src, "vertices", None), np.ndarray)
                  else 0 for src in (self.shape_geo_src or [])]
        total = [0, 0]
        for pairs in (self.shape_contact_pairs, self.shape_ground_contact_pairs):
            for a, b in (pairs.numpy().reshape(-1, 2) if pairs is not None else []):
                counts = self._pair_contact_points(types, scales, points, int(a), int(b))
                total[0] += counts[0]
                total[1] += counts[1]
        return total[0], total[1]

    def allocate_rigid_contacts(self, target=None, count=None, limited_contact_count=None,
                                requires_grad=False):
        """Allocates the rigid contact buffers (``rigid_contact_*``) on `target` (the model by
        default) for `count` candidate points, `limited_contact_count` of them kept."""
        if count is not None:
            self.rigid_contact_max = count
        if limited_contact_count is not None:
            self.rigid_contact_max_limited = limited_contact_count
        target = self if target is None else target
        n, n_kept = self.rigid_contact_max, self.rigid_contact_max_limited
        with wp.ScopedDevice(self.device):
            target.rigid_contact_count = wp.zeros(1, dtype=wp.int32)
            target.rigid_contact_point_id = wp.zeros(n, dtype=wp.int32)
            for name in ("point0", "point1", "offset0", "offset1", "normal"):
                setattr(target, "rigid_contact_" + name,
                        wp.zeros(n_kept, dtype=wp.vec3, requires_grad=requires_grad))
            target.rigid_contact_thickness = wp.zeros(n_kept, dtype=wp.float32,
                                                      requires_grad=requires_grad)
            target.rigid_contact_shape0 = wp.zeros(n_kept, dtype=wp.int32)
            target.rigid_contact_shape1 = wp.zeros(n_kept, dtype=wp.int32)
            target.rigid_contact_broad_shape0 = wp.zeros(n, dtype=wp.int32)
            target.rigid_contact_broad_shape1 = wp.zeros(n, dtype=wp.int32)
            if self.rigid_mesh_contact_max > 0:
                pair_count = min(self.shape_count * self.shape_count, 2**31 - 1)
                target.rigid_contact_point_limit = wp.zeros(pair_count, dtype=wp.int32)
                target.rigid_contact_pairwise_counter = wp.zeros(pair_count, dtype=wp.int32)
            else:
                target.rigid_contact_point_limit = None
                target.rigid_contact_pairwise_counter = None
            target.rigid_contact_tids = wp.zeros(n, dtype=wp.int32)

    @property
    def soft_contact_max(self):
        """Most particle-shape contacts the soft contact buffers hold."""
        if self.soft_contact_particle is None:
            return 0
        return len(self.soft_contact_particle)
