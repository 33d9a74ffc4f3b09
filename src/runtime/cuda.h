// src/runtime/cuda.h -- the CUDA driver as treadle uses it: loaded at run time, every call checked
//
// libcuda is opened with dlopen on first use through one X-macro table of entry points
// (cuda_driver_table.h), so treadle builds and runs where CUDA is absent: is_available() is then
// false and everything else throws treadle::Error(ErrorKind::Runtime) saying CUDA is missing.
// Every driver call goes through one checking wrapper whose error names the call, the CUDA
// error name and its message. Each device uses its primary context (retained once, made
// current on the calling thread by every function here that takes an ordinal).
//
// Streams: each device has a *current stream*, process-wide (all threads), which every function
// here uses when given a null Stream. It starts as the device's own default stream: a blocking
// stream (it synchronises with the legacy NULL stream, as Warp's per-device streams do) that
// treadle creates with the primary context and never destroys. set_current_stream() picks
// another; legacy_stream names the legacy NULL stream explicitly. Capture, events and graphs
// live in cuda_stream.cpp, allocation and its graph bookkeeping in cuda_memory.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace treadle::cuda {

/// An opaque CUstream; nullptr means the device's current stream (see the file comment).
using Stream = void*;
/// The legacy NULL stream (CU_STREAM_LEGACY), for callers that want it explicitly.
inline Stream const legacy_stream = reinterpret_cast<Stream>(std::uintptr_t(1));

/// True when the driver loaded and reports at least one device. Never throws.
bool is_available();
/// Number of CUDA devices (0 when unavailable). Never throws.
int device_count();
/// Why CUDA is unavailable (empty when it is available), for error messages.
std::string unavailable_reason();
/// The driver's CUDA version as 1000 * major + 10 * minor (13000 for 13.0); 0 when
/// unavailable. Never throws.
int driver_version();

/// Properties of one device, queried once.
struct DeviceInfo {
    std::string name;
    int major = 0, minor = 0;  ///< compute capability
    int sm_count = 0;
    int max_shared_memory_per_block = 0;  ///< opt-in maximum (cuFuncSetAttribute), bytes
    size_t total_memory = 0;
    bool memory_pools = false;            ///< supports stream-ordered allocation (cuMemAllocAsync)
    bool pageable_memory_access = false;  ///< kernels can read and write pageable host memory
    bool host_managed_access = false;     ///< the host can access managed memory resident here
    bool host_native_atomics = false;     ///< atomics between host and device are native
};
/// Throws ErrorKind::Value for an ordinal out of range. Creates no context (listing devices
/// costs no device memory) and does not change the current one.
const DeviceInfo& device_info(int ordinal);
/// Free and total memory of the device, now.
void memory_info(int ordinal, size_t& free_bytes, size_t& total_bytes);

/// Makes the primary context of `ordinal` current on this thread.
void set_current(int ordinal);
/// The primary context of `ordinal` (a CUcontext), retained on first use.
void* context_handle(int ordinal);

/// Device memory: stream-ordered on `stream` from the device's default memory pool where
/// supported and enabled, else plain cuMemAlloc. On a stream being captured (a capture begun
/// through begin_capture) the allocation becomes part of the graph: it needs the pool (else
/// ErrorKind::Runtime), and its memory is the graph's to (re)allocate at each launch. An
/// allocation failure throws ErrorKind::OutOfMemory naming the device, the size asked for and
/// the free memory; the process goes on. Zero bytes gives nullptr.
void* alloc(int ordinal, size_t bytes, Stream stream = nullptr);
/// Frees what alloc returned (the same way it was allocated), stream-ordered on `stream`.
/// While a capture is open on the device, memory from outside it is freed once the capture
/// ends; graph memory is freed inside its still-open capture, else kept for its graph and
/// freed after the graph's last launch. nullptr is ignored, and so is a driver that has
/// already shut down (a buffer outliving CUDA at process exit).
void free(int ordinal, void* ptr, Stream stream = nullptr);
/// Plain device memory (cuMemAlloc) that belongs to no graph, allocated even while the calling
/// thread captures a graph (in the driver's relaxed capture mode), also inside the body of a
/// conditional node; for buffers that graphs use across launches (the utilities' scratch).
/// Freed with free() (put off while a capture is open).
void* alloc_outside_capture(int ordinal, size_t bytes);
/// The allocation tracker: while enabled, device allocations (of every device, graph memory
/// included) are noted until they are freed; live_count is how many are not freed yet.
void alloc_tracker_enable(bool enable);
void alloc_tracker_reset();
size_t alloc_tracker_live_count();
/// Pinned (page-locked) host memory, usable by every device (CU_MEMHOSTALLOC_PORTABLE), so
/// copies to and from it run asynchronously at full speed. host_free(nullptr) does nothing.
void* host_alloc(size_t bytes);
void host_free(void* ptr);
/// Whether alloc uses the stream-ordered memory pool (by default wherever supported).
bool mempool_enabled(int ordinal);
/// Turns the pool on or off for later allocations (memory already allocated is freed the way
/// it was allocated). Enabling it on a device without pools throws ErrorKind::Runtime.
void set_mempool_enabled(int ordinal, bool enable);
/// Sets the pool's release threshold (bytes kept cached after synchronisation); does nothing
/// on a device without memory pools.
void set_release_threshold(int ordinal, uint64_t bytes);
/// The pool's release threshold in bytes (0 on a device without memory pools).
uint64_t release_threshold(int ordinal);
/// Bytes of the pool in use by allocations now, and the most in use since the device was
/// initialised (0 on a device without memory pools).
uint64_t mempool_used_current(int ordinal);
uint64_t mempool_used_high(int ordinal);

