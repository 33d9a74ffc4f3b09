// src/api/stream.cpp -- the C++ API of streams, events and graphs over treadle::cuda
#include "treadle/stream.h"

#include <string>

#include "runtime/cuda.h"
#include "treadle/error.h"

namespace treadle {

namespace {

/// The ordinal of CUDA device `device`; a CPU device is a Value error naming `what`.
int cuda_ordinal(Device device, const char* what) {
    if (!device.is_cuda())
        throw Error(ErrorKind::Value, std::string(what) + ": device " + device.alias() +
                                          " is not a CUDA device (streams, events and graphs "
                                          "exist on CUDA devices only)");
    return device.ordinal();
}

[[noreturn]] void null_error(const char* what) {
    throw Error(ErrorKind::Value, std::string(what) + ": the object is null");
}

}  // namespace

// ---- Stream ----------------------------------------------------------------------------------

struct Stream::State {
    Device device;
    void* handle = nullptr;
    bool owned = false;

    ~State() {
        if (!owned) return;
        try {
            cuda::destroy_stream(device.ordinal(), handle);
        } catch (...) {  // a destructor must not throw
        }
    }
};

Stream::Stream(Device device, int priority, bool blocking) {
    const int ordinal = cuda_ordinal(device, "Stream");
    auto state = std::make_shared<State>();
    state->device = device;
    state->handle = cuda::create_stream(ordinal, blocking, priority);
    state->owned = true;
    m_state = std::move(state);
}

Stream Stream::borrow(Device device, void* handle) {
    cuda_ordinal(device, "Stream::borrow");
    if (!handle) throw Error(ErrorKind::Value, "Stream::borrow: null stream handle");
    auto state = std::make_shared<State>();
    state->device = device;
    state->handle = handle;
    Stream s;
    s.m_state = std::move(state);
    return s;
}

Stream Stream::current(Device device) {
    return borrow(device, cuda::current_stream(cuda_ordinal(device, "Stream::current")));
}

Stream Stream::device_default(Device device) {
    return borrow(device, cuda::default_stream(cuda_ordinal(device, "Stream::device_default")));
}

void Stream::set_current(const Stream& stream) {
    if (!stream.m_state) null_error("Stream::set_current");
    cuda::set_current_stream(stream.device().ordinal(), stream.handle());
}

void Stream::reset_current(Device device) {
    cuda::set_current_stream(cuda_ordinal(device, "Stream::reset_current"), nullptr);
}

Device Stream::device() const { return m_state ? m_state->device : Device::cpu(); }

void* Stream::handle() const { return m_state ? m_state->handle : nullptr; }

bool Stream::owns_handle() const { return m_state && m_state->owned; }

int Stream::priority() const {
    if (!m_state) null_error("Stream::priority");
    return cuda::stream_priority(m_state->device.ordinal(), m_state->handle);
}

bool Stream::is_blocking() const {
    if (!m_state) null_error("Stream::is_blocking");
    return cuda::stream_is_blocking(m_state->device.ordinal(), m_state->handle);
}

void Stream::synchronize() const {
    if (!m_state) null_error("Stream::synchronize");
    cuda::synchronize_stream(m_state->device.ordinal(), m_state->handle);
}

bool Stream::is_complete() const {
    if (!m_state) null_error("Stream::is_complete");
    return cuda::stream_query(m_state->device.ordinal(), m_state->handle);
}

bool Stream::is_capturing() const {
    if (!m_state) null_error("Stream::is_capturing");
    return cuda::is_capturing(m_state->device.ordinal(), m_state->handle);
}

void Stream::record(const Event& event) const {
    if (!m_state) null_error("Stream::record");
    event.record(*this);
}

void Stream::wait(const Event& event) const {
    if (!m_state) null_error("Stream::wait");
    if (event.is_null()) null_error("Stream::wait (event)");
    cuda::stream_wait_event(m_state->device.ordinal(), m_state->handle, event.handle());
}

void Stream::wait(const Stream& other) const {
    if (!m_state) null_error("Stream::wait");
    if (!other.m_state) null_error("Stream::wait (other stream)");
    Event event(other.device());
    event.record(other);
    wait(event);  // the event may go now: the wait holds what it needs
}

bool Stream::operator==(const Stream& other) const {
    return handle() == other.handle() && device() == other.device();
}

// ---- Event -----------------------------------------------------------------------------------

struct Event::State {
    Device device;
    void* handle = nullptr;
    bool timing = false;

