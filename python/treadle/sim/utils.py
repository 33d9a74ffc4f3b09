"""treadle.sim.utils -- the kernel functions of ``warp.sim.utils`` (spatial-vector and quaternion
helpers, smooth minima and maxima) and ``load_mesh``.

Spatial vectors are (angular, linear): a twist is (w, v), a wrench (torque, force).
"""

import importlib
import os

import numpy as np

import treadle as wp


@wp.func
def acos_clamped(x: float):
    """acos of `x` clamped to [-1, 1], as Warp's ``wp.acos`` is (treadle's gives NaN for a
    cosine rounded past 1, such as that of two parallel unit normals)."""
    return wp.acos(wp.clamp(x, -1.0, 1.0))


@wp.func
def velocity_at_point(qd: wp.spatial_vector, r: wp.vec3):
    """Velocity of the point at offset `r` from the origin of a frame moving with twist `qd`."""
    return wp.cross(wp.spatial_top(qd), r) + wp.spatial_bottom(qd)


@wp.func
def quat_twist(axis: wp.vec3, q: wp.quat):
    """The twist part of `q` about the unit `axis` (swing-twist decomposition), normalised."""
    imag = wp.vec3(q[0], q[1], q[2])
    along = axis * wp.dot(imag, axis)
    return wp.normalize(wp.quat(along[0], along[1], along[2], q[3]))


@wp.func
def quat_twist_angle(axis: wp.vec3, q: wp.quat):
    """Angle (radians, in [0, 2 pi]) of the twist of `q` about `axis`."""
    return 2.0 * acos_clamped(quat_twist(axis, q)[3])


@wp.func
def quat_decompose(q: wp.quat):
    """Angles (x, y, z) of `q` as rotations about x, then the new y, then the new z axis
    (q = q_z'' q_y' q_x)."""
    ex = wp.quat_rotate(q, wp.vec3(1.0, 0.0, 0.0))
    ey = wp.quat_rotate(q, wp.vec3(0.0, 1.0, 0.0))
    ez = wp.quat_rotate(q, wp.vec3(0.0, 0.0, 1.0))
    phi = wp.atan2(ez[1], ez[2])
    sin_theta = -ez[0]
    theta = float(0.0)
    if wp.abs(sin_theta) >= 1.0:
        theta = wp.HALF_PI * wp.sign(sin_theta)
    else:
        theta = wp.asin(sin_theta)
    psi = wp.atan2(ey[0], ex[0])
    return -wp.vec3(phi, theta, psi)


@wp.func
def quat_to_rpy(q: wp.quat):
    """Roll, pitch and yaw (rotations about x, y, z, radians) of `q`."""
    x = q[0]
    y = q[1]
    z = q[2]
    w = q[3]
    roll = wp.atan2(2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y))
    pitch = wp.asin(wp.clamp(2.0 * (w * y - z * x), -1.0, 1.0))
    yaw = wp.atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))
    return wp.vec3(roll, pitch, yaw)


@wp.func
def quat_to_euler(q: wp.quat, i: int, j: int, k: int) -> wp.vec3:
    """Euler angles of `q` about axes i, j, k (0: x, 1: y, 2: z; i != j, j != k), by Bernardes
    and Viollet's general method (PLOS ONE 2022). As in Warp, the method's quaternion indices
    (real part first) are applied to `q`'s components as stored (x, y, z, w)."""
    i += 1
    j += 1
    k += 1
    proper = i == k
    if proper:
        k = 6 - i - j
    parity = float((i - j) * (j - k) * (k - i)) / 2.0
    a = q[0]
    b = q[i]
    c = q[j]
    d = q[k] * parity
    if not proper:
        a = q[0] - q[j]
        b = q[i] + q[k] * parity
        c = q[j] + q[0]
        d = q[k] * parity - q[i]
    t2 = acos_clamped(2.0 * (a * a + b * b) / (a * a + b * b + c * c + d * d) - 1.0)
    half_sum = wp.atan2(b, a)
    half_diff = wp.atan2(d, c)
    t1 = float(0.0)
    t3 = float(0.0)
    if wp.abs(t2) < 1e-6:
        t3 = 2.0 * half_sum - t1
    elif wp.abs(t2 - wp.HALF_PI) < 1e-6:
        t3 = 2.0 * half_diff + t1
    else:
        t1 = half_sum - half_diff
        t3 = half_sum + half_diff
    if not proper:
        t2 -= wp.HALF_PI
        t3 *= parity
    return wp.vec3(t1, t2, t3)


