"""Fills and copies of strided and indexed CUDA arrays run as device kernels: the values are
right, they can be captured in graphs (the fill value stays with the graph), and the copy
adjoint of a strided view allocates nothing, so a backward pass can be captured. Runs on CUDA
devices only."""

import numpy as np
import pytest

import treadle as wp

CUDA = wp.is_cuda_available()
pytestmark = pytest.mark.skipif(not CUDA, reason="needs a CUDA device")
DEVICE = "cuda:0"


@pytest.mark.parametrize("dtype", [wp.vec3, wp.vec3h, wp.vec2d, wp.mat22, wp.vec4ub, wp.mat44d])
def test_fill_of_strided_and_indexed_arrays(dtype):
    n = 9
    base = wp.zeros(2 * n, dtype=dtype, device=DEVICE)
    base[::2].fill_(dtype(3))
    indices = wp.array(np.array([1, 4, 5], np.int32), device=DEVICE)
    other = wp.zeros(n, dtype=dtype, device=DEVICE)
    other[indices].fill_(dtype(2))
    want = np.zeros((2 * n, *dtype._shape), dtype=base.numpy().dtype)
    want[::2] = 3
    np.testing.assert_array_equal(base.numpy(), want)
    want = np.zeros((n, *dtype._shape), dtype=want.dtype)
    want[[1, 4, 5]] = 2
    np.testing.assert_array_equal(other.numpy(), want)


def test_a_captured_fill_keeps_its_value():
    arrays = [wp.zeros(64, dtype=wp.vec3, device=DEVICE)[::2] for _ in range(3)]
    graphs = []
    for i, a in enumerate(arrays):
        with wp.ScopedCapture(DEVICE, force_module_load=False) as capture:
            a.fill_(wp.vec3(float(i + 1)))
        graphs.append(capture.graph)
    for i, (a, g) in enumerate(zip(arrays, graphs)):
        wp.capture_launch(g)
        np.testing.assert_array_equal(a.numpy(), np.full((32, 3), i + 1, np.float32))


def test_strided_and_indexed_copies():
    src = wp.array(np.arange(24, dtype=np.float32).reshape(4, 6), device=DEVICE)
    dst = wp.zeros((6, 4), dtype=float, device=DEVICE)
    wp.copy(dst, src.transpose())
    np.testing.assert_array_equal(dst.numpy(), np.arange(24, dtype=np.float32).reshape(4, 6).T)
    picks = wp.array(np.array([3, 0], np.int32), device=DEVICE)
    rows = wp.zeros((2, 6), dtype=float, device=DEVICE)
    src[picks].contiguous()  # the host path still works
    wp.indexedarray(rows, [None, None]).assign(src[picks])
    np.testing.assert_array_equal(rows.numpy(), src.numpy()[[3, 0]])


@wp.kernel
def total(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, a[i])


def test_copy_adjoint_of_a_strided_view_is_captured():
    x = wp.array(np.ones((4, 2), np.float32), requires_grad=True, device=DEVICE)
    dst = wp.zeros(4, dtype=float, requires_grad=True, device=DEVICE)
    loss = wp.zeros(1, dtype=float, requires_grad=True, device=DEVICE)
    tape = wp.Tape()
    with tape:
        wp.copy(dst, x[:, 0])
        wp.launch(total, dim=4, inputs=[dst], outputs=[loss], device=DEVICE)
    tape.backward(loss)
    tape.zero()
    with wp.ScopedCapture(DEVICE, force_module_load=False) as capture:
        tape.backward(loss)
    wp.capture_launch(capture.graph)
    wp.capture_launch(capture.graph)
    want = np.zeros((4, 2), np.float32)
    want[:, 0] = 2.0
    np.testing.assert_array_equal(x.grad.numpy(), want)


def test_host_copies_in_a_capture_need_pinned_memory():
    pinned = wp.full(16, 5.0, dtype=float, device="cpu", pinned=True)
    pageable = wp.full(16, 5.0, dtype=float, device="cpu")
    dev = wp.zeros(16, dtype=float, device=DEVICE)
    with wp.ScopedCapture(DEVICE, force_module_load=False) as capture:
        wp.copy(dev, pinned)
    wp.capture_launch(capture.graph)
    np.testing.assert_array_equal(dev.numpy(), np.full(16, 5.0, np.float32))
    with pytest.raises(RuntimeError, match="the host array must be pinned"):
        with wp.ScopedCapture(DEVICE, force_module_load=False):
            wp.copy(dev, pageable)
