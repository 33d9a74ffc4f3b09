"""treadle.sim.builder -- ``ModelBuilder``, warp.sim's scene builder: Python lists that the
``add_*`` methods fill and ``finalize()`` turns into a ``Model`` on a device.

The class is assembled from one mixin per concept, each in its own file: particles and springs
(builder_particles.py), triangles, bending edges and cloth (builder_cloth.py), tetrahedra and
soft bodies (builder_soft.py), rigid bodies and fixed-joint collapsing (builder_bodies.py),
joints (builder_joints.py), shapes and the ground (builder_shapes.py), merging builders
(builder_merge.py) and finalisation (builder_finalize.py). This file holds the lists they
share (their names are Warp's, which programs read directly), the defaults and the counts.
"""

import numpy as np

import treadle as wp

from .builder_bodies import BodyBuilder
from .builder_cloth import ClothBuilder
from .builder_finalize import FinalizeBuilder
from .builder_joints import JointBuilder
from .builder_merge import MergeBuilder
from .builder_particles import ParticleBuilder
from .builder_shapes import ShapeBuilder
from .builder_soft import SoftBuilder

_LISTS = """
particle_q particle_qd particle_mass particle_radius particle_flags particle_color_groups
shape_transform shape_body shape_visible shape_geo_type shape_geo_scale shape_geo_src
shape_geo_is_solid shape_geo_thickness shape_material_ke shape_material_kd shape_material_kf
shape_material_ka shape_material_mu shape_material_restitution shape_collision_group
shape_collision_radius shape_ground_collision shape_shape_collision geo_meshes geo_sdfs
spring_indices spring_rest_length spring_stiffness spring_damping spring_control
tri_indices tri_poses tri_activations tri_materials tri_areas
edge_indices edge_rest_angle edge_rest_length edge_bending_properties
tet_indices tet_poses tet_activations tet_materials
muscle_start muscle_params muscle_activations muscle_bodies muscle_points
body_mass body_inertia body_inv_mass body_inv_inertia body_com body_q body_qd body_name
joint_parent joint_child joint_axis joint_X_p joint_X_c joint_q joint_qd joint_type joint_name
joint_armature joint_target_ke joint_target_kd joint_axis_mode joint_limit_lower
joint_limit_upper joint_limit_ke joint_limit_kd joint_act joint_twist_lower joint_twist_upper
joint_linear_compliance joint_angular_compliance joint_enabled joint_q_start joint_qd_start
joint_axis_start joint_axis_dim articulation_start
""".split()
"""The builder's per-element lists, empty in a new builder."""


class ModelBuilder(ParticleBuilder, ClothBuilder, SoftBuilder, BodyBuilder, JointBuilder,
                   ShapeBuilder, MergeBuilder, FinalizeBuilder):
    """Builds a simulation scene at run time in Python lists, then ``finalize()`` copies it to
    a device as a ``Model``. The builder itself is not differentiable.

    `up_vector` is the world's up direction (it picks ``up_axis``, the ground plane's normal
    and the direction of `gravity`, m/s^2 along it: the default pulls down at 9.80665)."""

    default_particle_radius = 0.1

    default_tri_ke = 100.0
    default_tri_ka = 100.0
    default_tri_kd = 10.0
    default_tri_drag = 0.0
    default_tri_lift = 0.0

    default_spring_ke = 100.0
    default_spring_kd = 0.0

    default_edge_ke = 100.0
    default_edge_kd = 0.0

    default_shape_ke = 1.0e5
    default_shape_kd = 1000.0
    default_shape_kf = 1000.0
    default_shape_ka = 0.0
    default_shape_mu = 0.5
    default_shape_restitution = 0.0
    default_shape_density = 1000.0
    default_shape_thickness = 1e-5

    default_joint_limit_ke = 100.0
    default_joint_limit_kd = 1.0

    def __init__(self, up_vector=(0.0, 1.0, 0.0), gravity=-9.80665):
        self.num_envs = 0
        for name in _LISTS:
            setattr(self, name, [])
        self.particle_max_velocity = 1e5
        self.shape_collision_group_map = {}
        self.last_collision_group = 0
        self.shape_collision_filter_pairs = set()
        self.body_shapes = {}
        self.joint_parents = {}
        self.joint_dof_count = 0
        self.joint_coord_count = 0
        self.joint_axis_total_count = 0
        self.up_vector = wp.vec3(up_vector)
        self.up_axis = int(np.argmax(np.abs(np.asarray(up_vector, dtype=np.float64))))
        self.gravity = gravity
        self._ground_created = False
        self._ground_params = {
            "plane": (*up_vector, 0.0), "width": 0.0, "length": 0.0,
            "ke": self.default_shape_ke, "kd": self.default_shape_kd,
            "kf": self.default_shape_kf, "mu": self.default_shape_mu,
            "restitution": self.default_shape_restitution}
        self.soft_contact_max = 64 * 1024
        self.rigid_mesh_contact_max = 0  # 0: no limit
        self.rigid_contact_margin = 0.1
        self.rigid_contact_torsional_friction = 0.5
        self.rigid_contact_rolling_friction = 0.001
        self.num_rigid_contacts_per_env = None  # None: the worst case, counted at finalize

    @property
    def shape_count(self):
        """Number of shapes."""
        return len(self.shape_geo_type)

    @property
    def body_count(self):
        """Number of rigid bodies."""
        return len(self.body_q)

    @property
    def joint_count(self):
        """Number of joints."""
        return len(self.joint_type)

    @property
    def joint_axis_count(self):
        """Number of joint axes."""
        return len(self.joint_axis)

    @property
    def particle_count(self):
        """Number of particles."""
        return len(self.particle_q)

    @property
    def tri_count(self):
        """Number of triangle elements."""
        return len(self.tri_poses)

    @property
    def tet_count(self):
        """Number of tetrahedral elements."""
        return len(self.tet_poses)

    @property
    def edge_count(self):
        """Number of bending edges."""
        return len(self.edge_rest_angle)

    @property
    def spring_count(self):
        """Number of springs."""
        return len(self.spring_rest_length)

    @property
    def muscle_count(self):
        """Number of muscles."""
        return len(self.muscle_start)

    @property
    def articulation_count(self):
        """Number of articulations."""
        return len(self.articulation_start)
