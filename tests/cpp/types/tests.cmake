# tests/cpp/types/tests.cmake -- GoogleTest sources for src/types (interned types, kernel ABI)
list(APPEND TREADLE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/test_abi.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_types.cpp
)
