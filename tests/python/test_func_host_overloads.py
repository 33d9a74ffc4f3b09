"""Calling an overloaded @wp.func from Python picks the overload whose annotations take the
arguments (Warp's resolution), and refuses arguments no overload takes."""

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
