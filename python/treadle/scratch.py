"""Scratch memory of the sorting utilities on CUDA devices: one growing int32 buffer per
stream, allocated outside any graph capture (plain device memory that belongs to no graph), so
that a sort can run inside a capture, also inside the body of a conditional node, where
allocating is refused.

A graph keeps every buffer its capture used (``Graph._keepalive``): a buffer that grows later
is replaced, and the old one lives on as long as a graph needs it. A buffer allocated during a
capture serves that capture only and belongs to its graph (it is freed with the graph); after
the capture the stream gets back the buffer it had. On the CPU every call gets fresh memory."""

import threading

from . import _treadle
from . import types as _types
from .array import array, zeros
from .context import get_device, get_stream

_lock = threading.Lock()
_buffers = {}  # (device alias, stream handle) -> the stream's current buffer
# device alias -> [open captures, buffers used, {key: buffer the stream had before}]
_captures = {}

MIN_WORDS = 1 << 12


class _Release:
    """Frees one buffer's memory when its last array goes."""

    def __init__(self, ordinal, ptr):
        self.ordinal, self.ptr = ordinal, ptr

    def __call__(self, *_):
        _treadle.cuda_free(self.ordinal, self.ptr)


def _allocate(device, words):
    ptr = _treadle.cuda_alloc_outside_capture(device.ordinal, 4 * words)
    return array(ptr=ptr, dtype=_types.int32, shape=(words,), device=device,
                 deleter=_Release(device.ordinal, ptr))


def int32_scratch(device, words):
    """At least `words` int32 elements for the sort running on the current stream of `device`
    (contents undefined; the caller zeroes what it needs)."""
    device = get_device(device)
    if not device.is_cuda:
        return zeros(words, dtype=_types.int32, device=device)
    stream = get_stream(device)
    key = (device.alias, stream.cuda_stream)
    with _lock:
        buf = _buffers.get(key)
        capture = _captures.get(device.alias) if stream.is_capturing else None
        if buf is None or buf.size < words:
            grown = max(words, MIN_WORDS, 2 * buf.size if buf is not None else 0)
            if capture is not None:
                capture[2].setdefault(key, buf)  # restored when the capture ends
            buf = _buffers[key] = _allocate(device, grown)
        if capture is not None:
            capture[1][id(buf)] = buf
        return buf


def capture_began(device):
    """A capture began on `device`: the buffers it uses are noted from now on."""
    with _lock:
        _captures.setdefault(get_device(device).alias, [0, {}, {}])[0] += 1


def capture_ended(device):
    """The capture on `device` ended: returns the buffers it used (for its graph to keep) and
    gives the streams back the buffers they had before it."""
    alias = get_device(device).alias
    with _lock:
        capture = _captures.get(alias)
        if capture is None:
            return []
        capture[0] -= 1
        used = list(capture[1].values())
        if capture[0] > 0:  # another capture is still open on the device: it keeps the notes
            return used
        del _captures[alias]
        for key, buf in capture[2].items():
            if buf is None:
                _buffers.pop(key, None)
            else:
                _buffers[key] = buf
        return used
