// src/python/kernel_handle.h -- a compiled kernel as Python holds it: the build and its launch plan
#pragma once

#include <memory>

#include "compile/compile_kernel.h"
#include "runtime/launch_plan.h"

/// What _treadle.CompiledKernel wraps: a build and the runtime's launch plan for it (made once,
/// when the build is handed to Python).
struct KernelHandle {
    explicit KernelHandle(std::shared_ptr<const treadle::CompiledKernel> compiled)
        : k(std::move(compiled)), plan(std::make_shared<treadle::LaunchPlan>(k)) {}

    std::shared_ptr<const treadle::CompiledKernel> k;
    std::shared_ptr<const treadle::LaunchPlan> plan;
};
