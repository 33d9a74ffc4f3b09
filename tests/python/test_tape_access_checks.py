"""wp.config.verify_autograd_array_access: warnings for writes to memory that a recorded launch
read, and for kernels that write an array after reading it."""

import contextlib
import io
import sys
import warnings

import numpy as np
import pytest

import treadle as wp


@pytest.fixture(autouse=True)
def verify_access():
    old = wp.config.verify_autograd_array_access
    wp.config.verify_autograd_array_access = True
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        yield
    wp.config.verify_autograd_array_access = old


@contextlib.contextmanager
def stderr():
    buf = io.StringIO()
    with contextlib.redirect_stderr(buf):
        yield buf


@wp.kernel
def square(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * x[i]


@wp.kernel
def overwrite(src: wp.array(dtype=float), dst: wp.array(dtype=float)):
    i = wp.tid()
    dst[i] = src[i]


@wp.kernel
def add_in_place(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    x[i] += y[i]


@wp.func
def write_two(x: wp.array(dtype=float), i: int):
    x[i] = 2.0


@wp.kernel
def read_then_call_write(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    a = x[i]
    write_two(x, i)
    y[i] = a


LAUNCH = "is being written to but has already been read from in a previous launch"


def arrays(device, n=3):
    a = wp.array(np.arange(n, dtype=np.float32), device=device, requires_grad=True)
    return a, wp.zeros_like(a), wp.zeros_like(a)


def test_a_write_after_a_recorded_read_warns_naming_the_argument(device):
    a, b, c = arrays(device)
    with stderr() as err:
        with wp.Tape():
            wp.launch(square, dim=3, inputs=[a], outputs=[b], device=device)
            wp.launch(overwrite, dim=3, inputs=[c], outputs=[a], device=device)
    text = err.getvalue()
    assert LAUNCH in text
    assert "passed to argument dst in kernel overwrite at " in text
    assert "This may corrupt gradient computation in the backward pass." in text


def test_no_warning_without_a_read_or_outside_a_tape(device):
    a, b, c = arrays(device)
    with stderr() as err:
        with wp.Tape():
            wp.launch(overwrite, dim=3, inputs=[c], outputs=[a], device=device)  # writes a
            wp.launch(square, dim=3, inputs=[a], outputs=[b], device=device)  # then reads it
        wp.launch(overwrite, dim=3, inputs=[c], outputs=[b], device=device)  # no tape
    assert err.getvalue() == ""
    assert a._is_read and not b._is_read


def test_in_place_updates_are_writes_and_flags_are_shared_by_views(device):
    a, b, _ = arrays(device)
    with wp.Tape():
        wp.launch(add_in_place, dim=3, inputs=[a, b], device=device)
    assert not a._is_read and b._is_read
    view = b.reshape((3, 1))
    assert view._is_read  # the same memory
    a2 = a.view(dtype=wp.int32)
    a2.mark_read()
    assert a._is_read


def test_backward_and_reset_clear_the_read_flags(device):
    a, b, c = arrays(device)
    tape = wp.Tape()
    with tape:
        wp.launch(square, dim=3, inputs=[a], outputs=[b], device=device)
    assert a._is_read
    tape.backward(grads={b: wp.ones_like(b)})
    assert not a._is_read
    with stderr() as err, wp.Tape():
        wp.launch(overwrite, dim=3, inputs=[c], outputs=[a], device=device)
    assert err.getvalue() == ""
    tape = wp.Tape()
    with tape:
        wp.launch(square, dim=3, inputs=[a], outputs=[b], device=device)
    tape.reset()
    assert not a._is_read


def test_a_copy_warns_at_the_callers_line(device):
    a, b, _ = arrays(device)
    with stderr() as err, wp.Tape():
        wp.launch(square, dim=3, inputs=[a], outputs=[b], device=device)
        line = sys._getframe().f_lineno + 1
        wp.copy(a, b)
    assert f"is being written to by an array copy at {__file__}:{line}" in err.getvalue()
    assert b._is_read


def test_a_kernel_that_writes_what_it_read_warns_when_built(device):
    with stderr() as err:
        @wp.kernel
        def read_write(a: wp.array(dtype=float), b: wp.array(dtype=float)):
            i = wp.tid()
            b[i] = a[i] * a[i]
            a[i] = 1.0

        a, b, _ = arrays(device)
        with wp.Tape():
            wp.launch(read_write, dim=3, inputs=[a, b], device=device)
            wp.launch(read_then_call_write, dim=3, inputs=[b, a], device=device)
    text = err.getvalue()
    within = "after it has been read from within the same kernel"
    assert f"argument a in kernel {read_write.key}" in text and within in text
    assert "argument x in kernel read_then_call_write" in text
