"""Comparisons of treadle scalars across types, and the values wp.constant accepts (Warp's
rules)."""

import re

import numpy as np
import pytest

import treadle as wp


def test_scalars_of_different_types_compare_by_value():
    assert wp.int8(1) == wp.float32(1.0) and wp.float32(1) == wp.int64(1)
    assert wp.uint64(1) < wp.float32(1.5) and wp.int16(2) > wp.float64(1.5)
    assert wp.int32(1) != 1.5 and wp.int32(1) < np.float16(1.5) and wp.int8(1) == 1.0
    assert len({wp.int8(1), 1.0}) == 1 and len({wp.int8(1), 1.5}) == 2
    with pytest.raises(TypeError, match="cannot combine int8 and float32"):
        wp.int8(1) + wp.float32(1.0)  # arithmetic still needs one type


@pytest.mark.parametrize("op", ["__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"])
def test_float_scalar_compares_ints_as_floats(op):
    for t in (wp.float16, wp.float32, wp.float64):
        with pytest.raises(OverflowError):
            getattr(t(1.0), op)(2**1024)
    assert getattr(wp.int64(1), op)(2**100) == getattr(1, op)(2**100)


def test_constant_accepts_warp_values_only():
    for value in (1, 2.5, True, wp.int8(3), wp.vec3(1.0, 2.0, 3.0), wp.mat22()):
        assert wp.constant(value) is value
    for value in ((1, 2, 3), [1], "a", None, np.float32(1.0)):
        with pytest.raises(TypeError, match="^" + re.escape(f"Invalid constant type: {type(value)}")
                           + "$"):
            wp.constant(value)
