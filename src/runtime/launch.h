// src/runtime/launch.h -- launch bounds and running a compiled kernel (CPU pool or CUDA stream)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/loaded_kernel.h"
#include "treadle/array.h"
#include "treadle/module.h"
#include "types/abi.h"

namespace treadle {

/// The launch grid as generated code sees it: the ABI record of wp::launch_bounds_t, whose
/// `flags` hold k_launch_aliased_arrays (wp::launch_aliased_arrays).
using LaunchBounds = types::abi::LaunchBoundsRecord;

/// LaunchBounds::flags bit: two array arguments share memory, so a backward pass must not
/// assume a thread owns the gradient elements at its own index.
inline constexpr int32_t k_launch_aliased_arrays = 1;

/// Validates `dim` (1 to 4 dimensions, each in [0, 2^31)) against the kernel and returns
/// the bounds; errors name the kernel.
LaunchBounds make_bounds(const CompiledKernel& k, const int64_t* dim, size_t ndim);
inline LaunchBounds make_bounds(const CompiledKernel& k, const std::vector<int64_t>& dim) {
    return make_bounds(k, dim.data(), dim.size());
}

/// The runtime element type of arrays of `t` (a value type or a struct).
DType dtype_of_type(const types::Type* t);
/// The compiler's type of array elements of dtype `d`.
const types::Type* type_of_dtype(const DType& d);

/// The array `a` as a backward launch passes it: a view whose gradient is `adj` (which must
/// have `a`'s dtype, shape, strides and device; ErrorKind::Value naming the kernel and parameter
/// otherwise), or `a` itself, with its own grad(), when `adj` is null.
Array with_adjoint(const CompiledKernel& k, const KernelParam& p, const Array& a, const Array* adj);

/// Runs a CPU entry over the launch range of `bounds` on the CPU thread pool.
void run_cpu_entry(CpuEntry entry, const void* params, const LaunchBounds& bounds);

/// Runs the kernel over `bounds` with the packed parameter block on the CPU thread pool and
/// returns when every index has run.
/// With `adjoint`, runs the backward entry of an adjoint build instead.
void run_cpu(const CompiledKernel& k, const LaunchBounds& bounds, const void* params,
             bool adjoint = false);

/// Threads per block of CUDA launches unless a launch asks for another count.
inline constexpr unsigned k_cuda_block_dim = 256;

/// How a CUDA launch is split into blocks. Every kernel runs a grid-stride loop over the
/// flattened range, so any block size and any cap on the block count cover every index.
struct CudaGrid {
    int64_t block_dim = k_cuda_block_dim;  ///< threads per block, 1 to 1024 (checked)
    int64_t max_blocks = 0;                ///< at most this many blocks (0: as many as needed)
};

/// Enqueues the kernel on its CUDA device's stream (asynchronous). The driver copies the
/// bounds and the parameter block (kernelParams) during the call, so `params` may be reused at
/// once; it must span the whole parameter struct, tail padding included.
void run_cuda(const CompiledKernel& k, const LaunchBounds& bounds, const void* params,
              void* stream = nullptr, bool adjoint = false, CudaGrid grid = {});

/// The label ("'name' (file:line) on cuda:N") of the most recent CUDA launch of this process,
/// or "" when there was none: names the kernel behind an asynchronous fault.
std::string last_cuda_launch();

/// Runs on the kernel's device (CPU: synchronously; CUDA: enqueued on `stream`).
void run(const CompiledKernel& k, const LaunchBounds& bounds, const void* params,
         void* stream = nullptr, bool adjoint = false);

}  // namespace treadle
