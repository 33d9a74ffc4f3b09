"""Tuples in kernels: tuple locals, len(), indexing, unpacking, tuple parameters and results
of user functions (tuple[...] annotations, typing.Any, tuple[T, ...]), and builtins with
several results bound to one name."""

from typing import Any, Tuple

import numpy as np
import pytest

import treadle as wp


@wp.func
def scaled_pair(x: int, y: float) -> tuple[int, float]:
    return (x * 3, y * 0.5)


@wp.func
def weighted(values: Tuple[wp.vec3, float]) -> float:
    return wp.length(values[0]) * values[1]


@wp.func
def total(values: Any):
    s = int(0)
    for i in range(wp.static(len(values))):
        s += values[i]
    for i in range(len(values)):
        s += 10 * values[i]
    return s


@wp.func
def first_plus_count(values: tuple[int, ...]):
    return values[0] + len(values)


@wp.kernel
def tuple_kernel(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    t = (2, x[0], wp.vec3(3.0, 4.0, 0.0))
    out[0] = float(len(t)) + float(wp.static(len(t)))
    a, b, c = t
    out[1] = float(a) + b + c[1] + t[-1][0]
    p = scaled_pair(4, x[0])
    q, r = p
    out[2] = float(p[0]) + r + float(q)
    out[3] = weighted((t[2], 2.0))
    out[4] = float(total((1, 2, 3)) + total((5,)))
    out[5] = float(first_plus_count((7, 8)))
    axis, angle = wp.quat_to_axis_angle(wp.quat_identity())
    both = wp.quat_to_axis_angle(wp.quat_identity())
    out[6] = float(len(both)) + both[1] + angle + axis[0]
    wp.expect_near(x[0], x[0] + 1e-7)  # tolerance defaults to 1e-6


def test_tuples(device):
    x = wp.array([6.0], dtype=float, device=device)
    out = wp.zeros(7, dtype=float, device=device)
    wp.launch(tuple_kernel, dim=1, inputs=[x, out], device=device)
    np.testing.assert_allclose(out.numpy(), [6.0, 2 + 6 + 4 + 3, 12 + 3 + 12, 10.0, 66 + 55, 9.0,
                                             2.0], rtol=1e-6)


def _compile_bad(tmp_path, body):
    path = tmp_path / "bad_tuple.py"
    path.write_text("import treadle as wp\n\n@wp.kernel\ndef bad_tuple(flag: int, "
                    "out: wp.array(dtype=float)):\n" + body)
    import importlib.util
    spec = importlib.util.spec_from_file_location("bad_tuple", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    wp.launch(mod.bad_tuple, dim=1, inputs=[1, wp.zeros(1, dtype=float)], device="cpu")


def test_tuple_errors(tmp_path):
    with pytest.raises(TypeError, match="the tuple 't' cannot be re-bound inside a branch"):
        _compile_bad(tmp_path, "    t = (1, 2)\n    if flag > 0:\n        t = (3, 4)\n"
                               "    out[0] = float(t[0])\n")
    with pytest.raises(TypeError, match="cannot assign a single value to 't', which holds a tuple"):
        _compile_bad(tmp_path, "    t = (1, 2)\n    t = 1.0\n    out[0] = t\n")
    with pytest.raises(TypeError, match="tuple index must be a constant in range"):
        _compile_bad(tmp_path, "    t = (1, 2)\n    out[0] = float(t[flag])\n")
    with pytest.raises(SyntaxError, match=r"'\.\.\.' \(Ellipsis\) is not supported in kernels"):
        _compile_bad(tmp_path, "    x = ...\n    out[0] = 1.0\n")
