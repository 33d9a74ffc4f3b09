# tests/cpp/runtime/tests.cmake -- tests of src/runtime (arrays, devices, buffers, thread pool)
list(APPEND TREADLE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/test_array.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_buffer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_dynlib.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_launch_plan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_thread_pool.cpp
)
