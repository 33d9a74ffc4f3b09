// src/python/export_stream.cpp -- Python bindings of CUDA streams, events, graphs and memory pools
#include <nanobind/stl/string.h>

#include <cstdint>

#include "exports.h"
#include "runtime/cuda.h"
#include "treadle/error.h"
#include "treadle/stream.h"

namespace cuda = treadle::cuda;

namespace {

using treadle::Device;

uintptr_t as_int(void* handle) { return reinterpret_cast<uintptr_t>(handle); }

}  // namespace

void export_stream(nb::module_& m) {
    using treadle::Event;
    using treadle::Graph;
    using treadle::Stream;

    nb::class_<Stream>(m, "Stream", "A CUDA stream (treadle::Stream); see treadle.Stream.")
        .def(
            "__init__",
            [](Stream* self, const std::string& alias, int priority, bool blocking) {
                new (self) Stream(Device::parse(alias), priority, blocking);
            },
            nb::arg("device"), nb::arg("priority") = 0, nb::arg("blocking") = true)
        .def_static(
            "borrow",
            [](const std::string& alias, uintptr_t handle) {
                return Stream::borrow(Device::parse(alias), reinterpret_cast<void*>(handle));
            },
            nb::arg("device"), nb::arg("handle"))
        .def_static(
            "current",
            [](const std::string& alias) { return Stream::current(Device::parse(alias)); },
            nb::arg("device"))
        .def_static(
            "device_default",
            [](const std::string& alias) { return Stream::device_default(Device::parse(alias)); },
            nb::arg("device"))
        .def_static("set_current", &Stream::set_current, nb::arg("stream"))
        .def_static(
            "reset_current",
            [](const std::string& alias) { Stream::reset_current(Device::parse(alias)); },
            nb::arg("device"))
        .def_prop_ro("handle", [](const Stream& s) { return as_int(s.handle()); })
        .def_prop_ro("device", [](const Stream& s) { return s.device().alias(); })
        .def_prop_ro("owns_handle", &Stream::owns_handle)
        .def_prop_ro("priority", &Stream::priority)
        .def_prop_ro("is_blocking", &Stream::is_blocking)
        .def_prop_ro("is_complete", &Stream::is_complete)
        .def_prop_ro("is_capturing", &Stream::is_capturing)
        .def("synchronize", &Stream::synchronize, nb::call_guard<nb::gil_scoped_release>())
        .def("record", &Stream::record, nb::arg("event"), nb::arg("external") = false)
        .def("wait_event", nb::overload_cast<const Event&, bool>(&Stream::wait, nb::const_),
             nb::arg("event"), nb::arg("external") = false)
        .def("wait_stream", nb::overload_cast<const Stream&>(&Stream::wait, nb::const_),
             nb::arg("other"));

    nb::class_<Event>(m, "Event", "A CUDA event (treadle::Event); see treadle.Event.")
        .def(
            "__init__",
            [](Event* self, const std::string& alias, bool enable_timing) {
                new (self) Event(Device::parse(alias), enable_timing);
            },
            nb::arg("device"), nb::arg("enable_timing") = false)
        .def_prop_ro("handle", [](const Event& e) { return as_int(e.handle()); })
        .def_prop_ro("device", [](const Event& e) { return e.device().alias(); })
        .def_prop_ro("timing_enabled", &Event::timing_enabled)
        .def_prop_ro("is_complete", &Event::is_complete)
        .def("record", &Event::record, nb::arg("stream"), nb::arg("external") = false)
        .def("synchronize", &Event::synchronize, nb::call_guard<nb::gil_scoped_release>())
        .def_static("elapsed_ms", &Event::elapsed_ms, nb::arg("start"), nb::arg("end"),
                    nb::arg("synchronize") = true, nb::call_guard<nb::gil_scoped_release>());

    nb::class_<Graph>(m, "Graph", "An instantiated CUDA graph (treadle::Graph).")
        .def_prop_ro("device", [](const Graph& g) { return g.device().alias(); })
        .def_prop_ro("exec_handle", [](const Graph& g) { return as_int(g.exec_handle()); })
        .def("launch", &Graph::launch, nb::arg("stream"))
        .def(
            "launch_current", [](const Graph& g) { g.launch(); },
            "Launches the graph on its device's current stream.")
        .def("debug_dot_print", &Graph::debug_dot_print, nb::arg("path"),
             nb::arg("verbose") = false, "Writes the graph as GraphViz text to `path`.");

    using treadle::ConditionalCapture;
    nb::class_<ConditionalCapture>(m, "ConditionalCapture",
                                   "Conditional nodes in an open capture (treadle::"
                                   "ConditionalCapture): if, if/else or while on an int32.")
        .def_static(
            "add",
            [](const Stream& stream, uintptr_t condition, bool is_while, bool with_else) {
                return ConditionalCapture::add(stream, reinterpret_cast<const void*>(condition),
                                               is_while, with_else);
            },
            nb::arg("stream"), nb::arg("condition"), nb::arg("is_while"), nb::arg("with_else"))
        .def_prop_ro("body_count", &ConditionalCapture::body_count)
        .def("begin_body", &ConditionalCapture::begin_body, nb::arg("index"), nb::arg("stream"))
        .def("end_body", &ConditionalCapture::end_body, nb::arg("index"), nb::arg("stream"))
        .def("add_graph", &ConditionalCapture::add_graph, nb::arg("index"), nb::arg("graph"),
             nb::arg("stream"));
    m.def("cuda_conditional_supported", &ConditionalCapture::supported,
          "Whether CUDA captures can hold conditional nodes (driver 12.4+, NVRTC, "
          "libcudadevrt.a).");

    m.def(
        "capture_begin",
        [](const Stream& stream, int mode, bool external) {
            if (mode < 0 || mode > 2)
                throw treadle::Error(treadle::ErrorKind::Value,
                                     "capture mode must be 0 (global), 1 (thread-local) or 2 "
                                     "(relaxed), got " +
                                         std::to_string(mode));
            Graph::begin_capture(stream, static_cast<treadle::CaptureMode>(mode), external);
        },
        nb::arg("stream"), nb::arg("mode") = 1, nb::arg("external") = false,
        "Begins capturing `stream` into a graph (mode: 0 global, 1 thread-local, 2 relaxed).");
    m.def(
        "capture_end",
        [](const Stream& stream) -> nb::object {
            Graph g = Graph::end_capture(stream);
            if (g.is_null()) return nb::none();
            return nb::cast(std::move(g));
        },
        nb::arg("stream"),
        "Ends the capture on `stream`: the instantiated Graph, or None for an external one.");
    m.def("cuda_graph_capture_supported", &cuda::graph_capture_supported,
          "Whether the CUDA driver supports graph capture (CUDA 11.4+).");
    m.def(
        "cuda_stream_priority_range",
        [](int ordinal) {
            int least = 0, greatest = 0;
            cuda::priority_range(ordinal, least, greatest);
            return nb::make_tuple(least, greatest);
        },
        nb::arg("ordinal"), "(least, greatest) stream priority of CUDA device `ordinal`.");
    m.def("cuda_mempool_enabled", &cuda::mempool_enabled, nb::arg("ordinal"));
    m.def("cuda_set_mempool_enabled", &cuda::set_mempool_enabled, nb::arg("ordinal"),
          nb::arg("enable"));
    m.def("cuda_peer_access_supported", &cuda::peer_access_supported, nb::arg("target"),
          nb::arg("peer"));
    m.def("cuda_peer_access_enabled", &cuda::peer_access_enabled, nb::arg("target"),
          nb::arg("peer"));
    m.def("cuda_set_peer_access_enabled", &cuda::set_peer_access_enabled, nb::arg("target"),
          nb::arg("peer"), nb::arg("enable"));
    m.def("cuda_mempool_access_enabled", &cuda::mempool_access_enabled, nb::arg("target"),
          nb::arg("peer"));
    m.def("cuda_set_mempool_access_enabled", &cuda::set_mempool_access_enabled, nb::arg("target"),
          nb::arg("peer"), nb::arg("enable"));
    m.def("cuda_mempool_release_threshold", &cuda::release_threshold, nb::arg("ordinal"));
    m.def("cuda_mempool_used_current", &cuda::mempool_used_current, nb::arg("ordinal"));
    m.def("cuda_mempool_used_high", &cuda::mempool_used_high, nb::arg("ordinal"));
    m.def("cuda_set_mempool_release_threshold", &cuda::set_release_threshold, nb::arg("ordinal"),
          nb::arg("bytes"));
}
