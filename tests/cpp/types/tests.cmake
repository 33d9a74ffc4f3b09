# tests/cpp/types/tests.cmake -- GoogleTest sources for src/types (interned types, type names, kernel ABI)
list(APPEND TREADLE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/test_abi.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_type_names.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_types.cpp
)
