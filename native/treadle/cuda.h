// native/treadle/cuda.h -- prologue of a kernel translation unit compiled by NVRTC or nvcc
//
// Includes no host header (NVRTC has none): math functions and printf are the compiler's own.
// Kernels are declared `WP_EXPORT __global__ void name(...)` so cuModuleGetFunction finds them
// by their plain name.
#pragma once

#if !defined(__CUDACC__)
#error "treadle/cuda.h must be compiled by nvcc or NVRTC"
#endif

#include "adjoint.h"
#include "array.h"
#include "array_slice.h"
#include "atomic.h"
#include "bitwise.h"
#include "core.h"
#include "dense.h"
#include "fabricarray.h"
#include "indexedarray.h"
#include "mat.h"
#include "mat_decomp.h"
#include "noise.h"
#include "print.h"
#include "quat.h"
#include "quat_euler.h"
#include "random.h"
#include "scalar.h"
#include "search.h"
#include "spatial.h"
#include "utility.h"
#include "vec.h"
#include "verify_fp.h"
