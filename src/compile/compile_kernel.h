// src/compile/compile_kernel.h -- the whole pipeline, from a kernel's source to loaded code
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "codegen/emitter.h"
#include "runtime/loaded_kernel.h"
#include "sema/resolver.h"
#include "treadle/device.h"

namespace treadle {

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
    /// CUDA: the entry points' __launch_bounds__; launches refuse a larger block_dim.
    codegen::CudaLaunchBounds launch_bounds;
    /// Optimisation level 0-3 for the host compiler (-O<n>) or ptxas (CUDA); -1: the default
    /// (-O2 on the CPU, ptxas's own on CUDA). Ignored by debug builds.
    int optimization_level = -1;
    /// CPU builds: extra host compiler flags, separated by spaces (part of the cache key).
    std::string cpu_compiler_flags;
    /// Warp's DeterministicMode: 0 off; 1 (run to run) float atomics are recorded and applied
    /// in sequential order after each launch (CPU counters run in order); 2 (GPU to GPU) also
    /// compiles without floating-point contraction, so the CPU and CUDA agree bit for bit.
    int deterministic = 0;
    /// Record slots per launch index at least (0: the compiler's bound alone).
    int deterministic_max_records = 0;
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
    int optimization_level = -1;             ///< CompileOptions::optimization_level
    std::string cpu_compiler_flags;          ///< CompileOptions::cpu_compiler_flags
    int deterministic = 0;                   ///< CompileOptions::deterministic
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
                                   bool adjoint = false, bool verify_fp = false,
                                   codegen::CudaLaunchBounds launch_bounds = {},
                                   int deterministic = 0);

/// Directory holding treadle/*.h, the native headers kernels include: the one set here (the
/// Python package points at its own copy), else $TREADLE_NATIVE_DIR, else the headers embedded
/// in the library, written into the kernel cache on first use (compile/native_headers.h).
void set_native_dir(const std::string& dir);
const std::string& native_dir();

/// Empties the disk cache (kernels already loaded stay usable).
void clear_kernel_cache();

}  // namespace treadle
