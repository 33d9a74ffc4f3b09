"""Negative array indices count from the end of their dimension (Warp's rule), for loads,
stores, atomics, views, indexed arrays, gradients and in checked mode."""

import numpy as np
import pytest

import treadle as wp

DEVICES = ["cpu"] + (["cuda:0"] if wp.get_cuda_device_count() > 0 else [])


@wp.kernel(module="unique")
def access(a: wp.array(dtype=float), b: wp.array(dtype=float, ndim=2),
           out: wp.array(dtype=float)):
    out[-1] = a[-1] + b[-1, -2]   # load and store
    wp.atomic_add(out, -2, a[-3])  # atomic
    row = b[-1]                    # view
    out[-3] = row[0] + row[-1]
    b[-2, -1] = 7.0


@wp.kernel(module="unique")
def indexed(a: wp.indexedarray(dtype=float), out: wp.array(dtype=float)):
    out[0] = a[-1]
    a[-2] = 5.0


@wp.kernel(module="unique")
def squared_last(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    out[0] = a[-1] * a[-1]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("mode", ["release", "checked"])
def test_negative_indices_count_from_the_end(device, mode):
    a_np = np.arange(1, 6, dtype=np.float32)
    b_np = np.arange(12, dtype=np.float32).reshape(3, 4)
    a = wp.array(a_np, device=device)
    b = wp.array(b_np, device=device)
    out = wp.zeros(4, dtype=float, device=device)
    access.module.options["mode"] = mode
    access.module.mark_modified()
    wp.launch(access, dim=1, inputs=[a, b, out], device=device)
    expected = np.zeros(4, np.float32)
    expected[-1] = a_np[-1] + b_np[-1, -2]
    expected[-2] += a_np[-3]
    expected[-3] = b_np[-1][0] + b_np[-1][-1]
    np.testing.assert_array_equal(out.numpy(), expected)
    b_expected = b_np.copy()
    b_expected[-2, -1] = 7.0
    np.testing.assert_array_equal(b.numpy(), b_expected)


@pytest.mark.parametrize("device", DEVICES)
def test_negative_indices_of_indexed_arrays(device):
    data = wp.array(np.arange(10, dtype=np.float32), device=device)
    ia = wp.indexedarray(data, [wp.array([1, 4, 8], dtype=int, device=device)])
    out = wp.zeros(1, dtype=float, device=device)
    wp.launch(indexed, dim=1, inputs=[ia, out], device=device)
    assert out.numpy()[0] == 8.0
    assert data.numpy()[4] == 5.0


@pytest.mark.parametrize("device", DEVICES)
def test_negative_index_gradients(device):
    a = wp.array(np.array([1.0, 2.0, 3.0], np.float32), device=device, requires_grad=True)
    out = wp.zeros(1, dtype=float, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(squared_last, dim=1, inputs=[a, out], device=device)
    tape.backward(grads={out: wp.ones(1, dtype=float, device=device)})
    np.testing.assert_array_equal(a.grad.numpy(), [0.0, 0.0, 6.0])


def test_checked_mode_reports_indices_before_the_start():
    @wp.kernel(module="unique", module_options={"mode": "checked"})
    def too_negative(a: wp.array(dtype=float)):
        a[-4] = 1.0

    a = wp.zeros(3, dtype=float)
    with pytest.raises(IndexError, match=r"index \(-4,\) is out of bounds for an array of shape "
                                         r"\(3,\)"):
        wp.launch(too_negative, dim=1, inputs=[a])
    np.testing.assert_array_equal(a.numpy(), np.zeros(3))
