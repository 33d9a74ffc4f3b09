# src/frontend/sources.cmake -- sources of src/frontend
