"""Host (plain Python) versions of the vector, matrix, quaternion and transform builtins that
Warp also lets programs call outside kernels: ``wp.transpose(m)``, ``wp.transform_point(t, p)``.

Results have the argument's scalar type; the arithmetic runs in float64 and is rounded once.
"""

import builtins
import math

import numpy as np

from . import scalar_types
from .quat_types import _hamilton, quat_base, quaternion, rotate_np, transform_base, transformation
from .vec_types import composite_base, matrix, vector, vector_base


def _composite(x, name, what="a vector or matrix"):
    if not isinstance(x, composite_base):
        raise TypeError(f"{name}(): expected {what}, got {type(x).__name__}")
    return x


def _mat(x, name):
    _composite(x, name, "a matrix")
    if len(x._shape) != 2:
        raise TypeError(f"{name}(): expected a matrix, got {type(x).__name__}")
    return x


def _f64(x):
    return x._data.astype(np.float64)


def _matrix_like(x, data):
    return matrix(data.shape, x._wp_scalar_type_)._new(data)


# --- operators as functions (wp.add(a, b) ...) ----------------------------------------------


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


def div(a, b):
    return a / b


def mod(a, b):
    return a % b


def neg(a):
    return -a


# --- vectors and matrices ------------------------------------------------------------------


def length_sq(a):
    """Squared Euclidean length of a vector (exact for integer vectors, which then wrap to
    their type as the caller converts the result)."""
    _composite(a, "length_sq", "a vector")
    if np.issubdtype(a._data.dtype, np.integer):
        return builtins.sum(builtins.int(x) * builtins.int(x) for x in a._data.reshape(-1))
    return builtins.float(np.dot(_f64(a).reshape(-1), _f64(a).reshape(-1)))


def invert(a):
    """Bitwise complement of an integer (wrapped to its type by the caller)."""
    return ~builtins.int(a)


def cw_div(a, b):
    """Component-wise quotient of two vectors or matrices of the same type."""
    return a._elementwise(b, np.divide, "divide")


def outer(a, b):
    """The matrix a b^T of two vectors."""
    _composite(a, "outer", "vectors")
    _composite(b, "outer", "vectors")
    return _matrix_like(a, np.outer(_f64(a), _f64(b)))


def transpose(m):
    return _matrix_like(_mat(m, "transpose"), _f64(m).T)


def determinant(m):
    _mat(m, "determinant")
    return builtins.float(np.linalg.det(_f64(m)))


def inverse(m):
    """The inverse of a square matrix (a singular matrix gives infinities, as in kernels)."""
    _mat(m, "inverse")
    with np.errstate(divide="ignore", invalid="ignore"):
        try:
            return _matrix_like(m, np.linalg.inv(_f64(m)))
        except np.linalg.LinAlgError:
            return _matrix_like(m, np.full(m._shape, np.inf))


def trace(m):
    return builtins.float(np.trace(_f64(_mat(m, "trace"))))


def diag(v):
    """The square matrix with ``v`` on its diagonal."""
    _composite(v, "diag", "a vector")
    return _matrix_like(v, np.diag(_f64(v)))


def ddot(a, b):
    """The double dot product (sum of the componentwise products) of two matrices."""
    _mat(a, "ddot")
    _mat(b, "ddot")
    return builtins.float(np.sum(_f64(a) * _f64(b)))


def skew(v):
    """The cross-product matrix of a 3-vector: skew(v) @ x == cross(v, x)."""
    x, y, z = _f64(_composite(v, "skew", "a 3-vector"))
    return _matrix_like(v, np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]]))


def identity(n, dtype=builtins.float):
    """The n x n identity matrix of scalar type ``dtype`` (float32 by default)."""
    dtype = scalar_types.float32 if dtype is builtins.float else dtype
    return matrix((n, n), dtype)._new(np.eye(n))


