# src/runtime/sources.cmake -- sources of src/runtime
list(APPEND TREADLE_SOURCES
  src/runtime/buffer.cpp
  src/runtime/dynlib.cpp
  src/runtime/thread_pool.cpp
)
list(APPEND TREADLE_SOURCES
  src/runtime/launch.cpp
  src/runtime/launch_plan.cpp
)
list(APPEND TREADLE_SOURCES
  src/runtime/array.cpp
  src/runtime/device.cpp
)
list(APPEND TREADLE_SOURCES
  src/runtime/cuda.cpp
  src/runtime/cuda_driver.cpp
)
list(APPEND TREADLE_SOURCES
  src/runtime/cuda_memory.cpp
  src/runtime/cuda_stream.cpp
)
