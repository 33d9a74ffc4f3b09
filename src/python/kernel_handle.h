// src/python/kernel_handle.h -- a compiled kernel as Python holds it: the C++ API's Kernel
#pragma once

#include <memory>

#include "compile/compile_kernel.h"
#include "runtime/launch_plan.h"
#include "treadle/module.h"

/// What _treadle.CompiledKernel wraps: the C++ API's Kernel (one build, the runtime's launch
/// plan for it, and the source its backward build is compiled from on first use).
struct KernelHandle {
    explicit KernelHandle(treadle::Kernel kernel_)
        : kernel(std::move(kernel_)), k(kernel.compiled()), plan(kernel.plan()) {}

    treadle::Kernel kernel;
    std::shared_ptr<const treadle::CompiledKernel> k;  ///< kernel.compiled()
    std::shared_ptr<const treadle::LaunchPlan> plan;   ///< kernel.plan()
};
