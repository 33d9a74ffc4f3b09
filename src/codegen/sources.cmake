# src/codegen/sources.cmake -- sources of src/codegen
