"""CUDA streams, events and graph capture with Warp's API: wp.Stream, wp.Event, wp.ScopedCapture...

Each CUDA device has a *current stream*, shared by all threads (as in Warp): launches, copies,
fills and allocations without an explicit stream go there. It starts as the device's default
stream, a blocking stream (it synchronises with CUDA's legacy NULL stream) that treadle creates
with the device's primary context; :func:`set_stream` and :class:`ScopedStream` choose another.
The launch path needs nothing from this module: the native runtime keeps the current stream's
handle per device.
"""

import contextlib

from . import _treadle, config
from .context import get_device

# The Stream object that is current on each device (alias -> Stream): keeps a stream set with
# set_stream alive while it is current. The default streams' objects, made once.
_current = {}
_defaults = {}
# Streams being captured (device alias, handle) -> Stream, kept alive until the capture ends.
_capturing = {}


def _cuda_device(device, what):
    device = get_device(device)
    if not device.is_cuda:
        raise RuntimeError(f"{what}: device {device} is not a CUDA device")
    return device


class Stream:
    """A CUDA stream (Warp's ``wp.Stream``): ``Stream(device=None, priority=0)``.

    ``priority`` 0 is the default and -1 (or lower) a higher priority, clamped to the device's
    range. Streams are blocking (they synchronise with the legacy NULL stream) unless
    ``blocking=False``. ``cuda_stream=handle`` wraps an existing CUstream (an int) that the
    caller keeps alive. Raises RuntimeError for a device that is not a CUDA device."""

    def __init__(self, device=None, priority=0, blocking=True, **kwargs):
        device = _cuda_device(device, "Stream")
        cuda_stream = kwargs.pop("cuda_stream", None)
        if kwargs:
            raise TypeError(f"Stream(): unexpected arguments {', '.join(kwargs)}")
        if cuda_stream is not None:
            native = _treadle.Stream.borrow(device.alias, int(cuda_stream))
        else:
            if not isinstance(priority, int) or isinstance(priority, bool):
                raise TypeError(f"Stream(): priority must be an int, got {type(priority).__name__}")
            native = _treadle.Stream(device.alias, priority, bool(blocking))
        self._init(device, native)

    def _init(self, device, native):
        self._native = native
        self.device = device
        self.cuda_stream = native.handle
        self._cached_event = None

    @classmethod
    def _wrap(cls, device, native):
        stream = cls.__new__(cls)
        stream._init(device, native)
        return stream

    @property
    def priority(self):
        """The stream's priority (lower numbers run first)."""
        return self._native.priority

    @property
    def is_blocking(self):
        """Whether the stream synchronises with the legacy NULL stream."""
        return self._native.is_blocking

    @property
    def is_complete(self):
        """Whether all work queued on the stream so far has finished."""
        return self._native.is_complete

    @property
    def is_capturing(self):
        """Whether the stream is capturing a graph."""
        return self._native.is_capturing

    @property
    def cached_event(self):
        """An event of this stream's device that wait_stream() records when given none."""
        if self._cached_event is None:
            self._cached_event = Event(self.device)
        return self._cached_event

    def record_event(self, event=None):
        """Records ``event`` (a new one when None) on this stream and returns it."""
        if event is None:
            event = Event(self.device)
        elif event.device != self.device:
            raise RuntimeError(
                f"Event from device {event.device} cannot be recorded on stream from device "
                f"{self.device}"
            )
        self._native.record(event._native)
        return event

    def wait_event(self, event):
        """Makes later work on this stream wait until ``event`` completes (the host does not
        wait)."""
        self._native.wait_event(event._native)

    def wait_stream(self, other_stream, event=None):
        """Makes later work on this stream wait for the work queued on ``other_stream`` so
        far, through ``event`` (the other stream's cached event when None)."""
        if event is None:
            event = other_stream.cached_event
        other_stream.record_event(event)
        self.wait_event(event)

    def synchronize(self):
        """Waits on the host until the work queued on the stream has finished."""
        self._native.synchronize()

    def __eq__(self, other):
        if not isinstance(other, Stream):
            return NotImplemented
        return self.cuda_stream == other.cuda_stream and self.device == other.device

    def __hash__(self):
        return hash((self.device.alias, self.cuda_stream))

    def __repr__(self):
        return f"<Stream {self.cuda_stream:#x} on {self.device}>"


