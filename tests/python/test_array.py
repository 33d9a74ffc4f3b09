"""treadle.array against numpy: construction, dtypes, views, copies, grads and errors."""

import gc
import weakref

import numpy as np
import pytest

import treadle as wp

SCALARS = [
    (wp.bool, np.bool_),
    (wp.int8, np.int8),
    (wp.uint8, np.uint8),
    (wp.int16, np.int16),
    (wp.uint16, np.uint16),
    (wp.int32, np.int32),
    (wp.uint32, np.uint32),
    (wp.int64, np.int64),
    (wp.uint64, np.uint64),
    (wp.float16, np.float16),
    (wp.float32, np.float32),
    (wp.float64, np.float64),
]


def sample(np_type, shape=(3, 4)):
    n = int(np.prod(shape))
    if np_type is np.bool_:
        return (np.arange(n) % 3 == 0).reshape(shape)
    return (np.arange(n) % 100).astype(np_type).reshape(shape)


# --- construction ------------------------------------------------------------------------


@pytest.mark.parametrize("wp_type,np_type", SCALARS)
def test_from_numpy_every_dtype(device, wp_type, np_type):
    src = sample(np_type)
    a = wp.array(src, device=device)
    assert a.dtype is wp_type
    assert a.shape == (3, 4)
    assert a.ndim == 2
    assert a.size == 12
    assert a.strides == (4 * src.itemsize, src.itemsize)
    assert a.is_contiguous
    assert a.device == device
    out = a.numpy()
    assert out.dtype == np_type
    np.testing.assert_array_equal(out, src)


@pytest.mark.parametrize("wp_type,np_type", SCALARS)
def test_explicit_dtype_converts(device, wp_type, np_type):
    a = wp.array([[0, 1, 2], [3, 4, 5]], dtype=wp_type, device=device)
    assert a.dtype is wp_type
    np.testing.assert_array_equal(a.numpy(), np.array([[0, 1, 2], [3, 4, 5]], dtype=np_type))


def test_dtype_inference_follows_numpy():
    assert wp.array([1.0, 2.0]).dtype is wp.float64
    assert wp.array([1, 2]).dtype is wp.int64
    assert wp.array([True, False]).dtype is wp.bool
    assert wp.array((1.5, 2)).dtype is wp.float64
    assert wp.array(np.zeros(3, dtype=np.float16)).dtype is wp.float16
    assert wp.array(np.zeros(3, dtype=np.uint32)).dtype is wp.uint32
    assert wp.array([1, 2], dtype=float).dtype is wp.float32
    assert wp.array([1, 2], dtype=int).dtype is wp.int32
    assert wp.array([1, 2], dtype=np.float64).dtype is wp.float64


def test_from_lists_tuples_and_nested(device):
    a = wp.array([[1, 2, 3], [4, 5, 6]], dtype=wp.float32, device=device)
    assert a.shape == (2, 3)
    np.testing.assert_array_equal(a.numpy(), [[1, 2, 3], [4, 5, 6]])
    b = wp.array(((1, 2), (3, 4)), dtype=wp.int16, device=device)
    assert b.shape == (2, 2) and b.dtype is wp.int16
    c = wp.array(5.0, dtype=wp.float32, device=device)
    assert c.shape == (1,)
    assert c.list() == [5.0]
    d = wp.array([], dtype=wp.float32, device=device)
    assert d.shape == (0,) and d.size == 0
    assert d.numpy().shape == (0,)


def test_from_other_array_copies(device):
    a = wp.array(np.arange(6, dtype=np.float32), device=device)
    b = wp.array(a, device=device)
    assert b.ptr != a.ptr
    np.testing.assert_array_equal(b.numpy(), a.numpy())
    c = wp.array(a, dtype=wp.float64, device=device)
    assert c.dtype is wp.float64
    np.testing.assert_array_equal(c.numpy(), np.arange(6))
    v = wp.array(a, copy=False, device=device)
    assert v.ptr == a.ptr
    r = wp.array(a, shape=(2, 3), device=device)
    assert r.shape == (2, 3)


def test_shape_argument_reshapes_data():
    a = wp.array(np.arange(12, dtype=np.int32), shape=(3, 4))
    assert a.shape == (3, 4)
    np.testing.assert_array_equal(a.numpy(), np.arange(12).reshape(3, 4))
    with pytest.raises(ValueError, match="does not fit"):
        wp.array(np.arange(12, dtype=np.int32), shape=(5, 4))


