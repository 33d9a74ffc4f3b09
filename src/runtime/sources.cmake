# src/runtime/sources.cmake -- sources of src/runtime (reads `types`, never the compiler)
# Memory, loaded libraries and the thread pool.
list(APPEND TREADLE_SOURCES
  src/runtime/buffer.cpp
  src/runtime/dynlib.cpp
  src/runtime/thread_pool.cpp
)
# Launching a loaded kernel (loaded_kernel.h): bounds, CPU and CUDA runs, the launch plan and
# its one argument packer.
list(APPEND TREADLE_SOURCES
  src/runtime/launch.cpp
  src/runtime/launch_plan.cpp
  src/runtime/deterministic.cpp
)
# Arrays and devices.
list(APPEND TREADLE_SOURCES
  src/runtime/array.cpp
  src/runtime/device.cpp
)
# The CUDA driver, loaded with dlopen through one table of entry points.
list(APPEND TREADLE_SOURCES
  src/runtime/cuda.cpp
  src/runtime/cuda_driver.cpp
)
# CUDA memory (graph-capture aware), streams, events and graphs.
list(APPEND TREADLE_SOURCES
  src/runtime/cuda_conditional.cpp
  src/runtime/cuda_memory.cpp
  src/runtime/cuda_peer.cpp
  src/runtime/cuda_stream.cpp
  src/runtime/cuda_graph_nodes.cpp
)
