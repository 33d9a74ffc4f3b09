// src/runtime/cuda_graph_nodes.cpp -- graph nodes of captures: free nodes, joins, pause/resume
//
// A capture can span several streams: work forks onto another stream when that stream waits
// for an event of a capturing one. Freeing memory allocated in the capture adds a free node to
// the graph; it must come after all work that can use the memory (every branch that descends
// from the allocation node) and after nothing else, so that independent branches stay
// concurrent. Ending a capture joins the streams still forked from it, and a capture can be
// paused (its stream leaves capture mode, e.g. to allocate memory) and resumed where it was.
// The queries at the end (insert_*_node, node_depends_on, alloc_query) let tests look at the
// shape of captured graphs.
#include <algorithm>
#include <string>
#include <unordered_set>

#include "runtime/cuda.h"
#include "runtime/cuda_internal.h"

namespace treadle::cuda {

using namespace detail;

namespace {

const drv::Table& node_table() {
    const drv::Table& t = drv::get();
    if (!t.cuGraphAddMemFreeNode || !t.cuGraphNodeGetDependencies || !t.cuGraphAddEmptyNode ||
        !t.cuGraphNodeGetType || !t.cuGraphMemFreeNodeGetParams ||
        !t.cuGraphMemAllocNodeGetParams || !t.cuGraphNodeGetDependentNodes ||
        !t.cuStreamUpdateCaptureDependencies || !t.cuStreamGetCaptureInfo_v2)
        throw Error(ErrorKind::Runtime,
                    "this CUDA driver lacks the graph node functions (CUDA 12.3 or newer needed)");
    return t;
}

/// The nodes `node` depends on (`get` = cuGraphNodeGetDependencies) or that depend on it
/// (cuGraphNodeGetDependentNodes).
using EdgeQuery = drv::CUresult (*)(drv::CUgraphNode, drv::CUgraphNode*, size_t*);

std::vector<drv::CUgraphNode> neighbours(const drv::Table& t, EdgeQuery get, const char* call,
                                         drv::CUgraphNode node) {
    size_t n = 0;
    if (drv::CUresult r = get(node, nullptr, &n); r != drv::CUDA_SUCCESS)
        fail(t, call, r, "graph node query");
    std::vector<drv::CUgraphNode> out(n);
    if (n)
        if (drv::CUresult r = get(node, out.data(), &n); r != drv::CUDA_SUCCESS)
            fail(t, call, r, "graph node query");
    out.resize(n);
    return out;
}

std::vector<drv::CUgraphNode> dependencies(const drv::Table& t, drv::CUgraphNode node) {
    return neighbours(t, t.cuGraphNodeGetDependencies, "cuGraphNodeGetDependencies", node);
}

std::vector<drv::CUgraphNode> dependents(const drv::Table& t, drv::CUgraphNode node) {
    return neighbours(t, t.cuGraphNodeGetDependentNodes, "cuGraphNodeGetDependentNodes", node);
}

/// Whether `node` runs after `ancestor` (a path of edges leads from `ancestor` to it).
bool descends(const drv::Table& t, drv::CUgraphNode node, drv::CUgraphNode ancestor) {
    std::vector<drv::CUgraphNode> todo = dependencies(t, node);
    std::unordered_set<drv::CUgraphNode> seen;
    while (!todo.empty()) {
        drv::CUgraphNode n = todo.back();
        todo.pop_back();
        if (n == ancestor) return true;
        if (!seen.insert(n).second) continue;
        for (drv::CUgraphNode dep : dependencies(t, n)) todo.push_back(dep);
    }
    return false;
}

uint64_t capture_id(const drv::Table& t, drv::CUstream stream) {
    int status = drv::CU_STREAM_CAPTURE_STATUS_NONE;
    uint64_t id = 0;
    if (t.cuStreamGetCaptureInfo_v2(stream, &status, &id, nullptr, nullptr, nullptr) !=
            drv::CUDA_SUCCESS ||
        status != drv::CU_STREAM_CAPTURE_STATUS_ACTIVE)
        return 0;
    return id;
}

/// The streams treadle knows that take part in capture `c` (its origin stream first).
std::vector<drv::CUstream> streams_of(const drv::Table& t, Device& d, const Capture& c) {
    std::vector<drv::CUstream> out{c.stream};
    std::vector<drv::CUstream> candidates = d.streams;
    candidates.push_back(d.default_stream);
    for (drv::CUstream s : candidates) {
        if (!s || s == c.stream || std::find(out.begin(), out.end(), s) != out.end()) continue;
        if (c.id != 0 && capture_id(t, s) == c.id) out.push_back(s);
    }
    return out;
}

/// The free node of `alloc_node`'s memory, or null: the first free of its address after it
/// (a later allocation may reuse the address, and be freed again further on).
drv::CUgraphNode find_free_node(const drv::Table& t, drv::CUgraphNode alloc_node) {
    drv::MemAllocNodeParams params{};
    TREADLE_CU_WITH(t, cuGraphMemAllocNodeGetParams, alloc_node, &params);
    std::vector<drv::CUgraphNode> todo = dependents(t, alloc_node);
    std::vector<drv::CUgraphNode> frees;
    std::unordered_set<drv::CUgraphNode> seen;
    while (!todo.empty()) {
        drv::CUgraphNode n = todo.back();
        todo.pop_back();
        if (!seen.insert(n).second) continue;
        int type = -1;
        TREADLE_CU_WITH(t, cuGraphNodeGetType, n, &type);
        if (type == drv::CU_GRAPH_NODE_TYPE_MEM_FREE) {
            drv::CUdeviceptr freed = 0;
            TREADLE_CU_WITH(t, cuGraphMemFreeNodeGetParams, n, &freed);
            if (freed == params.dptr) {
                frees.push_back(n);
                continue;  // frees after this one are of later allocations
            }
        }
        for (drv::CUgraphNode next : dependents(t, n)) todo.push_back(next);
    }
    for (drv::CUgraphNode f : frees) {
        bool first = true;
        for (drv::CUgraphNode other : frees)
            if (other != f && descends(t, f, other)) first = false;
        if (first) return f;
    }
    return nullptr;
}

/// The innermost capture registered on `stream` that is open (`paused` false) or paused.
Capture* capture_on(Device& d, drv::CUstream stream, bool paused) {
    for (auto it = d.captures.rbegin(); it != d.captures.rend(); ++it)
        if (it->stream == stream && it->paused == paused) return &*it;
    return nullptr;
}

}  // namespace

namespace detail {

std::vector<drv::CUgraphNode> capture_leaves(drv::CUstream stream, drv::CUgraph* graph) {
    const drv::Table& t = drv::get();
    int status = drv::CU_STREAM_CAPTURE_STATUS_NONE;
    const drv::CUgraphNode* deps = nullptr;
    size_t n = 0;
    drv::CUgraph g = nullptr;
    if (!t.cuStreamGetCaptureInfo_v2) return {};
    TREADLE_CU_WITH(t, cuStreamGetCaptureInfo_v2, stream, &status, nullptr, &g, &deps, &n);
    if (graph) *graph = g;
    if (status != drv::CU_STREAM_CAPTURE_STATUS_ACTIVE) return {};
    return std::vector<drv::CUgraphNode>(deps, deps + n);
}

void add_free_node(Device& d, const Capture& c, drv::CUdeviceptr ptr, drv::CUgraphNode alloc_node,
                   drv::CUstream freeing) {
    const drv::Table& t = node_table();
    std::vector<drv::CUgraphNode> deps;
    std::vector<drv::CUstream> reached;  // the streams whose work can use the memory
    drv::CUgraph graph = nullptr;
    for (drv::CUstream s : streams_of(t, d, c)) {
        drv::CUgraph g = nullptr;
        bool reaches = false;
        for (drv::CUgraphNode leaf : capture_leaves(s, &g)) {
            if (leaf != alloc_node && !descends(t, leaf, alloc_node)) continue;
            reaches = true;
            if (std::find(deps.begin(), deps.end(), leaf) == deps.end()) deps.push_back(leaf);
        }
        if (reaches) reached.push_back(s);
        if (!graph) graph = g;
    }
    if (!graph) throw Error(ErrorKind::Runtime, "free(): the capture of this memory is not open");
    if (deps.empty()) deps.push_back(alloc_node);  // no stream reaches it any more
    drv::CUgraphNode node = nullptr;
    TREADLE_CU_WITH(t, cuGraphAddMemFreeNode, &node, graph, deps.data(), deps.size(), ptr);
    // Later work on those streams, and on the freeing one, comes after the free.
    if (c.id != 0 && capture_id(t, freeing) == c.id &&
        std::find(reached.begin(), reached.end(), freeing) == reached.end())
        reached.push_back(freeing);
    for (drv::CUstream s : reached)
        TREADLE_CU_WITH(t, cuStreamUpdateCaptureDependencies, s, &node, 1,
                        drv::CU_STREAM_ADD_CAPTURE_DEPENDENCIES);
}

void join_open_capture(Device& d, drv::CUstream s) {
    Capture* c = capture_on(d, s, false);
    if (!c) return;
    try {
        join_capture_streams(d, *c);
    } catch (const Error&) {  // ending the capture reports what went wrong
    }
}

void join_capture_streams(Device& d, const Capture& c) {
    const drv::Table& t = drv::get();
    if (!t.cuStreamGetCaptureInfo_v2 || c.id == 0) return;
    std::vector<drv::CUstream> streams = streams_of(t, d, c);
    if (streams.size() < 2) return;
    drv::CUevent joined = nullptr;
    TREADLE_CU_WITH(t, cuEventCreate, &joined, drv::CU_EVENT_DISABLE_TIMING);
    try {
        for (size_t i = 1; i < streams.size(); ++i) {
            TREADLE_CU_WITH(t, cuEventRecord, joined, streams[i]);
            TREADLE_CU_WITH(t, cuStreamWaitEvent, c.stream, joined, 0);
        }
    } catch (...) {
        release_outside_capture([joined] { TREADLE_CU(cuEventDestroy_v2, joined); });
        throw;
    }
    release_outside_capture([joined] { TREADLE_CU(cuEventDestroy_v2, joined); });
}

}  // namespace detail

namespace detail {

drv::CUgraph pause_open_capture(Device& d, drv::CUstream s, const char* who) {
    const drv::Table& t = node_table();
    Capture* c = capture_on(d, s, false);
    if (!c || c->external)
        throw Error(ErrorKind::Runtime, std::string(who) +
                                            ": no graph capture begun with capture_begin is in "
                                            "progress on this stream");
    join_capture_streams(d, *c);
    std::vector<drv::CUgraphNode> leaves = capture_leaves(s);
    drv::CUgraph graph = nullptr;
    TREADLE_CU_WITH(t, cuStreamEndCapture, s, &graph);
    c->paused = true;
    c->paused_graph = graph;
    c->paused_leaves = std::move(leaves);
    c->id = 0;
    return graph;
}

void resume_paused_capture(Device& d, drv::CUstream s, drv::CUgraph graph, const char* who) {
    const drv::Table& t = node_table();
    if (!t.cuStreamBeginCaptureToGraph)
        throw Error(ErrorKind::Runtime, std::string(who) +
                                            ": this CUDA driver cannot resume captures (CUDA "
                                            "12.3 or newer needed)");
    Capture* c = capture_on(d, s, true);
    if (!c || (graph && c->paused_graph != graph))
        throw Error(ErrorKind::Runtime,
                    std::string(who) +
                        ": the graph is not the one capture_pause() returned for this stream");
    TREADLE_CU_WITH(t, cuStreamBeginCaptureToGraph, s, c->paused_graph, c->paused_leaves.data(),
                    nullptr, c->paused_leaves.size(), c->mode);
    c->paused = false;
    c->paused_graph = nullptr;
    c->paused_leaves.clear();
    int status = drv::CU_STREAM_CAPTURE_STATUS_NONE;
    TREADLE_CU_WITH(t, cuStreamGetCaptureInfo_v2, s, &status, &c->id, nullptr, nullptr, nullptr);
    std::vector<std::pair<drv::CUdeviceptr, drv::CUgraphNode>> frees;
    frees.swap(c->paused_frees);
    for (const auto& [ptr, node] : frees) add_free_node(d, *c, ptr, node, s);
}

}  // namespace detail

void* pause_capture(int ordinal, Stream stream) {
    Device& d = enter(ordinal);
    const drv::CUstream s = resolve(d, stream);
    std::lock_guard<std::mutex> lock(d.track);
    return pause_open_capture(d, s, "capture_pause()");
}

void resume_capture(int ordinal, Stream stream, void* graph) {
    Device& d = enter(ordinal);
    const drv::CUstream s = resolve(d, stream);
    std::lock_guard<std::mutex> lock(d.track);
    resume_paused_capture(d, s, static_cast<drv::CUgraph>(graph), "capture_resume()");
}

void* graph_insert_empty_node(int ordinal, Stream stream) {
    Device& d = enter(ordinal);
    const drv::Table& t = node_table();
    const drv::CUstream s = resolve(d, stream);
    drv::CUgraph graph = nullptr;
    std::vector<drv::CUgraphNode> leaves = capture_leaves(s, &graph);
    if (!graph) throw Error(ErrorKind::Runtime, "insert_empty_node(): the stream is not capturing");
    drv::CUgraphNode node = nullptr;
    TREADLE_CU_WITH(t, cuGraphAddEmptyNode, &node, graph, leaves.data(), leaves.size());
    TREADLE_CU_WITH(t, cuStreamUpdateCaptureDependencies, s, &node, 1,
                    drv::CU_STREAM_SET_CAPTURE_DEPENDENCIES);
    return node;
}

void* graph_insert_alloc_node(int ordinal, size_t bytes, Stream stream) {
    Device& d = enter(ordinal);
    const drv::CUstream s = resolve(d, stream);
    void* ptr = alloc(ordinal, bytes, s);
    std::vector<drv::CUgraphNode> leaves = capture_leaves(s);
    if (leaves.size() != 1) {
        free(ordinal, ptr, s);
        throw Error(ErrorKind::Runtime, "insert_alloc_node(): the stream is not capturing");
    }
    return leaves[0];
}

void* graph_insert_free_node(int ordinal, void* alloc_node, Stream stream) {
    const drv::Table& t = node_table();
    drv::MemAllocNodeParams params{};
    TREADLE_CU_WITH(t, cuGraphMemAllocNodeGetParams, static_cast<drv::CUgraphNode>(alloc_node),
                    &params);
    free(ordinal, reinterpret_cast<void*>(params.dptr), stream);
    return find_free_node(t, static_cast<drv::CUgraphNode>(alloc_node));
}

uint64_t graph_memory_in_use(int ordinal) {
    Device& d = enter(ordinal);
    const drv::Table& t = drv::get();
    if (!t.cuDeviceGetGraphMemAttribute) return 0;
    uint64_t used = 0;
    TREADLE_CU_WITH(t, cuDeviceGetGraphMemAttribute, d.handle, 0, &used);  // USED_MEM_CURRENT
    return used;
}

void graph_memory_trim(int ordinal) {
    Device& d = enter(ordinal);
    const drv::Table& t = drv::get();
    if (t.cuDeviceGraphMemTrim) TREADLE_CU_WITH(t, cuDeviceGraphMemTrim, d.handle);
}

int graph_node_depends_on(void* node, void* ancestor) {
    try {
        return descends(node_table(), static_cast<drv::CUgraphNode>(node),
                        static_cast<drv::CUgraphNode>(ancestor))
                   ? 0
                   : 1;
    } catch (const Error&) {
        return -1;
    }
}

int graph_alloc_query(void* alloc_node, void* node) {
    try {
        const drv::Table& t = node_table();
        auto a = static_cast<drv::CUgraphNode>(alloc_node);
        auto n = static_cast<drv::CUgraphNode>(node);
        if (!descends(t, n, a)) return 2;  // not reached from the allocation
        drv::CUgraphNode freed = find_free_node(t, a);
        if (!freed) return 0;
        if (n == freed || descends(t, n, freed)) return 1;
        return descends(t, freed, n) ? 0 : -2;  // a free concurrent with a use
    } catch (const Error&) {
        return -1;
    }
}

}  // namespace treadle::cuda
