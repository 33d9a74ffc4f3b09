"""wp.copy: element copies between arrays on any devices, recorded on an active tape."""

import builtins

from . import tape as _tape
from .array import array
from .stream import ScopedStream


def copy(dest, src, dest_offset=0, src_offset=0, count=0, stream=None):
    """Copies ``count`` elements (0: as many as fit) from ``src`` to ``dest``, starting at
    flat element offsets; the arrays may be on different devices. With offsets or a count
    both arrays must be contiguous. CUDA copies are queued on ``stream`` (a wp.Stream, made
    current on its device for the copy), by default on the device's current stream."""
    if stream is not None:
        with ScopedStream(stream, sync_enter=False):
            _copy(dest, src, dest_offset, src_offset, count)
        return
    _copy(dest, src, dest_offset, src_offset, count)


def _copy(dest, src, dest_offset, src_offset, count):
    for name, a in (("dest", dest), ("src", src)):
        if not isinstance(a, array):
            raise TypeError(f"copy(): {name} must be a treadle array, got {type(a).__name__}")
        a._check_real("copy()")
    if src.dtype is not dest.dtype:
        raise TypeError(f"copy(): cannot copy {src._dtype.key} data into {dest._dtype.key}")
    if dest_offset < 0 or src_offset < 0 or count < 0:
        raise ValueError("copy(): offsets and count must not be negative")
    whole = dest_offset == 0 and src_offset == 0 and count in (0, src.size)
    if whole and src.shape == dest.shape:
        dest._assign(src)
        tape = _tape.current()
        if tape is not None:
            tape._record_copy(dest, src)
        return
    if not (src.is_contiguous and dest.is_contiguous):
        raise ValueError(
            "copy(): arrays of different shapes, offsets and counts need contiguous arrays"
        )
    if count == 0:
        count = builtins.min(src.size - src_offset, dest.size - dest_offset)
    if src_offset + count > src.size or dest_offset + count > dest.size:
        raise ValueError(
            f"copy(): {count} elements from offset {src_offset} (src size {src.size}) to "
            f"offset {dest_offset} (dest size {dest.size}) is out of bounds"
        )
    if count <= 0:
        return
    d = dest.flatten()[dest_offset : dest_offset + count]
    s = src.flatten()[src_offset : src_offset + count]
    d._assign(s)
    tape = _tape.current()
    if tape is not None:
        tape._record_copy(d, s)
