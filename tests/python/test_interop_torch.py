"""PyTorch interop (wp.from_torch, wp.to_torch, the dtype/device/stream conversions, tensors
given to kernels): zero copy both ways, strides, vector dtypes, gradients that alias, errors,
and a torch.autograd.Function whose forward is a treadle kernel and whose backward a wp.Tape,
checked against PyTorch's own gradient of the same expression."""

import gc
import re

import numpy as np
import pytest

import treadle as wp

torch = pytest.importorskip("torch", reason="PyTorch is not installed "
                                            "(pip install -r requirements-interop.txt)")


def torch_device(device):
    """The torch device of a treadle device alias; skips when PyTorch cannot use it."""
    if device != "cpu" and not torch.cuda.is_available():
        pytest.skip(f"this PyTorch build cannot use {device}")
    return wp.device_to_torch(device)


def raises_exactly(exc, message):
    return pytest.raises(exc, match="^" + re.escape(message) + "$")


@wp.kernel
def add_one(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] + 1.0


@wp.kernel
def add_one_3d(a: wp.array3d(dtype=float), out: wp.array3d(dtype=float)):
    i, j, k = wp.tid()
    out[i, j, k] = a[i, j, k] + 1.0


@wp.kernel
def add_vec3(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = a[i] + b[i]


@wp.kernel
def sin_times_square(x: wp.array(dtype=wp.float64), y: wp.array(dtype=wp.float64)):
    i = wp.tid()
    y[i] = wp.sin(x[i]) * x[i] * x[i]


@wp.kernel
def affine(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = 0.5 - 2.0 * x[i]


# --- conversions -------------------------------------------------------------------------


def test_dtype_tables():
    pairs = [(wp.float16, torch.float16), (wp.bfloat16, torch.bfloat16),
             (wp.float32, torch.float32), (wp.float64, torch.float64), (wp.int8, torch.int8),
             (wp.uint8, torch.uint8), (wp.int16, torch.int16), (wp.int32, torch.int32),
             (wp.int64, torch.int64), (wp.bool, torch.bool)]
    for w, t in pairs:
        assert wp.dtype_to_torch(w) is t and wp.dtype_from_torch(t) is w
    assert wp.dtype_to_torch(wp.uint16) is torch.int16
    assert wp.dtype_to_torch(wp.uint32) is torch.int32
    assert wp.dtype_to_torch(wp.uint64) is torch.int64
    assert wp.dtype_to_torch(float) is torch.float32
    with raises_exactly(TypeError, "dtype_to_torch(): Cannot convert vec3f to a Torch type"):
        wp.dtype_to_torch(wp.vec3)
    with raises_exactly(TypeError, "dtype_from_torch(): Cannot convert torch.complex64 to a "
                                   "Warp type"):
        wp.dtype_from_torch(torch.complex64)


def test_device_conversions(device):
    td = torch_device(device)
    assert wp.device_from_torch(td) == device
    assert wp.device_from_torch(torch.device(td)) == device
    assert wp.device_to_torch(wp.get_device(device)) == td
    with raises_exactly(RuntimeError, "device_from_torch(): Unsupported Torch device type meta "
                                      "(treadle has CPU and CUDA devices)"):
        wp.device_from_torch("meta")
    with raises_exactly(ValueError, "device_from_torch(): expected a torch.device or a device "
                                    "string, got 3.5"):
        wp.device_from_torch(3.5)


# --- from_torch --------------------------------------------------------------------------


def test_from_torch_is_zero_copy(device):
    t = torch.arange(6, dtype=torch.float32, device=torch_device(device))
    a = wp.from_torch(t)
    assert a.ptr == t.data_ptr() and a.device == device and a.dtype is wp.float32
    wp.launch(add_one, dim=6, inputs=[a], device=device)
    np.testing.assert_array_equal(t.cpu().numpy(), np.arange(6) + 1)
    t += 10
    np.testing.assert_array_equal(a.numpy(), np.arange(6) + 11)


@pytest.mark.parametrize("dtype,expected", [
    (torch.float64, wp.float64), (torch.float16, wp.float16), (torch.bfloat16, wp.bfloat16),
    (torch.int64, wp.int64), (torch.int8, wp.int8), (torch.uint8, wp.uint8),
    (torch.bool, wp.bool)])
def test_from_torch_infers_the_dtype(device, dtype, expected):
    t = torch.ones(4, dtype=dtype, device=torch_device(device))
    a = wp.from_torch(t)
    assert a.dtype is expected and a.shape == (4,)
    np.testing.assert_array_equal(a.numpy().astype(np.float64), np.ones(4))


def test_from_torch_reinterprets_integers(device):
    t = torch.tensor([-1, 3], dtype=torch.int64, device=torch_device(device))
    u = wp.from_torch(t, dtype=wp.uint64)
    np.testing.assert_array_equal(u.numpy(), np.array([-1, 3]).astype(np.uint64))
    b = wp.from_torch(torch.tensor([True, False], device=t.device), dtype=wp.int8)
    np.testing.assert_array_equal(b.numpy(), [1, 0])


def test_from_torch_strides(device):
    td = torch_device(device)
    base = torch.arange(36, dtype=torch.float32, device=td).reshape(4, 3, 3)
    for t in (base[::2, 0:2, 1:], base.transpose(0, 2), base[:1].expand(3, -1, -1)):
        a = wp.from_torch(t)
        assert a.ptr == t.data_ptr() and a.shape == tuple(t.shape)
        assert a.strides == tuple(4 * s for s in t.stride())
        out = wp.empty(a.shape, dtype=float, device=device)
        wp.launch(add_one_3d, dim=a.shape, inputs=[a, out], device=device)
        np.testing.assert_array_equal(out.numpy(), t.cpu().numpy() + 1)


def test_from_torch_vectors_and_matrices(device):
    td = torch_device(device)
    t = torch.arange(60, dtype=torch.float32, device=td).reshape(10, 2, 3)[::3]
    v = wp.from_torch(t, dtype=wp.vec3)
    assert v.shape == (4, 2) and v.strides == (72, 12) and v.ptr == t.data_ptr()
    np.testing.assert_array_equal(v.numpy(), t.cpu().numpy())
    m = wp.from_torch(torch.zeros(5, 3, 3, device=td), dtype=wp.mat33)
    assert m.shape == (5,) and m.dtype is wp.mat33
    tr = wp.from_torch(torch.zeros(2, 7, device=td), dtype=wp.transform)
    assert tr.shape == (2,)


def test_from_torch_errors(device):
    td = torch_device(device)
    with raises_exactly(RuntimeError, "from_torch(): a PyTorch tensor of shape (4, 2) cannot be "
                                      "seen as an array of vec3f: its last dimensions must be "
                                      "(3,)"):
        wp.from_torch(torch.zeros(4, 2, device=td), dtype=wp.vec3)
    with raises_exactly(RuntimeError, "from_torch(): a PyTorch tensor of shape (3, 2) and byte "
                                      "strides (4, 12) cannot be seen as an array of vec2f: the "
                                      "components of each element must be packed"):
        wp.from_torch(torch.zeros(2, 3, device=td).t(), dtype=wp.vec2)
    with raises_exactly(RuntimeError, "from_torch(): Incompatible data types: PyTorch "
                                      "torch.float32 and Warp int32"):
        wp.from_torch(torch.zeros(2, device=td), dtype=wp.int32)
    with raises_exactly(TypeError, "dtype_from_torch(): Cannot convert torch.complex64 to a "
                                   "Warp type"):
        wp.from_torch(torch.zeros(2, dtype=torch.complex64, device=td))
    with raises_exactly(TypeError, "from_torch(): expected a torch.Tensor, got ndarray"):
        wp.from_torch(np.zeros(2))


def test_from_torch_keeps_the_tensor_alive(device):
    t = torch.arange(5, dtype=torch.float32, device=torch_device(device))
    a = wp.from_torch(t)
    view = a[2:]
    del t, a
    gc.collect()
    np.testing.assert_array_equal(view.numpy(), [2, 3, 4])


# --- gradients ---------------------------------------------------------------------------


def test_requires_grad_allocates_a_shared_gradient(device):
    td = torch_device(device)
    t = torch.zeros(4, 3, device=td)
    a = wp.from_torch(t, dtype=wp.vec3, requires_grad=True)
    assert t.grad is not None and a.grad.ptr == t.grad.data_ptr()
    a.grad.fill_(wp.vec3(1.0, 2.0, 3.0))
    np.testing.assert_array_equal(t.grad.cpu().numpy(), np.tile([1.0, 2.0, 3.0], (4, 1)))
    s = torch.zeros(6, device=td)[::2]  # a strided tensor gets a gradient laid out like it
    g = wp.from_torch(s, requires_grad=True)
    assert g.grad.strides == g.strides and s.grad.stride() == s.stride()


def test_existing_and_given_gradients_are_wrapped(device):
    td = torch_device(device)
    t = torch.zeros(3, device=td, requires_grad=True)
    t.grad = torch.full((3,), 5.0, device=td)
    a = wp.from_torch(t)
    assert a.requires_grad and a.grad.ptr == t.grad.data_ptr()
    given = torch.ones(3, device=td)
    b = wp.from_torch(torch.zeros(3, device=td), grad=given)
    assert b.grad.ptr == given.data_ptr()
    w = wp.zeros(3, dtype=float, device=device)
    assert wp.from_torch(torch.zeros(3, device=td), grad=w).grad.ptr == w.ptr
    assert not wp.from_torch(t, requires_grad=False).requires_grad
    assert wp.from_torch(t, requires_grad=True, retain_grad=True).retain_grad


def test_return_ctype(device):
    td = torch_device(device)
    t = torch.zeros(5, 2, device=td)
    record = wp.from_torch(t, dtype=wp.vec2, requires_grad=True, return_ctype=True)
    assert record.data == t.data_ptr() and record.grad == t.grad.data_ptr()
    assert (record.ndim, record.shape[0], record.strides[0]) == (1, 5, 8)


# --- to_torch ----------------------------------------------------------------------------


def test_to_torch_is_zero_copy(device):
    torch_device(device)
    a = wp.array(np.arange(4, dtype=np.float32), device=device)
    t = wp.to_torch(a)
    assert t.data_ptr() == a.ptr and str(t.device) == wp.device_to_torch(device)
    t *= 2
    np.testing.assert_array_equal(a.numpy(), 2 * np.arange(4))
    wp.launch(add_one, dim=4, inputs=[a], device=device)
    np.testing.assert_array_equal(t.cpu().numpy(), 2 * np.arange(4) + 1)


def test_to_torch_dtypes_shapes_and_strides(device):
    torch_device(device)
    assert wp.to_torch(wp.zeros(3, dtype=wp.vec3, device=device)).shape == (3, 3)
    assert wp.to_torch(wp.zeros(3, dtype=wp.spatial_matrix, device=device)).shape == (3, 6, 6)
    assert wp.to_torch(wp.zeros(3, dtype=wp.transform, device=device)).shape == (3, 7)
    assert wp.to_torch(wp.zeros(2, dtype=wp.uint32, device=device)).dtype is torch.int32
    assert wp.to_torch(wp.zeros(2, dtype=wp.vec2us, device=device)).dtype is torch.int16
    assert wp.to_torch(wp.zeros(2, dtype=wp.bool, device=device)).dtype is torch.bool
    bf = wp.to_torch(wp.array([1.5, -2.0], dtype=wp.bfloat16, device=device))
    assert bf.dtype is torch.bfloat16
    np.testing.assert_array_equal(bf.float().cpu().numpy(), [1.5, -2.0])
    base = wp.array(np.arange(24, dtype=np.float32).reshape(4, 6), device=device)
    t = wp.to_torch(base[1::2, ::3])
    assert t.stride() == (12, 3)
    np.testing.assert_array_equal(t.cpu().numpy(), np.arange(24).reshape(4, 6)[1::2, ::3])


def test_to_torch_gradients(device):
    torch_device(device)
    a = wp.zeros(3, dtype=wp.vec2, device=device, requires_grad=True)
    t = wp.to_torch(a)
    assert t.requires_grad and t.grad.data_ptr() == a.grad.ptr and t.grad.shape == (3, 2)
    assert not wp.to_torch(a, requires_grad=False).requires_grad
    assert wp.to_torch(wp.zeros(2, dtype=float, device=device), requires_grad=True).requires_grad


def test_to_torch_keeps_the_array_alive(device):
    torch_device(device)
    a = wp.array(np.arange(3, dtype=np.float32), device=device)
    t = wp.to_torch(a)
    del a
    gc.collect()
    np.testing.assert_array_equal(t.cpu().numpy(), [0, 1, 2])


def test_to_torch_errors():
    @wp.struct
    class Pair:
        a: float

    with raises_exactly(RuntimeError, "to_torch(): Cannot convert structured Warp arrays to Torch "
                                      "(dtype Pair)"):
        wp.to_torch(wp.zeros(2, dtype=Pair))
    with raises_exactly(TypeError, "to_torch(): expected a treadle array, got Tensor"):
        wp.to_torch(torch.zeros(2))


def test_dlpack_with_torch(device):
    td = torch_device(device)
    a = wp.array(np.arange(6, dtype=np.float32).reshape(2, 3), device=device)
    t = torch.from_dlpack(a)
    assert t.data_ptr() == a.ptr and t.shape == (2, 3)
    t2 = torch.arange(8, dtype=torch.float32, device=td).reshape(2, 4)[:, 1:]
    b = wp.from_dlpack(t2)
    assert b.ptr == t2.data_ptr() and b.strides == (16, 4)
    c = wp.from_dlpack(torch.utils.dlpack.to_dlpack(t2))
    np.testing.assert_array_equal(c.numpy(), t2.cpu().numpy())


# --- tensors given to kernels ------------------------------------------------------------


def test_tensors_as_kernel_arguments(device):
    td = torch_device(device)
    s = torch.arange(4, dtype=torch.float32, device=td)
    wp.launch(add_one, dim=4, inputs=[s], device=device)
    np.testing.assert_array_equal(s.cpu().numpy(), [1, 2, 3, 4])
    x = torch.ones(5, 3, device=td)
    y = torch.full((5, 3), 2.0, device=td)
    out = torch.zeros(5, 3, device=td)
    wp.launch(add_vec3, dim=5, inputs=[x, y, out], device=device)
    np.testing.assert_array_equal(out.cpu().numpy(), np.full((5, 3), 3.0))


def test_tensors_on_a_tape(device):
    td = torch_device(device)
    x = torch.ones(4, 3, device=td)
    y = torch.ones(4, 3, device=td)
    wy = wp.from_torch(y, dtype=wp.vec3, requires_grad=True)
    wz = wp.zeros(4, dtype=wp.vec3, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(add_vec3, dim=4, inputs=[x, wy], outputs=[wz], device=device)
    tape.backward(grads={wz: wp.ones_like(wz)})
    np.testing.assert_array_equal(y.grad.cpu().numpy(), np.ones((4, 3)))
    np.testing.assert_array_equal(x.cpu().numpy(), np.ones((4, 3)))


# --- autograd ----------------------------------------------------------------------------


class SinTimesSquare(torch.autograd.Function):
    """y = sin(x) x^2: forward a treadle kernel, backward the tape that recorded it."""

    @staticmethod
    def forward(ctx, x):
        wx = wp.from_torch(x.detach(), requires_grad=True)
        wy = wp.zeros(x.shape[0], dtype=wp.float64, device=wx.device, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(sin_times_square, dim=x.shape[0], inputs=[wx], outputs=[wy],
                      device=wx.device)
        ctx.tape, ctx.wx, ctx.wy = tape, wx, wy
        return wp.to_torch(wy, requires_grad=False)

    @staticmethod
    def backward(ctx, adj_y):
        ctx.tape.backward(grads={ctx.wy: wp.from_torch(adj_y.contiguous())})
        adj_x = wp.to_torch(ctx.wx.grad, requires_grad=False).clone()
        ctx.tape.zero()
        return adj_x


def test_autograd_function_matches_torch(device):
    td = torch_device(device)
    x = torch.linspace(-2.0, 3.0, 9, dtype=torch.float64, device=td, requires_grad=True)
    weights = torch.arange(9, dtype=torch.float64, device=td)
    (SinTimesSquare.apply(x) * weights).sum().backward()
    ours = x.grad.clone()
    x.grad = None
    (torch.sin(x) * x * x * weights).sum().backward()
    torch.testing.assert_close(ours, x.grad)
    x2 = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64, device=td, requires_grad=True)
    assert torch.autograd.gradcheck(SinTimesSquare.apply, (x2,), eps=1e-6, atol=1e-6)


def test_explicit_adjoints_are_not_consumed(device):
    """wp.launch(adjoint=True) with PyTorch's (strided) output gradient, as Warp's: the caller's
    adjoint buffer is read, not zeroed, and may be laid out unlike the output."""
    td = torch_device(device)
    x = torch.ones(8, device=td)
    y = torch.empty_like(x)
    grad_y = torch.ones(16, device=td)[::2]
    grad_x = torch.zeros_like(x)
    wx, wy = wp.from_torch(x), wp.from_torch(y)
    wp.launch(affine, dim=8, inputs=[wx], outputs=[wy], adj_inputs=[wp.from_torch(grad_x)],
              adj_outputs=[wp.from_torch(grad_y)], adjoint=True, device=device)
    np.testing.assert_array_equal(grad_x.cpu().numpy(), np.full(8, -2.0))
    np.testing.assert_array_equal(grad_y.cpu().numpy(), np.ones(8))


# --- streams (CUDA) ----------------------------------------------------------------------


def test_streams_cross_both_ways(device):
    if device == "cpu":
        pytest.skip("CUDA streams")
    td = torch_device(device)
    ts = torch.cuda.Stream(device=td)
    ws = wp.stream_from_torch(ts)
    assert ws.cuda_stream == ts.cuda_stream and ws.device == device
    back = wp.stream_to_torch(ws)
    assert back.cuda_stream == ts.cuda_stream
    assert wp.stream_to_torch(device).cuda_stream == wp.get_stream(device).cuda_stream
    current = wp.stream_from_torch(td)
    assert current.device == device
    t = torch.zeros(1 << 20, device=td)
    a = wp.from_torch(t)
    with torch.cuda.stream(ts):
        t += 1.0
        wp.launch(add_one, dim=a.size, inputs=[a], stream=ws)
        t += 1.0
    ts.synchronize()
    assert bool((t == 3.0).all())
