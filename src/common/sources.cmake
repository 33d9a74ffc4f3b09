# src/common/sources.cmake -- sources of src/common
list(APPEND TREADLE_SOURCES
  src/common/error.cpp
)