/// Whether device `peer` can access memory of device `target` directly (true for one device).
bool peer_access_supported(int target, int peer);
/// Whether `peer`'s context has access to `target`'s ordinary allocations now (as enabled
/// through set_peer_access_enabled; true for one device).
bool peer_access_enabled(int target, int peer);
/// Gives (or takes away) `peer`'s context access to `target`'s ordinary allocations. Throws
/// ErrorKind::Runtime when enabling access the system does not support.
void set_peer_access_enabled(int target, int peer, bool enable);
/// Whether `peer` can access allocations from `target`'s memory pool now (true for one
/// device; false without pools).
bool mempool_access_enabled(int target, int peer);
/// Sets `peer`'s read-write access to `target`'s memory pool. Throws ErrorKind::Runtime when
/// enabling it on a device without pools or between devices without peer access.
void set_mempool_access_enabled(int target, int peer, bool enable);

/// Copies (asynchronous on `stream`; host memory must stay valid until the stream is synced).
void copy_host_to_device(int ordinal, void* dst, const void* src, size_t bytes,
                         Stream stream = nullptr);
void copy_device_to_host(int ordinal, void* dst, const void* src, size_t bytes,
                         Stream stream = nullptr);
void copy_device_to_device(int ordinal, void* dst, const void* src, size_t bytes,
                           Stream stream = nullptr);
/// Fills `count` elements of 1, 2 or 4 bytes with `value` (another size throws
/// ErrorKind::Value).
void memset(int ordinal, void* dst, uint32_t value, size_t element_size, size_t count,
            Stream stream = nullptr);

/// Waits for all work on the device / on one stream. Errors from earlier asynchronous work
/// (an illegal address in a kernel, say) surface here as treadle::Error.
void synchronize(int ordinal);
void synchronize_stream(int ordinal, Stream stream);

// ---- streams (cuda_stream.cpp) ----------------------------------------------------------------

/// The device's current stream / the default stream treadle made for it (never null).
Stream current_stream(int ordinal);
Stream default_stream(int ordinal);
/// Makes `stream` (a stream of this device) current for every thread; nullptr restores the
/// device's default stream.
void set_current_stream(int ordinal, Stream stream);
/// Creates a stream: `blocking` ones synchronise with the legacy NULL stream (CUDA's default
/// for created streams), others are CU_STREAM_NON_BLOCKING. `priority`: 0 is the default,
/// lower numbers run first; the driver clamps it to priority_range().
Stream create_stream(int ordinal, bool blocking = true, int priority = 0);
/// Destroys a stream from create_stream (work already queued still runs). A stream that is
/// current stops being current first. nullptr, the legacy stream, the device's default stream
/// and a driver already shut down are ignored.
void destroy_stream(int ordinal, Stream stream);
/// True when all work queued on `stream` has finished (cuStreamQuery).
bool stream_query(int ordinal, Stream stream);
/// The stream's priority and whether it is blocking (see create_stream).
int stream_priority(int ordinal, Stream stream);
bool stream_is_blocking(int ordinal, Stream stream);
/// The device's priority range: `greatest` (highest priority, a negative number) to `least`.
void priority_range(int ordinal, int& least, int& greatest);

