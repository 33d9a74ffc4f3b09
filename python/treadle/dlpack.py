"""``wp.from_dlpack``: treadle arrays over other libraries' DLPack tensors, without a copy (and
``wp.to_dlpack``, from dlpack_export.py, for the other direction).

Importing consumes the capsule (it is renamed ``"used_dltensor"``); the array holds a
``_Consumed`` object that calls the producer's deleter when the array and its views are gone.
Every check runs before the capsule is renamed, so a refused import leaves the capsule to free
its tensor. Vector and matrix dtypes take the tensor's last dimensions (external_arrays.py)."""

import ctypes

from . import dlpack_abi as abi
from . import scalar_types
from .context import get_device, get_stream, is_cuda_available
from .dlpack_abi import DLDeviceType
from .dlpack_export import _SCALAR_CODES
from .dlpack_export import to_dlpack as to_dlpack
from .external_arrays import alias, target_dtype

_SCALARS = {codes: getattr(scalar_types, key) for key, codes in _SCALAR_CODES.items()}
"""The treadle scalar class of each DLPack (type code, bits)."""

_WHAT = "from_dlpack()"


class _Consumed:
    """A consumed DLPack tensor, held by the arrays over it: calls the producer's deleter once,
    when the last of them dies. Inactive (``deleter`` None) until the import succeeded."""

    __slots__ = ("address", "deleter")

    def __init__(self, address):
        self.address, self.deleter = address, None

    def __del__(self):
        deleter, self.deleter = self.deleter, None
        if deleter:
            deleter(self.address)


def _type_name(dt):
    """A DLPack dtype as messages name it: "float32", "bool8", "int16x4" (4 lanes)."""
    name = f"{abi.CODE_NAMES.get(dt.code, f'code{dt.code}')}{dt.bits}"
    return name + (f"x{dt.lanes}" if dt.lanes > 1 else "")


def _device_alias(kind, ordinal):
    """The treadle device holding memory of DLPack device (``kind``, ``ordinal``)."""
    if kind in (DLDeviceType.kDLCPU, DLDeviceType.kDLCUDAHost):
        return "cpu"
    if kind in (DLDeviceType.kDLCUDA, DLDeviceType.kDLCUDAManaged):
        return get_device(f"cuda:{ordinal}").alias
    raise TypeError(f"{_WHAT}: Unsupported source device for DLPack: device_type={kind}, "
                    f"device_id={ordinal}")


def _scalar_of(dt):
    """The treadle scalar class of DLPack dtype ``dt`` (one lane's)."""
    if dt.bits % 8:
        raise RuntimeError(f"{_WHAT}: DLPack {_type_name(dt)} is not supported (treadle has no "
                           "types of fewer than 8 bits)")
    scalar = _SCALARS.get((dt.code, dt.bits))
    if scalar is None:
        raise RuntimeError(f"{_WHAT}: DLPack {_type_name(dt)} has no treadle type")
    return scalar


def _layout(tensor):
    """Shape and byte strides (None: packed) of a DLTensor in scalars: lanes, when there are
    several, become the last dimension."""
    shape = [tensor.shape[i] for i in range(tensor.ndim)]
    item = tensor.dtype.bits // 8
    lanes = tensor.dtype.lanes
    strides = None
    if tensor.strides:
        strides = [tensor.strides[i] * item * lanes for i in range(tensor.ndim)]
    if lanes > 1:
        shape.append(lanes)
        strides = None if strides is None else [*strides, item]
    return shape, strides


