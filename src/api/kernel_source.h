// src/api/kernel_source.h -- what a Kernel keeps so it can build its backward pass on first use
#pragma once

#include <memory>
#include <mutex>

#include "api/module_resolver.h"
#include "compile/compile_kernel.h"
#include "runtime/launch_plan.h"
#include "treadle/module.h"

namespace treadle {

/// Shared by every copy of one Kernel (one kernel of one Module on one device), so its backward
/// build is compiled once.
struct Kernel::Source {
    /// The module's names; the function points back at it without owning it.
    std::shared_ptr<ModuleResolver> resolver;
    std::shared_ptr<sema::FunctionSource> function;
    CompileOptions options;  ///< of the forward build; the backward build adds adjoint = true
    std::mutex mutex;        ///< guards `adjoint`
    std::shared_ptr<const LaunchPlan> adjoint;  ///< null until the first backward launch
};

}  // namespace treadle
