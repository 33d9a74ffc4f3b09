"""CUDA profiler control: wp.cuda_profiler_start / cuda_profiler_stop and wp.ScopedCudaProfiler.

They bracket the region an external profiler (Nsight Systems with
``--capture-range=cudaProfilerApi``) records, through the driver's ``cuProfilerStart`` and
``cuProfilerStop`` with the device's context made current for the call. A CPU device, or a
machine without the CUDA driver, makes them do nothing.
"""

from . import context as _context
from ._src import native_core as _native_core


def cuda_profiler_start(device=None):
    """Starts CUDA profiler collection on `device` (None: the default device); a CPU device
    does nothing."""
    device = _context.get_device(device)
    if device.is_cuda:
        _native_core.core.wp_cuda_profiler_start(device.context)


def cuda_profiler_stop(device=None):
    """Stops CUDA profiler collection on `device` (None: the default device); a CPU device
    does nothing."""
    device = _context.get_device(device)
    if device.is_cuda:
        _native_core.core.wp_cuda_profiler_stop(device.context)


class ScopedCudaProfiler:
    """Starts CUDA profiler collection on `device` for the duration of a with block. A failure
    to stop is raised unless the block itself raised (its exception is kept)."""

    def __init__(self, device=None):
        self.device = device

    def __enter__(self):
        cuda_profiler_start(device=self.device)
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        try:
            cuda_profiler_stop(device=self.device)
        except Exception:
            if exc_type is None:
                raise
        return False
