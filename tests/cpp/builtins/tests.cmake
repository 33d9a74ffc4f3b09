# tests/cpp/builtins/tests.cmake -- tests of src/builtins (the table: its entries, traits,
# lookups and signatures, and the overloads its type rules resolve)
list(APPEND TREADLE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/test_builtin_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_overloads.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_table_entries.cpp
)
