// src/api/module.cpp -- the C++ API's Module: loads a DSL file and compiles its kernels
#include "treadle/module.h"

#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <vector>

#include "api/kernel_builds.h"
#include "api/module_resolver.h"
#include "compile/compile_kernel.h"
#include "frontend/parser.h"
#include "runtime/cuda.h"
#include "runtime/launch.h"
#include "sema/specialise.h"

namespace treadle {

struct Module::Impl {
    ModuleOptions options;
    std::shared_ptr<ModuleResolver> resolver;
    std::mutex mutex;                            ///< guards `builds`
    std::map<std::string, KernelBuilds> builds;  ///< by kernel name (or name[types])

    BuildOptions build_options() const {
        BuildOptions b;
        b.mode = options.mode;
        b.max_unroll = options.max_unroll;
        b.deterministic = options.deterministic;
        b.deterministic_max_records = options.deterministic_max_records;
        return b;
    }
};

Module Module::load_string(const std::string& source, const std::string& name,
                           ModuleOptions options) {
    auto src = ast::make_source(name, source, 1);
    std::shared_ptr<const ast::Module> parsed = frontend::parse_module(src);
    Module m;
    m.m_impl = std::make_shared<Impl>();
    m.m_impl->options = std::move(options);
    m.m_impl->resolver = std::make_shared<ModuleResolver>(parsed);
    return m;
}

Module Module::load_file(const std::string& path, ModuleOptions options) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(ErrorKind::Value, "Module::load_file(): cannot open '" + path + "'");
    std::ostringstream text;
    text << in.rdbuf();
    return load_string(text.str(), path, std::move(options));
}

namespace {

/// The kernel `name` of the module, or an Error naming `who`.
std::shared_ptr<sema::FunctionSource> find_kernel(const ModuleResolver& resolver,
                                                  const std::string& name, const std::string& who) {
    auto fn = resolver.function(name);
    if (!fn || !fn->is_kernel)
        throw Error(ErrorKind::Value, who + ": the module has no kernel named '" + name + "'");
    return fn;
}

}  // namespace

Kernel Module::compiled(const std::string& key, std::shared_ptr<sema::FunctionSource> fn,
                        Device device) const {
    return m_impl->builds[key].get(*fn, device, m_impl->build_options(), m_impl->resolver);
}

Kernel Module::kernel(const std::string& name, Device device) const {
    std::lock_guard<std::mutex> lock(m_impl->mutex);
    auto found = m_impl->builds.find(name);
    if (found != m_impl->builds.end())
        if (std::optional<Kernel> k = found->second.find(device, m_impl->build_options()))
            return *k;
    auto fn = find_kernel(*m_impl->resolver, name, "Module::kernel()");
    sema::KernelParams params = sema::kernel_params(*fn);
    for (size_t i = 0; i < params.names.size(); ++i)
        if (params.generic(i))
            throw Error(ErrorKind::Type,
                        "Module::kernel(): kernel '" + name + "' is generic (parameter '" +
                            params.names[i] + "' is " + params.annotations[i]->name +
                            "); give its types with Module::kernel(name, types) or "
                            "Module::kernel_for(name, args)");
    return compiled(name, fn, device);
}

Kernel Module::specialisation(const std::shared_ptr<sema::FunctionSource>& fn,
                              const std::vector<const types::Type*>& types, Device device) const {
    std::string tag;
    for (const types::Type* t : types) tag += (tag.empty() ? "" : ",") + (t ? type_key(t) : "_");
    auto special = std::make_shared<sema::FunctionSource>(*fn);
    special->key = fn->key + "[" + tag + "]";
    special->param_types = types;
    return compiled(fn->name + "[" + tag + "]", special, device);
}

Kernel Module::kernel(const std::string& name, const std::vector<std::string>& arg_types,
                      Device device) const {
    std::lock_guard<std::mutex> lock(m_impl->mutex);
    auto fn = find_kernel(*m_impl->resolver, name, "Module::kernel()");
    std::vector<const types::Type*> given;
    for (const std::string& text : arg_types)
        given.push_back(text.empty() ? nullptr : sema::annotation_type(*fn, text));
    return specialisation(fn, sema::specialise_declared(*fn, given, "Module::kernel()"), device);
}

Kernel Module::kernel_for(const std::string& name, const std::vector<KernelArg>& args,
                          Device device) const {
    std::lock_guard<std::mutex> lock(m_impl->mutex);
    auto fn = find_kernel(*m_impl->resolver, name, "Module::kernel_for()");
    std::vector<builtins::ArgInfo> infos;
    for (const KernelArg& a : args) {
        builtins::ArgInfo info;
        switch (a.kind) {
            case KernelArg::Kind::Int:
            case KernelArg::Kind::Float:
                info.type = types::scalar_type(a.type);
                break;
            case KernelArg::Kind::Bool:
                info.type = types::bool_type();
                break;
            case KernelArg::Kind::Array:
                if (a.array && !a.array->is_null())
                    info.type = types::array_type(type_of_dtype(a.array->dtype()), a.array->ndim());
                break;
            case KernelArg::Kind::Components:
            case KernelArg::Kind::StructBytes:
                break;  // their type is not known: a generic parameter is then an error
        }
        infos.push_back(info);
    }
    return specialisation(fn, sema::specialise_for_arguments(*fn, infos), device);
}

std::vector<std::vector<std::string>> Module::overloads(const std::string& name) const {
    find_kernel(*m_impl->resolver, name, "Module::overloads()");
    return m_impl->resolver->declared_overloads(name);
}

void synchronize(Device device) {
    if (device.is_cuda()) cuda::synchronize(device.ordinal());
}

std::vector<std::string> Module::kernel_names() const { return m_impl->resolver->kernels(); }

}  // namespace treadle
