// src/runtime/launch_plan.cpp -- launch plans and the one argument packer (every argument check)
#include "runtime/launch_plan.h"

#include <cstring>

#include "treadle/core.h"  // wp::half and wp::bfloat16 for 16-bit float parameters
#include "treadle/error.h"
#include "types/abi.h"

namespace treadle {

namespace {

using types::abi::ArrayRecord;
using types::abi::FabricArrayRecord;
using types::abi::IndexedArrayRecord;
using types::abi::IndexedFabricArrayRecord;

/// The name of a parameter or struct field ("s.inner.x"), built only for an error message.
struct SlotName {
    const SlotName* parent;
    const std::string* part;
    std::string str() const { return parent ? parent->str() + "." + *part : *part; }
};

/// Where one value goes: a parameter or a field of a struct parameter.
struct Slot {
    const types::Type* type;
    size_t offset;
    const SlotName* name;
};

/// Whether integer `v` fits scalar type `t` (an integer type) without wrapping.
bool fits(ScalarType t, const ArgValue& v) {
    const size_t bits = scalar_size(t) * 8;
    const bool is_signed = t == ScalarType::Int8 || t == ScalarType::Int16 ||
                           t == ScalarType::Int32 || t == ScalarType::Int64;
    if (v.is_unsigned) {  // v.i holds a uint64 value
        const uint64_t u = (uint64_t)v.i;
        if (is_signed)
            return bits == 64 ? u <= (uint64_t)INT64_MAX : u < (uint64_t(1) << (bits - 1));
        return bits == 64 || u < (uint64_t(1) << bits);
    }
    if (is_signed)
        return bits == 64 ||
               (v.i >= -(int64_t(1) << (bits - 1)) && v.i < (int64_t(1) << (bits - 1)));
    return v.i >= 0 && (bits == 64 || v.i < (int64_t(1) << bits));
}

/// Packs one launch; owns nothing.
class Packer {
public:
    Packer(const CompiledKernel& k, ArgumentSource& source, uint8_t* block)
        : m_k(k), m_source(source), m_block(block) {}

    [[noreturn]] void fail(ErrorKind kind, const Slot& s, const std::string& what) const {
        throw Error(kind, m_k.name + "(): argument '" + s.name->str() + "' " + what);
    }
    [[noreturn]] void wrong_kind(const Slot& s, const std::string& got) const {
        if (s.type->is_array()) wrong_array(s, got);
        fail(ErrorKind::Type, s, "expects " + s.type->name + ", got " + got);
    }
    /// An array parameter given something else (Warp's message and error class).
    [[noreturn]] void wrong_array(const Slot& s, const std::string& got) const {
        const types::Type* t = s.type;
        std::string kind = t->fabric ? (t->indexed ? "indexedfabricarray" : "fabricarray")
                                     : (t->indexed ? "indexedarray" : "array");
        fail(ErrorKind::ArgumentType, s,
             "expects an array of type " + kind + "(ndim=" + std::to_string(t->ndim) +
                 ", dtype=" + t->dtype->name + "), but passed value has type " + got);
    }
    /// A value that is not an array, as messages name it.
    std::string value_text(const ArgValue& v) const {
        switch (v.kind) {
            case ArgValue::Kind::Bool:
                return "bool";
            case ArgValue::Kind::Int:
                return "int";
            case ArgValue::Kind::Float:
                return "float";
            case ArgValue::Kind::Components:
                return std::to_string(v.count) + " components";
            case ArgValue::Kind::StructBytes:
                return "the raw bytes of a struct";
            default:
                return m_source.describe(v);
        }
    }
    /// Value kinds that are never arrays.
    bool never_an_array(const ArgValue& v) const {
        switch (v.kind) {
            case ArgValue::Kind::Bool:
            case ArgValue::Kind::Int:
            case ArgValue::Kind::Float:
            case ArgValue::Kind::Components:
            case ArgValue::Kind::StructBytes:
            case ArgValue::Kind::Struct:
            case ArgValue::Kind::Other:
                return true;
            default:
                return false;
        }
    }

