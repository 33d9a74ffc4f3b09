// src/passes/array_access.h -- which array parameters a kernel reads and which it writes
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace treadle::passes {

/// Bits of ArrayAccess.
enum : uint8_t {
    k_access_read = 1,   ///< elements are loaded (directly or through a view)
    k_access_write = 2,  ///< elements are stored or updated atomically (in-place updates too)
    /// a store or atomic update comes after a load of the same array, in the order of the
    /// source (a backward pass would replay the load with the overwritten values)
    k_access_write_after_read = 4,
};

/// For each parameter of `fn` (in order), the k_access_* bits of its array (0 for
/// non-arrays), following arrays into the user functions it calls. The tape uses this to find
/// arrays overwritten after a recorded launch read them.
std::vector<uint8_t> array_param_access(const ir::Function& fn);

/// For each parameter of `fn`, the k_access_* bits of the array fields of its struct (paths
/// such as "a" or "inner.b", relative to the parameter) that the kernel loads, stores or
/// updates, following the struct into the user functions it calls. Fields never accessed are
/// absent: an unset (None) array field that the kernel never touches is fine.
std::vector<std::map<std::string, uint8_t>> struct_field_access(const ir::Function& fn);

}  // namespace treadle::passes
