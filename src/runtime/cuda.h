// src/runtime/cuda.h -- the CUDA driver as treadle uses it: loaded at run time, every call checked
//
// libcuda is opened with dlopen on first use through one X-macro table of entry points
// (cuda_driver_table.h), so treadle builds and runs where CUDA is absent: is_available() is then
// false and everything else throws treadle::Error(ErrorKind::Runtime) saying CUDA is missing.
// Every driver call goes through one checking wrapper whose error names the call, the CUDA
// error name and its message. Each device uses its primary context (retained once, made
// current on the calling thread by every function here that takes an ordinal).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace treadle::cuda {

/// An opaque CUstream; nullptr means the device's default (legacy) stream.
using Stream = void*;

/// True when the driver loaded and reports at least one device. Never throws.
bool is_available();
/// Number of CUDA devices (0 when unavailable). Never throws.
int device_count();
/// Why CUDA is unavailable (empty when it is available), for error messages.
std::string unavailable_reason();
/// The driver's CUDA version as 1000 * major + 10 * minor (13000 for 13.0); 0 when
/// unavailable. Never throws.
int driver_version();

/// Properties of one device, queried once.
struct DeviceInfo {
    std::string name;
    int major = 0, minor = 0;  ///< compute capability
    int sm_count = 0;
    size_t total_memory = 0;
    bool memory_pools = false;  ///< supports stream-ordered allocation (cuMemAllocAsync)
};
/// Throws ErrorKind::Value for an ordinal out of range. Creates no context (listing devices
/// costs no device memory) and does not change the current one.
const DeviceInfo& device_info(int ordinal);
/// Free and total memory of the device, now.
void memory_info(int ordinal, size_t& free_bytes, size_t& total_bytes);

/// Makes the primary context of `ordinal` current on this thread.
void set_current(int ordinal);

/// Device memory: stream-ordered from the device's default memory pool where supported,
/// else plain cuMemAlloc. An allocation failure throws ErrorKind::OutOfMemory naming the
/// device, the size asked for and the free memory; the process goes on. Zero bytes gives
/// nullptr.
void* alloc(int ordinal, size_t bytes, Stream stream = nullptr);
/// Frees what alloc returned (the same way it was allocated). nullptr is ignored, and so is a
/// driver that has already shut down (a buffer outliving CUDA at process exit).
void free(int ordinal, void* ptr, Stream stream = nullptr);
/// Sets the pool's release threshold (bytes kept cached after synchronisation); does nothing
/// on a device without memory pools.
void set_release_threshold(int ordinal, uint64_t bytes);

/// Copies (asynchronous on `stream`; host memory must stay valid until the stream is synced).
void copy_host_to_device(int ordinal, void* dst, const void* src, size_t bytes, Stream stream = nullptr);
void copy_device_to_host(int ordinal, void* dst, const void* src, size_t bytes, Stream stream = nullptr);
void copy_device_to_device(int ordinal, void* dst, const void* src, size_t bytes, Stream stream = nullptr);
/// Fills `count` elements of 1, 2 or 4 bytes with `value` (another size throws
/// ErrorKind::Value).
void memset(int ordinal, void* dst, uint32_t value, size_t element_size, size_t count, Stream stream = nullptr);

/// Waits for all work on the device / on one stream. Errors from earlier asynchronous work
/// (an illegal address in a kernel, say) surface here as treadle::Error.
void synchronize(int ordinal);
void synchronize_stream(int ordinal, Stream stream);

/// A loaded CUmodule; unloaded by unload_module.
using ModuleHandle = void*;
using FunctionHandle = void*;
/// Loads a CUBIN or PTX image (as produced by NVRTC) into the device's primary context.
ModuleHandle load_module(int ordinal, const std::string& image);
/// Unloads `module`; nullptr and a driver already shut down are ignored.
void unload_module(int ordinal, ModuleHandle module);
FunctionHandle get_function(ModuleHandle module, const std::string& name);
/// The device address (and size, if `size` is given) of the __device__ global `name`
/// (a mangled C++ name) of a loaded module.
void* get_global(ModuleHandle module, const std::string& name, size_t* size = nullptr);

/// Launches `function` with one by-value parameter block of `params_size` bytes (passed with
/// CU_LAUNCH_PARAM_BUFFER_POINTER), `grid` blocks of `block` threads, on `stream`. A grid of
/// 0 blocks launches nothing. `params_size` must not exceed the kernel's parameter block (which
/// ends with its last parameter: no tail padding as sizeof a struct would add); the driver
/// rejects a larger one with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES. Allocates nothing and
/// formats no text unless the launch fails.
void launch(int ordinal, FunctionHandle function, unsigned grid, unsigned block,
            const void* params, size_t params_size, Stream stream = nullptr);

}  // namespace treadle::cuda
