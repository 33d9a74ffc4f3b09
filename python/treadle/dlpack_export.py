"""DLPack export of treadle arrays: ``wp.to_dlpack(a)`` and the work behind ``a.__dlpack__()``
(the consumer's stream made to wait for the array's, versioned capsules, copies on request).

An exported tensor aliases the array's memory. Vector, matrix, quaternion and transform
elements become trailing dimensions of their scalar type (an array of vec3 of shape (n,) is an
(n, 3) float32 tensor). Ownership: ``_exports`` maps the address of each live managed structure
to what it keeps alive (the native array, the shape and strides buffers, the structure itself);
the consumer's call of the structure's deleter, or the capsule's destructor when nobody consumed
it, removes the entry, which releases the array."""

import ctypes
import operator

from . import dlpack_abi as abi
from .context import Stream, get_device, get_stream
from .dlpack_abi import DLDataTypeCode, DLDeviceType

_SCALAR_CODES = {
    "bool": (DLDataTypeCode.kDLBool, 8),
    "int8": (DLDataTypeCode.kDLInt, 8),
    "int16": (DLDataTypeCode.kDLInt, 16),
    "int32": (DLDataTypeCode.kDLInt, 32),
    "int64": (DLDataTypeCode.kDLInt, 64),
    "uint8": (DLDataTypeCode.kDLUInt, 8),
    "uint16": (DLDataTypeCode.kDLUInt, 16),
    "uint32": (DLDataTypeCode.kDLUInt, 32),
    "uint64": (DLDataTypeCode.kDLUInt, 64),
    "float16": (DLDataTypeCode.kDLFloat, 16),
    "bfloat16": (DLDataTypeCode.kDLBfloat, 16),
    "float32": (DLDataTypeCode.kDLFloat, 32),
    "float64": (DLDataTypeCode.kDLFloat, 64),
}
"""DLPack's (type code, bits) of each treadle scalar, by the scalar Type's key."""

_CU_STREAM_LEGACY = 1
"""The CUstream handle of CUDA's legacy default stream (what DLPack's stream None, 0 and 1 mean
to treadle, as to Warp)."""


class _Export:
    """What one exported tensor keeps alive until it is released (see the module's docstring)."""

    __slots__ = ("array", "shape", "strides", "managed")


_exports = {}


@abi.DELETER
def _release(address):
    """The managed structures' deleter, called by the consumer (from any thread: ctypes takes
    the GIL)."""
    _exports.pop(address, None)


@abi.CAPSULE_DESTRUCTOR
def _destroy_capsule(capsule):
    """Releases the tensor of a capsule that was never consumed (a consumed one was renamed)."""
    for name in (abi.LEGACY, abi.VERSIONED):
        if abi.raw_capsule_is_valid(capsule, name):
            _exports.pop(abi.raw_capsule_get_pointer(capsule, name), None)


abi.forever(_release)
abi.forever(_destroy_capsule)


def element_layout(t, what):
    """(type code, bits, inner shape) of the array element Type ``t`` as DLPack sees it."""
    if t.kind == "scalar":
        scalar, inner = t, ()
    elif t.kind in ("vector", "quat", "transform"):
        scalar, inner = t.scalar, (t.length,)
    elif t.kind == "matrix":
        scalar, inner = t.scalar, tuple(t.shape)
    else:
        raise RuntimeError(f"{what}: arrays of {t.name} cannot be exported through DLPack "
                           "(structs have no DLPack type)")
    code, bits = _SCALAR_CODES[scalar.key]
    return code, bits, inner


def dl_device_of(alias):
    """The DLPack (device type, id) of treadle device ``alias`` ("cpu" or "cuda:N")."""
    if alias == "cpu":
        return (DLDeviceType.kDLCPU, 0)
    return (DLDeviceType.kDLCUDA, get_device(alias).ordinal)


