# src/types/sources.cmake -- sources of src/types
list(APPEND TREADLE_SOURCES
  src/types/native_structs.cpp
  src/types/type_names.cpp
  src/types/types.cpp
)