def test_copy_true_is_independent_and_copy_false_aliases():
    src = np.arange(8, dtype=np.float32)
    copied = wp.array(src, device="cpu")
    aliased = wp.array(src, copy=False, device="cpu")
    src[0] = 100.0
    assert copied.numpy()[0] == 0.0
    assert aliased.numpy()[0] == 100.0
    assert aliased.ptr == src.ctypes.data
    # Aliasing a strided numpy view keeps its strides.
    m = np.arange(20, dtype=np.float64).reshape(4, 5)
    view = wp.array(m[:, 1:4:2], copy=False, device="cpu")
    assert view.strides == (40, 16)
    assert not view.is_contiguous
    np.testing.assert_array_equal(view.numpy(), m[:, 1:4:2])
    # copy=False with a dtype change has to convert (a copy).
    conv = wp.array(src, dtype=wp.float64, copy=False, device="cpu")
    assert conv.ptr != src.ctypes.data


def test_alias_keeps_numpy_memory_alive():
    src = np.arange(1000, dtype=np.float32)
    ref = weakref.ref(src)
    a = wp.array(src, copy=False, device="cpu")
    del src
    gc.collect()
    assert ref() is not None
    assert a.numpy()[999] == 999.0
    del a
    gc.collect()
    assert ref() is None


def test_numpy_is_zero_copy_on_cpu():
    a = wp.zeros((2, 3), dtype=wp.float32, device="cpu")
    n = a.numpy()
    n[1, 2] = 7.0
    assert a.numpy()[1, 2] == 7.0
    assert n.ctypes.data == a.ptr
    # The numpy view outlives the array object.
    del a
    gc.collect()
    n[0, 0] = 1.0
    assert n.sum() == 8.0


def test_array_protocols():
    a = wp.array(np.arange(6, dtype=np.int32).reshape(2, 3), device="cpu")
    iface = a.__array_interface__
    assert iface["shape"] == (2, 3)
    assert iface["typestr"] == np.dtype(np.int32).str
    assert iface["data"][0] == a.ptr
    n = np.asarray(a)
    n[0, 0] = 9
    assert a.numpy()[0, 0] == 9
    assert np.array(a, dtype=np.float64).dtype == np.float64
    t = np.asarray(a.transpose())
    np.testing.assert_array_equal(t, a.numpy().T)


def test_from_pointer_wraps_external_memory():
    backing = np.arange(6, dtype=np.float32)
    a = wp.array(ptr=backing.ctypes.data, dtype=wp.float32, shape=(2, 3), device="cpu")
    np.testing.assert_array_equal(a.numpy(), backing.reshape(2, 3))
    a.fill_(1.0)
    assert backing.sum() == 6.0
    freed = []
    b = wp.array(
        ptr=backing.ctypes.data,
        dtype=wp.float32,
        shape=(6,),
        device="cpu",
        deleter=lambda p, s: freed.append((p, s)),
    )
    view = b[2:]
    del b
    gc.collect()
    assert not freed
    del view
    gc.collect()
    assert freed == [(backing.ctypes.data, 24)]


# --- creation functions ------------------------------------------------------------------


def test_zeros_ones_full_empty(device):
    z = wp.zeros((2, 3), dtype=wp.int32, device=device)
    np.testing.assert_array_equal(z.numpy(), np.zeros((2, 3), np.int32))
    assert wp.zeros(4).dtype is wp.float32
    assert wp.zeros(4).shape == (4,)
    o = wp.ones(5, dtype=wp.float64, device=device)
    np.testing.assert_array_equal(o.numpy(), np.ones(5))
    f = wp.full((2, 2), 3.5, dtype=wp.float16, device=device)
    np.testing.assert_array_equal(f.numpy(), np.full((2, 2), 3.5, np.float16))
    e = wp.empty((3, 1), dtype=wp.uint8, device=device)
    assert e.shape == (3, 1) and e.dtype is wp.uint8
    assert wp.full(3, 7).dtype is wp.int32
    assert wp.full(3, 7.0).dtype is wp.float32
    assert wp.full(3, True).dtype is wp.bool
    assert wp.full(3, wp.uint16(9)).dtype is wp.uint16
    assert wp.full(3, wp.uint16(9)).list() == [9, 9, 9]
    assert wp.zeros(shape=(2, 2, 2, 2)).ndim == 4


def test_like_functions(device):
    src = wp.array(np.arange(6, dtype=np.int16).reshape(2, 3), device=device)
    for fn, expect in [
        (wp.zeros_like, np.zeros((2, 3), np.int16)),
        (wp.ones_like, np.ones((2, 3), np.int16)),
        (lambda s: wp.full_like(s, 4), np.full((2, 3), 4, np.int16)),
    ]:
        out = fn(src)
        assert out.dtype is wp.int16 and out.shape == (2, 3) and out.device == device
        np.testing.assert_array_equal(out.numpy(), expect)
    e = wp.empty_like(src)
    assert e.shape == src.shape and e.dtype is src.dtype
    g = wp.zeros((3,), requires_grad=True)
    assert wp.zeros_like(g).requires_grad
    assert not wp.zeros_like(g, requires_grad=False).requires_grad


