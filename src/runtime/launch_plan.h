// src/runtime/launch_plan.h -- the launch plan of a compiled kernel and the one argument packer
#pragma once

/*
 * Every launch, from the C++ API or from Python, is packed here. A LaunchPlan is made once per
 * compiled kernel: the parameter layout and kind of every parameter and which arrays the kernel
 * reads and writes. pack_arguments() then reads each argument through an ArgumentSource (one
 * implementation per front end: KernelArg in src/api/launch_args.cpp, Python objects in
 * src/python/export_launch.cpp), validates it against the plan and writes it into the parameter
 * block. Every argument error message of a launch is written in launch_plan.cpp and nowhere else.
 */

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/launch.h"
#include "runtime/loaded_kernel.h"
#include "treadle/array.h"

namespace treadle {

/// How a parameter is written into the block, decided once from its type.
enum class ParamKind : uint8_t {
    Array,         ///< wp::array_t (a plain array; an Array argument)
    IndexedArray,  ///< wp::indexedarray_t (an indexedarray, or a plain array with no indices)
    FabricArray,   ///< wp::fabricarray_t or wp::indexedfabricarray_t
    Scalar,        ///< bool, integers, floats
    Composite,     ///< vector, matrix, quaternion, transform, spatial types: components
    Struct,        ///< a @wp.struct, field by field or as raw bytes
};

/// The kind of a parameter (or struct field) of type `t`.
ParamKind param_kind(const types::Type* t);

/// One parameter of a plan. `param` points into the plan's kernel, which the plan keeps alive.
struct PlanParam {
    const KernelParam* param = nullptr;
    ParamKind kind = ParamKind::Scalar;
    bool reads = false;   ///< an array the kernel may read (the tape remembers its version)
    bool writes = false;  ///< an array the kernel may write (a write is noted on launch)
};

/// The launch plan of one compiled kernel: what the packer needs, decided once. Immutable and
/// shared by every launch of the kernel, from any thread.
class LaunchPlan {
public:
    explicit LaunchPlan(std::shared_ptr<const CompiledKernel> kernel);

    const CompiledKernel& kernel() const { return *m_kernel; }
    const std::shared_ptr<const CompiledKernel>& compiled() const { return m_kernel; }
    const std::vector<PlanParam>& params() const { return m_params; }
    /// Bytes of the parameter block to give pack_arguments(): the whole struct, tail padding
    /// included, and never zero.
    size_t block_size() const { return m_kernel->params_size + 8; }

private:
    std::shared_ptr<const CompiledKernel> m_kernel;
    std::vector<PlanParam> m_params;
};

/// One argument (or struct field, or adjoint) as a front end read it, before any check. The
/// pointers are the source's and stay valid until the source's next read. A source sets `kind`
/// and the fields that kind uses (listed with each kind); the packer reads no others, so one
/// ArgValue is reused for every argument without being cleared.
struct ArgValue {
    enum class Kind : uint8_t {
        Other,         ///< nothing the packer can take; ArgumentSource::describe() names it
        None,          ///< no value (Python None): a null array
        Array,         ///< `array`
        IndexedArray,  ///< `array` (the data) seen through `indices`
        FabricArray,   ///< a Fabric array of type `fabric_type`: `array` its bucket table (a
                       ///< 2-D uint64 array, 4 per bucket; null without buckets), `count` its
                       ///< elements; indexed: `indices[0]` the int32 index array
        Bool,          ///< `i` (0 or 1)
        Int,           ///< `i` (as uint64 bits when `is_unsigned`); `overflow` when the value
                       ///< fits neither int64 nor uint64
        Float,         ///< `f`
        Components,    ///< `count` elements of type `scalar` at `data`, row-major
        StructBytes,   ///< `count` bytes at `data`, the struct's C layout
        Struct,        ///< a front-end struct object of interned type `struct_type`
    };
    Kind kind = Kind::Other;
    bool overflow = false;
    bool is_unsigned = false;  ///< Int: `i` holds a uint64 value above INT64_MAX
    ScalarType scalar = ScalarType::Float64;
    int n_indices = 0;  ///< IndexedArray: index arrays given (0, or the ndim)
    int64_t i = 0;
    double f = 0.0;
    const Array* array = nullptr;
    const Array* indices[4] = {nullptr, nullptr, nullptr, nullptr};  ///< null: whole dimension
    const void* data = nullptr;
    size_t count = 0;
    const void* struct_type = nullptr;
    const types::Type* fabric_type = nullptr;
    const void* handle = nullptr;  ///< the source's own object, for fields and descriptions
};

/// Where pack_arguments() reads a launch's arguments from. A source may look at the parameter
/// to read cheaply (a Python source reads a vector parameter's value as components), but never
/// validates: every check and error message is the packer's.
class ArgumentSource {
public:
    virtual ~ArgumentSource() = default;
    /// Number of arguments given.
    virtual size_t size() const = 0;
    /// Reads argument `i`, which will be packed into parameter `p`.
    virtual void read(size_t i, const PlanParam& p, ArgValue& out) = 0;
    /// Reads field `f` of `value` (Kind::Struct, from this source).
    virtual void read_field(const ArgValue& value, const types::StructField& f, ArgValue& out);
    /// Backward launches: the number of adjoint arguments given, or -1 when none were (every
    /// array then carries its own grad()).
    virtual int64_t adjoint_count() const { return -1; }
    /// Reads the adjoint of argument `i`: None (the array's own grad()), Array, or Other.
    virtual void read_adjoint(size_t i, const PlanParam& p, ArgValue& out);
    /// What an Other or Struct value is, for an error message ("str", "struct Inner").
    virtual std::string describe(const ArgValue& value) const;
};

/// The arrays a forward launch may write, noted once every argument is packed (for the tape's
/// overwrite check). Points at the source's arrays, so commit() before they go.
class WriteNotes {
public:
    void add(const Array* a) {
        if (m_count < k_inline)
            m_inline[m_count++] = a;
        else
            m_more.push_back(a);
    }
    size_t size() const { return m_count + m_more.size(); }
    const Array* operator[](size_t i) const {
        return i < m_count ? m_inline[i] : m_more[i - m_count];
    }
    /// Counts a write by `label` on every array added.
    void commit(const char* label) const {
        for (size_t i = 0; i < m_count; ++i) m_inline[i]->note_write(label);
        for (const Array* a : m_more) a->note_write(label);
    }

private:
    static constexpr size_t k_inline = 16;
    const Array* m_inline[k_inline];
    size_t m_count = 0;
    std::vector<const Array*> m_more;
};

/// Whether `a` or its gradient uses a buffer already in `seen` (then adds both to `seen`). A
/// backward launch where this holds for some array argument sets k_launch_aliased_arrays, so
/// every gradient add is atomic.
bool shares_memory(const Array& a, std::vector<const void*>& seen);

/// Validates and packs every argument of `source` for `plan` into `block` (block_size() bytes,
/// zeroed here) and returns the launch bounds of `dim` (`ndim` entries). A backward launch
/// (`adjoint`) gives array arguments their adjoints (with_adjoint) and sets
/// k_launch_aliased_arrays when two arrays or gradients share memory; a forward launch adds the
/// arrays it may write to `written` (may be null). Throws treadle::Error (Type or Value) naming
/// the kernel and the argument.
LaunchBounds pack_arguments(const LaunchPlan& plan, const int64_t* dim, size_t ndim,
                            ArgumentSource& source, bool adjoint, uint8_t* block,
                            WriteNotes* written);

}  // namespace treadle
