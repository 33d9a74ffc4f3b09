// src/runtime/launch.cpp -- launch bounds, and running compiled kernels on the CPU pool or CUDA
#include "runtime/launch.h"

#include <atomic>
#include <cstring>
#include <memory>
#include <vector>

#include "runtime/cuda.h"
#include "runtime/deterministic.h"
#include "runtime/thread_pool.h"
#include "treadle/error.h"

namespace treadle {

LaunchBounds make_bounds(const CompiledKernel& k, const int64_t* dim, size_t ndim) {
    if (ndim == 0 || ndim > 4)
        throw Error(ErrorKind::Value, k.name + "(): launch dim must have 1 to 4 dimensions, got " +
                                          std::to_string(ndim));
    LaunchBounds b;
    b.ndim = (int32_t)ndim;
    b.size = 1;
    for (size_t i = 0; i < ndim; ++i) {
        if (dim[i] < 0 || dim[i] >= (int64_t(1) << 31))
            throw Error(ErrorKind::Value, k.name + "(): launch dimension " + std::to_string(i) +
                                              " is " + std::to_string(dim[i]) +
                                              " (each must be in [0, 2^31))");
        b.shape[i] = (int32_t)dim[i];
        b.size *= dim[i];
    }
    const bool tiled = k.tile_block_dim > 0 && k.tid_arity == b.ndim - 1;  // launch_tiled
    if (k.tid_arity > 1 && k.tid_arity != b.ndim && !tiled)
        throw Error(ErrorKind::Value, k.name + "(): the kernel unpacks " +
                                          std::to_string(k.tid_arity) +
                                          " indices from wp.tid() but was launched with a " +
                                          std::to_string(b.ndim) + "-D dim");
    return b;
}

DType dtype_of_type(const types::Type* t) {
    DType d(t->scalar);
    if (t->is_struct()) {
        d.scalar = ScalarType::UInt8;
        d.rows = (int)t->size;
        d.kind = ElementKind::Struct;
        d.struct_type = t;
        return d;
    }
    d.rows = t->is_scalar() ? 0 : t->rows;
    d.cols = t->is_matrix() ? t->cols : 0;
    d.kind = t->is_quat()        ? ElementKind::Quat
             : t->is_transform() ? ElementKind::Transform
                                 : ElementKind::Plain;
    return d;
}

const types::Type* type_of_dtype(const DType& d) {
    if (d.is_struct()) return static_cast<const types::Type*>(d.struct_type);
    if (d.kind == ElementKind::Quat) return types::quat_type(d.scalar);
    if (d.kind == ElementKind::Transform) return types::transform_type(d.scalar);
    if (d.rows == 0) return types::scalar_type(d.scalar);
    if (d.cols == 0) return types::vector_type(d.rows, d.scalar);
    return types::matrix_type(d.rows, d.cols, d.scalar);
}

namespace {
struct RunContext {
    CpuEntry entry;
    const void* params;
    const LaunchBounds* bounds;
};
void run_range(void* ctx, int64_t begin, int64_t end) {
    auto* c = static_cast<RunContext*>(ctx);
    c->entry(c->params, c->bounds, begin, end);
}
}  // namespace

void run_cpu_entry(CpuEntry entry, const void* params, const LaunchBounds& bounds) {
    RunContext ctx{entry, params, &bounds};
    cpu_pool().parallel_for(bounds.size, run_range, &ctx);
}

namespace {

/// Host mirror of wp::bounds_error_t (native/treadle/array.h).
struct BoundsRecord {
    int32_t flag, line, column, dim, ndim, pad;
    int64_t index[4];
    int32_t shape[4];
    char kernel[64];
    char file[192];
};
static_assert(sizeof(BoundsRecord) == 328, "must match wp::bounds_error_t");

[[noreturn]] void throw_bounds_error(const BoundsRecord& r) {
    auto list = [](const auto* v, int n) {
        std::string s = "(";
        for (int d = 0; d < n; ++d) s += (d ? ", " : "") + std::to_string(v[d]);
        return s + (n == 1 ? ",)" : ")");
    };
    std::string msg = std::string(r.kernel) + "(): index " + list(r.index, r.ndim) +
                      " is out of bounds for an array of shape " + list(r.shape, r.ndim) +
                      " (dimension " + std::to_string(r.dim) + ")";
    throw Error(ErrorKind::Bounds, msg,
                SourceLocation{r.file, r.line, r.column > 0 ? r.column : 1, ""});
}

/// Host mirror of wp::fp_error_t (native/treadle/verify_fp.h).
struct FpRecord {
    int32_t flag, line, ndim, pad;
    int32_t index[4];
    double value;
    char function[64];
    char file[192];
    char array[64];
};
static_assert(sizeof(FpRecord) == 360, "must match wp::fp_error_t");

[[noreturn]] void throw_fp_error(const CompiledKernel& k, const FpRecord& r) {
    std::string index = "(";
    for (int d = 0; d < r.ndim; ++d) index += (d ? ", " : "") + std::to_string(r.index[d]);
    index += r.ndim == 1 ? ",)" : ")";
    double v = r.value;
    std::string value = v != v ? "nan" : v > 0 ? "inf" : "-inf";
    std::string msg =
        k.name + "(): verify_fp: stored " + value + " to array '" + r.array + "' at index " + index;
    if (k.name != r.function) msg += " in function " + std::string(r.function) + "()";
    throw Error(ErrorKind::FloatingPoint, msg, SourceLocation{r.file, r.line, 1, ""});
}

/// A backward launch of a kernel built without its adjoint (a front-end bug or misuse).
[[noreturn]] void throw_no_adjoint(const CompiledKernel& k) {
    throw Error(ErrorKind::Launch, k.name +
                                       "(): this build of the kernel has no backward pass "
                                       "(compile it with adjoint=True)");
}

}  // namespace

void run_cpu(const CompiledKernel& k, const LaunchBounds& bounds, const void* params,
             bool adjoint) {
    if (bounds.size == 0) return;
    CpuEntry entry = adjoint ? k.cpu_adj_entry : k.cpu_entry;
    if (!entry) throw_no_adjoint(k);
    if (k.det_per_thread > 0 || k.det_serial) {
        run_cpu_deterministic(k, bounds, params, entry, k.det_serial);
    } else {
        run_cpu_entry(entry, params, bounds);
    }
    if (k.take_bounds_error) {
        BoundsRecord record{};
        if (k.take_bounds_error(&record)) throw_bounds_error(record);
    }
    if (k.take_fp_error) {
        FpRecord record{};
        if (k.take_fp_error(&record)) throw_fp_error(k, record);
    }
}

namespace {
std::atomic<const char*> g_last_cuda_label{nullptr};  ///< interned; see CompiledKernel::label
}  // namespace

std::string last_cuda_launch() {
    const char* label = g_last_cuda_label.load(std::memory_order_acquire);
    return label ? label : "";
}

void run_cuda(const CompiledKernel& k, const LaunchBounds& bounds, const void* params, void* stream,
              bool adjoint, CudaGrid grid) {
    if (bounds.size == 0) return;
    void* function = adjoint ? k.cuda_adj_function : k.cuda_function;
    if (!function) throw_no_adjoint(k);
    g_last_cuda_label.store(k.label, std::memory_order_relaxed);
    // The entry takes (bounds, params struct); the driver copies each from its pointer by its
    // declared size, so `params` must hold the whole struct (tail padding included; an empty
    // struct is one byte).
    static const uint8_t k_empty_struct = 0;
    void* args[2] = {const_cast<LaunchBounds*>(&bounds),
                     const_cast<void*>(k.params.empty() ? &k_empty_struct : params)};
    if (grid.block_dim < 1)
        throw Error(ErrorKind::Value, k.name + "(): block_dim must be in [1, 1024], got " +
                                          std::to_string(grid.block_dim));
    if (grid.block_dim > 1024)
        throw Error(ErrorKind::Launch,
                    "Error launching kernel: " + k.name + "(): block_dim " +
                        std::to_string(grid.block_dim) +
                        " is above the 1024 threads a CUDA block can have (Warp CUDA error: the "
                        "driver refuses such a launch)");
    if (k.max_block_dim > 0 && grid.block_dim > k.max_block_dim)
        throw Error(ErrorKind::Launch,
                    "Error launching kernel: " + k.name + "(): block_dim " +
                        std::to_string(grid.block_dim) + " is above its launch_bounds of " +
                        std::to_string(k.max_block_dim) +
                        " threads per block (Warp CUDA error: the driver refuses such a launch)");
    if (k.tile_block_dim > 0 && grid.block_dim != k.tile_block_dim)
        throw Error(ErrorKind::Launch,
                    "Error launching kernel: " + k.name +
                        "(): its tiles were built for blocks of " +
                        std::to_string(k.tile_block_dim) +
                        " threads but it was launched with "
                        "block_dim " +
                        std::to_string(grid.block_dim) +
                        " (build it for that block_dim: BuildOptions::block_dim)");
    int64_t blocks = (bounds.size + grid.block_dim - 1) / grid.block_dim;
    if (grid.max_blocks > 0 && blocks > grid.max_blocks) blocks = grid.max_blocks;
    if (blocks > 0x7fffffff) blocks = 0x7fffffff;  // the grid-stride loop covers the rest
    int ordinal = k.device.ordinal();
    if (k.det_per_thread > 0)
        run_cuda_deterministic(k, bounds, args[1], stream, function, (unsigned)blocks,
                               (unsigned)grid.block_dim);
    else
        cuda::launch_args(ordinal, function, (unsigned)blocks, (unsigned)grid.block_dim, args,
                          stream, (unsigned)k.tile_shared_bytes);
    if (k.cuda_bounds_record) {
        // checked mode is for debugging: wait, and report the first bad index at once
        BoundsRecord record{};
        cuda::copy_device_to_host(ordinal, &record, k.cuda_bounds_record, sizeof(record), stream);
        cuda::synchronize_stream(ordinal, stream);
        if (record.flag != 0) {
            cuda::memset(ordinal, k.cuda_bounds_record, 0, 4, sizeof(record) / 4, stream);
            cuda::synchronize_stream(ordinal, stream);
            throw_bounds_error(record);
        }
    }
    if (k.cuda_fp_record && !adjoint) {
        // verify_fp: wait for the launch and report the first non-finite store at once
        FpRecord record{};
        cuda::copy_device_to_host(ordinal, &record, k.cuda_fp_record, sizeof(record), stream);
        cuda::synchronize_stream(ordinal, stream);
        if (record.flag != 0) {
            cuda::memset(ordinal, k.cuda_fp_record, 0, 4, sizeof(record) / 4, stream);
            cuda::synchronize_stream(ordinal, stream);
            throw_fp_error(k, record);
        }
    }
}

void run(const CompiledKernel& k, const LaunchBounds& bounds, const void* params, void* stream,
         bool adjoint) {
    if (k.device.is_cuda())
        run_cuda(k, bounds, params, stream, adjoint);
    else
        run_cpu(k, bounds, params, adjoint);
}

}  // namespace treadle
