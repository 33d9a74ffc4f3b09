// src/api/internal_module.h -- treadle's own kernel modules (sorts, BVH builds and refits,
// array fills), written in the kernel language and compiled once per device on first use
#pragma once

#include <string>

#include "treadle/device.h"
#include "treadle/module.h"

namespace treadle {

/// Kernel `kernel` of the module whose text is `source` (named `name` in errors and the
/// cache), built for `device`; the module is parsed once per process and device.
Kernel internal_kernel(const char* name, const char* source, const std::string& kernel,
                       Device device);

}  // namespace treadle
