// src/python/export_kernel.cpp -- kernel compilation for the Python front end
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <vector>

#include "api/kernel_source.h"
#include "compile/compile_kernel.h"
#include "compile/kernel_cache.h"
#include "compile/nvrtc.h"
#include "exports.h"
#include "kernel_handle.h"
#include "sema/resolver.h"

namespace {

using treadle::CompiledKernel;
using treadle::sema::FunctionSource;

/// The Kernel of a Python build: its backward build, when asked for, compiles from the same
/// function with the same mode and device (never with verify_fp, as Python's backward passes
/// always were).
KernelHandle python_kernel(std::shared_ptr<const CompiledKernel> compiled,
                           std::shared_ptr<FunctionSource> fn,
                           const treadle::CompileOptions& options) {
    auto source = std::make_shared<treadle::Kernel::Source>();
    source->function = std::move(fn);
    source->options = options;
    source->options.verify_fp = false;
    return KernelHandle(treadle::Kernel(std::move(compiled), std::move(source)));
}

treadle::CompileOptions compile_options(const std::string& mode, const std::string& device,
                                        bool adjoint, bool verify_fp) {
    treadle::CompileOptions options;
    options.mode = mode;
    options.device = treadle::Device::parse(device);
    options.adjoint = adjoint;
    options.verify_fp = verify_fp;
    return options;
}

KernelHandle compile(std::shared_ptr<FunctionSource> fn, const std::string& mode,
                     const std::string& device, bool adjoint, bool verify_fp) {
    treadle::CompileOptions options = compile_options(mode, device, adjoint, verify_fp);
    return compiling(
        [&] { return python_kernel(treadle::compile_kernel(*fn, options), fn, options); });
}

/// compile_many without the error translation: the front ends in order, then the builds in
/// parallel on the runtime's build pool with the GIL released.
std::vector<KernelHandle> compile_all(nb::handle requests) {
    std::vector<std::shared_ptr<FunctionSource>> functions;
    std::vector<treadle::CompileOptions> all_options;
    std::vector<treadle::PreparedKernel> prepared;
    for (nb::handle r : requests) {
        nb::tuple t = nb::cast<nb::tuple>(r);
        functions.push_back(nb::cast<std::shared_ptr<FunctionSource>>(t[0]));
        all_options.push_back(compile_options(nb::cast<std::string>(t[1]),
                                              nb::cast<std::string>(t[2]), nb::cast<bool>(t[3]),
                                              nb::cast<bool>(t[4])));
        prepared.push_back(treadle::prepare_kernel(*functions.back(), all_options.back()));
    }
    std::vector<std::shared_ptr<const CompiledKernel>> built;
    {
        nb::gil_scoped_release release;
        built = treadle::finish_kernels(prepared);
    }
    std::vector<KernelHandle> out;
    for (size_t i = 0; i < built.size(); ++i)
        out.push_back(python_kernel(std::move(built[i]), functions[i], all_options[i]));
    return out;
}

/// Compiles several kernels, each given as (function, mode, device, adjoint, verify_fp): their
/// front ends run here in order, then their builds run in parallel on the runtime's build pool
/// with the GIL released. A treadle::Error is raised as the compiler's (with the GIL held).
std::vector<KernelHandle> compile_many(nb::handle requests) {
    return compiling([&] { return compile_all(requests); });
}

/// Generates a kernel's CUDA source and compiles it with NVRTC for `arch` without a GPU:
/// returns (ok, log). For the compile-only check of every test kernel.
std::pair<bool, std::string> check_cuda_compile(const FunctionSource& fn, int arch, bool adjoint,
                                                bool verify_fp) {
    std::string source =
        compiling([&] { return treadle::generate_kernel_source(fn, true, adjoint, verify_fp); });
    treadle::nvrtc::Result r =
        treadle::nvrtc::compile(source, fn.source->path, arch, {treadle::native_dir()}, {});
    return {r.ok, r.log};
}

}  // namespace

void export_kernel(nb::module_& m) {
    nb::class_<KernelHandle>(m, "CompiledKernel")
        .def_prop_ro("name", [](const KernelHandle& h) { return h.k->name; })
        .def_prop_ro("key", [](const KernelHandle& h) { return h.k->key; })
        .def_prop_ro("source", [](const KernelHandle& h) { return h.k->source; })
        .def_prop_ro("from_cache", [](const KernelHandle& h) { return h.k->from_cache; })
        .def_prop_ro("compile_seconds", [](const KernelHandle& h) { return h.k->compile_seconds; })
        .def_prop_ro("tid_arity", [](const KernelHandle& h) { return h.k->tid_arity; })
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
                    out.push_back((p.reads ? 1 : 0) | (p.writes ? 2 : 0));
                return out;
            },
            "Per parameter: bit 1 the array is read, bit 2 it is written (0 for non-arrays).")
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
          nb::arg("adjoint") = false, nb::arg("verify_fp") = false);
    m.def("nvrtc_available", &treadle::nvrtc::is_available);
    m.def(
        "kernel_source",
        [](const FunctionSource& fn, bool cuda, bool adjoint) {
            return compiling([&] { return treadle::generate_kernel_source(fn, cuda, adjoint); });
        },
        nb::arg("function"), nb::arg("cuda") = false, nb::arg("adjoint") = false,
        "The generated CUDA or CPU source of a kernel (no GPU needed).");
    m.def("compile_kernels", &compile_many, nb::arg("requests"),
          "Compiles (function, mode, device, adjoint, verify_fp) requests: front ends in order, "
          "builds in parallel on the build pool. Returns the CompiledKernels in order.");
    m.def("compile_kernel", &compile, nb::arg("function"), nb::arg("mode"),
          nb::arg("device") = "cpu", nb::arg("adjoint") = false, nb::arg("verify_fp") = false,
          "Compiles a kernel given as a FunctionSource.");
    m.def("set_native_dir", &treadle::set_native_dir, nb::arg("path"));
    m.def("clear_kernel_cache", &treadle::clear_kernel_cache);
    m.def("kernel_cache_dir", []() { return treadle::kernel_cache().root(); });
    m.def("set_kernel_cache_dir",
          [](const std::string& d) { treadle::kernel_cache().set_root(d); });
}
