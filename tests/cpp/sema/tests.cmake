# tests/cpp/sema/tests.cmake -- tests of src/sema (types, builtin overloads, inference)
list(APPEND TREADLE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/test_infer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_overloads.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_types.cpp
)