class Event:
    """A CUDA event (Warp's ``wp.Event``): ``Event(device=None, enable_timing=False)``.
    Raises RuntimeError for a device that is not a CUDA device."""

    class Flags:
        DEFAULT = 0x0
        BLOCKING_SYNC = 0x1
        DISABLE_TIMING = 0x2
        INTERPROCESS = 0x4

    def __init__(self, device=None, cuda_event=None, enable_timing=False, interprocess=False):
        device = _cuda_device(device, "Event")
        if cuda_event is not None:
            raise RuntimeError("Event(): wrapping an existing CUDA event is not supported")
        if interprocess:
            raise RuntimeError("Event(): interprocess events are not supported")
        self._native = _treadle.Event(device.alias, bool(enable_timing))
        self.device = device
        self.enable_timing = bool(enable_timing)
        self.cuda_event = self._native.handle

    @property
    def is_complete(self):
        """Whether the work before the event's latest record has completed."""
        return self._native.is_complete

    def synchronize(self):
        """Waits on the host until the event completes."""
        self._native.synchronize()

    def __repr__(self):
        return f"<Event {self.cuda_event:#x} on {self.device}>"


class Graph:
    """A captured CUDA graph (from :func:`capture_end` or :class:`ScopedCapture`): replay it
    with :func:`capture_launch`. Arrays allocated during the capture hold the results of the
    latest launch."""

    def __init__(self, device, native):
        self.device = device
        self._native = native

    @property
    def graph_exec(self):
        """The CUgraphExec handle as an int (None for an external capture's graph)."""
        return None if self._native is None else self._native.exec_handle

    def __repr__(self):
        return f"<Graph on {self.device}>"


# --- current streams ------------------------------------------------------------------------


def get_stream(device=None):
    """The current stream of ``device`` (default: the current device). Raises RuntimeError
    for a device that is not a CUDA device."""
    device = _cuda_device(device, "get_stream()")
    native = _treadle.Stream.current(device.alias)
    stream = _current.get(device.alias)
    if stream is not None and stream.cuda_stream == native.handle:
        return stream
    default = _defaults.get(device.alias)
    if default is None:
        default = Stream._wrap(device, _treadle.Stream.device_default(device.alias))
        _defaults[device.alias] = default
    if default.cuda_stream == native.handle:
        return default
    return Stream._wrap(device, native)  # made current outside this module (C++)


def set_stream(stream, device=None, sync=False):
    """Makes ``stream`` the current stream of its device (for every thread). ``device``, when
    given, must be the stream's device. With ``sync``, ``stream`` first waits for the work
    queued on the previous current stream."""
    if device is not None:
        device = _cuda_device(device, "set_stream()")
        if device != stream.device:
            raise RuntimeError(
                f"Stream from device {stream.device} cannot be used on device {device}"
            )
    if sync:
        stream.wait_stream(get_stream(stream.device))
    _treadle.Stream.set_current(stream._native)
    _current[stream.device.alias] = stream


