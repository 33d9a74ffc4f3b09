# tests/cpp/sema/tests.cmake -- tests of src/sema (the builtin table and its overloads,
# inference, resolver memo, specialisation)
list(APPEND TREADLE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/test_builtin_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_infer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_overloads.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_resolver_memo.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_specialise.cpp
)
