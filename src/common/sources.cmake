# src/common/sources.cmake -- sources of src/common
list(APPEND TREADLE_SOURCES
  src/common/dtype.cpp
  src/common/error.cpp
)
