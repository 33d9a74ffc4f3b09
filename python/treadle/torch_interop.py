"""PyTorch interoperability (Warp's ``wp.from_torch``, ``wp.to_torch`` and the dtype, device and
stream conversions), without copies in either direction.

PyTorch is imported on first use, so treadle imports without it. ``from_torch`` wraps the
tensor's memory (the array holds the tensor); with ``requires_grad`` the array's ``.grad``
aliases the tensor's ``.grad``, which is allocated (zeroed, laid out like the tensor) when
missing. ``to_torch`` goes through DLPack (dlpack_export.py): the tensor holds the array, and on
CUDA PyTorch's current stream waits for treadle's. Streams cross as borrowed CUstream handles;
the library that made a stream keeps it alive."""

import importlib

from . import scalar_types as st
from .array import array
from .context import Device, Stream, get_device, get_stream
from .external_arrays import alias, target_dtype
from .vec_types import matrix, vector

_CU_STREAM_LEGACY = 1
"""The CUstream handle that stands for CUDA's legacy default stream (PyTorch's handle 0)."""

_maps = {}


def _torch():
    """The torch module, imported on first use (ImportError with a hint when missing)."""
    try:
        return importlib.import_module("torch")
    except ImportError as e:
        raise ImportError(
            "treadle's PyTorch interop needs PyTorch (pip install -r requirements-interop.txt)"
        ) from e


def _tables():
    """(treadle scalar -> torch dtype, torch dtype -> treadle scalar), made on first use."""
    if not _maps:
        torch = _torch()
        pairs = [(st.float16, torch.float16), (st.bfloat16, torch.bfloat16),
                 (st.float32, torch.float32), (st.float64, torch.float64),
                 (st.int8, torch.int8), (st.uint8, torch.uint8), (st.int16, torch.int16),
                 (st.int32, torch.int32), (st.int64, torch.int64), (st.bool, torch.bool)]
        _maps["from"] = {t: w for w, t in pairs}
        # PyTorch's unsigned types beyond uint8 have few operations: Warp maps them to the
        # signed type of their width, in this direction only.
        pairs += [(st.uint16, torch.int16), (st.uint32, torch.int32), (st.uint64, torch.int64)]
        _maps["to"] = dict(pairs)
    return _maps["to"], _maps["from"]


def dtype_to_torch(warp_dtype):
    """The torch dtype of treadle scalar type ``warp_dtype`` (uint16/32/64 give the signed
    type of their width); TypeError for other types."""
    to_torch_map, _ = _tables()
    try:
        return to_torch_map[st.resolve_dtype(warp_dtype)]
    except (KeyError, TypeError):
        name = getattr(warp_dtype, "__name__", warp_dtype)
        raise TypeError(f"dtype_to_torch(): Cannot convert {name} to a Torch type") from None


def dtype_from_torch(torch_dtype):
    """The treadle scalar type of ``torch_dtype``; TypeError when treadle has none (complex)."""
    _, from_torch_map = _tables()
    try:
        return from_torch_map[torch_dtype]
    except (KeyError, TypeError):
        raise TypeError(
            f"dtype_from_torch(): Cannot convert {torch_dtype} to a Warp type") from None


def device_from_torch(torch_device):
    """The treadle device of a torch device or device string ("cpu", "cuda", "cuda:1"); a
    CUDA device without index is PyTorch's current one."""
    torch = _torch()
    try:
        d = torch.device(torch_device)
    except (TypeError, RuntimeError):
        raise ValueError(f"device_from_torch(): expected a torch.device or a device string, "
                         f"got {torch_device!r}") from None
    if d.type == "cpu":
        return get_device("cpu")
    if d.type == "cuda":
        return get_device(f"cuda:{torch.cuda.current_device() if d.index is None else d.index}")
    raise RuntimeError(f"device_from_torch(): Unsupported Torch device type {d.type} (treadle "
                       "has CPU and CUDA devices)")


def device_to_torch(warp_device):
    """The torch device string of a treadle device ("cpu", "cuda:0", ...)."""
    d = get_device(warp_device)
    return "cpu" if d.is_cpu else f"cuda:{d.ordinal}"


def stream_from_torch(stream_or_device=None):
    """A ``wp.Stream`` for a torch CUDA stream, or for the current torch stream of a device
    (default: PyTorch's current device). It borrows the handle: the torch stream must outlive
    it (the returned stream keeps a reference in ``_torch_stream``)."""
    torch = _torch()
    if isinstance(stream_or_device, torch.cuda.Stream):
        stream = stream_or_device
    else:
        device = stream_or_device
        if isinstance(device, Device):
            device = device_to_torch(device)
        stream = torch.cuda.current_stream(None if device is None else torch.device(device))
    out = Stream(device_from_torch(stream.device),
                 cuda_stream=stream.cuda_stream or _CU_STREAM_LEGACY)
    out._torch_stream = stream
    return out


