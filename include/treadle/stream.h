// include/treadle/stream.h -- CUDA streams, events and graph capture for C++ programs
//
// Each CUDA device has a current stream, shared by all threads: launches, copies, fills and
// allocations given no stream go there. It starts as the device's default stream, a blocking
// stream (it synchronises with CUDA's legacy NULL stream) that treadle creates with the
// device's primary context and keeps for the life of the process; Stream::set_current (or a
// ScopedStream) chooses another. Stream, Event and Graph are cheap to copy: copies share one
// handle, and a handle treadle created is destroyed with the last copy. All of them need a
// CUDA device: on the CPU, or without CUDA, their constructors throw treadle::Error (Value for
// a CPU device, Runtime when CUDA is missing).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "treadle/device.h"

namespace treadle {

namespace cuda {
struct Graph;
}

/// How strictly a graph capture forbids potentially unsafe CUDA calls (synchronisations,
/// plain allocations...): ThreadLocal, Warp's choice and the default here, forbids them on the
/// capturing thread only; Global in every thread; Relaxed nowhere.
enum class CaptureMode { Global = 0, ThreadLocal = 1, Relaxed = 2 };

class Event;

/// A CUDA stream of one device: work queued on it runs in order; work on different streams
/// may overlap unless events order it. A default-constructed Stream is null, which stands for
/// the device's current stream wherever a stream is taken.
class Stream {
public:
    Stream() = default;
    /// Creates a stream on CUDA device `device`. `priority`: 0 is the default, lower numbers
    /// are scheduled first (clamped to the device's range, e.g. -5 to 0). A `blocking` stream
    /// synchronises with the legacy NULL stream; `blocking = false` makes one that does not.
    explicit Stream(Device device, int priority = 0, bool blocking = true);
    /// A Stream for an existing CUstream of `device` (another library's, say); never destroyed
    /// by treadle, so the caller keeps it alive while it is used.
    static Stream borrow(Device device, void* handle);
    /// The current stream of CUDA device `device` (not owned).
    static Stream current(Device device);
    /// The default stream treadle made for CUDA device `device` (not owned).
    static Stream device_default(Device device);
    /// Makes `stream` the current stream of its device, for every thread. The caller keeps
    /// `stream` alive while it is current (destroying a current stream makes the default
    /// stream current again).
    static void set_current(const Stream& stream);
    /// Makes the device's default stream current again.
    static void reset_current(Device device);

    bool is_null() const { return !m_state; }
    /// The device (the CPU for a null Stream).
    Device device() const;
    /// The CUstream handle (nullptr for a null Stream).
    void* handle() const;
    /// Whether this object created the handle (and destroys it with its last copy).
    bool owns_handle() const;
    /// The stream's priority and whether it synchronises with the legacy NULL stream.
    int priority() const;
    bool is_blocking() const;
    /// Waits on the host for the work queued so far; errors of that work are thrown here.
    void synchronize() const;
    /// True when the work queued so far has finished.
    bool is_complete() const;
    /// True while the stream is capturing a graph.
    bool is_capturing() const;
    /// Records `event` here: it completes when the work queued before it has. `external`:
    /// during a capture, as an event record node of the graph (see cuda::record_event).
    void record(const Event& event, bool external = false) const;
    /// Makes later work here wait until `event` completes (without blocking the host).
    /// `external`: during a capture, as an event wait node of the graph.
    void wait(const Event& event, bool external = false) const;
    /// Makes later work here wait for the work queued on `other` so far.
    void wait(const Stream& other) const;

    /// Same handle on the same device.
    bool operator==(const Stream& other) const;
    bool operator!=(const Stream& other) const { return !(*this == other); }

    struct State;

private:
    std::shared_ptr<const State> m_state;
};

/// A CUDA event of one device: a point in a stream that other streams and the host can wait
/// for, and (with timing) measure between.
class Event {
public:
    Event() = default;
    /// Creates an event on CUDA device `device`; `enable_timing` lets elapsed_ms use it.
    explicit Event(Device device, bool enable_timing = false);

    bool is_null() const { return !m_state; }
    Device device() const;
    /// The CUevent handle (nullptr for a null Event).
    void* handle() const;
    bool timing_enabled() const;
    /// Records the event on `stream` (null: the device's current stream); `external` as in
    /// Stream::record.
    void record(const Stream& stream = Stream(), bool external = false) const;
    /// Waits on the host until the event completes.
    void synchronize() const;
    /// True when the event has completed (or was never recorded).
    bool is_complete() const;
    /// Milliseconds from `start` to `end`, two recorded timing events of one device; with
    /// `synchronize` it first waits for `end` to complete.
    static float elapsed_ms(const Event& start, const Event& end, bool synchronize = true);

