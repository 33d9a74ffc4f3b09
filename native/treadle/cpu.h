// native/treadle/cpu.h -- prologue of a kernel translation unit compiled by g++ for the CPU
//
// Brings in the whole device library. Deliberately does not include <cmath> (about 130 ms of
// parse time): math goes through GCC builtins (see WP_CMATH in core.h). <stdio.h> comes with
// print.h; <string.h> and <stdint.h> are cheap C headers offered to generated code.
#pragma once

#if defined(__CUDACC__)
#error "treadle/cpu.h is the CPU prologue; CUDA kernels include treadle/cuda.h"
#endif

#include <stdint.h>
#include <string.h>

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
