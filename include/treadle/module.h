// include/treadle/module.h -- loading kernels from Python-syntax module files and launching them
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "treadle/array.h"
#include "treadle/device.h"
#include "treadle/dtype.h"

namespace treadle {

struct CompiledKernel;
class LaunchPlan;
class Stream;
namespace sema {
struct FunctionSource;
}  // namespace sema
namespace types {
struct Type;
}  // namespace types

/// One launch argument: a scalar of a given type, or an array. Scalars convert to the
/// parameter's type when that loses nothing essential (an int to a float parameter, a float
/// to another float type); a float never silently becomes an integer.
struct KernelArg {
    enum class Kind { Int, Float, Bool, Array, Components, StructBytes };
    Kind kind = Kind::Int;
    ScalarType type = ScalarType::Int32;  ///< the C++ type the value came from
    int64_t i = 0;
    double f = 0.0;
    const Array* array = nullptr;  ///< not owned; must outlive the launch call
    /// Components of a vector, matrix (row-major), quaternion or transform argument.
    std::vector<double> components;
    /// StructBytes: the bytes of a struct argument.
    std::vector<uint8_t> bytes;

    KernelArg(bool v) : kind(Kind::Bool), type(ScalarType::Bool), i(v) {}
    KernelArg(int32_t v) : kind(Kind::Int), type(ScalarType::Int32), i(v) {}
    KernelArg(int64_t v) : kind(Kind::Int), type(ScalarType::Int64), i(v) {}
    KernelArg(uint32_t v) : kind(Kind::Int), type(ScalarType::UInt32), i(v) {}
    KernelArg(uint64_t v) : kind(Kind::Int), type(ScalarType::UInt64), i((int64_t)v) {}
    KernelArg(float v) : kind(Kind::Float), type(ScalarType::Float32), f(v) {}
    KernelArg(double v) : kind(Kind::Float), type(ScalarType::Float64), f(v) {}
    KernelArg(const Array& a) : kind(Kind::Array), array(&a) {}
    /// A vec3 argument from {x, y, z}, a mat22 from {a, b, c, d}, a quat from {x, y, z, w}...
    template <typename T, size_t N>
    KernelArg(const std::array<T, N>& values)
        : kind(Kind::Components), components(values.begin(), values.end()) {}

    /// A @wp.struct argument given as its bytes in C layout: fields in declaration order, each
    /// aligned to its size (vectors and matrices to their scalar), the size a multiple of the
    /// largest alignment; `size` must be the struct's size. An array field is a raw 72-byte
    /// record (data, grad, int32 shape[4], int64 byte strides[4], int32 ndim, padding) that
    /// nothing checks, so it must point at memory of the launch's device.
    static KernelArg struct_bytes(const void* data, size_t size) {
        KernelArg a(false);
        a.kind = Kind::StructBytes;
        a.bytes.assign(static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
        return a;
    }
    /// struct_bytes() of a C++ struct mirroring the @wp.struct (trivially copyable).
    template <typename T>
    static KernelArg struct_value(const T& value) {
        static_assert(std::is_trivially_copyable_v<T>, "struct_value needs plain data");
        return struct_bytes(&value, sizeof(T));
    }
};

/// A compiled kernel, ready to launch on its device. Cheap to copy (copies share the compiled
/// code and the lazily built backward pass).
class Kernel {
public:
    /// Where a kernel came from, so its backward pass can be built later (internal).
    struct Source;

    Kernel() = default;
    /// A kernel without a source: launch_adjoint() works only when `compiled` is an adjoint
    /// build (CompiledKernel::adjoint).
    explicit Kernel(std::shared_ptr<const CompiledKernel> compiled,
                    std::shared_ptr<Source> source = nullptr);

