"""wp.Launch: launches recorded with record_cmd=True or built empty, changed and run again."""

import numpy as np
import pytest

import treadle as wp


@wp.struct
class Coeffs:
    a: int
    scale: float


@wp.kernel
def affine(c: Coeffs, k: int, v: wp.vec2, out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = float(c.a * i + k) * c.scale + v[1]


@wp.kernel
def square(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * x[i]


def test_recorded_launch_runs_again_with_new_arguments():
    c = Coeffs(a=2, scale=1.0)
    out = wp.zeros(4, dtype=float, device="cpu")
    cmd = wp.launch(affine, 4, inputs=[c, 1, wp.vec2(0.0, 0.5), out], device="cpu",
                    record_cmd=True)
    assert isinstance(cmd, wp.Launch)
    assert not out.numpy().any()  # recording does not run it
    cmd.launch()
    np.testing.assert_array_equal(out.numpy(), [1.5, 3.5, 5.5, 7.5])
    c.scale = 10.0  # structs are held by reference
    cmd.set_param_at_index(1, 0)
    cmd.set_dim(2)
    cmd.launch()
    np.testing.assert_array_equal(out.numpy(), [0.5, 20.5, 5.5, 7.5])
    other = wp.zeros(3, dtype=float, device="cpu")
    cmd.set_param_by_name("out", other)
    cmd.set_dim(3)
    cmd.launch()
    np.testing.assert_array_equal(other.numpy(), [0.5, 20.5, 40.5])
    with pytest.raises(KeyError, match="has no parameter 'nope'"):
        cmd.set_param_by_name("nope", 1)


def test_empty_launch_takes_zero_defaults():
    out = wp.full(3, -1.0, dtype=float, device="cpu")
    cmd = wp.Launch(affine, "cpu")
    cmd.set_param_by_name("out", out)
    cmd.set_dim(3)
    cmd.launch()  # c = Coeffs() (all zero), k = 0, v = (0, 0)
    np.testing.assert_array_equal(out.numpy(), [0.0, 0.0, 0.0])
    with pytest.raises(NotImplementedError, match="hooks and params_addr"):
        wp.Launch(affine, "cpu", hooks=object())
    import ctypes

    for record in (ctypes.c_int(3), out.__ctype__()):
        with pytest.raises(TypeError, match="takes argument values, not raw ctypes records"):
            cmd.set_param_at_index_from_ctype(1, record)
        with pytest.raises(RuntimeError, match="not raw ctypes records"):
            cmd.set_param_by_name_from_ctype("out", record)


def test_array_ctype_describes_the_array():
    a = wp.zeros((3, 4), dtype=float, device="cpu", requires_grad=True)
    view = a[:, 1]
    record = view.__ctype__()
    assert record.data == view.ptr and record.grad == view.grad.ptr
    assert record.ndim == 1
    assert list(record.shape) == [3, 0, 0, 0] and list(record.strides) == [16, 0, 0, 0]
    assert wp.array(dtype=float).__ctype__().data == 0


def test_adjoint_launch_commands():
    x = wp.array([1.0, 2.0, 3.0], dtype=float, device="cpu", requires_grad=True)
    y = wp.zeros_like(x)
    y.grad.fill_(1.0)
    cmd = wp.launch(square, 3, inputs=[x, y], adj_inputs=[None, None], adjoint=True,
                    device="cpu", record_cmd=True)
    cmd.launch()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0, 6.0])
    x2 = wp.array([4.0, 5.0], dtype=float, device="cpu")
    gx, gy = wp.zeros(2, dtype=float, device="cpu"), wp.ones(2, dtype=float, device="cpu")
    cmd = wp.Launch(square, "cpu", adjoint=True)
    cmd.set_param_by_name("x", x2)
    cmd.set_param_by_name("y", wp.zeros(2, dtype=float, device="cpu"))
    cmd.set_param_by_name("x", gx, adjoint=True)
    cmd.set_param_by_name("y", gy, adjoint=True)
    cmd.set_dim(2)
    cmd.launch()
    np.testing.assert_array_equal(gx.numpy(), [8.0, 10.0])