    /// Validates value `v` for slot `s` and writes it.
    void pack(const Slot& s, const ArgValue& v) {
        if (s.type->is_array() && never_an_array(v)) wrong_array(s, value_text(v));
        switch (v.kind) {
            case ArgValue::Kind::None:
                if (!s.type->is_array()) wrong_kind(s, "None");
                if (s.type->fabric) return;  // a null record (the block starts zeroed)
                return pack_array(s, Array());
            case ArgValue::Kind::Array:
                return pack_array(s, *v.array);
            case ArgValue::Kind::IndexedArray:
                return pack_indexed(s, *v.array, v.indices, v.n_indices);
            case ArgValue::Kind::FabricArray:
                return pack_fabric(s, v);
            case ArgValue::Kind::Bool:
            case ArgValue::Kind::Int:
                return pack_int(s, v);
            case ArgValue::Kind::Float:
                if (!s.type->is_float()) wrong_kind(s, "a float");
                return store_float(m_block + s.offset, s.type->scalar, v.f);
            case ArgValue::Kind::Components:
                return pack_components(s, v);
            case ArgValue::Kind::StructBytes:
                return pack_struct_bytes(s, v);
            case ArgValue::Kind::Struct:
                return pack_struct(s, v);
            case ArgValue::Kind::Other:
                if (s.type->is_struct())
                    fail(ErrorKind::Type, s,
                         "expects struct " + s.type->name + ", got " + m_source.describe(v));
                wrong_kind(s, m_source.describe(v));
        }
    }

    /// The array_t record of `a` for slot `s` (checks dtype, ndim and device); a null array
    /// keeps only the parameter's ndim.
    ArrayRecord array_record(const Slot& s, const Array& a) const {
        const types::Type* t = s.type;
        ArrayRecord ap{};
        ap.ndim = t->ndim;
        if (a.is_null()) return ap;
        const types::Type* want = t->dtype;
        if (a.dtype() != dtype_of_type(want))
            fail(ErrorKind::ArgumentType, s,
                 "expects an array of " + want->name + ", got an array of " +
                     type_of_dtype(a.dtype())->name);
        if (a.ndim() != t->ndim)
            fail(ErrorKind::ArgumentType, s,
                 "expects a " + std::to_string(t->ndim) + "-D array, got a " +
                     std::to_string(a.ndim()) + "-D array");
        if (a.device() != m_k.device)
            fail(ErrorKind::Value, s,
                 "is on device " + a.device().alias() + " but the launch is on " +
                     m_k.device.alias());
        ap.data = a.data();
        ap.grad = a.grad() ? a.grad()->data() : nullptr;
        ap.pad = a.retain_grad() ? 1 : 0;  // wp::array_retain_grad
        ap.ndim = a.ndim();
        for (int d = 0; d < a.ndim(); ++d) {
            ap.shape[d] = (int32_t)a.shape(d);
            ap.strides[d] = a.stride(d);
        }
        return ap;
    }

    void pack_array(const Slot& s, const Array& a) {
        const types::Type* t = s.type;
        if (!t->is_array()) wrong_kind(s, "an array");
        if (t->fabric) wrong_kind(s, "array");
        if (t->indexed) return pack_indexed(s, a, nullptr, 0);
        ArrayRecord ap = array_record(s, a);
        std::memcpy(m_block + s.offset, &ap, sizeof(ap));
    }

    void pack_indexed(const Slot& s, const Array& data, const Array* const* indices, int count) {
        const types::Type* t = s.type;
        if (!t->is_indexed_array())
            wrong_kind(s, t->is_array() ? "indexedarray" : "an indexedarray");
        IndexedArrayRecord ip{};
        ip.arr = array_record(s, data);
        if (count != 0 && count != t->ndim)
            fail(ErrorKind::Value, s,
                 "has " + std::to_string(count) + " index arrays for " + std::to_string(t->ndim) +
                     " dimensions");
        for (int d = 0; d < t->ndim; ++d) {
            const Array* ix = d < count ? indices[d] : nullptr;
            ip.shape[d] = data.is_null() ? 0 : (int32_t)data.shape(d);
            if (!ix || ix->is_null()) continue;
            std::string which = "index array " + std::to_string(d);
            if (ix->dtype() != DType(ScalarType::Int32) || ix->ndim() != 1 ||
                (ix->shape(0) > 1 && ix->stride(0) != 4))
                fail(ErrorKind::Type, s, which + " must be a contiguous 1-D int32 array");
            if (ix->device() != m_k.device)
                fail(ErrorKind::Value, s,
                     which + " is on device " + ix->device().alias() + " but the launch is on " +
                         m_k.device.alias());
            ip.indices[d] = ix->data();
            ip.shape[d] = (int32_t)ix->shape(0);
        }
        std::memcpy(m_block + s.offset, &ip, sizeof(ip));
    }

