# src/builtins/sources.cmake -- sources of src/builtins (the builtin table, under the IR)
# The table and its lookups; argument types under the weak-literal rules; signatures parsed.
list(APPEND TREADLE_SOURCES
  src/builtins/arguments.cpp
  src/builtins/signature.cpp
  src/builtins/table.cpp
)
# The entries, one file per group of the reference, and their type rules.
list(APPEND TREADLE_SOURCES
  src/builtins/entries_bvh.cpp
  src/builtins/entries_geometry.cpp
  src/builtins/entries_hash_grid.cpp
  src/builtins/entries_internal.cpp
  src/builtins/entries_math.cpp
  src/builtins/entries_mesh.cpp
  src/builtins/entries_random.cpp
  src/builtins/entries_rigid.cpp
  src/builtins/entries_utility.cpp
  src/builtins/entries_vector.cpp
  src/builtins/entries_volume.cpp
  src/builtins/entries_tile.cpp
  src/builtins/entries_tile_block.cpp
  src/builtins/entries_tile_indexed.cpp
  src/builtins/rules.cpp
  src/builtins/rules_generic.cpp
)
