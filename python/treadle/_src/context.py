"""treadle._src.context: the names programs use from Warp's private context module (a
compatibility layer, not treadle's API).

``runtime`` is a view of treadle's device registry with the few methods such programs call;
``init``, ``log_warning``, ``Module`` and ``_get_caller_module_name`` are treadle's own and
``builtin_functions`` maps each builtin's name to treadle's callable builtin object and
``user_modules`` is treadle's registry of modules by name. Warp's
code builders (``ModuleBuilder``, ``ModuleHasher``) exist by name and raise
NotImplementedError.
"""

import inspect  # noqa: F401 - Warp's tests patch warp._src.context.inspect.getmodule
import sys  # noqa: F401 - and warp._src.context.sys._getframe

from .. import config as _config
from .. import context as _context
from ..builtin_functions import BUILTINS as builtin_functions  # noqa: F401
from ..context import init as init  # noqa: F401
from ..logger import log_warning as log_warning  # noqa: F401
from ..module import Module as Module  # noqa: F401
from ..module import ModuleExec as ModuleExec  # noqa: F401
from ..module import _modules as user_modules  # noqa: F401 - every module by name
from ..module import caller_module_name as _get_caller_module_name  # noqa: F401
from ..stream import capture_pause as capture_pause  # noqa: F401
from ..stream import capture_resume as capture_resume  # noqa: F401
from . import native_core as _native_core


class _WarpBuildInternals:
    """Warp's code builders, which treadle does not have (its compiler is C++): constructing
    one raises NotImplementedError naming what to use instead."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError(
            f"{type(self).__name__}: treadle builds kernels in C++ and has no Python code "
            "builder; use Module.load(), Module.hash_module() or wp.Kernel instead")


class ModuleBuilder(_WarpBuildInternals):
    """Warp's per-module code builder (not in treadle)."""


class ModuleHasher(_WarpBuildInternals):
    """Warp's per-module hasher (not in treadle; see Module.hash_module())."""


class _Runtime:
    """The runtime as Warp's private ``runtime`` object presents it, over treadle's state."""

    @property
    def device_map(self):
        """Every device by alias ("cpu", "cuda:0", ...): treadle's registry itself."""
        _context.init()
        return _context._devices

    @property
    def core(self):
        """The entry points of Warp's native library that treadle provides
        (native_core.NativeCore)."""
        return _native_core.core

    def get_device(self, ident=None):
        """The Device for `ident` (None: the current default device); as wp.get_device."""
        return _context.get_device(ident)

    def verify_cuda_device(self, device=None):
        """With ``config.verify_cuda``, waits for `device` (a CUDA device) and raises the
        error an earlier kernel left on it; otherwise does nothing."""
        if not _config.verify_cuda:
            return
        device = _context.get_device(device)
        if device.is_cuda:
            _context.synchronize_device(device)


runtime = _Runtime()
"""The runtime (Warp's ``warp._src.context.runtime``)."""


def _is_graph_capture_allocation_supported(device=None):
    """Whether arrays can be allocated on `device` during a graph capture: always on the CPU
    (host memory, kept alive by the graph's steps), on a CUDA device when it has memory pools
    (stream-ordered allocation is the only kind a capture records)."""
    device = _context.get_device(device)
    return bool(device.is_cpu or device.is_mempool_supported)


def _is_graph_capture_allocation_enabled(device=None):
    """Whether allocation during a capture is possible now on `device`: supported, and its
    memory pool enabled."""
    device = _context.get_device(device)
    if device.is_cpu:
        return True
    return _is_graph_capture_allocation_supported(device) and device.is_mempool_enabled
