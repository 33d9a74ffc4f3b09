// src/runtime/cuda_internal.h -- per-device state shared by the three files of treadle::cuda
//
// Not an interface: the three files of treadle::cuda keep one record per device here (its
// context, streams, memory pool, and the bookkeeping that lets allocation and graph capture
// work together). Everything else uses runtime/cuda.h.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime/cuda.h"
#include "runtime/cuda_driver.h"
#include "treadle/error.h"

namespace treadle::cuda::detail {

namespace drv = driver;

/// The memory one capture allocates: shared by the capture while it is open, then by its
/// Graph and by the records of its allocations. Fields are guarded by the device's `track`.
struct GraphMemory {
    int ordinal = 0;
    drv::CUstream stream = nullptr;         ///< the stream the capture began on
    bool capturing = true;                  ///< the capture is still open
    bool graph_alive = false;               ///< an instantiated graph holds the allocations
    bool launched = false;                  ///< the graph ran at least once (the memory exists)
    size_t allocations = 0;                 ///< allocations made in the capture
    drv::CUevent done = nullptr;            ///< recorded after each launch (graphs that allocate)
    std::vector<drv::CUdeviceptr> orphans;  ///< freed by their owners while the graph lives

    ~GraphMemory();
};

/// A capture registered with begin_capture.
struct Capture {
    drv::CUstream stream = nullptr;
    uint64_t id = 0;  ///< the driver's capture id (0 when the driver cannot tell it)
    bool external = false;
    std::shared_ptr<GraphMemory> memory;
    /// A capture into the body graph of a conditional node: allocations are refused there.
    bool conditional_body = false;
    int mode = 1;  ///< the CUstreamCaptureMode it was begun with
    /// Paused (capture_pause): the stream has left capture mode; `paused_graph` and
    /// `paused_leaves` are where resume_capture continues, and the frees of the capture's
    /// memory asked for meanwhile (address, allocation node) wait for it in `paused_frees`.
    bool paused = false;
    drv::CUgraph paused_graph = nullptr;
    std::vector<drv::CUgraphNode> paused_leaves;
    std::vector<std::pair<drv::CUdeviceptr, drv::CUgraphNode>> paused_frees;
};

/// An allocation that cannot be freed the plain way: graph memory, or cuMemAlloc memory on a
/// device whose pool is (was) disabled.
struct Tracked {
    std::shared_ptr<GraphMemory> graph;     ///< null for a plain cuMemAlloc allocation
    drv::CUgraphNode alloc_node = nullptr;  ///< graph memory: its allocation node, where known
};

/// A free asked for while a capture was open, done once no capture is.
struct Deferred {
    drv::CUdeviceptr ptr = 0;
    bool pool = true;
    std::shared_ptr<GraphMemory> graph;  ///< graph memory: freed after the graph's last launch
};

/// Everything treadle keeps about one device. The context is retained once, on first use,
/// and never released: the primary context then lives as long as the process.
struct Device {
    drv::CUdevice handle = 0;

    std::mutex mutex;                     ///< serialises the two lazy initialisations below
    std::atomic<bool> info_ready{false};  ///< `info` filled (published with release)
    DeviceInfo info;
    std::atomic<drv::CUcontext> context{nullptr};  ///< primary context, once retained
    drv::CUmemoryPool pool = nullptr;  ///< default pool when stream-ordered allocation is used
    drv::CUstream default_stream = nullptr;       ///< created with the context, never destroyed
    std::atomic<drv::CUstream> current{nullptr};  ///< the current stream (default_stream at first)
    std::atomic<bool> pool_enabled{true};         ///< allocate from `pool` (when there is one)

