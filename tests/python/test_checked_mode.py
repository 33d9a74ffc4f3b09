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
    assert text.startswith(f"{__file__}:12:5: ")  # the column of `x[i + offset]`
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


@wp.kernel
def store_wide(x: wp.array(dtype=float), i: wp.int64, j: wp.uint64, k: wp.uint32):
    x[i] = 1.0
    y = x[j]
    wp.atomic_add(x, k, y)


def test_64_bit_indices_are_checked_whole(device, checked):
    # 2^32 + 1 truncated to 32 bits is 1, in bounds: the check must see the whole value.
    x = wp.zeros(4, dtype=wp.float32, device=device)
    big = 2**32 + 1
    cases = [((big, 0, 0), "(4294967297,)", 5), ((0, big, 0), "(4294967297,)", 9),
             ((0, 1, 2**31 + 2), "(2147483650,)", 5)]
    for (i, j, k), index, col in cases:
        with pytest.raises(IndexError) as info:
            wp.launch(store_wide, dim=1, inputs=[x, i, j, k], device=device)
            wp.synchronize()
        assert f"store_wide(): index {index} is out of bounds for an array of shape (4,)" in str(
            info.value)
        assert str(info.value).startswith(f"{__file__}:"), str(info.value)
        assert f":{col}: " in str(info.value).split(" ")[0] + " "
    np.testing.assert_array_equal(x.numpy()[1:], [0, 0, 0])
    wp.launch(store_wide, dim=1, inputs=[x, 3, 3, 2], device=device)
    np.testing.assert_array_equal(x.numpy(), [1, 0, 1, 1])