def test_clone_and_contiguous(device):
    a = wp.array(np.arange(12, dtype=np.float32).reshape(3, 4), device=device)
    t = a.transpose()
    c = wp.clone(t)
    assert c.is_contiguous and c.shape == (4, 3)
    assert c.ptr != a.ptr
    np.testing.assert_array_equal(c.numpy(), a.numpy().T)
    assert a.contiguous() is a
    tc = t.contiguous()
    assert tc.is_contiguous
    np.testing.assert_array_equal(tc.numpy(), a.numpy().T)
    assert a.to(device) is a


def test_from_numpy_function():
    a = wp.from_numpy(np.arange(4, dtype=np.int64))
    assert a.dtype is wp.int64
    b = wp.from_numpy(np.arange(4), dtype=wp.float32, shape=(2, 2))
    assert b.dtype is wp.float32 and b.shape == (2, 2)


# --- fill / assign / copy -----------------------------------------------------------------


@pytest.mark.parametrize("wp_type,np_type", SCALARS)
def test_fill_every_dtype(device, wp_type, np_type):
    a = wp.zeros((2, 5), dtype=wp_type, device=device)
    a.fill_(1)
    np.testing.assert_array_equal(a.numpy(), np.ones((2, 5), np_type))
    a.zero_()
    np.testing.assert_array_equal(a.numpy(), np.zeros((2, 5), np_type))


def test_fill_views_and_scalar_objects():
    a = wp.zeros((4, 4), dtype=wp.float32)
    a[1:3, ::2].fill_(2.5)
    expect = np.zeros((4, 4), np.float32)
    expect[1:3, ::2] = 2.5
    np.testing.assert_array_equal(a.numpy(), expect)
    a.fill_(wp.float32(-0.0))
    assert np.signbit(a.numpy()).all()
    a[:, 1].zero_()
    assert not np.signbit(a.numpy()[:, 1]).any()
    with pytest.raises(ValueError, match="fill_"):
        a.fill_([1.0, 2.0])
    with pytest.raises(ValueError):
        wp.zeros(2, dtype=wp.uint8).fill_(300)


def test_assign_from_all_sources(device):
    a = wp.zeros((2, 3), dtype=wp.float32, device=device)
    a.assign(np.arange(6, dtype=np.float64).reshape(2, 3))
    np.testing.assert_array_equal(a.numpy(), np.arange(6).reshape(2, 3))
    a.assign([[6, 5, 4], [3, 2, 1]])
    np.testing.assert_array_equal(a.numpy(), [[6, 5, 4], [3, 2, 1]])
    b = wp.array(np.arange(6, dtype=np.float32).reshape(3, 2), device=device)
    a.assign(b.transpose())
    np.testing.assert_array_equal(a.numpy(), np.arange(6).reshape(3, 2).T)
    a.assign(wp.array(np.arange(6, dtype=np.float32), device=device))  # same size, new shape
    np.testing.assert_array_equal(a.numpy(), np.arange(6).reshape(2, 3))
    with pytest.raises(ValueError, match="shape mismatch"):
        a.assign(np.zeros(5))
    with pytest.raises(TypeError, match="int32"):
        a.assign(wp.zeros((2, 3), dtype=wp.int32, device=device))


def test_assign_into_strided_view():
    big = wp.zeros((4, 6), dtype=wp.int32)
    big[::2, 1::2].assign(np.arange(6, dtype=np.int32).reshape(2, 3))
    expect = np.zeros((4, 6), np.int32)
    expect[::2, 1::2] = np.arange(6).reshape(2, 3)
    np.testing.assert_array_equal(big.numpy(), expect)