@wp.func
def quat_from_euler(e: wp.vec3, i: int, j: int, k: int) -> wp.quat:
    """The quaternion of Euler angles `e` about axes i, j, k (0: x, 1: y, 2: z), e.g. (0, 1, 2)
    for the XYZ sequence."""
    h = e * 0.5
    cr = wp.cos(h[i])
    sr = wp.sin(h[i])
    cp = wp.cos(h[j])
    sp = wp.sin(h[j])
    cy = wp.cos(h[k])
    sy = wp.sin(h[k])
    return wp.quat(cy * sr * cp - sy * cr * sp, cy * cr * sp + sy * sr * cp,
                   sy * cr * cp - cy * sr * sp, cy * cr * cp + sy * sr * sp)


@wp.func
def transform_twist(t: wp.transform, x: wp.spatial_vector):
    """Twist `x` expressed in the frame `t` maps into (Featherstone's adjoint transform)."""
    q = wp.transform_get_rotation(t)
    w = wp.quat_rotate(q, wp.spatial_top(x))
    v = wp.quat_rotate(q, wp.spatial_bottom(x)) + wp.cross(wp.transform_get_translation(t), w)
    return wp.spatial_vector(w, v)


@wp.func
def transform_wrench(t: wp.transform, x: wp.spatial_vector):
    """Wrench `x` expressed in the frame `t` maps into."""
    q = wp.transform_get_rotation(t)
    f = wp.quat_rotate(q, wp.spatial_bottom(x))
    tau = wp.quat_rotate(q, wp.spatial_top(x)) + wp.cross(wp.transform_get_translation(t), f)
    return wp.spatial_vector(tau, f)


@wp.func
def transform_inertia(t: wp.transform, I: wp.spatial_matrix):
    """Spatial inertia `I` moved by transform `t`: Ad(t^-1)^T I Ad(t^-1)."""
    t_inv = wp.transform_inverse(t)
    q = wp.transform_get_rotation(t_inv)
    rot = wp.quat_to_matrix(q)
    shift = wp.skew(wp.transform_get_translation(t_inv)) * rot
    adjoint = wp.spatial_adjoint(rot, shift)
    return wp.transpose(adjoint) * I * adjoint


@wp.func
def boltzmann(a: float, b: float, alpha: float):
    """Boltzmann-weighted mean of `a` and `b` (a smooth max for alpha > 0)."""
    ea = wp.exp(alpha * a)
    eb = wp.exp(alpha * b)
    return (a * ea + b * eb) / (ea + eb)


@wp.func
def smooth_max(a: float, b: float, eps: float):
    """max(a, b) rounded over a width sqrt(eps)."""
    d = a - b
    return 0.5 * (a + b + wp.sqrt(d * d + eps))


@wp.func
def smooth_min(a: float, b: float, eps: float):
    """min(a, b) rounded over a width sqrt(eps)."""
    d = a - b
    return 0.5 * (a + b - wp.sqrt(d * d + eps))


@wp.func
def leaky_max(a: float, b: float):
    """smooth_max with eps 1e-5."""
    return smooth_max(a, b, 1e-5)


@wp.func
def leaky_min(a: float, b: float):
    """smooth_min with eps 1e-5."""
    return smooth_min(a, b, 1e-5)


