"""treadle.sim.host_utils -- host-side helpers of the model builder: reading a transform in any
of the forms Warp programs store them, and inverting inertia tensors."""

import numpy as np

import treadle as wp


def as_transform(t) -> wp.transform:
    """`t` as a new ``wp.transform``: a transform, 7 numbers (p then q, xyzw) or a (p, q)
    pair."""
    if len(t) == 2:
        return wp.transform(wp.vec3(t[0]), wp.quat(t[1]))
    return wp.transform(*[float(x) for x in t])


def inverse_or_zero(m) -> wp.mat33:
    """The inverse of the 3x3 matrix `m`, or the zero matrix when `m` is singular (Warp's
    ``wp.inverse`` answer for a singular matrix, which the builder relies on for massless
    bodies)."""
    a = np.array(m, dtype=np.float64).reshape(3, 3)
    if np.linalg.det(a) == 0.0:
        return wp.mat33()
    return wp.mat33(*np.linalg.inv(a).flatten())


def or_empty(arr, dtype, device):
    """`arr`, or an empty array of `dtype` when it is None: treadle refuses a null array for a
    kernel parameter the kernel reads even where no thread reaches the read (a model without
    bodies passes its absent body arrays to the particle-contact kernels)."""
    return wp.empty(0, dtype=dtype, device=device) if arr is None else arr


def rotate_points(q, points) -> np.ndarray:
    """`points` (n x 3) rotated by quaternion `q` (x, y, z, w), as float64 rows: the builder's
    grid helpers place many particles at once this way."""
    x, y, z, w = (float(c) for c in q)
    rot = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
    return np.asarray(points, dtype=np.float64).reshape(-1, 3) @ rot.T
