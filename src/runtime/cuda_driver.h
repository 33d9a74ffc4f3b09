// src/runtime/cuda_driver.h -- libcuda loaded with dlopen: its types, its entry points, the checker
//
// <cuda.h> is deliberately not included: treadle builds without a CUDA toolkit. The few types
// and constants used are declared here with the values documented in <cuda.h>.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace treadle::cuda::driver {

/// CUresult: 0 is success, anything else an error code.
using CUresult = int;
/// CUdevice: a device handle (an ordinal in practice).
using CUdevice = int;
/// Opaque driver handles.
using CUcontext = struct CUctx_st*;
using CUstream = struct CUstream_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUmemoryPool = struct CUmemPoolHandle_st*;
using CUevent = struct CUevent_st*;
using CUgraph = struct CUgraph_st*;
using CUgraphExec = struct CUgraphExec_st*;
using CUgraphNode = struct CUgraphNode_st*;
using CUlinkState = struct CUlinkState_st*;
/// The handle of a conditional graph node's condition (CUgraphConditionalHandle).
using CUgraphConditionalHandle = std::uint64_t;
/// A device address (CUdeviceptr_v2).
using CUdeviceptr = std::uint64_t;

/// CUresult values treadle tests for.
inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
inline constexpr CUresult CUDA_ERROR_DEINITIALIZED = 4;
inline constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
inline constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
inline constexpr CUresult CUDA_ERROR_NOT_READY = 600;

/// CUdevice_attribute values.
inline constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;
inline constexpr int CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED = 115;
inline constexpr int CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED = 86;
inline constexpr int CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS = 88;
inline constexpr int CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST = 101;

/// CUmemPool_attribute values.
inline constexpr int CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4;
inline constexpr int CU_MEMPOOL_ATTR_USED_MEM_CURRENT = 7;
inline constexpr int CU_MEMPOOL_ATTR_USED_MEM_HIGH = 8;

/// Streams: CU_STREAM_LEGACY names the legacy default stream; CU_STREAM_NON_BLOCKING is the
/// creation flag of a stream that does not synchronise with it.
inline CUstream const CU_STREAM_LEGACY = reinterpret_cast<CUstream>(0x1);
inline constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;
/// Event creation flag (CUevent_flags).
inline constexpr unsigned CU_EVENT_DISABLE_TIMING = 0x2;
/// During a capture: record / wait as an external event node (CUevent_record_flags,
/// CUevent_wait_flags).
inline constexpr unsigned CU_EVENT_RECORD_EXTERNAL = 0x1;
inline constexpr unsigned CU_EVENT_WAIT_EXTERNAL = 0x1;
/// CUstreamCaptureStatus values.
inline constexpr int CU_STREAM_CAPTURE_STATUS_NONE = 0;
inline constexpr int CU_STREAM_CAPTURE_STATUS_ACTIVE = 1;
/// CUgraphInstantiate_flags: free the graph's unfreed allocations before each relaunch.
inline constexpr unsigned long long CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH = 1;

/// Conditional graph nodes (CUDA 12.3+): the node type, the IF and WHILE kinds, the handle flag
/// that resets the condition to its default at each launch, and the node parameters (laid out
/// as CUDA_CONDITIONAL_NODE_PARAMS inside CUgraphNodeParams: 256 bytes of union).
inline constexpr int CU_GRAPH_NODE_TYPE_CONDITIONAL = 13;
inline constexpr int CU_GRAPH_COND_TYPE_IF = 0;
inline constexpr int CU_GRAPH_COND_TYPE_WHILE = 1;
inline constexpr unsigned CU_GRAPH_COND_ASSIGN_DEFAULT = 0x1;
struct ConditionalNodeParams {
    CUgraphConditionalHandle handle;
    int type;
    unsigned size;
    CUgraph* bodies_out;
    CUcontext ctx;
};
struct GraphNodeParams {
    int type;
    int reserved0[3];
    union {
        long long reserved1[29];
        ConditionalNodeParams conditional;
    };
    long long reserved2;
};
static_assert(sizeof(GraphNodeParams) == 256, "must match CUgraphNodeParams");
/// cuStreamUpdateCaptureDependencies: replace the capture's dependency set.
inline constexpr unsigned CU_STREAM_SET_CAPTURE_DEPENDENCIES = 0x1;
inline constexpr unsigned CU_STREAM_ADD_CAPTURE_DEPENDENCIES = 0x0;
inline constexpr int CU_GRAPH_NODE_TYPE_MEM_ALLOC = 10;
inline constexpr int CU_GRAPH_NODE_TYPE_MEM_FREE = 11;