    /// Checks that `a` (a bucket table or an index array) is on the launch's device.
    void check_device(const Slot& s, const Array* a, const char* what) const {
        if (a && !a->is_null() && a->device() != m_k.device)
            fail(ErrorKind::Value, s,
                 std::string(what) + " is on device " + a->device().alias() +
                     " but the launch is on " + m_k.device.alias());
    }

    void pack_fabric(const Slot& s, const ArgValue& v) {
        const types::Type* t = s.type;
        const types::Type* vt = v.fabric_type;
        if (!t->is_fabric_array() || t->indexed != vt->indexed)
            wrong_kind(s, vt->indexed ? "indexedfabricarray" : "fabricarray");
        if (vt->dtype != t->dtype)
            fail(ErrorKind::ArgumentType, s,
                 "expects an array of " + t->dtype->name + ", got an array of " + vt->dtype->name);
        if (vt->ndim != t->ndim)
            fail(ErrorKind::ArgumentType, s,
                 "expects a " + std::to_string(t->ndim) + "-D array, got a " +
                     std::to_string(vt->ndim) + "-D array");
        check_device(s, v.array, "the Fabric array");
        FabricArrayRecord fr{};
        if (v.array && !v.array->is_null()) {
            fr.buckets = v.array->data();
            fr.nbuckets = (uint64_t)v.array->shape(0);
        }
        fr.size = (uint64_t)v.count;
        if (!vt->indexed) {
            std::memcpy(m_block + s.offset, &fr, sizeof(fr));
            return;
        }
        IndexedFabricArrayRecord ir{};
        ir.fa = fr;
        const Array* ix = v.indices[0];
        check_device(s, ix, "its index array");
        if (ix && !ix->is_null()) {
            ir.indices = ix->data();
            ir.size = (uint64_t)ix->shape(0);
        }
        std::memcpy(m_block + s.offset, &ir, sizeof(ir));
    }

    void pack_int(const Slot& s, const ArgValue& v) {
        const types::Type* t = s.type;
        const bool is_bool = v.kind == ArgValue::Kind::Bool;
        if (!t->is_scalar()) wrong_kind(s, is_bool ? "bool" : "int");
        if (v.overflow) fail(ErrorKind::Type, s, "is an integer too large for " + t->name);
        if (t->is_float()) return store_float(m_block + s.offset, t->scalar, (double)v.i);
        if (t->is_bool() && !is_bool && v.i != 0 && v.i != 1)
            fail(ErrorKind::Type, s, "expects bool, got int " + std::to_string(v.i));
        if (!t->is_bool() && !fits(t->scalar, v))
            fail(ErrorKind::Overflow, s,
                 "is " + (v.is_unsigned ? std::to_string((uint64_t)v.i) : std::to_string(v.i)) +
                     ", out of the range of " + t->name);
        store_int(m_block + s.offset, t->scalar, v.i);
    }

    void pack_components(const Slot& s, const ArgValue& v) {
        const types::Type* t = s.type;
        if (t->is_scalar() || t->is_array() || t->is_struct())
            wrong_kind(s, std::to_string(v.count) + " components");
        const size_t count = (size_t)t->components();
        if (v.count != count)
            fail(ErrorKind::Type, s,
                 "expects " + t->name + " (" + std::to_string(count) + " components), got " +
                     std::to_string(v.count) + " values");
        const size_t width = scalar_size(t->scalar);
        uint8_t* dst = m_block + s.offset;
        if (v.scalar == t->scalar) {
            std::memcpy(dst, v.data, count * width);
            return;
        }
        const size_t from = scalar_size(v.scalar);
        const auto* src = static_cast<const uint8_t*>(v.data);
        const bool to_float = treadle::is_float(t->scalar);
        for (size_t c = 0; c < count; ++c) {
            const uint8_t* e = src + c * from;
            if (to_float)
                store_float(dst + c * width, t->scalar, load_double(e, v.scalar));
            else if (treadle::is_float(v.scalar))
                store_int(dst + c * width, t->scalar, (int64_t)load_double(e, v.scalar));
            else
                store_int(dst + c * width, t->scalar, load_int(e, v.scalar));
        }
    }

    void pack_struct_bytes(const Slot& s, const ArgValue& v) {
        const types::Type* t = s.type;
        if (!t->is_struct()) wrong_kind(s, "the raw bytes of a struct");
        if (v.count != t->size)
            fail(ErrorKind::Type, s,
                 "expects struct " + t->name + " (" + std::to_string(t->size) + " bytes), got " +
                     std::to_string(v.count) + " bytes");
        std::memcpy(m_block + s.offset, v.data, v.count);
    }