def test_copy_with_offsets(device):
    src = wp.array(np.arange(10, dtype=np.float32), device=device)
    dst = wp.zeros(10, dtype=wp.float32, device=device)
    wp.copy(dst, src, dest_offset=2, src_offset=5, count=3)
    np.testing.assert_array_equal(dst.numpy(), [0, 0, 5, 6, 7, 0, 0, 0, 0, 0])
    wp.copy(dst, src)
    np.testing.assert_array_equal(dst.numpy(), np.arange(10))
    dst.zero_()
    wp.copy(dst, src, src_offset=8, dest_offset=7, count=2)
    np.testing.assert_array_equal(dst.numpy(), [0, 0, 0, 0, 0, 0, 0, 8, 9, 0])
    with pytest.raises(RuntimeError, match=r"size \(40\) to offset \(28\) is larger than destination "
                                           r"size \(40\)"):
        wp.copy(dst, src, dest_offset=7)  # count 0: all of src, as in Warp
    m = wp.zeros((2, 5), dtype=wp.float32, device=device)
    wp.copy(m, src)  # different shapes, same size, contiguous
    np.testing.assert_array_equal(m.numpy(), np.arange(10).reshape(2, 5))
    t = wp.zeros((5, 2), dtype=wp.float32, device=device)
    wp.copy(t, m.transpose())
    np.testing.assert_array_equal(t.numpy(), np.arange(10).reshape(2, 5).T)
    with pytest.raises(RuntimeError, match="is larger than destination size"):
        wp.copy(dst, src, dest_offset=8, count=5)
    bits = wp.zeros(10, dtype=wp.int32, device=device)
    wp.copy(bits, src)  # one element size: the bytes, as in Warp
    np.testing.assert_array_equal(bits.numpy(), np.arange(10, dtype=np.float32).view(np.int32))
    with pytest.raises(RuntimeError, match=r"destination dtype=float64, source dtype=float32"):
        wp.copy(wp.zeros(10, dtype=wp.float64, device=device), src)
    with pytest.raises(RuntimeError, match="only supported for 1-D non-contiguous arrays"):
        wp.copy(dst, m.transpose(), src_offset=1)
    for bad, what in (({"src_offset": -1}, "Source offset must be non-negative, got -1"),
                      ({"dest_offset": -2}, "Destination offset must be non-negative, got -2"),
                      ({"count": -1}, "Copy count must be non-negative, got -1"),
                      ({"count": 2.0}, "must be integers")):
        with pytest.raises(RuntimeError, match=what):
            wp.copy(dst, src, **bad)


def test_copy_ranges_of_strided_arrays(device):
    base = wp.array(np.arange(20, dtype=np.float32), device=device)
    src = base[::2]  # 0, 2, ..., 18
    out = wp.array(np.full(20, -1.0, dtype=np.float32), device=device)
    dst = out[1::2]
    wp.copy(dst, src, src_offset=2, dest_offset=5, count=3)
    want = np.full(10, -1.0, dtype=np.float32)
    want[5:8] = [4.0, 6.0, 8.0]
    np.testing.assert_array_equal(dst.numpy(), want)
    np.testing.assert_array_equal(out.numpy()[::2], -1.0)  # the other elements stay
    short = wp.zeros(4, dtype=wp.float32, device=device)
    wp.copy(short, base[:4:2])  # count 0: all of src (2 of 4 elements)
    np.testing.assert_array_equal(short.numpy(), [0.0, 2.0, 0.0, 0.0])
    with pytest.raises(RuntimeError, match=r"range of 5 element\(s\) from source offset \(8\) "
                                           r"exceeds the source size \(10\)"):
        wp.copy(dst, src, src_offset=8, count=5)
    grid = wp.zeros((4, 5), dtype=wp.float32, device=device)[::2]
    with pytest.raises(RuntimeError, match=r"Incompatible array shapes: destination "
                                           r"shape=\(2, 5\), source shape=\(10,\)"):
        wp.copy(grid, src)


def test_copy_range_adjoint_of_strided_arrays(device):
    src = wp.array(np.arange(12, dtype=np.float32), device=device, requires_grad=True)[::2]
    dst = wp.zeros(12, dtype=wp.float32, device=device, requires_grad=True)[::2]
    tape = wp.Tape()
    with tape:
        wp.copy(dst, src, src_offset=1, dest_offset=3, count=2)
    seed = np.arange(10, 16, dtype=np.float32)
    tape.backward(grads={dst: wp.array(seed, device=device)})
    want = np.zeros(6, dtype=np.float32)
    want[1:3] = seed[3:5]
    np.testing.assert_array_equal(src.grad.numpy(), want)


# --- across devices: the CPU and the test device ------------------------------------------


def test_copy_between_cpu_and_device(device):
    host = wp.array(np.arange(10, dtype=np.float32), device="cpu")
    dev = wp.zeros(10, dtype=wp.float32, device=device)
    wp.copy(dev, host)
    assert dev.device == device
    np.testing.assert_array_equal(dev.numpy(), np.arange(10))
    dev.zero_()
    wp.copy(dev, host, dest_offset=2, src_offset=5, count=3)
    np.testing.assert_array_equal(dev.numpy(), [0, 0, 5, 6, 7, 0, 0, 0, 0, 0])
    back = wp.full(10, -1.0, dtype=wp.float32, device="cpu")
    wp.copy(back, dev, dest_offset=1, src_offset=2, count=4)
    np.testing.assert_array_equal(back.numpy(), [-1, 5, 6, 7, 0, -1, -1, -1, -1, -1])
    wp.copy(back, dev)
    np.testing.assert_array_equal(back.numpy(), dev.numpy())
    # Strided sources and destinations on either side.
    m = np.arange(12, dtype=np.float64).reshape(3, 4)
    host_m = wp.array(m, device="cpu")
    dev_t = wp.zeros((4, 3), dtype=wp.float64, device=device)
    wp.copy(dev_t, host_m.transpose())
    np.testing.assert_array_equal(dev_t.numpy(), m.T)
    host_back = wp.zeros((3, 4), dtype=wp.float64, device="cpu")
    wp.copy(host_back, dev_t.transpose())
    np.testing.assert_array_equal(host_back.numpy(), m)
    wide = wp.zeros((3, 8), dtype=wp.float64, device=device)
    wp.copy(wide[:, 1::2], host_m)
    expect = np.zeros((3, 8))
    expect[:, 1::2] = m
    np.testing.assert_array_equal(wide.numpy(), expect)