// ---- events ----------------------------------------------------------------------------------

/// An opaque CUevent.
using Event = void*;
/// Creates an event; with `timing`, elapsed_ms can measure between two of them.
Event create_event(int ordinal, bool timing = false);
/// Destroys an event; nullptr and a driver already shut down are ignored.
void destroy_event(int ordinal, Event event);
/// Records `event` on `stream`: it completes when the work queued there before it has. With
/// `external` during a capture the graph gets an event record node (CU_EVENT_RECORD_EXTERNAL),
/// so the event marks that point of every launch of the graph.
void record_event(int ordinal, Event event, Stream stream = nullptr, bool external = false);
/// Makes later work on `stream` wait (on the device) until `event` completes. The event may
/// belong to another device. With `external` during a capture the graph gets an event wait
/// node (CU_EVENT_WAIT_EXTERNAL): each launch waits for the event's latest record.
void stream_wait_event(int ordinal, Stream stream, Event event, bool external = false);
/// Waits on the host until `event` completes; errors of earlier work surface here.
void synchronize_event(int ordinal, Event event);
/// True when `event` has completed (or was never recorded).
bool event_query(int ordinal, Event event);
/// Milliseconds between two completed timing events.
float event_elapsed_ms(int ordinal, Event start, Event end);

// ---- graph capture ---------------------------------------------------------------------------

/// CUstreamCaptureMode: which potentially unsafe CUDA calls a capture forbids, and where.
enum class CaptureMode { Global = 0, ThreadLocal = 1, Relaxed = 2 };

/// True when graph capture is usable (a CUDA 11.4+ driver). Never throws.
bool graph_capture_supported();
/// Begins capturing the work queued on `stream` (never the legacy stream) into a graph; work
/// is recorded, not run, until end_capture. With `external` the capture was begun by other
/// code on `stream` and is only registered here (so allocations join it). Throws
/// ErrorKind::Runtime when the stream is already capturing (or, `external`, is not).
void begin_capture(int ordinal, Stream stream, CaptureMode mode = CaptureMode::ThreadLocal,
                   bool external = false);
/// Whether `stream` is capturing (or in a capture invalidated by an error, not yet ended).
bool is_capturing(int ordinal, Stream stream);
/// An instantiated graph: launch it with launch_graph; destroyed with the last shared_ptr
/// (its unfreed allocations are released after its last launch).
struct Graph;
/// Ends the capture begun on `stream` and instantiates the graph. The stream leaves capture
/// mode even when this throws (ErrorKind::Runtime: the capture was invalidated by an operation
/// not allowed during capture, or no capture begun here is open on `stream`). An external
/// capture is only unregistered (it is for its owner to end) and gives nullptr.
std::shared_ptr<Graph> end_capture(int ordinal, Stream stream);
/// Enqueues the whole graph on `stream` (of the graph's device).
void launch_graph(const Graph& graph, Stream stream = nullptr);
/// The device ordinal and the CUgraphExec of a graph.
int graph_ordinal(const Graph& graph);
void* graph_exec(const Graph& graph);

/// Whether `graph` allocates memory, and its CUgraph (kept for its lifetime).
bool graph_has_allocations(const Graph& graph);
void* graph_handle(const Graph& graph);
/// Pauses the capture begun on `stream` (it leaves capture mode: its work runs at once, and
/// memory allocated meanwhile is plain memory) and returns the graph captured so far (a
/// CUgraph); resume_capture continues capturing into it where it stopped.
void* pause_capture(int ordinal, Stream stream);
void resume_capture(int ordinal, Stream stream, void* graph);

/// Shape queries of captured graphs (node handles are CUgraphNodes, valid while the graph
/// lives). insert_* add to the capture open on `stream`: an empty node, an allocation of
/// `bytes` (as an array allocation would; returns its allocation node), the free of such an
/// allocation (as dropping the array would; returns its free node).
void* graph_insert_empty_node(int ordinal, Stream stream = nullptr);
void* graph_insert_alloc_node(int ordinal, size_t bytes, Stream stream = nullptr);
void* graph_insert_free_node(int ordinal, void* alloc_node, Stream stream = nullptr);
/// Bytes of device memory that graphs' allocations hold now (cuDeviceGetGraphMemAttribute),
/// and giving the memory graphs no longer use back to the system (cuDeviceGraphMemTrim).
uint64_t graph_memory_in_use(int ordinal);
void graph_memory_trim(int ordinal);
/// 0 when `node` runs after `ancestor` in the graph, 1 when not, -1 on error.
int graph_node_depends_on(void* node, void* ancestor);
/// Whether `node` may use the memory of `alloc_node`: 0 it may (it runs after the allocation
/// and before its free), 1 the memory is freed before it, 2 it does not run after the
/// allocation, -2 the free is concurrent with it, -1 on error.
int graph_alloc_query(void* alloc_node, void* node);

