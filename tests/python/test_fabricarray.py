"""wp.fabricarray / wp.indexedfabricarray: construction from a Fabric interface, host reads and
writes, kernel reads/writes/atomics, arrays of arrays, struct fields, launch errors."""

import numpy as np
import pytest

import treadle as wp


def _iface(data, attrib, buckets, type_info=None):
    """A Fabric interface for 1-D array ``data`` split into buckets of the given sizes."""
    size = wp.types.type_size_in_bytes(data.dtype)
    scalar = getattr(data.dtype, "_wp_scalar_type_", data.dtype)
    code = {wp.float32: "f4", wp.int32: "i4", wp.float64: "f8"}[scalar]
    role = "vector" if hasattr(data.dtype, "_wp_scalar_type_") else ""
    p, pointers = int(data.ptr or 0), []
    for n in buckets:
        pointers.append(p)
        p += n * size
    info = {"type": type_info or (True, code, data.dtype._length_, 0, role), "access": 2,
            "pointers": pointers, "counts": list(buckets)}
    return {"version": 1, "device": str(data.device), "attribs": {attrib: info}, "_ref": data}


def _arrays_iface(rows, attrib, buckets, device):
    """A Fabric interface of an array of arrays: element i is the array ``rows[i]``."""
    ptrs = wp.array([r.ptr for r in rows], dtype=wp.uint64, device=device)
    lens = wp.array([r.size for r in rows], dtype=wp.uint64, device=device)
    pointers, lengths, k = [], [], 0
    for n in buckets:
        pointers.append(int(ptrs.ptr) + 8 * k)
        lengths.append(int(lens.ptr) + 8 * k)
        k += n
    info = {"type": (True, "f4", 1, 1, ""), "access": 2, "pointers": pointers,
            "counts": list(buckets), "array_lengths": lengths}
    return {"version": 1, "device": str(device), "attribs": {attrib: info},
            "_ref": (rows, ptrs, lens)}


