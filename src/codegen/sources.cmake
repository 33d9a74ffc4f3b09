# src/codegen/sources.cmake -- sources of src/codegen
list(APPEND TREADLE_SOURCES
  src/codegen/cpu_backend.cpp
  src/codegen/cuda_backend.cpp
  src/codegen/adjoint.cpp
  src/codegen/emitter.cpp
  src/codegen/type_spelling.cpp
)
