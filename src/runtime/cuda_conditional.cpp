// src/runtime/cuda_conditional.cpp -- conditional graph nodes (wp.capture_if / capture_while)
//
// In a capture open on a stream, add_conditional creates the nodes' condition handles, captures
// a launch of the set-condition kernel (built by the api layer and linked with the device
// runtime library, which holds cudaGraphSetConditional) reading the int32 condition, and adds
// the conditional nodes after it: one IF node, two for if/else (the second's handle holds the
// negated condition, so neither body can change which one runs), or one WHILE node. Their
// body graphs are filled by capturing the capturing stream itself into them, the outer capture
// paused meanwhile (begin/end_body_capture), or by adding a captured graph as a child
// (add_child_graph). A while body ends with another launch
// of the set-condition kernel, so the loop re-reads the condition after every iteration.
#include <mutex>
#include <string>

#include "runtime/cuda.h"
#include "runtime/cuda_internal.h"

namespace treadle::cuda {

using namespace detail;

namespace {

int driver_version(const drv::Table& t) {
    int v = 0;
    return t.cuDriverGetVersion(&v) == drv::CUDA_SUCCESS ? v : 0;
}

const drv::Table& conditional_table(int ordinal) {
    if (!conditional_graphs_supported())
        throw Error(ErrorKind::Runtime,
                    "conditional graph nodes on " + device_name(ordinal) +
                        " need a CUDA 12.4 or newer driver (wp.is_conditional_graph_supported())");
    return drv::get();
}

/// The capture open on `s`: its graph and current dependencies.
struct CaptureState {
    drv::CUgraph graph = nullptr;
    const drv::CUgraphNode* deps = nullptr;
    size_t count = 0;
};

CaptureState capture_state(const drv::Table& t, drv::CUstream s, const std::string& where) {
    CaptureState c;
    int status = drv::CU_STREAM_CAPTURE_STATUS_NONE;
    uint64_t id = 0;
    if (drv::CUresult r = t.cuStreamGetCaptureInfo_v2(s, &status, &id, &c.graph, &c.deps, &c.count);
        r != drv::CUDA_SUCCESS)
        fail(t, "cuStreamGetCaptureInfo_v2", r, where);
    if (status != drv::CU_STREAM_CAPTURE_STATUS_ACTIVE || !c.graph)
        throw Error(ErrorKind::Runtime, where + ": the stream is not capturing a graph");
    return c;
}

}  // namespace

bool conditional_graphs_supported() {
    const drv::Table* t = drv::try_get();
    return t && graph_capture_supported() && t->cuGraphConditionalHandleCreate &&
           t->cuGraphAddNode && t->cuGraphAddChildGraphNode && t->cuStreamBeginCaptureToGraph &&
           t->cuStreamUpdateCaptureDependencies && t->cuStreamGetCaptureInfo_v2 &&
           t->cuLinkCreate_v2 && t->cuLinkAddData_v2 && t->cuLinkAddFile_v2 && t->cuLinkComplete &&
           t->cuLinkDestroy && driver_version(*t) >= 12040;
}

ModuleHandle load_linked_module(int ordinal, const std::string& image, bool is_cubin,
                                const std::string& library) {
    enter(ordinal);
    const drv::Table& t = conditional_table(ordinal);
    const std::string where = "load_linked_module(" + device_name(ordinal) + ")";
    drv::CUlinkState state = nullptr;
    if (drv::CUresult r = t.cuLinkCreate_v2(0, nullptr, nullptr, &state); r != drv::CUDA_SUCCESS)
        fail(t, "cuLinkCreate", r, where);
    drv::CUmodule module = nullptr;
    drv::CUresult r =
        t.cuLinkAddData_v2(state, is_cubin ? drv::CU_JIT_INPUT_CUBIN : drv::CU_JIT_INPUT_PTX,
                           const_cast<char*>(image.data()), image.size() + (is_cubin ? 0 : 1),
                           "treadle_conditional", 0, nullptr, nullptr);
    const char* step = "cuLinkAddData";
    if (r == drv::CUDA_SUCCESS) {
        step = "cuLinkAddFile";
        r = t.cuLinkAddFile_v2(state, drv::CU_JIT_INPUT_LIBRARY, library.c_str(), 0, nullptr,
                               nullptr);
    }
    void* linked = nullptr;
    size_t size = 0;
    if (r == drv::CUDA_SUCCESS) {
        step = "cuLinkComplete";
        r = t.cuLinkComplete(state, &linked, &size);
    }
    if (r == drv::CUDA_SUCCESS) {
        step = "cuModuleLoadData";
        r = t.cuModuleLoadData(&module, linked);  // before cuLinkDestroy frees `linked`
    }
    t.cuLinkDestroy(state);
    if (r != drv::CUDA_SUCCESS) fail(t, step, r, where + " with " + library);
    return module;
}

ConditionalNodes add_conditional(int ordinal, Stream stream, FunctionHandle set_condition,
                                 const void* condition, bool is_while, bool with_else) {
    Device& d = enter(ordinal);
    const drv::Table& t = conditional_table(ordinal);
    const drv::CUstream s = resolve(d, stream);
    const std::string where =
        std::string(is_while ? "capture_while" : "capture_if") + "(" + device_name(ordinal) + ")";
    CaptureState c = capture_state(t, s, where);
    ConditionalNodes out;
    const int nodes = !is_while && with_else ? 2 : 1;
    const drv::CUcontext ctx = d.context.load(std::memory_order_acquire);
    for (int i = 0; i < nodes; ++i) {
        drv::CUgraphConditionalHandle h = 0;
        if (drv::CUresult r = t.cuGraphConditionalHandleCreate(&h, c.graph, ctx, 0,
                                                               drv::CU_GRAPH_COND_ASSIGN_DEFAULT);
            r != drv::CUDA_SUCCESS)
            fail(t, "cuGraphConditionalHandleCreate", r, where);
        out.handles.push_back(h);
    }
    set_conditions(ordinal, stream, set_condition, out.handles[0], nodes == 2 ? out.handles[1] : 0,
                   condition);
    for (int i = 0; i < nodes; ++i) {
        c = capture_state(t, s, where);  // after the launch (or the previous node)
        drv::GraphNodeParams params{};
        params.type = drv::CU_GRAPH_NODE_TYPE_CONDITIONAL;
        params.conditional.handle = out.handles[i];
        params.conditional.type =
            is_while ? drv::CU_GRAPH_COND_TYPE_WHILE : drv::CU_GRAPH_COND_TYPE_IF;
        params.conditional.size = 1;
        params.conditional.ctx = ctx;
        drv::CUgraphNode node = nullptr;
        if (drv::CUresult r = t.cuGraphAddNode(&node, c.graph, c.deps, c.count, &params);
            r != drv::CUDA_SUCCESS)
            fail(t, "cuGraphAddNode", r, where);
        if (!params.conditional.bodies_out || !params.conditional.bodies_out[0])
            throw Error(ErrorKind::Runtime, where + ": the driver gave the node no body graph");
        out.bodies.push_back(params.conditional.bodies_out[0]);
        if (drv::CUresult r = t.cuStreamUpdateCaptureDependencies(
                s, &node, 1, drv::CU_STREAM_SET_CAPTURE_DEPENDENCIES);
            r != drv::CUDA_SUCCESS)
            fail(t, "cuStreamUpdateCaptureDependencies", r, where);
    }
    return out;
}

void set_conditions(int ordinal, Stream stream, FunctionHandle set_condition, uint64_t when_true,
                    uint64_t when_false, const void* condition) {
    void* args[3] = {&when_true, &when_false, const_cast<const void**>(&condition)};
    launch_args(ordinal, set_condition, 1, 1, args, stream);
}

void begin_body_capture(int ordinal, Stream stream, void* body) {
    Device& d = enter(ordinal);
    const drv::Table& t = conditional_table(ordinal);
    const drv::CUstream s = resolve(d, stream);
    const std::string where = "conditional body capture(" + device_name(ordinal) + ")";
    // The body is captured on the capturing stream itself (what the branch sees as its current
    // stream, and streams it forks from it, take part), the outer capture paused meanwhile.
    {
        std::lock_guard<std::mutex> lock(d.track);
        pause_open_capture(d, s, where.c_str());
    }
    if (drv::CUresult r = t.cuStreamBeginCaptureToGraph(s, static_cast<drv::CUgraph>(body), nullptr,
                                                        nullptr, 0, int(CaptureMode::ThreadLocal));
        r != drv::CUDA_SUCCESS) {
        std::lock_guard<std::mutex> lock(d.track);
        resume_paused_capture(d, s, nullptr, where.c_str());
        fail(t, "cuStreamBeginCaptureToGraph", r, where);
    }
    int status = 0;
    uint64_t id = 0;
    t.cuStreamGetCaptureInfo_v2(s, &status, &id, nullptr, nullptr, nullptr);
    register_capture(d, ordinal, s, id, false, true);
}

void end_body_capture(int ordinal, Stream stream) {
    Device& d = enter(ordinal);
    const drv::Table& t = conditional_table(ordinal);
    const drv::CUstream s = resolve(d, stream);
    const std::string where = "conditional body capture(" + device_name(ordinal) + ")";
    {
        std::lock_guard<std::mutex> lock(d.track);
        join_open_capture(d, s);  // streams the body forked and did not join
    }
    drv::CUgraph graph = nullptr;
    const drv::CUresult ended = t.cuStreamEndCapture(s, &graph);  // the body: the node owns it
    unregister_capture(d, s, false);
    {
        std::lock_guard<std::mutex> lock(d.track);
        resume_paused_capture(d, s, nullptr, where.c_str());
    }
    if (ended != drv::CUDA_SUCCESS)
        fail(t, "cuStreamEndCapture", ended,
             where +
                 ": an operation not allowed in a conditional body (a synchronisation, a copy "
                 "to or from host memory, an allocation...) invalidated it");
}

void add_child_graph(int ordinal, Stream stream, const Graph& graph) {
    Device& d = enter(ordinal);
    const drv::Table& t = conditional_table(ordinal);
    const drv::CUstream s = resolve(d, stream);
    const std::string where = "conditional body(" + device_name(ordinal) + ")";
    if (graph_has_allocations(graph))
        throw Error(ErrorKind::Runtime,
                    "Child graph contains an unsupported operation (memory allocation): the "
                    "graph given as a conditional body allocates memory");
    CaptureState c = capture_state(t, s, where);
    drv::CUgraphNode node = nullptr;
    if (drv::CUresult r = t.cuGraphAddChildGraphNode(
            &node, c.graph, c.deps, c.count, static_cast<drv::CUgraph>(graph_handle(graph)));
        r != drv::CUDA_SUCCESS)
        fail(t, "cuGraphAddChildGraphNode", r, where);
    if (drv::CUresult r = t.cuStreamUpdateCaptureDependencies(
            s, &node, 1, drv::CU_STREAM_SET_CAPTURE_DEPENDENCIES);
        r != drv::CUDA_SUCCESS)
        fail(t, "cuStreamUpdateCaptureDependencies", r, where);
}

void graph_debug_dot_print(const Graph& graph, const std::string& path, bool verbose) {
    const drv::Table& t = drv::get();
    if (!t.cuGraphDebugDotPrint)
        throw Error(ErrorKind::Runtime,
                    "graph_debug_dot_print(): the driver lacks cuGraphDebugDotPrint");
    if (drv::CUresult r =
            t.cuGraphDebugDotPrint(static_cast<drv::CUgraph>(graph_handle(graph)), path.c_str(),
                                   verbose ? drv::CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE : 0);
        r != drv::CUDA_SUCCESS)
        fail(t, "cuGraphDebugDotPrint", r, "graph_debug_dot_print(" + path + ")");
}

}  // namespace treadle::cuda
