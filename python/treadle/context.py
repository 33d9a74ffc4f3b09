"""Devices (the CPU and CUDA devices), runtime initialisation, and each CUDA device's current
stream: get_device, init(), wp.Stream, wp.Event, get_stream/set_stream.

Each CUDA device has a *current stream*, shared by all threads (as in Warp): launches, copies,
fills and allocations without an explicit stream go there. It starts as the device's default
stream, a blocking stream (it synchronises with CUDA's legacy NULL stream) that treadle creates
with the device's primary context; set_stream and wp.ScopedStream choose another. The launch
path reads none of this: the native runtime keeps the current stream's handle per device."""

import platform
import threading

from . import _treadle, config
from . import cpu_capture as _cpu_capture
from .logger import log_banner


class Device:
    """A device kernels can run on and arrays can live on: ``"cpu"`` or ``"cuda:N"``.

    Compares equal to other Device objects with the same alias and to the alias string itself
    (``wp.get_device() == "cpu"``). Use :func:`get_device` to obtain one. The attributes follow
    Warp's: ``alias``, ``ordinal`` (-1 for the CPU), ``name``, ``arch`` (10 * major + minor
    compute capability, 0 for the CPU), ``sm_count``, ``max_shared_memory_per_block``,
    ``total_memory``, ``is_uva``, ``is_mempool_supported``, ``is_primary``..."""

    def __init__(self, native):
        self._native = native
        self.alias = native.alias
        self.ordinal = native.ordinal
        if native.is_cuda:
            info = _treadle.cuda_device_info(native.ordinal)
            self.name = info["name"]
            self.arch = info["arch"]
            self.sm_count = info["sm_count"]
            self.max_shared_memory_per_block = info["max_shared_memory_per_block"]
            self._total_memory = info["total_memory"]
            self.is_mempool_supported = info["memory_pools"]
            self.is_uva = True  # every 64-bit CUDA device treadle supports has unified addresses
            self.is_primary = True  # treadle uses each device's primary context
            self.is_cpu_memory_access_from_gpu_supported = info["pageable_memory_access"]
            self.is_gpu_memory_access_from_cpu_supported = info["host_managed_access"]
            self.is_cpu_gpu_atomic_supported = info["host_native_atomics"]
        else:
            self.name = platform.processor() or platform.machine() or "CPU"
            self.arch = 0
            self.sm_count = 0
            self.max_shared_memory_per_block = 0
            self._total_memory = 0
            self.is_mempool_supported = False
            self.is_uva = False
            self.is_primary = False
            self.is_cpu_memory_access_from_gpu_supported = False
            self.is_gpu_memory_access_from_cpu_supported = False
            self.is_cpu_gpu_atomic_supported = False
        self.is_ipc_supported = None  # not determined
        self.uuid = None
        self.pci_bus_id = None

    @property
    def is_cpu(self):
        """True for the host CPU."""
        return self._native.is_cpu

    @property
    def is_cuda(self):
        """True for a CUDA device."""
        return self._native.is_cuda

    @property
    def is_mempool_enabled(self):
        """Whether arrays on this device come from the stream-ordered memory pool (by default
        wherever the device supports one; see ``wp.set_mempool_enabled``)."""
        return self.is_cuda and _treadle.cuda_mempool_enabled(self.ordinal)

    @property
    def total_memory(self):
        """Total memory of a CUDA device in bytes (0 for the CPU)."""
        return self._total_memory

    @property
    def free_memory(self):
        """Free memory of a CUDA device in bytes, now (0 for the CPU)."""
        return _treadle.cuda_memory_info(self.ordinal)[0] if self.is_cuda else 0

    @property
    def is_capturing(self):
        """Whether the device's current stream is capturing a CUDA graph (for the CPU: whether
        this thread has a CPU capture open)."""
        if not self.is_cuda:
            return _cpu_capture.active() is not None
        return _treadle.Stream.current(self.alias).is_capturing

    @property
    def stream(self):
        """The device's current stream (``wp.get_stream(device)``); assigning one makes it
        current (``wp.set_stream``). RuntimeError on the CPU."""
        return get_stream(self)

    @stream.setter
    def stream(self, stream):
        set_stream(stream, self)

    @property
    def has_stream(self):
        """Whether the device has a current stream (every CUDA device does)."""
        return self.is_cuda

    @property
    def null_stream(self):
        """The legacy default (NULL) stream of a CUDA device, as a Stream (its handle is the
        driver's CU_STREAM_LEGACY); RuntimeError on the CPU."""
        if not self.is_cuda:
            raise RuntimeError(f"Device {self} is not a CUDA device, so it has no streams")
        return Stream._wrap(self, _treadle.Stream.borrow(self.alias, 1))

    def can_access(self, other):
        """Whether code running on this device can access memory allocated on ``other`` (a
        Device or alias): always for itself; a CUDA device reaches CPU memory where it can
        access pageable host memory; the CPU never reaches CUDA device memory. Between two
        CUDA devices: whether access to ``other``'s memory is enabled now (to its pool when it
        allocates from one, else peer access; see wp.set_peer_access_enabled)."""
        other = get_device(other)
        if other == self:
            return True
        if self.is_cuda and other.is_cpu:
            return self.is_cpu_memory_access_from_gpu_supported
        if self.is_cpu or other.is_cpu:
            return False
        if other.is_mempool_enabled:
            return _treadle.cuda_mempool_access_enabled(other.ordinal, self.ordinal)
        return _treadle.cuda_peer_access_enabled(other.ordinal, self.ordinal)

    @property
    def has_context(self):
        """Whether the device has a CUDA context (CUDA devices use their primary one)."""
        return self.is_cuda

    @property
    def context(self):
        """The device's CUDA context (its primary context, a CUcontext handle as an int); None
        for the CPU."""
        return _treadle.cuda_context(self.ordinal) if self.is_cuda else None

    def __str__(self):
        return self.alias

    def __repr__(self):
        return f'Device("{self.alias}")'

    def __eq__(self, other):
        if isinstance(other, Device):
            return self.alias == other.alias
        if isinstance(other, str):
            if other == "cuda":
                return self.is_cuda and self.ordinal == 0
            return other == self.alias
        return NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        return hash(self.alias)


