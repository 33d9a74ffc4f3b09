# src/api/sources.cmake -- sources of src/api
