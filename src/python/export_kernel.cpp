// src/python/export_kernel.cpp -- kernel compilation for the Python front end
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <vector>

#include "api/kernel_builds.h"
#include "compile/compile_kernel.h"
#include "compile/kernel_cache.h"
#include "compile/nvrtc.h"
#include "exports.h"
#include "kernel_handle.h"
#include "sema/resolver.h"

namespace {

using treadle::CompiledKernel;
using treadle::sema::FunctionSource;

using LaunchBoundsArg = std::optional<std::pair<int, int>>;

/// A kernel's launch_bounds from Python: None, or (max threads per block, min blocks; 0: not
/// given), which kernel.py has validated.
treadle::codegen::CudaLaunchBounds launch_bounds_of(const LaunchBoundsArg& bounds) {
    treadle::codegen::CudaLaunchBounds out;
    if (bounds) out.max_threads = bounds->first, out.min_blocks = bounds->second;
    return out;
}

treadle::BuildOptions build_options(const std::string& mode, int max_unroll, bool verify_fp,
                                    const LaunchBoundsArg& launch_bounds,
                                    int optimization_level = -1,
                                    const std::string& cpu_compiler_flags = "",
                                    int deterministic = 0, int deterministic_max_records = 0,
                                    int block_dim = 0) {
    treadle::BuildOptions options;
    options.block_dim = block_dim;
    options.mode = mode;
    options.max_unroll = max_unroll;
    options.verify_fp = verify_fp;
    options.launch_bounds = launch_bounds_of(launch_bounds);
    options.optimization_level = optimization_level;
    options.cpu_compiler_flags = cpu_compiler_flags;
    options.deterministic = deterministic;
    options.deterministic_max_records = deterministic_max_records;
    return options;
}

/// build_many without the error translation: the front ends in order, then the builds in
/// parallel on the runtime's build pool with the GIL released.
std::vector<KernelHandle> build_all(nb::handle requests) {
    std::vector<treadle::KernelBuilds::Pending> pending;
    std::vector<nb::object> owners;  // keeps every KernelBuilds alive until the builds are kept
    for (nb::handle r : requests) {
        nb::tuple t = nb::cast<nb::tuple>(r);
        auto& builds = nb::cast<treadle::KernelBuilds&>(t[0]);
        owners.push_back(nb::borrow(t[0]));
        std::optional<treadle::KernelBuilds::Pending> p = builds.prepare(
            nb::cast<const FunctionSource&>(t[1]),
            treadle::Device::parse(nb::cast<std::string>(t[2])),
            build_options(nb::cast<std::string>(t[3]), nb::cast<int>(t[4]), nb::cast<bool>(t[5]),
                          t.size() > 6 ? nb::cast<LaunchBoundsArg>(t[6]) : LaunchBoundsArg(),
                          t.size() > 7 ? nb::cast<int>(t[7]) : -1,
                          t.size() > 8 ? nb::cast<std::string>(t[8]) : std::string(),
                          t.size() > 9 ? nb::cast<int>(t[9]) : 0,
                          t.size() > 10 ? nb::cast<int>(t[10]) : 0,
                          t.size() > 11 ? nb::cast<int>(t[11]) : 0));
        if (p) pending.push_back(std::move(*p));
    }
    std::vector<treadle::Kernel> built;
    {
        nb::gil_scoped_release release;
        built = treadle::KernelBuilds::finish(pending);
    }
    std::vector<KernelHandle> out;
    for (treadle::Kernel& k : built) out.emplace_back(std::move(k));
    return out;
}

void export_builds(nb::module_& m) {
    nb::class_<treadle::KernelBuilds>(
        m, "KernelBuilds",
        "The builds of one kernel definition, one per device and (mode, max_unroll, "
        "verify_fp, launch_bounds, optimization_level, cpu_compiler_flags), each compiled (or "
        "loaded from the disk cache) on first use.")
        .def(nb::init<>())
        .def(
            "find",
            [](const treadle::KernelBuilds& b, const std::string& device, const std::string& mode,
               int max_unroll, bool verify_fp, const LaunchBoundsArg& launch_bounds,
               int optimization_level, const std::string& cpu_compiler_flags, int deterministic,
               int deterministic_max_records, int block_dim) -> std::optional<KernelHandle> {
                auto k = b.find(treadle::Device::parse(device),
                                build_options(mode, max_unroll, verify_fp, launch_bounds,
                                              optimization_level, cpu_compiler_flags, deterministic,
                                              deterministic_max_records, block_dim));
                if (!k) return std::nullopt;
                return KernelHandle(std::move(*k));
            },
            nb::arg("device"), nb::arg("mode"), nb::arg("max_unroll"), nb::arg("verify_fp"),
            nb::arg("launch_bounds").none() = nb::none(), nb::arg("optimization_level") = -1,
            nb::arg("cpu_compiler_flags") = "", nb::arg("deterministic") = 0,
            nb::arg("deterministic_max_records") = 0, nb::arg("block_dim") = 0,
            "The build for these options when it exists, else None; never compiles.")
        .def(
            "get",
            [](treadle::KernelBuilds& b, const FunctionSource& fn, const std::string& device,
               const std::string& mode, int max_unroll, bool verify_fp,
               const LaunchBoundsArg& launch_bounds, int optimization_level,
               const std::string& cpu_compiler_flags, int deterministic,
               int deterministic_max_records, int block_dim) {
                return compiling([&] {
                    return KernelHandle(
                        b.get(fn, treadle::Device::parse(device),
                              build_options(mode, max_unroll, verify_fp, launch_bounds,
                                            optimization_level, cpu_compiler_flags, deterministic,
                                            deterministic_max_records, block_dim)));
                });
            },
            nb::arg("function"), nb::arg("device"), nb::arg("mode"), nb::arg("max_unroll"),
            nb::arg("verify_fp"), nb::arg("launch_bounds").none() = nb::none(),
            nb::arg("optimization_level") = -1, nb::arg("cpu_compiler_flags") = "",
            nb::arg("deterministic") = 0, nb::arg("deterministic_max_records") = 0,
            nb::arg("block_dim") = 0,
            "The build for these options, compiled from `function` if new (block_dim: the "
            "block size a CUDA kernel that uses tiles is built for, 0 for 256).")
        .def("clear", &treadle::KernelBuilds::clear, "Forgets every build.")
        .def("__len__", &treadle::KernelBuilds::size)
        .def(
            "all",
            [](const treadle::KernelBuilds& b) {
                std::vector<KernelHandle> out;
                for (treadle::Kernel& k : b.all()) out.emplace_back(std::move(k));
                return out;
            },
            "Every kept build (CompiledKernels).");
    m.def(
        "build_kernels",
        [](nb::handle requests) { return compiling([&] { return build_all(requests); }); },
        nb::arg("requests"),
        "Builds (KernelBuilds, function, device, mode, max_unroll, verify_fp[, launch_bounds[, "
        "optimization_level, cpu_compiler_flags[, deterministic, deterministic_max_records]]]) "
        "requests that are not built yet: front ends "
        "in order, then the compiles in parallel on the build pool.");
}

/// Generates a kernel's CUDA source and compiles it with NVRTC for `arch` without a GPU:
/// returns (ok, log). For the compile-only check of every test kernel.
/// `fn` built for tiles of `block_dim` threads (0: as given).
FunctionSource with_block_dim(const FunctionSource& fn, int block_dim) {
    FunctionSource copy = fn;
    if (block_dim > 0) copy.tile_block_dim = block_dim;
    return copy;
}

std::pair<bool, std::string> check_cuda_compile(const FunctionSource& given, int arch, bool adjoint,
                                                bool verify_fp,
                                                const LaunchBoundsArg& launch_bounds,
                                                int deterministic, int block_dim) {
    const FunctionSource fn = with_block_dim(given, block_dim);
    std::string source = compiling([&] {
        return treadle::generate_kernel_source(fn, true, adjoint, verify_fp,
                                               launch_bounds_of(launch_bounds), deterministic);
    });
    const std::string path = fn.source->path;
    nb::gil_scoped_release release;  // NVRTC runs alone: callers compile on several threads
    treadle::nvrtc::Result r =
        treadle::nvrtc::compile(source, path, arch, {treadle::native_dir()}, {});
    return {r.ok, r.log};
}

}  // namespace

