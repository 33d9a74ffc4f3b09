// src/runtime/cuda_memory.cpp -- device memory: the pool; allocating and freeing around capture
//
// Outside graph capture an allocation is one cuMemAllocAsync (or cuMemAlloc with the pool off)
// and a free one cuMemFreeAsync (cuMemFree). While a capture begun through begin_capture is
// open on a device, three things change, all under the device's `track` lock:
//  - an allocation on a capturing stream becomes an allocation node of the graph: its address
//    is fixed, its memory exists from the graph's launch on (the graph is instantiated with
//    auto-free-on-launch, so each relaunch frees and allocates it again at the same address);
//  - freeing such graph memory while its capture is open adds a free node to the graph (on the
//    freeing stream when it takes part in the capture, else on the capture's stream); later,
//    the memory stays with the graph until the graph is destroyed, and is freed after the
//    graph's last launch (the graph records an event after each launch);
//  - freeing any other memory is put off until no capture is open (a free captured into the
//    graph would free it again at every launch).
// Destroying graphs, streams, events and modules is put off the same way, until no capture is
// open anywhere (release_outside_capture): a graph destroyed on a capturing thread was seen to
// invalidate the capture.
#include <algorithm>
#include <functional>
#include <iterator>
#include <mutex>
#include <unordered_set>
#include <vector>

#include "runtime/cuda.h"
#include "runtime/cuda_internal.h"

