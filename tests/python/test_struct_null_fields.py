"""A struct whose array field was never set (None) is refused at launch when the kernel touches
that field -- directly, through a nested struct or inside a @wp.func -- and accepted when it
does not; checked mode reports the access itself at its line."""

import numpy as np
import pytest

import treadle as wp


@wp.struct
class Inner:
    values: wp.array(dtype=float)


@wp.struct
class Outer:
    used: wp.array(dtype=float)
    spare: wp.array(dtype=float)
    inner: Inner
    scale: float


@wp.kernel
def write_used(s: Outer):
    i = wp.tid()
    s.used[i] = s.scale * float(i)


@wp.func
def read_nested(s: Outer, i: int):
    return s.inner.values[i]


@wp.kernel
def copy_nested(s: Outer, out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = read_nested(s, i)


@wp.func
def bump(a: wp.array(dtype=float), i: int):
    wp.atomic_add(a, i, 1.0)


@wp.kernel
def bump_spare(s: Outer):
    bump(s.spare, wp.tid())


def make(device, **arrays):
    s = Outer()
    s.scale = 2.0
    for name, value in arrays.items():
        if name == "values":
            s.inner = Inner()
            s.inner.values = value
        else:
            setattr(s, name, value)
    return s


def test_untouched_unset_fields_are_fine(device):
    used = wp.zeros(4, dtype=float, device=device)
    wp.launch(write_used, dim=4, inputs=[make(device, used=used)], device=device)
    np.testing.assert_array_equal(used.numpy(), [0, 2, 4, 6])


def test_unset_field_that_is_written(device):
    with pytest.raises(ValueError) as info:
        wp.launch(write_used, dim=4, inputs=[make(device)], device=device)
    assert str(info.value) == (
        "write_used(): argument 's' has its array field 'used' unset (None, a null array), but "
        "the kernel writes it; set the field (checked and debug modes report the access at its "
        "line instead)")


def test_unset_nested_field_read_in_a_function(device):
    out = wp.zeros(3, dtype=float, device=device)
    with pytest.raises(ValueError, match=r"copy_nested\(\): argument 's' has its array field "
                                         r"'inner.values' unset .* the kernel reads it"):
        wp.launch(copy_nested, dim=3, inputs=[make(device), out], device=device)
    values = wp.array([1.0, 2.0, 3.0], dtype=float, device=device)
    wp.launch(copy_nested, dim=3, inputs=[make(device, values=values), out], device=device)
    np.testing.assert_array_equal(out.numpy(), [1, 2, 3])


def test_unset_field_passed_to_a_function_that_updates_it(device):
    with pytest.raises(ValueError, match=r"array field 'spare' unset .* the kernel writes it"):
        wp.launch(bump_spare, dim=2, inputs=[make(device)], device=device)
    spare = wp.zeros(2, dtype=float, device=device)
    wp.launch(bump_spare, dim=2, inputs=[make(device, spare=spare)], device=device)
    np.testing.assert_array_equal(spare.numpy(), [1, 1])


def test_zero_launch_does_not_check(device):
    wp.launch(write_used, dim=0, inputs=[make(device)], device=device)


def test_checked_mode_reports_the_access(device):
    old = wp.config.mode
    wp.config.mode = "checked"
    try:
        with pytest.raises(IndexError) as info:
            wp.launch(write_used, dim=4, inputs=[make(device)], device=device)
            wp.synchronize()
    finally:
        wp.config.mode = old
    assert str(info.value).startswith(f"{__file__}:27:5: write_used(): index (0,) is out of "
                                      "bounds for an array of shape (0,)"), str(info.value)
