# src/codegen/sources.cmake -- sources of src/codegen
# The shared emitter: a program's source, the statement walk over each function's IR, and the
# C++ spelling of types.
list(APPEND TREADLE_SOURCES
  src/codegen/emitter.cpp
  src/codegen/function_emitter.cpp
  src/codegen/native_function.cpp
  src/codegen/type_spelling.cpp
)
# The adjoint printer, on the same statement walk.
list(APPEND TREADLE_SOURCES
  src/codegen/adjoint.cpp
)
# The back ends: prologues, qualifiers and entry points.
list(APPEND TREADLE_SOURCES
  src/codegen/cpu_backend.cpp
  src/codegen/cuda_backend.cpp
)
