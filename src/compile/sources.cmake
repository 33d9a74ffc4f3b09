# src/compile/sources.cmake -- sources of src/compile