/// CUDA_MEM_ALLOC_NODE_PARAMS (v1): the pool properties (CUmemPoolProps, 88 bytes), the access
/// descriptors, the size, and the address the allocation got.
struct MemAllocNodeParams {
    unsigned char pool_props[88];
    const void* access_descs;
    size_t access_desc_count;
    size_t bytesize;
    CUdeviceptr dptr;
};
static_assert(sizeof(MemAllocNodeParams) == 120, "CUDA_MEM_ALLOC_NODE_PARAMS layout");
/// CUjitInputType values for cuLinkAdd*.
inline constexpr int CU_JIT_INPUT_CUBIN = 0;
inline constexpr int CU_JIT_INPUT_PTX = 1;
inline constexpr int CU_JIT_INPUT_LIBRARY = 4;
/// cuGraphDebugDotPrint flags: everything (CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE).
inline constexpr unsigned CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE = 1;

/// CUmemLocation / CUmemAccessDesc (memory pool access) and the values treadle uses.
struct MemLocation {
    int type;  ///< CU_MEM_LOCATION_TYPE_DEVICE
    int id;    ///< the device ordinal
};
struct MemAccessDesc {
    MemLocation location;
    int flags;  ///< CU_MEM_ACCESS_FLAGS_PROT_*
};
inline constexpr int CU_MEM_LOCATION_TYPE_DEVICE = 1;
inline constexpr int CU_MEM_ACCESS_FLAGS_PROT_NONE = 0;
inline constexpr int CU_MEM_ACCESS_FLAGS_PROT_READWRITE = 3;
/// cuCtxEnablePeerAccess / cuCtxDisablePeerAccess results that mean "already so".
inline constexpr CUresult CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704;
inline constexpr CUresult CUDA_ERROR_PEER_ACCESS_NOT_ENABLED = 705;

/// Markers of cuLaunchKernel's `extra` array.
inline void* const CU_LAUNCH_PARAM_END = reinterpret_cast<void*>(0x00);
inline void* const CU_LAUNCH_PARAM_BUFFER_POINTER = reinterpret_cast<void*>(0x01);
inline void* const CU_LAUNCH_PARAM_BUFFER_SIZE = reinterpret_cast<void*>(0x02);

/// One function pointer per entry of cuda_driver_table.h, named by its exported symbol.
struct Table {
#define TREADLE_CU_ENTRY(symbol, required, params) CUresult(*symbol) params = nullptr;
#include "runtime/cuda_driver_table.h"
#undef TREADLE_CU_ENTRY
};

/// Opens `library` (a soname or a path) with dlopen and fills `table` from it with dlsym.
/// Returns "" on success, else why it failed (the dlopen error, or the first missing required
/// entry). `opened`, when given, tells whether dlopen itself succeeded. A library that loads is
/// never closed: driver pointers stay valid for the process lifetime. Never throws.
std::string load_table(const char* library, Table& table, bool* opened = nullptr) noexcept;

/// The process-wide driver, loaded (libcuda.so.1, then libcuda.so) and initialised with
/// cuInit(0) on first use, thread-safely. nullptr when CUDA is unusable (no library, a
/// required entry missing, cuInit failing, or no device); `reason` then says why. Never throws.
const Table* try_get(std::string* reason = nullptr) noexcept;
/// Number of devices the driver reports (0 when unusable). Never throws.
int device_count() noexcept;
/// cuDriverGetVersion's value (0 when unusable). Never throws.
int driver_version() noexcept;

/// The process-wide driver; throws treadle::Error(ErrorKind::Runtime) saying why CUDA is
/// unavailable. Cheap after the first call (one guarded static and a branch).
const Table& get();

/// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)", looked up through `table`; falls back to the
/// number where the driver does not know the code.
std::string error_text(const Table& table, CUresult result);

/// Throws treadle::Error "<call> failed: <error_text>": ErrorKind::OutOfMemory for
/// CUDA_ERROR_OUT_OF_MEMORY, else ErrorKind::Runtime. Records `result` for last_error().
[[noreturn]] void throw_error(const Table& table, const char* call, CUresult result);
/// The CUresult of the last failure thrown on this thread (CUDA_SUCCESS if none yet), for
/// callers that treat one code specially.
CUresult last_error() noexcept;

/// The check every driver call goes through (see TREADLE_CU).
inline void check(const Table& table, CUresult result, const char* call) {
    if (result != CUDA_SUCCESS) [[unlikely]]
        throw_error(table, call, result);
}

}  // namespace treadle::cuda::driver

/// Calls driver entry `fn` of `table` with the remaining arguments and throws treadle::Error
/// naming `fn` when it fails. A statement, not an expression.
#define TREADLE_CU_WITH(table, fn, ...)                                                            \
    do {                                                                                           \
        const ::treadle::cuda::driver::Table& treadle_cu_table_ = (table);                         \
        ::treadle::cuda::driver::check(treadle_cu_table_, treadle_cu_table_.fn(__VA_ARGS__), #fn); \
    } while (0)

/// TREADLE_CU_WITH on the process-wide driver (which throws first if CUDA is unavailable).
#define TREADLE_CU(fn, ...) TREADLE_CU_WITH(::treadle::cuda::driver::get(), fn, __VA_ARGS__)
