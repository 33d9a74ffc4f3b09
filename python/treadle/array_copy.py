"""wp.copy: element copies between arrays on any devices, recorded on an active tape."""

import operator

from . import cpu_capture as _cpu_capture
from . import tape as _tape
from .array import _dtype_text, array
from .fabricarray import _fabric_base
from .indexedarray import indexedarray
from .stream import ScopedStream


def copy(dest, src, dest_offset=0, src_offset=0, count=0, stream=None):
    """Copies ``count`` elements (0: all of ``src``) from ``src`` to ``dest``, starting at
    flat element offsets, as Warp does; the arrays may be on different devices and of
    different dtypes of one element size (the bytes are copied). Contiguous arrays are
    copied as flat memory (any shapes); otherwise the shapes must match, and offsets or a
    count that do not span both arrays need 1-D arrays (not indexed ones). CUDA copies are
    queued on ``stream`` (a wp.Stream, made current on its device for the copy), by default
    on the device's current stream. Errors are RuntimeErrors, as in Warp."""
    if stream is not None:
        with ScopedStream(stream, sync_enter=False):
            _copy_with_grads(dest, src, dest_offset, src_offset, count)
        return
    _copy_with_grads(dest, src, dest_offset, src_offset, count)


def _copy_with_grads(dest, src, dest_offset, src_offset, count):
    """The copy, then (as Warp does) the same copy of the gradients when both arrays have
    one; the tape records only the copy of the values (its adjoint moves the gradients)."""
    _copy(dest, src, dest_offset, src_offset, count)
    if isinstance(dest, array) and isinstance(src, array) and dest.grad is not None and \
            src.grad is not None:
        _copy(dest.grad, src.grad, dest_offset, src_offset, count, record=False)


def _checked_arguments(dest, src, dest_offset, src_offset, count):
    for a in (dest, src):
        if not isinstance(a, (array, indexedarray, _fabric_base)):
            raise RuntimeError(
                f"copy(): Copy source and destination must be arrays, got {type(a).__name__}")
        a._check_real("copy()")
    try:
        offsets = (operator.index(dest_offset), operator.index(src_offset), operator.index(count))
    except TypeError:
        raise RuntimeError(
            "copy(): Copy src_offset, dest_offset, and count must be integers") from None
    dest_offset, src_offset, count = offsets
    if src_offset < 0:
        raise RuntimeError(f"copy(): Source offset must be non-negative, got {src_offset}")
    if dest_offset < 0:
        raise RuntimeError(f"copy(): Destination offset must be non-negative, got {dest_offset}")
    if count < 0:
        raise RuntimeError(f"copy(): Copy count must be non-negative, got {count}")
    return offsets


def _incompatible_dtypes(dest, src):
    return RuntimeError(
        f"copy(): Incompatible array data types: destination dtype={_dtype_text(dest.dtype)}, "
        f"source dtype={_dtype_text(src.dtype)}")


def _element_size(a):
    if isinstance(a, _fabric_base):
        return a.dtype._type.size
    return (a.data if isinstance(a, indexedarray) else a)._dtype.size


def _flat_ranges(dest, src, dest_offset, src_offset, count):
    """The (dest, src) views of a copy between contiguous arrays: flat element ranges."""
    size = src._dtype.size
    if size != dest._dtype.size:
        raise _incompatible_dtypes(dest, src)
    nbytes = count * size
    if (src_offset + count) > src.size:
        raise RuntimeError(
            f"copy(): Trying to copy source buffer with size ({nbytes}) from offset "
            f"({src_offset * size}) is larger than source size ({src.size * size})")
    if (dest_offset + count) > dest.size:
        raise RuntimeError(
            f"copy(): Trying to copy source buffer with size ({nbytes}) to offset "
            f"({dest_offset * size}) is larger than destination size ({dest.size * size})")
    if not (dest_offset or src_offset) and count == dest.size and src.shape == dest.shape:
        return dest, src  # the whole arrays (the tape sees them, not views)
    return (dest.flatten()[dest_offset: dest_offset + count],
            src.flatten()[src_offset: src_offset + count])


def _strided_ranges(dest, src, dest_offset, src_offset, count):
    """The (dest, src) views of a copy with a non-contiguous side: 1-D sub-ranges when the
    copy does not span both arrays, else the arrays themselves (of one shape)."""
    if src_offset or dest_offset or count != src.size or count != dest.size:
        if isinstance(src, (indexedarray, _fabric_base)) or \
                isinstance(dest, (indexedarray, _fabric_base)):
            raise RuntimeError(
                "copy(): dest_offset, src_offset, and count are not supported when copying "
                "to/from non-contiguous indexed or Fabric arrays")
        if src.ndim != 1 or dest.ndim != 1:
            raise RuntimeError(
                "copy(): dest_offset, src_offset, and count are only supported for 1-D "
                "non-contiguous arrays")
        if src_offset + count > src.size:
            raise RuntimeError(
                f"copy(): Trying to copy a range of {count} element(s) from source offset "
                f"({src_offset}) exceeds the source size ({src.size})")
        if dest_offset + count > dest.size:
            raise RuntimeError(
                f"copy(): Trying to copy a range of {count} element(s) to destination offset "
                f"({dest_offset}) exceeds the destination size ({dest.size})")
        dest = dest[dest_offset: dest_offset + count]
        src = src[src_offset: src_offset + count]
    if src.shape != dest.shape:
        raise RuntimeError(
            f"copy(): Incompatible array shapes: destination shape={dest.shape}, source "
            f"shape={src.shape}")
    if _element_size(src) != _element_size(dest):
        raise _incompatible_dtypes(dest, src)
    return dest, src


def _copy(dest, src, dest_offset, src_offset, count, record=True):
    dest_offset, src_offset, count = _checked_arguments(dest, src, dest_offset, src_offset, count)
    if count == 0:
        count = src.size
    if count == 0:
        return
    if src.is_contiguous and dest.is_contiguous:
        d, s = _flat_ranges(dest, src, dest_offset, src_offset, count)
    else:
        d, s = _strided_ranges(dest, src, dest_offset, src_offset, count)
    if isinstance(d, (indexedarray, _fabric_base)) or isinstance(s, (indexedarray, _fabric_base)):
        if _cpu_capture.depth[0] and _cpu_capture.active() and d.device.is_cpu:
            _cpu_capture.refuse("copy() to or from an indexed or Fabric array")
        tape = _tape.current()
        if tape is not None and d.requires_grad and s.requires_grad:
            raise NotImplementedError(
                "copy(): a copy to or from an indexed array cannot be recorded on a tape; copy "
                "through a contiguous array (indexedarray.contiguous()) inside the tape instead")
        if s.dtype is not d.dtype:
            raise _incompatible_dtypes(d, s)  # indexed elements are not reinterpreted
        if isinstance(d, (indexedarray, _fabric_base)):
            d.assign(s)
        else:
            d._assign(s.contiguous())
        return
    if s.dtype is not d.dtype:  # the same element size: the bytes, as in Warp
        d._capture_copy_from(s.view(d.dtype))
        tape = _tape.current() if record else None
        if tape is not None and d.grad is not None and s.grad is not None:
            # the adjoint copies the bytes back: src.grad = dest.grad (dest's stays)
            tape.record_func(lambda: s.grad._assign(d.grad.view(s.dtype)), [d, s])
        return
    d._capture_copy_from(s)
    tape = _tape.current() if record else None
    if tape is not None:
        tape._record_copy(d, s)
