"""treadle: GPU/CPU kernels as Python functions, with NVIDIA Warp's API (import treadle as wp)."""

# ruff: noqa: I001 - imports are grouped by topic below
from . import _extension as _extension  # noqa: F401 - first: explains a broken build

__version__ = "0.1.0"

# --- kernel builtins (builtin_functions.py): wp.sin, wp.dot, wp.add, ... ------------------
# One object per callable builtin of the table, documented from it; the host versions come from
# host_builtins.py. Imported first: the names re-exported below (types, functions) keep their
# own meaning.
from .builtin_functions import *  # noqa: F403

from . import config as config
from .config import DeterministicMode as DeterministicMode
from . import types as types
from . import utils as utils
from . import array_ops as _array_ops  # noqa: F401 - registers the array operators

# --- scalar types and type helpers ---------------------------------------------------------
from .types import Float as Float
from .types import Int as Int
from .types import Scalar as Scalar
from .types import bfloat16 as bfloat16
from .types import bool as bool
from .types import dtype_from_numpy as dtype_from_numpy
from .types import dtype_to_numpy as dtype_to_numpy
from .types import float16 as float16
from .types import float32 as float32
from .types import float64 as float64
from .types import int8 as int8
from .types import int16 as int16
from .types import int32 as int32
from .types import int64 as int64
from .types import type_size_in_bytes as type_size_in_bytes
from .types import uint8 as uint8
from .types import uint16 as uint16
from .types import uint32 as uint32
from .types import uint64 as uint64

# --- arrays --------------------------------------------------------------------------------
from .array import array as array
from .array_nd import array1d as array1d
from .array_nd import array2d as array2d
from .array_nd import array3d as array3d
from .array_nd import array4d as array4d
from .array import clone as clone
from .array_copy import copy as copy
from .array import empty as empty
from .array_like import empty_like as empty_like
from .array_like import from_numpy as from_numpy
from .array_like import full as full
from .array_like import full_like as full_like
from .indexedarray import indexedarray as indexedarray
from .indexedarray import indexedarray1d as indexedarray1d
from .indexedarray import indexedarray2d as indexedarray2d
from .indexedarray import indexedarray3d as indexedarray3d
from .indexedarray import indexedarray4d as indexedarray4d
from .fabricarray import fabricarray as fabricarray
from .fabricarray import fabricarrayarray as fabricarrayarray
from .fabricarray import indexedfabricarray as indexedfabricarray
from .fabricarray import indexedfabricarrayarray as indexedfabricarrayarray
from .geometry_types import BvhQuery as BvhQuery
from .geometry_types import HashGridQuery as HashGridQuery
from .geometry_types import MeshQueryAABB as MeshQueryAABB
from .geometry_types import MeshQueryPoint as MeshQueryPoint
from .geometry_types import MeshQuery as MeshQuery
from .geometry_types import MeshQueryRay as MeshQueryRay
from .types import tile as tile
from .types import tile_stack as tile_stack
from .array_like import ones as ones
from .array_like import ones_like as ones_like
from .array import zeros as zeros
from .array_like import zeros_like as zeros_like

# --- interop: DLPack (dlpack.py) and PyTorch (torch_interop.py, imports torch on first use) ---
from .dlpack import from_dlpack as from_dlpack
from .dlpack import to_dlpack as to_dlpack
from .torch_interop import device_from_torch as device_from_torch
from .torch_interop import device_to_torch as device_to_torch
from .torch_interop import dtype_from_torch as dtype_from_torch
from .torch_interop import dtype_to_torch as dtype_to_torch
from .torch_interop import from_torch as from_torch
from .torch_interop import stream_from_torch as stream_from_torch
from .torch_interop import stream_to_torch as stream_to_torch
from .torch_interop import to_torch as to_torch

