# src/runtime/sources.cmake -- sources of src/runtime