def matrix_from_rows(*rows):
    return _matrix_like(rows[0], np.stack([_f64(r) for r in rows]))


def matrix_from_cols(*cols):
    return _matrix_like(cols[0], np.stack([_f64(c) for c in cols], axis=1))


# --- quaternions and transforms --------------------------------------------------------------


def _quat(q, name):
    if not isinstance(q, quat_base):
        raise TypeError(f"{name}(): expected a quaternion, got {type(q).__name__}")
    return q


def _transform(t, name):
    if not isinstance(t, transform_base):
        raise TypeError(f"{name}(): expected a transform, got {type(t).__name__}")
    return t


_rotate = rotate_np


def quat_inverse(q):
    """The conjugate (-x, -y, -z, w): the inverse of a unit quaternion (Warp's definition)."""
    d = _f64(_quat(q, "quat_inverse"))
    return type(q)._new(np.array([-d[0], -d[1], -d[2], d[3]]))


def quat_rotate_inv(q, v):
    """``v`` rotated by the inverse of the unit quaternion ``q``."""
    d = _f64(_quat(q, "quat_rotate_inv"))
    d[:3] = -d[:3]
    return vector(3, q._wp_scalar_type_)._new(_rotate(d, np.asarray(v, dtype=np.float64).reshape(3)))


def quat_to_matrix(q):
    """The rotation matrix of a unit quaternion (columns are the rotated axes)."""
    d = _f64(_quat(q, "quat_to_matrix"))
    cols = [_rotate(d, e) for e in np.eye(3)]
    return matrix((3, 3), q._wp_scalar_type_)._new(np.stack(cols, axis=1))


def quat_from_matrix(m):
    """The unit quaternion of a rotation matrix (its sign is either)."""
    a = _f64(_mat(m, "quat_from_matrix"))[:3, :3]  # a 4x4 matrix: its rotation block
    tr = np.trace(a)
    if tr > 0.0:
        s = math.sqrt(tr + 1.0) * 2.0
        q = [(a[2, 1] - a[1, 2]) / s, (a[0, 2] - a[2, 0]) / s, (a[1, 0] - a[0, 1]) / s, 0.25 * s]
    elif a[0, 0] > a[1, 1] and a[0, 0] > a[2, 2]:
        s = math.sqrt(1.0 + a[0, 0] - a[1, 1] - a[2, 2]) * 2.0
        q = [0.25 * s, (a[0, 1] + a[1, 0]) / s, (a[0, 2] + a[2, 0]) / s, (a[2, 1] - a[1, 2]) / s]
    elif a[1, 1] > a[2, 2]:
        s = math.sqrt(1.0 + a[1, 1] - a[0, 0] - a[2, 2]) * 2.0
        q = [(a[0, 1] + a[1, 0]) / s, 0.25 * s, (a[1, 2] + a[2, 1]) / s, (a[0, 2] - a[2, 0]) / s]
    else:
        s = math.sqrt(1.0 + a[2, 2] - a[0, 0] - a[1, 1]) * 2.0
        q = [(a[0, 2] + a[2, 0]) / s, (a[1, 2] + a[2, 1]) / s, 0.25 * s, (a[1, 0] - a[0, 1]) / s]
    q = np.array(q)
    return quaternion(m._wp_scalar_type_)._new(q / np.linalg.norm(q))


def _is_mat44(t):
    return isinstance(t, composite_base) and t._shape == (4, 4)


def transform_get_translation(t):
    return vector(3, t._wp_scalar_type_)._new(_f64(_transform(t, "transform_get_translation"))[:3])


def transform_get_rotation(t):
    return quaternion(t._wp_scalar_type_)._new(_f64(_transform(t, "transform_get_rotation"))[3:])