def export(native, versioned=False, copied=False, what="to_dlpack()"):
    """A DLPack capsule (``"dltensor_versioned"`` when ``versioned``, else ``"dltensor"``) for
    ``native``, any ``_treadle.Array``; it aliases the memory and keeps the array alive until the
    consumer is done. ``copied`` sets the versioned capsule's IS_COPIED flag."""
    if native._is_null:
        raise ValueError(f"{what}: the array is null")
    code, bits, inner = element_layout(native._dtype, what)
    item = bits // 8
    outer = []
    for s in native._strides:
        if s % item:
            raise BufferError(f"{what}: the byte strides {native._strides} are not multiples of "
                              f"the {item}-byte scalar size, which DLPack cannot describe")
        outer.append(s // item)
    inner_strides = [1] * len(inner)
    for i in range(len(inner) - 2, -1, -1):
        inner_strides[i] = inner_strides[i + 1] * inner[i + 1]
    shape = [*native._shape, *inner]
    ndim = len(shape)

    keep = _Export()
    keep.array = native
    keep.shape = (ctypes.c_int64 * ndim)(*shape)
    keep.strides = (ctypes.c_int64 * ndim)(*outer, *inner_strides)
    keep.managed = (abi.DLManagedTensorVersioned if versioned else abi.DLManagedTensor)()
    tensor = keep.managed.dl_tensor
    tensor.data = native._ptr or None
    tensor.device.device_type, tensor.device.device_id = dl_device_of(native._device_alias)
    tensor.ndim = ndim
    tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes = code, bits, 1
    tensor.shape = ctypes.cast(keep.shape, ctypes.POINTER(ctypes.c_int64))
    tensor.strides = ctypes.cast(keep.strides, ctypes.POINTER(ctypes.c_int64))
    tensor.byte_offset = 0
    keep.managed.deleter = _release
    if versioned:
        keep.managed.version.major, keep.managed.version.minor = abi.VERSION
        keep.managed.flags = abi.FLAG_IS_COPIED if copied else 0
    address = ctypes.addressof(keep.managed)
    _exports[address] = keep
    try:
        return abi.capsule_new(address, abi.VERSIONED if versioned else abi.LEGACY,
                               _destroy_capsule)
    except BaseException:
        _exports.pop(address, None)
        raise


def live_exports():
    """How many exported tensors are still held by consumers or unconsumed capsules (tests)."""
    return len(_exports)


def _target_device(dl_device, what):
    """The treadle device of a consumer's ``dl_device`` (device type, id)."""
    try:
        kind, ordinal = (int(x) for x in dl_device)
    except (TypeError, ValueError):
        raise TypeError(f"{what}: dl_device must be a (device type, device id) pair, got "
                        f"{dl_device!r}") from None
    if kind in (DLDeviceType.kDLCPU, DLDeviceType.kDLCUDAHost):
        return get_device("cpu")
    if kind in (DLDeviceType.kDLCUDA, DLDeviceType.kDLCUDAManaged):
        return get_device(f"cuda:{ordinal}")
    raise BufferError(f"{what}: cannot export to DLPack device type {kind} (device id "
                      f"{ordinal}); treadle has CPU and CUDA devices only")


def _check_stream(stream, device, what):
    """The consumer's stream as a CUstream handle on a CUDA ``device`` (None: do not
    synchronise, for -1), after Warp's checks; on the CPU only None and -1 are allowed."""
    if device.is_cpu:
        if stream is not None and not (isinstance(stream, int) and stream == -1):
            raise TypeError(
                f"{what}: DLPack stream must be None or -1 for CPU device (got {stream!r})")
        return None
    if stream is None:
        return _CU_STREAM_LEGACY
    if isinstance(stream, bool) or not isinstance(stream, int) or stream < -1:
        # Warp's wording, which programs and Warp's tests match
        raise TypeError(f"{what}: DLPack stream must None or an integer >= -1 (got {stream!r})")
    if stream == -1:
        return None
    return _CU_STREAM_LEGACY if stream == 0 else operator.index(stream)


def _make_consumer_wait(device, handle):
    """Makes the consumer's stream ``handle`` wait for the work queued so far on the current
    stream of CUDA ``device`` (where treadle runs the array's work)."""
    producer = get_stream(device)
    if handle == producer.cuda_stream:
        return
    consumer = Stream(device, cuda_stream=handle)
    consumer.wait_stream(producer)


def dlpack_capsule(array, stream=None, max_version=None, dl_device=None, copy=None):
    """What ``array.__dlpack__(...)`` returns (the array API's protocol): a versioned capsule
    when ``max_version`` is at least (1, 0), else a legacy one; a copy when ``copy`` is True or
    ``dl_device`` names another device (BufferError there with ``copy=False``). On CUDA the
    consumer's ``stream`` first waits for the array's device's current stream (None, 0 and 1
    mean the legacy default stream, 2 the per-thread one, -1 no synchronisation)."""
    what = "__dlpack__()"
    array._check_real(what)
    source = get_device(array._device_alias)
    target = source if dl_device is None else _target_device(dl_device, what)
    handle = _check_stream(stream, target, what)
    versioned = False
    if max_version is not None:
        if not (isinstance(max_version, (tuple, list)) and len(max_version) == 2 and
                all(isinstance(v, int) for v in max_version)):
            raise TypeError(f"{what}: max_version must be a (major, minor) pair, got "
                            f"{max_version!r}")
        versioned = max_version[0] >= 1
    native, copied = array, False
    if target != source or copy:
        if copy is False:
            raise BufferError(f"{what}: the array is on {source}, exporting it to {target} "
                              "needs a copy (copy=False forbids it)")
        native, copied = array._clone(target.alias), True
    if handle is not None:
        _make_consumer_wait(target, handle)
    return export(native, versioned, copied, what)


def dlpack_device(array):
    """What ``array.__dlpack_device__()`` returns: (kDLCUDA, ordinal) or (kDLCPU, 0)."""
    array._check_real("__dlpack_device__()")
    return dl_device_of(array._device_alias)


def to_dlpack(array):
    """A legacy DLPack capsule (``"dltensor"``) aliasing ``array`` (Warp's ``wp.to_dlpack``):
    pass it to another library's ``from_dlpack``; the array stays alive until that library
    releases the tensor. Vector and matrix elements become trailing dimensions; no stream is
    synchronised (``array.__dlpack__(stream=...)`` does that)."""
    if not hasattr(array, "_check_real"):
        raise TypeError(f"to_dlpack(): expected a treadle array, got {type(array).__name__}")
    array._check_real("to_dlpack()")
    return export(array)
