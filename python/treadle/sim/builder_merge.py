"""treadle.sim.builder_merge -- ``ModelBuilder.add_builder``: copies another builder's content
into this one (an environment of a multi-environment scene), shifting its indices, optionally
moving its root bodies by a transform and giving its shapes a collision group of their own."""

import copy

import numpy as np

import treadle as wp

from .constants import JOINT_FREE
from .graph_coloring import combine_independent_particle_coloring
from .host_utils import as_transform

_COPIED = """
body_inertia body_mass body_inv_inertia body_inv_mass body_com body_qd body_name joint_type
joint_enabled joint_X_c joint_armature joint_axis joint_axis_dim joint_axis_mode joint_name
joint_qd joint_act joint_limit_lower joint_limit_upper joint_limit_ke joint_limit_kd
joint_target_ke joint_target_kd joint_linear_compliance joint_angular_compliance shape_visible
shape_geo_type shape_geo_scale shape_geo_src shape_geo_is_solid shape_geo_thickness
shape_material_ke shape_material_kd shape_material_kf shape_material_ka shape_material_mu
shape_material_restitution shape_collision_radius shape_ground_collision shape_shape_collision
particle_qd particle_mass particle_radius particle_flags edge_rest_angle edge_rest_length
edge_bending_properties spring_rest_length spring_stiffness spring_damping spring_control
tri_poses tri_activations tri_materials tri_areas tet_poses tet_activations tet_materials
""".split()
"""Builder lists appended unchanged by add_builder (they hold no indices)."""


def _shifted(values, offset):
    """Index lists shifted by `offset`, -1 (no element) left alone."""
    a = np.array(values, dtype=np.int64)
    a[a != -1] += offset
    return a.tolist()


class MergeBuilder:
    """ModelBuilder.add_builder."""

    def add_builder(self, builder, xform=None, update_num_env_count: bool = True,
                    separate_collision_group: bool = True):
        """Appends the content of ModelBuilder `builder`. `xform` moves its particles (by its
        translation), static shapes, bodies, free joints and root joint anchors; with
        `separate_collision_group` all its shapes join one new collision group, otherwise its
        groups are renumbered after this builder's (-1 stays -1). `update_num_env_count` counts
        it as one more environment."""
        xform = None if xform is None else as_transform(xform)
        start_particle = self.particle_count
        if builder.particle_count:
            self.particle_max_velocity = builder.particle_max_velocity
            offset = np.zeros(3) if xform is None else np.array(xform.p, dtype=np.float64)
            self.particle_q.extend(wp.vec3(p) for p in np.array(builder.particle_q) + offset)
        for name, count in (("spring_indices", builder.spring_count),
                            ("edge_indices", builder.edge_count),
                            ("tri_indices", builder.tri_count),
                            ("tet_indices", builder.tet_count)):
            if count:
                getattr(self, name).extend(_shifted(getattr(builder, name), start_particle))
        self.particle_color_groups = combine_independent_particle_coloring(
            self.particle_color_groups,
            [np.asarray(group) + start_particle for group in builder.particle_color_groups])
        self._merge_shapes(builder, xform)
        self._merge_joints(builder, xform)
        for q in builder.body_q:
            self.body_q.append(as_transform(q) if xform is None else xform * as_transform(q))
        self._merge_collision_groups(builder, separate_collision_group)
        for name in _COPIED:
            getattr(self, name).extend(getattr(builder, name))
        self.joint_dof_count += builder.joint_dof_count
        self.joint_coord_count += builder.joint_coord_count
        self.joint_axis_total_count += builder.joint_axis_total_count
        self.up_vector = builder.up_vector
        self.gravity = builder.gravity
        self._ground_params = builder._ground_params
        if update_num_env_count:
            self.num_envs += 1

    def _merge_shapes(self, builder, xform):
        start_body, start_shape = self.body_count, self.shape_count
        for s, b in enumerate(builder.shape_body):
            tf = as_transform(builder.shape_transform[s])
            if b > -1:
                self.shape_body.append(b + start_body)
                self.shape_transform.append(tf)
            else:
                self.shape_body.append(-1)
                self.shape_transform.append(tf if xform is None else xform * tf)
        for b, shapes in builder.body_shapes.items():
            key = b + start_body if b > -1 else -1
            self.body_shapes.setdefault(key, []).extend(s + start_shape for s in shapes)

    def _merge_joints(self, builder, xform):
        if not builder.joint_count:
            return
        joint_x_p = [as_transform(t) for t in builder.joint_X_p]
        joint_q = copy.deepcopy(builder.joint_q)
        if xform is not None:
            for i in range(builder.joint_count):
                if builder.joint_type[i] == JOINT_FREE:
                    qi = builder.joint_q_start[i]
                    moved = xform * wp.transform(wp.vec3(*joint_q[qi:qi + 3]),
                                                 wp.quat(*joint_q[qi + 3:qi + 7]))
                    joint_q[qi:qi + 3] = list(moved.p)
                    joint_q[qi + 3:qi + 7] = list(moved.q)
                elif builder.joint_parent[i] == -1:
                    joint_x_p[i] = xform * joint_x_p[i]
        self.joint_X_p.extend(joint_x_p)
        self.joint_q.extend(joint_q)
        self.articulation_start.extend(a + self.joint_count for a in builder.articulation_start)
        self.joint_parent.extend(p + self.body_count if p != -1 else -1
                                 for p in builder.joint_parent)
        self.joint_child.extend(c + self.body_count for c in builder.joint_child)
        for child, parents in builder.joint_parents.items():
            self.joint_parents.setdefault(child + self.body_count, []).extend(
                p + self.body_count if p != -1 else -1 for p in parents)
        self.joint_q_start.extend(c + self.joint_coord_count for c in builder.joint_q_start)
        self.joint_qd_start.extend(c + self.joint_dof_count for c in builder.joint_qd_start)
        self.joint_axis_start.extend(a + self.joint_axis_total_count
                                     for a in builder.joint_axis_start)

    def _merge_collision_groups(self, builder, separate):
        def new_group(g):
            if separate:
                return self.last_collision_group + 1
            return g + self.last_collision_group if g > -1 else -1

        self.shape_collision_group.extend(new_group(g) for g in builder.shape_collision_group)
        start_shape = len(self.shape_collision_group) - len(builder.shape_collision_group)
        for i, j in builder.shape_collision_filter_pairs:
            self.shape_collision_filter_pairs.add((i + start_shape, j + start_shape))
        for group, shapes in builder.shape_collision_group_map.items():
            self.shape_collision_group_map.setdefault(new_group(group), []).extend(
                s + start_shape for s in shapes)
        if separate:
            self.last_collision_group += 1
        elif builder.last_collision_group > -1:
            self.last_collision_group += builder.last_collision_group
