"""Host (plain Python) versions of the Euler-angle and swing-twist builtins of quaternions and of
``velocity_at_point``: ``wp.quat_to_euler(q, 2, 1, 0)`` outside kernels.

They follow the kernel versions (native/treadle/quat_euler.h) step for step in float64 and
round once to the argument's scalar type.
"""

import math

import numpy as np

from .quat_types import _hamilton, quat_base, quaternion
from .vec_types import vector, vector_base


def _quat(q, name):
    if not isinstance(q, quat_base):
        raise TypeError(f"{name}(): expected a quaternion, got {type(q).__name__}")
    return q._data.astype(np.float64)


def _vec3(v, name, what="a 3-vector"):
    if not isinstance(v, vector_base) or v._shape != (3,):
        raise TypeError(f"{name}(): expected {what}, got {type(v).__name__}")
    return v._data.astype(np.float64)


def _axis(n):
    """The component of coordinate axis n (0, 1, else 2), as the kernels read it."""
    return 0 if n == 0 else 1 if n == 1 else 2


def quat_to_rpy(q):
    """(roll, pitch, yaw) of the unit quaternion q: the inverse of quat_rpy."""
    x, y, z, w = _quat(q, "quat_to_rpy")
    roll = math.atan2(2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y))
    pitch = math.asin(min(max(2.0 * (w * y - z * x), -1.0), 1.0))
    yaw = math.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))
    return vector(3, q._wp_scalar_type_)._new(np.array([roll, pitch, yaw]))


def quat_from_euler(e, i, j, k):
    """qk qj qi, qn the rotation by e[n] about axis n (fixed axes i, then j, then k)."""
    d = _vec3(e, "quat_from_euler")
    result = np.array([0.0, 0.0, 0.0, 1.0])
    for n in (int(i), int(j), int(k)):
        a = _axis(n)
        q = np.array([0.0, 0.0, 0.0, math.cos(0.5 * d[a])])
        q[a] = math.sin(0.5 * d[a])
        result = _hamilton(q, result)
    return quaternion(e._wp_scalar_type_)._new(result)


def quat_to_euler(q, i, j, k):
    """The Euler angles of q for the axis sequence i, j, k (see the builtin's documentation)."""
    d = _quat(q, "quat_to_euler")
    ii, jj, kk = _axis(int(i)), _axis(int(j)), _axis(int(k))
    proper = ii == kk
    if proper:
        kk = 3 - ii - jj
    sign = (ii - jj) * (jj - kk) * (kk - ii) / 2.0
    w = d[3]
    a, b, c, e = w, d[ii], d[jj], d[kk] * sign
    if not proper:
        a, b, c, e = a - d[jj], b + d[kk] * sign, c + w, e - d[ii]
    ab = a * a + b * b
    t2 = math.acos(min(max(2.0 * ab / (ab + c * c + e * e) - 1.0, -1.0), 1.0))
    tp, tm = math.atan2(b, a), math.atan2(e, c)
    t1 = 0.0
    if abs(t2) < 1e-6:
        t3 = 2.0 * tp
    elif abs(t2 - math.pi) < 1e-6:
        t3 = 2.0 * tm
    else:
        t1, t3 = tp - tm, tp + tm
    if not proper:
        t2 -= 0.5 * math.pi
        t3 *= sign
    out = np.zeros(3)
    out[ii], out[jj], out[kk] = t1, t2, t3
    return vector(3, q._wp_scalar_type_)._new(out)


def quat_twist(axis, q):
    """The twist of q about the unit axis (swing-twist decomposition)."""
    u = _vec3(axis, "quat_twist", "a 3-vector axis")
    d = _quat(q, "quat_twist")
    t = np.concatenate([u * np.dot(d[:3], u), d[3:]])
    return quaternion(q._wp_scalar_type_)._new(t / np.linalg.norm(t))


def _twist_angle(axis, q, name, absolute):
    u = _vec3(axis, name, "a 3-vector axis")
    d = _quat(q, name)
    s = float(np.dot(u, d[:3]))
    return 2.0 * math.atan2(abs(s) if absolute else s, float(d[3]))


def quat_twist_angle(axis, q):
    """2 atan2(|dot(axis, v)|, w): the unsigned twist angle of q about the unit axis."""
    return _twist_angle(axis, q, "quat_twist_angle", True)


def quat_twist_angle_signed(axis, q):
    """2 atan2(dot(axis, v), w): the signed twist angle of q about the unit axis."""
    return _twist_angle(axis, q, "quat_twist_angle_signed", False)


def velocity_at_point(qd, r):
    """v + w x r for the twist qd = (w, v) and the offset r."""
    if not isinstance(qd, vector_base) or qd._shape != (6,):
        raise TypeError(f"velocity_at_point(): expected a spatial vector, got {type(qd).__name__}")
    s = qd._data.astype(np.float64)
    x = _vec3(r, "velocity_at_point")
    return vector(3, qd._wp_scalar_type_)._new(s[3:] + np.cross(s[:3], x))


HOST_BUILTINS = {
    "quat_to_rpy": quat_to_rpy, "quat_from_euler": quat_from_euler, "quat_to_euler": quat_to_euler,
    "quat_twist": quat_twist, "quat_twist_angle": quat_twist_angle,
    "quat_twist_angle_signed": quat_twist_angle_signed, "velocity_at_point": velocity_at_point,
}
"""Host versions of builtins implemented here (merged by ``host_builtins.py``)."""