namespace treadle::cuda {

using namespace detail;

namespace {

drv::CUdeviceptr address(const void* ptr) { return reinterpret_cast<drv::CUdeviceptr>(ptr); }

bool pool_on(const Device& d) {
    return d.pool != nullptr && d.pool_enabled.load(std::memory_order_relaxed);
}

/// The allocation tracker (alloc_tracker_*): device allocations made while it is enabled, until
/// they are freed.
struct AllocTracker {
    std::atomic<bool> enabled{false};
    std::mutex mutex;
    std::unordered_set<drv::CUdeviceptr> live;
};

AllocTracker& tracker() {
    static AllocTracker t;
    return t;
}

void track_alloc(drv::CUdeviceptr ptr) {
    AllocTracker& t = tracker();
    if (!t.enabled.load(std::memory_order_relaxed) || !ptr) return;
    std::lock_guard<std::mutex> lock(t.mutex);
    t.live.insert(ptr);
}

void track_free(drv::CUdeviceptr ptr) {
    AllocTracker& t = tracker();
    if (!ptr) return;
    std::lock_guard<std::mutex> lock(t.mutex);
    t.live.erase(ptr);
}

/// The registered capture that `stream` takes part in (null if none). Holds d.track.
Capture* capture_of(Device& d, drv::CUstream stream) {
    if (d.captures.empty()) return nullptr;
    const drv::Table& t = drv::get();
    if (t.cuStreamGetCaptureInfo_v2) {
        // A stream forked from the capturing one (through an event) has the capture's id.
        int status = drv::CU_STREAM_CAPTURE_STATUS_NONE;
        uint64_t id = 0;
        TREADLE_CU_WITH(t, cuStreamGetCaptureInfo_v2, stream, &status, &id, nullptr, nullptr,
                        nullptr);
        if (status != drv::CU_STREAM_CAPTURE_STATUS_ACTIVE) return nullptr;
        for (Capture& c : d.captures)
            if (c.id != 0 && c.id == id) return &c;
    }
    for (Capture& c : d.captures)
        if (c.stream == stream && !c.paused) return &c;
    return nullptr;
}

void release(drv::CUdeviceptr ptr, bool pool, drv::CUstream stream) {
    if (pool)
        TREADLE_CU(cuMemFreeAsync, ptr, stream);
    else
        TREADLE_CU(cuMemFree_v2, ptr);
}

/// Frees graph memory on `stream` once the graph's last launch is done.
void release_graph_memory(const GraphMemory& graph, drv::CUdeviceptr ptr, drv::CUstream stream) {
    if (graph.done) TREADLE_CU(cuStreamWaitEvent, stream, graph.done, 0);
    TREADLE_CU(cuMemFreeAsync, ptr, stream);
}

/// Does the frees put off while captures were open, on the current stream. Holds d.track.
/// A free that fails is dropped: it must not cost the capture that just ended its graph.
void flush_deferred(Device& d) {
    std::vector<Deferred> list;
    list.swap(d.deferred);
    const drv::CUstream stream = d.current.load(std::memory_order_acquire);
    for (const Deferred& e : list) {
        try {
            if (e.graph)
                release_graph_memory(*e.graph, e.ptr, stream);
            else
                release(e.ptr, e.pool, stream);
        } catch (const Error&) {
        }
    }
}

/// Releases put off while captures are open (process-wide: capture modes restrict threads,
/// not devices). Deliberately never destroyed, like the device table.
struct Releases {
    std::mutex mutex;
    int open_captures = 0;
    std::vector<std::function<void()>> pending;
};
Releases& releases() {
    static Releases& r = *new Releases();
    return r;
}

/// Runs the put-off releases once no capture is open.
void run_releases() {
    std::vector<std::function<void()>> list;
    {
        Releases& r = releases();
        std::lock_guard<std::mutex> lock(r.mutex);
        if (r.open_captures != 0) return;
        list.swap(r.pending);
    }
    for (auto& release : list) {
        try {
            release();
        } catch (...) {  // a destruction that fails must not cost the capture that ended
        }
    }
}

}  // namespace

namespace detail {

void release_outside_capture(std::function<void()> release) {
    {
        Releases& r = releases();
        std::lock_guard<std::mutex> lock(r.mutex);
        if (r.open_captures > 0) {
            r.pending.push_back(std::move(release));
            return;
        }
    }
    release();
}

GraphMemory::~GraphMemory() {
    if (!done) return;
    if (const drv::Table* t = drv::try_get()) t->cuEventDestroy_v2(done);  // at exit: ignored
}

void register_capture(Device& d, int ordinal, drv::CUstream stream, uint64_t id, bool external,
                      bool conditional_body, int mode) {
    auto memory = std::make_shared<GraphMemory>();
    memory->ordinal = ordinal;
    memory->stream = stream;
    {
        Releases& r = releases();
        std::lock_guard<std::mutex> lock(r.mutex);
        ++r.open_captures;
    }
    std::lock_guard<std::mutex> lock(d.track);
    Capture c{stream, id, external, std::move(memory), conditional_body};
    c.mode = mode;
    d.captures.push_back(std::move(c));
    d.open_captures.fetch_add(1, std::memory_order_release);
}

bool registered_capture(Device& d, drv::CUstream stream, bool* external) {
    std::lock_guard<std::mutex> lock(d.track);
    for (const Capture& c : d.captures)
        if (c.stream == stream) {
            if (external) *external = c.external;
            return true;
        }
    return false;
}

std::shared_ptr<GraphMemory> unregister_capture(Device& d, drv::CUstream stream, bool graph_made) {
    std::shared_ptr<GraphMemory> memory;
    {
        std::lock_guard<std::mutex> lock(d.track);
        // The innermost open capture of the stream (a body capture over its paused outer one).
        auto rit = std::find_if(d.captures.rbegin(), d.captures.rend(),
                                [&](const Capture& c) { return c.stream == stream && !c.paused; });
        if (rit == d.captures.rend()) return nullptr;
        auto it = std::next(rit).base();
        memory = std::move(it->memory);
        const bool external = it->external;
        d.captures.erase(it);
        d.open_captures.fetch_sub(1, std::memory_order_release);
        memory->capturing = false;
        memory->graph_alive = graph_made;
        // An external capture's graph belongs to its owner, who launches it: its memory is
        // taken to exist, and is freed the plain way when its arrays go.
        memory->launched = external;
        if (d.captures.empty()) flush_deferred(d);
    }
    {
        Releases& r = releases();
        std::lock_guard<std::mutex> lock(r.mutex);
        --r.open_captures;
    }
    run_releases();
    return memory;
}

void graph_launched(GraphMemory& memory, drv::CUstream stream) {
    Device& d = device(memory.ordinal);
    std::lock_guard<std::mutex> lock(d.track);
    memory.launched = true;
    if (memory.done) TREADLE_CU(cuEventRecord, memory.done, stream);
}

void graph_destroyed(const std::shared_ptr<GraphMemory>& memory) {
    Device& d = device(memory->ordinal);
    std::lock_guard<std::mutex> lock(d.track);
    memory->graph_alive = false;
    std::vector<drv::CUdeviceptr> orphans;
    orphans.swap(memory->orphans);
    if (!memory->launched) return;  // the memory was never allocated
    const drv::CUstream stream = d.current.load(std::memory_order_acquire);
    for (drv::CUdeviceptr ptr : orphans) {
        if (!d.captures.empty()) {
            d.deferred.push_back(Deferred{ptr, true, memory});
            continue;
        }
        try {
            release_graph_memory(*memory, ptr, stream);
        } catch (const Error&) {
        }
    }
}

}  // namespace detail

void* alloc(int ordinal, size_t bytes, Stream stream) {
    Device& d = enter(ordinal);
    if (bytes == 0) return nullptr;
    const drv::CUstream s = resolve(d, stream);
    const bool pool = pool_on(d);
    std::shared_ptr<GraphMemory> graph;
    if (d.open_captures.load(std::memory_order_acquire) > 0) {
        std::lock_guard<std::mutex> lock(d.track);
        if (Capture* c = capture_of(d, s)) {
            if (c->conditional_body)
                throw Error(ErrorKind::Runtime,
                            "Conditional body graph contains an unsupported operation (memory "
                            "allocation): allocate the arrays before the capture");
            graph = c->memory;
        }
    }
    if (graph && !pool)
        throw Error(ErrorKind::Runtime,
                    "alloc(): cannot allocate memory on " + device_name(ordinal) +
                        " during graph capture while its memory pool is disabled (capture "
                        "allocates from the pool: enable it, e.g. wp.set_mempool_enabled)");
    drv::CUdeviceptr ptr = 0;
    try {
        if (pool)
            TREADLE_CU(cuMemAllocAsync, &ptr, bytes, s);
        else
            TREADLE_CU(cuMemAlloc_v2, &ptr, bytes);
    } catch (const Error& e) {
        if (e.kind() != ErrorKind::OutOfMemory) throw;
        std::string free_text = "free memory unknown";
        try {
            size_t free_bytes = 0, total_bytes = 0;
            TREADLE_CU(cuMemGetInfo_v2, &free_bytes, &total_bytes);
            free_text = std::to_string(free_bytes) + " bytes free";
        } catch (const Error&) {
        }
        throw Error(ErrorKind::OutOfMemory, "alloc(): out of memory on " + device_name(ordinal) +
                                                " allocating " + std::to_string(bytes) +
                                                " bytes (" + free_text + ")");
    }
    track_alloc(ptr);
    if (graph || (!pool && d.pool)) {
        // Graph memory, or plain memory on a device whose pool is off: free() must know.
        std::lock_guard<std::mutex> lock(d.track);
        drv::CUgraphNode node = nullptr;
        if (graph) {
            ++graph->allocations;
            std::vector<drv::CUgraphNode> leaves = capture_leaves(s);
            if (leaves.size() == 1) node = leaves[0];  // the allocation node just captured
        }
        d.tracked[ptr] = Tracked{std::move(graph), node};
        d.tracked_count.store(d.tracked.size(), std::memory_order_release);
    }
    return reinterpret_cast<void*>(ptr);
}

void free(int ordinal, void* ptr, Stream stream) {
    if (!ptr) return;
    track_free(address(ptr));  // its owner is done with it (a graph may free it later)
    try {
        Device& d = enter(ordinal);
        const drv::CUstream s = resolve(d, stream);
        const drv::CUdeviceptr p = address(ptr);
        if (d.open_captures.load(std::memory_order_acquire) == 0 &&
            d.tracked_count.load(std::memory_order_acquire) == 0) {
            release(p, d.pool != nullptr, s);
            return;
        }
        std::lock_guard<std::mutex> lock(d.track);
        bool pool = d.pool != nullptr;
        std::shared_ptr<GraphMemory> graph;
        drv::CUgraphNode alloc_node = nullptr;
        if (auto it = d.tracked.find(p); it != d.tracked.end()) {
            graph = std::move(it->second.graph);
            alloc_node = it->second.alloc_node;
            pool = graph != nullptr;
            d.tracked.erase(it);
            d.tracked_count.store(d.tracked.size(), std::memory_order_release);
        }
        if (graph) {
            if (graph->capturing) {
                // A free node after every branch of the capture that descends from the
                // allocation (kept for the resume while the capture is paused).
                for (Capture& owner : d.captures) {
                    if (owner.memory != graph || !alloc_node) continue;
                    if (owner.paused)
                        owner.paused_frees.emplace_back(p, alloc_node);
                    else
                        add_free_node(d, owner, p, alloc_node, s);
                    return;
                }
                // Without its allocation node: after the work queued so far on the freeing
                // stream when that stream takes part in the capture, else on the capture's.
                const Capture* c = capture_of(d, s);
                TREADLE_CU(cuMemFreeAsync, p, c && c->memory == graph ? s : graph->stream);
                return;
            }
            if (graph->graph_alive) {  // the graph reallocates it at each launch: keep it
                graph->orphans.push_back(p);
                return;
            }
            if (!graph->launched) return;  // its graph never ran: nothing was allocated
        }
        if (!d.captures.empty()) {
            d.deferred.push_back(Deferred{p, pool, std::move(graph)});
            return;
        }
        if (graph)
            release_graph_memory(*graph, p, s);
        else
            release(p, pool, s);
    } catch (const Error&) {
        if (!driver_shut_down()) throw;
    }
}

bool mempool_enabled(int ordinal) { return pool_on(enter(ordinal)); }

void set_mempool_enabled(int ordinal, bool enable) {
    Device& d = enter(ordinal);
    if (enable && !d.pool)
        throw Error(ErrorKind::Runtime, "set_mempool_enabled(): " + device_name(ordinal) +
                                            " does not support memory pools");
    d.pool_enabled.store(enable, std::memory_order_relaxed);
}

void set_release_threshold(int ordinal, uint64_t bytes) {
    Device& d = enter(ordinal);
    if (!d.pool) return;
    uint64_t value = bytes;
    TREADLE_CU(cuMemPoolSetAttribute, d.pool, drv::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &value);
}

namespace {

/// A uint64 attribute of the memory pool of `ordinal` (0 without a pool).
uint64_t pool_attribute(int ordinal, int attribute) {
    Device& d = enter(ordinal);
    const drv::Table& t = drv::get();
    if (!d.pool || !t.cuMemPoolGetAttribute) return 0;
    uint64_t value = 0;
    TREADLE_CU_WITH(t, cuMemPoolGetAttribute, d.pool, attribute, &value);
    return value;
}

}  // namespace

uint64_t release_threshold(int ordinal) {
    return pool_attribute(ordinal, drv::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD);
}

uint64_t mempool_used_current(int ordinal) {
    return pool_attribute(ordinal, drv::CU_MEMPOOL_ATTR_USED_MEM_CURRENT);
}

uint64_t mempool_used_high(int ordinal) {
    return pool_attribute(ordinal, drv::CU_MEMPOOL_ATTR_USED_MEM_HIGH);
}

void* alloc_outside_capture(int ordinal, size_t bytes) {
    Device& d = enter(ordinal);
    if (bytes == 0) return nullptr;
    const drv::Table& t = drv::get();
    // cuMemAlloc is refused on a capturing thread unless the thread's capture mode is relaxed.
    int mode = 2;  // CU_STREAM_CAPTURE_MODE_RELAXED
    if (t.cuThreadExchangeStreamCaptureMode)
        TREADLE_CU_WITH(t, cuThreadExchangeStreamCaptureMode, &mode);
    drv::CUdeviceptr ptr = 0;
    const drv::CUresult r = t.cuMemAlloc_v2(&ptr, bytes);
    if (t.cuThreadExchangeStreamCaptureMode) t.cuThreadExchangeStreamCaptureMode(&mode);
    if (r != drv::CUDA_SUCCESS)
        fail(t, "cuMemAlloc_v2", r,
             "alloc_outside_capture(" + device_name(ordinal) + ", " + std::to_string(bytes) +
                 " bytes)");
    track_alloc(ptr);
    if (d.pool) {  // plain memory on a device with a pool: free() must use cuMemFree
        std::lock_guard<std::mutex> lock(d.track);
        d.tracked[ptr] = Tracked{};
        d.tracked_count.store(d.tracked.size(), std::memory_order_release);
    }
    return reinterpret_cast<void*>(ptr);
}

void alloc_tracker_enable(bool enable) { tracker().enabled.store(enable); }

void alloc_tracker_reset() {
    AllocTracker& t = tracker();
    std::lock_guard<std::mutex> lock(t.mutex);
    t.live.clear();
}

size_t alloc_tracker_live_count() {
    AllocTracker& t = tracker();
    std::lock_guard<std::mutex> lock(t.mutex);
    return t.live.size();
}

void* host_alloc(size_t bytes) {
    enter(0);  // the driver needs a current context; portable memory serves every device
    if (bytes == 0) return nullptr;
    void* ptr = nullptr;
    try {
        TREADLE_CU(cuMemHostAlloc, &ptr, bytes, 0x01u /* CU_MEMHOSTALLOC_PORTABLE */);
    } catch (const Error& e) {
        if (e.kind() != ErrorKind::OutOfMemory) throw;
        throw Error(ErrorKind::OutOfMemory, "host_alloc(): out of pinned host memory allocating " +
                                                std::to_string(bytes) + " bytes");
    }
    return ptr;
}

void host_free(void* ptr) {
    if (!ptr) return;
    try {
        TREADLE_CU(cuMemFreeHost, ptr);
    } catch (const Error&) {
        if (!driver_shut_down()) throw;
    }
}

}  // namespace treadle::cuda
