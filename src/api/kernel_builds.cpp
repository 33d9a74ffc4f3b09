// src/api/kernel_builds.cpp -- the one build cache of a kernel definition (both front ends)
#include "api/kernel_builds.h"

#include <utility>

#include "api/kernel_source.h"

namespace treadle {

namespace {

/// What a Kernel keeps to build its backward pass later: the function as built (with the
/// options' max_unroll), the forward build's options and the resolver the function reads.
/// Backward builds never check floats (verify_fp applies to forward launches).
std::shared_ptr<Kernel::Source> make_source(const sema::FunctionSource& function, Device device,
                                            const BuildOptions& options,
                                            std::shared_ptr<ModuleResolver> resolver) {
    auto source = std::make_shared<Kernel::Source>();
    source->resolver = std::move(resolver);
    source->function = std::make_shared<sema::FunctionSource>(function);
    source->function->max_unroll = options.max_unroll;
    source->function->debug = options.mode == "debug";
    source->function->tile_block_dim =
        device.is_cuda() ? (options.block_dim > 0 ? options.block_dim : 256) : 1;
    source->options.mode = options.mode;
    source->options.device = device;
    source->options.verify_fp = false;
    source->options.launch_bounds = options.launch_bounds;
    source->options.optimization_level = options.optimization_level;
    source->options.cpu_compiler_flags = options.cpu_compiler_flags;
    source->options.deterministic = options.deterministic;
    source->options.deterministic_max_records = options.deterministic_max_records;
    return source;
}

CompileOptions forward_options(const Kernel::Source& source, const BuildOptions& options) {
    CompileOptions out = source.options;
    out.verify_fp = options.verify_fp;
    return out;
}

}  // namespace

std::optional<Kernel> KernelBuilds::find(Device device, const BuildOptions& options) const {
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_builds.find(Key(device.alias(), options));
    if (it == m_builds.end()) return std::nullopt;
    return it->second;
}

Kernel KernelBuilds::keep(const Key& key, Kernel kernel) {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_builds.emplace(key, std::move(kernel)).first->second;
}

Kernel KernelBuilds::get(const sema::FunctionSource& function, Device device,
                         const BuildOptions& options, std::shared_ptr<ModuleResolver> resolver) {
    if (std::optional<Kernel> found = find(device, options)) return *found;
    std::shared_ptr<Kernel::Source> source = make_source(function, device, options, resolver);
    std::shared_ptr<const CompiledKernel> built =
        compile_kernel(*source->function, forward_options(*source, options));
    return keep(Key(device.alias(), options), Kernel(std::move(built), std::move(source)));
}

std::optional<KernelBuilds::Pending> KernelBuilds::prepare(
    const sema::FunctionSource& function, Device device, const BuildOptions& options,
    std::shared_ptr<ModuleResolver> resolver) {
    if (find(device, options)) return std::nullopt;
    Pending p;
    p.owner = this;
    p.device = device.alias();
    p.options = options;
    p.source = make_source(function, device, options, std::move(resolver));
    p.prepared = prepare_kernel(*p.source->function, forward_options(*p.source, options));
    return p;
}

std::vector<Kernel> KernelBuilds::finish(std::vector<Pending>& pending) {
    std::vector<PreparedKernel> prepared;
    prepared.reserve(pending.size());
    for (Pending& p : pending) prepared.push_back(std::move(p.prepared));
    std::vector<std::shared_ptr<const CompiledKernel>> built = finish_kernels(prepared);
    std::vector<Kernel> out;
    out.reserve(built.size());
    for (size_t i = 0; i < built.size(); ++i) {
        Pending& p = pending[i];
        out.push_back(p.owner->keep(Key(p.device, p.options),
                                    Kernel(std::move(built[i]), std::move(p.source))));
    }
    return out;
}

void KernelBuilds::clear() {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_builds.clear();
}

size_t KernelBuilds::size() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_builds.size();
}

std::vector<Kernel> KernelBuilds::all() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    std::vector<Kernel> out;
    for (const auto& entry : m_builds) out.push_back(entry.second);
    return out;
}

}  // namespace treadle
