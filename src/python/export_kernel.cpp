// src/python/export_kernel.cpp -- kernel compilation for the Python front end
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <vector>

#include "api/kernel_source.h"
#include "compile/compile_kernel.h"
#include "compile/kernel_cache.h"
#include "compile/nvrtc.h"
#include "exports.h"
#include "kernel_handle.h"
#include "sema/builtins.h"

namespace {

using treadle::CompiledKernel;
using treadle::sema::GlobalValue;

/// Resolver backed by two Python callables of the front end (treadle/resolver.py):
/// lookup(name) and lookup_attribute(module_handle, name), each returning a descriptor tuple.
class PyResolver : public treadle::sema::Resolver {
public:
    PyResolver(nb::object lookup, nb::object lookup_attr)
        : m_lookup(std::move(lookup)), m_lookup_attr(std::move(lookup_attr)) {}

    GlobalValue lookup(const std::string& name) override { return convert(m_lookup(name)); }
    /// Python's lookup answers "@annotation:<param>" with the evaluated annotation.
    GlobalValue annotation(const std::string& param) override {
        return convert(m_lookup("@annotation:" + param));
    }
    GlobalValue lookup_attribute(const std::string& module, const std::string& attr) override {
        return convert(m_lookup_attr(module, attr));
    }

    static GlobalValue convert(nb::handle d) {
        GlobalValue g;
        if (d.is_none()) return g;
        nb::tuple t = nb::cast<nb::tuple>(d);
        std::string kind = nb::cast<std::string>(t[0]);
        if (kind == "module") {
            g.kind = GlobalValue::Kind::Module;
            g.module = nb::cast<std::string>(t[1]);
        } else if (kind == "const") {
            std::string spec = nb::cast<std::string>(t[1]);
            g.kind = GlobalValue::Kind::Constant;
            g.constant.weak = spec == "int" || spec == "float";
            const treadle::sema::Type* type = treadle::sema::type_from_spec(spec);
            if (type && type->is_value() && !type->is_scalar()) {
                g.constant.type = type;
                for (nb::handle c : nb::iter(t[2])) g.components.push_back(nb::cast<double>(c));
                if ((int)g.components.size() != type->components())
                    g.kind = GlobalValue::Kind::Unsupported, g.what = "constant of type " + spec;
                return g;
            }
            if (!type || !type->is_scalar()) {
                g.kind = GlobalValue::Kind::Unsupported;
                g.what = "constant of type " + spec;
                return g;
            }
            g.constant.type = type;
            if (type->is_float())
                g.constant.f = nb::cast<double>(t[2]);
            else if (type->scalar == treadle::ScalarType::UInt64)
                g.constant.i = (int64_t)nb::cast<uint64_t>(t[2]);
            else
                g.constant.i = nb::cast<int64_t>(t[2]);
            if (spec == "int" && (g.constant.i > INT32_MAX || g.constant.i < INT32_MIN))
                g.constant.type = treadle::sema::int64_type();
        } else if (kind == "type") {
            g.kind = GlobalValue::Kind::Type;
            g.type = treadle::sema::type_from_spec(nb::cast<std::string>(t[1]));
            if (!g.type) {
                g.kind = GlobalValue::Kind::Unsupported;
                g.what = "type " + nb::cast<std::string>(t[1]);
            }
        } else if (kind == "builtin") {
            g.kind = GlobalValue::Kind::Builtin;
            g.what = nb::cast<std::string>(t[1]);
        } else if (kind == "func") {
            g.kind = GlobalValue::Kind::Function;
            g.function = make_function(t);
        } else if (kind == "error") {
            g.kind = GlobalValue::Kind::Error;
            g.what = nb::cast<std::string>(t[1]);
        } else {
            g.kind = GlobalValue::Kind::Unsupported;
            g.what = nb::cast<std::string>(t[1]);
        }
        return g;
    }

