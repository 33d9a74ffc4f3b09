// src/api/launch_args.h -- the C++ API's launch arguments (KernelArg) as an argument source
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/launch_plan.h"
#include "treadle/array.h"
#include "treadle/module.h"

namespace treadle {

/// One launch, packed: the grid (with its flags), the parameter block and the arrays the
/// kernel may write. `written` points at the caller's arrays, so it is used before they go.
struct PackedLaunch {
    LaunchBounds bounds;
    std::vector<uint8_t> block;  ///< the whole parameter struct, tail padding included
    WriteNotes written;          ///< forward launches only
};

/// Checks and packs `args` for `plan` with the runtime's packer (pack_arguments). With
/// `adj_args` (a backward launch; empty: every array's own grad()), array arguments carry their
/// adjoints and the bounds get k_launch_aliased_arrays when two arrays or gradients share memory.
/// Throws treadle::Error naming the kernel and the argument.
PackedLaunch pack_launch(const LaunchPlan& plan, const std::vector<int64_t>& dim,
                         const std::vector<KernelArg>& args, const std::vector<Array>* adj_args);

}  // namespace treadle
