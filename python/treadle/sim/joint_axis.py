"""treadle.sim.joint_axis -- ``JointAxis``: one linear or angular axis of a joint with its
limits, drive gains and default action, as the builder's ``add_joint*`` methods take them."""

import math

import treadle as wp

from .constants import JOINT_MODE_FORCE, JOINT_MODE_TARGET_POSITION


class JointAxis:
    """A joint axis that can have limits and be driven towards a target.

    `axis` is a 3D direction (normalised here) or another JointAxis to copy. `limit_lower` /
    `limit_upper` bound its coordinate, enforced by springs of stiffness `limit_ke` and damping
    `limit_kd` in the Euler integrators; `action` is the default force, target position or
    target velocity (per `mode`, a ``JOINT_MODE_*``), driven with gains `target_ke` and
    `target_kd`. Without an `action`, a position-driven axis whose range excludes 0 aims at the
    middle of its range."""

    def __init__(self, axis, limit_lower=-math.inf, limit_upper=math.inf, limit_ke=100.0,
                 limit_kd=10.0, action=None, target_ke=0.0, target_kd=0.0,
                 mode=JOINT_MODE_FORCE):
        if isinstance(axis, JointAxis):
            self.__dict__.update(axis.__dict__)
            return
        self.axis = wp.normalize(wp.vec3(axis))
        self.limit_lower = limit_lower
        self.limit_upper = limit_upper
        self.limit_ke = limit_ke
        self.limit_kd = limit_kd
        if action is not None:
            self.action = action
        elif mode == JOINT_MODE_TARGET_POSITION and (limit_lower > 0.0 or limit_upper < 0.0):
            self.action = 0.5 * (limit_lower + limit_upper)
        else:
            self.action = 0.0
        self.target_ke = target_ke
        self.target_kd = target_kd
        self.mode = mode