    const std::string& name() const;
    /// Launches over `dim` (1 to 4 dimensions) on the kernel's device: on the CPU it returns
    /// when the work is done; on CUDA it is enqueued on the device's current stream (see
    /// synchronize() and treadle/stream.h). Throws treadle::Error (Type/Value) naming the
    /// kernel and parameter for a bad argument; arrays must be on the kernel's device. Each
    /// array the kernel may write gets a write counted (Array::version, last_writer), which is
    /// what treadle::Tape checks.
    void launch(const std::vector<int64_t>& dim, const std::vector<KernelArg>& args) const;

    template <typename... Args>
    void launch(std::initializer_list<int64_t> dim, const Args&... args) const {
        launch(std::vector<int64_t>(dim), std::vector<KernelArg>{KernelArg(args)...});
    }

    const std::shared_ptr<const CompiledKernel>& compiled() const { return m_compiled; }
    /// The runtime's launch plan of compiled() (for the bindings, which pack through it).
    const std::shared_ptr<const LaunchPlan>& plan() const { return m_plan; }
    /// This kernel's build with its backward pass: itself when compiled() is one, else compiled
    /// on first use and kept with the kernel (what launch_adjoint() runs). Same errors as
    /// launch_adjoint() for a kernel without a source.
    Kernel with_adjoint() const;
    /// Whether the build with the backward pass exists already (with_adjoint() or
    /// launch_adjoint() made it, or this kernel is one); never compiles.
    bool has_adjoint_build() const;

    // ---- launches on a chosen CUDA stream (treadle/stream.h) ----

    /// launch() enqueued on `stream`, which must be a stream of the kernel's CUDA device; a
    /// null Stream means the device's current stream (what launch() without one uses). A CPU
    /// kernel takes only a null Stream (ErrorKind::Value otherwise).
    void launch(const std::vector<int64_t>& dim, const std::vector<KernelArg>& args,
                const Stream& stream) const;

    template <typename... Args>
    void launch_on(const Stream& stream, std::initializer_list<int64_t> dim,
                   const Args&... args) const {
        launch(std::vector<int64_t>(dim), std::vector<KernelArg>{KernelArg(args)...}, stream);
    }

    // ---- backward passes (reverse-mode autodiff; see treadle/tape.h) ----

    /// The backward pass of launch(dim, args): gradients flow from the adjoints of the arrays
    /// the kernel writes to the adjoints of what it reads, added to what they hold. The
    /// adjoint of an array argument is its grad() (see Array::enable_grad), or `adj_args[i]`
    /// when that is not null: an array with the argument's dtype, shape, strides and device.
    /// `adj_args` is empty or holds one entry per argument (null for non-array arguments).
    /// The backward build is compiled on first use and kept with the kernel. When two array
    /// arguments (or their gradients) share memory, every gradient add is atomic. Arrays must
    /// hold the values the forward launch read. Same errors as launch(), and
    /// ErrorKind::Value for a kernel that cannot build a backward pass.
    void launch_adjoint(const std::vector<int64_t>& dim, const std::vector<KernelArg>& args,
                        const std::vector<Array>& adj_args = {}) const;
    /// launch_adjoint() enqueued on `stream` (see launch() with a stream).
    void launch_adjoint(const std::vector<int64_t>& dim, const std::vector<KernelArg>& args,
                        const std::vector<Array>& adj_args, const Stream& stream) const;

private:
    std::shared_ptr<const CompiledKernel> m_compiled;
    std::shared_ptr<const LaunchPlan> m_plan;  ///< of m_compiled, made once
    std::shared_ptr<Source> m_source;
};

/// Options for compiling a module's kernels.
struct ModuleOptions {
    std::string mode = "release";  ///< "release" or "debug"
    /// The largest trip count of a `for` over a constant range that is unrolled (Python's
    /// "max_unroll" module option); a loop that uses wp.static() is unrolled whatever its count.
    int max_unroll = 16;
    /// Python's "deterministic" option, Warp's DeterministicMode: 0 not guaranteed; 1 run to
    /// run (float atomics are recorded and applied after each launch in an order fixed by the
    /// launch indices, the same bits on every run and CPU thread count); 2 GPU to GPU (also
    /// the same bits on the CPU and CUDA).
    int deterministic = 0;
    /// Record slots per launch index at least (Python's "deterministic_max_records"); 0: the
    /// compiler's bound.
    int deterministic_max_records = 0;
};

/// A module file written in the kernel DSL (the same text a Python program would import):
/// `import treadle as wp` (or warp), constants, @wp.func and @wp.kernel definitions. Kernels
/// compile on first use, each on its own, through the shared disk cache.
class Module {
public:
    /// Reads and parses `path`; throws treadle::Error (Syntax) with the file and line.
    static Module load_file(const std::string& path, ModuleOptions options = {});
    /// Parses `source` as if it were the file `name`.
    static Module load_string(const std::string& source, const std::string& name = "<string>",
                              ModuleOptions options = {});