@wp.func
def vec_min(a: wp.vec3, b: wp.vec3):
    """Component-wise minimum."""
    return wp.vec3(wp.min(a[0], b[0]), wp.min(a[1], b[1]), wp.min(a[2], b[2]))


@wp.func
def vec_max(a: wp.vec3, b: wp.vec3):
    """Component-wise maximum."""
    return wp.vec3(wp.max(a[0], b[0]), wp.max(a[1], b[1]), wp.max(a[2], b[2]))


@wp.func
def vec_leaky_min(a: wp.vec3, b: wp.vec3):
    """Component-wise leaky_min."""
    return wp.vec3(leaky_min(a[0], b[0]), leaky_min(a[1], b[1]), leaky_min(a[2], b[2]))


@wp.func
def vec_leaky_max(a: wp.vec3, b: wp.vec3):
    """Component-wise leaky_max."""
    return wp.vec3(leaky_max(a[0], b[0]), leaky_max(a[1], b[1]), leaky_max(a[2], b[2]))


@wp.func
def vec_abs(a: wp.vec3):
    """Component-wise absolute value."""
    return wp.vec3(wp.abs(a[0]), wp.abs(a[1]), wp.abs(a[2]))


def _read_obj(filename):
    points, faces = [], []
    with open(filename) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "v":
                points.append([float(x) for x in parts[1:4]])
            elif parts[0] == "f":
                corners = [int(p.split("/")[0]) for p in parts[1:]]
                corners = [c - 1 if c > 0 else len(points) + c for c in corners]
                for n in range(1, len(corners) - 1):  # fan-triangulate polygons
                    faces.extend((corners[0], corners[n], corners[n + 1]))
    return np.array(points, dtype=np.float32), np.array(faces, dtype=np.int32)


def load_mesh(filename: str, method: str = None):
    """Loads a triangle mesh: (points n x 3 float32, indices int32, 3 per face). Wavefront OBJ
    files are read directly; other formats, or `method` "trimesh", "meshio", "pcu" or
    "openmesh", go through that library if it is installed."""
    if not os.path.exists(filename):
        raise FileNotFoundError(f"load_mesh(): file not found ({filename})")
    if method is None and filename.lower().endswith(".obj"):
        return _read_obj(filename)
    errors = []
    for name in [method] if method else ["trimesh", "meshio", "pcu", "openmesh"]:
        try:
            points, indices = _load_with(name, filename)
        except Exception as e:  # a missing or failing library: try the next
            errors.append(f"{name}: {e}")
            continue
        if len(points) > 0:
            return points, indices
        errors.append(f"{name}: no vertices")
    raise ValueError(f"load_mesh(): could not load {filename} ({'; '.join(errors)})")


def _load_with(method, filename):
    """(points, indices) read by the optional library `method` (imported on first use)."""
    if method == "meshio":
        meshio = importlib.import_module("meshio")
        m = meshio.read(filename)
        return np.array(m.points, dtype=np.float32), np.array(m.cells[0].data, dtype=np.int32)
    if method == "openmesh":
        m = importlib.import_module("openmesh").read_trimesh(filename)
        return (np.array(m.points(), dtype=np.float32),
                np.array(m.face_vertex_indices(), dtype=np.int32).flatten())
    if method == "pcu":
        points, faces = importlib.import_module("point_cloud_utils").load_mesh_vf(filename)
        return np.array(points, dtype=np.float32), np.array(faces, dtype=np.int32).flatten()
    m = importlib.import_module("trimesh").load(filename)
    geometries = list(m.geometry.values()) if hasattr(m, "geometry") else [m]
    points, faces, offset = [], [], 0
    for g in geometries:
        points.append(np.array(g.vertices, dtype=np.float32))
        faces.append(np.array(g.faces, dtype=np.int32).flatten() + offset)
        offset += len(g.vertices)
    return np.concatenate(points), np.concatenate(faces)
