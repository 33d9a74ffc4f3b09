# src/passes/sources.cmake -- sources of src/passes
