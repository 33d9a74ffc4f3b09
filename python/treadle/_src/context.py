"""treadle._src.context: the names programs use from Warp's private context module (a
compatibility layer, not treadle's API).

``runtime`` is a view of treadle's device registry with the few methods such programs call;
``init``, ``log_warning``, ``Module`` and ``_get_caller_module_name`` are treadle's own and
``builtin_functions`` maps each builtin's name to treadle's callable builtin object and
``user_modules`` is treadle's registry of modules by name. ``ModuleHasher`` is treadle's
module hash (module_hash.py) and ``ModuleBuilder`` presents the generated code of a module's
kernels the way Warp's builder does.
"""

import inspect  # noqa: F401 - Warp's tests patch warp._src.context.inspect.getmodule
import sys  # noqa: F401 - and warp._src.context.sys._getframe

from .. import _treadle
from .. import context as _context
from .. import memory_tracker as _memory_tracker
from ..array import array as _array
from ..builtin_functions import BUILTINS as builtin_functions  # noqa: F401
from ..context import init as init  # noqa: F401
from ..logger import log_warning as log_warning  # noqa: F401
from ..module import Module as Module  # noqa: F401
from ..module import ModuleExec as ModuleExec  # noqa: F401
from ..module_hash import ModuleHasher as ModuleHasher  # noqa: F401
from ..module import _modules as user_modules  # noqa: F401 - every module by name
from ..module import caller_module_name as _get_caller_module_name  # noqa: F401
from ..stream import capture_pause as capture_pause  # noqa: F401
from ..stream import capture_resume as capture_resume  # noqa: F401
from . import native_core as _native_core


def type_str(t):
    """The name Warp's messages give type `t`: an array as ``array(ndim=N, dtype=...)``, a
    tuple of types as ``Tuple[...]``, anything else by its class name (the three hash grid
    query types are all ``HashGridQuery``)."""
    if isinstance(t, (tuple, list)):
        return "Tuple[" + ", ".join(type_str(x) for x in t) + "]"
    if isinstance(t, _array):
        return f"array(ndim={t.ndim}, dtype={type_str(t.dtype)})"
    return getattr(t, "__name__", str(t))


def _is_cuda_target(device):
    """Whether `device` (a Device, or a name such as "cpu", "cuda" or "cuda:1") is a CUDA
    target; a name is read as written, so CUDA code can be generated without a GPU."""
    if isinstance(device, str):
        return device.startswith("cuda")
    return bool(device.is_cuda)


class ModuleBuilder:
    """The code of a module's kernels for one device, as Warp's module builder presents it.

    treadle compiles each kernel on its own (one translation unit per kernel and device), so
    ``codegen(device)`` is the generated source of every kernel the hasher lists, in its
    (key, digest) order, one translation unit after another; for CUDA it is preceded by the
    declarations of ``ltoirs_decl``. ``ltoirs``, ``ltoirs_decl`` and ``fatbins`` hold
    link-time objects by symbol (treadle makes none itself), listed in symbol order so the
    output never depends on the order they were added in."""

    def __init__(self, module, options, hasher=None):
        self.module = module
        self.options = dict(options)
        if hasher is None:
            hasher = ModuleHasher(module._get_live_kernels(), self.options)
        self.hasher = hasher
        self.kernels = list(hasher.kernels)
        self.ltoirs = {}
        self.ltoirs_decl = {}
        self.fatbins = {}

    def _built_kernels(self):
        # a generic kernel has no code of its own: each specialisation builds when launched
        return [k for k in self.kernels if not k._generic_params]

    def codegen(self, device):
        """The generated source for `device` (see the class description)."""
        cuda = _is_cuda_target(device)
        verify_fp = bool(self.options.get("verify_fp"))
        parts = [self.ltoirs_decl[s] for s in sorted(self.ltoirs_decl)] if cuda else []
        for k in self._built_kernels():
            parts.append(_treadle.kernel_source(
                k._function_source(), cuda=cuda, launch_bounds=k.options.get("launch_bounds"),
                verify_fp=verify_fp))
        return "\n".join(parts)

    def build_meta(self):
        """What the build records about each kernel, by its mangled name (key and the first
        16 hex digits of its digest): its key and full digest (hex)."""
        meta = {}
        for k in self._built_kernels():
            digest = self.hasher.get_kernel_hash(k).hex()
            meta[f"{k.key}_{digest[:16]}"] = {"key": k.key, "hash": digest}
        return meta

    def get_link_inputs(self):
        """(LTO objects, fat binaries) to link, each list in symbol order."""
        return ([self.ltoirs[s] for s in sorted(self.ltoirs)],
                [self.fatbins[s] for s in sorted(self.fatbins)])


runtime = _native_core.runtime
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


def alloc_tracker_report_text(sort_order=0, max_items=10):
    """The memory tracker's report as text (Warp's ``alloc_tracker_report_text``)."""
    return _memory_tracker.report_text(sort_order, max_items)


def _smem_shortfall_clause(block_dim, requested, static, device_max):
    """How a dynamic shared memory request of `requested` bytes misses what a kernel can have
    (Warp's helper for its launch warnings): None when the static size is unknown (`static`
    < 0) or the request fits in `device_max` minus `static`; else the clause that follows
    "requests N bytes, " in the message."""
    if static < 0:
        return None
    room = device_max - static
    if requested <= room:
        return None
    return (f"but only {room} bytes are available at block_dim={block_dim} (device limit "
            f"{device_max} bytes, minus {static} bytes of static shared memory this kernel "
            f"reserves)")