    void pack_struct(const Slot& s, const ArgValue& v) {
        const types::Type* t = s.type;
        if (!t->is_struct() || v.struct_type != t) {
            std::string got = m_source.describe(v);
            if (got == "struct " + t->name) got += " of another layout";
            if (t->is_struct())
                fail(ErrorKind::Type, s, "expects struct " + t->name + ", got " + got);
            wrong_kind(s, got);
        }
        for (const types::StructField& f : t->fields) {
            SlotName name{s.name, &f.name};
            ArgValue field;
            m_source.read_field(v, f, field);
            pack(Slot{f.type, s.offset + f.offset, &name}, field);
        }
    }

    // ---- scalar conversion: C casts, float16 and bfloat16 through wp::half, wp::bfloat16 ----

    static void store_float(uint8_t* dst, ScalarType type, double v) {
        if (type == ScalarType::Float16) {
            wp::half h(v);
            std::memcpy(dst, &h, 2);
        } else if (type == ScalarType::BFloat16) {
            wp::bfloat16 h(v);
            std::memcpy(dst, &h, 2);
        } else if (type == ScalarType::Float32) {
            float x = (float)v;
            std::memcpy(dst, &x, 4);
        } else {
            std::memcpy(dst, &v, 8);
        }
    }

    template <typename T>
    static void store_as(uint8_t* dst, int64_t v) {
        T x = (T)v;
        std::memcpy(dst, &x, sizeof(T));
    }

    static void store_int(uint8_t* dst, ScalarType type, int64_t v) {
        switch (type) {
            case ScalarType::Bool:
                *dst = v != 0;
                break;
            case ScalarType::Int8:
                store_as<int8_t>(dst, v);
                break;
            case ScalarType::UInt8:
                store_as<uint8_t>(dst, v);
                break;
            case ScalarType::Int16:
                store_as<int16_t>(dst, v);
                break;
            case ScalarType::UInt16:
                store_as<uint16_t>(dst, v);
                break;
            case ScalarType::Int32:
                store_as<int32_t>(dst, v);
                break;
            case ScalarType::UInt32:
                store_as<uint32_t>(dst, v);
                break;
            default:
                std::memcpy(dst, &v, 8);
                break;
        }
    }

    template <typename T>
    static T load_as(const uint8_t* src) {
        T x;
        std::memcpy(&x, src, sizeof(T));
        return x;
    }

    static double load_double(const uint8_t* src, ScalarType type) {
        switch (type) {
            case ScalarType::Float16:
                return (double)(float)load_as<wp::half>(src);
            case ScalarType::BFloat16:
                return (double)(float)load_as<wp::bfloat16>(src);
            case ScalarType::Float32:
                return (double)load_as<float>(src);
            case ScalarType::Float64:
                return load_as<double>(src);
            case ScalarType::UInt64:
                return (double)load_as<uint64_t>(src);
            default:
                return (double)load_int(src, type);
        }
    }

