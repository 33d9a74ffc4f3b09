// src/api/conditional.cpp -- builds the set-condition kernel of conditional graph nodes
#include "api/conditional.h"

#include <unistd.h>

#include <cstdlib>
#include <map>
#include <mutex>

#include "treadle/error.h"
#include "compile/nvrtc.h"
#include "treadle/stream.h"

namespace treadle {

namespace {

// cudaGraphSetConditional lives in the device runtime library: the module is compiled
// relocatable and linked with libcudadevrt.a. A handle of 0 is not set.
const char* const k_source = R"(
typedef unsigned long long treadle_condition_handle;
extern "C" __device__ void cudaGraphSetConditional(treadle_condition_handle handle,
                                                   unsigned int value);
extern "C" __global__ void treadle_set_conditions(treadle_condition_handle when_true,
                                                  treadle_condition_handle when_false,
                                                  const int* condition) {
    const unsigned int c = condition[0] != 0 ? 1u : 0u;
    cudaGraphSetConditional(when_true, c);
    if (when_false) cudaGraphSetConditional(when_false, 1u - c);
}
)";

bool readable(const std::string& path) { return ::access(path.c_str(), R_OK) == 0; }

}  // namespace

std::string cudadevrt_path() {
    if (const char* chosen = std::getenv("TREADLE_CUDADEVRT")) return readable(chosen) ? chosen : "";
    std::vector<std::string> roots;
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
        if (const char* root = std::getenv(var)) roots.push_back(root);
    roots.push_back("/usr/local/cuda");
    for (const std::string& root : roots)
        for (const char* sub : {"/lib64/", "/lib/", "/targets/x86_64-linux/lib/"})
            if (readable(root + sub + "libcudadevrt.a")) return root + sub + "libcudadevrt.a";
    std::string nvrtc_lib = nvrtc::library_path();
    size_t slash = nvrtc_lib.find_last_of('/');
    if (slash != std::string::npos) {
        std::string candidate = nvrtc_lib.substr(0, slash) + "/libcudadevrt.a";
        if (readable(candidate)) return candidate;
    }
    return "";
}

bool conditional_captures_available() {
    try {
        return cuda::conditional_graphs_supported() && nvrtc::is_available() &&
               !cudadevrt_path().empty();
    } catch (...) {
        return false;
    }
}

cuda::FunctionHandle set_condition_kernel(int ordinal) {
    static std::mutex mutex;
    static std::map<int, cuda::FunctionHandle> kernels;  // process lifetime, like the driver
    std::lock_guard<std::mutex> lock(mutex);
    auto it = kernels.find(ordinal);
    if (it != kernels.end()) return it->second;
    const std::string library = cudadevrt_path();
    if (library.empty())
        throw Error(ErrorKind::Runtime,
                    "conditional graph nodes need the CUDA device runtime library "
                    "libcudadevrt.a (from the CUDA toolkit); set TREADLE_CUDADEVRT to its path");
    const cuda::DeviceInfo& info = cuda::device_info(ordinal);
    nvrtc::Result built = nvrtc::compile(k_source, "treadle_conditional.cu",
                                         info.major * 10 + info.minor, {}, {"-rdc=true"});
    if (!built.ok)
        throw Error(ErrorKind::Runtime,
                    "building the conditional-node kernel failed:\n" + built.log);
    cuda::ModuleHandle module =
        cuda::load_linked_module(ordinal, built.image, built.is_cubin, library);
    cuda::FunctionHandle f = cuda::get_function(module, "treadle_set_conditions");
    kernels[ordinal] = f;
    return f;
}

}  // namespace treadle

// ---- ConditionalCapture (include/treadle/stream.h) ------------------------------------------

namespace treadle {

bool ConditionalCapture::supported() { return conditional_captures_available(); }

ConditionalCapture ConditionalCapture::add(const Stream& stream, const void* condition,
                                           bool is_while, bool with_else) {
    if (stream.is_null() || !stream.device().is_cuda())
        throw Error(ErrorKind::Value, "conditional nodes need a capturing CUDA stream");
    ConditionalCapture c;
    c.m_device = stream.device();
    c.m_condition = condition;
    c.m_while = is_while;
    const int ordinal = c.m_device.ordinal();
    c.m_set_kernel = set_condition_kernel(ordinal);
    cuda::ConditionalNodes nodes = cuda::add_conditional(ordinal, stream.handle(), c.m_set_kernel,
                                                         condition, is_while, with_else);
    c.m_handles = std::move(nodes.handles);
    c.m_bodies = std::move(nodes.bodies);
    return c;
}

void ConditionalCapture::begin_body(int i, const Stream& body_stream) const {
    if (i < 0 || i >= body_count())
        throw Error(ErrorKind::Value, "ConditionalCapture: no body " + std::to_string(i));
    if (body_stream.is_null() || body_stream.device() != m_device)
        throw Error(ErrorKind::Value, "ConditionalCapture: the body stream must be a stream of " +
                                          m_device.alias());
    cuda::begin_body_capture(m_device.ordinal(), body_stream.handle(), m_bodies[i]);
}

void ConditionalCapture::end_body(int i, const Stream& body_stream) const {
    const int ordinal = m_device.ordinal();
    if (m_while && i == 0) {
        try {
            cuda::set_conditions(ordinal, body_stream.handle(), m_set_kernel, m_handles[0], 0,
                                 m_condition);
        } catch (...) {
            cuda::end_body_capture(ordinal, body_stream.handle());
            throw;
        }
    }
    cuda::end_body_capture(ordinal, body_stream.handle());
}

void ConditionalCapture::add_graph(int i, const Graph& graph, const Stream& body_stream) const {
    if (!graph.m_graph || graph.device() != m_device)
        throw Error(ErrorKind::Value,
                    "ConditionalCapture: the body graph must be a graph of " + m_device.alias());
    begin_body(i, body_stream);
    try {
        cuda::add_child_graph(m_device.ordinal(), body_stream.handle(), *graph.m_graph);
    } catch (...) {
        cuda::end_body_capture(m_device.ordinal(), body_stream.handle());
        throw;
    }
    end_body(i, body_stream);
}

}  // namespace treadle
