// src/passes/array_access.h -- which array parameters a kernel reads and which it writes
#pragma once

#include <cstdint>
#include <vector>

#include "ir/ir.h"

namespace treadle::passes {

/// Bits of ArrayAccess.
enum : uint8_t {
    k_access_read = 1,   ///< elements are loaded (directly or through a view)
    k_access_write = 2,  ///< elements are stored or updated atomically
};

/// For each kernel parameter (in order), the k_access_* bits of its array (0 for non-arrays).
/// An array passed to a user function counts as read and written (functions are not
/// analysed). The tape uses this to find arrays overwritten after a recorded launch read them.
std::vector<uint8_t> array_param_access(const ir::Function& kernel);

}  // namespace treadle::passes