    ~State() {
        try {
            cuda::destroy_event(device.ordinal(), handle);
        } catch (...) {  // a destructor must not throw
        }
    }
};

Event::Event(Device device, bool enable_timing) {
    const int ordinal = cuda_ordinal(device, "Event");
    auto state = std::make_shared<State>();
    state->device = device;
    state->timing = enable_timing;
    state->handle = cuda::create_event(ordinal, enable_timing);
    m_state = std::move(state);
}

Device Event::device() const { return m_state ? m_state->device : Device::cpu(); }

void* Event::handle() const { return m_state ? m_state->handle : nullptr; }

bool Event::timing_enabled() const { return m_state && m_state->timing; }

void Event::record(const Stream& stream) const {
    if (!m_state) null_error("Event::record");
    if (!stream.is_null() && stream.device() != m_state->device)
        throw Error(ErrorKind::Value, "Event::record: an event of " + m_state->device.alias() +
                                          " cannot be recorded on a stream of " +
                                          stream.device().alias());
    cuda::record_event(m_state->device.ordinal(), m_state->handle, stream.handle());
}

void Event::synchronize() const {
    if (!m_state) null_error("Event::synchronize");
    cuda::synchronize_event(m_state->device.ordinal(), m_state->handle);
}

bool Event::is_complete() const {
    if (!m_state) null_error("Event::is_complete");
    return cuda::event_query(m_state->device.ordinal(), m_state->handle);
}

float Event::elapsed_ms(const Event& start, const Event& end, bool synchronize) {
    if (!start.m_state || !end.m_state) null_error("Event::elapsed_ms");
    if (!start.m_state->timing || !end.m_state->timing)
        throw Error(ErrorKind::Value,
                    "Event::elapsed_ms: both events need timing (enable_timing = true)");
    if (start.device() != end.device())
        throw Error(ErrorKind::Value, "Event::elapsed_ms: the events are on different devices");
    if (synchronize) end.synchronize();
    return cuda::event_elapsed_ms(start.device().ordinal(), start.handle(), end.handle());
}

// ---- Graph -----------------------------------------------------------------------------------

void Graph::begin_capture(const Stream& stream, CaptureMode mode, bool external) {
    if (stream.is_null()) null_error("Graph::begin_capture");
    cuda::begin_capture(stream.device().ordinal(), stream.handle(),
                        static_cast<cuda::CaptureMode>(mode), external);
}

void Graph::begin_capture(Device device, CaptureMode mode) {
    begin_capture(Stream::current(device), mode);
}

Graph Graph::end_capture(const Stream& stream) {
    if (stream.is_null()) null_error("Graph::end_capture");
    Graph g;
    g.m_graph = cuda::end_capture(stream.device().ordinal(), stream.handle());
    if (g.m_graph) g.m_device = stream.device();
    return g;
}

Graph Graph::end_capture(Device device) { return end_capture(Stream::current(device)); }

void Graph::launch(const Stream& stream) const {
    if (!m_graph) null_error("Graph::launch");
    if (!stream.is_null() && stream.device() != m_device)
        throw Error(ErrorKind::Value, "Graph::launch: a graph of " + m_device.alias() +
                                          " cannot be launched on a stream of " +
                                          stream.device().alias());
    cuda::launch_graph(*m_graph, stream.handle());
}

void* Graph::exec_handle() const { return m_graph ? cuda::graph_exec(*m_graph) : nullptr; }

void Graph::debug_dot_print(const std::string& path, bool verbose) const {
    if (!m_graph) null_error("Graph::debug_dot_print");
    cuda::graph_debug_dot_print(*m_graph, path, verbose);
}

// ---- scopes ----------------------------------------------------------------------------------

ScopedStream::ScopedStream(const Stream& stream, bool sync_enter) : m_stream(stream) {
    if (stream.is_null()) null_error("ScopedStream");
    m_saved = Stream::current(stream.device());
    if (sync_enter && m_saved != stream) stream.wait(m_saved);
    Stream::set_current(stream);
}

ScopedStream::~ScopedStream() {
    try {
        Stream::set_current(m_saved);
    } catch (...) {  // a destructor must not throw
    }
}

ScopedCapture::ScopedCapture(const Stream& stream, CaptureMode mode) : m_stream(stream) {
    Graph::begin_capture(stream, mode);
    m_open = true;
}

ScopedCapture::ScopedCapture(Device device, CaptureMode mode)
    : ScopedCapture(Stream::current(device), mode) {}

ScopedCapture::~ScopedCapture() {
    if (!m_open) return;
    try {
        Graph::end_capture(m_stream);  // discarded
    } catch (...) {  // an invalidated capture: the stream has left capture mode anyway
    }
}

Graph ScopedCapture::end() {
    if (!m_open)
        throw Error(ErrorKind::Runtime, "ScopedCapture::end: the capture has already ended");
    m_open = false;
    return Graph::end_capture(m_stream);
}

}  // namespace treadle
