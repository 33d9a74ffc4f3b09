# tests/cpp/codegen/tests.cmake -- tests of src/codegen (golden generated source, native callees)
list(APPEND TREADLE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/test_codegen_golden.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_native_callee.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_type_spelling.cpp
)
