# tests/cpp/passes/tests.cmake -- unit tests of the IR passes on hand-built IR
list(APPEND TREADLE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/test_adjoint_plan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_array_access.cpp
)
