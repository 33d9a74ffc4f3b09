# src/api/sources.cmake -- sources of src/api (the public C++ API)
# Modules, kernels, launch arguments, the tape, isosurface extraction, BVHs, meshes and
# volumes.
list(APPEND TREADLE_SOURCES
  src/api/accumulate.cpp
  src/api/array_fill.cpp
  src/api/bvh.cpp
  src/api/bvh_device.cpp
  src/api/bvh_lbvh.cpp
  src/api/bvh_refit.cpp
  src/api/hash_grid.cpp
  src/api/device_sort.cpp
  src/api/internal_module.cpp
  src/api/kernel.cpp
  src/api/kernel_builds.cpp
  src/api/launch_args.cpp
  src/api/marching_cubes.cpp
  src/api/marching_cubes_tables.cpp
  src/api/mesh.cpp
  src/api/module.cpp
  src/api/module_resolver.cpp
  src/api/tape.cpp
  src/api/volume.cpp
)
# Streams, events and graph capture (conditional nodes: their set-condition kernel).
list(APPEND TREADLE_SOURCES
  src/api/conditional.cpp
  src/api/stream.cpp
)
