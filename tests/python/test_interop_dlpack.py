"""DLPack both ways (wp.from_dlpack, wp.to_dlpack, array.__dlpack__): zero copy, lifetimes,
strides, vector/matrix dtypes, versioned capsules and errors; numpy is the other library on the
CPU, treadle itself on every device. Also foreign arrays (numpy) given to kernels."""

import ctypes
import gc
import re

import numpy as np
import pytest

import treadle as wp
from treadle import dlpack_abi, dlpack_export


@wp.kernel
def add_one(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] + 1.0


@wp.kernel
def add_one_2d(a: wp.array2d(dtype=float)):
    i, j = wp.tid()
    a[i, j] = a[i, j] + 1.0


@wp.kernel
def scale_vec3(a: wp.array(dtype=wp.vec3), s: float):
    i = wp.tid()
    a[i] = a[i] * s


@wp.struct
class Pair:
    a: float
    b: int


def capsule_name(capsule):
    return dlpack_abi.capsule_get_name(capsule)


def managed_of(capsule, versioned):
    name = dlpack_abi.VERSIONED if versioned else dlpack_abi.LEGACY
    address = dlpack_abi.capsule_get_pointer(capsule, name)
    cls = dlpack_abi.DLManagedTensorVersioned if versioned else dlpack_abi.DLManagedTensor
    return cls.from_address(address)


def raises_exactly(exc, message):
    return pytest.raises(exc, match="^" + re.escape(message) + "$")


# --- treadle to treadle (every device) ---------------------------------------------------


def test_round_trip_through_a_capsule_aliases(device):
    a = wp.array(np.arange(8, dtype=np.float32), device=device)
    b = wp.from_dlpack(wp.to_dlpack(a))
    assert (b.ptr, b.device, b.dtype, b.shape, b.strides) == (
        a.ptr, a.device, a.dtype, a.shape, a.strides)
    wp.launch(add_one, dim=8, inputs=[b], device=device)
    np.testing.assert_array_equal(a.numpy(), np.arange(8) + 1)


def test_round_trip_through_the_protocol_aliases(device):
    a = wp.array(np.arange(12, dtype=np.float32).reshape(3, 4), device=device)
    b = wp.from_dlpack(a)
    assert b.ptr == a.ptr and b.shape == (3, 4)
    wp.launch(add_one_2d, dim=b.shape, inputs=[b], device=device)
    np.testing.assert_array_equal(a.numpy(), np.arange(12).reshape(3, 4) + 1)


def test_strided_views_keep_their_strides(device):
    base = wp.array(np.arange(24, dtype=np.float32).reshape(4, 6), device=device)
    view = base[::2, 1:5]
    b = wp.from_dlpack(view)
    assert b.ptr == view.ptr and b.shape == (2, 4) and b.strides == view.strides
    assert not b.is_contiguous
    np.testing.assert_array_equal(b.numpy(), np.arange(24).reshape(4, 6)[::2, 1:5])
    t = wp.from_dlpack(base.transpose())
    np.testing.assert_array_equal(t.numpy(), np.arange(24).reshape(4, 6).T)


@pytest.mark.parametrize("dtype", [wp.bool, wp.int8, wp.uint8, wp.int16, wp.uint16, wp.int32,
                                   wp.uint32, wp.int64, wp.uint64, wp.float16, wp.bfloat16,
                                   wp.float32, wp.float64])
def test_every_scalar_type_round_trips(device, dtype):
    a = wp.array(np.arange(5) % 2, dtype=dtype, device=device)
    b = wp.from_dlpack(wp.to_dlpack(a))
    assert b.dtype is dtype and b.ptr == a.ptr
    np.testing.assert_array_equal(b.numpy(), a.numpy())


def test_integers_alias_with_either_signedness_and_bool_as_bytes(device):
    a = wp.array(np.array([-1, 2], dtype=np.int32), device=device)
    u = wp.from_dlpack(wp.to_dlpack(a), dtype=wp.uint32)
    np.testing.assert_array_equal(u.numpy(), np.array([-1, 2], dtype=np.int32).view(np.uint32))
    flags = wp.array([True, False, True], dtype=wp.bool, device=device)
    as_bytes = wp.from_dlpack(wp.to_dlpack(flags), dtype=wp.uint8)
    np.testing.assert_array_equal(as_bytes.numpy(), [1, 0, 1])


