"""checked mode: out-of-bounds array accesses raise IndexError naming kernel, line, index, shape."""

import numpy as np
import pytest

import treadle as wp


@wp.kernel
def overrun(x: wp.array(dtype=float), offset: int):
    i = wp.tid()
    x[i + offset] = 1.0


@wp.kernel
def read_2d(m: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = m[i, i + 1]


@pytest.fixture
def checked():
    old = wp.config.mode
    wp.config.mode = "checked"
    yield
    wp.config.mode = old


def test_write_out_of_bounds(device, checked):
    x = wp.zeros(8, dtype=wp.float32, device=device)
    with pytest.raises(IndexError) as info:
        wp.launch(overrun, dim=8, inputs=[x, 3], device=device)
        wp.synchronize()
    text = str(info.value)
    assert text.startswith(f"{__file__}:12:")
    assert "overrun(): index (" in text and "is out of bounds for an array of shape (8,)" in text
    # in-bounds elements were written; nothing outside the array was touched
    np.testing.assert_array_equal(x.numpy(), [0, 0, 0, 1, 1, 1, 1, 1])
    # the error is reported once, and a good launch afterwards is fine
    wp.launch(overrun, dim=5, inputs=[x, 0], device=device)
    wp.synchronize()


def test_read_out_of_bounds_2d(device, checked):
    m = wp.zeros((4, 4), dtype=wp.float32, device=device)
    out = wp.zeros(4, dtype=wp.float32, device=device)
    with pytest.raises(IndexError, match=r"read_2d\(\): index \(3, 4\) is out of bounds for an "
                                         r"array of shape \(4, 4\) \(dimension 1\)"):
        wp.launch(read_2d, dim=4, inputs=[m, out], device=device)
        wp.synchronize()


def test_release_mode_has_no_checks(device):
    m = wp.zeros((4, 4), dtype=wp.float32, device=device)
    out = wp.zeros(3, dtype=wp.float32, device=device)
    wp.launch(read_2d, dim=3, inputs=[m, out], device=device)
    wp.synchronize()
    assert "address_checked" not in read_2d._compile(wp.get_device(device).alias).source
