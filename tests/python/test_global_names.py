"""Python names kernels read as Warp's do: IntEnum/IntFlag members, classes holding constants,
builtins by their bare name, and modules reached through the package."""

import enum
import sys
import types

import numpy as np

import treadle as wp
import treadle  # noqa: F401 - `treadle.<module>` below


class Color(enum.IntEnum):
    RED = 1
    GREEN = 2
    BLUE = 5


class Flags(enum.IntFlag):
    A = 1
    B = enum.auto()
    C = enum.auto()


class Consts:
    ONE = wp.constant(1)
    HALF = wp.constant(0.5)


@wp.kernel
def enum_and_class_constants(out: wp.array(dtype=float)):
    out[0] = float(Color.GREEN + Color.BLUE)
    out[1] = float(int(Color.RED.value) + (Flags.A | Flags.C))
    out[2] = float(Consts.ONE) + Consts.HALF
    c = Color.BLUE
    out[3] = float(c * 2)


def test_enum_members_and_class_constants(device):
    out = wp.zeros(4, dtype=float, device=device)
    wp.launch(enum_and_class_constants, dim=1, inputs=[out], device=device)
    assert out.numpy().tolist() == [7.0, 6.0, 1.5, 10.0]


@wp.kernel
def bare_builtin_names(out: wp.array(dtype=float)):
    out[0] = sin(0.5) + sqrt(4.0)  # noqa: F821 - resolved as treadle's builtins
    expect_eq(1, 1)  # noqa: F821


def test_bare_builtin_names(device):
    out = wp.zeros(1, dtype=float, device=device)
    wp.launch(bare_builtin_names, dim=1, inputs=[out], device=device)
    np.testing.assert_allclose(out.numpy()[0], np.sin(0.5) + 2.0, rtol=1e-6)


# A module that is an attribute of the package without being one of its modules (as
# `warp.tests` is when Warp's tests run on treadle). It stays set: the CUDA compile check at the
# end of the suite builds this kernel again.
_helpers = types.ModuleType("external_helpers_for_tests")
_helpers.SCALE = 3
sys.modules.setdefault("external_helpers_for_tests", _helpers)
wp._external_helpers_for_tests = _helpers


@wp.kernel
def through_package(out: wp.array(dtype=float)):
    out[0] = float(treadle._external_helpers_for_tests.SCALE)


def test_module_reached_through_the_package(device):
    out = wp.zeros(1, dtype=float, device=device)
    wp.launch(through_package, dim=1, inputs=[out], device=device)
    assert out.numpy()[0] == 3.0
