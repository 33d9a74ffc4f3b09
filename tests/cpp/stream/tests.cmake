# tests/cpp/stream/tests.cmake -- streams, events and graph capture (CUDA tests skip without a GPU)
list(APPEND TREADLE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/test_stream_api.cpp
)
