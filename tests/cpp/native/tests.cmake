# tests/cpp/native/tests.cmake -- tests of the device library native/treadle (the headers)
list(APPEND TREADLE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/test_array.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_atomic.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_bfloat16.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_half_cast.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_mat.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_mat_decomp.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_noise_sampling.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_quat.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_scalar.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_scalar_adjoint.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_scalar_math.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_spatial.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_vec.cpp
)
