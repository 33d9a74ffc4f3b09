# tests/cpp/ir/tests.cmake -- tests of src/ir (printer, verify)
list(APPEND TREADLE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/test_ir.cpp
)
