// src/runtime/cuda_stream.cpp -- treadle::cuda streams, events, graph capture and graph launches
#include <algorithm>
#include <string>

#include "runtime/cuda.h"
#include "runtime/cuda_internal.h"

namespace treadle::cuda {

using namespace detail;

/// An instantiated graph and the memory its capture allocated.
struct Graph {
    int ordinal = 0;
    drv::CUgraph graph = nullptr;
    drv::CUgraphExec exec = nullptr;
    std::shared_ptr<GraphMemory> memory;

    Graph() = default;
    Graph(const Graph&) = delete;
    Graph& operator=(const Graph&) = delete;
    ~Graph();
};

namespace {

drv::CUevent event_of(Event event) { return static_cast<drv::CUevent>(event); }

/// The driver, with a message naming the device when it cannot capture graphs.
const drv::Table& capture_table(int ordinal) {
    const drv::Table& t = drv::get();
    if (!graph_capture_supported())
        throw Error(ErrorKind::Runtime, "graph capture on " + device_name(ordinal) +
                                            " needs a CUDA 11.4 or newer driver (this one lacks "
                                            "the stream capture or graph entry points)");
    return t;
}

int capture_status(const drv::Table& t, drv::CUstream stream) {
    int status = drv::CU_STREAM_CAPTURE_STATUS_NONE;
    TREADLE_CU_WITH(t, cuStreamIsCapturing, stream, &status);
    return status;
}

/// cuStreamQuery / cuEventQuery: true when done, false when CUDA_ERROR_NOT_READY.
bool ready(const drv::Table& t, drv::CUresult result, const char* call) {
    if (result == drv::CUDA_ERROR_NOT_READY) return false;
    drv::check(t, result, call);
    return true;
}

}  // namespace

namespace detail {
[[noreturn]] void fail(const drv::Table& t, const char* call, drv::CUresult result,
                       const std::string& where) {
    try {
        drv::throw_error(t, call, result);
    } catch (const Error& e) {
        rethrow_with(e, where);
    }
}
}  // namespace detail

Graph::~Graph() {
    try {
        release_outside_capture(
            [ordinal = ordinal, graph = graph, exec = exec, memory = std::move(memory)] {
                if (const drv::Table* t = drv::try_get()) {
                    enter(ordinal);
                    if (exec) t->cuGraphExecDestroy(exec);
                    if (graph) t->cuGraphDestroy(graph);
                }
                if (memory) graph_destroyed(memory);
            });
    } catch (...) {  // a destructor must not throw (a driver torn down at exit, say)
    }
}

// ---- streams ---------------------------------------------------------------------------------

Stream current_stream(int ordinal) {
    return enter(ordinal).current.load(std::memory_order_acquire);
}

Stream default_stream(int ordinal) { return enter(ordinal).default_stream; }

void set_current_stream(int ordinal, Stream stream) {
    Device& d = enter(ordinal);
    d.current.store(stream ? static_cast<drv::CUstream>(stream) : d.default_stream,
                    std::memory_order_release);
}

Stream create_stream(int ordinal, bool blocking, int priority) {
    enter(ordinal);
    drv::CUstream stream = nullptr;
    TREADLE_CU(cuStreamCreateWithPriority, &stream, blocking ? 0u : drv::CU_STREAM_NON_BLOCKING,
               priority);
    Device& d = device(ordinal);
    std::lock_guard<std::mutex> lock(d.track);
    d.streams.push_back(stream);
    return stream;
}

void destroy_stream(int ordinal, Stream stream) {
    if (!stream || stream == legacy_stream) return;
    try {
        Device& d = enter(ordinal);
        drv::CUstream s = static_cast<drv::CUstream>(stream);
        if (s == d.default_stream) return;
        drv::CUstream expected = s;
        d.current.compare_exchange_strong(expected, d.default_stream, std::memory_order_acq_rel);
        // Destroyed once no capture is open: until then the stream stays known, so that a
        // capture it took part in can join it at its end.
        release_outside_capture([ordinal, s] {
            Device& dev = enter(ordinal);
            {
                std::lock_guard<std::mutex> lock(dev.track);
                dev.streams.erase(std::remove(dev.streams.begin(), dev.streams.end(), s),
                                  dev.streams.end());
            }
            TREADLE_CU(cuStreamDestroy_v2, s);
        });
    } catch (const Error&) {
        if (!driver_shut_down()) throw;
    }
}

bool stream_query(int ordinal, Stream stream) {
    Device& d = enter(ordinal);
    const drv::Table& t = drv::get();
    return ready(t, t.cuStreamQuery(resolve(d, stream)), "cuStreamQuery");
}

int stream_priority(int ordinal, Stream stream) {
    Device& d = enter(ordinal);
    int priority = 0;
    TREADLE_CU(cuStreamGetPriority, resolve(d, stream), &priority);
    return priority;
}

bool stream_is_blocking(int ordinal, Stream stream) {
    Device& d = enter(ordinal);
    unsigned flags = 0;
    TREADLE_CU(cuStreamGetFlags, resolve(d, stream), &flags);
    return (flags & drv::CU_STREAM_NON_BLOCKING) == 0;
}

void priority_range(int ordinal, int& least, int& greatest) {
    enter(ordinal);
    TREADLE_CU(cuCtxGetStreamPriorityRange, &least, &greatest);
}

// ---- events ----------------------------------------------------------------------------------

Event create_event(int ordinal, bool timing) {
    enter(ordinal);
    drv::CUevent event = nullptr;
    TREADLE_CU(cuEventCreate, &event, timing ? 0u : drv::CU_EVENT_DISABLE_TIMING);
    return event;
}

void destroy_event(int ordinal, Event event) {
    if (!event) return;
    try {
        release_outside_capture([ordinal, event] {
            enter(ordinal);
            TREADLE_CU(cuEventDestroy_v2, event_of(event));
        });
    } catch (const Error&) {
        if (!driver_shut_down()) throw;
    }
}

void record_event(int ordinal, Event event, Stream stream, bool external) {
    Device& d = enter(ordinal);
    if (!external) {
        TREADLE_CU(cuEventRecord, event_of(event), resolve(d, stream));
        return;
    }
    const drv::Table& t = drv::get();
    if (!t.cuEventRecordWithFlags)
        throw Error(ErrorKind::Runtime, "record_event(external=True) needs a CUDA 11.1+ driver");
    TREADLE_CU(cuEventRecordWithFlags, event_of(event), resolve(d, stream),
               drv::CU_EVENT_RECORD_EXTERNAL);
}

void stream_wait_event(int ordinal, Stream stream, Event event, bool external) {
    Device& d = enter(ordinal);
    TREADLE_CU(cuStreamWaitEvent, resolve(d, stream), event_of(event),
               external ? drv::CU_EVENT_WAIT_EXTERNAL : 0u);
}

void synchronize_event(int ordinal, Event event) {
    enter(ordinal);
    TREADLE_CU(cuEventSynchronize, event_of(event));
}

bool event_query(int ordinal, Event event) {
    enter(ordinal);
    const drv::Table& t = drv::get();
    return ready(t, t.cuEventQuery(event_of(event)), "cuEventQuery");
}

float event_elapsed_ms(int ordinal, Event start, Event end) {
    enter(ordinal);
    float ms = 0.0f;
    try {
        TREADLE_CU(cuEventElapsedTime, &ms, event_of(start), event_of(end));
    } catch (const Error& e) {
        rethrow_with(e, "elapsed time (" + device_name(ordinal) +
                            "; both events need timing enabled and must have been recorded "
                            "and completed)");
    }
    return ms;
}

// ---- graph capture ---------------------------------------------------------------------------

bool graph_capture_supported() {
    const drv::Table* t = drv::try_get();
    return t && t->cuStreamBeginCapture_v2 && t->cuStreamEndCapture && t->cuStreamIsCapturing &&
           t->cuGraphInstantiateWithFlags && t->cuGraphLaunch && t->cuGraphDestroy &&
           t->cuGraphExecDestroy;
}

void begin_capture(int ordinal, Stream stream, CaptureMode mode, bool external) {
    Device& d = enter(ordinal);
    const drv::Table& t = capture_table(ordinal);
    const drv::CUstream s = resolve(d, stream);
    const std::string where = "begin_capture(" + device_name(ordinal) + ")";
    if (s == nullptr || s == drv::CU_STREAM_LEGACY)
        throw Error(ErrorKind::Value, where +
                                          ": the legacy default stream cannot be captured; "
                                          "capture a stream treadle created (the device's "
                                          "default stream is one)");
    if (registered_capture(d, s, nullptr))
        throw Error(ErrorKind::Runtime,
                    where + ": a graph capture is already in progress on this stream");
    const int status = capture_status(t, s);
    if (external) {
        if (status != drv::CU_STREAM_CAPTURE_STATUS_ACTIVE)
            throw Error(ErrorKind::Runtime, where +
                                                ": external capture, but the stream is not "
                                                "capturing (begin it with the library that "
                                                "owns it first)");
    } else {
        if (status != drv::CU_STREAM_CAPTURE_STATUS_NONE)
            throw Error(ErrorKind::Runtime, where +
                                                ": the stream is already capturing (begun "
                                                "outside treadle? then say it is external)");
        if (drv::CUresult r = t.cuStreamBeginCapture_v2(s, int(mode)); r != drv::CUDA_SUCCESS)
            fail(t, "cuStreamBeginCapture_v2", r, where);
    }
    uint64_t id = 0;
    if (t.cuStreamGetCaptureInfo_v2) {
        int capture = 0;
        if (drv::CUresult r =
                t.cuStreamGetCaptureInfo_v2(s, &capture, &id, nullptr, nullptr, nullptr);
            r != drv::CUDA_SUCCESS) {
            if (!external) {  // leave nothing half begun
                drv::CUgraph graph = nullptr;
                t.cuStreamEndCapture(s, &graph);
                if (graph) t.cuGraphDestroy(graph);
            }
            fail(t, "cuStreamGetCaptureInfo_v2", r, where);
        }
    }
    register_capture(d, ordinal, s, id, external, false, int(mode));
}

bool is_capturing(int ordinal, Stream stream) {
    Device& d = enter(ordinal);
    const drv::Table& t = drv::get();
    if (!t.cuStreamIsCapturing) return false;
    return capture_status(t, resolve(d, stream)) != drv::CU_STREAM_CAPTURE_STATUS_NONE;
}

std::shared_ptr<Graph> end_capture(int ordinal, Stream stream) {
    Device& d = enter(ordinal);
    const drv::Table& t = capture_table(ordinal);
    const drv::CUstream s = resolve(d, stream);
    const std::string where = "end_capture(" + device_name(ordinal) + ")";
    bool external = false;
    if (!registered_capture(d, s, &external))
        throw Error(ErrorKind::Runtime,
                    where +
                        ": no graph capture begun with begin_capture is in progress on "
                        "this stream");
    if (external) {
        unregister_capture(d, s, false);
        return nullptr;
    }
    drv::CUgraph paused = nullptr;
    {
        // Streams forked from the capture and not joined back would make it fail to end.
        std::lock_guard<std::mutex> lock(d.track);
        for (Capture& c : d.captures) {
            if (c.stream != s || !c.paused) continue;
            paused = c.paused_graph;  // taken off below, as an open capture would be
            c.paused = false;
            c.paused_graph = nullptr;
            break;
        }
        if (!paused) join_open_capture(d, s);
    }
    if (paused) {  // the capture is dropped, with what it captured
        unregister_capture(d, s, false);
        release_outside_capture([paused] { TREADLE_CU(cuGraphDestroy, paused); });
        throw Error(ErrorKind::Runtime, where +
                                            ": the capture was paused (capture_pause) and not "
                                            "resumed; it is discarded");
    }
    drv::CUgraph graph = nullptr;
    drv::CUgraphExec exec = nullptr;
    const drv::CUresult ended = t.cuStreamEndCapture(s, &graph);
    drv::CUresult made = ended;
    if (ended == drv::CUDA_SUCCESS && graph)
        made = t.cuGraphInstantiateWithFlags(&exec, graph,
                                             drv::CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH);
    const bool ok = ended == drv::CUDA_SUCCESS && made == drv::CUDA_SUCCESS && graph;
    if (!ok && graph) {
        t.cuGraphDestroy(graph);
        graph = nullptr;
    }
    // Only now that the stream has left capture mode: the frees put off meanwhile may run.
    std::shared_ptr<GraphMemory> memory = unregister_capture(d, s, ok);
    if (ended != drv::CUDA_SUCCESS)
        fail(t, "cuStreamEndCapture", ended,
             where +
                 ": the capture failed; an operation not allowed during capture (a "
                 "synchronisation, a copy to or from host memory, an allocation without "
                 "the memory pool...) invalidated it");
    if (made != drv::CUDA_SUCCESS) fail(t, "cuGraphInstantiateWithFlags", made, where);
    auto result = std::make_shared<Graph>();
    result->ordinal = ordinal;
    result->graph = graph;
    result->exec = exec;
    result->memory = memory;
    if (memory && memory->allocations > 0) {
        drv::CUevent done = nullptr;
        TREADLE_CU_WITH(t, cuEventCreate, &done, drv::CU_EVENT_DISABLE_TIMING);
        std::lock_guard<std::mutex> lock(d.track);
        memory->done = done;
    }
    return result;
}

void launch_graph(const Graph& graph, Stream stream) {
    Device& d = enter(graph.ordinal);
    const drv::CUstream s = resolve(d, stream);
    try {
        TREADLE_CU(cuGraphLaunch, graph.exec, s);
    } catch (const Error& e) {
        rethrow_with(e, "launch_graph(" + device_name(graph.ordinal) + ")");
    }
    if (graph.memory && graph.memory->allocations > 0) graph_launched(*graph.memory, s);
}

int graph_ordinal(const Graph& graph) { return graph.ordinal; }

bool graph_has_allocations(const Graph& graph) {
    return graph.memory && graph.memory->allocations > 0;
}

void* graph_handle(const Graph& graph) { return graph.graph; }

void* graph_exec(const Graph& graph) { return graph.exec; }

}  // namespace treadle::cuda
