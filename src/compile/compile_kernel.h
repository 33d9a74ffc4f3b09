// src/compile/compile_kernel.h -- the whole pipeline, from a kernel's source to loaded code
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/dynlib.h"
#include "sema/resolver.h"
#include "treadle/device.h"

namespace treadle {

class CachedBinary;

/// One kernel parameter as the launcher packs it.
struct KernelParam {
    std::string name;
    const types::Type* type = nullptr;
    size_t offset = 0;   ///< byte offset in the parameter block
    uint8_t access = 0;  ///< arrays: passes::k_access_read / k_access_write bits
};

/// Signature of the CPU entry point of every generated shared object.
using CpuEntry = void (*)(const void* params, const void* bounds, int64_t begin, int64_t end);

/// A kernel compiled and loaded for one device. Immutable once built; shared by every launch.
/// A CompiledKernel exists only for a successful build, so a failed build can never launch.
struct CompiledKernel {
    std::string name;
    std::vector<KernelParam> params;
    size_t params_size = 0;
    int tid_arity = 0;           ///< indices the kernel unpacks from wp.tid() (0: unused)
    std::string key;             ///< full SHA-256 cache key
    std::string source;          ///< generated C++
    bool from_cache = false;     ///< loaded from the disk cache rather than built
    double compile_seconds = 0;  ///< host compiler time when built
    Device device;               ///< where it runs
    /// "'name' (file:line) on device", interned for the process's lifetime so a fault report
    /// can name the kernel even after the CompiledKernel is gone.
    const char* label = "";
    int arch = 0;                             ///< CUDA: compute capability as major*10+minor
    std::shared_ptr<DynamicLibrary> library;  ///< CPU: the loaded shared object
    /// CPU: the cache pin `library` was loaded from, kept while it is loaded so that
    /// debuggers and profilers can read the file named in the link map.
    std::shared_ptr<const CachedBinary> library_file;
    CpuEntry cpu_entry = nullptr;
    bool adjoint = false;              ///< built with the backward pass
    CpuEntry cpu_adj_entry = nullptr;  ///< CPU: the backward entry (adjoint builds)
    bool checked = false;              ///< built in checked mode (bounds checks)
    /// CPU checked mode: the module's wp_take_bounds_error (see native/treadle/array.h).
    int (*take_bounds_error)(void* record) = nullptr;
    std::shared_ptr<void> cuda_module;   ///< CUDA: the loaded module (unloaded at the end)
    void* cuda_function = nullptr;       ///< CUDA: the entry's CUfunction
    void* cuda_adj_function = nullptr;   ///< CUDA: the backward entry (adjoint builds)
    void* cuda_bounds_record = nullptr;  ///< CUDA checked mode: wp::bounds_error on device
    bool verify_fp = false;              ///< built with NaN/Inf checks at stores
    /// CPU verify_fp: the module's wp_take_fp_error (see native/treadle/verify_fp.h).
    int (*take_fp_error)(void* record) = nullptr;
    void* cuda_fp_record = nullptr;  ///< CUDA verify_fp: wp::fp_error on device
};

/// Options that change generated or compiled code (and so are part of the cache key).
struct CompileOptions {
    std::string mode = "release";  ///< "release" | "debug"
    Device device;                 ///< the device to build for and load on
    /// Also build the backward pass (a second entry point). Forward-only builds never generate
    /// or compile adjoint code.
    bool adjoint = false;
    /// Check every float value stored to an array for NaN/Inf; a launch then reports the first
    /// one (ErrorKind::FloatingPoint). On CUDA the launch synchronises to read the record.
    bool verify_fp = false;
};

/// The pipeline, in order: parse → infer types (typed IR) → verify → generate C++ for the
/// device's back end → hash → cache lookup → host compiler (CPU) or NVRTC (CUDA) → publish →
/// load (dlopen, or cuModuleLoadData on the device). Throws treadle::Error.
std::shared_ptr<const CompiledKernel> compile_kernel(const sema::FunctionSource& kernel,
                                                     const CompileOptions& options);

/// A kernel whose front end and code generation have run (steps 1-5 of compile_kernel), waiting
/// for its build. `function` is the caller's and must outlive finish_kernel().
struct PreparedKernel {
    const sema::FunctionSource* function = nullptr;
    std::string mode;
    std::shared_ptr<CompiledKernel> result;  ///< everything but the build (key, binary, entries)
};

/// Steps 1-5 of compile_kernel(): the only ones that call the kernel's resolvers, so a front end
/// whose resolvers need a lock (Python's GIL) holds it here and not during finish_kernel().
PreparedKernel prepare_kernel(const sema::FunctionSource& kernel, const CompileOptions& options);
/// Steps 6-8: hash, cache lookup, host compiler or NVRTC on a miss, publish, load. Safe to run
/// for several kernels at once on different threads.
std::shared_ptr<const CompiledKernel> finish_kernel(PreparedKernel& prepared);
/// finish_kernel() of every prepared kernel, in parallel on a pool of build threads (the
/// runtime's ThreadPool); once all are done, rethrows the first failure in `prepared`'s order.
std::vector<std::shared_ptr<const CompiledKernel>> finish_kernels(
    std::vector<PreparedKernel>& prepared);

/// The source compile_kernel() would build for a CUDA (`cuda`) or CPU target, with the backward
/// pass when `adjoint`; needs no GPU (compile-only checks and the golden tests use it).
std::string generate_kernel_source(const sema::FunctionSource& kernel, bool cuda,
                                   bool adjoint = false, bool verify_fp = false);

/// Directory holding native/treadle/*.h (set by the front end; defaults to the build tree,
/// then the install tree, overridable with TREADLE_NATIVE_DIR).
void set_native_dir(const std::string& dir);
const std::string& native_dir();

/// Empties the disk cache (kernels already loaded stay usable).
void clear_kernel_cache();

}  // namespace treadle