void export_kernel(nb::module_& m) {
    export_builds(m);
    nb::class_<KernelHandle>(m, "CompiledKernel")
        .def_prop_ro("name", [](const KernelHandle& h) { return h.k->name; })
        .def_prop_ro("key", [](const KernelHandle& h) { return h.k->key; })
        .def_prop_ro("source", [](const KernelHandle& h) { return h.k->source; })
        .def_prop_ro("from_cache", [](const KernelHandle& h) { return h.k->from_cache; })
        .def_prop_ro("compile_seconds", [](const KernelHandle& h) { return h.k->compile_seconds; })
        .def_prop_ro("tid_arity", [](const KernelHandle& h) { return h.k->tid_arity; })
        .def_prop_ro("tile_block_dim", [](const KernelHandle& h) { return h.k->tile_block_dim; })
        .def_prop_ro("device", [](const KernelHandle& h) { return h.k->device.alias(); })
        .def_prop_ro("params",
                     [](const KernelHandle& h) {
                         std::vector<std::pair<std::string, std::string>> out;
                         for (const auto& p : h.k->params)
                             out.emplace_back(p.name, treadle::types::type_key(p.type));
                         return out;
                     })
        .def_prop_ro(
            "param_access",
            [](const KernelHandle& h) {
                std::vector<int> out;
                for (const auto& p : h.k->params)
                    out.push_back((p.reads ? 1 : 0) | (p.writes ? 2 : 0) |
                                  (p.writes_after_reads ? 4 : 0));
                return out;
            },
            "Per parameter: bit 1 the array is read, bit 2 it is written, bit 4 it is written "
            "after it is read (0 for non-arrays).")
        .def_prop_ro("adjoint", [](const KernelHandle& h) { return h.k->adjoint; })
        .def_prop_ro(
            "adjoint_built", [](const KernelHandle& h) { return h.kernel.has_adjoint_build(); },
            "Whether the build with the backward pass exists (never compiles it).")
        .def(
            "with_adjoint",
            [](const KernelHandle& h) { return KernelHandle(h.kernel.with_adjoint()); },
            "The build with the backward pass (this one, or one compiled from the same function "
            "on first use and kept with it).");
    m.def("check_cuda_compile", &check_cuda_compile, nb::arg("function"), nb::arg("arch"),
          nb::arg("adjoint") = false, nb::arg("verify_fp") = false,
          nb::arg("launch_bounds").none() = nb::none(), nb::arg("deterministic") = 0,
          nb::arg("block_dim") = 0);
    m.def("nvrtc_available", &treadle::nvrtc::is_available);
    m.def("nvrtc_supported_archs", &treadle::nvrtc::supported_archs,
          "The architectures NVRTC compiles for (75 for sm_75, ...), ascending; [] without NVRTC.");
    m.def(
        "kernel_source",
        [](const FunctionSource& given, bool cuda, bool adjoint, const LaunchBoundsArg& bounds,
           bool verify_fp, int deterministic, int block_dim) {
            const FunctionSource fn = with_block_dim(given, block_dim);
            return compiling([&] {
                return treadle::generate_kernel_source(fn, cuda, adjoint, verify_fp,
                                                       launch_bounds_of(bounds), deterministic);
            });
        },
        nb::arg("function"), nb::arg("cuda") = false, nb::arg("adjoint") = false,
        nb::arg("launch_bounds").none() = nb::none(), nb::arg("verify_fp") = false,
        nb::arg("deterministic") = 0, nb::arg("block_dim") = 0,
        "The generated CUDA or CPU source of a kernel (no GPU needed); launch_bounds: None or "
        "(max threads per block, min blocks per multiprocessor or 0); verify_fp: with the "
        "checks of stored floating-point values; block_dim: the block size tiles are built for "
        "(0: the function's own, 1 unless a launch set it).");
    m.def("set_native_dir", &treadle::set_native_dir, nb::arg("path"));
    m.def("clear_kernel_cache", &treadle::clear_kernel_cache);
    m.def("kernel_cache_dir", []() { return treadle::kernel_cache().root(); });
    m.def("default_kernel_cache_dir", &treadle::default_cache_root,
          "The cache root used when none is set: $TREADLE_CACHE_DIR, else "
          "$XDG_CACHE_HOME/treadle, else ~/.cache/treadle.");
    m.def("set_kernel_cache_dir",
          [](const std::string& d) { treadle::kernel_cache().set_root(d); });
}