@pytest.mark.parametrize("dtype", [wp.vec3, wp.vec2h, wp.mat22, wp.mat33d, wp.quat, wp.transform,
                                   wp.spatial_vector, wp.spatial_matrix])
def test_composites_export_as_trailing_dimensions(device, dtype):
    a = wp.zeros(5, dtype=dtype, device=device)
    scalar = dtype._wp_scalar_type_
    size = ctypes.sizeof(scalar._type_)
    flat = wp.from_dlpack(wp.to_dlpack(a), dtype=scalar)
    inner = dtype._shape_
    inner_strides = (size * inner[1], size) if len(inner) == 2 else (size,)
    assert flat.shape == (5, *inner) and flat.strides == (*a.strides, *inner_strides)
    back = wp.from_dlpack(wp.to_dlpack(flat), dtype=dtype)
    assert back.dtype is dtype and back.shape == (5,) and back.strides == a.strides
    assert back.ptr == a.ptr


def test_vec3_elements_fold_and_write_through(device):
    flat = wp.array(np.arange(12, dtype=np.float32).reshape(4, 3), device=device)
    v = wp.from_dlpack(flat, dtype=wp.vec3)
    assert v.shape == (4,) and v.dtype is wp.vec3
    wp.launch(scale_vec3, dim=4, inputs=[v, 2.0], device=device)
    np.testing.assert_array_equal(flat.numpy(), 2 * np.arange(12).reshape(4, 3))


def test_empty_and_single_element_arrays(device):
    e = wp.from_dlpack(wp.zeros(0, dtype=wp.float32, device=device))
    assert e.shape == (0,) and e.size == 0
    one = wp.from_dlpack(wp.to_dlpack(wp.zeros(3, dtype=float, device=device)), dtype=wp.vec3)
    assert one.shape == (1,)


def test_versioned_capsules_when_the_consumer_asks(device):
    a = wp.zeros(4, dtype=float, device=device)
    legacy = a.__dlpack__()
    assert capsule_name(legacy) == b"dltensor"
    versioned = a.__dlpack__(max_version=(1, 0))
    assert capsule_name(versioned) == b"dltensor_versioned"
    managed = managed_of(versioned, True)
    assert (managed.version.major, managed.version.minor) == (1, 0) and managed.flags == 0
    assert capsule_name(a.__dlpack__(max_version=(0, 8))) == b"dltensor"
    b = wp.from_dlpack(versioned)
    assert b.ptr == a.ptr
    assert capsule_name(versioned) == b"used_dltensor_versioned"


def test_copy_true_exports_a_flagged_copy(device):
    a = wp.array(np.arange(4, dtype=np.float32), device=device)
    capsule = a.__dlpack__(max_version=(1, 0), copy=True)
    assert managed_of(capsule, True).flags == dlpack_abi.FLAG_IS_COPIED
    b = wp.from_dlpack(capsule)
    assert b.ptr != a.ptr
    np.testing.assert_array_equal(b.numpy(), a.numpy())


def test_dlpack_device(device):
    a = wp.zeros(2, dtype=float, device=device)
    expected = (1, 0) if device == "cpu" else (2, wp.get_device(device).ordinal)
    assert a.__dlpack_device__() == expected
    assert a.__dlpack__(dl_device=expected, copy=False) is not None


def test_cuda_streams_accepted(device):
    if device == "cpu":
        pytest.skip("CUDA streams")
    a = wp.array(np.arange(4, dtype=np.float32), device=device)
    stream = wp.Stream(device)
    for s in (None, -1, 0, 1, 2, stream.cuda_stream):
        np.testing.assert_array_equal(wp.from_dlpack(a.__dlpack__(stream=s)).numpy(), np.arange(4))
    with raises_exactly(TypeError, "__dlpack__(): DLPack stream must None or an integer >= -1 "
                                   "(got -2)"):
        a.__dlpack__(stream=-2)


# --- lifetimes ---------------------------------------------------------------------------


