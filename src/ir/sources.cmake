# src/ir/sources.cmake -- sources of src/ir
list(APPEND TREADLE_SOURCES
  src/ir/location.cpp
  src/ir/printer.cpp
  src/ir/verify.cpp
)
