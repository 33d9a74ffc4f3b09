# src/ir/sources.cmake -- sources of src/ir
list(APPEND TREADLE_SOURCES
  src/ir/printer.cpp
  src/ir/verify.cpp
)
