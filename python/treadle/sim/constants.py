"""treadle.sim.constants -- the integer codes of warp.sim: particle flags, shape geometry kinds,
joint kinds and joint-axis drive modes, as kernel constants (``wp.constant``) with Warp's values.
"""

import treadle as wp

PARTICLE_FLAG_ACTIVE = wp.constant(wp.uint32(1 << 0))
"""Bit of ``Model.particle_flags``: the particle is simulated (an inactive one keeps its place)."""

# Shape geometry kinds (``ModelShapeGeometry.type``).
GEO_SPHERE = wp.constant(0)
GEO_BOX = wp.constant(1)
GEO_CAPSULE = wp.constant(2)
GEO_CYLINDER = wp.constant(3)
GEO_CONE = wp.constant(4)
GEO_MESH = wp.constant(5)
GEO_SDF = wp.constant(6)
GEO_PLANE = wp.constant(7)
GEO_NONE = wp.constant(8)

# Joint kinds (``Model.joint_type``).
JOINT_PRISMATIC = wp.constant(0)
JOINT_REVOLUTE = wp.constant(1)
JOINT_BALL = wp.constant(2)
JOINT_FIXED = wp.constant(3)
JOINT_FREE = wp.constant(4)
JOINT_COMPOUND = wp.constant(5)
JOINT_UNIVERSAL = wp.constant(6)
JOINT_DISTANCE = wp.constant(7)
JOINT_D6 = wp.constant(8)

# What a joint axis's ``action`` (``Control.joint_act``) means.
JOINT_MODE_FORCE = wp.constant(0)
JOINT_MODE_TARGET_POSITION = wp.constant(1)
JOINT_MODE_TARGET_VELOCITY = wp.constant(2)

JOINT_DOFS = {
    JOINT_PRISMATIC: (1, 1),
    JOINT_REVOLUTE: (1, 1),
    JOINT_BALL: (4, 3),
    JOINT_FIXED: (0, 0),
    JOINT_FREE: (7, 6),
    JOINT_DISTANCE: (7, 6),
    JOINT_UNIVERSAL: (2, 2),
    JOINT_COMPOUND: (3, 3),
}
"""(position coordinates, velocity coordinates) of each joint kind but D6, whose count is its
number of axes."""


def flag_to_int(flag):
    """The integer value of a particle flag given as a treadle integer scalar or a Python int."""
    if hasattr(flag, "value"):
        return int(flag.value)
    return int(flag)
