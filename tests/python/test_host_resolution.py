"""Builtins called on the host follow Warp's rules: strict argument types (a Python int is an
int32, a float a float32), scalar results of the argument's Warp type, integer wrap-around."""

import math

import numpy as np
import pytest

import treadle as wp


def test_scalar_results_take_the_argument_type():
    r = wp.sin(wp.float64(1.23))
    assert isinstance(r, wp.float64) and float(r) == math.sin(1.23)
    r = wp.sin(wp.float32(1.23))
    assert type(r) is float and r == float(np.float32(math.sin(float(np.float32(1.23)))))
    r = wp.sin(wp.float16(1.23))
    assert isinstance(r, wp.float16)
    assert float(r) == float(np.float16(math.sin(float(np.float16(1.23)))))
    assert wp.sin(1.23) == wp.sin(wp.float32(1.23))  # a Python float is a float32
    assert isinstance(wp.sin(np.float64(1.23)), wp.float64)
    assert isinstance(wp.trace(wp.mat22d(1.0, 2.0, 3.0, 4.0)), wp.float64)
    assert isinstance(wp.dot(wp.vec3h(1.0, 2.0, 3.0), wp.vec3h(1.0, 1.0, 1.0)), wp.float16)


def test_integer_results_wrap_to_their_type():
    v = -1234567890
    assert wp.mul(wp.int8(v), wp.int8(v)) == 68 and isinstance(wp.mul(wp.int8(v), wp.int8(v)),
                                                                 wp.int8)
    assert type(wp.mul(v, v)) is int and wp.mul(v, v) == 304084036
    assert wp.mul(wp.int64(v), wp.int64(v)) == v * v
    assert wp.length_sq(wp.vec2b(v, v)) == -120
    assert wp.length_sq(wp.vec2l(v, v)) == 2 * v * v
    w = -1234567890123456789
    assert wp.invert(wp.uint16(w)) == 33044 and isinstance(wp.invert(wp.uint16(w)), wp.uint16)
    assert wp.invert(wp.int8(w)) == 20 and wp.invert(w) == wp.invert(wp.int32(w)) == 2112454932


def test_mixed_argument_types_find_no_overload():
    with pytest.raises(RuntimeError,
                       match=r"^Couldn't find a function 'mul' compatible with the arguments "
                             r"'int16, int'$"):
        wp.mul(wp.int16(3), 4)
    with pytest.raises(RuntimeError, match=r"the arguments 'int, int64'$"):
        wp.mul(3, np.int64(4))


def test_legacy_scalar_return_types():
    old = wp.config.legacy_scalar_return_types
    try:
        wp.config.legacy_scalar_return_types = True
        assert type(wp.sin(wp.float64(1.0))) is float
        assert type(wp.invert(wp.int16(-123))) is int and wp.invert(wp.int16(-123)) == 122
    finally:
        wp.config.legacy_scalar_return_types = old


def test_dtype_to_numpy_gives_the_numpy_scalar_type():
    assert wp.dtype_to_numpy(wp.int16) is np.int16
    assert wp.dtype_to_numpy(wp.float64) is np.float64


def test_python_floats_take_the_one_float_type_of_the_other_arguments():
    q = wp.quat_from_axis_angle(wp.vec3d(0.0, 0.0, 1.0), 0.7)
    assert isinstance(q, wp.quatd)
    r = wp.mul(wp.vec3d(1.0, 2.0, 3.0), 0.1)
    assert isinstance(r, wp.vec3d) and float(r[0]) == 0.1
    with pytest.raises(RuntimeError, match=r"the arguments 'vec3d, int'$"):
        wp.mul(wp.vec3d(1.0, 2.0, 3.0), 2)