def _from_dlpack(capsule, dtype=None):
    """The treadle array over the tensor of DLPack ``capsule`` (which it consumes), seen as
    ``dtype`` (default: the tensor's scalar type)."""
    if not isinstance(capsule, abi.CAPSULE_TYPE):
        raise TypeError(f"{_WHAT}: expected an object with __dlpack__() or a DLPack capsule, "
                        f"got {type(capsule).__name__}")
    name = abi.capsule_get_name(capsule)
    if name in (b"used_dltensor", b"used_dltensor_versioned"):
        raise RuntimeError(f"{_WHAT}: this DLPack capsule was already consumed (a capsule "
                           "hands over its tensor once)")
    if name not in (b"dltensor", b"dltensor_versioned"):
        raise TypeError(f"{_WHAT}: the capsule {name!r} does not hold a DLPack tensor")
    versioned = name == b"dltensor_versioned"
    address = abi.capsule_get_pointer(capsule, abi.VERSIONED if versioned else abi.LEGACY)
    managed = (abi.DLManagedTensorVersioned if versioned else abi.DLManagedTensor).from_address(
        address)
    if versioned and managed.version.major != 1:
        raise BufferError(f"{_WHAT}: DLPack {managed.version.major}.{managed.version.minor} is "
                          "not supported (treadle reads version 1)")
    tensor = managed.dl_tensor
    device = _device_alias(tensor.device.device_type, tensor.device.device_id)
    scalar = _scalar_of(tensor.dtype)
    target = target_dtype(dtype, scalar, f"DLPack {_type_name(tensor.dtype)}", _WHAT)
    shape, strides = _layout(tensor)
    owner = _Consumed(address)
    ptr = (tensor.data or 0) + tensor.byte_offset
    out = alias(ptr, shape, strides, scalar, target, device, owner, "DLPack tensor", _WHAT)
    # The array now holds the tensor: take it from the capsule.
    deleter = ctypes.cast(managed.deleter, ctypes.c_void_p).value
    if abi.capsule_set_name(capsule, abi.USED_VERSIONED if versioned else abi.USED_LEGACY):
        raise RuntimeError(f"{_WHAT}: cannot mark the capsule as consumed")
    owner.deleter = abi.DELETER(deleter) if deleter else None
    return out


def _consumer_stream(kind, ordinal):
    """The stream a producer on DLPack device (``kind``, ``ordinal``) must order its work with:
    the current stream of the CUDA device (for pinned host memory, the current CUDA device's),
    None for CPU memory."""
    if kind in (DLDeviceType.kDLCUDA, DLDeviceType.kDLCUDAManaged):
        return get_stream(get_device(f"cuda:{ordinal}")).cuda_stream or 1
    if kind == DLDeviceType.kDLCUDAHost and is_cuda_available():
        return get_stream(get_device("cuda")).cuda_stream or 1
    if kind in (DLDeviceType.kDLCPU, DLDeviceType.kDLCUDAHost):
        return None
    raise TypeError(f"{_WHAT}: Unsupported source device for DLPack: device_type={kind}, "
                    f"device_id={ordinal}")


def from_dlpack(source, dtype=None):
    """A treadle array aliasing ``source`` (Warp's ``wp.from_dlpack``): an object with
    ``__dlpack__()``/``__dlpack_device__()`` (a PyTorch tensor, a JAX or CuPy array, a treadle
    array) or a DLPack capsule, which is consumed. ``dtype`` reads the memory as another type of
    the same size (int32 as uint32, bool as uint8) or as vectors/matrices that take the last
    dimensions (an (n, 3) float32 tensor with ``dtype=wp.vec3``). The producer is kept alive
    until the array and its views are gone. On CUDA the producer orders its work before the
    device's current stream (the consumer's stream of the DLPack protocol)."""
    if isinstance(source, abi.CAPSULE_TYPE) or not hasattr(source, "__dlpack__"):
        return _from_dlpack(source, dtype)
    kind, ordinal = source.__dlpack_device__()
    stream = _consumer_stream(int(kind), int(ordinal))
    try:
        capsule = source.__dlpack__(stream=stream, max_version=abi.VERSION)
    except TypeError:  # a producer that predates versioned capsules (or refuses the stream)
        capsule = source.__dlpack__(stream=stream)
    return _from_dlpack(capsule, dtype)
