// src/api/kernel.cpp -- the C++ API's Kernel: typed forward and backward launches
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "api/kernel_source.h"
#include "api/launch_args.h"
#include "compile/compile_kernel.h"
#include "runtime/launch.h"
#include "treadle/error.h"
#include "treadle/module.h"
#include "treadle/stream.h"

namespace treadle {

namespace {

/// Packs `args` and runs `k`: forward when `adj_args` is null, else its backward entry. Forward
/// launches count a write on every array the kernel may write once all arguments are packed
/// (for the tape's overwrite check).
void pack_and_run(const LaunchPlan& plan, const std::vector<int64_t>& dim,
                  const std::vector<KernelArg>& args, const std::vector<Array>* adj_args,
                  const Stream& stream) {
    const CompiledKernel& k = plan.kernel();
    if (!stream.is_null() && stream.device() != k.device)
        throw Error(ErrorKind::Value, k.name + "(): launched on a stream of " +
                                          stream.device().alias() + " but compiled for " +
                                          k.device.alias());
    PackedLaunch packed = pack_launch(plan, dim, args, adj_args);
    packed.written.commit(k.label);
    run(k, packed.bounds, packed.block.data(), stream.handle(), adj_args != nullptr);
}

/// The plan of the build of `compiled` with its backward pass (`plan` when `compiled` is one),
/// compiled from `source` on first use.
std::shared_ptr<const LaunchPlan> adjoint_build(const std::shared_ptr<const LaunchPlan>& plan,
                                                Kernel::Source* source) {
    const std::shared_ptr<const CompiledKernel>& compiled = plan->compiled();
    if (compiled->adjoint) return plan;
    if (!source)
        throw Error(ErrorKind::Value, compiled->name +
                                          "(): this kernel has no source to build "
                                          "its backward pass from (get it from "
                                          "Module::kernel)");
    std::lock_guard<std::mutex> lock(source->mutex);
    if (!source->adjoint) {
        CompileOptions options = source->options;
        options.adjoint = true;
        source->adjoint = std::make_shared<LaunchPlan>(compile_kernel(*source->function, options));
    }
    return source->adjoint;
}

}  // namespace

Kernel::Kernel(std::shared_ptr<const CompiledKernel> compiled, std::shared_ptr<Source> source)
    : m_compiled(std::move(compiled)), m_source(std::move(source)) {
    if (m_compiled) m_plan = std::make_shared<LaunchPlan>(m_compiled);
}

const std::string& Kernel::name() const {
    static const std::string empty;
    return m_compiled ? m_compiled->name : empty;
}

Kernel Kernel::with_adjoint() const {
    if (!m_compiled) throw Error(ErrorKind::Value, "Kernel::with_adjoint(): the kernel is empty");
    Kernel out = *this;
    out.m_plan = adjoint_build(m_plan, m_source.get());
    out.m_compiled = out.m_plan->compiled();
    return out;
}

bool Kernel::has_adjoint_build() const {
    if (m_compiled && m_compiled->adjoint) return true;
    if (!m_source) return false;
    std::lock_guard<std::mutex> lock(m_source->mutex);
    return m_source->adjoint != nullptr;
}

void Kernel::launch(const std::vector<int64_t>& dim, const std::vector<KernelArg>& args) const {
    launch(dim, args, Stream());
}

void Kernel::launch(const std::vector<int64_t>& dim, const std::vector<KernelArg>& args,
                    const Stream& stream) const {
    if (!m_compiled) throw Error(ErrorKind::Value, "Kernel::launch(): the kernel is empty");
    pack_and_run(*m_plan, dim, args, nullptr, stream);
}

void Kernel::launch_adjoint(const std::vector<int64_t>& dim, const std::vector<KernelArg>& args,
                            const std::vector<Array>& adj_args) const {
    launch_adjoint(dim, args, adj_args, Stream());
}

void Kernel::launch_adjoint(const std::vector<int64_t>& dim, const std::vector<KernelArg>& args,
                            const std::vector<Array>& adj_args, const Stream& stream) const {
    if (!m_compiled) throw Error(ErrorKind::Value, "Kernel::launch_adjoint(): the kernel is empty");
    std::shared_ptr<const LaunchPlan> build = adjoint_build(m_plan, m_source.get());
    pack_and_run(*build, dim, args, &adj_args, stream);
}

}  // namespace treadle