def test_to_and_clone_across_devices(device):
    src = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    host = wp.array(src, device="cpu")
    dev = host.to(device)
    assert dev.device == device and dev.shape == (2, 3, 4) and dev.dtype is wp.int32
    assert (dev is host) == (device == "cpu")
    np.testing.assert_array_equal(dev.numpy(), src)
    back = dev.to("cpu")
    assert back.device == "cpu"
    np.testing.assert_array_equal(back.numpy(), src)
    view = dev[:, 1:, ::2]
    c = wp.clone(view, device="cpu")
    assert c.device == "cpu" and c.is_contiguous
    np.testing.assert_array_equal(c.numpy(), src[:, 1:, ::2])
    np.testing.assert_array_equal(view.to("cpu").numpy(), src[:, 1:, ::2])
    np.testing.assert_array_equal(wp.array(view, device="cpu").numpy(), src[:, 1:, ::2])
    np.testing.assert_array_equal(
        wp.array(dev, dtype=wp.float32, device="cpu").numpy(), src.astype(np.float32)
    )


def test_assign_fill_and_zero_views_on_device(device):
    a = wp.zeros((4, 6), dtype=wp.float32, device=device)
    a.assign(np.arange(24, dtype=np.float32).reshape(4, 6))
    a[1:3, ::2].fill_(2.5)
    a[:, 1].zero_()
    a[3].assign(wp.array(np.full(6, 7, np.float32), device="cpu"))
    expect = np.arange(24, dtype=np.float32).reshape(4, 6)
    expect[1:3, ::2] = 2.5
    expect[:, 1] = 0
    expect[3] = 7
    np.testing.assert_array_equal(a.numpy(), expect)
    host = wp.zeros((6, 4), dtype=wp.float32, device="cpu")
    host.assign(a.transpose())
    np.testing.assert_array_equal(host.numpy(), expect.T)
    # Elements of 8 bytes and an overlapping copy within one array.
    b = wp.full(5, 1.5, dtype=wp.float64, device=device)
    np.testing.assert_array_equal(b.numpy(), np.full(5, 1.5))
    c = wp.array(np.arange(8, dtype=np.int64), device=device)
    wp.copy(c, c, dest_offset=1, src_offset=0, count=7)
    np.testing.assert_array_equal(c.numpy(), [0, 0, 1, 2, 3, 4, 5, 6])


def test_numpy_of_device_array(device):
    a = wp.array(np.arange(4, dtype=np.float32), device=device)
    n = a.numpy()
    n[0] = 5.0
    # CPU arrays alias their numpy view; CUDA arrays return a host copy.
    assert (a.numpy()[0] == 5.0) == (device == "cpu")
    np.testing.assert_array_equal(np.asarray(a)[1:], [1, 2, 3])
    assert "dtype=float32" in repr(a)
    assert ('device="' in repr(a)) == (device != "cpu")
    assert str(a) == str(a.numpy())


def test_an_object_exporting_host_memory_on_both_interfaces_is_read_as_host_memory(device):
    class Both:
        def __init__(self, values):
            self.data = np.array(values, dtype=np.float32)
            self.__array_interface__ = self.data.__array_interface__
            self.__cuda_array_interface__ = self.data.__array_interface__

    a = wp.array(Both([1, 2, 3, 4]), dtype=wp.mat22, device=device)
    np.testing.assert_array_equal(a.numpy(), [[[1, 2], [3, 4]]])


def test_cuda_array_interface(device):
    a = wp.array(np.arange(12, dtype=np.float32).reshape(3, 4), device=device)
    if device == "cpu":
        assert not hasattr(a, "__cuda_array_interface__")
        assert hasattr(a, "__array_interface__")
        return
    assert not hasattr(a, "__array_interface__")
    iface = a.__cuda_array_interface__
    assert iface["version"] == 3
    assert iface["shape"] == (3, 4)
    assert iface["typestr"] == np.dtype(np.float32).str
    assert iface["data"] == (a.ptr, False)
    assert iface["strides"] is None
    assert iface["stream"] == 1  # the legacy default stream
    assert a.transpose().__cuda_array_interface__["strides"] == (4, 16)
    assert wp.zeros(0, device=device).__cuda_array_interface__["data"][0] == 0

    class Exporter:
        def __init__(self, iface):
            self.__cuda_array_interface__ = iface

    alias = wp.array(Exporter(iface), device=device, copy=False)
    assert alias.ptr == a.ptr and alias.shape == (3, 4) and alias.dtype is wp.float32
    copied = wp.array(Exporter(iface), device=device)
    assert copied.ptr != a.ptr
    np.testing.assert_array_equal(copied.numpy(), a.numpy())
    t = wp.array(Exporter(a.transpose().__cuda_array_interface__), device=device, copy=False)
    np.testing.assert_array_equal(t.numpy(), a.numpy().T)


