"""Types as values in kernels: type(x), a.dtype, T.dtype, and v.length / v.dtype of composites."""

from typing import Any

import numpy as np
import pytest

import treadle as wp


@wp.kernel
def generic_zero_and_copy(a: wp.array(dtype=Any), out: wp.array(dtype=Any)):
    zero = type(a[0])()
    copy = a.dtype(a[0]) + zero
    scale = type(a).dtype.dtype(2.0) if wp.static(False) else a.dtype.dtype(2.0)
    out[0] = copy * scale


def test_type_of_and_dtype(device):
    for dtype, value in ((wp.vec3f, (1.0, 2.0, 3.0)), (wp.vec2d, (4.0, -1.0))):
        a = wp.array([value], dtype=dtype, device=device)
        out = wp.zeros(1, dtype=dtype, device=device)
        wp.launch(generic_zero_and_copy, dim=1, inputs=[a, out], device=device)
        np.testing.assert_allclose(out.numpy()[0], 2.0 * np.array(value))


@wp.kernel
def type_as_argument(a: Any, out: wp.array(dtype=Any)):
    v = wp.types.vector(length=2, dtype=type(a))
    m = wp.identity(n=v.length, dtype=v.dtype) * a
    n = type(1)(3.7)  # a Python int literal is int32
    out[0] = wp.trace(m) + type(a)(n)


def test_local_bound_to_type(device):
    for dtype in (wp.float32, wp.float64):
        out = wp.zeros(1, dtype=dtype, device=device)
        wp.launch(type_as_argument, dim=1, inputs=[dtype(1.5), out], device=device)
        assert out.numpy()[0] == 2 * 1.5 + 3


def test_unknown_type_attribute(tmp_path):
    path = tmp_path / "bad_type_attr.py"
    path.write_text("import treadle as wp\n\n@wp.kernel\ndef bad_type_attr(out: wp.array(dtype=float)):\n"
                    "    a = wp.vec3(0.0)\n    out[0] = a.dtype.shape\n")
    import importlib.util
    spec = importlib.util.spec_from_file_location("bad_type_attr", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    with pytest.raises(TypeError, match="'shape' is not an attribute of the type float32"):
        wp.launch(mod.bad_type_attr, dim=1, inputs=[wp.zeros(1, dtype=float)], device="cpu")