    /// The kernel `name`, compiled for `device` (cached per device after the first call).
    /// A generic kernel (annotations such as typing.Any, wp.Float, wp.array(dtype=Any)) only
    /// compiles as a specialisation: this throws treadle::Error (Type) for one; use the
    /// overloads below.
    Kernel kernel(const std::string& name, Device device = Device::cpu()) const;
    /// The specialisation of the generic kernel `name` for `arg_types`, one per parameter, each
    /// written as an annotation in the module's namespace ("wp.float64", "float",
    /// "wp.array(dtype=wp.vec3)"; "" for a parameter whose annotation is concrete), as
    /// Python's wp.overload(kernel, [types]). Compiled for `device` once per list of types.
    /// Throws treadle::Error (Type) when the kernel is not generic, the number of types is
    /// wrong, or a generic parameter's type is missing, generic or does not fit.
    Kernel kernel(const std::string& name, const std::vector<std::string>& arg_types,
                  Device device = Device::cpu()) const;
    /// The specialisation of the generic kernel `name` that launch arguments `args` call for,
    /// decided by the same rules as Python's launches: each generic parameter takes its
    /// argument's type (a C++ int32_t is int32, a double float64, an array its dtype and
    /// ndim). Components and struct bytes do not tell their type: give those with
    /// kernel(name, types). Throws treadle::Error (Type) as kernel(name, types) does.
    Kernel kernel_for(const std::string& name, const std::vector<KernelArg>& args,
                      Device device = Device::cpu()) const;
    /// The argument types of each @wp.overload declaration of kernel `name` in the file (in
    /// file order): lists that kernel(name, types) takes.
    std::vector<std::vector<std::string>> overloads(const std::string& name) const;
    /// Names of the module's @wp.kernel definitions, in file order.
    std::vector<std::string> kernel_names() const;

    struct Impl;

private:
    /// The build cached under `key`, compiled from `fn` for `device` on first use (the caller
    /// holds Impl::mutex).
    Kernel compiled(const std::string& key, std::shared_ptr<sema::FunctionSource> fn,
                    Device device) const;
    /// The build of kernel `fn` specialised to `types` (see sema/specialise.h).
    Kernel specialisation(const std::shared_ptr<sema::FunctionSource>& fn,
                          const std::vector<const types::Type*>& types, Device device) const;

    std::shared_ptr<Impl> m_impl;
};

/// Waits for all work queued on `device` (a no-op on the CPU). Errors of earlier asynchronous
/// kernels (an illegal address, say) are thrown here as treadle::Error.
void synchronize(Device device);

/// Sets the folder that holds the native headers (treadle/core.h ...) used to build kernels.
/// Optional: by default the library uses the headers it was built with, which it carries and
/// writes into the kernel cache, so an installed or moved package needs no source tree.
void set_native_dir(const std::string& dir);
/// Empties the kernel cache on disk and forgets loaded kernels.
void clear_kernel_cache();

}  // namespace treadle
