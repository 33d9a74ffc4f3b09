"""treadle.sim.builder_finalize -- ``ModelBuilder.finalize``: copies the builder's lists into a
``Model``'s arrays on one device (Warp's names and dtypes), closes the start-index arrays with
a sentinel, adds the ground plane as the last shape, finds the shape pairs that may collide and
allocates the contact buffers."""

import copy

import numpy as np

import treadle as wp

from .constants import flag_to_int
from .graph_coloring import ColoringAlgorithm, color_trimesh
from .model_core import Model

_DIFFERENTIABLE = {"particle_q": wp.vec3, "particle_qd": wp.vec3, "particle_mass": wp.float32,
                   "particle_radius": wp.float32, "shape_transform": wp.transform,
                   "shape_collision_radius": wp.float32, "spring_rest_length": wp.float32,
                   "spring_stiffness": wp.float32, "spring_damping": wp.float32,
                   "spring_control": wp.float32, "tri_poses": wp.mat22,
                   "tri_activations": wp.float32, "tri_materials": wp.float32,
                   "tri_areas": wp.float32, "edge_rest_angle": wp.float32,
                   "edge_rest_length": wp.float32, "edge_bending_properties": wp.float32,
                   "tet_poses": wp.mat33, "tet_activations": wp.float32,
                   "tet_materials": wp.float32, "muscle_params": wp.float32,
                   "muscle_points": wp.vec3, "muscle_activations": wp.float32,
                   "body_q": wp.transform, "body_qd": wp.spatial_vector,
                   "body_inertia": wp.mat33, "body_inv_inertia": wp.mat33,
                   "body_mass": wp.float32, "body_inv_mass": wp.float32, "body_com": wp.vec3,
                   "joint_X_p": wp.transform, "joint_X_c": wp.transform, "joint_axis": wp.vec3,
                   "joint_q": wp.float32, "joint_qd": wp.float32, "joint_armature": wp.float32,
                   "joint_target_ke": wp.float32, "joint_target_kd": wp.float32,
                   "joint_act": wp.float32, "joint_limit_lower": wp.float32,
                   "joint_limit_upper": wp.float32, "joint_limit_ke": wp.float32,
                   "joint_limit_kd": wp.float32, "joint_linear_compliance": wp.float32,
                   "joint_angular_compliance": wp.float32}
"""Builder lists copied to Model arrays of the same name that record gradients when the model
does (requires_grad)."""

_INDEX = {"particle_flags": wp.uint32, "shape_body": wp.int32, "shape_visible": wp.bool,
          "spring_indices": wp.int32, "tri_indices": wp.int32, "edge_indices": wp.int32,
          "tet_indices": wp.int32, "muscle_bodies": wp.int32, "joint_type": wp.int32,
          "joint_parent": wp.int32, "joint_child": wp.int32, "joint_axis_start": wp.int32,
          "joint_axis_mode": wp.int32, "joint_enabled": wp.int32}
"""Builder lists copied to Model arrays of the same name without gradients."""


def _closed(starts, end):
    """A start-index list with `end` appended, so that element i spans starts[i]..[i+1]."""
    closed = copy.copy(starts)
    closed.append(end)
    return closed


