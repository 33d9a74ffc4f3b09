// src/api/module.cpp -- the C++ API's Module: loads a DSL file and compiles its kernels
#include "treadle/module.h"

#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <vector>

#include "api/kernel_source.h"
#include "api/module_resolver.h"
#include "compile/compile_kernel.h"
#include "frontend/parser.h"
#include "runtime/cuda.h"

namespace treadle {

struct Module::Impl {
    ModuleOptions options;
    std::shared_ptr<ModuleResolver> resolver;
    std::mutex mutex;
    std::map<std::string, Kernel> compiled;  ///< by name@device
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

Kernel Module::kernel(const std::string& name, Device device) const {
    std::lock_guard<std::mutex> lock(m_impl->mutex);
    std::string key = name + "@" + device.alias();
    auto it = m_impl->compiled.find(key);
    if (it != m_impl->compiled.end()) return it->second;
    auto fn = m_impl->resolver->function(name);
    if (!fn || !fn->is_kernel)
        throw Error(ErrorKind::Value,
                    "Module::kernel(): the module has no kernel named '" + name + "'");
    auto source = std::make_shared<Kernel::Source>();
    source->resolver = m_impl->resolver;
    source->function = fn;
    source->options.mode = m_impl->options.mode;
    source->options.device = device;
    std::shared_ptr<const CompiledKernel> compiled = compile_kernel(*fn, source->options);
    Kernel k(std::move(compiled), std::move(source));
    m_impl->compiled.emplace(key, k);
    return k;
}

void synchronize(Device device) {
    if (device.is_cuda()) cuda::synchronize(device.ordinal());
}

std::vector<std::string> Module::kernel_names() const { return m_impl->resolver->kernels(); }

}  // namespace treadle