def test_from_ptr_on_device(device):
    a = wp.zeros(6, dtype=wp.int32, device=device)
    view = wp.array(ptr=a.ptr, dtype=wp.int32, shape=(2, 3), device=device)
    assert view.device == device
    view.fill_(4)
    np.testing.assert_array_equal(a.numpy(), np.full(6, 4))


@pytest.mark.skipif(wp.get_cuda_device_count() < 2, reason="needs two CUDA devices")
def test_copy_between_two_cuda_devices():
    src = wp.array(np.arange(6, dtype=np.float32).reshape(2, 3), device="cuda:0")
    dst = src.to("cuda:1")
    assert dst.device == "cuda:1"
    np.testing.assert_array_equal(dst.numpy(), src.numpy())
    t = wp.zeros((3, 2), dtype=wp.float32, device="cuda:1")
    wp.copy(t, src.transpose())
    np.testing.assert_array_equal(t.numpy(), src.numpy().T)


@pytest.mark.skipif(wp.is_cuda_available(), reason="CUDA is available")
def test_cuda_arrays_need_cuda():
    for alias in ("cuda", "cuda:0"):
        with pytest.raises(ValueError, match="CUDA is not available"):
            wp.zeros(3, device=alias)
    with pytest.raises(ValueError, match="CUDA is not available"):
        wp.array(np.zeros(3), device="cuda:0")
    with pytest.raises(ValueError, match="CUDA is not available"):
        wp.zeros(3, device="cpu").to("cuda:0")


@pytest.mark.skipif(not wp.is_cuda_available(), reason="CUDA is not available")
def test_missing_cuda_device_is_a_value_error():
    n = wp.get_cuda_device_count()
    with pytest.raises(ValueError, match=f"cuda:{n} does not exist"):
        wp.zeros(3, device=f"cuda:{n}")


# --- views --------------------------------------------------------------------------------


def test_reshape_flatten_strides():
    base = np.arange(24, dtype=np.float64)
    a = wp.array(base)
    r = a.reshape((2, 3, 4))
    assert r.shape == (2, 3, 4) and r.strides == (96, 32, 8)
    assert r.ptr == a.ptr
    np.testing.assert_array_equal(r.numpy(), base.reshape(2, 3, 4))
    assert a.reshape((4, -1)).shape == (4, 6)
    assert a.reshape(24).shape == (24,)
    assert r.flatten().shape == (24,)
    assert r.flatten().ptr == a.ptr
    with pytest.raises(RuntimeError, match=r"cannot reshape array of shape \(24,\) \(size 24\) "
                                           r"into shape \(5, 5\) \(size 25\)"):
        a.reshape((5, 5))
    with pytest.raises(RuntimeError, match="non-contiguous"):  # Warp's error class
        r.transpose().reshape(24)
    with pytest.raises(RuntimeError, match="non-contiguous"):
        r.transpose().flatten()


def test_transpose_matches_numpy():
    base = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    a = wp.array(base)
    for axes in [None, (1, 0, 2), (2, 0, 1), (-1, 0, 1)]:
        t = a.transpose(axes)
        expect = base.transpose(axes)
        assert t.shape == expect.shape
        assert t.strides == expect.strides
        np.testing.assert_array_equal(t.numpy(), expect)
        assert t.ptr == a.ptr
    with pytest.raises(ValueError, match="permutation"):
        a.transpose((0, 0, 1))


def test_getitem_views_share_memory():
    base = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    a = wp.array(base)
    cases = [
        (1,),
        (-1,),
        (slice(1, 3),),
        (slice(None), 2),
        (slice(None), slice(None, None, 2), 3),
        (Ellipsis, 1),
        (0, Ellipsis),
        (slice(0, 3, 2), slice(1, None), slice(None, None, 3)),
        (slice(5, 1),),
        (slice(-2, None),),
    ]
    for key in cases:
        v = a[key]
        expect = base[key]
        assert v.shape == expect.shape, key
        assert v.strides == expect.strides, key
        np.testing.assert_array_equal(v.numpy(), expect)
    v = a[1, 1:3]
    v.fill_(-1.0)
    assert (a.numpy()[1, 1:3] == -1.0).all()
    assert a.numpy()[1, 0, 0] == 20.0
    assert v.ptr == a.ptr + 1 * 80 + 1 * 20
    assert len(a) == 3 and len(a[0]) == 4


