// src/compile/nvrtc.cpp -- NVRTC found and loaded with dlopen, and CUDA C++ compiled through it
#include "compile/nvrtc.h"

#include <dlfcn.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <mutex>

#include "treadle/error.h"

namespace treadle::nvrtc {

namespace {

using nvrtcResult = int;
using nvrtcProgram = struct nvrtcProgramOpaque*;
constexpr nvrtcResult NVRTC_SUCCESS = 0;
constexpr nvrtcResult NVRTC_ERROR_COMPILATION = 6;

// Every NVRTC entry point used: (return type, symbol, required, parameter types). The
// supported-architecture queries arrived in 11.2 and nvrtcGetCUBIN in 11.1.
#define TREADLE_NVRTC_ENTRIES(X)                                                              \
    X(const char*, nvrtcGetErrorString, true, (nvrtcResult))                                  \
    X(nvrtcResult, nvrtcVersion, true, (int*, int*))                                          \
    X(nvrtcResult, nvrtcGetNumSupportedArchs, false, (int*))                                  \
    X(nvrtcResult, nvrtcGetSupportedArchs, false, (int*))                                     \
    X(nvrtcResult, nvrtcCreateProgram, true,                                                  \
      (nvrtcProgram*, const char*, const char*, int, const char* const*, const char* const*)) \
    X(nvrtcResult, nvrtcDestroyProgram, true, (nvrtcProgram*))                                \
    X(nvrtcResult, nvrtcCompileProgram, true, (nvrtcProgram, int, const char* const*))        \
    X(nvrtcResult, nvrtcGetProgramLogSize, true, (nvrtcProgram, size_t*))                     \
    X(nvrtcResult, nvrtcGetProgramLog, true, (nvrtcProgram, char*))                           \
    X(nvrtcResult, nvrtcGetPTXSize, true, (nvrtcProgram, size_t*))                            \
    X(nvrtcResult, nvrtcGetPTX, true, (nvrtcProgram, char*))                                  \
    X(nvrtcResult, nvrtcGetCUBINSize, false, (nvrtcProgram, size_t*))                         \
    X(nvrtcResult, nvrtcGetCUBIN, false, (nvrtcProgram, char*))

struct Table {
#define TREADLE_NVRTC_FIELD(ret, symbol, required, params) ret(*symbol) params = nullptr;
    TREADLE_NVRTC_ENTRIES(TREADLE_NVRTC_FIELD)
#undef TREADLE_NVRTC_FIELD
};

/// What loading found; computed once, never changed, never destroyed.
struct State {
    Table table;
    bool usable = false;
    std::string reason;      ///< why not usable
    std::string path;        ///< the library that was loaded
    std::string version;     ///< "13.0"
    std::vector<int> archs;  ///< supported real architectures, ascending; empty if unknown
};

/// Opens `path` and fills `table`; returns "" or why it failed (the library is then closed).
std::string open_library(const std::string& path, Table& table) {
    static std::mutex dl_mutex;  // keeps each dlerror() text with the call that caused it
    std::lock_guard<std::mutex> lock(dl_mutex);
    ::dlerror();
    void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* text = ::dlerror();
        return text ? text : "cannot open " + path;
    }
    Table loaded;
#define TREADLE_NVRTC_LOAD(ret, symbol, required, params)                                \
    loaded.symbol = reinterpret_cast<decltype(loaded.symbol)>(::dlsym(handle, #symbol)); \
    if ((required) && !loaded.symbol) {                                                  \
        ::dlclose(handle);                                                               \
        return path + " lacks " #symbol;                                                 \
    }
    TREADLE_NVRTC_ENTRIES(TREADLE_NVRTC_LOAD)
#undef TREADLE_NVRTC_LOAD
    ::dlerror();
    table = loaded;
    return "";
}

const char* const kSonames[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2",
                                "libnvrtc.so"};

void add_directory(std::vector<std::string>& out, const std::string& dir) {
    if (dir.empty()) return;
    for (const char* name : kSonames) {
        std::string path = dir + "/" + name;
        if (::access(path.c_str(), R_OK) == 0) out.push_back(path);
    }
}

std::string env(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

std::string parent_of(const std::string& path) {
    size_t slash = path.find_last_of('/');
    return slash == std::string::npos || slash == 0 ? std::string() : path.substr(0, slash);
}

/// Library files to try, best first: CUDA_HOME, CUDA_PATH, /usr/local/cuda, the pip packages
/// next to the binary treadle is linked into (site-packages/nvidia/{cu13,cuda_nvrtc}/lib found
/// by walking up from it), a conda prefix, then the plain sonames for the dynamic loader.
std::vector<std::string> candidates() {
    std::vector<std::string> out;
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
        std::string root = env(var);
        if (root.empty()) continue;
        add_directory(out, root + "/lib64");
        add_directory(out, root + "/lib");
    }
    add_directory(out, "/usr/local/cuda/lib64");
    Dl_info self{};
    if (::dladdr(reinterpret_cast<void*>(&candidates), &self) && self.dli_fname) {
        std::string dir = parent_of(self.dli_fname);
        for (int up = 0; up < 4 && !dir.empty(); ++up, dir = parent_of(dir)) {
            add_directory(out, dir + "/nvidia/cu13/lib");
            add_directory(out, dir + "/nvidia/cuda_nvrtc/lib");
        }
    }
    std::string conda = env("CONDA_PREFIX");
    if (!conda.empty()) add_directory(out, conda + "/lib");
    for (const char* name : kSonames) out.push_back(name);
    return out;
}

void query_capabilities(State& s) {
    const Table& t = s.table;
    int major = 0, minor = 0;
    if (t.nvrtcVersion(&major, &minor) == NVRTC_SUCCESS)
        s.version = std::to_string(major) + "." + std::to_string(minor);
    int count = 0;
    if (t.nvrtcGetNumSupportedArchs && t.nvrtcGetSupportedArchs &&
        t.nvrtcGetNumSupportedArchs(&count) == NVRTC_SUCCESS && count > 0) {
        std::vector<int> archs(size_t(count), 0);
        if (t.nvrtcGetSupportedArchs(archs.data()) == NVRTC_SUCCESS) {
            std::sort(archs.begin(), archs.end());
            s.archs = std::move(archs);
        }
    }
}

State load_state() noexcept {
    State s;
    try {
        std::string chosen = env("TREADLE_NVRTC");
        if (!chosen.empty()) {
            // An explicit choice is honoured or reported, never silently replaced.
            std::string why = open_library(chosen, s.table);
            if (!why.empty()) {
                s.reason = "cannot load NVRTC from TREADLE_NVRTC=" + chosen + ": " + why;
                return s;
            }
            s.path = chosen;
        } else {
            std::string last_error;
            for (const std::string& path : candidates()) {
                std::string why = open_library(path, s.table);
                if (why.empty()) {
                    s.path = path;
                    break;
                }
                last_error = why;
            }
            if (s.path.empty()) {
                s.reason =
                    "NVRTC not found: install the CUDA toolkit or the nvidia-cuda-nvrtc "
                    "pip package, or set TREADLE_NVRTC to libnvrtc.so (last error: " +
                    last_error + ")";
                return s;
            }
        }
        query_capabilities(s);
        s.usable = true;
    } catch (const std::exception& e) {
        s.reason = std::string("loading NVRTC failed: ") + e.what();
    }
    return s;
}

const State& state() noexcept {
    static const State& s = *new State(load_state());
    return s;
}

const State& usable_state() {
    const State& s = state();
    if (!s.usable) throw Error(ErrorKind::Runtime, "NVRTC is not available: " + s.reason);
    return s;
}

std::string error_text(const Table& t, nvrtcResult result) {
    const char* text = t.nvrtcGetErrorString ? t.nvrtcGetErrorString(result) : nullptr;
    return text ? text : "NVRTC error " + std::to_string(result);
}

/// Throws "<call> failed: <nvrtcGetErrorString>" unless `result` is NVRTC_SUCCESS.
void check(const Table& t, nvrtcResult result, const char* call) {
    if (result != NVRTC_SUCCESS) [[unlikely]]
        throw Error(ErrorKind::Runtime, std::string(call) + " failed: " + error_text(t, result));
}

#define TREADLE_NVRTC(table, fn, ...) check((table), (table).fn(__VA_ARGS__), #fn)

/// Destroys an NVRTC program when the compilation is over, however it ends.
struct ProgramGuard {
    const Table& table;
    nvrtcProgram program = nullptr;
    ~ProgramGuard() {
        if (program) table.nvrtcDestroyProgram(&program);
    }
};

/// What to compile for: a CUBIN of `arch` or PTX of a virtual architecture; `error` when
/// NVRTC supports nothing at or below the device.
struct Target {
    bool cubin = false;
    int arch = 0;
    std::string error;
};

Target choose_target(const State& s, int arch) {
    Target target;
    const bool has_cubin = s.table.nvrtcGetCUBIN && s.table.nvrtcGetCUBINSize;
    if (s.archs.empty()) {  // an NVRTC too old to say: trust it with the exact architecture
        target.cubin = has_cubin;
        target.arch = arch;
        return target;
    }
    if (has_cubin && std::binary_search(s.archs.begin(), s.archs.end(), arch)) {
        target.cubin = true;
        target.arch = arch;
        return target;
    }
    auto below = std::upper_bound(s.archs.begin(), s.archs.end(), arch);
    if (below == s.archs.begin()) {
        target.error = "NVRTC " + s.version + " cannot compile for compute capability " +
                       std::to_string(arch / 10) + "." + std::to_string(arch % 10) +
                       " (the oldest it supports is " + std::to_string(s.archs.front() / 10) + "." +
                       std::to_string(s.archs.front() % 10) + ")";
        return target;
    }
    target.arch = *(below - 1);
    return target;
}

std::string program_log(const Table& t, nvrtcProgram program) {
    size_t size = 0;
    TREADLE_NVRTC(t, nvrtcGetProgramLogSize, program, &size);
    if (size <= 1) return "";
    std::string log(size, '\0');
    TREADLE_NVRTC(t, nvrtcGetProgramLog, program, log.data());
    while (!log.empty() && log.back() == '\0') log.pop_back();
    return log;
}

}  // namespace

bool is_available() { return state().usable; }

std::string unavailable_reason() {
    const State& s = state();
    return s.usable ? std::string() : s.reason;
}

std::string version() {
    const State& s = state();
    return s.usable ? s.version : std::string();
}

std::string library_path() {
    const State& s = state();
    return s.usable && s.path.find('/') != std::string::npos ? s.path : std::string();
}

std::string identity() {
    static const std::string id = [] {
        // The file that loading would pick, identified by path, size and modification time:
        // a kernel cache hit then needs no dlopen of NVRTC (which costs several ms).
        std::string chosen = env("TREADLE_NVRTC");
        std::vector<std::string> paths = chosen.empty() ? candidates() : std::vector{chosen};
        for (const std::string& path : paths) {
            if (path.find('/') == std::string::npos) break;  // a bare soname: must load
            struct stat st;
            char resolved[PATH_MAX];
            if (::stat(path.c_str(), &st) != 0 || !::realpath(path.c_str(), resolved)) continue;
            return std::string(resolved) + ":" + std::to_string((long long)st.st_size) + ":" +
                   std::to_string((long long)st.st_mtime);
        }
        return "nvrtc " + version();
    }();
    return id;
}

Result compile(const std::string& source, const std::string& name, int arch,
               const std::vector<std::string>& include_dirs,
               const std::vector<std::string>& options) {
    const auto start = std::chrono::steady_clock::now();
    const State& s = usable_state();
    const Table& t = s.table;
    Result result;
    auto finish = [&]() -> Result {
        result.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return std::move(result);
    };

    Target target = choose_target(s, arch);
    if (!target.error.empty()) {
        result.log = target.error;
        return finish();
    }

    std::vector<std::string> args = {
        "-std=c++17", (target.cubin ? "--gpu-architecture=sm_" : "--gpu-architecture=compute_") +
                          std::to_string(target.arch)};
    for (const std::string& dir : include_dirs) args.push_back("-I" + dir);
    args.insert(args.end(), options.begin(), options.end());
    std::vector<const char*> argv;
    argv.reserve(args.size());
    for (const std::string& a : args) argv.push_back(a.c_str());

    ProgramGuard guard{t};
    TREADLE_NVRTC(t, nvrtcCreateProgram, &guard.program, source.c_str(), name.c_str(), 0, nullptr,
                  nullptr);
    nvrtcResult compiled = t.nvrtcCompileProgram(guard.program, int(argv.size()), argv.data());
    result.log = program_log(t, guard.program);
    if (compiled != NVRTC_SUCCESS) {
        // A bad option, say, is reported like a compile error: it comes from the caller too.
        if (compiled != NVRTC_ERROR_COMPILATION)
            result.log = "nvrtcCompileProgram failed: " + error_text(t, compiled) +
                         (result.log.empty() ? "" : "\n" + result.log);
        return finish();
    }

    size_t size = 0;
    if (target.cubin) {
        TREADLE_NVRTC(t, nvrtcGetCUBINSize, guard.program, &size);
        result.image.assign(size, '\0');
        TREADLE_NVRTC(t, nvrtcGetCUBIN, guard.program, result.image.data());
    } else {
        TREADLE_NVRTC(t, nvrtcGetPTXSize, guard.program, &size);
        result.image.assign(size, '\0');
        TREADLE_NVRTC(t, nvrtcGetPTX, guard.program, result.image.data());
        while (!result.image.empty() && result.image.back() == '\0') result.image.pop_back();
    }
    result.is_cubin = target.cubin;
    result.ok = true;
    return finish();
}

}  // namespace treadle::nvrtc
