# src/sema/sources.cmake -- sources of src/sema