# --- vector and matrix types (vec_types.py; also wp.types.vector / wp.types.matrix) -------
from .vec_types import vec2 as vec2
from .vec_types import vec2h as vec2h
from .vec_types import vec2f as vec2f
from .vec_types import vec2d as vec2d
from .vec_types import vec2b as vec2b
from .vec_types import vec2ub as vec2ub
from .vec_types import vec2s as vec2s
from .vec_types import vec2us as vec2us
from .vec_types import vec2i as vec2i
from .vec_types import vec2ui as vec2ui
from .vec_types import vec2l as vec2l
from .vec_types import vec2ul as vec2ul
from .vec_types import vec3 as vec3
from .vec_types import vec3h as vec3h
from .vec_types import vec3f as vec3f
from .vec_types import vec3d as vec3d
from .vec_types import vec3b as vec3b
from .vec_types import vec3ub as vec3ub
from .vec_types import vec3s as vec3s
from .vec_types import vec3us as vec3us
from .vec_types import vec3i as vec3i
from .vec_types import vec3ui as vec3ui
from .vec_types import vec3l as vec3l
from .vec_types import vec3ul as vec3ul
from .vec_types import vec4 as vec4
from .vec_types import vec4h as vec4h
from .vec_types import vec4f as vec4f
from .vec_types import vec4d as vec4d
from .vec_types import vec4b as vec4b
from .vec_types import vec4ub as vec4ub
from .vec_types import vec4s as vec4s
from .vec_types import vec4us as vec4us
from .vec_types import vec4i as vec4i
from .vec_types import vec4ui as vec4ui
from .vec_types import vec4l as vec4l
from .vec_types import vec4ul as vec4ul
from .vec_types import mat22 as mat22
from .vec_types import mat22h as mat22h
from .vec_types import mat22f as mat22f
from .vec_types import mat22d as mat22d
from .vec_types import mat33 as mat33
from .vec_types import mat33h as mat33h
from .vec_types import mat33f as mat33f
from .vec_types import mat33d as mat33d
from .vec_types import mat44 as mat44
from .vec_types import mat44h as mat44h
from .vec_types import mat44f as mat44f
from .vec_types import mat44d as mat44d
from .vec_types import spatial_vector as spatial_vector
from .vec_types import spatial_vectorh as spatial_vectorh
from .vec_types import spatial_vectorf as spatial_vectorf
from .vec_types import spatial_vectord as spatial_vectord
from .vec_types import spatial_matrix as spatial_matrix
from .vec_types import spatial_matrixh as spatial_matrixh
from .vec_types import spatial_matrixf as spatial_matrixf
from .vec_types import spatial_matrixd as spatial_matrixd

# --- quaternion and transform types (quat_types.py; also wp.types.quaternion & co.) --------
from .quat_types import quat as quat
from .quat_types import quath as quath
from .quat_types import quatf as quatf
from .quat_types import quatd as quatd
from .quat_types import transform as transform
from .quat_types import transformh as transformh
from .quat_types import transformf as transformf
from .quat_types import transformd as transformd

# --- structs (struct.py) -------------------------------------------------------------------
from .struct import struct as struct

# --- devices and runtime -------------------------------------------------------------------
from .context import Device as Device
from .context import ScopedDevice as ScopedDevice
from .context import get_cuda_device as get_cuda_device
from .context import get_cuda_device_count as get_cuda_device_count
from .context import get_cuda_driver_version as get_cuda_driver_version
from .context import get_cuda_devices as get_cuda_devices
from .context import get_device as get_device
from .context import get_devices as get_devices
from .context import get_preferred_device as get_preferred_device
from .context import init as init
from .context import is_conditional_graph_supported as is_conditional_graph_supported
from .context import is_cpu_available as is_cpu_available
from .context import get_cuda_supported_archs as get_cuda_supported_archs
from .context import is_cuda_available as is_cuda_available
from .context import is_device_available as is_device_available
from .context import set_device as set_device
from .context import synchronize as synchronize
from .context import synchronize_device as synchronize_device
from .context import unmap_cuda_device as unmap_cuda_device
from .context import Event as Event
from .context import Stream as Stream
from .context import get_stream as get_stream
from .context import set_stream as set_stream

# --- streams, events, graph capture and memory pools (stream.py) ---------------------------
from .graph_conditionals import capture_if as capture_if
from .graph_conditionals import capture_while as capture_while
from .stream import Graph as Graph
from .stream import CaptureMode as CaptureMode
from .stream import ScopedCapture as ScopedCapture
from .stream import ScopedMempool as ScopedMempool
from .stream import ScopedStream as ScopedStream
from .stream import capture_begin as capture_begin
from .stream import capture_end as capture_end
from .stream import capture_debug_dot_print as capture_debug_dot_print
from .stream import capture_launch as capture_launch
from .stream import get_event_elapsed_time as get_event_elapsed_time
from .stream import get_mempool_release_threshold as get_mempool_release_threshold
from .stream import get_mempool_used_mem_current as get_mempool_used_mem_current
from .stream import get_mempool_used_mem_high as get_mempool_used_mem_high
from .stream import is_mempool_enabled as is_mempool_enabled
from .stream import is_mempool_supported as is_mempool_supported
from .stream import record_event as record_event
from .stream import set_mempool_enabled as set_mempool_enabled
from .stream import set_mempool_release_threshold as set_mempool_release_threshold
from .device_access import is_mempool_access_enabled as is_mempool_access_enabled
from .device_access import is_mempool_access_supported as is_mempool_access_supported
from .device_access import is_peer_access_enabled as is_peer_access_enabled
from .device_access import is_peer_access_supported as is_peer_access_supported
from .device_access import set_mempool_access_enabled as set_mempool_access_enabled
from .device_access import set_peer_access_enabled as set_peer_access_enabled
from .device_access import ScopedMempoolAccess as ScopedMempoolAccess
from .device_access import ScopedPeerAccess as ScopedPeerAccess
from .stream import synchronize_event as synchronize_event
from .stream import synchronize_stream as synchronize_stream
from .stream import wait_event as wait_event
from .stream import wait_stream as wait_stream