def stream_to_torch(stream_or_device=None):
    """A ``torch.cuda.ExternalStream`` for a ``wp.Stream``, or for the current stream of a
    treadle CUDA device (default: the current device)."""
    torch = _torch()
    stream = stream_or_device if isinstance(stream_or_device, Stream) else \
        get_stream(stream_or_device)
    return torch.cuda.ExternalStream(stream.cuda_stream, device=device_to_torch(stream.device))


def _tensor_array(t, dtype, what):
    """A treadle array aliasing tensor ``t`` (held by the array), seen as ``dtype``."""
    scalar = dtype_from_torch(t.dtype)
    target = target_dtype(dtype, scalar, f"PyTorch {t.dtype}", what)
    strides = [s * scalar._size for s in t.stride()]
    return alias(t.data_ptr(), t.shape, strides, scalar, target,
                 device_from_torch(t.device).alias, t, "PyTorch tensor", what)


def _gradient(t, a, grad, requires_grad, dtype, what):
    """The gradient array of ``a`` (over tensor ``t``): ``grad`` (a treadle array or a tensor),
    else with ``requires_grad`` the tensor's ``.grad``, allocated when missing."""
    if grad is not None:
        if isinstance(grad, array):
            return grad
        if not isinstance(grad, _torch().Tensor):
            raise TypeError(f"{what}: grad must be a treadle array or a torch.Tensor, got "
                            f"{type(grad).__name__}")
        return _tensor_array(grad, dtype, what)
    if not requires_grad:
        return None
    if t.grad is not None:
        return _tensor_array(t.grad, dtype, what)
    a.requires_grad = True  # a zeroed gradient with the array's strides, shared with torch
    g = a.grad
    t.grad = to_torch(g, requires_grad=False)
    return g


def from_torch(t, dtype=None, requires_grad=None, grad=None, return_ctype=False,
               retain_grad=False):
    """A treadle array aliasing tensor ``t`` (Warp's ``wp.from_torch``); the array keeps the
    tensor alive. ``dtype`` reads the memory as another type of the same size (int64 as
    uint64, bool as uint8) or as vectors/matrices taking the last dimensions (an (n, 3)
    float32 tensor as ``wp.vec3``). ``requires_grad`` (default: the tensor's) makes ``.grad``
    alias ``t.grad`` (allocated zeroed when None); ``grad`` gives the gradient instead (a
    tensor or a treadle array). ``return_ctype`` returns the ``array_t`` descriptor instead."""
    what = "from_torch()"
    torch = _torch()
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{what}: expected a torch.Tensor, got {type(t).__name__}")
    a = _tensor_array(t, dtype, what)
    requires_grad = t.requires_grad if requires_grad is None else bool(requires_grad)
    g = _gradient(t, a, grad, requires_grad, dtype, what)
    if g is not None:
        a.grad = g
    a.retain_grad = retain_grad
    if return_ctype:
        record = a.__ctype__()
        record._ref, record._gradref = a, g  # the descriptor keeps the memory alive
        return record
    return a


def to_torch(a, requires_grad=None):
    """A tensor aliasing treadle array ``a`` (Warp's ``wp.to_torch``): vector and matrix
    elements become trailing dimensions; uint16/32/64 data shows as the signed type of its
    width. ``requires_grad`` (default: the array's) sets the tensor's, and its ``.grad`` then
    aliases the array's gradient."""
    what = "to_torch()"
    if not isinstance(a, array):
        raise TypeError(f"{what}: expected a treadle array, got {type(a).__name__}")
    a._check_real(what)
    if a._dtype.kind == "struct":
        raise RuntimeError(f"{what}: Cannot convert structured Warp arrays to Torch "
                           f"(dtype {a.dtype.__name__})")
    torch = _torch()
    requires_grad = a.requires_grad if requires_grad is None else bool(requires_grad)
    t = torch.utils.dlpack.from_dlpack(_signed_view(a))
    if requires_grad:
        t.requires_grad_(True)
        if a.requires_grad:
            t.grad = to_torch(a.grad, requires_grad=False)
    return t


def _signed_view(a):
    """``a``, or a view of its memory as the signed type of its width when its scalars are
    uint16/32/64 (what dtype_to_torch gives for them)."""
    t = a._dtype
    scalar = t if t.kind == "scalar" else t.scalar
    signed = {"uint16": st.int16, "uint32": st.int32, "uint64": st.int64}.get(scalar.key)
    if signed is None:
        return a
    if t.kind == "scalar":
        return a.view(signed)
    return a.view(matrix(tuple(t.shape), signed) if t.kind == "matrix" else
                  vector(t.length, signed))
