// src/runtime/cuda.cpp -- treadle::cuda: devices, contexts, copies, fills, modules and launches
#include "runtime/cuda.h"

#include <atomic>
#include <memory>
#include <mutex>

#include "runtime/cuda_driver.h"
#include "runtime/cuda_internal.h"
#include "treadle/error.h"

namespace treadle::cuda {

using namespace detail;

namespace {

struct Devices {
    int count = 0;
    std::unique_ptr<Device[]> list;
};

Devices make_devices() {
    const drv::Table& t = drv::get();
    Devices devices;
    devices.count = drv::device_count();
    devices.list = std::make_unique<Device[]>(devices.count);
    for (int i = 0; i < devices.count; ++i)
        TREADLE_CU_WITH(t, cuDeviceGet, &devices.list[i].handle, i);
    return devices;
}

/// The device table, built on first use; throws ErrorKind::Runtime when CUDA is unavailable.
/// Deliberately never destroyed: buffers freed from other static destructors may still need it.
Devices& devices() {
    static Devices& d = *new Devices(make_devices());
    return d;
}

int attribute(drv::CUdevice handle, int which) {
    int value = 0;
    TREADLE_CU(cuDeviceGetAttribute, &value, which, handle);
    return value;
}

const DeviceInfo& info_of(Device& d) {
    if (d.info_ready.load(std::memory_order_acquire)) return d.info;
    std::lock_guard<std::mutex> lock(d.mutex);
    if (!d.info_ready.load(std::memory_order_relaxed)) {
        const drv::Table& t = drv::get();
        DeviceInfo info;
        char name[256] = {};
        TREADLE_CU(cuDeviceGetName, name, int(sizeof(name) - 1), d.handle);
        info.name = name;
        info.major = attribute(d.handle, drv::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
        info.minor = attribute(d.handle, drv::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
        info.sm_count = attribute(d.handle, drv::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
        info.max_shared_memory_per_block =
            attribute(d.handle, drv::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
        TREADLE_CU(cuDeviceTotalMem_v2, &info.total_memory, d.handle);
        const bool entries = t.cuMemAllocAsync && t.cuMemFreeAsync && t.cuDeviceGetDefaultMemPool &&
                             t.cuMemPoolSetAttribute;
        info.memory_pools =
            entries && attribute(d.handle, drv::CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED) != 0;
        info.pageable_memory_access =
            attribute(d.handle, drv::CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS) != 0;
        info.host_managed_access =
            attribute(d.handle, drv::CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST) != 0;
        info.host_native_atomics =
            attribute(d.handle, drv::CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED) != 0;
        d.info = std::move(info);
        d.info_ready.store(true, std::memory_order_release);
    }
    return d.info;
}

/// Retains the primary context of `d` (and finds its default pool, and creates its default
/// stream) the first time.
[[gnu::noinline]] drv::CUcontext retain_context(Device& d) {
    const bool pools = info_of(d).memory_pools;
    std::lock_guard<std::mutex> lock(d.mutex);
    drv::CUcontext context = d.context.load(std::memory_order_relaxed);
    if (context) return context;
    TREADLE_CU(cuDevicePrimaryCtxRetain, &context, d.handle);
    if (pools) TREADLE_CU(cuDeviceGetDefaultMemPool, &d.pool, d.handle);
    // The default stream belongs to the context, which must be current to create it.
    TREADLE_CU(cuCtxSetCurrent, context);
    drv::CUstream stream = nullptr;
    TREADLE_CU(cuStreamCreate, &stream, 0);
    d.default_stream = stream;
    d.current.store(stream, std::memory_order_release);
    d.context.store(context, std::memory_order_release);
    return context;
}

drv::CUdeviceptr address(const void* ptr) { return reinterpret_cast<drv::CUdeviceptr>(ptr); }

}  // namespace

namespace detail {

std::string device_name(int ordinal) { return "cuda:" + std::to_string(ordinal); }

Device& device(int ordinal) {
    Devices& all = devices();
    if (ordinal < 0 || ordinal >= all.count) [[unlikely]]
        throw Error(ErrorKind::Value, "no CUDA device " + device_name(ordinal) + " (" +
                                          std::to_string(all.count) + " device" +
                                          (all.count == 1 ? "" : "s") + " present)");
    return all.list[ordinal];
}

// The current context is asked of the driver (a thread-local read there) rather than cached
// here, so that another library switching contexts on this thread cannot mislead treadle.
Device& enter(int ordinal) {
    Device& d = device(ordinal);
    drv::CUcontext context = d.context.load(std::memory_order_acquire);
    if (!context) [[unlikely]]
        context = retain_context(d);
    const drv::Table& t = drv::get();
    drv::CUcontext current = nullptr;
    TREADLE_CU_WITH(t, cuCtxGetCurrent, &current);
    if (current != context) TREADLE_CU_WITH(t, cuCtxSetCurrent, context);
    return d;
}

void rethrow_with(const Error& e, const std::string& context) {
    throw Error(e.kind(), context + ": " + e.message());
}

bool driver_shut_down() { return drv::last_error() == drv::CUDA_ERROR_DEINITIALIZED; }

}  // namespace detail

bool is_available() { return drv::try_get() != nullptr; }

int device_count() { return drv::try_get() ? drv::device_count() : 0; }

std::string unavailable_reason() {
    std::string reason;
    return drv::try_get(&reason) ? std::string() : reason;
}

int driver_version() { return drv::try_get() ? drv::driver_version() : 0; }

const DeviceInfo& device_info(int ordinal) { return info_of(device(ordinal)); }

void memory_info(int ordinal, size_t& free_bytes, size_t& total_bytes) {
    enter(ordinal);
    TREADLE_CU(cuMemGetInfo_v2, &free_bytes, &total_bytes);
}

void set_current(int ordinal) { enter(ordinal); }

void* context_handle(int ordinal) { return enter(ordinal).context.load(); }

void copy_host_to_device(int ordinal, void* dst, const void* src, size_t bytes, Stream stream) {
    Device& d = enter(ordinal);
    if (bytes == 0) return;
    TREADLE_CU(cuMemcpyHtoDAsync_v2, address(dst), src, bytes, resolve(d, stream));
}

void copy_device_to_host(int ordinal, void* dst, const void* src, size_t bytes, Stream stream) {
    Device& d = enter(ordinal);
    if (bytes == 0) return;
    TREADLE_CU(cuMemcpyDtoHAsync_v2, dst, address(src), bytes, resolve(d, stream));
}

void copy_device_to_device(int ordinal, void* dst, const void* src, size_t bytes, Stream stream) {
    Device& d = enter(ordinal);
    if (bytes == 0) return;
    TREADLE_CU(cuMemcpyDtoDAsync_v2, address(dst), address(src), bytes, resolve(d, stream));
}

void memset(int ordinal, void* dst, uint32_t value, size_t element_size, size_t count,
            Stream stream) {
    if (element_size != 1 && element_size != 2 && element_size != 4)
        throw Error(ErrorKind::Value, "memset(): element size must be 1, 2 or 4 bytes, not " +
                                          std::to_string(element_size));
    Device& d = enter(ordinal);
    if (count == 0) return;
    switch (element_size) {
        case 1:
            TREADLE_CU(cuMemsetD8Async, address(dst), (unsigned char)value, count,
                       resolve(d, stream));
            break;
        case 2:
            TREADLE_CU(cuMemsetD16Async, address(dst), (unsigned short)value, count,
                       resolve(d, stream));
            break;
        default:
            TREADLE_CU(cuMemsetD32Async, address(dst), value, count, resolve(d, stream));
            break;
    }
}

void synchronize(int ordinal) {
    enter(ordinal);
    TREADLE_CU(cuCtxSynchronize);
}

void synchronize_stream(int ordinal, Stream stream) {
    Device& d = enter(ordinal);
    TREADLE_CU(cuStreamSynchronize, resolve(d, stream));
}

ModuleHandle load_module(int ordinal, const std::string& image) {
    enter(ordinal);
    drv::CUmodule module = nullptr;
    try {
        // std::string keeps a terminating NUL after the data, which a PTX image needs.
        TREADLE_CU(cuModuleLoadData, &module, image.c_str());
    } catch (const Error& e) {
        rethrow_with(e, "load_module(" + device_name(ordinal) + ")");
    }
    return module;
}

void unload_module(int ordinal, ModuleHandle module) {
    if (!module) return;
    try {
        release_outside_capture([ordinal, module] {
            enter(ordinal);
            TREADLE_CU(cuModuleUnload, static_cast<drv::CUmodule>(module));
        });
    } catch (const Error&) {
        if (!driver_shut_down()) throw;
    }
}

FunctionHandle get_function(ModuleHandle module, const std::string& name) {
    drv::CUfunction function = nullptr;
    try {
        TREADLE_CU(cuModuleGetFunction, &function, static_cast<drv::CUmodule>(module),
                   name.c_str());
    } catch (const Error& e) {
        rethrow_with(e, "get_function('" + name + "')");
    }
    return function;
}

void* get_global(ModuleHandle module, const std::string& name, size_t* size) {
    drv::CUdeviceptr ptr = 0;
    size_t bytes = 0;
    try {
        TREADLE_CU(cuModuleGetGlobal_v2, &ptr, &bytes, static_cast<drv::CUmodule>(module),
                   name.c_str());
    } catch (const Error& e) {
        rethrow_with(e, "get_global('" + name + "')");
    }
    if (size) *size = bytes;
    return reinterpret_cast<void*>(ptr);
}

void launch(int ordinal, FunctionHandle function, unsigned grid, unsigned block, const void* params,
            size_t params_size, Stream stream) {
    Device& d = enter(ordinal);
    if (grid == 0) return;
    size_t size = params_size;
    void* extra[] = {drv::CU_LAUNCH_PARAM_BUFFER_POINTER, const_cast<void*>(params),
                     drv::CU_LAUNCH_PARAM_BUFFER_SIZE, &size, drv::CU_LAUNCH_PARAM_END};
    try {
        TREADLE_CU(cuLaunchKernel, static_cast<drv::CUfunction>(function), grid, 1, 1, block, 1, 1,
                   0, resolve(d, stream), nullptr, params_size ? extra : nullptr);
    } catch (const Error& e) {
        rethrow_with(e, "launch(" + device_name(ordinal) + ", grid " + std::to_string(grid) +
                            ", block " + std::to_string(block) + ", " +
                            std::to_string(params_size) + " parameter bytes)");
    }
}

void launch_args(int ordinal, FunctionHandle function, unsigned grid, unsigned block, void** args,
                 Stream stream, unsigned shared_bytes) {
    Device& d = enter(ordinal);
    if (grid == 0) return;
    constexpr unsigned k_default_shared = 48 * 1024;
    if (shared_bytes > k_default_shared) {
        const int limit = device_info(ordinal).max_shared_memory_per_block;
        if ((int)shared_bytes > limit)
            throw Error(ErrorKind::Launch,
                        "Error launching kernel: its tiles need " + std::to_string(shared_bytes) +
                            " bytes of shared memory per block, above the " +
                            std::to_string(limit) + " bytes " + device_name(ordinal) +
                            " allows (use smaller tiles)");
        constexpr int k_max_dynamic_shared = 8;  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
        TREADLE_CU(cuFuncSetAttribute, static_cast<drv::CUfunction>(function), k_max_dynamic_shared,
                   (int)shared_bytes);
    }
    try {
        TREADLE_CU(cuLaunchKernel, static_cast<drv::CUfunction>(function), grid, 1, 1, block, 1, 1,
                   shared_bytes, resolve(d, stream), args, nullptr);
    } catch (const Error& e) {
        rethrow_with(e, "launch(" + device_name(ordinal) + ", grid " + std::to_string(grid) +
                            ", block " + std::to_string(block) + ")");
    }
}

}  // namespace treadle::cuda
