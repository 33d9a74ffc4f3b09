"""Warp's final-write-wins rule: the adjoint of a store a[i] = v consumes (zeroes) the element's
gradient, so only the last write of an element receives it, unless the array was created with
retain_grad=True."""

import numpy as np
import pytest

import treadle as wp
from gradcheck_util import check_grad


@wp.kernel
def times_two(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * 2.0


@wp.kernel
def times_three(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * 3.0


@wp.kernel
def store_twice(x: wp.array(dtype=wp.float64), y: wp.array(dtype=wp.float64)):
    i = wp.tid()
    y[i] = x[i] * 5.0  # dead: the next store overwrites it
    y[i] = x[i] * x[i]


@wp.kernel
def store_in_loop(x: wp.array(dtype=wp.float64), y: wp.array(dtype=wp.float64)):
    i = wp.tid()
    for k in range(3):
        y[i] = x[i] * wp.float64(k + 1) + x[i] * x[i]


@wp.struct
class Holder:
    arr: wp.array(dtype=float)


@wp.kernel
def times_two_struct(x: wp.array(dtype=float), h: Holder):
    i = wp.tid()
    h.arr[i] = x[i] * 2.0


def _overwrite(device, retain):
    n = 5
    xa = wp.ones(n, dtype=float, requires_grad=True, device=device)
    xb = wp.ones(n, dtype=float, requires_grad=True, device=device)
    y = wp.zeros(n, dtype=float, requires_grad=True, retain_grad=retain, device=device)
    with wp.Tape() as tape:
        wp.launch(times_two, dim=n, inputs=[xa, y], device=device)
        wp.launch(times_three, dim=n, inputs=[xb, y], device=device)
    tape.backward(grads={y: wp.ones_like(y)})
    return xa.grad.numpy(), xb.grad.numpy(), y.grad.numpy()


def test_a_store_consumes_the_gradient_of_earlier_writes(device):
    ga, gb, gy = _overwrite(device, retain=False)
    np.testing.assert_array_equal(ga, np.zeros(5))
    np.testing.assert_array_equal(gb, np.full(5, 3.0))
    np.testing.assert_array_equal(gy, np.zeros(5))


def test_retain_grad_keeps_the_gradient(device):
    ga, gb, gy = _overwrite(device, retain=True)
    np.testing.assert_array_equal(ga, np.full(5, 2.0))
    np.testing.assert_array_equal(gb, np.full(5, 3.0))
    np.testing.assert_array_equal(gy, np.ones(5))


def test_retain_grad_of_a_struct_field_array(device):
    n = 4
    for retain, want in ((False, 0.0), (True, 1.0)):
        x = wp.ones(n, dtype=float, requires_grad=True, device=device)
        h = Holder()
        h.arr = wp.zeros(n, dtype=float, requires_grad=True, retain_grad=retain, device=device)
        with wp.Tape() as tape:
            wp.launch(times_two_struct, dim=n, inputs=[x, h], device=device)
        tape.backward(grads={h.arr: wp.ones_like(h.arr)})
        np.testing.assert_array_equal(x.grad.numpy(), np.full(n, 2.0))
        np.testing.assert_array_equal(h.arr.grad.numpy(), np.full(n, want))


@pytest.mark.parametrize("kernel", [store_twice, store_in_loop])
def test_repeated_stores_in_one_thread_match_finite_differences(device, kernel):
    x = np.linspace(-1.0, 1.5, 6)
    check_grad(kernel, 6, [x], [(6,)], device)


def test_retain_grad_validation():
    with pytest.raises(ValueError, match="retain_grad=True requires requires_grad=True"):
        wp.zeros(3, dtype=float, retain_grad=True)
    a = wp.zeros(3, dtype=float)
    with pytest.raises(ValueError, match="retain_grad=True requires requires_grad=True"):
        a.retain_grad = True
    a.requires_grad = True
    a.retain_grad = True
    assert a.retain_grad
    assert a[1:].retain_grad  # views inherit it
    a.requires_grad = False
    assert not a.retain_grad
    b = wp.array(np.ones(2), dtype=float, requires_grad=True, retain_grad=True)
    assert b.retain_grad


def test_array_factories_take_retain_grad():
    for a in (
        wp.empty(2, dtype=float, requires_grad=True, retain_grad=True),
        wp.ones(2, dtype=float, requires_grad=True, retain_grad=True),
        wp.full(2, 3.0, dtype=float, requires_grad=True, retain_grad=True),
    ):
        assert a.retain_grad
    assert not wp.ones(2, dtype=float, requires_grad=True).retain_grad


@pytest.mark.parametrize("retain", [False, True])
def test_a_copy_consumes_the_destination_gradient_unless_retained(device, retain):
    n = 3
    x = wp.ones(n, dtype=float, requires_grad=True, device=device)
    s = wp.ones(n, dtype=float, requires_grad=True, device=device)
    y = wp.zeros(n, dtype=float, requires_grad=True, retain_grad=retain, device=device)
    with wp.Tape() as tape:
        wp.launch(times_two, dim=n, inputs=[x, y], device=device)  # dead write
        wp.copy(y, s)
    tape.backward(grads={y: wp.ones_like(y)})
    np.testing.assert_array_equal(s.grad.numpy(), np.ones(n))
    np.testing.assert_array_equal(x.grad.numpy(), np.full(n, 2.0 if retain else 0.0))
