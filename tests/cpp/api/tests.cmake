# tests/cpp/api/tests.cmake -- tests of src/api (modules, kernels, adjoints, tape, streams)
list(APPEND TREADLE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/test_array_fill.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_bvh_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_bvh_lbvh.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_bvh_refit.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_device_sort.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_hash_grid_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_kernel_adjoint.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_kernel_builds.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_marching_cubes_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_mesh_adjoint.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_mesh_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_module_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_module_generics.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_module_structs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_stream_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_tape_api.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_volume_api.cpp
)
