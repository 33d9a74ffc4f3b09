// src/runtime/cuda_driver.cpp -- loading libcuda with dlopen and turning its error codes into
// errors
#include "runtime/cuda_driver.h"

#include <dlfcn.h>

#include <mutex>

#include "treadle/error.h"

namespace treadle::cuda::driver {

namespace {

// dlerror() text belongs to whichever call ran last; a lock keeps each message with its call.
std::mutex& dl_mutex() {
    static std::mutex mutex;
    return mutex;
}

/// What the first use of the driver found out; never changes afterwards.
struct State {
    Table table;
    bool usable = false;
    std::string reason;  ///< why not usable
    int device_count = 0;
    int driver_version = 0;
};

State load_state() noexcept {
    State state;
    try {
        bool opened = false;
        std::string why = load_table("libcuda.so.1", state.table, &opened);
        if (!why.empty() && !opened) {
            // Some installs (a driver in a container, say) ship only the unversioned name.
            bool opened_plain = false;
            std::string why_plain = load_table("libcuda.so", state.table, &opened_plain);
            if (why_plain.empty() || opened_plain) {
                why = why_plain;
                opened = opened_plain;
            }
        }
        if (!why.empty()) {
            state.reason = opened ? why : "libcuda.so.1 not found (no NVIDIA driver): " + why;
            return state;
        }
        const Table& t = state.table;
        if (CUresult r = t.cuInit(0); r != CUDA_SUCCESS) {
            if (r == CUDA_ERROR_NO_DEVICE)
                state.reason = "no CUDA device (cuInit: " + error_text(t, r) + ")";
            else if (r == CUDA_ERROR_STUB_LIBRARY)
                state.reason =
                    "the libcuda found is the CUDA toolkit's stub, not a driver (no "
                    "NVIDIA driver installed, or a stubs directory on the library path)";
            else
                state.reason = "cuInit failed: " + error_text(t, r);
            return state;
        }
        if (CUresult r = t.cuDriverGetVersion(&state.driver_version); r != CUDA_SUCCESS) {
            state.reason = "cuDriverGetVersion failed: " + error_text(t, r);
            return state;
        }
        int count = 0;
        if (CUresult r = t.cuDeviceGetCount(&count); r != CUDA_SUCCESS) {
            state.reason = "cuDeviceGetCount failed: " + error_text(t, r);
            return state;
        }
        if (count <= 0) {
            state.reason = "no CUDA device (the driver reports none)";
            return state;
        }
        state.device_count = count;
        state.usable = true;
    } catch (const std::exception& e) {
        state.reason = std::string("loading the CUDA driver failed: ") + e.what();
    }
    return state;
}

/// Deliberately never destroyed, so that calls from static destructors still find the driver.
const State& state() noexcept {
    static const State& s = *new State(load_state());
    return s;
}

thread_local CUresult t_last_error = CUDA_SUCCESS;

}  // namespace

std::string load_table(const char* library, Table& table, bool* opened) noexcept {
    if (opened) *opened = false;
    try {
        std::lock_guard<std::mutex> lock(dl_mutex());
        ::dlerror();
        void* handle = ::dlopen(library, RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char* text = ::dlerror();
            return text ? text : std::string("cannot open ") + library;
        }
        if (opened) *opened = true;
        Table loaded;
#define TREADLE_CU_ENTRY(symbol, required, params)                                         \
    loaded.symbol = reinterpret_cast<decltype(loaded.symbol)>(::dlsym(handle, #symbol));   \
    if ((required) && !loaded.symbol) {                                                    \
        ::dlclose(handle);                                                                 \
        return std::string(library) + " lacks " #symbol " (the NVIDIA driver is too old)"; \
    }
#include "runtime/cuda_driver_table.h"
#undef TREADLE_CU_ENTRY
        ::dlerror();
        table = loaded;
        return "";
    } catch (const std::exception& e) {
        return e.what();
    }
}

const Table* try_get(std::string* reason) noexcept {
    const State& s = state();
    if (reason) {
        try {
            *reason = s.reason;
        } catch (...) {
        }
    }
    return s.usable ? &s.table : nullptr;
}

int device_count() noexcept { return state().device_count; }

int driver_version() noexcept { return state().driver_version; }

const Table& get() {
    const State& s = state();
    if (!s.usable) [[unlikely]]
        throw Error(ErrorKind::Runtime, "CUDA is not available: " + s.reason);
    return s.table;
}

std::string error_text(const Table& table, CUresult result) {
    const char* name = nullptr;
    const char* text = nullptr;
    if (!table.cuGetErrorName || table.cuGetErrorName(result, &name) != CUDA_SUCCESS)
        name = nullptr;
    if (!table.cuGetErrorString || table.cuGetErrorString(result, &text) != CUDA_SUCCESS)
        text = nullptr;
    if (!name) {  // the toolkit's stub library, say, knows no names: give the ones treadle uses
        switch (result) {
            case CUDA_ERROR_OUT_OF_MEMORY:
                name = "CUDA_ERROR_OUT_OF_MEMORY";
                break;
            case CUDA_ERROR_DEINITIALIZED:
                name = "CUDA_ERROR_DEINITIALIZED";
                break;
            case CUDA_ERROR_STUB_LIBRARY:
                name = "CUDA_ERROR_STUB_LIBRARY";
                break;
            case CUDA_ERROR_NO_DEVICE:
                name = "CUDA_ERROR_NO_DEVICE";
                break;
            default:
                break;
        }
    }
    std::string out = name ? std::string(name) : "CUDA error " + std::to_string(result);
    if (text) out += std::string(" (") + text + ")";
    return out;
}

CUresult last_error() noexcept { return t_last_error; }

void throw_error(const Table& table, const char* call, CUresult result) {
    t_last_error = result;
    ErrorKind kind =
        result == CUDA_ERROR_OUT_OF_MEMORY ? ErrorKind::OutOfMemory : ErrorKind::Runtime;
    throw Error(kind, std::string(call) + " failed: " + error_text(table, result));
}

}  // namespace treadle::cuda::driver