_lock = threading.Lock()
_devices = {}
_initialized = False
_local = threading.local()
_default_device = None


def _kernel_cache_dir():
    if config.kernel_cache_dir:
        return str(config.kernel_cache_dir)
    native = getattr(_treadle, "kernel_cache_dir", None)
    return native() if native is not None else "(none)"


def _describe_cuda_device(ordinal):
    info = _treadle.cuda_device_info(ordinal)
    gib = info["total_memory"] / 2**30
    pool = ", mempool enabled" if info["memory_pools"] else ""
    return f'"cuda:{ordinal}" ({info["name"]}, {gib:.0f} GiB, sm_{info["arch"]}{pool})'


def _banner(cpu):
    devices = [f'"cpu" ({cpu.name})']
    if _treadle.cuda_available():
        devices += [_describe_cuda_device(i) for i in range(_treadle.cuda_device_count())]
        version = _treadle.cuda_driver_version()
        cuda = f"CUDA driver {version // 1000}.{version % 1000 // 10}"
    else:
        reason = _treadle.cuda_unavailable_reason()
        cuda = "CUDA: not available" + (f" ({reason})" if reason else "")
    return (
        f"Treadle {config.version} initialized: devices: {', '.join(devices)}; {cuda}; "
        f"kernel cache: {_kernel_cache_dir()}"
    )


on_init = []
"""Functions called once, when init() first initialises the runtime (modules forget the
hashes made before it)."""


def init():
    """Initialises the runtime (idempotent). Called implicitly by the first device or array
    use; prints a one-line banner listing the devices (to stderr, or to an installed logger)
    the first time unless ``config.quiet`` is set. The default device is the preferred one: ``"cuda:0"`` when CUDA is available,
    else ``"cpu"``."""
    global _initialized, _default_device
    if _initialized:
        return
    with _lock:
        if _initialized:
            return
        cpu = Device(_treadle.Device.cpu())
        _devices["cpu"] = cpu
        _default_device = cpu
        if _treadle.cuda_device_count() > 0:
            _devices["cuda:0"] = Device(_treadle.Device.parse("cuda:0"))
            _default_device = _devices["cuda:0"]
        _initialized = True
    for hook in on_init:
        hook()
    if not config.quiet:
        log_banner(_banner(cpu))