    static int64_t load_int(const uint8_t* src, ScalarType type) {
        switch (type) {
            case ScalarType::Bool:
                return *src != 0;
            case ScalarType::Int8:
                return load_as<int8_t>(src);
            case ScalarType::UInt8:
                return load_as<uint8_t>(src);
            case ScalarType::Int16:
                return load_as<int16_t>(src);
            case ScalarType::UInt16:
                return load_as<uint16_t>(src);
            case ScalarType::Int32:
                return load_as<int32_t>(src);
            case ScalarType::UInt32:
                return load_as<uint32_t>(src);
            case ScalarType::Float16:
            case ScalarType::Float32:
            case ScalarType::Float64:
            case ScalarType::BFloat16:
                return (int64_t)load_double(src, type);
            default:
                return load_as<int64_t>(src);
        }
    }

private:
    const CompiledKernel& m_k;
    ArgumentSource& m_source;
    uint8_t* m_block;
};

}  // namespace

ParamKind param_kind(const types::Type* t) {
    if (t->is_fabric_array()) return ParamKind::FabricArray;
    if (t->is_array()) return t->indexed ? ParamKind::IndexedArray : ParamKind::Array;
    if (t->is_struct()) return ParamKind::Struct;
    if (t->is_scalar()) return ParamKind::Scalar;
    return ParamKind::Composite;
}

LaunchPlan::LaunchPlan(std::shared_ptr<const CompiledKernel> kernel) : m_kernel(std::move(kernel)) {
    m_params.reserve(m_kernel->params.size());
    for (const KernelParam& p : m_kernel->params) {
        PlanParam pp;
        pp.param = &p;
        pp.kind = param_kind(p.type);
        pp.reads = p.type->is_array() && p.reads;
        pp.writes = p.type->is_array() && p.writes;
        m_params.push_back(pp);
    }
}

void ArgumentSource::read_field(const ArgValue&, const types::StructField&, ArgValue& out) {
    out = ArgValue();
}

void ArgumentSource::read_adjoint(size_t, const PlanParam&, ArgValue& out) {
    out = ArgValue();
    out.kind = ArgValue::Kind::None;
}

std::string ArgumentSource::describe(const ArgValue&) const { return "an unsupported value"; }

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

LaunchBounds pack_arguments(const LaunchPlan& plan, const int64_t* dim, size_t ndim,
                            ArgumentSource& source, bool adjoint, uint8_t* block,
                            WriteNotes* written) {
    const CompiledKernel& k = plan.kernel();
    const size_t n = source.size();
    if (n != k.params.size())
        throw Error(ErrorKind::Type, k.name + "(): takes " + std::to_string(k.params.size()) +
                                         " arguments but " + std::to_string(n) + " were given");
    LaunchBounds bounds = make_bounds(k, dim, ndim);
    const int64_t n_adjoints = adjoint ? source.adjoint_count() : -1;
    if (n_adjoints >= 0 && (size_t)n_adjoints != n)
        throw Error(ErrorKind::Type, k.name + "(): expects " + std::to_string(n) +
                                         " adjoint arguments but " + std::to_string(n_adjoints) +
                                         " were given");
    std::memset(block, 0, plan.block_size());
    Packer packer(k, source, block);
    std::vector<const void*> seen;  // buffers of the arrays of a backward launch so far
    ArgValue v;
    ArgValue adj;
    for (size_t i = 0; i < n; ++i) {
        const PlanParam& pp = plan.params()[i];
        const KernelParam& p = *pp.param;
        SlotName name{nullptr, &p.name};
        const Slot slot{p.type, p.offset, &name};
        source.read(i, pp, v);
        const bool is_array = v.kind == ArgValue::Kind::Array ||
                              (v.kind == ArgValue::Kind::IndexedArray && v.array != nullptr);
        if (!adjoint || !is_array || !p.type->is_array() || v.array->is_null()) {
            if (n_adjoints >= 0) {
                source.read_adjoint(i, pp, adj);
                if (adj.kind == ArgValue::Kind::Array && (!is_array || !p.type->is_array()))
                    packer.fail(ErrorKind::Type, slot,
                                "is not an array, so its adjoint must be a null Array");
            }
            if (!k.checked && (p.reads || p.writes) && !p.null_tested && p.type->is_array() &&
                bounds.size > 0 &&
                (v.kind == ArgValue::Kind::None || (is_array && v.array->is_null())))
                packer.fail(ErrorKind::Value, slot,
                            std::string("is None (a null array), but the kernel ") +
                                (p.writes ? "writes" : "reads") +
                                " it; pass an array (checked and debug modes report the access "
                                "at its line instead)");
            packer.pack(slot, v);
            if (!k.checked && bounds.size > 0)
                for (const AccessedArrayField& f : p.array_fields) {
                    if (f.null_tested) continue;
                    void* data = nullptr;
                    std::memcpy(&data, block + p.offset + f.offset, sizeof(data));
                    if (!data)
                        packer.fail(ErrorKind::Value, slot,
                                    "has its array field '" + f.path +
                                        "' unset (None, a null array), but the kernel " +
                                        (f.writes ? "writes" : "reads") +
                                        " it; set the field (checked and debug modes report "
                                        "the access at its line instead)");
                }
            if (written && pp.writes && is_array && !v.array->is_null()) written->add(v.array);
            continue;
        }
        // a backward launch of an array argument: the array with its adjoint as its gradient
        const Array* adj_array = nullptr;
        if (n_adjoints >= 0) {
            source.read_adjoint(i, pp, adj);
            if (adj.kind == ArgValue::Kind::Array)
                adj_array = adj.array;
            else if (adj.kind != ArgValue::Kind::None)
                packer.fail(ErrorKind::Type, slot,
                            "expects an adjoint array, got " + source.describe(adj));
        }
        Array view = with_adjoint(k, p, *v.array, adj_array);
        if (v.kind == ArgValue::Kind::IndexedArray)
            packer.pack_indexed(slot, view, v.indices, v.n_indices);
        else
            packer.pack_array(slot, view);
        if (shares_memory(view, seen)) bounds.flags |= k_launch_aliased_arrays;
    }
    return bounds;
}

}  // namespace treadle
