"""Every public callable of the treadle package (functions, classes, the vector, matrix,
quaternion and transform types) has its own docstring."""

import treadle as wp


def test_every_public_callable_has_a_docstring():
    missing = [name for name in dir(wp) if not name.startswith("_")
               and callable(getattr(wp, name)) and not (getattr(wp, name).__doc__ or "").strip()]
    assert missing == []


def test_composite_types_say_what_they_hold():
    assert wp.vec3.__doc__.startswith("vec3f: a vector of 3 float32 components")
    assert "``.x``, ``.y``, ``.z``;" in wp.vec3.__doc__
    assert wp.mat22d.__doc__.startswith("mat22d: a 2x2 matrix of float64")
    assert "takes its 4 entries row by row" in wp.mat22d.__doc__
    assert wp.quath.__doc__.startswith("quath: a quaternion of float16")
    assert wp.transform.__doc__.startswith("transformf: a rigid transform of float32")
    assert wp.types.vector(length=8, dtype=wp.uint8).__doc__.startswith("vec8ub: a vector of 8 uint8")