@wp.kernel
def fa_double(a: wp.fabricarray(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = a[i]
    a[i] = 2.0 * a[i]
    wp.atomic_add(a, i, 1.0)


@wp.kernel
def fa_count(a: wp.fabricarray(dtype=float), out: wp.array(dtype=int)):
    out[0] = a.shape[0]
    out[1] = len(a)


@wp.kernel
def ifa_add(a: wp.indexedfabricarray(dtype=wp.vec3), v: wp.vec3):
    i = wp.tid()
    a[i] = a[i] + v


@wp.kernel
def fa_row_sums(a: wp.fabricarrayarray(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    row = a[i]
    s = float(0.0)
    for j in range(row.shape[0]):
        s += row[j]
    out[i] = s + a[i, 0] * 0.0


@wp.kernel
def ifa_row_firsts(a: wp.indexedfabricarrayarray(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = a[i, 0]


@wp.struct
class FabricFields:
    values: wp.fabricarray(dtype=float)
    picked: wp.indexedfabricarray(dtype=float)
    scale: float


@wp.kernel
def fa_struct(s: FabricFields):
    i = wp.tid()
    s.values[i] = s.values[i] * s.scale
    s.picked[i] = s.picked[i] + 100.0


@wp.kernel
def fa_struct_array(items: wp.array(dtype=FabricFields), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = items[0].values[i] + items[0].picked[0]


@wp.kernel
def fa_grad(a: wp.fabricarray(dtype=float), x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = a[i] * x[i] * x[i]


def _values(n, device, dtype=float):
    return wp.array(np.arange(n, dtype=np.float32), dtype=dtype, device=device)


def test_host_attributes(device):
    data = _values(10, device)
    fa = wp.fabricarray(data=_iface(data, "foo", [3, 0, 4, 3]), attrib="foo")
    assert (fa.dtype, fa.ndim, fa.shape, fa.size, len(fa)) == (wp.float32, 1, (10,), 10, 10)
    assert fa.device == wp.get_device(device)
    np.testing.assert_array_equal(fa.numpy(), np.arange(10, dtype=np.float32))
    ifa = fa[wp.array([9, 0, 4], dtype=wp.int32, device=device)]
    assert isinstance(ifa, wp.indexedfabricarray)
    assert (ifa.dtype, ifa.ndim, ifa.shape, ifa.size) == (wp.float32, 1, (3,), 3)
    np.testing.assert_array_equal(ifa.numpy(), [9.0, 0.0, 4.0])
    assert ifa.list() == [9.0, 0.0, 4.0]


def test_dtype_from_fabric_type():
    to_dtype = wp.types.fabric_to_warp_dtype
    assert to_dtype((True, "f4", 3, 0, "vector"), "a") is wp.vec3
    assert to_dtype((True, "f8", 4, 0, "quat"), "a") is wp.quatd
    assert to_dtype((True, "f4", 16, 0, "matrix"), "a") is wp.mat44
    assert to_dtype((True, "u1", 1, 0, ""), "a") is wp.uint8
    with pytest.raises(RuntimeError, match="Attribute 'a' cannot be used in Warp"):
        to_dtype((False, "f4", 1, 0, ""), "a")
    with pytest.raises(RuntimeError, match="role 'text' is not supported"):
        to_dtype((True, "u1", 2, 0, "text"), "a")


def test_construction_errors():
    data = _values(4, "cpu")
    iface = _iface(data, "foo", [4])
    with pytest.raises(ValueError, match="Invalid attribute name: None"):
        wp.fabricarray(data=iface)
    with pytest.raises(ValueError, match="Failed to get attribute 'bar'"):
        wp.fabricarray(data=iface, attrib="bar")
    with pytest.raises(ValueError, match="Unsupported Fabric interface version: 2"):
        wp.fabricarray(data=dict(iface, version=2), attrib="foo")
    fa = wp.fabricarray(data=iface, attrib="foo")
    with pytest.raises(ValueError, match="only support indexing using index arrays"):
        fa[0]
    with pytest.raises(ValueError, match="Index array must use int32"):
        fa[wp.array([0], dtype=wp.int64)]


def test_kernel_read_write_atomic(device):
    data = _values(10, device)
    fa = wp.fabricarray(data=_iface(data, "foo", [2, 5, 3]), attrib="foo")
    out = wp.zeros(10, dtype=float, device=device)
    wp.launch(fa_double, dim=10, inputs=[fa, out], device=device)
    np.testing.assert_array_equal(out.numpy(), np.arange(10))
    np.testing.assert_array_equal(data.numpy(), 2.0 * np.arange(10) + 1.0)
    counts = wp.zeros(2, dtype=int, device=device)
    wp.launch(fa_count, dim=1, inputs=[fa, counts], device=device)
    np.testing.assert_array_equal(counts.numpy(), [10, 10])


def test_indexed_vectors(device):
    data = wp.array(np.arange(12, dtype=np.float32).reshape(4, 3), dtype=wp.vec3, device=device)
    fa = wp.fabricarray(data=_iface(data, "p", [1, 3]), attrib="p")
    assert fa.dtype is wp.vec3
    ifa = fa[wp.array([3, 1], dtype=wp.int32, device=device)]
    wp.launch(ifa_add, dim=2, inputs=[ifa, wp.vec3(1.0, 2.0, 3.0)], device=device)
    expect = np.arange(12, dtype=np.float32).reshape(4, 3)
    expect[[3, 1]] += [1.0, 2.0, 3.0]
    np.testing.assert_array_equal(data.numpy(), expect)
    np.testing.assert_array_equal(ifa.numpy(), expect[[3, 1]])


def test_arrays_of_arrays(device):
    rows = [wp.array(np.arange(1, n + 2, dtype=np.float32), device=device) for n in range(5)]
    iface = _arrays_iface(rows, "r", [2, 3], device)  # owns the pointer and length tables
    fa = wp.fabricarrayarray(data=iface, attrib="r")
    assert (fa.ndim, fa.shape, fa.size) == (2, (5,), 5)
    sums = wp.zeros_like(fa)
    assert (sums.shape, sums.dtype) == ((5,), wp.float32)
    wp.launch(fa_row_sums, dim=5, inputs=[fa, sums], device=device)
    np.testing.assert_array_equal(sums.numpy(), [r.numpy().sum() for r in rows])
    ifa = fa[wp.array([4, 2], dtype=wp.int32, device=device)]
    firsts = wp.zeros(2, dtype=float, device=device)
    wp.launch(ifa_row_firsts, dim=2, inputs=[ifa, firsts], device=device)
    np.testing.assert_array_equal(firsts.numpy(), [1.0, 1.0])
    with pytest.raises(RuntimeError, match="Filling Fabric arrays of arrays is not supported"):
        fa.fill_(1.0)
    with pytest.raises(RuntimeError, match="differ in length"):
        fa.numpy()


def test_fill_zero_assign_copy(device):
    data = _values(6, device)
    fa = wp.fabricarray(data=_iface(data, "foo", [1, 2, 3]), attrib="foo")
    fa.fill_(7.0)
    np.testing.assert_array_equal(data.numpy(), np.full(6, 7.0))
    fa.zero_()
    np.testing.assert_array_equal(data.numpy(), np.zeros(6))
    fa.assign(np.arange(6, dtype=np.float32) * 3.0)
    np.testing.assert_array_equal(data.numpy(), np.arange(6) * 3.0)
    src = wp.array(np.arange(6, dtype=np.float32) + 0.5, device=device)
    wp.copy(fa, src)
    np.testing.assert_array_equal(fa.numpy(), np.arange(6) + 0.5)
    back = wp.clone(fa)
    assert isinstance(back, wp.array)
    np.testing.assert_array_equal(back.numpy(), np.arange(6) + 0.5)
    ifa = fa[wp.array([5, 0], dtype=wp.int32, device=device)]
    ifa.fill_(-1.0)
    np.testing.assert_array_equal(data.numpy(), [-1.0, 1.5, 2.5, 3.5, 4.5, -1.0])
    dest = wp.zeros(2, dtype=float, device=device)
    wp.copy(dest, ifa)
    np.testing.assert_array_equal(dest.numpy(), [-1.0, -1.0])


def test_empty(device):
    data = wp.empty(0, dtype=wp.vec3, device=device)
    fa = wp.fabricarray(data=_iface(data, "foo", []), attrib="foo")
    assert (fa.size, fa.shape) == (0, (0,))
    assert fa.numpy().shape == (0, 3)
    fa.fill_(wp.vec3(1.0))
    ifa = fa[wp.empty(0, dtype=wp.int32, device=device)]
    assert ifa.numpy().shape == (0, 3)
    assert ifa.list() == []


def test_struct_fields(device):
    data = _values(4, device)
    fa = wp.fabricarray(data=_iface(data, "v", [2, 2]), attrib="v")
    other = _values(4, device)
    ofa = wp.fabricarray(data=_iface(other, "w", [4]), attrib="w")
    s = FabricFields()
    assert s.values is None and s.picked is None
    s.values = fa
    s.picked = ofa[wp.array([3, 1], dtype=wp.int32, device=device)]
    s.scale = 10.0
    wp.launch(fa_struct, dim=2, inputs=[s], device=device)
    np.testing.assert_array_equal(data.numpy(), [0.0, 10.0, 2.0, 3.0])
    np.testing.assert_array_equal(other.numpy(), [0.0, 101.0, 2.0, 103.0])
    items = wp.array([s], dtype=FabricFields, device=device)
    out = wp.zeros(2, dtype=float, device=device)
    wp.launch(fa_struct_array, dim=2, inputs=[items, out], device=device)
    np.testing.assert_array_equal(out.numpy(), [103.0, 113.0])
    assert s.to(device).values is fa
    back = items.list()[0]
    assert isinstance(back.values, wp.fabricarray) and back.values.dtype is wp.float32


def test_struct_field_errors():
    s = FabricFields()
    with pytest.raises(TypeError, match="Struct field 'values' expects a Warp Fabric array, "
                                        "got list"):
        s.values = [1.0]
    ints = wp.zeros(2, dtype=wp.int32)
    fa = wp.fabricarray(data=_iface(ints, "i", [2]), attrib="i")
    with pytest.raises(TypeError, match="Struct field 'values' expects dtype float32, got int32"):
        s.values = fa
    with pytest.raises(TypeError, match="expects a Warp indexed Fabric array, got fabricarray"):
        s.picked = fa


def test_launch_errors():
    ints = wp.zeros(2, dtype=wp.int32)
    fa = wp.fabricarray(data=_iface(ints, "i", [2]), attrib="i")
    out = wp.zeros(2, dtype=float)
    with pytest.raises(RuntimeError, match=r"fa_double\(\): argument 'a' expects an array of "
                                           r"float32, got an array of int32"):
        wp.launch(fa_double, dim=2, inputs=[fa, out])
    with pytest.raises(RuntimeError, match=r"argument 'a' expects an array of type fabricarray\("
                                           r"ndim=1, dtype=float32\), but passed value has type "
                                           r"array"):
        wp.launch(fa_double, dim=2, inputs=[out, out])


def test_checked_mode_bounds(device):
    old = wp.config.mode
    wp.config.mode = "checked"
    try:
        data = _values(3, device)
        fa = wp.fabricarray(data=_iface(data, "foo", [1, 2]), attrib="foo")
        out = wp.zeros(4, dtype=float, device=device)
        with pytest.raises(IndexError, match=r"index \(3,\) is out of bounds for an array of "
                                             r"shape \(3,\)"):
            wp.launch(fa_double, dim=4, inputs=[fa, out], device=device)
            wp.synchronize()
    finally:
        wp.config.mode = old


def test_backward_pass_skips_fabric_arrays(device):
    data = wp.array(np.array([1.0, 2.0, 3.0], dtype=np.float32), device=device)
    fa = wp.fabricarray(data=_iface(data, "w", [3]), attrib="w")
    x = wp.array(np.array([1.0, 2.0, 3.0], dtype=np.float32), device=device, requires_grad=True)
    y = wp.zeros(3, dtype=float, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(fa_grad, dim=3, inputs=[fa, x, y], device=device)
    tape.backward(grads={y: wp.ones(3, dtype=float, device=device)})
    np.testing.assert_allclose(x.grad.numpy(), 2.0 * np.array([1.0, 4.0, 9.0]))


def test_copy_between_fabric_and_indexed_arrays(device):
    data = _values(4, device)
    fa = wp.fabricarray(data=_iface(data, "foo", [3, 1]), attrib="foo")
    big = wp.zeros(8, dtype=float, device=device)
    ia = big[wp.array([6, 4, 2, 0], dtype=wp.int32, device=device)]
    wp.copy(ia, fa)
    np.testing.assert_array_equal(big.numpy(), [3.0, 0.0, 2.0, 0.0, 1.0, 0.0, 0.0, 0.0])
    wp.copy(fa, ia)
    np.testing.assert_array_equal(data.numpy(), [0.0, 1.0, 2.0, 3.0])
