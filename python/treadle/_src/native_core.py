"""treadle._src.native_core: the few entry points of Warp's native library (``runtime.core``)
that programs call directly to look at the shape of captured CUDA graphs and to count live
device allocations, over treadle's own runtime (a compatibility layer, not treadle's API).

Contexts are CUDA context handles (``Device.context``); nodes are CUgraphNode handles as ints,
valid while their graph lives."""

import ctypes

from .. import _treadle
from .. import context as _context
from .. import profiler_driver as _profiler_driver
from .. import memory_tracker as _memory_tracker


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


core = NativeCore()