def test_consumer_keeps_the_exported_array_alive():
    gc.collect()
    live = dlpack_export.live_exports()
    a = wp.array(np.arange(5, dtype=np.float32))
    capsule = wp.to_dlpack(a)
    del a
    gc.collect()
    b = wp.from_dlpack(capsule)
    del capsule
    gc.collect()
    assert dlpack_export.live_exports() == live + 1
    np.testing.assert_array_equal(b.numpy(), np.arange(5))
    view = b[1:3]
    del b
    gc.collect()
    assert dlpack_export.live_exports() == live + 1  # a view still holds the tensor
    np.testing.assert_array_equal(view.numpy(), [1, 2])
    del view
    gc.collect()
    assert dlpack_export.live_exports() == live


def test_an_unconsumed_capsule_releases_its_array():
    gc.collect()
    live = dlpack_export.live_exports()
    capsule = wp.zeros(3, dtype=float).__dlpack__(max_version=(1, 0))
    assert dlpack_export.live_exports() == live + 1
    del capsule
    gc.collect()
    assert dlpack_export.live_exports() == live


def test_import_keeps_the_producer_alive():
    src = np.arange(6, dtype=np.float64)
    a = wp.from_dlpack(src)
    src[0] = 42.0  # aliased
    del src
    gc.collect()
    np.testing.assert_array_equal(a.numpy(), [42, 1, 2, 3, 4, 5])


# --- numpy, the other library on the CPU -------------------------------------------------


def test_numpy_reads_and_writes_treadle_memory():
    a = wp.array(np.arange(6, dtype=np.float32).reshape(2, 3))
    n = np.from_dlpack(a)
    assert n.ctypes.data == a.ptr and n.shape == (2, 3)
    n[1, 2] = -1.0
    assert a.numpy()[1, 2] == -1.0
    v = wp.zeros(2, dtype=wp.mat22)
    m = np.from_dlpack(v)
    assert m.shape == (2, 2, 2) and m.dtype == np.float32
    view = wp.array(np.arange(20, dtype=np.int32).reshape(4, 5))[1::2, ::2]
    np.testing.assert_array_equal(np.from_dlpack(view), np.arange(20).reshape(4, 5)[1::2, ::2])


def test_treadle_writes_numpy_memory_with_numpy_strides():
    src = np.zeros((6, 4), dtype=np.float32)
    view = src[::2, 1:3]
    a = wp.from_dlpack(view)
    assert a.ptr == view.ctypes.data and a.strides == view.strides
    wp.launch(add_one_2d, dim=a.shape, inputs=[a])
    expected = np.zeros((6, 4), dtype=np.float32)
    expected[::2, 1:3] = 1.0
    np.testing.assert_array_equal(src, expected)


def test_numpy_scalars_and_broadcasts():
    assert wp.from_dlpack(np.array(3.5)).shape == (1,)
    b = wp.from_dlpack(np.broadcast_to(np.arange(3, dtype=np.float32), (4, 3)))
    assert b.strides == (0, 4)
    np.testing.assert_array_equal(b.numpy(), np.broadcast_to(np.arange(3), (4, 3)))


def test_numpy_arrays_as_kernel_arguments():
    x = np.arange(4, dtype=np.float32)
    wp.launch(add_one, dim=4, inputs=[x])
    np.testing.assert_array_equal(x, [1, 2, 3, 4])
    v = np.ones((3, 3), dtype=np.float32)
    wp.launch(scale_vec3, dim=3, inputs=[v, 3.0])
    np.testing.assert_array_equal(v, np.full((3, 3), 3.0))
    with pytest.raises(RuntimeError, match=r"expects an array of type array\(ndim=1, "
                                           r"dtype=float32\), but passed value has type ndarray"):
        wp.launch(add_one, dim=4, inputs=[np.arange(4, dtype=np.float64)])


# --- errors ------------------------------------------------------------------------------