def get_device(ident=None):
    """The Device for ``ident``: None (the current default device), a Device, or an alias
    (``"cpu"``, ``"cuda"``, ``"cuda:N"``; ``"cuda"`` is the current device when that is a
    CUDA device, else ``"cuda:0"``). Raises ValueError for an unknown or unavailable device
    (``"CUDA is not available ..."``, ``"cuda:3 does not exist ..."``), TypeError for an
    argument of another type."""
    init()
    current = getattr(_local, "device", None) or _default_device
    if ident is None:
        return current
    if isinstance(ident, str) and ident == "cuda" and current.is_cuda:
        return current
    if isinstance(ident, Device):
        return ident
    if not isinstance(ident, str):
        raise TypeError(
            f"get_device(): expected a Device, a device alias string or None, got "
            f"{type(ident).__name__}"
        )
    device = _devices.get(ident)
    if device is None:
        native = _treadle.Device.parse(ident)  # raises ValueError for bad / missing devices
        device = _devices.setdefault(native.alias, Device(native))
    return device


def set_device(ident):
    """Makes ``ident`` the default device of this program (all threads)."""
    global _default_device
    device = get_device(ident)
    _default_device = device
    _local.device = None


def get_preferred_device():
    """The best available device: the first CUDA device if there is one, else the CPU."""
    cuda = get_cuda_devices()
    return cuda[0] if cuda else get_device("cpu")


def get_devices():
    """Every available device, the CPU first."""
    return [get_device("cpu"), *get_cuda_devices()]


def get_cuda_device_count():
    """Number of CUDA devices treadle can use (0 when CUDA is not available)."""
    return _treadle.cuda_device_count()


def get_cuda_devices():
    """The CUDA devices treadle can use (an empty list when CUDA is not available)."""
    return [get_device(f"cuda:{i}") for i in range(get_cuda_device_count())]


def unmap_cuda_device(alias):
    """Warp's removal of a CUDA device alias made by ``map_cuda_device``. treadle maps no
    aliases of its own (its CUDA devices are ``cuda:N``, which cannot be removed), so an alias
    that names no CUDA device raises Warp's RuntimeError and a ``cuda:N`` device
    NotImplementedError."""
    try:
        device = get_device(alias) if isinstance(alias, str) else None
    except ValueError:  # an unknown or unavailable device
        device = None
    if device is None or not getattr(device, "is_cuda", False):
        raise RuntimeError(f"Invalid CUDA device alias '{alias}'")
    raise NotImplementedError(
        f"unmap_cuda_device(): '{alias}' is one of treadle's own CUDA devices, which cannot be "
        "removed (treadle has no map_cuda_device)")


def get_cuda_device(ordinal=None):
    """The CUDA device with this ordinal (the current CUDA device when None)."""
    return get_device("cuda" if ordinal is None else f"cuda:{ordinal}")


def is_cuda_available():
    """Whether a CUDA device can be used."""
    return _treadle.cuda_available()


def get_cuda_supported_archs():
    """The GPU architectures treadle's CUDA compiler (NVRTC) builds for, as sorted ints (75 for
    sm_75, ...); empty when NVRTC is not available (a GPU is not needed)."""
    return list(_treadle.nvrtc_supported_archs())


