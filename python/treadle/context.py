"""Devices and runtime initialisation: get_device, set_device, ScopedDevice, init()..."""

import platform
import threading

from . import _treadle, config


class Device:
    """A device kernels can run on and arrays can live on: ``"cpu"`` (``"cuda:N"`` later).

    Compares equal to other Device objects with the same alias and to the alias string itself
    (``wp.get_device() == "cpu"``). Use :func:`get_device` to obtain one."""

    def __init__(self, native):
        self._native = native
        self.alias = native.alias
        self.ordinal = native.ordinal
        self.name = (platform.processor() or platform.machine() or "CPU") if native.is_cpu else ""
        self.arch = 0

    @property
    def is_cpu(self):
        """True for the host CPU."""
        return self._native.is_cpu

    @property
    def is_cuda(self):
        """True for a CUDA device."""
        return self._native.is_cuda

    @property
    def is_capturing(self):
        """Whether a CUDA graph capture is active on this device (never, without CUDA)."""
        return False

    @property
    def context(self):
        """The device's CUDA context handle (None for the CPU)."""
        return None

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


def init():
    """Initialises the runtime (idempotent). Called implicitly by the first device or array
    use; prints a one-line banner the first time unless ``config.quiet`` is set."""
    global _initialized, _default_device
    if _initialized:
        return
    with _lock:
        if _initialized:
            return
        cpu = Device(_treadle.Device.cpu())
        _devices["cpu"] = cpu
        _default_device = cpu
        _initialized = True
    if not config.quiet:
        print(
            f'Treadle {config.version} initialized: devices: "cpu" ({cpu.name}); '
            f"CUDA: not available; kernel cache: {_kernel_cache_dir()}"
        )


def get_device(ident=None):
    """The Device for ``ident``: None (the current default device), a Device, or an alias
    (``"cpu"``, ``"cuda"``, ``"cuda:N"``). Raises ValueError for an unknown or unavailable
    device, TypeError for an argument of another type."""
    init()
    if ident is None:
        return getattr(_local, "device", None) or _default_device
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
    """Number of CUDA devices treadle can use."""
    return _treadle.cuda_device_count()


def get_cuda_devices():
    """The CUDA devices treadle can use (none until the CUDA back end exists)."""
    return [get_device(f"cuda:{i}") for i in range(get_cuda_device_count())]


def get_cuda_device(ordinal=None):
    """The CUDA device with this ordinal (the current CUDA device when None)."""
    return get_device("cuda" if ordinal is None else f"cuda:{ordinal}")


def is_cuda_available():
    """Whether a CUDA device can be used."""
    return get_cuda_device_count() > 0


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


def synchronize():
    """Waits for all outstanding work on every device (CPU work is synchronous)."""
    init()


def synchronize_device(device=None):
    """Waits for all outstanding work on ``device`` (CPU work is synchronous)."""
    get_device(device)


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
