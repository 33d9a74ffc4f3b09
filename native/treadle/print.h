// native/treadle/print.h -- print(x) for scalars, in Warp's format, one value per line
//
// printf is available to kernels on both back ends: on the CPU this header includes <stdio.h>;
// in device code (NVRTC, nvcc's device pass) printf is declared by the compiler itself. nvcc's
// host pass has no printf without host headers, so there print() compiles to nothing (kernels
// never run in it).
#pragma once

#include "core.h"

#if !defined(__CUDACC__)
#include <stdio.h>
#include <stdlib.h>
#pragma GCC visibility push(hidden)
#endif

// WP_PRINTF: printf where it exists (see above), nothing in nvcc's host pass.
#if WP_DEVICE_CODE || !defined(__CUDACC__)
#define WP_PRINTF(...) printf(__VA_ARGS__)
#else
#define WP_PRINTF(...) ((void)0)
#endif

namespace wp {

/// print(x): the value then a newline. Integers in decimal, floats with %g (so 3.5 -> "3.5",
/// 1e-07 -> "1e-07"), bool as True/False (like Python), strings verbatim.
CUDA_CALLABLE void print(bool x) { WP_PRINTF(x ? "True\n" : "False\n"); }
CUDA_CALLABLE void print(int8 x) { WP_PRINTF("%d\n", int(x)); }
CUDA_CALLABLE void print(uint8 x) { WP_PRINTF("%u\n", unsigned(x)); }
CUDA_CALLABLE void print(int16 x) { WP_PRINTF("%d\n", int(x)); }
CUDA_CALLABLE void print(uint16 x) { WP_PRINTF("%u\n", unsigned(x)); }
CUDA_CALLABLE void print(int32 x) { WP_PRINTF("%d\n", x); }
CUDA_CALLABLE void print(uint32 x) { WP_PRINTF("%u\n", x); }
CUDA_CALLABLE void print(int64 x) { WP_PRINTF("%lld\n", x); }
CUDA_CALLABLE void print(uint64 x) { WP_PRINTF("%llu\n", x); }
CUDA_CALLABLE void print(half x) { WP_PRINTF("%g\n", double(float(x))); }
CUDA_CALLABLE void print(bfloat16 x) { WP_PRINTF("%g\n", double(float(x))); }
CUDA_CALLABLE void print(float x) { WP_PRINTF("%g\n", double(x)); }
CUDA_CALLABLE void print(double x) { WP_PRINTF("%g\n", x); }
CUDA_CALLABLE void print(const char* s) { WP_PRINTF("%s\n", s); }

/// A failed `assert` of a debug build: the message, then the CPU process aborts (SIGABRT) or
/// the CUDA thread traps, as in Warp's debug builds.
CUDA_CALLABLE void assert_failed(const char* msg) {
#if WP_DEVICE_CODE
    printf("%s\n", msg);
    __trap();
#elif !defined(__CUDACC__)
    fprintf(stderr, "%s\n", msg);
    fflush(stderr);
    abort();
#else
    (void)msg;
#endif
}

}  // namespace wp

#if !defined(__CUDACC__)
#pragma GCC visibility pop
#endif
