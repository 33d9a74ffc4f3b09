"""The one map from the compiler's interned types (``_treadle.Type``) back to the Python classes
that stand for them: ``class_of(wp.vec3._type) is wp.vec3``.

The bottom of the type modules: every module that makes type classes (scalar_types, vec_types,
quat_types, struct) registers them here as it makes them, and for the families whose classes
are made on demand (vectors, matrices, quaternions, transforms) the function that makes one.
A Type is hashable and equal only to itself, so it is the key.
"""

_classes = {}
"""Type -> the class that stands for it (for a struct type: the latest class defined with it)."""

_makers = {}
"""Type kind ("vector", "matrix", ...) -> the function that makes the class of such a Type."""


def register(cls):
    """Records ``cls`` as the class of its ``_type``; a later class of the same type replaces
    it (a @wp.struct defined again with the same name and fields). Returns ``cls``."""
    _classes[cls._type] = cls
    return cls


def register_maker(kind, make):
    """Records ``make(Type) -> class``, which makes (and registers) the class of a Type of
    ``kind`` that has none yet."""
    _makers[kind] = make


def class_of(t):
    """The class that stands for Type ``t`` (a scalar, vector, matrix, quaternion, transform or
    @wp.struct class); TypeError when there is none."""
    cls = _classes.get(t)
    if cls is not None:
        return cls
    make = _makers.get(t.kind)
    if make is None:
        if t.kind == "struct":
            raise TypeError(f"no @wp.struct class has the layout {t.key!r}")
        raise TypeError(f"no treadle type class stands for {t.name}")
    return make(t)
