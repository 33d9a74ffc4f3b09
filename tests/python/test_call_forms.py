"""Call forms Warp kernels use: builtins with keyword arguments, wp.float/wp.int/wp.bool, and
locals bound to functions."""

import numpy as np
import pytest

import treadle as wp


@wp.kernel
def keyword_builtins(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    out[0] = wp.pow(x=x[0], y=3.0)
    out[1] = wp.pow(x[0], y=2.0)
    out[2] = wp.pow(y=0.5, x=x[0])
    out[3] = wp.clamp(x[0], low=0.0, high=1.5)
    wp.expect_near(out[1], x[0] * x[0], tolerance=1e-5)


def test_builtin_keyword_arguments(device):
    x = wp.array([2.0], dtype=float, device=device)
    out = wp.zeros(4, dtype=float, device=device)
    wp.launch(keyword_builtins, dim=1, inputs=[x, out], device=device)
    np.testing.assert_allclose(out.numpy(), [8.0, 4.0, np.sqrt(2.0), 1.5], rtol=1e-6)


def _launch_bad(body_src, tmp_path, name):
    path = tmp_path / f"{name}.py"
    path.write_text("import treadle as wp\n\n@wp.func\ndef twice(a: float):\n    return 2.0 * a\n\n"
                    "@wp.func\ndef half(a: float):\n    return 0.5 * a\n\n"
                    f"@wp.kernel\ndef {name}(out: wp.array(dtype=float)):\n{body_src}")
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = wp.zeros(1, dtype=float, device="cpu")
    wp.launch(getattr(mod, name), dim=1, inputs=[out], device="cpu")
    return out.numpy()


def test_builtin_keyword_errors(tmp_path):
    with pytest.raises(TypeError, match=r"pow\(\): got multiple values for argument 'x'"):
        _launch_bad("    out[0] = wp.pow(2.0, x=3.0)\n", tmp_path, "kw_twice")
    with pytest.raises(TypeError, match=r"pow\(\): missing argument 'x' before the keyword"):
        _launch_bad("    out[0] = wp.pow(y=3.0)\n", tmp_path, "kw_missing")


@wp.kernel
def python_builtin_casts(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    a = wp.float(2)
    n = wp.int(x[0])
    b = wp.bool(n)
    out[0] = a + float(n) + float(b)


def test_wp_float_int_bool(device):
    x = wp.array([3.7], dtype=float, device=device)
    out = wp.zeros(1, dtype=float, device=device)
    wp.launch(python_builtin_casts, dim=1, inputs=[x, out], device=device)
    assert out.numpy()[0] == 2.0 + 3.0 + 1.0


@wp.func
def square(a: float):
    return a * a


handlers = {"square": square, "sqrt": wp.sqrt}


@wp.kernel
def function_locals(out: wp.array(dtype=float)):
    f = square
    g = wp.static(handlers["sqrt"])
    h = wp.abs
    f = square  # the same function again is allowed
    out[0] = f(3.0) + g(16.0) + h(-2.0)


def test_function_bound_to_local(device):
    out = wp.zeros(1, dtype=float, device=device)
    wp.launch(function_locals, dim=1, inputs=[out], device=device)
    assert out.numpy()[0] == 9.0 + 4.0 + 2.0


def test_rebinding_function_local_is_an_error(tmp_path):
    # Warp reports these as WarpCodegenError (a RuntimeError), not as type errors
    with pytest.raises(wp.WarpCodegenError, match="rebinding function-valued local 'f' to a different"):
        _launch_bad("    f = twice\n    f = half\n    out[0] = f(1.0)\n", tmp_path, "rebind_fn")
    with pytest.raises(wp.WarpCodegenError, match="rebinding function-valued local 'f' to a non-function"):
        _launch_bad("    f = twice\n    f = 1.0\n    out[0] = f\n", tmp_path, "rebind_value")
    with pytest.raises(TypeError, match="cannot bind a function to 'f', which holds a value"):
        _launch_bad("    f = 1.0\n    f = twice\n    out[0] = f\n", tmp_path, "rebind_var")
