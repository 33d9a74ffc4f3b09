// src/api/launch_args.h -- packs the KernelArgs of a C++ API launch (forward or backward)
#pragma once

#include <cstdint>
#include <vector>

#include "compile/compile_kernel.h"
#include "runtime/launch.h"
#include "treadle/array.h"
#include "treadle/module.h"

namespace treadle {

/// One launch, packed: the grid (with its flags), the parameter block and the arrays the
/// kernel may write. `written` points at the caller's arrays, so it is used before they go.
struct PackedLaunch {
    LaunchBounds bounds;
    std::vector<uint8_t> block;         ///< the whole parameter struct, tail padding included
    std::vector<const Array*> written;  ///< forward launches only
};

/// Checks and packs `args` for `k`. With `adj_args` (a backward launch; empty: every array's own
/// grad()), array arguments carry their adjoints (with_adjoint) and the bounds get
/// k_launch_aliased_arrays when two arrays or gradients share memory. Throws treadle::Error
/// naming the kernel and the argument.
PackedLaunch pack_launch(const CompiledKernel& k, const std::vector<int64_t>& dim,
                         const std::vector<KernelArg>& args, const std::vector<Array>* adj_args);

}  // namespace treadle
