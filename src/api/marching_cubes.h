// src/api/marching_cubes.h -- internals of the isosurface extraction that tests reach
#pragma once

namespace treadle {

/// The DSL module text of the extraction's kernels (a Python-syntax file importing treadle), for
/// tests that compile its kernels for CUDA without a GPU.
const char* marching_cubes_kernel_source();

}  // namespace treadle
