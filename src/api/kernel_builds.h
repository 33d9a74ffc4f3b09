// src/api/kernel_builds.h -- the builds of one kernel definition, one per device and options
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "compile/compile_kernel.h"
#include "treadle/module.h"

namespace treadle {

class ModuleResolver;

/// What a build of a kernel depends on besides its source and device: the options a front end
/// resolved (Python's module options and wp.config, or the C++ ModuleOptions).
struct BuildOptions {
    std::string mode = "release";  ///< "release" | "checked" | "debug"
    int max_unroll = 16;           ///< see ModuleOptions::max_unroll
    bool verify_fp = false;        ///< NaN/Inf checks at every float store
    /// CUDA builds: the kernel's @wp.kernel(launch_bounds=) (none by default); CPU ignores it.
    codegen::CudaLaunchBounds launch_bounds;
    /// The compiler's optimisation level 0-3 (-1: treadle's default, -O2 on the CPU and
    /// NVRTC's own on CUDA); debug builds are unoptimised whatever it says.
    int optimization_level = -1;
    /// CPU builds: extra host compiler flags, split at spaces (Warp's cpu_compiler_flags).
    std::string cpu_compiler_flags;
    /// Warp's DeterministicMode (0 off, 1 run to run, 2 GPU to GPU) and the record slots per
    /// launch index it gives at least (see CompileOptions::deterministic).
    int deterministic = 0;
    int deterministic_max_records = 0;
    /// CUDA builds: the block size the kernel's tiles are built for (0: 256, the launch
    /// default). A kernel that uses tiles runs only with that block_dim; others ignore it.
    /// CPU builds ignore it (a CPU block is one thread).
    int block_dim = 0;

    bool operator<(const BuildOptions& o) const {
        return std::tie(mode, max_unroll, verify_fp, launch_bounds, optimization_level,
                        cpu_compiler_flags, deterministic, deterministic_max_records, block_dim) <
               std::tie(o.mode, o.max_unroll, o.verify_fp, o.launch_bounds, o.optimization_level,
                        o.cpu_compiler_flags, o.deterministic, o.deterministic_max_records,
                        o.block_dim);
    }
};

/// Every build of one kernel definition (a @wp.kernel, or a kernel of a module file, or one
/// specialisation of a generic kernel): at most one Kernel per device and BuildOptions, each
/// made on first use and kept until clear(). The one build cache of both front ends: the C++
/// Module keeps one per kernel, Python's wp.Kernel holds one. Safe to use from several threads.
class KernelBuilds {
public:
    /// A build whose front end has run (prepare()) and whose compile has not (finish()).
    struct Pending {
        KernelBuilds* owner = nullptr;  ///< must outlive finish()
        std::string device;             ///< the device's alias
        BuildOptions options;
        std::shared_ptr<Kernel::Source> source;
        PreparedKernel prepared;
    };

    /// The build for `device` and `options` when it exists, else nothing; never compiles.
    std::optional<Kernel> find(Device device, const BuildOptions& options) const;
    /// The build for `device` and `options`: found, or compiled from `function` (with
    /// `options.max_unroll`) and kept. `resolver` is kept alive with the build when the
    /// function's resolver points into it (module files). Throws treadle::Error.
    Kernel get(const sema::FunctionSource& function, Device device, const BuildOptions& options,
               std::shared_ptr<ModuleResolver> resolver = nullptr);
    /// The front end of the build get() would make (the only step that calls the function's
    /// resolvers), or nothing when that build exists already.
    std::optional<Pending> prepare(const sema::FunctionSource& function, Device device,
                                   const BuildOptions& options,
                                   std::shared_ptr<ModuleResolver> resolver = nullptr);
    /// Compiles prepared builds in parallel on the runtime's build pool, then keeps each with
    /// its owner (a build another thread made meanwhile wins). Returns them in order.
    static std::vector<Kernel> finish(std::vector<Pending>& pending);
    /// Forgets every build (a front end's option or source change makes them stale).
    void clear();
    /// How many builds are kept.
    size_t size() const;
    /// Every kept build, in (device, options) order.
    std::vector<Kernel> all() const;

private:
    using Key = std::pair<std::string, BuildOptions>;
    Kernel keep(const Key& key, Kernel kernel);

    mutable std::mutex m_mutex;  ///< guards m_builds
    std::map<Key, Kernel> m_builds;
};

}  // namespace treadle