    /// ("func", key, name, source, file, first_line, is_kernel, lookup, lookup_attr[, extras])
    /// where extras is None or a dict with any of: "grad" and "replay" (the descriptors of
    /// the @wp.func_grad / @wp.func_replay functions), "overloads" (descriptors of every
    /// definition of an overloaded function), "arg_types" (type specs of a generic kernel's
    /// specialisation), "max_unroll" (int).
    static std::shared_ptr<treadle::sema::FunctionSource> make_function(nb::tuple t) {
        auto fn = std::make_shared<treadle::sema::FunctionSource>();
        fn->key = nb::cast<std::string>(t[1]);
        fn->name = nb::cast<std::string>(t[2]);
        fn->source = treadle::ast::make_source(nb::cast<std::string>(t[4]),
                                               nb::cast<std::string>(t[3]), nb::cast<int>(t[5]));
        fn->is_kernel = nb::cast<bool>(t[6]);
        fn->resolver = std::make_shared<PyResolver>(nb::borrow(t[7]), nb::borrow(t[8]));
        if (nb::len(t) <= 9 || t[9].is_none()) return fn;
        nb::dict extras = nb::cast<nb::dict>(t[9]);
        auto get = [&](const char* name) {
            return extras.contains(name) ? nb::object(extras[name]) : nb::none();
        };
        if (nb::object g = get("grad"); !g.is_none())
            fn->custom_grad = make_function(nb::cast<nb::tuple>(g));
        if (nb::object r = get("replay"); !r.is_none())
            fn->custom_replay = make_function(nb::cast<nb::tuple>(r));
        if (nb::object o = get("overloads"); !o.is_none())
            for (nb::handle d : nb::iter(o))
                fn->overloads.push_back(make_function(nb::cast<nb::tuple>(d)));
        if (nb::object a = get("arg_types"); !a.is_none()) {
            for (nb::handle spec : nb::iter(a)) {
                std::string s = nb::cast<std::string>(spec);
                const treadle::sema::Type* type = treadle::sema::type_from_spec(s);
                if (!type || type->is_generic())
                    throw treadle::Error(treadle::ErrorKind::Type,
                                         fn->name + "(): cannot specialise for type '" + s + "'");
                fn->param_types.push_back(type);
            }
        }
        if (nb::object m = get("max_unroll"); !m.is_none()) fn->max_unroll = nb::cast<int>(m);
        return fn;
    }

private:
    nb::object m_lookup;
    nb::object m_lookup_attr;
};

/// The Kernel of a Python build: its backward build, when asked for, compiles from the same
/// function with the same mode and device (never with verify_fp, as Python's backward passes
/// always were).
KernelHandle python_kernel(std::shared_ptr<const CompiledKernel> compiled,
                           std::shared_ptr<treadle::sema::FunctionSource> fn,
                           const treadle::CompileOptions& options) {
    auto source = std::make_shared<treadle::Kernel::Source>();
    source->function = std::move(fn);
    source->options = options;
    source->options.verify_fp = false;
    return KernelHandle(treadle::Kernel(std::move(compiled), std::move(source)));
}

KernelHandle compile(nb::tuple descriptor, const std::string& mode, const std::string& device,
                     bool adjoint, bool verify_fp) {
    auto fn = PyResolver::make_function(descriptor);
    treadle::CompileOptions options;
    options.mode = mode;
    options.device = treadle::Device::parse(device);
    options.adjoint = adjoint;
    options.verify_fp = verify_fp;
    return python_kernel(treadle::compile_kernel(*fn, options), fn, options);
}

/// Compiles several kernels, each given as (descriptor, mode, device, adjoint, verify_fp): their
/// front ends run here in order (they call back into Python), then their builds run in
/// parallel on the runtime's build pool with the GIL released.
std::vector<KernelHandle> compile_many(nb::handle requests) {
    std::vector<std::shared_ptr<treadle::sema::FunctionSource>> functions;
    std::vector<treadle::CompileOptions> all_options;
    std::vector<treadle::PreparedKernel> prepared;
    for (nb::handle r : requests) {
        nb::tuple t = nb::cast<nb::tuple>(r);
        functions.push_back(PyResolver::make_function(nb::cast<nb::tuple>(t[0])));
        treadle::CompileOptions options;
        options.mode = nb::cast<std::string>(t[1]);
        options.device = treadle::Device::parse(nb::cast<std::string>(t[2]));
        options.adjoint = nb::cast<bool>(t[3]);
        options.verify_fp = nb::cast<bool>(t[4]);
        prepared.push_back(treadle::prepare_kernel(*functions.back(), options));
        all_options.push_back(options);
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

/// Generates a kernel's CUDA source and compiles it with NVRTC for `arch` without a GPU:
/// returns (ok, log). For the compile-only check of every test kernel.
std::pair<bool, std::string> check_cuda_compile(nb::tuple descriptor, int arch, bool adjoint,
                                                bool verify_fp) {
    auto fn = PyResolver::make_function(descriptor);
    std::string source = treadle::generate_kernel_source(*fn, true, adjoint, verify_fp);
    treadle::nvrtc::Result r =
        treadle::nvrtc::compile(source, fn->source->path, arch, {treadle::native_dir()}, {});
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
                             out.emplace_back(p.name, treadle::sema::type_spec(p.type));
                         return out;
                     })
        .def_prop_ro(
            "param_access",
            [](const KernelHandle& h) {
                std::vector<int> out;
                for (const auto& p : h.k->params) out.push_back(p.access);
                return out;
            },
            "Per parameter: bit 1 the array is read, bit 2 it is written (0 for non-arrays).")
        .def_prop_ro("adjoint", [](const KernelHandle& h) { return h.k->adjoint; })
        .def(
            "with_adjoint",
            [](const KernelHandle& h) { return KernelHandle(h.kernel.with_adjoint()); },
            "The build with the backward pass (this one, or one compiled from the same function "
            "on first use and kept with it).");
    m.def("check_cuda_compile", &check_cuda_compile, nb::arg("descriptor"), nb::arg("arch"),
          nb::arg("adjoint") = false, nb::arg("verify_fp") = false);
    m.def(
        "struct_layout",
        [](const std::string& spec) {
            const treadle::sema::Type* t = treadle::sema::type_from_spec(spec);
            if (!t || !t->is_struct())
                throw treadle::Error(treadle::ErrorKind::Type,
                                     "invalid struct spec '" + spec + "'");
            std::vector<std::pair<std::string, size_t>> fields;
            for (const auto& f : t->fields) fields.emplace_back(f.name, f.offset);
            return nb::make_tuple(reinterpret_cast<uintptr_t>(t), t->size, t->align, fields,
                                  treadle::sema::type_spec(t));
        },
        nb::arg("spec"),
        "(type id, size, alignment, [(field, offset)], canonical spec) of a struct spec: the C "
        "layout kernels use, and the id launches compare struct arguments against.");
    m.def("nvrtc_available", &treadle::nvrtc::is_available);
    m.def(
        "kernel_source",
        [](nb::tuple descriptor, bool cuda, bool adjoint) {
            return treadle::generate_kernel_source(*PyResolver::make_function(descriptor), cuda,
                                                   adjoint);
        },
        nb::arg("descriptor"), nb::arg("cuda") = false, nb::arg("adjoint") = false,
        "The generated CUDA or CPU source of a kernel (no GPU needed).");
    m.def("compile_kernels", &compile_many, nb::arg("requests"),
          "Compiles (descriptor, mode, device, adjoint, verify_fp) requests: front ends in order, "
          "builds in parallel on the build pool. Returns the CompiledKernels in order.");
    m.def("compile_kernel", &compile, nb::arg("descriptor"), nb::arg("mode"),
          nb::arg("device") = "cpu", nb::arg("adjoint") = false, nb::arg("verify_fp") = false,
          "Compiles a kernel described by a ('func', key, name, source, file, line, True, "
          "lookup, lookup_attr) tuple.");
    m.def("set_native_dir", &treadle::set_native_dir, nb::arg("path"));
    m.def("clear_kernel_cache", &treadle::clear_kernel_cache);
    m.def("kernel_cache_dir", []() { return treadle::kernel_cache().root(); });
    m.def("set_kernel_cache_dir",
          [](const std::string& d) { treadle::kernel_cache().set_root(d); });
}
