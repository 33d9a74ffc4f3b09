"""CUDA graph capture, stream scopes and synchronisation, and memory pools with Warp's API:
wp.ScopedStream, wp.ScopedCapture, wp.capture_begin, wp.set_mempool_enabled... (the Stream and
Event classes and the current streams are in context.py)."""

import contextlib
import enum
import threading

from . import _treadle, config
from . import cpu_capture as _cpu_capture
from . import scratch as _scratch
from .context import ScopedDevice, Stream, get_device, get_stream, set_stream
from .module import force_load

# Streams being captured (device alias, handle) -> Stream, kept alive until the capture ends.
_capturing = {}


class Graph:
    """A captured CUDA graph (from :func:`capture_end` or :class:`ScopedCapture`): replay it
    with :func:`capture_launch`. Arrays allocated during the capture hold the results of the
    latest launch."""

    def __init__(self, device, native, cpu_steps=None):
        self.device = device
        self._native = native
        self._cpu_steps = cpu_steps  # a CPU graph: its recorded steps (cpu_capture.py)

    @property
    def graph_exec(self):
        """The CUgraphExec handle as an int (None for an external capture's graph)."""
        return None if self._native is None else self._native.exec_handle

    def __repr__(self):
        return f"<Graph on {self.device}>"


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
    device). Errors of that work are raised here. The CPU has no streams: its work is done
    when a call returns, so for the CPU this does nothing (as wp.synchronize_device)."""
    if not isinstance(stream_or_device, Stream):
        device = get_device(stream_or_device)
        if not device.is_cuda:
            return
        stream_or_device = get_stream(device)
    stream_or_device.synchronize()


def record_event(event=None, external=False):
    """Records ``event`` (a new one when None) on the current stream of the current device;
    ``external`` as in Stream.record_event."""
    return get_stream().record_event(event, external)


def wait_event(event, external=False):
    """Makes the current stream of the current device wait until ``event`` completes;
    ``external`` as in Stream.wait_event."""
    get_stream().wait_event(event, external)


def synchronize_event(event):
    """Waits on the host until ``event`` completes (RuntimeError while its device captures)."""
    if event.device.is_capturing:
        raise RuntimeError("Cannot synchronize event while graph capture is active")
    event.synchronize()


def get_event_elapsed_time(start_event, end_event, synchronize=True):
    """Milliseconds between two recorded events created with ``enable_timing=True``; with
    ``synchronize`` it waits for ``end_event`` first."""
    return _treadle.Event.elapsed_ms(start_event._native, end_event._native, synchronize)


# --- graph capture --------------------------------------------------------------------------


# Open CPU captures: (thread id, device alias) -> cpu_capture.Recorder.
_cpu_recorders = {}


def _capture_target(device, stream, what):
    """(device, stream) of a capture; the stream is None for the CPU, which has none."""
    if stream is not None:
        return stream.device, stream
    device = get_device(device)
    if not device.is_cuda:
        return device, None
    return device, get_stream(device)


def _cpu_key(device):
    return (threading.get_ident(), device.alias)


class CaptureMode(enum.IntEnum):
    """How strictly the CUDA driver refuses capture-unsafe calls during a capture (its
    CUstreamCaptureMode): GLOBAL (from any thread), THREAD_LOCAL (from the capturing thread,
    the default) or RELAXED (tolerated)."""

    GLOBAL = 0
    THREAD_LOCAL = 1
    RELAXED = 2


def _check_capture_options(apic, capture_mode, what):
    if apic:
        raise NotImplementedError(
            f"{what}: apic=True (APIC serialization: recording the capture for a .wrp file "
            "with capture_save()) is not supported by treadle")
    try:
        return int(CaptureMode(capture_mode))
    except ValueError:
        raise ValueError(f"{what}: capture_mode must be a wp.CaptureMode, got "
                         f"{capture_mode!r}") from None


def capture_begin(device=None, stream=None, force_module_load=None, external=False, apic=False,
                  capture_mode=CaptureMode.THREAD_LOCAL):
    """Begins capturing the work queued on ``stream`` (default: the current stream of
    ``device``) into a CUDA graph, by default in thread-local mode (``capture_mode``, a
    CaptureMode; with ``external``, the mode the capture was begun with). ``apic=True``
    (Warp's serialisable recording) raises NotImplementedError. ``force_module_load``
    compiles every kernel for the device first; by default only with drivers older than CUDA
    12.3 (newer ones load kernels during capture) and when
    ``config.enable_graph_capture_module_load_by_default`` is set. ``external``: the capture
    was begun on the stream by other code. On the CPU the capture records the work this
    thread queues for the CPU (cpu_capture.py)."""
    mode = _check_capture_options(apic, capture_mode, "capture_begin()")
    device, stream = _capture_target(device, stream, "capture_begin()")
    if stream is None:  # the CPU
        if external:
            raise RuntimeError("capture_begin(): an external capture is a CUDA stream capture")
        if _cpu_key(device) in _cpu_recorders:
            raise RuntimeError("capture_begin(): a CPU capture is already open on this thread")
        if force_module_load:
            force_load(device)
        _cpu_recorders[_cpu_key(device)] = _cpu_capture.begin()
        return
    if force_module_load is None:
        force_module_load = _treadle.cuda_driver_version() < 12030 and getattr(
            config, "enable_graph_capture_module_load_by_default", True
        )
    if force_module_load:
        force_load(device)
    _treadle.capture_begin(stream._native, mode, bool(external))
    _capturing[(device.alias, stream.cuda_stream)] = stream
    _scratch.capture_began(device)


def capture_end(device=None, stream=None):
    """Ends the capture begun with :func:`capture_begin` and returns its :class:`Graph`. The
    stream leaves capture mode even when this raises (RuntimeError: the capture was
    invalidated, e.g. by a synchronisation or a host copy during it)."""
    device, stream = _capture_target(device, stream, "capture_end()")
    if stream is None:  # the CPU
        recorder = _cpu_recorders.pop(_cpu_key(device), None)
        if recorder is None:
            raise RuntimeError("capture_end(): no CPU capture is open on this thread")
        return Graph(device, None, _cpu_capture.end(recorder))
    try:
        native = _treadle.capture_end(stream._native)
    finally:
        _capturing.pop((device.alias, stream.cuda_stream), None)
        used = _scratch.capture_ended(device)
    graph = Graph(device, native)
    graph._keepalive = used  # the utilities' scratch buffers the graph works in
    return graph


def capture_pause(device=None, stream=None):
    """Pauses the CUDA capture open on ``stream`` (default: the current stream of ``device``):
    work queued meanwhile runs at once and memory allocated meanwhile is ordinary memory (to
    grow a buffer the capture uses, say). Returns the graph captured so far, for
    :func:`capture_resume`."""
    device, stream = _capture_target(device, stream, "capture_pause()")
    if stream is None:
        raise RuntimeError("capture_pause(): only CUDA captures can be paused")
    return _treadle.capture_pause(stream._native)


def capture_resume(graph, device=None, stream=None):
    """Resumes the capture paused by :func:`capture_pause` (which returned ``graph``) where it
    stopped."""
    device, stream = _capture_target(device, stream, "capture_resume()")
    if stream is None:
        raise RuntimeError("capture_resume(): only CUDA captures can be paused")
    _treadle.capture_resume(stream._native, int(graph))


def capture_debug_dot_print(graph, path, verbose=False):
    """Writes a captured CUDA ``graph`` as GraphViz text (``.dot``) to ``path``; ``verbose``
    adds every node's parameters."""
    if not isinstance(graph, Graph) or graph._native is None:
        raise TypeError("capture_debug_dot_print(): expected a Graph from a CUDA capture")
    graph._native.debug_dot_print(str(path), bool(verbose))


def capture_launch(graph, stream=None):
    """Launches ``graph`` on ``stream`` (default: the current stream of the graph's device)."""
    if graph._cpu_steps is not None:
        if stream is not None:
            raise RuntimeError("capture_launch(): a CPU graph runs on no stream")
        _cpu_capture.replay(graph._cpu_steps)
        return
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

    def __init__(self, device=None, stream=None, force_module_load=None, external=False,
                 apic=False, capture_mode=CaptureMode.THREAD_LOCAL):
        _check_capture_options(apic, capture_mode, "ScopedCapture")
        self.device = device
        self.stream = stream
        self.force_module_load = force_module_load
        self.external = external
        self.capture_mode = capture_mode
        self.active = False
        self.graph = None

    def __enter__(self):
        device, stream = _capture_target(self.device, self.stream, "ScopedCapture")
        capture_begin(
            device=device, stream=stream, force_module_load=self.force_module_load,
            external=self.external, capture_mode=self.capture_mode
        )
        self.device, self.stream = device, stream
        self.active = True
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        if not self.active:
            return False
        self.active = False
        if exc_type is None:
            self.graph = capture_end(device=self.device, stream=self.stream)
            return False
        # Discarded: the block's exception wins (an invalidated capture has ended all the same).
        with contextlib.suppress(Exception):
            capture_end(device=self.device, stream=self.stream)
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


def get_mempool_used_mem_current(device=None):
    """Bytes of the memory pool of ``device`` that allocations use now."""
    device = _pool_device(device, "get_mempool_used_mem_current()")
    return _treadle.cuda_mempool_used_current(device.ordinal)


def get_mempool_used_mem_high(device=None):
    """The most bytes of the memory pool of ``device`` in use at once so far."""
    device = _pool_device(device, "get_mempool_used_mem_high()")
    return _treadle.cuda_mempool_used_high(device.ordinal)


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
