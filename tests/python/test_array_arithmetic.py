"""Arithmetic operators on arrays (Warp's ``a + s``, ``s % a``, ``a * b``, ``-a``, ``a += s``):
elementwise results against numpy, element types, shapes, in-place forms and gradients."""

import re

import numpy as np
import pytest

import treadle as wp


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.uint64, np.float16,
                                   np.float32, np.float64])
def test_scalar_operands_match_numpy(device, dtype):
    wptype = wp.dtype_from_numpy(np.dtype(dtype))
    values = np.array([1, 2, 3], dtype=dtype)
    a = wp.array(values, dtype=wptype, device=device)
    s = wptype(5)
    five = dtype(5)
    for got, want in [(a + s, values + five), (s + a, five + values), (a - s, values - five),
                      (s - a, five - values), (a * s, values * five), (s * a, five * values),
                      (a % s, values % five), (s % a, five % values)]:
        assert got.dtype is wptype and got.device == a.device
        np.testing.assert_array_equal(got.numpy(), want)
    if np.issubdtype(dtype, np.floating):
        np.testing.assert_allclose((s / a).numpy(), five / values, rtol=1e-3)
        np.testing.assert_allclose((-a).numpy(), -values)


def test_arrays_of_one_shape_and_in_place_forms(device):
    x = np.arange(6, dtype=np.float32).reshape(2, 3) + 1.0
    a = wp.array(x, device=device)
    b = wp.array(2.0 * x, device=device)
    np.testing.assert_allclose((a * b).numpy(), 2.0 * x * x)
    np.testing.assert_allclose((b / a).numpy(), np.full((2, 3), 2.0))
    np.testing.assert_allclose((a ** 2.0).numpy(), x**2, rtol=1e-6)
    same = a
    a += 1.5
    a *= b
    assert a is same
    np.testing.assert_allclose(a.numpy(), (x + 1.5) * 2.0 * x)
    with pytest.raises(ValueError, match=re.escape("array add: the arrays have different shapes")):
        a + wp.zeros(3, dtype=float, device=device)


def test_vector_elements(device):
    v = wp.array(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=np.float32), dtype=wp.vec3,
                 device=device)
    doubled = 2.0 * v
    assert doubled.dtype is wp.vec3
    np.testing.assert_allclose(doubled.numpy(), 2.0 * v.numpy())
    shifted = v + wp.vec3(1.0, 0.0, -1.0)
    np.testing.assert_allclose(shifted.numpy(), v.numpy() + [1.0, 0.0, -1.0])


def test_gradients_flow_through_the_tape(device):
    x = wp.array(np.array([1.0, 2.0, 3.0], dtype=np.float32), device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        y = x * 3.0
    y.grad = wp.ones_like(y)
    tape.backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 3.0, 3.0])