class FinalizeBuilder:
    """ModelBuilder.finalize and the particle colouring setters."""

    def set_coloring(self, particle_color_groups):
        """Sets the particle colour groups: a list of index lists or arrays, one per colour."""
        self.particle_color_groups = [g if isinstance(g, np.ndarray) else np.array(g)
                                      for g in particle_color_groups]

    def color(self, include_bending=False, balance_colors=True, target_max_min_color_ratio=1.1,
              coloring_algorithm=ColoringAlgorithm.MCS) -> None:
        """Colours the particles so that no triangle edge (nor, with `include_bending`, the
        two far vertices of a bending edge) joins two of one colour; with `balance_colors` the
        colours are evened out to a largest/smallest ratio of `target_max_min_color_ratio`."""
        self.particle_color_groups = color_trimesh(
            len(self.particle_q), np.array(self.edge_indices), include_bending,
            algorithm=coloring_algorithm, balance_colors=balance_colors,
            target_max_min_color_ratio=target_max_min_color_ratio)

    def finalize(self, device=None, requires_grad=False) -> Model:
        """The Model of this builder on `device` (default: the current device); with
        `requires_grad` its float arrays, and the states it makes, record gradients."""
        self.num_envs = max(1, self.num_envs)
        if not self._ground_created:
            self._create_ground_plane()
        masses = np.array(self.particle_mass, dtype=np.float32)
        inv_masses = np.divide(1.0, masses, out=np.zeros_like(masses), where=masses != 0.0)
        with wp.ScopedDevice(device):
            m = Model(device)
            m.requires_grad = requires_grad
            m.num_envs = self.num_envs
            m.ground_plane_params = self._ground_params["plane"]
            for name, dtype in _DIFFERENTIABLE.items():
                setattr(m, name, wp.array(getattr(self, name), dtype=dtype,
                                          requires_grad=requires_grad))
            for name, dtype in _INDEX.items():
                values = getattr(self, name)
                if name == "particle_flags":
                    values = [flag_to_int(f) for f in values]
                setattr(m, name, wp.array(values, dtype=dtype))
            m.particle_inv_mass = wp.array(inv_masses, dtype=wp.float32,
                                           requires_grad=requires_grad)
            m.particle_max_radius = (float(np.max(self.particle_radius))
                                     if self.particle_radius else 0.0)
            m.particle_max_velocity = self.particle_max_velocity
            self._finalize_colors(m)
            m.particle_grid = wp.HashGrid(128, 128, 128)
            self._finalize_shapes(m, device, requires_grad)
            self._finalize_joints(m)
            self._finalize_counts(m)
            self._finalize_contacts(m, requires_grad)
            m.ground_plane = wp.array(self._ground_params["plane"], dtype=wp.float32,
                                      requires_grad=requires_grad)
            m.gravity = np.array(self.up_vector, dtype=np.float32) * self.gravity
            m.up_axis = self.up_axis
            m.up_vector = np.array(self.up_vector, dtype=np.float32)
            m.enable_tri_collisions = False
            return m

    def _finalize_colors(self, m):
        colors = np.zeros(self.particle_count, dtype=np.int32)
        for color, group in enumerate(self.particle_color_groups):
            colors[np.asarray(group, dtype=np.int64)] = color
        m.particle_colors = wp.array(colors, dtype=int)
        m.particle_color_groups = [wp.array(group, dtype=int)
                                   for group in self.particle_color_groups]

    def _finalize_shapes(self, m, device, requires_grad):
        m.body_shapes = self.body_shapes
        sources, built = [], {}
        for geo in self.shape_geo_src:
            if not geo:
                sources.append(0)
                continue
            key = hash(geo)
            if key not in built:
                built[key] = geo.finalize(device=device)
            sources.append(built[key])
        m.shape_geo.type = wp.array(self.shape_geo_type, dtype=wp.int32)
        m.shape_geo.source = wp.array(sources, dtype=wp.uint64)
        m.shape_geo.scale = wp.array(self.shape_geo_scale, dtype=wp.vec3,
                                     requires_grad=requires_grad)
        m.shape_geo.is_solid = wp.array(self.shape_geo_is_solid, dtype=wp.uint8)
        m.shape_geo.thickness = wp.array(self.shape_geo_thickness, dtype=wp.float32,
                                         requires_grad=requires_grad)
        m.shape_geo_src = self.shape_geo_src
        m.geo_meshes = self.geo_meshes
        m.geo_sdfs = self.geo_sdfs
        for name in ("ke", "kd", "kf", "ka", "mu", "restitution"):
            setattr(m.shape_materials, name,
                    wp.array(getattr(self, "shape_material_" + name), dtype=wp.float32,
                             requires_grad=requires_grad))
        m.shape_collision_filter_pairs = self.shape_collision_filter_pairs
        m.shape_collision_group = self.shape_collision_group
        m.shape_collision_group_map = self.shape_collision_group_map
        m.shape_ground_collision = self.shape_ground_collision
        m.shape_shape_collision = self.shape_shape_collision

    def _finalize_joints(self, m):
        m.body_name = self.body_name
        m.muscle_start = wp.array(_closed(self.muscle_start, len(self.muscle_bodies)),
                                  dtype=wp.int32)
        m.joint_axis_dim = wp.array(np.array(self.joint_axis_dim, dtype=np.int32).reshape(-1, 2),
                                    dtype=wp.int32, ndim=2)
        m.joint_name = self.joint_name
        child_joint = {child: i for i, child in enumerate(self.joint_child)}
        m.joint_ancestor = wp.array([child_joint.get(p, -1) for p in self.joint_parent],
                                    dtype=wp.int32)
        m.joint_q_start = wp.array(_closed(self.joint_q_start, self.joint_coord_count),
                                   dtype=wp.int32)
        m.joint_qd_start = wp.array(_closed(self.joint_qd_start, self.joint_dof_count),
                                    dtype=wp.int32)
        m.articulation_start = wp.array(_closed(self.articulation_start, self.joint_count),
                                        dtype=wp.int32)

    def _finalize_counts(self, m):
        m.joint_count = self.joint_count
        m.joint_axis_count = self.joint_axis_count
        m.joint_dof_count = self.joint_dof_count
        m.joint_coord_count = self.joint_coord_count
        m.particle_count = self.particle_count
        m.body_count = self.body_count
        m.shape_count = self.shape_count
        m.tri_count = self.tri_count
        m.tet_count = self.tet_count
        m.edge_count = self.edge_count
        m.spring_count = self.spring_count
        m.muscle_count = self.muscle_count
        m.articulation_count = self.articulation_count

    def _finalize_contacts(self, m, requires_grad):
        if m.particle_count:
            m.allocate_soft_contacts(self.soft_contact_max, requires_grad=requires_grad)
        m.find_shape_contact_pairs()
        if self.num_rigid_contacts_per_env is None:
            count, limited = m.count_contact_points()
        else:
            count = limited = self.num_rigid_contacts_per_env * self.num_envs
        if count:
            if wp.config.verbose:
                print(f"Allocating {count} rigid contacts.")
            m.allocate_rigid_contacts(count=count, limited_contact_count=limited,
                                      requires_grad=requires_grad)
        m.rigid_mesh_contact_max = self.rigid_mesh_contact_max
        m.rigid_contact_margin = self.rigid_contact_margin
        m.rigid_contact_torsional_friction = self.rigid_contact_torsional_friction
        m.rigid_contact_rolling_friction = self.rigid_contact_rolling_friction
