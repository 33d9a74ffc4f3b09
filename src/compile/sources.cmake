# src/compile/sources.cmake -- sources of src/compile
list(APPEND TREADLE_SOURCES
  src/compile/build_lock.cpp
  src/compile/cache_files.cpp
  src/compile/host_compiler.cpp
  src/compile/kernel_cache.cpp
  src/compile/sha256.cpp
)
list(APPEND TREADLE_SOURCES
  src/compile/compile_kernel.cpp
)
list(APPEND TREADLE_SOURCES
  src/compile/nvrtc.cpp
)
