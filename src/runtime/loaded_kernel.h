// src/runtime/loaded_kernel.h -- a kernel compiled and loaded for one device, as launches see it
//
// The compiler (src/compile) fills a CompiledKernel in; the runtime's launch code and launch
// plan only read it, so the runtime needs no part of the compiler.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/dynlib.h"
#include "treadle/device.h"
#include "types/types.h"

namespace treadle {

/// One kernel parameter as the launcher packs it. `reads`/`writes` come from the compiler's
/// analysis of the kernel (an array passed to a user function counts as both); the tape and
/// the launch plan read them, never the IR.
/// An array field of a struct parameter that the kernel accesses; see KernelParam.
struct AccessedArrayField {
    std::string path;   ///< "a", or "inner.a" for a field of a nested struct
    size_t offset = 0;  ///< byte offset of its record within the struct
    bool writes = false;
    bool null_tested = false;  ///< the kernel tests it for None (`if s.a:`): None is allowed
};

struct KernelParam {
    std::string name;
    const types::Type* type = nullptr;
    size_t offset = 0;    ///< byte offset in the parameter block
    bool reads = false;   ///< an array whose elements the kernel may load
    bool writes = false;  ///< an array whose elements the kernel may store or update atomically
    /// A store or atomic update of the array follows a load of it in the kernel's source order
    /// (a backward pass would replay the load with the overwritten values).
    bool writes_after_reads = false;
    /// The kernel tests whether the array is None (`if a:`): a launch may pass None even
    /// though the kernel reads or writes it.
    bool null_tested = false;
    /// A struct: its array fields that the kernel loads or stores (a null one is refused at
    /// launch outside checked mode, where the access itself reports it).
    std::vector<AccessedArrayField> array_fields;
};

/// Signature of the CPU entry point of every generated shared object.
using CpuEntry = void (*)(const void* params, const void* bounds, int64_t begin, int64_t end);

/// A kernel compiled and loaded for one device. Immutable once built; shared by every launch.
/// A CompiledKernel exists only for a successful build, so a failed build can never launch.
struct CompiledKernel {
    std::string name;
    std::vector<KernelParam> params;
    size_t params_size = 0;
    int tid_arity = 0;  ///< indices the kernel unpacks from wp.tid() (0: unused)
    /// A kernel that uses tiles: the block size its tiles were built for (1 on the CPU), which
    /// a CUDA launch must use; 0 for other kernels. Such a kernel may unpack one index fewer
    /// from wp.tid() than its launch has (a tiled launch adds the block as the last one).
    int tile_block_dim = 0;
    /// Its block's shared scratch for tiles (dynamic shared memory each CUDA launch asks for;
    /// WP_TILE_SCRATCH_BYTES of the source), 0 for other kernels.
    size_t tile_shared_bytes = 0;
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
    /// debuggers and profilers can read the file named in the link map. Opaque here: the
    /// compiler's kernel cache made it, and only its lifetime matters to the runtime.
    std::shared_ptr<const void> library_file;
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
    /// CUDA: the entry's __launch_bounds__ maximum of threads per block (0: none); a launch
    /// with a larger block_dim is refused, as the driver would.
    int max_block_dim = 0;

    // --- deterministic builds (native/treadle/det_record.h, runtime/deterministic.h) ---
    int deterministic = 0;  ///< the build's DeterministicMode: 0 off, 1 run to run, 2 GPU to GPU
    /// >0: the entries record float atomics (and, CUDA counter kernels, the counting pass's
    /// int32 increments), this many slots per launch index, into the wp::det_launch_t at
    /// det_offset of the parameter block; the runtime applies them.
    uint32_t det_per_thread = 0;
    size_t det_offset = 0;
    bool det_records = false;  ///< float atomics are recorded (else only counters)
    /// CPU: the kernel reads the old value of an integer atomic (a counter): launch indices
    /// run in order on one thread, so the slots it hands out repeat.
    bool det_serial = false;
    /// CUDA: such a kernel runs as a counting pass and a replay (det_record.h).
    bool det_counters = false;
    /// CPU: the module's wp_det_apply and wp_det_take_overflow (native/treadle/deterministic.h).
    void (*det_apply)(const void* records, const uint32_t* counts, int64_t size,
                      uint32_t per_thread) = nullptr;
    int (*det_take_overflow)() = nullptr;
    /// CUDA: the module's deterministic kernels (native/treadle/deterministic.h) and
    /// wp::det_overflow.
    struct DetCudaKernels {
        void* keys = nullptr;
        void* bitonic = nullptr;
        void* bitonic_tile = nullptr;
        void* runs = nullptr;
        void* apply = nullptr;
        void* gather = nullptr;
        void* sequential = nullptr;
        void* scan_init = nullptr;
        void* scan_step = nullptr;
        void* counter_results = nullptr;
        void* counter_totals = nullptr;
        void* overflow = nullptr;
    } cuda_det;
    /// CUDA: record buffers kept between launches (runtime/deterministic.cpp).
    std::shared_ptr<struct DetScratch> det_scratch;
};

}  // namespace treadle
