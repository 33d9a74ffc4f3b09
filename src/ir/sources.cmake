# src/ir/sources.cmake -- sources of src/ir
