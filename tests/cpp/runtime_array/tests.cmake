# tests/cpp/runtime_array/tests.cmake -- tests of treadle::Array and treadle::Device
list(APPEND TREADLE_TEST_SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_array.cpp)
