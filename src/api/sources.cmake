# src/api/sources.cmake -- sources of src/api (the public C++ API)
list(APPEND TREADLE_SOURCES
  src/api/module.cpp
  src/api/module_resolver.cpp
)
list(APPEND TREADLE_SOURCES
  src/api/stream.cpp
)
