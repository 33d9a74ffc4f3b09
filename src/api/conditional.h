// src/api/conditional.h -- the kernel that sets conditional graph nodes (wp.capture_if/while)
#pragma once

#include <string>

#include "runtime/cuda.h"

namespace treadle {

/// Where the CUDA device runtime library (libcudadevrt.a, which holds cudaGraphSetConditional)
/// is: $TREADLE_CUDADEVRT, else lib64/ or lib/ of CUDA_HOME, CUDA_PATH and /usr/local/cuda, else
/// the folder NVRTC was loaded from; "" when none has it.
std::string cudadevrt_path();

/// Whether captures on CUDA can hold conditional nodes here: the driver supports them, NVRTC
/// is available and libcudadevrt.a was found. Never throws.
bool conditional_captures_available();

/// The set-condition kernel on device `ordinal` (see cuda::add_conditional), compiled with
/// NVRTC and linked with libcudadevrt.a on first use, then kept for the process. Throws a
/// Runtime error saying what is missing.
cuda::FunctionHandle set_condition_kernel(int ordinal);

}  // namespace treadle
