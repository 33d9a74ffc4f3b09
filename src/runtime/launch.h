// src/runtime/launch.h -- packing launch arguments and running a kernel on the CPU pool
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compile/compile_kernel.h"
#include "treadle/array.h"
#include "treadle/module.h"

namespace treadle {

/// The launch grid as generated code sees it (layout of wp::launch_bounds_t).
struct LaunchBounds {
    int32_t shape[4] = {0, 0, 0, 0};
    int32_t ndim = 0;
    int32_t flags = 0;  ///< k_launch_aliased_arrays (wp::launch_aliased_arrays)
    int64_t size = 0;
};
static_assert(sizeof(LaunchBounds) == 32, "must match wp::launch_bounds_t");

/// LaunchBounds::flags bit: two array arguments share memory, so a backward pass must not
/// assume a thread owns the gradient elements at its own index.
inline constexpr int32_t k_launch_aliased_arrays = 1;

/// Validates `dim` (1 to 4 dimensions, each in [0, 2^31)) against the kernel and returns
/// the bounds; errors name the kernel.
LaunchBounds make_bounds(const CompiledKernel& k, const std::vector<int64_t>& dim);

/// The runtime element type of arrays of `t` (a value type or a struct).
DType dtype_of_type(const types::Type* t);
/// The compiler's type of array elements of dtype `d`.
const types::Type* type_of_dtype(const DType& d);

/// Writes array `a` into the parameter slot of `p` (checks dtype, ndim and device).
void pack_array(uint8_t* block, const CompiledKernel& k, const KernelParam& p, const Array& a,
                const Device& device);
/// Writes an indexedarray parameter: `data` seen through `indices` (one per dimension, null for
/// a whole dimension; empty: no index arrays), each a contiguous 1-D int32 array on `device`.
/// pack_array on an indexedarray parameter packs a plain array this way, with no indices.
void pack_indexed_array(uint8_t* block, const CompiledKernel& k, const KernelParam& p,
                        const Array& data, const std::vector<const Array*>& indices,
                        const Device& device);
/// Writes a scalar (given as an int or a float) into the slot of `p`, converting it to the
/// parameter type; a float never becomes an integer silently.
void pack_int(uint8_t* block, const CompiledKernel& k, const KernelParam& p, int64_t value,
              bool is_bool);
void pack_float(uint8_t* block, const CompiledKernel& k, const KernelParam& p, double value);
/// Writes a vector or matrix parameter from its components (row-major), converted to the
/// element type; the count must match.
void pack_components(uint8_t* block, const CompiledKernel& k, const KernelParam& p,
                     const std::vector<double>& values);

/// Writes a struct parameter from its bytes (C layout, `size` must be the struct's size).
/// Array fields are raw wp::array_t records: nothing checks their dtype or device.
void pack_struct_bytes(uint8_t* block, const CompiledKernel& k, const KernelParam& p,
                       const void* data, size_t size);

// ---- adjoint launches (shared by the Python binding and the C++ API) ----

/// The array `a` as an adjoint launch passes it: a view whose gradient is `adj` (which must have
/// `a`'s dtype, shape, strides and device; ErrorKind::Value naming the kernel and parameter
/// otherwise), or `a` itself, with its own grad(), when `adj` is null.
Array with_adjoint(const CompiledKernel& k, const KernelParam& p, const Array& a, const Array* adj);

/// Whether `a` or its gradient uses a buffer already in `seen` (then adds both to `seen`). An
/// adjoint launch where this holds for some array argument sets k_launch_aliased_arrays, so
/// every gradient add is atomic.
bool shares_memory(const Array& a, std::vector<const void*>& seen);

/// Runs the kernel over `bounds` with the packed parameter block on the CPU thread pool and
/// returns when every index has run.
/// With `adjoint`, runs the backward entry of an adjoint build instead.
void run_cpu(const CompiledKernel& k, const LaunchBounds& bounds, const void* params,
             bool adjoint = false);

/// Threads per block of CUDA launches.
inline constexpr unsigned k_cuda_block_dim = 256;

/// Enqueues the kernel on its CUDA device's stream (asynchronous). The driver copies the
/// bounds and the parameter block (kernelParams) during the call, so `params` may be reused at
/// once; it must span the whole parameter struct, tail padding included.
void run_cuda(const CompiledKernel& k, const LaunchBounds& bounds, const void* params,
              void* stream = nullptr, bool adjoint = false);

/// The label ("'name' (file:line) on cuda:N") of the most recent CUDA launch of this process,
/// or "" when there was none: names the kernel behind an asynchronous fault.
std::string last_cuda_launch();

/// Runs on the kernel's device (CPU: synchronously; CUDA: enqueued on `stream`).
void run(const CompiledKernel& k, const LaunchBounds& bounds, const void* params,
         void* stream = nullptr, bool adjoint = false);

}  // namespace treadle
