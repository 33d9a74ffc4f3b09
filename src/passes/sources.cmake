# src/passes/sources.cmake -- sources of src/passes
list(APPEND TREADLE_SOURCES
  src/passes/adjoint_plan.cpp
  src/passes/array_access.cpp
  src/passes/deterministic.cpp
  src/passes/tile_divergence.cpp
)