def test_getitem_errors():
    a = wp.zeros((3, 4))
    with pytest.raises(IndexError):
        a[3]
    with pytest.raises(IndexError):
        a[-4]
    with pytest.raises(IndexError, match="too many indices"):
        a[0, 0, 0]
    with pytest.raises(RuntimeError, match="Item indexing"):
        a[1, 2]
    with pytest.raises(ValueError, match="negative step"):
        a[::-1]
    with pytest.raises(TypeError):
        a["x"]


def test_view_dtype():
    a = wp.array(np.array([1.0, 2.0], dtype=np.float32))
    u = a.view(wp.uint32)
    assert u.dtype is wp.uint32
    np.testing.assert_array_equal(u.numpy(), np.array([1.0, 2.0], np.float32).view(np.uint32))
    with pytest.raises(TypeError, match="cannot create an array view with dtype float64 from "
                                        "source dtype float32: source dtype has size 4 bytes, "
                                        "but target dtype has size 8 bytes"):
        a.view(wp.float64)
    m = wp.array(np.arange(8, dtype=np.float32).reshape(2, 2, 2), dtype=wp.mat22)
    flat = m.view(float)  # components become trailing dimensions, sharing the memory
    assert flat.shape == (2, 2, 2) and flat.ptr == m.ptr
    np.testing.assert_array_equal(flat.numpy(), np.arange(8).reshape(2, 2, 2))
    back = flat.view(wp.mat22)
    assert back.shape == (2,) and back.dtype is wp.mat22
    with pytest.raises(RuntimeError, match="is not compatible with the requested data type"):
        wp.zeros((2, 3), dtype=float).view(wp.vec2)


def test_view_keeps_memory_alive():
    a = wp.zeros(1000, dtype=wp.float32)
    v = a[10:20]
    del a
    gc.collect()
    v.fill_(3.0)
    assert v.list() == [3.0] * 10


# --- gradients ----------------------------------------------------------------------------


def test_requires_grad_allocates_zeroed_grad(device):
    a = wp.array(np.ones((2, 3), np.float32), requires_grad=True, device=device)
    assert a.requires_grad
    g = a.grad
    assert isinstance(g, wp.array)
    assert g.shape == (2, 3) and g.dtype is wp.float32
    np.testing.assert_array_equal(g.numpy(), np.zeros((2, 3)))
    g.fill_(1.0)
    np.testing.assert_array_equal(a.grad.numpy(), np.ones((2, 3)))
    a.requires_grad = False
    assert a.grad is None and not a.requires_grad
    b = wp.zeros(3)
    assert b.grad is None
    b.requires_grad = True
    assert b.grad is not None


def test_grad_follows_views_and_setter():
    a = wp.zeros((4, 4), requires_grad=True)
    v = a[1:3, 2]
    v.grad.fill_(5.0)
    expect = np.zeros((4, 4), np.float32)
    expect[1:3, 2] = 5.0
    np.testing.assert_array_equal(a.grad.numpy(), expect)
    np.testing.assert_array_equal(a.transpose().grad.numpy(), expect.T)
    g = wp.ones((4, 4))
    a.grad = g
    assert a.grad.ptr == g.ptr
    with pytest.raises(ValueError, match="grad must have"):
        a.grad = wp.zeros(3)
    c = wp.clone(a)
    assert c.requires_grad and c.grad.ptr != a.grad.ptr


# --- printing, annotations, errors --------------------------------------------------------


def test_repr_and_str_like_numpy():
    a = wp.array(np.arange(4, dtype=np.float32).reshape(2, 2), device="cpu")
    assert str(a) == str(a.numpy())
    assert repr(a) == "array([[0., 1.],\n       [2., 3.]], dtype=float32)"
    assert a.list() == [0.0, 1.0, 2.0, 3.0]


def test_annotations():
    t = wp.array(dtype=float)
    assert isinstance(t, wp.array)
    assert t.dtype is wp.float32 and t.ndim == 1
    T = wp._treadle.types
    assert t._type == T.array(T.scalar("float32"), 1)
    assert wp.array(dtype=wp.float64, ndim=2)._type == T.array(T.scalar("float64"), 2)
    assert wp.array2d(dtype=int)._type == T.array(T.scalar("int32"), 2)
    assert wp.array3d(dtype=wp.uint8).ndim == 3
    assert wp.array4d(dtype=wp.bool)._type == T.array(T.scalar("bool"), 4)
    assert wp.array1d(dtype=wp.float16)._type.key == "array:float16:1"
    assert wp.array[float]._type == T.array(T.scalar("float32"), 1)
    assert wp.array2d[wp.int64]._type == T.array(T.scalar("int64"), 2)
    assert wp.array(dtype=wp.Float).dtype is wp.Float
    assert wp.types.type_of(wp.array(dtype=wp.Float, ndim=3)) == T.array(T.generic("Float"), 3)
    assert repr(t) == "array(dtype=float32, ndim=1)"
    assert t.ptr is None and t.device is None
    with pytest.raises(TypeError, match="annotation"):
        t.numpy()
    with pytest.raises(ValueError, match="ndim"):
        wp.array(dtype=float, ndim=5)
    with pytest.raises(TypeError, match="unsupported dtype"):
        wp.array(dtype=str)