class ScopedStream:
    """Makes ``stream`` current on its device (and that device the current device) inside a
    ``with`` block. With ``sync_enter``, ``stream`` first waits for the previous current
    stream; with ``sync_exit``, the previous stream waits for ``stream`` on exit. A None
    stream does nothing."""

    def __init__(self, stream, sync_enter=True, sync_exit=False):
        self.stream = stream
        self.sync_enter = sync_enter
        self.sync_exit = sync_exit
        self.device = None if stream is None else stream.device
        self.saved_stream = None
        self._device_scope = None

    def __enter__(self):
        if self.stream is not None:
            from .context import ScopedDevice

            self._device_scope = ScopedDevice(self.device)
            self._device_scope.__enter__()
            self.saved_stream = get_stream(self.device)
            set_stream(self.stream, sync=self.sync_enter and self.saved_stream != self.stream)
        return self.stream

    def __exit__(self, exc_type, exc_value, traceback):
        if self.stream is not None:
            if self.sync_exit:
                self.saved_stream.wait_stream(self.stream)
            set_stream(self.saved_stream)
            self._device_scope.__exit__(exc_type, exc_value, traceback)
        return False


def wait_stream(other_stream, event=None):
    """Makes the current stream of the current device wait for the work queued on
    ``other_stream`` so far (which may be on another device)."""
    get_stream().wait_stream(other_stream, event=event)


def synchronize_stream(stream_or_device=None):
    """Waits on the host for the work queued on a stream (a Stream, or the current stream of a
    device). Errors of that work are raised here."""
    stream = (
        stream_or_device if isinstance(stream_or_device, Stream) else get_stream(stream_or_device)
    )
    stream.synchronize()


def record_event(event=None):
    """Records ``event`` (a new one when None) on the current stream of the current device."""
    return get_stream().record_event(event)


def wait_event(event):
    """Makes the current stream of the current device wait until ``event`` completes."""
    get_stream().wait_event(event)


def synchronize_event(event):
    """Waits on the host until ``event`` completes."""
    event.synchronize()


def get_event_elapsed_time(start_event, end_event, synchronize=True):
    """Milliseconds between two recorded events created with ``enable_timing=True``; with
    ``synchronize`` it waits for ``end_event`` first."""
    return _treadle.Event.elapsed_ms(start_event._native, end_event._native, synchronize)


# --- graph capture --------------------------------------------------------------------------


def _capture_target(device, stream, what):
    if stream is not None:
        return stream.device, stream
    device = get_device(device)
    if not device.is_cuda:
        raise RuntimeError(f"{what}: graph capture needs a CUDA device, not {device}")
    return device, get_stream(device)


def capture_begin(device=None, stream=None, force_module_load=None, external=False):
    """Begins capturing the work queued on ``stream`` (default: the current stream of
    ``device``) into a CUDA graph, in thread-local mode as Warp does. ``force_module_load``
    compiles every kernel for the device first; by default only with drivers older than CUDA
    12.3 (newer ones load kernels during capture) and when
    ``config.enable_graph_capture_module_load_by_default`` is set. ``external``: the capture
    was begun on the stream by other code."""
    device, stream = _capture_target(device, stream, "capture_begin()")
    if force_module_load is None:
        force_module_load = _treadle.cuda_driver_version() < 12030 and getattr(
            config, "enable_graph_capture_module_load_by_default", True
        )
    if force_module_load:
        from .launch import force_load

        force_load(device)
    _treadle.capture_begin(stream._native, 1, bool(external))
    _capturing[(device.alias, stream.cuda_stream)] = stream


def capture_end(device=None, stream=None):
    """Ends the capture begun with :func:`capture_begin` and returns its :class:`Graph`. The
    stream leaves capture mode even when this raises (RuntimeError: the capture was
    invalidated, e.g. by a synchronisation or a host copy during it)."""
    device, stream = _capture_target(device, stream, "capture_end()")
    try:
        native = _treadle.capture_end(stream._native)
    finally:
        _capturing.pop((device.alias, stream.cuda_stream), None)
    return Graph(device, native)


def capture_launch(graph, stream=None):
    """Launches ``graph`` on ``stream`` (default: the current stream of the graph's device)."""
    if graph._native is None:
        raise RuntimeError(
            "capture_launch(): the graph of an external capture belongs to its owner"
        )
    if stream is not None:
        if stream.device != graph.device:
            raise RuntimeError(
                f"capture_launch(): a graph of {graph.device} cannot run on a stream of "
                f"{stream.device}"
            )
        graph._native.launch(stream._native)
    else:
        graph._native.launch_current()


