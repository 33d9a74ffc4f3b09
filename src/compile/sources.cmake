# src/compile/sources.cmake -- sources of src/compile
# The disk cache of built kernels and the host compiler.
list(APPEND TREADLE_SOURCES
  src/compile/build_lock.cpp
  src/compile/cache_files.cpp
  src/compile/host_compiler.cpp
  src/compile/kernel_cache.cpp
  src/compile/native_headers.cpp
  src/compile/sha256.cpp
)
# The pipeline, from a kernel's source to a loaded kernel (runtime/loaded_kernel.h).
list(APPEND TREADLE_SOURCES
  src/compile/compile_kernel.cpp
)
# CUDA: NVRTC, loaded with dlopen.
list(APPEND TREADLE_SOURCES
  src/compile/nvrtc.cpp
)