def test_array_helpers_as_constructors():
    a = wp.array2d(np.zeros((2, 3), np.float32))
    assert isinstance(a, wp.array) and a.shape == (2, 3)
    with pytest.raises(ValueError, match="ndim"):
        wp.array2d(np.zeros(3, np.float32))
    assert wp.array(np.zeros((2, 2)), ndim=2).ndim == 2


def test_bad_inputs_give_clear_errors():
    with pytest.raises(TypeError, match="unsupported data type complex"):
        wp.array(np.zeros(3, dtype=np.complex64))
    with pytest.raises(TypeError, match="unsupported"):
        wp.array(["a", "b"])
    with pytest.raises(ValueError, match="cannot convert"):
        wp.array([[1, 2], [3]])
    with pytest.raises(TypeError, match="unsupported dtype"):
        wp.zeros(3, dtype=object)
    with pytest.raises(ValueError, match="dimensions"):
        wp.zeros((1, 1, 1, 1, 1))
    with pytest.raises(ValueError, match="dimensions"):
        wp.array(np.zeros((1, 1, 1, 1, 1)))
    with pytest.raises(ValueError, match="negative"):
        wp.zeros((2, -1))
    with pytest.raises(ValueError, match="2\\^31"):
        wp.empty(2**31, dtype=wp.uint8)
    with pytest.raises(TypeError, match="ints"):
        wp.zeros((2.5,))
    with pytest.raises(TypeError, match="dtype is required"):
        wp.array(shape=(3,))
    with pytest.raises(ValueError, match="invalid device"):
        wp.zeros(3, device="gpu0")
    with pytest.raises(TypeError):
        wp.zeros(3, device=3)
    with pytest.raises(MemoryError):
        wp.empty((2**20, 2**20, 64), dtype=wp.float64)


def test_pinned_host_arrays():
    pinned_expected = wp.is_cuda_available()
    a = wp.zeros(16, dtype=wp.float32, device="cpu", pinned=True)
    assert a.pinned is pinned_expected
    np.testing.assert_array_equal(a.numpy(), np.zeros(16))
    b = wp.array(np.arange(5, dtype=np.float32), device="cpu", pinned=True)
    assert b.pinned is pinned_expected
    np.testing.assert_array_equal(b.numpy(), np.arange(5))
    assert wp.clone(b).pinned is pinned_expected and wp.empty_like(b).pinned is pinned_expected
    assert not wp.zeros(4, dtype=wp.float32, device="cpu").pinned
    for device in wp.get_cuda_devices():
        d = b.to(device)
        np.testing.assert_array_equal(d.numpy(), np.arange(5))
        c = wp.empty(5, dtype=wp.float32, device="cpu", pinned=True)
        wp.copy(c, d)
        wp.synchronize()
        np.testing.assert_array_equal(c.numpy(), np.arange(5))
        with pytest.raises(ValueError, match="pinned memory is host memory"):
            wp.zeros(4, dtype=wp.float32, device=device, pinned=True)


def test_empty_data_gives_an_empty_array_of_a_vector_dtype(device):
    for data in ([], np.zeros((0, 3), np.float32)):  # numpy's empty arrays have zero strides
        a = wp.array(data, dtype=wp.vec3, device=device)
        assert a.shape == (0,) and a.dtype is wp.vec3 and a.numpy().shape == (0, 3)
    a = wp.array(np.zeros((4, 0, 2)), dtype=wp.vec2d, device=device)
    assert a.shape == (4, 0)


def test_copy_also_copies_gradients(device):
    src = wp.array([1.0, 2.0, 3.0], dtype=float, device=device, requires_grad=True)
    src.grad.assign([-1.0, -2.0, -3.0])
    dest = wp.zeros(3, dtype=float, device=device, requires_grad=True)
    wp.copy(dest, src, dest_offset=1, src_offset=0, count=2)
    np.testing.assert_array_equal(dest.numpy(), [0.0, 1.0, 2.0])
    np.testing.assert_array_equal(dest.grad.numpy(), [0.0, -1.0, -2.0])
    plain = wp.zeros(3, dtype=float, device=device)  # no gradient: only the values
    wp.copy(plain, src)
    np.testing.assert_array_equal(plain.numpy(), [1.0, 2.0, 3.0])