    struct State;

private:
    std::shared_ptr<const State> m_state;
};

/// A captured CUDA graph: a sequence of launches, copies, fills and allocations recorded from
/// a stream, replayed with one launch. Memory allocated during the capture belongs to the
/// graph: each launch allocates it afresh at the same address (freeing the previous launch's)
/// so arrays made during the capture hold the results of the latest launch.
class Graph {
public:
    Graph() = default;

    /// Begins capturing `stream` (null: the device's current stream of `device`): the work
    /// queued on it is recorded, not run, until end_capture. With `external`, the capture
    /// was begun by other code and treadle only registers it. Throws ErrorKind::Runtime when
    /// the stream is already capturing and ErrorKind::Value for the legacy stream.
    static void begin_capture(const Stream& stream, CaptureMode mode = CaptureMode::ThreadLocal,
                              bool external = false);
    static void begin_capture(Device device, CaptureMode mode = CaptureMode::ThreadLocal);
    /// Ends the capture on `stream` and instantiates the graph. The stream leaves capture mode
    /// even when this throws (ErrorKind::Runtime: an operation not allowed during capture
    /// invalidated it). An external capture gives a null Graph (its owner ends it).
    static Graph end_capture(const Stream& stream);
    static Graph end_capture(Device device);

    bool is_null() const { return !m_graph; }
    Device device() const { return m_device; }
    /// Enqueues the whole graph on `stream` (null: the device's current stream).
    void launch(const Stream& stream = Stream()) const;
    /// The CUgraphExec handle (nullptr for a null Graph).
    void* exec_handle() const;
    /// Writes the graph as GraphViz text to `path` (the driver's cuGraphDebugDotPrint).
    void debug_dot_print(const std::string& path, bool verbose = false) const;

private:
    friend class ConditionalCapture;
    std::shared_ptr<cuda::Graph> m_graph;
    Device m_device;
};

/// Conditional nodes in the capture open on a stream: an if (with an else) or a while node
/// whose condition is the int32 at a device address, read when the graph runs. Fill each body
/// by capturing the capturing stream into it (begin_body/end_body: the outer capture pauses
/// meanwhile, and resumes after the node) or with a captured graph (add_graph).
/// Needs a CUDA 12.4+ driver, NVRTC and the toolkit's libcudadevrt.a (supported()).
class ConditionalCapture {
public:
    static bool supported();
    /// Adds the node(s) after the work captured on `stream` so far; capture goes on after them.
    static ConditionalCapture add(const Stream& stream, const void* condition, bool is_while,
                                  bool with_else);
    /// Bodies: 1 (if, while) or 2 (if/else: body 1 runs when the condition is zero).
    int body_count() const { return int(m_bodies.size()); }
    /// Pauses the capture on `body_stream` (the stream the node was added on, or a body
    /// capture's stream for a nested node) and captures it into body `i` until end_body.
    void begin_body(int i, const Stream& body_stream) const;
    /// Ends that capture and resumes the paused one; a while body first queues the re-read of
    /// the condition.
    void end_body(int i, const Stream& body_stream) const;
    /// Makes `graph` (captured without allocations) the content of body `i`, capturing it
    /// there through `body_stream` (as begin_body/end_body do).
    void add_graph(int i, const Graph& graph, const Stream& body_stream) const;

private:
    Device m_device;
    const void* m_condition = nullptr;
    bool m_while = false;
    std::vector<uint64_t> m_handles;
    std::vector<void*> m_bodies;
    void* m_set_kernel = nullptr;
};

/// Makes `stream` the current stream of its device for a scope, then restores the previous
/// one. With `sync_enter`, `stream` first waits for the work queued on the previous stream.
class ScopedStream {
public:
    explicit ScopedStream(const Stream& stream, bool sync_enter = true);
    ~ScopedStream();
    ScopedStream(const ScopedStream&) = delete;
    ScopedStream& operator=(const ScopedStream&) = delete;

private:
    Stream m_stream;
    Stream m_saved;
};

/// Captures a stream for a scope: begins in the constructor; end() ends the capture and
/// returns the graph. A capture still open when the scope is left (an exception) is ended
/// and discarded, so the stream can capture again.
class ScopedCapture {
public:
    explicit ScopedCapture(const Stream& stream, CaptureMode mode = CaptureMode::ThreadLocal);
    explicit ScopedCapture(Device device, CaptureMode mode = CaptureMode::ThreadLocal);
    ~ScopedCapture();
    ScopedCapture(const ScopedCapture&) = delete;
    ScopedCapture& operator=(const ScopedCapture&) = delete;

    /// Ends the capture and returns its graph (throws as Graph::end_capture does).
    Graph end();

private:
    Stream m_stream;
    bool m_open = false;
};

}  // namespace treadle
