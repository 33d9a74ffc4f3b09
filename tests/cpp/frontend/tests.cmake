# tests/cpp/frontend/tests.cmake -- tests of src/frontend
list(APPEND TREADLE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/test_lexer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_parser.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_parser_errors.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_parser_robustness.cpp
)
