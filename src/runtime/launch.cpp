// src/runtime/launch.cpp -- argument packing and CPU execution of compiled kernels
#include "runtime/launch.h"

#include <atomic>
#include <cstring>
#include <memory>
#include <vector>

#include "runtime/cuda.h"
#include "runtime/thread_pool.h"
#include "treadle/core.h"  // wp::half for float16 parameters
#include "treadle/error.h"

namespace treadle {

namespace {

[[noreturn]] void arg_error(ErrorKind kind, const CompiledKernel& k, const KernelParam& p,
                            const std::string& what) {
    throw Error(kind, k.name + "(): argument '" + p.name + "' " + what);
}

/// Same layout as wp::array_t<T>.
struct ArrayParam {
    void* data;
    void* grad;
    int32_t shape[4];
    int64_t strides[4];
    int32_t ndim;
    int32_t pad;
};
static_assert(sizeof(ArrayParam) == 72, "must match wp::array_t");

/// Same layout as wp::indexedarray_t<T>.
struct IndexedArrayParam {
    ArrayParam arr;
    void* indices[4];
    int32_t shape[4];
};
static_assert(sizeof(IndexedArrayParam) == 120, "must match wp::indexedarray_t");

}  // namespace

LaunchBounds make_bounds(const CompiledKernel& k, const std::vector<int64_t>& dim) {
    if (dim.empty() || dim.size() > 4)
        throw Error(ErrorKind::Value, k.name + "(): launch dim must have 1 to 4 dimensions, got " +
                                          std::to_string(dim.size()));
    LaunchBounds b;
    b.ndim = (int32_t)dim.size();
    b.size = 1;
    for (size_t i = 0; i < dim.size(); ++i) {
        if (dim[i] < 0 || dim[i] >= (int64_t(1) << 31))
            throw Error(ErrorKind::Value, k.name + "(): launch dimension " + std::to_string(i) +
                                              " is " + std::to_string(dim[i]) +
                                              " (each must be in [0, 2^31))");
        b.shape[i] = (int32_t)dim[i];
        b.size *= dim[i];
    }
    if (k.tid_arity > 1 && k.tid_arity != b.ndim)
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

/// The array_t record of `a` for parameter `p` (checks dtype, ndim and device); null arrays
/// keep only the parameter's ndim.
ArrayParam array_param(const CompiledKernel& k, const KernelParam& p, const Array& a,
                       const Device& device) {
    const types::Type* t = p.type;
    ArrayParam ap{};
    ap.ndim = t->ndim;
    if (a.is_null()) return ap;
    const types::Type* want = t->dtype;
    if (a.dtype() != dtype_of_type(want))
        arg_error(ErrorKind::Type, k, p,
                  "expects an array of " + want->name + ", got an array of " +
                      type_of_dtype(a.dtype())->name);
    if (a.ndim() != t->ndim)
        arg_error(ErrorKind::Type, k, p,
                  "expects a " + std::to_string(t->ndim) + "-D array, got a " +
                      std::to_string(a.ndim()) + "-D array");
    if (a.device() != device)
        arg_error(ErrorKind::Value, k, p,
                  "is on device " + a.device().alias() + " but the launch is on " + device.alias());
    ap.data = a.data();
    ap.grad = a.grad() ? a.grad()->data() : nullptr;
    ap.ndim = a.ndim();
    for (int d = 0; d < a.ndim(); ++d) {
        ap.shape[d] = (int32_t)a.shape(d);
        ap.strides[d] = a.stride(d);
    }
    return ap;
}

}  // namespace

void pack_array(uint8_t* block, const CompiledKernel& k, const KernelParam& p, const Array& a,
                const Device& device) {
    const types::Type* t = p.type;
    if (!t->is_array()) arg_error(ErrorKind::Type, k, p, "expects " + t->name + ", got an array");
    if (t->indexed) return pack_indexed_array(block, k, p, a, {}, device);
    ArrayParam ap = array_param(k, p, a, device);
    std::memcpy(block + p.offset, &ap, sizeof(ap));
}

void pack_indexed_array(uint8_t* block, const CompiledKernel& k, const KernelParam& p,
                        const Array& data, const std::vector<const Array*>& indices,
                        const Device& device) {
    const types::Type* t = p.type;
    if (!t->is_indexed_array())
        arg_error(ErrorKind::Type, k, p, "expects " + t->name + ", got an indexedarray");
    IndexedArrayParam ip{};
    ip.arr = array_param(k, p, data, device);
    if (!indices.empty() && (int)indices.size() != t->ndim)
        arg_error(ErrorKind::Value, k, p,
                  "has " + std::to_string(indices.size()) + " index arrays for " +
                      std::to_string(t->ndim) + " dimensions");
    for (int d = 0; d < t->ndim; ++d) {
        const Array* ix = d < (int)indices.size() ? indices[d] : nullptr;
        ip.shape[d] = data.is_null() ? 0 : (int32_t)data.shape(d);
        if (!ix || ix->is_null()) continue;
        std::string which = "index array " + std::to_string(d);
        if (ix->dtype() != DType(ScalarType::Int32) || ix->ndim() != 1 ||
            (ix->shape(0) > 1 && ix->stride(0) != 4))
            arg_error(ErrorKind::Type, k, p, which + " must be a contiguous 1-D int32 array");
        if (ix->device() != device)
            arg_error(ErrorKind::Value, k, p,
                      which + " is on device " + ix->device().alias() + " but the launch is on " +
                          device.alias());
        ip.indices[d] = ix->data();
        ip.shape[d] = (int32_t)ix->shape(0);
    }
    std::memcpy(block + p.offset, &ip, sizeof(ip));
}

void pack_int(uint8_t* block, const CompiledKernel& k, const KernelParam& p, int64_t v,
              bool is_bool) {
    const types::Type* t = p.type;
    if (!t->is_scalar())
        arg_error(ErrorKind::Type, k, p,
                  "expects " + t->name + ", got " + (is_bool ? "bool" : "int"));
    if (t->is_float()) return pack_float(block, k, p, (double)v);
    if (t->is_bool() && !is_bool && v != 0 && v != 1)
        arg_error(ErrorKind::Type, k, p, "expects bool, got int " + std::to_string(v));
    uint8_t* dst = block + p.offset;
    switch (t->scalar) {
        case ScalarType::Bool:
            *dst = v != 0;
            break;
        case ScalarType::Int8: {
            int8_t x = (int8_t)v;
            std::memcpy(dst, &x, 1);
            break;
        }
        case ScalarType::UInt8: {
            uint8_t x = (uint8_t)v;
            std::memcpy(dst, &x, 1);
            break;
        }
        case ScalarType::Int16: {
            int16_t x = (int16_t)v;
            std::memcpy(dst, &x, 2);
            break;
        }
        case ScalarType::UInt16: {
            uint16_t x = (uint16_t)v;
            std::memcpy(dst, &x, 2);
            break;
        }
        case ScalarType::Int32: {
            int32_t x = (int32_t)v;
            std::memcpy(dst, &x, 4);
            break;
        }
        case ScalarType::UInt32: {
            uint32_t x = (uint32_t)v;
            std::memcpy(dst, &x, 4);
            break;
        }
        default:
            std::memcpy(dst, &v, 8);
            break;
    }
}

void pack_components(uint8_t* block, const CompiledKernel& k, const KernelParam& p,
                     const std::vector<double>& values) {
    const types::Type* t = p.type;
    size_t count = (size_t)t->components();
    if (values.size() != count)
        arg_error(ErrorKind::Type, k, p,
                  "expects " + t->name + " (" + std::to_string(count) + " components), got " +
                      std::to_string(values.size()) + " values");
    size_t elem = scalar_size(t->scalar);
    KernelParam component{p.name, types::scalar_type(t->scalar), 0};
    for (size_t i = 0; i < count; ++i) {
        component.offset = p.offset + i * elem;
        if (treadle::is_float(t->scalar))
            pack_float(block, k, component, values[i]);
        else
            pack_int(block, k, component, (int64_t)values[i], t->scalar == ScalarType::Bool);
    }
}

void pack_float(uint8_t* block, const CompiledKernel& k, const KernelParam& p, double v) {
    const types::Type* t = p.type;
    if (!t->is_float()) arg_error(ErrorKind::Type, k, p, "expects " + t->name + ", got a float");
    uint8_t* dst = block + p.offset;
    switch (t->scalar) {
        case ScalarType::Float16: {
            wp::half h(v);
            std::memcpy(dst, &h, 2);
            break;
        }
        case ScalarType::Float32: {
            float x = (float)v;
            std::memcpy(dst, &x, 4);
            break;
        }
        default:
            std::memcpy(dst, &v, 8);
            break;
    }
}

void pack_struct_bytes(uint8_t* block, const CompiledKernel& k, const KernelParam& p,
                       const void* data, size_t size) {
    const types::Type* t = p.type;
    if (!t->is_struct())
        arg_error(ErrorKind::Type, k, p, "expects " + t->name + ", got the raw bytes of a struct");
    if (size != t->size)
        arg_error(ErrorKind::Type, k, p,
                  "expects struct " + t->name + " (" + std::to_string(t->size) + " bytes), got " +
                      std::to_string(size) + " bytes");
    std::memcpy(block + p.offset, data, size);
}

Array with_adjoint(const CompiledKernel& k, const KernelParam& p, const Array& a,
                   const Array* adj) {
    Array out = a;
    if (!adj) return out;
    if (adj->shape() != a.shape() || adj->strides() != a.strides() || adj->dtype() != a.dtype() ||
        adj->device() != a.device())
        throw Error(ErrorKind::Value, k.name + "(): the adjoint of argument '" + p.name +
                                          "' must have the array's dtype, shape, strides and "
                                          "device");
    auto grad = std::make_shared<Array>(*adj);
    grad->set_grad(nullptr);
    out.set_grad(std::move(grad));
    return out;
}

bool shares_memory(const Array& a, std::vector<const void*>& seen) {
    bool shared = false;
    for (const Array* x : {&a, a.grad()}) {
        if (!x || !x->buffer()) continue;
        const void* b = x->buffer().get();
        for (const void* s : seen) shared |= s == b;
        seen.push_back(b);
    }
    return shared;
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

/// Host mirror of wp::bounds_error_t (native/treadle/array.h).
struct BoundsRecord {
    int32_t flag, line, dim, ndim;
    int32_t index[4], shape[4];
    char kernel[64];
    char file[192];
};
static_assert(sizeof(BoundsRecord) == 304, "must match wp::bounds_error_t");

[[noreturn]] void throw_bounds_error(const BoundsRecord& r) {
    auto list = [](const int32_t* v, int n) {
        std::string s = "(";
        for (int d = 0; d < n; ++d) s += (d ? ", " : "") + std::to_string(v[d]);
        return s + (n == 1 ? ",)" : ")");
    };
    std::string msg = std::string(r.kernel) + "(): index " + list(r.index, r.ndim) +
                      " is out of bounds for an array of shape " + list(r.shape, r.ndim) +
                      " (dimension " + std::to_string(r.dim) + ")";
    throw Error(ErrorKind::Bounds, msg, SourceLocation{r.file, r.line, 1, ""});
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
    RunContext ctx{entry, params, &bounds};
    cpu_pool().parallel_for(bounds.size, run_range, &ctx);
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
              bool adjoint) {
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
    int64_t blocks = (bounds.size + k_cuda_block_dim - 1) / k_cuda_block_dim;
    if (blocks > 0x7fffffff) blocks = 0x7fffffff;  // the grid-stride loop covers the rest
    int ordinal = k.device.ordinal();
    cuda::launch_args(ordinal, function, (unsigned)blocks, k_cuda_block_dim, args, stream);
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