def _set_part(t, value, name, part, size):
    """Writes `value` into the part [part] of transform t in place, as the kernels' setter
    writes it back to its argument."""
    _transform(t, name)
    v = np.asarray(value, dtype=np.float64).reshape(-1)
    if v.shape != (size,):
        what = "a 3-vector" if size == 3 else "a quaternion"
        raise TypeError(f"{name}(): expected {what}, got shape {v.shape}")
    t._data[part] = v


def transform_set_translation(xform, p):
    """Sets the translation of the transform ``xform`` to ``p`` (in place)."""
    _set_part(xform, p, "transform_set_translation", slice(0, 3), 3)


def transform_set_rotation(xform, q):
    """Sets the rotation of the transform ``xform`` to ``q`` (in place)."""
    _set_part(xform, q, "transform_set_rotation", slice(3, 7), 4)


def transform_point(t, p):
    """``p`` rotated by t.q, then moved by t.p; with a 4x4 matrix t, t (p, 1) (first three)."""
    if _is_mat44(t):
        return vector(3, t._wp_scalar_type_)._new(_f64(t)[:3, :3] @ _f64(p) + _f64(t)[:3, 3])
    d = _f64(_transform(t, "transform_point"))
    x = np.asarray(p, dtype=np.float64).reshape(3)
    return vector(3, t._wp_scalar_type_)._new(_rotate(d[3:], x) + d[:3])


def transform_vector(t, v):
    """``v`` rotated by t.q (no translation); with a 4x4 matrix t, t (v, 0) (first three)."""
    if _is_mat44(t):
        return vector(3, t._wp_scalar_type_)._new(_f64(t)[:3, :3] @ _f64(v))
    d = _f64(_transform(t, "transform_vector"))
    return vector(3, t._wp_scalar_type_)._new(_rotate(d[3:], np.asarray(v, dtype=np.float64).reshape(3)))


def transform_multiply(a, b):
    """The composition a * b (b applied first)."""
    da, db = _f64(_transform(a, "transform_multiply")), _f64(_transform(b, "transform_multiply"))
    p = _rotate(da[3:], db[:3]) + da[:3]
    return transformation(a._wp_scalar_type_)._new(np.concatenate([p, _hamilton(da[3:], db[3:])]))


def transform_inverse(t):
    """The inverse rigid transform (for a unit rotation)."""
    d = _f64(_transform(t, "transform_inverse"))
    qi = np.array([-d[3], -d[4], -d[5], d[6]])
    return transformation(t._wp_scalar_type_)._new(np.concatenate([-_rotate(qi, d[:3]), qi]))


def _spatial(t, x, name):
    d = _f64(_transform(t, name))
    s = np.asarray(x, dtype=np.float64).reshape(-1)
    if s.shape != (6,):
        raise TypeError(f"{name}(): expected a spatial vector, got shape {s.shape}")
    return d, s


def transform_twist(t, x):
    """The twist x = (w, v) moved by t: (R w, R v + p x R w)."""
    d, s = _spatial(t, x, "transform_twist")
    w = _rotate(d[3:], s[:3])
    return vector(6, t._wp_scalar_type_)._new(np.concatenate([w, _rotate(d[3:], s[3:]) + np.cross(d[:3], w)]))


def transform_wrench(t, x):
    """The wrench x = (tau, f) moved by t: (R tau + p x R f, R f)."""
    d, s = _spatial(t, x, "transform_wrench")
    f = _rotate(d[3:], s[3:])
    return vector(6, t._wp_scalar_type_)._new(np.concatenate([_rotate(d[3:], s[:3]) + np.cross(d[:3], f), f]))


# --- scalars: Python's own functions where they agree with the kernel builtins ----------------


def _sign(x):
    if isinstance(x, vector_base):
        return type(x)._new(np.where(x._data < 0, -1, 1).astype(x._data.dtype))
    return -1 if x < 0 else 1


def _any_component(test):
    """A host isnan/isinf from the scalar test: any component of a vector, matrix or
    quaternion."""
    def check(x):
        if isinstance(x, (composite_base, quat_base)):
            return builtins.bool(np.any(test(_f64(x))))
        return test(x)
    return check


