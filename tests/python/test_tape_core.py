"""wp.Tape over the C++ tape: copies and custom steps recorded there, one overwrite check."""

import re

import numpy as np
import pytest

import treadle as wp


@wp.kernel
def scale_vec(x: wp.array(dtype=wp.vec3), y: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    y[i] = x[i] * 3.0


@wp.kernel
def sum_dot(y: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, wp.dot(y[i], y[i]))


@wp.kernel
def double_in_place(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] * 2.0


def test_copy_of_vector_arrays_carries_the_gradient(device):
    x = wp.array(np.arange(6, dtype=np.float32).reshape(2, 3), dtype=wp.vec3, device=device,
                 requires_grad=True)
    y = wp.zeros(2, dtype=wp.vec3, device=device, requires_grad=True)
    z = wp.zeros(2, dtype=wp.vec3, device=device, requires_grad=True)
    loss = wp.zeros(1, dtype=float, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(scale_vec, 2, inputs=[x, y], device=device)
        wp.copy(z, y)
        wp.launch(sum_dot, 2, inputs=[z, loss], device=device)
    assert [type(e).__name__ for e in tape.launches] == ["_Launch", "_Copy", "_Launch"]
    tape.backward(loss=loss)
    # loss = sum |3x|^2: d loss / dx = 18 x
    np.testing.assert_allclose(x.grad.numpy(), 18.0 * x.numpy())
    # y.grad held 2 y until scale_vec's backward pass consumed it (y is what it stored)
    np.testing.assert_array_equal(y.grad.numpy(), np.zeros((2, 3)))
    assert set(tape.gradients) == {x, y, z, loss}
    tape.zero()
    assert not x.grad.numpy().any() and not y.grad.numpy().any()


def test_custom_steps_run_in_reverse_with_launches(device):
    x = wp.array(np.array([1.0, 2.0], dtype=np.float32), device=device, requires_grad=True)
    order = []
    tape = wp.Tape()
    with tape:
        tape.record_func(lambda: order.append("first"), [x])
        wp.launch(double_in_place, 2, inputs=[x], device=device, record_tape=False)
        tape.record_func(lambda: order.append("last"), [])
    tape.backward()
    assert order == ["last", "first"]
    x.grad.fill_(5.0)
    tape.zero()  # arrays given to record_func are the tape's too
    assert not x.grad.numpy().any()
    tape.reset()
    # as in Warp, gradients still lists what was recorded (zeroed)
    assert tape.launches == [] and list(tape.gradients) == [x]
    assert not tape.gradients[x].numpy().any()


def test_the_overwrite_check_is_the_runtime_one(device):
    x = wp.array(np.array([1.0, 2.0], dtype=np.float32), device=device, requires_grad=True)
    ran = []
    tape = wp.Tape()
    with tape:
        wp.launch(double_in_place, 2, inputs=[x], device=device)
        tape.record_func(lambda: ran.append(1), [])
    message = (
        "Tape::backward(): the gradient of kernel 'double_in_place' would be wrong: its argument "
        f"'x' was overwritten after the launch read it (last written by kernel 'double_in_place' "
        f"({__file__}:23) on {device}). The backward pass replays the launch with the array's "
        "current values. Write the new values to a different array (or clone the array before "
        "overwriting it)."
    )
    with pytest.raises(RuntimeError, match="^" + re.escape(message) + "$"):
        tape.backward()
    assert ran == []  # nothing runs when a recorded launch would be wrong


def test_launches_outside_a_tape_are_not_recorded(device):
    x = wp.zeros(2, dtype=float, device=device, requires_grad=True)
    tape = wp.Tape()
    wp.launch(double_in_place, 2, inputs=[x], device=device)
    with tape:
        pass
    assert tape.launches == []
    tape.backward()


def test_a_tape_records_only_its_own_threads_launches():
    import threading

    import treadle as wp

    @wp.kernel
    def double(x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        y[i] = 2.0 * x[i]

    x = wp.ones(4, dtype=float, device="cpu", requires_grad=True)
    y = wp.zeros(4, dtype=float, device="cpu", requires_grad=True)
    stop = threading.Event()

    def other_thread():
        a = wp.ones(4, dtype=float, device="cpu")
        b = wp.zeros(4, dtype=float, device="cpu")
        while not stop.is_set():
            wp.launch(double, dim=4, inputs=[a], outputs=[b], device="cpu")

    worker = threading.Thread(target=other_thread)
    worker.start()
    try:
        tape = wp.Tape()
        with tape:
            for _ in range(50):
                wp.launch(double, dim=4, inputs=[x], outputs=[y], device="cpu")
    finally:
        stop.set()
        worker.join()
    assert len(tape.launches) == 50
    assert all(entry.args[0] is x for entry in tape.launches)


@wp.kernel
def write_then_read(x: wp.array(dtype=float), y: wp.array(dtype=float), z: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * x[i]
    z[i] = y[i] * 3.0  # reads what this launch wrote: the replay reads the same values


def test_a_launch_reading_its_own_writes_is_no_overwrite(device):
    xs = np.array([0.5, -1.0, 2.0], dtype=np.float32)
    x = wp.array(xs, device=device, requires_grad=True)
    y = wp.zeros(3, dtype=float, device=device, requires_grad=True)
    z = wp.zeros(3, dtype=float, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(write_then_read, 3, inputs=[x, y, z], device=device)
    tape.backward(grads={z: wp.ones(3, dtype=float, device=device)})

    def f(values):
        yy = wp.zeros(3, dtype=float, device=device)
        zz = wp.zeros(3, dtype=float, device=device)
        wp.launch(write_then_read, 3, inputs=[wp.array(values, device=device), yy, zz],
                  device=device)
        return zz.numpy().astype(np.float64)

    eps = 1e-3
    fd = (f(xs + eps) - f(xs - eps)) / (2 * eps)
    np.testing.assert_allclose(x.grad.numpy(), fd, rtol=1e-3)
    # a later launch that overwrites y is still caught
    with tape:
        wp.launch(write_then_read, 3, inputs=[x, y, z], device=device)
    with pytest.raises(RuntimeError, match="its argument 'y' was overwritten after the launch"):
        tape.backward(grads={z: wp.ones(3, dtype=float, device=device)})
