# tests/cpp/compile/tests.cmake -- tests of src/compile
list(APPEND TREADLE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/test_host_compiler.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_kernel_cache.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_kernel_cache_safety.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_native_headers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_sha256.cpp
)