/// Writes `graph` as GraphViz text to `path` (cuGraphDebugDotPrint).
void graph_debug_dot_print(const Graph& graph, const std::string& path, bool verbose);

/// A loaded CUmodule; unloaded by unload_module.
using ModuleHandle = void*;
using FunctionHandle = void*;

// ---- conditional graph nodes (cuda_conditional.cpp) ----------------------------------------

/// True when captures can hold conditional nodes (a CUDA 12.4+ driver with the entry points
/// and cuLink*). Never throws.
bool conditional_graphs_supported();
/// Links `image` (NVRTC's relocatable CUBIN, or PTX) with the static library `library`
/// (libcudadevrt.a) and loads the result on the device.
ModuleHandle load_linked_module(int ordinal, const std::string& image, bool is_cubin,
                                const std::string& library);
/// The condition handles and body graphs (CUgraph) of the nodes add_conditional made.
struct ConditionalNodes {
    std::vector<uint64_t> handles;
    std::vector<void*> bodies;
};
/// In the capture open on `stream`: captures a launch of `set_condition` (a kernel taking
/// (handle when true, handle when false or 0, const int32* condition)) and adds after it one
/// IF node, two IF nodes for if/else (the second runs when the condition is zero), or one
/// WHILE node; the capture continues after them. See cuda_conditional.cpp.
ConditionalNodes add_conditional(int ordinal, Stream stream, FunctionHandle set_condition,
                                 const void* condition, bool is_while, bool with_else);
/// Launches `set_condition` on `stream` (the end of a while body re-reads its condition).
void set_conditions(int ordinal, Stream stream, FunctionHandle set_condition, uint64_t when_true,
                    uint64_t when_false, const void* condition);
/// Captures the work queued on `stream` (capturing: its capture is paused meanwhile) into
/// `body` until end_body_capture, which resumes the outer capture; allocations in the body are
/// refused (RuntimeError).
void begin_body_capture(int ordinal, Stream stream, void* body);
void end_body_capture(int ordinal, Stream stream);
/// Adds `graph` (captured earlier, without allocations) as a child graph node to the capture
/// open on `stream` (a body capture, say), after the work captured so far.
void add_child_graph(int ordinal, Stream stream, const Graph& graph);
/// Loads a CUBIN or PTX image (as produced by NVRTC) into the device's primary context.
ModuleHandle load_module(int ordinal, const std::string& image);
/// Unloads `module`; nullptr and a driver already shut down are ignored.
void unload_module(int ordinal, ModuleHandle module);
FunctionHandle get_function(ModuleHandle module, const std::string& name);
/// The device address (and size, if `size` is given) of the __device__ global `name`
/// (a mangled C++ name) of a loaded module.
void* get_global(ModuleHandle module, const std::string& name, size_t* size = nullptr);

/// Launches `function` with one by-value parameter block of `params_size` bytes (passed with
/// CU_LAUNCH_PARAM_BUFFER_POINTER), `grid` blocks of `block` threads, on `stream`. A grid of
/// 0 blocks launches nothing. `params_size` must not exceed the kernel's parameter block (which
/// ends with its last parameter: no tail padding as sizeof a struct would add); the driver
/// rejects a larger one with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES. Allocates nothing and
/// formats no text unless the launch fails.
void launch(int ordinal, FunctionHandle function, unsigned grid, unsigned block, const void* params,
            size_t params_size, Stream stream = nullptr);
/// Launches `function` with kernelParams: args[i] points at the value of parameter i (the
/// driver copies each by its declared size). The cheapest launch the driver offers.
/// `shared_bytes`: dynamic shared memory per block (a tile kernel's scratch); past the 48 KB
/// every function may take, the function is first allowed that much (cuFuncSetAttribute), and a
/// size above the device's opt-in limit is an Error naming both.
void launch_args(int ordinal, FunctionHandle function, unsigned grid, unsigned block, void** args,
                 Stream stream = nullptr, unsigned shared_bytes = 0);

}  // namespace treadle::cuda