class ScopedCapture:
    """Captures the work of a ``with`` block into a graph, available as ``.graph`` afterwards:
    ``with wp.ScopedCapture() as capture: ...; wp.capture_launch(capture.graph)``. When the
    block raises, the capture is ended and discarded (the exception propagates) and the stream
    can capture again."""

    def __init__(self, device=None, stream=None, force_module_load=None, external=False):
        self.device = device
        self.stream = stream
        self.force_module_load = force_module_load
        self.external = external
        self.active = False
        self.graph = None

    def __enter__(self):
        device, stream = _capture_target(self.device, self.stream, "ScopedCapture")
        capture_begin(
            stream=stream, force_module_load=self.force_module_load, external=self.external
        )
        self.device, self.stream = device, stream
        self.active = True
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        if not self.active:
            return False
        self.active = False
        if exc_type is None:
            self.graph = capture_end(stream=self.stream)
            return False
        # Discarded: the block's exception wins (an invalidated capture has ended all the same).
        with contextlib.suppress(Exception):
            capture_end(stream=self.stream)
        return False


# --- memory pools ---------------------------------------------------------------------------


def is_mempool_supported(device=None):
    """Whether ``device`` supports stream-ordered allocation from a memory pool."""
    device = get_device(device)
    return device.is_cuda and device.is_mempool_supported


def is_mempool_enabled(device=None):
    """Whether arrays on ``device`` are allocated from its memory pool (False on the CPU)."""
    device = get_device(device)
    return device.is_cuda and _treadle.cuda_mempool_enabled(device.ordinal)


def set_mempool_enabled(device, enable):
    """Allocates later arrays of ``device`` from its memory pool (``enable``) or with plain
    cuMemAlloc. Graph capture allocates from the pool only."""
    device = get_device(device)
    if not device.is_cuda:
        if enable:
            raise ValueError("Memory pools are only supported on CUDA devices")
        return
    if enable and not device.is_mempool_supported:
        raise RuntimeError(f"Device {device} does not support memory pools")
    _treadle.cuda_set_mempool_enabled(device.ordinal, bool(enable))


def _pool_device(device, what):
    device = get_device(device)
    if not device.is_cuda:
        raise ValueError(f"{what}: memory pools are only supported on CUDA devices")
    if not device.is_mempool_supported:
        raise RuntimeError(f"{what}: device {device} does not support memory pools")
    return device


def set_mempool_release_threshold(device, threshold):
    """Bytes the pool of ``device`` keeps cached after a synchronisation instead of returning
    them to the system; a float in [0, 1] is a fraction of the device's memory."""
    device = _pool_device(device, "set_mempool_release_threshold()")
    if isinstance(threshold, float):
        if not 0.0 <= threshold <= 1.0:
            raise ValueError("a float threshold must be a fraction between 0.0 and 1.0")
        threshold = int(threshold * device.total_memory)
    if threshold < 0:
        raise ValueError("the threshold must not be negative")
    _treadle.cuda_set_mempool_release_threshold(device.ordinal, int(threshold))


def get_mempool_release_threshold(device=None):
    """The release threshold of the memory pool of ``device`` in bytes."""
    device = _pool_device(device, "get_mempool_release_threshold()")
    return _treadle.cuda_mempool_release_threshold(device.ordinal)


class ScopedMempool:
    """Turns the memory pool of ``device`` on or off inside a ``with`` block."""

    def __init__(self, device, enable):
        self.device = get_device(device)
        self.enable = enable
        self.saved = None

    def __enter__(self):
        self.saved = is_mempool_enabled(self.device)
        set_mempool_enabled(self.device, self.enable)

    def __exit__(self, exc_type, exc_value, traceback):
        set_mempool_enabled(self.device, self.saved)
        return False
