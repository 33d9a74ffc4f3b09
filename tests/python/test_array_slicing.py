"""Slices of arrays in kernels (a[1:3], a[::-1, 2], runtime bounds) against numpy, gradients
through sliced views, and the zero-step errors."""

import subprocess
import sys

import numpy as np
import pytest

import treadle as wp


@wp.kernel
def slices_2d(a: wp.array2d(dtype=int), out: wp.array(dtype=int)):
    s = a[1:3]
    out[0] = s.shape[0] * 100 + s.shape[1] * 10 + s.shape[2]
    out[1] = s[1, 3]
    r = a[::-2, 1]  # a 1-D view: rows 5, 3, 1 of column 1
    out[2] = r.shape[0]
    out[3] = r[0] * 100 + r[1] * 10 + r[2]
    t = a[-1, 3:0:-1]
    out[4] = t.shape[0]
    out[5] = t[0] + t[2]
    e = a[4:2]
    out[6] = e.shape[0]
    out[7] = a[:, 1:][2, 0]


@wp.kernel
def dynamic_slice(a: wp.array(dtype=float), start: int, stop: int, step: int,
                  out: wp.array(dtype=float)):
    v = a[start:stop:step]
    n = v.shape[0]
    out[0] = float(n)
    total = float(0.0)
    for k in range(n):
        total += v[k] * float(k + 1)
    out[1] = total


@wp.kernel
def scale_every_other(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    xs = x[1::2]
    ys = y[::2]
    ys[i] = 3.0 * xs[i] * xs[i]


def test_slices_match_numpy(device):
    host = (np.arange(24, dtype=np.int32) % 10).reshape(6, 4)
    a = wp.array(host, dtype=int, device=device)
    out = wp.zeros(8, dtype=int, device=device)
    wp.launch(slices_2d, dim=1, inputs=[a, out], device=device)
    r = host[::-2, 1]
    t = host[-1, 3:0:-1]
    expect = [240, host[1:3][1, 3], len(r), r[0] * 100 + r[1] * 10 + r[2], len(t), t[0] + t[2],
              0, host[:, 1:][2, 0]]
    np.testing.assert_array_equal(out.numpy(), expect)


@pytest.mark.parametrize("bounds", [(1, 7, 2), (6, 0, -2), (-3, 100, 1), (5, -100, -1),
                                    (2, 2, 1)])
def test_runtime_bounds_follow_python(device, bounds):
    host = np.arange(8, dtype=np.float32) + 1.0
    a = wp.array(host, device=device)
    out = wp.zeros(2, dtype=float, device=device)
    wp.launch(dynamic_slice, dim=1, inputs=[a, *bounds, out], device=device)
    view = host[slice(*bounds)]
    expect = [len(view), float(np.sum(view * np.arange(1, len(view) + 1)))]
    np.testing.assert_allclose(out.numpy(), expect)


def test_gradient_through_slices(device):
    x = wp.array(np.arange(8, dtype=np.float32), device=device, requires_grad=True)
    y = wp.zeros(8, dtype=float, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(scale_every_other, dim=4, inputs=[x, y], device=device)
    np.testing.assert_allclose(y.numpy()[::2], 3.0 * np.arange(1, 8, 2) ** 2)
    tape.backward(grads={y: wp.ones(8, dtype=float, device=device)})
    expect = np.zeros(8, dtype=np.float32)
    expect[1::2] = 6.0 * np.arange(1, 8, 2)  # d(3 x^2)/dx
    np.testing.assert_allclose(x.grad.numpy(), expect)


def test_constant_zero_step_is_a_compile_error():
    @wp.kernel
    def zero_step(a: wp.array(dtype=int)):
        v = a[0:2:0]  # noqa: F841

    with pytest.raises(ValueError, match="Slice step cannot be zero"):
        wp.launch(zero_step, dim=1, inputs=[wp.zeros(2, dtype=int)])


def test_slices_of_indexed_arrays_are_refused():
    @wp.kernel
    def sliced_indexed(a: wp.indexedarray(dtype=float)):
        v = a[1:]  # noqa: F841

    data = wp.zeros(4, dtype=float)
    with pytest.raises(TypeError, match="slices are only supported on arrays in kernels"):
        wp.launch(sliced_indexed, dim=1, inputs=[wp.indexedarray(data, [[0, 1]])])


_ZERO_STEP_CHILD = """
import treadle as wp
wp.config.quiet = True

@wp.kernel
def k(a: wp.array(dtype=float), step: int):
    v = a[0:4:step]
    a[0] = v[0]

wp.launch(k, dim=1, inputs=[wp.zeros(4, dtype=float), 0])
wp.synchronize()
"""


def test_runtime_zero_step_aborts_on_cpu(tmp_path):
    script = tmp_path / "zero_step.py"
    script.write_text(_ZERO_STEP_CHILD)
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                            timeout=300, check=False)
    assert "slice step cannot be zero" in result.stdout + result.stderr
    assert result.returncode != 0