# --- utilities -----------------------------------------------------------------------------
from .utils import ScopedTimer as ScopedTimer
from .timeline import TIMING_ALL as TIMING_ALL
from .timeline import TIMING_GRAPH as TIMING_GRAPH
from .timeline import TIMING_KERNEL as TIMING_KERNEL
from .timeline import TIMING_KERNEL_BUILTIN as TIMING_KERNEL_BUILTIN
from .timeline import TIMING_MEMCPY as TIMING_MEMCPY
from .timeline import TIMING_MEMSET as TIMING_MEMSET
from .timeline import TimingResult as TimingResult
from .timeline import timing_begin as timing_begin
from .timeline import timing_end as timing_end
from .timeline import timing_export_chrome_trace as timing_export_chrome_trace
from .timeline import timing_print as timing_print
from .cuda_profiler import ScopedCudaProfiler as ScopedCudaProfiler
from .cuda_profiler import cuda_profiler_start as cuda_profiler_start
from .cuda_profiler import cuda_profiler_stop as cuda_profiler_stop
from .utils import transform_expand as transform_expand

# --- geometry ------------------------------------------------------------------------------
from .bvh import Bvh as Bvh
from .bvh import is_cubql_available as is_cubql_available
from .hash_grid import HashGrid as HashGrid
from .marching_cubes import MarchingCubes as MarchingCubes
from .mesh import Mesh as Mesh
from .volume import Volume as Volume

# --- messages (logger.py: Warp's logger protocol and levels) -------------------------------
from .logger import LOG_DEBUG as LOG_DEBUG
from .memory_tracker import ScopedMemoryTracker as ScopedMemoryTracker
from .memory_tracker import print_memory_report as print_memory_report
from .logger import LOG_ERROR as LOG_ERROR
from .logger import LOG_INFO as LOG_INFO
from .logger import LOG_WARNING as LOG_WARNING
from .logger import Logger as Logger
from .logger import ScopedLogger as ScopedLogger
from .logger import ScopedLogLevel as ScopedLogLevel
from .logger import get_logger as get_logger
from .logger import set_logger as set_logger

# --- compiler errors (created with the translation of C++ errors, export_errors.cpp) --------
from ._treadle import WarpCodegenAttributeError as WarpCodegenAttributeError
from ._treadle import WarpCodegenError as WarpCodegenError
from ._treadle import WarpCodegenIndexError as WarpCodegenIndexError
from ._treadle import WarpCodegenKeyError as WarpCodegenKeyError
from ._treadle import WarpCodegenTypeError as WarpCodegenTypeError
from ._treadle import WarpCodegenValueError as WarpCodegenValueError

# --- compatibility with programs that use Warp's private modules (warp._src.*): not API ----
from . import _src as _src

# --- kernels, functions, modules and launches (kernel.py, module.py, launch.py) ------------
from .generics import grad as grad
from .generics import static as static
from .kernel import Function as Function
from .kernel import Kernel as Kernel
from .kernel import adjoint as adjoint
from .kernel import constant as constant
from .kernel import func as func
from .kernel import func_grad as func_grad
from .kernel import func_native as func_native
from .kernel import func_replay as func_replay
from .kernel import kernel as kernel
from .kernel import overload as overload
from .launch import Launch as Launch
from .launch import launch as launch
from .launch import launch_tiled as launch_tiled
from .module import Module as Module
from .module import clear_kernel_cache as clear_kernel_cache
from .module import force_load as force_load
from .module import get_module as get_module
from .module import get_module_options as get_module_options
from .module import load_module as load_module
from .module import set_module_options as set_module_options
from .tape import Tape as Tape

# --- constants (Warp's names: wp.pi, wp.e, wp.inf, ...) ------------------------------------
from .constants import *  # noqa: F403

# --- deprecated names (answered, not listed) --------------------------------------------------
from .deprecated_names import __getattr__ as __getattr__