    // Capture and allocation bookkeeping (cuda_memory.cpp). The counters let alloc and free
    // skip the lock while no capture is open and nothing is tracked.
    std::mutex track;
    std::atomic<int> open_captures{0};
    std::atomic<size_t> tracked_count{0};
    std::vector<Capture> captures;
    std::vector<drv::CUstream> streams;  ///< the live streams treadle created on the device
    std::unordered_map<drv::CUdeviceptr, Tracked> tracked;
    std::vector<Deferred> deferred;
};

/// "cuda:N".
std::string device_name(int ordinal);
/// The device `ordinal`; throws Runtime without CUDA and Value for an ordinal out of range.
Device& device(int ordinal);
/// Makes the primary context of `ordinal` current on this thread (retaining it and creating
/// the default stream the first time) and returns its device.
Device& enter(int ordinal);

/// The stream a Stream argument stands for: itself, or the current stream when null.
inline drv::CUstream resolve(const Device& d, Stream stream) {
    return stream ? static_cast<drv::CUstream>(stream) : d.current.load(std::memory_order_acquire);
}

/// Throws the driver error `result` of `call`, with `where` in front.
[[noreturn]] void fail(const drv::Table& t, const char* call, drv::CUresult result,
                       const std::string& where);
/// Rethrows `e` (a driver error) with `context` in front, keeping its kind.
[[noreturn]] void rethrow_with(const Error& e, const std::string& context);
/// True when the last driver error on this thread says the driver has shut down (at exit).
bool driver_shut_down();

/// Runs `release` now, or once no capture is open on any device: destroying a graph (and,
/// to be safe, a stream, an event or a module) on a thread that is capturing invalidates the
/// capture. A put-off release that throws is ignored.
void release_outside_capture(std::function<void()> release);

// Capture bookkeeping (cuda_memory.cpp), called by cuda_stream.cpp.

/// Registers a capture begun on `stream` (with the driver's id, 0 if unknown).
void register_capture(Device& d, int ordinal, drv::CUstream stream, uint64_t id, bool external,
                      bool conditional_body = false, int mode = 1);
/// Takes the capture of `stream` off the register (null when none is), and, when no capture is
/// left open, does the frees put off meanwhile. `graph_made` tells whether a graph now holds
/// its allocations.
std::shared_ptr<GraphMemory> unregister_capture(Device& d, drv::CUstream stream, bool graph_made);
/// Whether `stream` is in a capture registered here (the external flag is returned too).
bool registered_capture(Device& d, drv::CUstream stream, bool* external);
/// After a launch of a graph with memory: marks it launched and records `done` on `stream`.
void graph_launched(GraphMemory& memory, drv::CUstream stream);
/// When a graph is destroyed: frees the memory its owners let go of, after its last launch.
void graph_destroyed(const std::shared_ptr<GraphMemory>& memory);

// Graph nodes of captures (cuda_graph_nodes.cpp). All hold d.track.

/// The nodes the next work queued on `stream` will depend on (empty when it is not capturing);
/// `graph` receives the graph being captured.
std::vector<drv::CUgraphNode> capture_leaves(drv::CUstream stream, drv::CUgraph* graph = nullptr);
/// Frees graph memory `ptr` (allocated by `alloc_node`) in the open capture `c`: a free node
/// after everything the capture's streams queued since the allocation, so that no branch that
/// can use the memory runs after it, and no branch that cannot waits for it. The free node
/// joins the dependencies of `freeing` when that stream takes part in the capture.
void add_free_node(Device& d, const Capture& c, drv::CUdeviceptr ptr, drv::CUgraphNode alloc_node,
                   drv::CUstream freeing);
/// Makes the origin stream of `c` wait for the other streams of the capture (forked from it and
/// not joined back), so that the capture can end.
void join_capture_streams(Device& d, const Capture& c);
/// join_capture_streams for the innermost open capture on `s` (none: nothing); a failure is
/// left for ending the capture to report.
void join_open_capture(Device& d, drv::CUstream s);
/// Pauses the innermost open capture on `s` (joining its streams; the stream leaves capture
/// mode) and returns its graph; resume_paused_capture continues the innermost paused one
/// (`graph`, when given, must be its graph). `who` names the caller in errors.
drv::CUgraph pause_open_capture(Device& d, drv::CUstream s, const char* who);
void resume_paused_capture(Device& d, drv::CUstream s, drv::CUgraph graph, const char* who);

}  // namespace treadle::cuda::detail