def _isfinite(x):
    if isinstance(x, (composite_base, quat_base)):
        return builtins.bool(np.all(np.isfinite(_f64(x))))
    return math.isfinite(x)


def _round(x):
    return math.copysign(math.floor(abs(x) + 0.5), x)


def _cbrt(x):
    return math.copysign(abs(x) ** (1.0 / 3.0), x)


def _fmin(a, b=None):
    """Warp's host min: C's fmin for floats (a NaN counts as missing); min(v) of one vector is
    its smallest component."""
    if b is None:
        return _reduce(a, _fmin)
    if isinstance(a, composite_base):
        return type(a)._new(np.fmin(a._data, b._data))
    return b if a != a else builtins.min(a, b)


def _fmax(a, b=None):
    """Warp's host max: C's fmax for floats; max(v) of one vector is its largest component."""
    if b is None:
        return _reduce(a, _fmax)
    if isinstance(a, composite_base):
        return type(a)._new(np.fmax(a._data, b._data))
    return b if a != a else builtins.max(a, b)


def _reduce(v, pick):
    values = v._data.reshape(-1).tolist()
    out = values[0]
    for x in values[1:]:
        out = pick(out, x)
    return out


def _clamp(x, low, high):
    return _fmin(_fmax(x, low), high)


def _rint(x):
    return float(builtins.round(x))


def _where(cond, a, b):
    return a if cond else b


def _clamped(f):
    """f of x clamped to [-1, 1] (asin, acos: Warp's rule; NaN stays NaN)."""
    return lambda x: f(-1.0 if x < -1.0 else 1.0 if x > 1.0 else x)


HOST_BUILTINS = {
    "abs": builtins.abs, "min": _fmin, "max": _fmax, "sign": _sign,
    "floor": math.floor, "ceil": math.ceil, "round": _round, "trunc": math.trunc,
    "sqrt": math.sqrt, "cbrt": _cbrt, "exp": math.exp, "log": math.log, "log2": math.log2,
    "log10": math.log10, "pow": math.pow, "sin": math.sin, "cos": math.cos, "tan": math.tan,
    "asin": _clamped(math.asin), "acos": _clamped(math.acos), "atan": math.atan, "atan2": math.atan2,
    "sinh": math.sinh, "cosh": math.cosh, "tanh": math.tanh, "degrees": math.degrees,
    "radians": math.radians, "isnan": _any_component(np.isnan),
    "isinf": _any_component(np.isinf), "isfinite": _isfinite, "clamp": _clamp, "rint": _rint, "where": _where,
    "print": builtins.print,
    "add": add, "sub": sub, "mul": mul, "div": div, "mod": mod, "neg": neg, "invert": invert, "length_sq": length_sq,
    "cw_div": cw_div, "outer": outer, "transpose": transpose, "determinant": determinant,
    "inverse": inverse, "trace": trace, "diag": diag, "ddot": ddot, "skew": skew,
    "identity": identity, "matrix_from_rows": matrix_from_rows,
    "matrix_from_cols": matrix_from_cols, "quat_inverse": quat_inverse,
    "quat_rotate_inv": quat_rotate_inv, "quat_to_matrix": quat_to_matrix,
    "quat_from_matrix": quat_from_matrix, "transform_get_translation": transform_get_translation,
    "transform_get_rotation": transform_get_rotation, "transform_point": transform_point,
    "transform_set_translation": transform_set_translation,
    "transform_set_rotation": transform_set_rotation,
    "transform_vector": transform_vector, "transform_multiply": transform_multiply,
    "transform_inverse": transform_inverse, "transform_twist": transform_twist,
    "transform_wrench": transform_wrench,
}
"""Host versions of the scalar, matrix, quaternion and transform builtins and of the operators
as functions (merged by ``host_builtins.py``)."""
