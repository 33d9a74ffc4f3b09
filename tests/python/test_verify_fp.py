"""verify_fp: a launch reports the first NaN/Inf a kernel stores, with kernel, line and index."""

import math

import numpy as np
import pytest

import treadle as wp


@wp.kernel
def fp_sqrt(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = wp.sqrt(x[i])


@wp.kernel
def fp_div_2d(x: wp.array2d(dtype=float), y: wp.array2d(dtype=float)):
    i, j = wp.tid()
    y[i, j] = 1.0 / x[i, j]


@wp.kernel
def fp_vec(x: wp.array(dtype=float), out: wp.array(dtype=wp.vec3d)):
    i = wp.tid()
    out[i] = wp.vec3d(1.0, wp.float64(wp.log(x[i])), 2.0)


@wp.kernel
def fp_atomic(x: wp.array(dtype=float), total: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(total, 0, x[i])


@wp.func
def store_ratio(out: wp.array(dtype=float), i: int, a: float, b: float):
    out[i] = a / b


@wp.kernel
def fp_in_func(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    store_ratio(out, i, 1.0, a[i])


@wp.kernel
def fp_ints(x: wp.array(dtype=int)):
    i = wp.tid()
    x[i] = i * 2


@pytest.fixture
def verify():
    old = wp.config.verify_fp
    wp.config.verify_fp = True
    yield
    wp.config.verify_fp = old



def test_nan_is_reported_with_line_and_index(device, verify):
    x = wp.array(np.array([4.0, 1.0, -1.0, 9.0], dtype=np.float32), device=device)
    y = wp.zeros(4, dtype=float, device=device)
    with pytest.raises(FloatingPointError) as info:
        wp.launch(fp_sqrt, dim=4, inputs=[x, y], device=device)
        wp.synchronize()
    text = str(info.value)
    assert text.startswith(f"{__file__}:14:"), text
    assert "fp_sqrt(): verify_fp: stored nan to array 'y' at index (2,)" in text
    # the launch ran to the end, and a clean launch afterwards raises nothing
    np.testing.assert_allclose(y.numpy()[[0, 1, 3]], [2.0, 1.0, 3.0])
    x = wp.array(np.array([4.0, 1.0, 1.0, 9.0], dtype=np.float32), device=device)
    wp.launch(fp_sqrt, dim=4, inputs=[x, y], device=device)
    wp.synchronize()


def test_inf_in_2d(device, verify):
    x = np.ones((3, 4), dtype=np.float32)
    x[1, 3] = 0.0
    y = wp.zeros((3, 4), dtype=float, device=device)
    with pytest.raises(FloatingPointError, match=r"fp_div_2d\(\): verify_fp: stored inf to array "
                                                 r"'y' at index \(1, 3\)"):
        wp.launch(fp_div_2d, dim=(3, 4), inputs=[wp.array(x, device=device), y], device=device)
        wp.synchronize()


def test_vector_component(device, verify):
    x = wp.array(np.array([1.0, 0.0], dtype=np.float32), device=device)
    out = wp.zeros(2, dtype=wp.vec3d, device=device)
    with pytest.raises(FloatingPointError, match=r"stored -inf to array 'out' at index \(1,\)"):
        wp.launch(fp_vec, dim=2, inputs=[x, out], device=device)
        wp.synchronize()


def test_atomic_result(device, verify):
    x = wp.array(np.array([1.0, np.inf, 2.0], dtype=np.float32), device=device)
    total = wp.zeros(1, dtype=float, device=device)
    with pytest.raises(FloatingPointError, match=r"stored inf to array 'total' at index \(0,\)"):
        wp.launch(fp_atomic, dim=3, inputs=[x, total], device=device)
        wp.synchronize()


def test_store_in_user_function(device, verify):
    a = wp.array(np.array([1.0, 0.0], dtype=np.float32), device=device)
    out = wp.zeros(2, dtype=float, device=device)
    with pytest.raises(FloatingPointError) as info:
        wp.launch(fp_in_func, dim=2, inputs=[a, out], device=device)
        wp.synchronize()
    text = str(info.value)
    assert text.startswith(f"{__file__}:37:"), text
    assert "fp_in_func(): verify_fp: stored inf to array 'out' at index (1,) in function " \
           "store_ratio()" in text


def test_off_by_default(device):
    assert not wp.config.verify_fp
    x = wp.array(np.array([-1.0], dtype=np.float32), device=device)
    y = wp.zeros(1, dtype=float, device=device)
    wp.launch(fp_sqrt, dim=1, inputs=[x, y], device=device)
    wp.synchronize()
    assert math.isnan(y.numpy()[0])
    assert "verify_fp_store" not in fp_sqrt._compile(wp.get_device(device).alias).source


def test_integer_stores_are_not_checked(device, verify):
    x = wp.zeros(4, dtype=int, device=device)
    wp.launch(fp_ints, dim=4, inputs=[x], device=device)
    np.testing.assert_array_equal(x.numpy(), [0, 2, 4, 6])
    assert "verify_fp_store" not in fp_ints._compile(wp.get_device(device).alias).source


def test_module_option(device):
    wp.set_module_options({"verify_fp": True})
    try:
        x = wp.array(np.array([-1.0], dtype=np.float32), device=device)
        y = wp.zeros(1, dtype=float, device=device)
        with pytest.raises(FloatingPointError):
            wp.launch(fp_sqrt, dim=1, inputs=[x, y], device=device)
            wp.synchronize()
    finally:
        wp.set_module_options({"verify_fp": None})
    wp.launch(fp_sqrt, dim=1, inputs=[x, y], device=device)
    wp.synchronize()
