"""Launch arguments and grids that used to crash or lose data: None for an accessed array,
integers out of their parameter's range, and launch dims of the wrong kind or size."""

import re

import numpy as np
import pytest

import treadle as wp


@wp.kernel
def store(a: wp.array(dtype=float), s: wp.int32, u: wp.uint8, big: wp.uint64,
          out: wp.array(dtype=wp.uint64)):
    i = wp.tid()
    a[i] = float(s) + float(u)
    out[0] = big


@wp.kernel
def maybe_unused(a: wp.array(dtype=float), n: int):
    i = wp.tid()
    if n > 100:
        a[i] = 1.0


def _args(device, **kw):
    args = {"a": wp.zeros(4, dtype=float, device=device), "s": 1, "u": 2, "big": 3,
            "out": wp.zeros(1, dtype=wp.uint64, device=device)}
    args.update(kw)
    return list(args.values())


def test_none_for_an_accessed_array_is_refused_in_release_mode(device):
    message = ("store(): argument 'a' is None (a null array), but the kernel writes it; pass an "
               "array (checked and debug modes report the access at its line instead)")
    with pytest.raises(ValueError, match="^" + re.escape(message) + "$"):
        wp.launch(store, dim=4, inputs=_args(device, a=None), device=device)
    # no thread runs: nothing to refuse
    wp.launch(store, dim=0, inputs=_args(device, a=None), device=device)


def test_none_in_checked_mode_reports_the_access_at_its_line(device):
    old = wp.config.mode
    wp.config.mode = "debug"
    try:
        with pytest.raises(IndexError, match=r"test_launch_guards.py:\d+"):
            wp.launch(maybe_unused, dim=1, inputs=[None, 1000], device=device)
            wp.synchronize()
    finally:
        wp.config.mode = old


@pytest.mark.parametrize("name,value,shown", [
    ("s", 2**40, "1099511627776"), ("s", -2**31 - 1, "-2147483649"), ("u", 300, "300"),
    ("u", -1, "-1"), ("big", -1, "-1"), ("big", 2**64, None)])
def test_integers_out_of_range_raise_overflow_naming_the_parameter(device, name, value, shown):
    args = _args(device, **{name: value})
    if shown is None:  # beyond 64 bits
        with pytest.raises(TypeError, match=f"argument '{name}' is an integer too large"):
            wp.launch(store, dim=1, inputs=args, device=device)
        return
    t = {"s": "int32", "u": "uint8", "big": "uint64"}[name]
    with pytest.raises(OverflowError, match=re.escape(
            f"store(): argument '{name}' is {shown}, out of the range of {t}")):
        wp.launch(store, dim=1, inputs=args, device=device)


def test_integers_at_the_ends_of_their_range_pass(device):
    args = _args(device, s=-2**31, u=255, big=2**64 - 1)
    wp.launch(store, dim=1, inputs=args, device=device)
    assert args[-1].numpy()[0] == np.uint64(2**64 - 1)
    assert args[0].numpy()[0] == float(-2**31) + 255.0


@pytest.mark.parametrize("dim,error,text", [
    ("4", TypeError, "launch(): dim must be an int or a sequence of up to 4 ints, got str"),
    (None, TypeError, "launch(): dim must be an int or a sequence of up to 4 ints, got NoneType"),
    (2.5, TypeError, "launch(): dim must be an int or a sequence of up to 4 ints, got float"),
    ((2, 2.0), TypeError, "launch(): dim must be an int or a sequence of up to 4 ints, got float"),
    (2**63, ValueError, "launch(): a launch dimension does not fit 64 bits"),
    (2**31, ValueError, "maybe_unused(): launch dimension 0 is 2147483648"),
    (-1, ValueError, "maybe_unused(): launch dimension 0 is -1"),
])
def test_bad_launch_dims_raise_typed_errors(device, dim, error, text):
    a = wp.zeros(4, dtype=float, device=device)
    with pytest.raises(error, match="^" + re.escape(text)):
        wp.launch(maybe_unused, dim=dim, inputs=[a, 0], device=device)


def test_numpy_integer_dims_and_none_inputs(device):
    a = wp.zeros(4, dtype=float, device=device)
    wp.launch(maybe_unused, dim=np.int64(4), inputs=[a, 1000], device=device)
    wp.launch(maybe_unused, dim=(np.int32(2), 2), inputs=[a, 1000], device=device)
    np.testing.assert_array_equal(a.numpy(), [1.0, 1.0, 1.0, 1.0])
    with pytest.raises(TypeError, match=re.escape("maybe_unused(): takes 2 arguments but 0 were given")):
        wp.launch(maybe_unused, dim=4, inputs=None, device=device)
