// src/python/export_graph_nodes.cpp -- Python bindings of capture pause/resume and the shape
// queries of captured CUDA graphs (node handles are passed as ints)
#include <cstdint>

#include "exports.h"
#include "runtime/cuda.h"
#include "treadle/stream.h"

namespace cuda = treadle::cuda;

namespace {

using treadle::Stream;

void* as_handle(uintptr_t value) { return reinterpret_cast<void*>(value); }
uintptr_t as_int(void* handle) { return reinterpret_cast<uintptr_t>(handle); }

}  // namespace

void export_graph_nodes(nb::module_& m) {
    m.def(
        "cuda_context", [](int ordinal) { return as_int(cuda::context_handle(ordinal)); },
        nb::arg("ordinal"),
        "The primary CUDA context of device `ordinal` (a CUcontext, as an int).");
    m.def(
        "cuda_alloc_outside_capture",
        [](int ordinal, size_t bytes) {
            return as_int(cuda::alloc_outside_capture(ordinal, bytes));
        },
        nb::arg("ordinal"), nb::arg("bytes"),
        "Plain device memory that belongs to no graph, even during a capture (an int address).");
    m.def(
        "cuda_free", [](int ordinal, uintptr_t ptr) { cuda::free(ordinal, as_handle(ptr)); },
        nb::arg("ordinal"), nb::arg("ptr"), "Frees device memory from cuda_alloc_outside_capture.");
    m.def("cuda_graph_memory_in_use", &cuda::graph_memory_in_use, nb::arg("ordinal"),
          "Bytes of device memory graphs' allocations hold now.");
    m.def("cuda_graph_memory_trim", &cuda::graph_memory_trim, nb::arg("ordinal"),
          "Gives the memory graphs no longer use back to the system.");
    m.def("cuda_alloc_tracker_enable", &cuda::alloc_tracker_enable, nb::arg("enable"),
          "Notes device allocations from now on (True) or stops noting them.");
    m.def("cuda_alloc_tracker_reset", &cuda::alloc_tracker_reset,
          "Forgets the allocations noted so far.");
    m.def("cuda_alloc_tracker_live_count", &cuda::alloc_tracker_live_count,
          "How many noted allocations are not freed yet.");
    m.def(
        "capture_pause",
        [](const Stream& stream) {
            return as_int(cuda::pause_capture(stream.device().ordinal(), stream.handle()));
        },
        nb::arg("stream"),
        "Pauses the capture on `stream` and returns the graph captured so far (a CUgraph).");
    m.def(
        "capture_resume",
        [](const Stream& stream, uintptr_t graph) {
            cuda::resume_capture(stream.device().ordinal(), stream.handle(), as_handle(graph));
        },
        nb::arg("stream"), nb::arg("graph"),
        "Resumes the capture paused on `stream`, into `graph`.");
    m.def(
        "cuda_graph_insert_empty_node",
        [](int ordinal) { return as_int(cuda::graph_insert_empty_node(ordinal)); },
        nb::arg("ordinal"), "Adds an empty node to the capture on the current stream.");
    m.def(
        "cuda_graph_insert_alloc_node",
        [](int ordinal, size_t bytes) {
            return as_int(cuda::graph_insert_alloc_node(ordinal, bytes));
        },
        nb::arg("ordinal"), nb::arg("bytes"),
        "Allocates `bytes` in the capture on the current stream; returns the allocation node.");
    m.def(
        "cuda_graph_insert_free_node",
        [](int ordinal, uintptr_t alloc_node) {
            return as_int(cuda::graph_insert_free_node(ordinal, as_handle(alloc_node)));
        },
        nb::arg("ordinal"), nb::arg("alloc_node"),
        "Frees the memory of `alloc_node` on the current stream; returns the free node.");
    m.def(
        "cuda_graph_node_depends_on",
        [](uintptr_t node, uintptr_t ancestor) {
            return cuda::graph_node_depends_on(as_handle(node), as_handle(ancestor));
        },
        nb::arg("node"), nb::arg("ancestor"),
        "0 when `node` runs after `ancestor`, 1 when not, -1 on error.");
    m.def(
        "cuda_graph_alloc_query",
        [](uintptr_t alloc_node, uintptr_t node) {
            return cuda::graph_alloc_query(as_handle(alloc_node), as_handle(node));
        },
        nb::arg("alloc_node"), nb::arg("node"),
        "0: `node` may use the allocation; 1: freed before it; 2: not after the allocation; "
        "-2: the free is concurrent with it; -1: error.");
}
