# tests/cpp/cuda/tests.cmake -- tests of the CUDA driver loader and NVRTC (pass without a GPU)
list(APPEND TREADLE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/test_cuda_driver.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_nvrtc.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_nvrtc_mesh.cpp
)
