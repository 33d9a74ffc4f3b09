"""treadle.runtime_core: the few entry points of Warp's native library (``runtime.core``)
that programs call directly to look at the shape of captured CUDA graphs and to count live
device allocations, over treadle's own runtime (a compatibility layer, not treadle's API).

Contexts are CUDA context handles (``Device.context``); nodes are CUgraphNode handles as ints,
valid while their graph lives."""

import ctypes
import weakref

from . import _treadle
from . import config as _config
from . import context as _context
from . import memory_tracker as _memory_tracker
from . import profiler_driver as _profiler_driver


def _ordinal(context):
    """The ordinal of the CUDA device whose primary context is `context` (an int handle)."""
    for device in _context.get_cuda_devices():
        if device.context == context:
            return device.ordinal
    raise ValueError(f"no CUDA device has the context {context!r}")


def _graph_mem_current(ordinal):
    return _treadle.cuda_graph_memory_in_use(ordinal)


def _graph_mem_trim(ordinal):
    _treadle.cuda_graph_memory_trim(ordinal)


# Bound as ctypes functions (argtypes and restype as Warp's bindings declare them), so that a
# program can call them the same way.
_GRAPH_MEM_CURRENT = ctypes.CFUNCTYPE(ctypes.c_uint64, ctypes.c_int)(_graph_mem_current)
_GRAPH_MEM_CURRENT.argtypes = [ctypes.c_int]
_GRAPH_MEM_TRIM = ctypes.CFUNCTYPE(None, ctypes.c_int)(_graph_mem_trim)
_GRAPH_MEM_TRIM.argtypes = [ctypes.c_int]


_last_error = [""]
_meshes = {}  # mesh id -> weak reference to its wp.Mesh


def _failed(error):
    """Records `error` for runtime.get_error_string() and returns 0 (Warp's failure value)."""
    _last_error[0] = str(error)
    return 0


def register_mesh(mesh):
    """Lets the wp_mesh_* entry points find `mesh` (a wp.Mesh) by its id."""
    _meshes[mesh.id] = weakref.ref(mesh)


def _mesh(mesh_id):
    ref = _meshes.get(int(mesh_id))
    mesh = ref() if ref is not None else None
    if mesh is None:
        raise ValueError(f"no mesh has the id {mesh_id}")
    return mesh


def _mesh_call(mesh_id, method, *args):
    try:
        getattr(_mesh(mesh_id), method)(*args)
    except (ValueError, RuntimeError) as e:
        return _failed(e)
    return 1


