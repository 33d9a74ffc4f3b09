// src/codegen/emitter.h -- C++ source generation from IR, shared by the CPU and CUDA back ends
#pragma once

#include <string>
#include <vector>

#include "ir/ir.h"

namespace treadle::passes {
struct ProgramAdjointPlan;  // passes/adjoint_plan.h
}  // namespace treadle::passes

namespace treadle::codegen {

/// Layout of one kernel parameter in the packed parameter block (C struct rules).
struct ParamLayout {
    std::string name;
    const types::Type* type = nullptr;
    size_t offset = 0;
};

/// Computes the parameter block layout of a kernel; returns its total size.
size_t layout_params(const ir::Function& kernel, std::vector<ParamLayout>& out);

/// Deterministic builds append a wp::det_launch_t (records, counts, per-thread slots) to the
/// parameter block, at this offset of a block of `params_size` bytes.
inline size_t det_launch_offset(size_t params_size) { return (params_size + 7) & ~size_t(7); }
inline constexpr size_t k_det_launch_size = 40;

/// A CUDA kernel's `__launch_bounds__(max_threads, min_blocks)`: launches may use at most
/// `max_threads` threads per block. max_threads 0: none (min_blocks 0: only the first value).
struct CudaLaunchBounds {
    int max_threads = 0;
    int min_blocks = 0;

    bool operator<(const CudaLaunchBounds& o) const {
        return max_threads < o.max_threads ||
               (max_threads == o.max_threads && min_blocks < o.min_blocks);
    }
};

/// What differs between back ends. The shared Emitter asks the back end for the prologue,
/// the qualifiers of device functions and the kernel entry point; everything else is common.
class Backend {
public:
    virtual ~Backend() = default;
    /// "cpu" or "cuda".
    virtual const char* name() const = 0;
    /// #include lines and definitions placed before everything else.
    virtual std::string prologue() const = 0;
    /// Qualifier of user functions and the kernel body ("static inline", "static __device__").
    virtual const char* function_qualifier() const = 0;
    /// Whether to emit static_asserts of the parameter layout (needs __builtin_offsetof,
    /// which NVRTC lacks; the CPU build checks the same C layout rules).
    virtual bool layout_asserts() const = 0;
    /// The exported entry point `symbol` that runs `body_name` over a range of launch indices
    /// (CUDA: with `bounds` as its __launch_bounds__; the CPU has no such thing).
    virtual std::string entry(const ir::Function& kernel, const std::string& params_struct,
                              const std::string& body_name, const std::string& symbol,
                              const CudaLaunchBounds& bounds) const = 0;
};

/// The CPU back end: the body runs in a loop over [begin, end) on a pool thread;
/// entry: extern "C" void treadle_cpu_entry(const void* params,
///        const wp::launch_bounds_t* bounds, int64 begin, int64 end).
const Backend& cpu_backend();

/// The CUDA back end: a __global__ grid-stride loop over the launch range;
/// entry: extern "C" __global__ void treadle_cuda_entry(wp::launch_bounds_t bounds,
///        params_<kernel> params), launched with kernelParams {&bounds, params block}.
const Backend& cuda_backend();

/// Name of the CPU entry symbol in every generated shared object.
inline constexpr const char* k_cpu_entry_symbol = "treadle_cpu_entry";
/// Name of the CUDA entry function in every generated module.
inline constexpr const char* k_cuda_entry_symbol = "treadle_cuda_entry";
/// Suffix of the adjoint entry points ("treadle_cpu_entry_adj"), present in adjoint builds.
inline constexpr const char* k_adjoint_suffix = "_adj";

/// What a deterministic build adds to the source (see generate_source).
struct DetBuild {
    bool records = false;   ///< float atomics record; the parameter block has a wp::det_launch_t
    bool counters = false;  ///< CUDA counter kernels: two passes, effects guarded
};

/// The shared scratch a program's tiles need (bytes): room for its two largest tiles, each
/// 16-byte aligned (native/treadle/tile.h shares at most two operands at once).
size_t tile_scratch_bytes(const ir::Program& program);

/// Generates the complete, deterministic C++ source of a program for `backend`. With
/// `checked`, every array access goes through wp::address_checked / wp::view_checked, which
/// record the first out-of-bounds index (kernel, Python file and line, index, shape) for the
/// runtime to report instead of touching memory outside the array.
/// With `adjoint` (the plan passes::plan_adjoint made of `program`, which also refuses what
/// cannot be differentiated), the source also holds the adjoint of every function the plan
/// covers; when it covers the kernel, a second entry point (the symbol plus k_adjoint_suffix)
/// runs the backward pass over the same launch range. A forward build passes the plan of
/// passes::plan_forward_gradients (the functions wp.grad() differentiates), if any.
/// With `verify_fp`, every store of a float-valued array element is followed by a check that
/// records the first NaN/Inf of a launch (native/treadle/verify_fp.h).
/// `launch_bounds` annotates the CUDA entry points (the kernel's @wp.kernel(launch_bounds=)).
/// With `deterministic.records`, float atomics emit records that the runtime applies in
/// sequential order after each launch (native/treadle/deterministic.h); the parameter block
/// gains a trailing wp::det_launch_t at det_launch_offset(). With `deterministic.counters`
/// (CUDA), the entries also run as a counting pass and a replay (WP_DET_COUNTERS): stores and
/// prints are guarded by wp::det_effects().
std::string generate_source(const ir::Program& program, const Backend& backend,
                            bool checked = false,
                            const passes::ProgramAdjointPlan* adjoint = nullptr,
                            bool verify_fp = false, CudaLaunchBounds launch_bounds = {},
                            DetBuild deterministic = {});

}  // namespace treadle::codegen
