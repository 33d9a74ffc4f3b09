"""The CUDA driver's profiler switches (cuProfilerStart / cuProfilerStop), called with a given
CUDA context made current; nothing happens without the CUDA driver or with a null context.
These are what ``runtime.core.wp_cuda_profiler_start`` / ``_stop`` run."""

import ctypes

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
