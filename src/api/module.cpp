// src/api/module.cpp -- the C++ API: Module (load a DSL file) and Kernel (typed launches)
#include "treadle/module.h"

#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <vector>

#include "api/module_resolver.h"
#include "compile/compile_kernel.h"
#include "frontend/parser.h"
#include "runtime/cuda.h"
#include "runtime/launch.h"
#include "treadle/stream.h"

namespace treadle {

struct Module::Impl {
    ModuleOptions options;
    std::shared_ptr<ModuleResolver> resolver;
    std::mutex mutex;
    std::map<std::string, Kernel> compiled;  ///< by name@device
};

Kernel::Kernel(std::shared_ptr<const CompiledKernel> compiled) : m_compiled(std::move(compiled)) {}

const std::string& Kernel::name() const {
    static const std::string empty;
    return m_compiled ? m_compiled->name : empty;
}

void Kernel::launch(const std::vector<int64_t>& dim, const std::vector<KernelArg>& args) const {
    launch(dim, args, Stream());
}

// ---- launches on a chosen CUDA stream --------------------------------------------------------

void Kernel::launch(const std::vector<int64_t>& dim, const std::vector<KernelArg>& args,
                    const Stream& stream) const {
    if (!m_compiled) throw Error(ErrorKind::Value, "Kernel::launch(): the kernel is empty");
    if (!stream.is_null() && stream.device() != m_compiled->device)
        throw Error(ErrorKind::Value, m_compiled->name + "(): launched on a stream of " +
                                          stream.device().alias() + " but compiled for " +
                                          m_compiled->device.alias());
    const CompiledKernel& k = *m_compiled;
    if (args.size() != k.params.size())
        throw Error(ErrorKind::Type, k.name + "(): takes " + std::to_string(k.params.size()) +
                                         " arguments but " + std::to_string(args.size()) +
                                         " were given");
    LaunchBounds bounds = make_bounds(k, dim);
    std::vector<uint8_t> block(k.params_size + 8, 0);
    for (size_t i = 0; i < args.size(); ++i) {
        const KernelArg& a = args[i];
        const KernelParam& p = k.params[i];
        switch (a.kind) {
            case KernelArg::Kind::Array: pack_array(block.data(), k, p, *a.array, k.device); break;
            case KernelArg::Kind::Components:
                if (p.type->is_scalar() || p.type->is_array() || p.type->is_struct())
                    throw Error(ErrorKind::Type, k.name + "(): argument '" + p.name + "' expects " +
                                                     p.type->name + ", got " +
                                                     std::to_string(a.components.size()) +
                                                     " components");
                pack_components(block.data(), k, p, a.components);
                break;
            case KernelArg::Kind::StructBytes:
                pack_struct_bytes(block.data(), k, p, a.bytes.data(), a.bytes.size());
                break;
            case KernelArg::Kind::Bool: pack_int(block.data(), k, p, a.i, true); break;
            case KernelArg::Kind::Int: pack_int(block.data(), k, p, a.i, false); break;
            case KernelArg::Kind::Float:
                // A float32 argument to a float64 parameter keeps its float32 value.
                pack_float(block.data(), k, p, a.f);
                break;
        }
    }
    run(k, bounds, block.data(), stream.handle());
}

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
        throw Error(ErrorKind::Value, "Module::kernel(): the module has no kernel named '" + name + "'");
    CompileOptions options;
    options.mode = m_impl->options.mode;
    options.device = device;
    Kernel k(compile_kernel(*fn, options));
    m_impl->compiled.emplace(key, k);
    return k;
}

void synchronize(Device device) {
    if (device.is_cuda()) cuda::synchronize(device.ordinal());
}

std::vector<std::string> Module::kernel_names() const { return m_impl->resolver->kernels(); }

}  // namespace treadle
