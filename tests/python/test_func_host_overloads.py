"""Calling an overloaded @wp.func from Python picks the overload whose annotations take the
arguments (Warp's resolution), and refuses arguments no overload takes; host products of
transforms compose them, and mismatched matrices raise Warp's error."""

from typing import Any

import numpy as np
import pytest

import treadle as wp


@wp.func
def bump(x: int):
    return x + 1


@wp.func
def bump(x: float):  # noqa: F811 - an overload
    return x + 0.5


@wp.func
def bump(x: wp.vec3):  # noqa: F811 - an overload
    return x + wp.vec3(1.0, 0.0, 0.0)


def test_each_argument_type_reaches_its_overload():
    assert bump(1) == 2 and isinstance(bump(1), int)
    assert bump(1.0) == 1.5
    assert list(bump(wp.vec3(1.0, 2.0, 3.0))) == [2.0, 2.0, 3.0]


def test_arguments_no_overload_takes_are_refused():
    with pytest.raises(RuntimeError, match=r"^Error calling function 'bump', no overload found "
                                           r"for arguments \('a',\)$"):
        bump("a")


def test_host_products_of_transforms_and_mismatched_matrices():
    t = wp.transform(wp.vec3(1.0, 2.0, 3.0), wp.quat_from_axis_angle(wp.vec3(0.0, 0.0, 1.0), 0.5))
    assert list(t * t) == list(wp.transform_multiply(t, t))
    with pytest.raises(RuntimeError, match=r"^Couldn't find a function 'mul' compatible with the "
                                           r"arguments 'mat22f, mat22d'$"):
        wp.mat22f(1.0, 2.0, 3.0, 4.0) * wp.mat22d(1.0, 2.0, 3.0, 4.0)
    with pytest.raises(TypeError):  # also what Python's operators raise
        wp.mat22f(1.0, 2.0, 3.0, 4.0) * wp.mat22d(1.0, 2.0, 3.0, 4.0)


@wp.func
def halve64(x: wp.float64):
    return x / wp.float64(2.0)


@wp.func
def unit(v: wp.vec3):
    return wp.normalize(v)


def test_a_single_definition_checks_its_arguments_too():
    assert halve64(wp.float64(3.0)) == 1.5
    assert halve64(np.float64(3.0)) == 1.5  # a numpy scalar of the parameter's dtype
    with pytest.raises(RuntimeError, match=r"^Error calling function 'halve64', no overload "
                                           r"found for arguments \(1.0,\)$"):
        halve64(1.0)  # a Python float is a float32, as in Warp
    with pytest.raises(RuntimeError, match=r"^Error calling function 'unit', no overload found "
                                           r"for arguments \(1.0,\)$"):
        unit(1.0)


@wp.func
def scaled(x: float, s: float = 2.0):
    return x * s


def test_parameters_with_defaults_may_be_left_out():
    assert scaled(1.5) == 3.0 and scaled(1.5, 3.0) == 4.5


def test_host_transform_products_follow_quat_rotate_for_any_quaternion():
    a = wp.transform(wp.vec3(1.0, 2.0, 3.0), wp.quat(1.0, 2.0, 3.0, 4.0))  # not unit length
    b = wp.transform(wp.vec3(4.0, 5.0, 6.0), wp.quat(0.0, 0.0, 0.0, 1.0))
    u, w, v = np.array([1.0, 2.0, 3.0]), 4.0, np.array([4.0, 5.0, 6.0])
    moved = v * (2 * w * w - 1) + np.cross(u, v) * 2 * w + u * 2 * np.dot(u, v)
    np.testing.assert_allclose(list(a * b)[:3], moved + [1.0, 2.0, 3.0])


@wp.func
def generic_twice(x: Any):
    return x + x


def test_generic_parameters_take_anything():
    assert generic_twice(2) == 4 and generic_twice(1.5) == 3.0