def test_incompatible_dtype():
    capsule = wp.to_dlpack(wp.zeros(2, dtype=wp.bool))
    with raises_exactly(RuntimeError, "from_dlpack(): Incompatible data types: DLPack bool8 and "
                                      "Warp float32"):
        wp.from_dlpack(capsule, dtype=wp.float32)
    assert capsule_name(capsule) == b"dltensor"  # refused: the capsule still owns its tensor
    with raises_exactly(RuntimeError, "from_dlpack(): Incompatible data types: DLPack float32 "
                                      "and Warp vec3d"):
        wp.from_dlpack(np.zeros((2, 3), dtype=np.float32), dtype=wp.vec3d)


def test_wrong_trailing_shape_or_strides():
    with raises_exactly(RuntimeError, "from_dlpack(): a DLPack tensor of shape (4, 2) cannot be "
                                      "seen as an array of vec3f: its last dimensions must be "
                                      "(3,)"):
        wp.from_dlpack(np.zeros((4, 2), dtype=np.float32), dtype=wp.vec3)
    with raises_exactly(RuntimeError, "from_dlpack(): a DLPack tensor of shape (4, 3) and byte "
                                      "strides (24, 8) cannot be seen as an array of vec3f: the "
                                      "components of each element must be packed"):
        wp.from_dlpack(np.zeros((4, 6), dtype=np.float32)[:, ::2], dtype=wp.vec3)


def test_too_many_dimensions():
    with raises_exactly(ValueError, "from_dlpack(): a DLPack tensor of shape (1, 1, 1, 1, 1) has "
                                    "5 dimensions; treadle arrays have 1 to 4"):
        wp.from_dlpack(np.zeros((1, 1, 1, 1, 1), dtype=np.float32))


def test_unsupported_element_types():
    with raises_exactly(RuntimeError, "from_dlpack(): DLPack complex64 has no treadle type"):
        wp.from_dlpack(np.zeros(2, dtype=np.complex64))
    with raises_exactly(RuntimeError, "__dlpack__(): arrays of Pair cannot be exported "
                                      "through DLPack (structs have no DLPack type)"):
        wp.zeros(2, dtype=Pair).__dlpack__()


def test_a_capsule_is_consumed_once():
    capsule = wp.to_dlpack(wp.zeros(2, dtype=float))
    wp.from_dlpack(capsule)
    with raises_exactly(RuntimeError, "from_dlpack(): this DLPack capsule was already consumed "
                                      "(a capsule hands over its tensor once)"):
        wp.from_dlpack(capsule)


def test_not_a_tensor():
    with raises_exactly(TypeError, "from_dlpack(): expected an object with __dlpack__() or a "
                                   "DLPack capsule, got list"):
        wp.from_dlpack([1.0, 2.0])
    with raises_exactly(TypeError, "to_dlpack(): expected a treadle array, got ndarray"):
        wp.to_dlpack(np.zeros(2))


def test_unsupported_source_device():
    class Elsewhere:
        def __dlpack_device__(self):
            return (123, 7)

        def __dlpack__(self, stream=None):
            raise AssertionError("never called")

    with raises_exactly(TypeError, "from_dlpack(): Unsupported source device for DLPack: "
                                   "device_type=123, device_id=7"):
        wp.from_dlpack(Elsewhere())


@pytest.mark.parametrize("stream", [0, 1, 2, -2, "nope"])
def test_cpu_streams_refused(stream):
    a = wp.zeros(2, dtype=float)
    with raises_exactly(TypeError, f"__dlpack__(): DLPack stream must be None or -1 for CPU "
                                   f"device (got {stream!r})"):
        a.__dlpack__(stream=stream)
    a.__dlpack__(stream=-1)


def test_bad_protocol_arguments():
    a = wp.zeros(2, dtype=float)
    with raises_exactly(TypeError, "__dlpack__(): max_version must be a (major, minor) pair, got "
                                   "'1.0'"):
        a.__dlpack__(max_version="1.0")
    with raises_exactly(BufferError, "__dlpack__(): cannot export to DLPack device type 8 "
                                     "(device id 0); treadle has CPU and CUDA devices only"):
        a.__dlpack__(dl_device=(8, 0))
    with raises_exactly(TypeError, "__dlpack__(): this is an array type annotation, not an "
                                   "array"):
        wp.array(dtype=float, ndim=1).__dlpack__()
