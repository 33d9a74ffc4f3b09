"""Warp's quaternion and transform types (wp.quat, wp.transform, ...) as host values.

A quaternion holds 4 components ``(x, y, z, w)``: ``x, y, z`` the vector (imaginary) part and
``w`` the scalar (real) part. A transform holds 7: the translation ``p`` (a 3-vector) followed
by the rotation ``q`` (a quaternion). Both are vectors of their scalar type (indexing, ``==``,
``np.array(v)``, scaling); quaternions multiply by the Hamilton product.
"""

import builtins
import math

import numpy as np

from . import _treadle, scalar_types
from .type_classes import class_of, register, register_maker
from .vec_types import _SUFFIX, _is_scalar, vector, vector_base


def _hamilton(a, b):
    """Hamilton product of two (x, y, z, w) numpy quaternions."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return np.array(
        [
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz,
        ],
        dtype=a.dtype,
    )


class quat_base(vector_base):
    """Base of the quaternion classes (``wp.quat`` ...): ``quat()`` zeros (use
    ``quat_identity()`` for the identity rotation), ``quat(x, y, z, w)`` or ``quat(sequence)``
    sets the components; ``a * b`` is the Hamilton product, ``q * s`` scales."""

    __slots__ = ()
    _wp_generic_type_str_ = "quat_t"

    def __mul__(self, other):
        if isinstance(other, quat_base):
            self._same(other, "multiply")
            with np.errstate(over="ignore"):
                return type(self)._new(_hamilton(self._data, other._data))
        return super().__mul__(other)


def _is_sequence(x):
    return hasattr(x, "__len__") or hasattr(x, "__array__") or hasattr(x, "__iter__")


def _expect_sequence(value, name):
    """A part p or q given to a transform constructor must be a sequence (Warp's message)."""
    if _is_scalar(value) or not _is_sequence(value):
        raise TypeError(f"Invalid argument '{name}' in transformation constructor: expected a "
                        f"sequence, got {type(value).__name__}")


class transform_base(vector_base):
    """Base of the transform classes (``wp.transform`` ...): ``transform()`` is the identity,
    ``transform(p, q)`` takes a 3-vector and a quaternion (``q`` defaults to the identity),
    ``transform(*7 values)`` or ``transform(sequence of 7)`` sets the components
    ``(p.x, p.y, p.z, q.x, q.y, q.z, q.w)``; ``.p`` and ``.q`` read and write the parts."""

    __slots__ = ()
    _wp_generic_type_str_ = "transform_t"

    def __mul__(self, other):
        if isinstance(other, transform_base):  # Warp's mul of transforms: the composition
            self._same(other, "multiply")
            a = self._data.astype(np.float64)
            b = other._data.astype(np.float64)
            u, w, v = a[3:6], a[6], b[:3]
            # quat_rotate's formula (for a unit q, q v q^-1; Warp's result for any q)
            moved = v * (2.0 * w * w - 1.0) + np.cross(u, v) * (2.0 * w) + u * (2.0 * np.dot(u, v))
            out = np.concatenate([moved + a[:3], _hamilton(a[3:], b[3:])])
            with np.errstate(over="ignore"):
                return type(self)._new(out.astype(self._data.dtype))
        return super().__mul__(other)

    def __init__(self, *args, **kwargs):
        for name in kwargs:
            if name not in ("p", "q"):
                raise TypeError(f"got an unexpected keyword argument '{name}'")
        for position, name in enumerate(("p", "q")):
            if name in kwargs and len(args) > position:
                raise TypeError(f"multiple values for argument '{name}'")
        if kwargs:
            args = (kwargs.get("p", args[0] if args else (0, 0, 0)),) + (
                (kwargs["q"],) if "q" in kwargs else ())
            for name, value in zip(("p", "q"), args):
                _expect_sequence(value, name)
            flat = self._parts(*args) if len(args) == 2 else self._parts(args[0], None)
        elif len(args) == 1 and not _is_scalar(args[0]) and not _is_sequence(args[0]):
            raise TypeError("Invalid argument in transformation constructor: expected a scalar "
                            f"value, got {type(args[0]).__name__}")
        elif len(args) == 1 and not _is_scalar(args[0]):
            flat = self._flat_from(args)
            if flat is None:
                flat = self._parts(args[0], None)
        elif len(args) == 2:
            for name, value in zip(("p", "q"), args):
                _expect_sequence(value, name)
            flat = self._parts(*args)
        else:
            flat = self._flat_from(args) if args else self._parts((0, 0, 0), None)
        if flat is None:
            raise ValueError(
                f"{type(self).__name__}: expected no argument, (p, q), p, one scalar, 7 "
                f"components or a sequence of 7, got {len(args)} argument(s)"
            )
        self._data = flat

    def _parts(self, p, q):
        try:
            pv = np.asarray(p, dtype=object).reshape(-1).tolist()
            qv = [0, 0, 0, 1] if q is None else np.asarray(q, dtype=object).reshape(-1).tolist()
        except (TypeError, ValueError):
            return None
        if len(pv) != 3 or len(qv) != 4:
            return None
        return self._convert_values(pv + qv)

    @property
    def p(self):
        """The translation (a copy, as a 3-vector of the scalar type)."""
        return vector(3, self._wp_scalar_type_)._new(self._data[0:3])

    @p.setter
    def p(self, value):
        self[0:3] = value

    @property
    def q(self):
        """The rotation (a copy, as a quaternion of the scalar type)."""
        return quaternion(self._wp_scalar_type_)._new(self._data[3:7])

    @q.setter
    def q(self, value):
        self[3:7] = value



# --- type factories -----------------------------------------------------------------------

_quat_cache = {}
_transform_cache = {}


def _float_type(dtype):
    t = scalar_types.resolve_dtype(dtype)
    if t not in scalar_types.float_types:
        raise TypeError(
            f"quaternion and transform elements must be float16, bfloat16, float32 or float64, "
            f"got "
            f"{getattr(dtype, '__name__', dtype)!r}"
        )
    return t


_DOCS = {
    "quat_base": "{name}: a quaternion of {s} (Warp's ``wp.{name}``): components x, y, z (the "
                 "vector part) and w (the real part), in that order. ``{name}(x, y, z, w)`` or a "
                 "sequence of 4. Rotations compose "
                 "with ``*`` as Warp's.",
    "transform_base": "{name}: a rigid transform of {s} (Warp's ``wp.{name}``): a position p "
                      "(vec3) and a rotation q (quaternion), 7 components. ``{name}(p, q)`` or a "
                      "sequence of 7; ``.p`` and ``.q`` read and set its parts.",
}


def _make(base, name, length, scalar, bound):
    """The class ``name`` of the quaternion or transform Type ``bound`` (registered in
    type_classes)."""
    cls = type(
        name,
        (base,),
        {
            "__slots__": (),
            "__module__": "treadle.types",
            "__doc__": _DOCS[base.__name__].format(name=name, s=scalar.__name__),
            "_wp_scalar_type_": scalar,
            "_type_": scalar._type_,  # Warp's: the ctypes type of one component
            "_wp_type_params_": [length, scalar],
            "_type": bound,
            "_np_dtype": scalar._np_dtype,
            "_np_memory": scalar._np_memory,
            "_size": length * scalar._size,
            "_shape": (length,),
            "_shape_": (length,),
            "_length": length,
            "_length_": length,
        },
    )
    return register(cls)


def quaternion(dtype=scalar_types.float32):
    """The quaternion class of scalar type ``dtype`` (a float type; cached)."""
    scalar = _float_type(dtype)
    cls = _quat_cache.get(scalar)
    if cls is None:
        name = f"quat{_SUFFIX[scalar.__name__]}"
        cls = _make(quat_base, name, 4, scalar, _treadle.types.quat(scalar._type))
        _quat_cache[scalar] = cls
    return cls


def transformation(dtype=scalar_types.float32):
    """The transform class of scalar type ``dtype`` (a float type; cached)."""
    scalar = _float_type(dtype)
    cls = _transform_cache.get(scalar)
    if cls is None:
        name = f"transform{_SUFFIX[scalar.__name__]}"
        bound = _treadle.types.transform(scalar._type)
        cls = _make(transform_base, name, 7, scalar, bound)
        _transform_cache[scalar] = cls
    return cls


register_maker("quat", lambda t: quaternion(class_of(t.scalar)))
register_maker("transform", lambda t: transformation(class_of(t.scalar)))




# --- Warp's named types -------------------------------------------------------------------

_FLOATS = (scalar_types.float16, scalar_types.float32, scalar_types.float64)
quath, quatf, quatd = (quaternion(t) for t in _FLOATS)
transformh, transformf, transformd = (transformation(t) for t in _FLOATS)
quat = quatf
transform = transformf

quat_types = (quath, quatf, quatd)
transform_types = (transformh, transformf, transformd)


# --- host versions of the quaternion / transform builtins ---------------------------------


def _dtype_or_float(dtype):
    return scalar_types.float32 if dtype is builtins.float or dtype is None else dtype


def quat_identity(dtype=builtins.float):
    """The identity quaternion ``(0, 0, 0, 1)`` of scalar type ``dtype`` (float32 default)."""
    return quaternion(_dtype_or_float(dtype))(0.0, 0.0, 0.0, 1.0)


def transform_identity(dtype=builtins.float):
    """The identity transform (zero translation, identity rotation) of scalar type ``dtype``."""
    return transformation(_dtype_or_float(dtype))()


def quat_from_axis_angle(axis, angle):
    """The rotation of ``angle`` radians about ``axis`` (a 3-vector, assumed unit length); the
    scalar type is the axis's (float32 for a plain sequence)."""
    scalar = getattr(axis, "_wp_scalar_type_", None) or scalar_types.float32
    a = np.asarray(axis, dtype=np.float64).reshape(-1)
    if a.shape != (3,):
        raise TypeError(f"quat_from_axis_angle(): expected a 3-vector axis, got shape {a.shape}")
    half = 0.5 * builtins.float(angle)
    s = math.sin(half)
    return quaternion(scalar)(a[0] * s, a[1] * s, a[2] * s, math.cos(half))


def quat_rpy(roll, pitch, yaw):
    """The rotation qz(yaw) qy(pitch) qx(roll), of the scalar type of the angles (float32 for
    Python floats), computed as kernels compute it."""
    scalar = next((type(a) for a in (roll, pitch, yaw) if isinstance(a, scalar_types.float_base)),
                  scalar_types.float32)
    r, p, y = (0.5 * builtins.float(a) for a in (roll, pitch, yaw))
    cr, sr, cp, sp = math.cos(r), math.sin(r), math.cos(p), math.sin(p)
    cy, sy = math.cos(y), math.sin(y)
    return quaternion(scalar)(sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy,
                              cr * cp * sy - sr * sp * cy, cr * cp * cy + sr * sp * sy)


def quat_rotate(q, v):
    """``v`` (a 3-vector) rotated by the unit quaternion ``q``: the vector part of
    ``q * (v, 0) * conj(q)``, as a vector of ``q``'s scalar type."""
    if not isinstance(q, quat_base):
        raise TypeError(f"quat_rotate(): expected a quaternion, got {type(q).__name__}")
    x = np.asarray(v, dtype=np.float64).reshape(-1)
    if x.shape != (3,):
        raise TypeError(f"quat_rotate(): expected a 3-vector, got shape {x.shape}")
    r = rotate_np(q._data.astype(np.float64), x)
    return vector(3, q._wp_scalar_type_)(r.tolist())


def rotate_np(qd, x):
    """The 3-vector x rotated by the (x, y, z, w) numpy quaternion qd (unit length)."""
    u, w = qd[:3], qd[3]
    return x * (2.0 * w * w - 1.0) + np.cross(u, x) * (2.0 * w) + u * (2.0 * np.dot(u, x))


HOST_BUILTINS = {
    "quat_identity": quat_identity, "transform_identity": transform_identity,
    "quat_from_axis_angle": quat_from_axis_angle, "quat_rotate": quat_rotate,
    "quat_rpy": quat_rpy,
}
"""Host versions of builtins implemented here (merged by ``host_builtins.py``)."""
"""The builtins given the host implementations above (see ``treadle/__init__.py``)."""
