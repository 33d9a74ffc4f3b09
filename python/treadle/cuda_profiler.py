"""CUDA profiler control: wp.cuda_profiler_start / cuda_profiler_stop and wp.ScopedCudaProfiler.

They bracket the region an external profiler (Nsight Systems with
``--capture-range=cudaProfilerApi``) records, through the driver's ``cuProfilerStart`` and
``cuProfilerStop`` with the device's context made current for the call. A CPU device, or a
machine without the CUDA driver, makes them do nothing.
"""

import ctypes

from . import context as _context

_driver = None


def _driver_lib():
    """The CUDA driver library (None without a driver)."""
    global _driver
    if _driver is None:
        try:
            _driver = ctypes.CDLL("libcuda.so.1")
        except OSError:
            _driver = False
    return _driver or None


def _profiler_call(context, name):
    lib = _driver_lib()
    if lib is None or not context:
        return
    ctx = ctypes.c_void_p(int(context))
    if lib.cuCtxPushCurrent_v2(ctx) != 0:
        raise RuntimeError(f"{name}: the device's CUDA context could not be made current")
    try:
        status = getattr(lib, name)()
    finally:
        lib.cuCtxPopCurrent_v2(ctypes.byref(ctypes.c_void_p()))
    if status != 0:
        raise RuntimeError(f"{name} failed with CUDA driver error {status}")


def profiler_start_native(context):
    """Starts profiler collection in the CUDA context `context` (an int handle)."""
    _profiler_call(context, "cuProfilerStart")


def profiler_stop_native(context):
    """Stops profiler collection in the CUDA context `context` (an int handle)."""
    _profiler_call(context, "cuProfilerStop")


def _core():
    from ._src import native_core

    return native_core.core


def cuda_profiler_start(device=None):
    """Starts CUDA profiler collection on `device` (None: the default device); a CPU device
    does nothing."""
    device = _context.get_device(device)
    if device.is_cuda:
        _core().wp_cuda_profiler_start(device.context)


def cuda_profiler_stop(device=None):
    """Stops CUDA profiler collection on `device` (None: the default device); a CPU device
    does nothing."""
    device = _context.get_device(device)
    if device.is_cuda:
        _core().wp_cuda_profiler_stop(device.context)


class ScopedCudaProfiler:
    """Starts CUDA profiler collection on `device` for the duration of a with block. A failure
    to stop is raised unless the block itself raised (its exception is kept)."""

    def __init__(self, device=None):
        self.device = device

    def __enter__(self):
        from . import cuda_profiler_start as start  # looked up on the package, as Warp's

        start(device=self.device)
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        from . import cuda_profiler_stop as stop

        try:
            stop(device=self.device)
        except Exception:
            if exc_type is None:
                raise
        return False
