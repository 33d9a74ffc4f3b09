"""treadle.sim.builder_joints -- the joint part of ``ModelBuilder``: articulations and joints of
every kind (``add_joint`` and its shorthands).

A joint connects `parent` (-1: the world) to `child` through two anchor frames, `parent_xform`
in the parent body and `child_xform` in the child; its linear then angular axes (``JointAxis``)
are its degrees of freedom, each with a slot in ``joint_act`` and the axis arrays. Position and
velocity coordinates per kind: prismatic and revolute 1/1, ball 4/3 (a quaternion), free and
distance 7/6 (position, quaternion / angular, linear velocity), universal 2/2, compound 3/3,
fixed 0/0, D6 one per axis.
"""

import math

import numpy as np

import treadle as wp

from .constants import (JOINT_BALL, JOINT_COMPOUND, JOINT_D6, JOINT_DISTANCE, JOINT_DOFS,
                        JOINT_FIXED, JOINT_FREE, JOINT_MODE_FORCE, JOINT_MODE_TARGET_POSITION,
                        JOINT_PRISMATIC, JOINT_REVOLUTE, JOINT_UNIVERSAL)
from .host_utils import as_transform
from .joint_axis import JointAxis


class JointBuilder:
    """Methods of ModelBuilder that add articulations and joints."""

    def add_articulation(self):
        """Starts a new articulation: the joints added from now on belong to it."""
        self.articulation_start.append(self.joint_count)

    def _add_axis(self, axis: JointAxis):
        self.joint_axis.append(axis.axis)
        self.joint_axis_mode.append(axis.mode)
        self.joint_act.append(axis.action)
        self.joint_target_ke.append(axis.target_ke)
        self.joint_target_kd.append(axis.target_kd)
        self.joint_limit_ke.append(axis.limit_ke)
        self.joint_limit_kd.append(axis.limit_kd)
        # an unbounded axis stores a far limit, so that kernels compare with finite numbers
        self.joint_limit_lower.append(axis.limit_lower if np.isfinite(axis.limit_lower) else -1e6)
        self.joint_limit_upper.append(axis.limit_upper if np.isfinite(axis.limit_upper) else 1e6)

    def add_joint(self, joint_type, parent: int, child: int, linear_axes=None, angular_axes=None,
                  name: str = None, parent_xform=None, child_xform=None,
                  linear_compliance: float = 0.0, angular_compliance: float = 0.0,
                  armature: float = 1e-2, collision_filter_parent: bool = True,
                  enabled: bool = True) -> int:
        """Adds a joint of kind `joint_type` (``JOINT_*``) from body `parent` (-1: world) to
        body `child` with the given ``JointAxis`` lists, anchor frames, compliances, `armature`
        per degree of freedom (Featherstone only) and `enabled` flag; with
        `collision_filter_parent` the shapes of the two bodies do not collide. Returns the
        joint's index. The first joint opens an articulation if none was started."""
        linear_axes = list(linear_axes or [])
        angular_axes = list(angular_axes or [])
        if not self.articulation_start:
            self.add_articulation()
        self.joint_type.append(joint_type)
        self.joint_parent.append(parent)
        self.joint_parents.setdefault(child, []).append(parent)
        self.joint_child.append(child)
        self.joint_X_p.append(wp.transform() if parent_xform is None else as_transform(parent_xform))
        self.joint_X_c.append(wp.transform() if child_xform is None else as_transform(child_xform))
        self.joint_name.append(name or f"joint {self.joint_count}")
        self.joint_axis_start.append(len(self.joint_axis))
        self.joint_axis_dim.append((len(linear_axes), len(angular_axes)))
        self.joint_axis_total_count += len(linear_axes) + len(angular_axes)
        self.joint_linear_compliance.append(linear_compliance)
        self.joint_angular_compliance.append(angular_compliance)
        self.joint_enabled.append(enabled)
        for axis in linear_axes + angular_axes:
            self._add_axis(axis)
        if joint_type == JOINT_D6:
            coord_count = dof_count = len(linear_axes) + len(angular_axes)
        else:
            coord_count, dof_count = JOINT_DOFS[joint_type]
        self.joint_q.extend([0.0] * coord_count)
        self.joint_qd.extend([0.0] * dof_count)
        self.joint_armature.extend([armature] * dof_count)
        if joint_type in (JOINT_FREE, JOINT_DISTANCE, JOINT_BALL):
            self.joint_q[-1] = 1.0  # the identity quaternion's w
        self.joint_q_start.append(self.joint_coord_count)
        self.joint_qd_start.append(self.joint_dof_count)
        self.joint_coord_count += coord_count
        self.joint_dof_count += dof_count
        if collision_filter_parent and parent > -1:
            for child_shape in self.body_shapes[child]:
                for parent_shape in self.body_shapes[parent]:
                    self.shape_collision_filter_pairs.add((parent_shape, child_shape))
        return self.joint_count - 1

    def _add_single_axis_joint(self, joint_type, parent, child, parent_xform, child_xform, axis,
                               target, target_ke, target_kd, mode, limit_lower, limit_upper,
                               limit_ke, limit_kd, common):
        action = 0.0
        if target is None and mode == JOINT_MODE_TARGET_POSITION:
            action = 0.5 * (limit_lower + limit_upper)
        elif target is not None:
            action = target
            if mode == JOINT_MODE_FORCE:
                mode = JOINT_MODE_TARGET_POSITION
        ax = JointAxis(axis=axis, limit_lower=limit_lower, limit_upper=limit_upper,
                       action=action, target_ke=target_ke, target_kd=target_kd, mode=mode,
                       limit_ke=self.default_joint_limit_ke if limit_ke is None else limit_ke,
                       limit_kd=self.default_joint_limit_kd if limit_kd is None else limit_kd)
        axes = {"linear_axes" if joint_type == JOINT_PRISMATIC else "angular_axes": [ax]}
        return self.add_joint(joint_type, parent, child, parent_xform=parent_xform,
                              child_xform=child_xform, **axes, **common)

    def add_joint_revolute(self, parent: int, child: int, parent_xform=None, child_xform=None,
                           axis=(1.0, 0.0, 0.0), target: float = None, target_ke: float = 0.0,
                           target_kd: float = 0.0, mode: int = JOINT_MODE_FORCE,
                           limit_lower: float = -2 * math.pi, limit_upper: float = 2 * math.pi,
                           limit_ke: float = None, limit_kd: float = None,
                           linear_compliance: float = 0.0, angular_compliance: float = 0.0,
                           armature: float = 1e-2, name: str = None,
                           collision_filter_parent: bool = True, enabled: bool = True) -> int:
        """Adds a hinge about `axis` (in the anchor frames; a JointAxis is used as given). A
        `target` angle (radians) turns a force-mode axis into a position-driven one."""
        common = {"linear_compliance": linear_compliance, "angular_compliance": angular_compliance,
                  "armature": armature, "name": name, "enabled": enabled,
                  "collision_filter_parent": collision_filter_parent}
        return self._add_single_axis_joint(JOINT_REVOLUTE, parent, child, parent_xform,
                                           child_xform, axis, target, target_ke, target_kd, mode,
                                           limit_lower, limit_upper, limit_ke, limit_kd, common)

    def add_joint_prismatic(self, parent: int, child: int, parent_xform=None, child_xform=None,
                            axis=(1.0, 0.0, 0.0), target: float = None, target_ke: float = 0.0,
                            target_kd: float = 0.0, mode: int = JOINT_MODE_FORCE,
                            limit_lower: float = -1e4, limit_upper: float = 1e4,
                            limit_ke: float = None, limit_kd: float = None,
                            linear_compliance: float = 0.0, angular_compliance: float = 0.0,
                            armature: float = 1e-2, name: str = None,
                            collision_filter_parent: bool = True, enabled: bool = True) -> int:
        """Adds a slider along `axis`; a `target` position drives it like add_joint_revolute's
        target angle."""
        common = {"linear_compliance": linear_compliance, "angular_compliance": angular_compliance,
                  "armature": armature, "name": name, "enabled": enabled,
                  "collision_filter_parent": collision_filter_parent}
        return self._add_single_axis_joint(JOINT_PRISMATIC, parent, child, parent_xform,
                                           child_xform, axis, target, target_ke, target_kd, mode,
                                           limit_lower, limit_upper, limit_ke, limit_kd, common)

    def add_joint_ball(self, parent: int, child: int, parent_xform=None, child_xform=None,
                       linear_compliance: float = 0.0, angular_compliance: float = 0.0,
                       armature: float = 1e-2, name: str = None,
                       collision_filter_parent: bool = True, enabled: bool = True) -> int:
        """Adds a ball joint: 3 rotational degrees of freedom, its position a quaternion."""
        return self.add_joint(JOINT_BALL, parent, child, parent_xform=parent_xform,
                              child_xform=child_xform, linear_compliance=linear_compliance,
                              angular_compliance=angular_compliance, armature=armature, name=name,
                              collision_filter_parent=collision_filter_parent, enabled=enabled)

    def add_joint_fixed(self, parent: int, child: int, parent_xform=None, child_xform=None,
                        linear_compliance: float = 0.0, angular_compliance: float = 0.0,
                        armature: float = 1e-2, name: str = None,
                        collision_filter_parent: bool = True, enabled: bool = True) -> int:
        """Adds a weld without degrees of freedom (see ``collapse_fixed_joints``)."""
        return self.add_joint(JOINT_FIXED, parent, child, parent_xform=parent_xform,
                              child_xform=child_xform, linear_compliance=linear_compliance,
                              angular_compliance=angular_compliance, armature=armature, name=name,
                              collision_filter_parent=collision_filter_parent, enabled=enabled)

    def add_joint_free(self, child: int, parent_xform=None, child_xform=None,
                       armature: float = 0.0, parent: int = -1, name: str = None,
                       collision_filter_parent: bool = True, enabled: bool = True) -> int:
        """Adds a free joint: 7 position coordinates (translation, quaternion xyzw) and 6
        velocity coordinates (angular, then linear)."""
        return self.add_joint(JOINT_FREE, parent, child, parent_xform=parent_xform,
                              child_xform=child_xform, armature=armature, name=name,
                              collision_filter_parent=collision_filter_parent, enabled=enabled)

    def add_joint_distance(self, parent: int, child: int, parent_xform=None, child_xform=None,
                           min_distance: float = -1.0, max_distance: float = 1.0,
                           compliance: float = 0.0, collision_filter_parent: bool = True,
                           enabled: bool = True) -> int:
        """Adds a distance joint keeping the anchors between `min_distance` and `max_distance`
        apart (no bound where negative); coordinates as a free joint's. Only Warp's XPBD
        integrator simulates it."""
        ax = JointAxis(axis=(1.0, 0.0, 0.0), limit_lower=min_distance, limit_upper=max_distance)
        return self.add_joint(JOINT_DISTANCE, parent, child, parent_xform=parent_xform,
                              child_xform=child_xform, linear_axes=[ax],
                              linear_compliance=compliance,
                              collision_filter_parent=collision_filter_parent, enabled=enabled)

    def add_joint_universal(self, parent: int, child: int, axis_0, axis_1, parent_xform=None,
                            child_xform=None, linear_compliance: float = 0.0,
                            angular_compliance: float = 0.0, armature: float = 1e-2,
                            name: str = None, collision_filter_parent: bool = True,
                            enabled: bool = True) -> int:
        """Adds a universal joint: rotations about `axis_0` then `axis_1`."""
        return self.add_joint(JOINT_UNIVERSAL, parent, child,
                              angular_axes=[JointAxis(axis_0), JointAxis(axis_1)],
                              parent_xform=parent_xform, child_xform=child_xform,
                              linear_compliance=linear_compliance,
                              angular_compliance=angular_compliance, armature=armature, name=name,
                              collision_filter_parent=collision_filter_parent, enabled=enabled)

    def add_joint_compound(self, parent: int, child: int, axis_0, axis_1, axis_2,
                           parent_xform=None, child_xform=None, linear_compliance: float = 0.0,
                           angular_compliance: float = 0.0, armature: float = 1e-2,
                           name: str = None, collision_filter_parent: bool = True,
                           enabled: bool = True) -> int:
        """Adds a compound joint: rotations about three axes in sequence (Euler or Tait-Bryan
        angles, depending on the axes)."""
        return self.add_joint(JOINT_COMPOUND, parent, child,
                              angular_axes=[JointAxis(axis_0), JointAxis(axis_1),
                                            JointAxis(axis_2)],
                              parent_xform=parent_xform, child_xform=child_xform,
                              linear_compliance=linear_compliance,
                              angular_compliance=angular_compliance, armature=armature, name=name,
                              collision_filter_parent=collision_filter_parent, enabled=enabled)

    def add_joint_d6(self, parent: int, child: int, linear_axes=None, angular_axes=None,
                     name: str = None, parent_xform=None, child_xform=None,
                     linear_compliance: float = 0.0, angular_compliance: float = 0.0,
                     armature: float = 1e-2, collision_filter_parent: bool = True,
                     enabled: bool = True):
        """Adds a generic joint with up to three linear and three angular axes, one degree of
        freedom each."""
        return self.add_joint(JOINT_D6, parent, child, parent_xform=parent_xform,
                              child_xform=child_xform,
                              linear_axes=[JointAxis(a) for a in linear_axes or []],
                              angular_axes=[JointAxis(a) for a in angular_axes or []],
                              linear_compliance=linear_compliance,
                              angular_compliance=angular_compliance, armature=armature, name=name,
                              collision_filter_parent=collision_filter_parent, enabled=enabled)