class NativeCore:
    """Warp's ``runtime.core`` functions treadle provides (the graph topology queries, the
    graph memory of a device, the allocation tracker)."""

    wp_cuda_device_get_graph_mem_current = _GRAPH_MEM_CURRENT
    """Bytes of device memory graphs' allocations on device `ordinal` hold now."""
    wp_cuda_device_graph_mem_trim = _GRAPH_MEM_TRIM
    """Gives the memory graphs on device `ordinal` no longer use back to the system."""

    @staticmethod
    def wp_cuda_graph_insert_empty_node(context):
        """An empty node added to the capture on the device's current stream."""
        return _treadle.cuda_graph_insert_empty_node(_ordinal(context))

    @staticmethod
    def wp_cuda_graph_insert_alloc_node(context, size):
        """Allocates `size` bytes in the capture on the current stream, as ``wp.empty``
        would; returns the allocation node."""
        return _treadle.cuda_graph_insert_alloc_node(_ordinal(context), int(size))

    @staticmethod
    def wp_cuda_graph_insert_free_node(context, alloc_node):
        """Frees the memory of `alloc_node` on the current stream, as dropping its array
        would; returns the free node."""
        return _treadle.cuda_graph_insert_free_node(_ordinal(context), int(alloc_node))

    @staticmethod
    def wp_cuda_graph_node_depends_on(node, ancestor):
        """0 when `node` runs after `ancestor`, 1 when it does not, -1 on error."""
        return _treadle.cuda_graph_node_depends_on(int(node), int(ancestor))

    @staticmethod
    def wp_cuda_graph_alloc_query(alloc_node, node):
        """0: `node` may use the memory of `alloc_node`; 1: it is freed before `node`; 2:
        `node` does not run after the allocation; -2: the free is concurrent with `node`; -1:
        error."""
        return _treadle.cuda_graph_alloc_query(int(alloc_node), int(node))


    @staticmethod
    def wp_is_mathdx_enabled():
        """Whether tile operations use NVIDIA's MathDx library: never in treadle, whose tile
        products, factorisations and transforms are its own."""
        return False

    @staticmethod
    def wp_cuda_profiler_start(context):
        """Starts CUDA profiler collection in `context` (cuProfilerStart)."""
        _profiler_driver.profiler_start_native(context)

    @staticmethod
    def wp_cuda_profiler_stop(context):
        """Stops CUDA profiler collection in `context` (cuProfilerStop)."""
        _profiler_driver.profiler_stop_native(context)

    @staticmethod
    def wp_alloc_tracker_enable(enable):
        """Notes allocations from now on (nonzero) or stops noting them (the memory tracker's
        records, and the CUDA runtime's count of device allocations)."""
        _memory_tracker.set_enabled(bool(enable))
        _treadle.cuda_alloc_tracker_enable(bool(enable))

    @staticmethod
    def wp_alloc_tracker_is_enabled():
        """Whether allocations are noted now (an open tracker scope or config.track_memory)."""
        return _memory_tracker.is_enabled()

    @staticmethod
    def wp_alloc_tracker_reset():
        """Forgets the allocations noted so far."""
        _memory_tracker.reset()

    @staticmethod
    def wp_alloc_tracker_get_live_count():
        """How many noted allocations are not freed yet (arrays and device allocations)."""
        return _memory_tracker.counters()[2] + _treadle.cuda_alloc_tracker_live_count()

    @staticmethod
    def wp_alloc_tracker_get_total_alloc_count():
        """How many allocations were noted since the last reset."""
        return _memory_tracker.counters()[0]

    @staticmethod
    def wp_alloc_tracker_get_total_alloc_bytes():
        """Bytes of all allocations noted since the last reset."""
        return _memory_tracker.counters()[1]

    @staticmethod
    def wp_alloc_tracker_get_current_bytes():
        """Bytes of the noted allocations not freed yet."""
        return _memory_tracker.counters()[3]

    @staticmethod
    def wp_alloc_tracker_get_peak_bytes():
        """The most bytes live at once since the last reset."""
        return _memory_tracker.counters()[4]

    @staticmethod
    def wp_mesh_create_host(*args):
        """A host mesh over borrowed arrays (treadle's _treadle.Mesh arguments), or 0 with the
        reason in runtime.get_error_string()."""
        try:
            return _treadle.Mesh(*args)
        except ValueError as e:
            return _failed(e)

    @staticmethod
    def wp_mesh_create_device(*args):
        """A mesh bound to a CUDA device (_treadle.Mesh.for_device's arguments); or 0."""
        try:
            return _treadle.Mesh.for_device(*args)
        except ValueError as e:
            return _failed(e)

    @staticmethod
    def wp_mesh_refit_host(mesh_id):
        """Refits the mesh `mesh_id` after its points moved: 1, or 0 on failure."""
        return _mesh_call(mesh_id, "_refit_now")

    wp_mesh_refit_device = wp_mesh_refit_host

    @staticmethod
    def wp_mesh_set_points_host(mesh_id, points):
        """Makes `points` (a wp.array) the points of mesh `mesh_id` and refits: 1, or 0."""
        return _mesh_call(mesh_id, "_set_points_now", points)

    wp_mesh_set_points_device = wp_mesh_set_points_host


core = NativeCore()


class _Runtime:
    """The runtime as Warp's private ``runtime`` object presents it, over treadle's state."""

    @property
    def device_map(self):
        """Every device by alias ("cpu", "cuda:0", ...): treadle's registry itself."""
        _context.init()
        return _context._devices

    @property
    def core(self):
        """The entry points of Warp's native library that treadle provides (NativeCore)."""
        return core

    is_cuda_enabled = True
    """treadle always supports CUDA: the driver and NVRTC are loaded at run time when present."""

    def get_device(self, ident=None):
        """The Device for `ident` (None: the current default device); as wp.get_device."""
        return _context.get_device(ident)

    def get_error_string(self):
        """Why the last failing entry point of ``core`` failed."""
        return _last_error[0]

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