def get_cuda_driver_version():
    """The installed CUDA driver's version as (major, minor), e.g. (12, 3); None without CUDA."""
    if not _treadle.cuda_available():
        return None
    version = _treadle.cuda_driver_version()  # the driver's 1000 * major + 10 * minor
    return (version // 1000, (version % 1000) // 10)


def is_conditional_graph_supported():
    """Whether CUDA graph captures can hold conditional nodes (wp.capture_if/wp.capture_while):
    a CUDA 12.4+ driver, NVRTC and the CUDA toolkit's libcudadevrt.a (TREADLE_CUDADEVRT names
    it where it is not found)."""
    return _treadle.cuda_available() and _treadle.cuda_conditional_supported()


def is_cpu_available():
    """Whether kernels can run on the CPU (always)."""
    return True


def is_device_available(device):
    """Whether ``device`` (a Device or alias) can be used."""
    try:
        get_device(device)
    except ValueError:
        return False
    return True


def _refuse_during_capture(device, what):
    if device.is_cuda and _treadle.Stream.current(device.alias).is_capturing:
        raise RuntimeError(f"Cannot synchronize {what} while graph capture is active on {device}")


def synchronize():
    """Waits for all outstanding work on every CUDA device in use (CPU work is synchronous).
    Errors of earlier asynchronous work are raised here; RuntimeError during a capture."""
    init()
    cuda = [d for d in list(_devices.values()) if d.is_cuda]
    for device in cuda:
        _refuse_during_capture(device, "device")
    for device in cuda:
        _treadle.synchronize_device(device.ordinal)


def synchronize_device(device=None):
    """Waits for all outstanding work on ``device`` (default: the current device; CPU work is
    synchronous). Errors of earlier asynchronous work are raised here; RuntimeError during a
    capture."""
    device = get_device(device)
    if device.is_cuda:
        _refuse_during_capture(device, "device")
        _treadle.synchronize_device(device.ordinal)


class ScopedDevice:
    """Context manager that makes ``device`` the default device of this thread inside the
    ``with`` block: ``with wp.ScopedDevice("cpu"): ...``."""

    def __init__(self, device):
        self.device = get_device(device)
        self._saved = None

    def __enter__(self):
        self._saved = getattr(_local, "device", None)
        _local.device = self.device
        return self.device

    def __exit__(self, exc_type, exc_value, traceback):
        _local.device = self._saved
        return False


# --- streams and events (the current stream of each CUDA device) -------------------------

# The Stream object that is current on each device (alias -> Stream): keeps a stream set with
# set_stream alive while it is current. The default streams' objects, made once.
_current = {}
_defaults = {}


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
            # Warp's two levels: -1 (or lower) is high, 0 (or higher) the default.
            native = _treadle.Stream(device.alias, -1 if priority < 0 else 0, bool(blocking))
        self._init(device, native)
        if cuda_stream is None:
            self._is_blocking = bool(blocking)  # known without asking the driver

    def _init(self, device, native):
        self._native = native
        self.device = device
        self.cuda_stream = native.handle
        self._cached_event = None
        self._is_blocking = None  # asked once, when first needed

    @classmethod
    def _wrap(cls, device, native):
        stream = cls.__new__(cls)
        stream._init(device, native)
        return stream

    def __del__(self):
        # Drops this object's hold on the native stream, which destroys the CUDA stream once
        # nothing else (a current-stream slot, a capture) holds it; a borrowed handle stays
        # its owner's. Safe on an instance whose __init__ never ran.
        self.__dict__.pop("_native", None)

    @property
    def priority(self):
        """The stream's priority as Warp gives it: -1 (high) or 0 (low, the default)."""
        return -1 if self._native.priority < 0 else 0

    @property
    def is_blocking(self):
        """Whether the stream synchronises with the legacy NULL stream."""
        if self._is_blocking is None:
            self._is_blocking = self._native.is_blocking
        return self._is_blocking

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

    def record_event(self, event=None, external=False):
        """Records ``event`` (a new one when None) on this stream and returns it. ``external``:
        during a capture, the graph records the event at that point of each launch (so another
        graph or stream can wait for it)."""
        if event is None:
            event = Event(self.device)
        elif event.device != self.device:
            raise RuntimeError(
                f"Event from device {event.device} cannot be recorded on stream from device "
                f"{self.device}"
            )
        # A timing event recorded in a capture marks that point of every replay (an event
        # record node), so elapsed times can be taken between replays' events.
        external = bool(external) or (event.enable_timing and self._native.is_capturing)
        self._native.record(event._native, external)
        return event

    def wait_event(self, event, external=False):
        """Makes later work on this stream wait until ``event`` completes (the host does not
        wait). ``external``: during a capture, each launch of the graph waits for the event's
        latest record."""
        self._native.wait_event(event._native, bool(external))

    def wait_stream(self, other_stream, event=None):
        """Makes later work on this stream wait for the work queued on ``other_stream`` so
        far, through ``event`` (the other stream's cached event when None)."""
        if event is None:
            event = other_stream.cached_event
        other_stream.record_event(event)
        self.wait_event(event)

    def synchronize(self):
        """Waits on the host until the work queued on the stream has finished (RuntimeError
        while the stream is capturing)."""
        if self._native.is_capturing:
            raise RuntimeError("Cannot synchronize stream while graph capture is active")
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

    def __del__(self):
        # Drops the hold on the native event (destroyed with the last one); safe on an
        # instance whose __init__ never ran.
        self.__dict__.pop("_native", None)

    @property
    def is_complete(self):
        """Whether the work before the event's latest record has completed."""
        return self._native.is_complete

    def synchronize(self):
        """Waits on the host until the event completes."""
        self._native.synchronize()

    def __repr__(self):
        return f"<Event {self.cuda_event:#x} on {self.device}>"


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


