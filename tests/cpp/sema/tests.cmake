# tests/cpp/sema/tests.cmake -- tests of src/sema (inference, resolver memo, specialisation)
list(APPEND TREADLE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/test_infer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_resolver_memo.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_specialise.cpp
)
