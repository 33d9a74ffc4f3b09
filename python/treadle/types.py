"""``treadle.types`` (Warp's ``wp.types``): every type of the kernel language in one namespace.

It only re-exports, and it sits on top of the type modules, each of which imports only those
below it: type_classes (the Type -> class registry) <- scalar_types <- vec_types <- quat_types
<- struct <- array <- indexedarray <- fabricarray <- type_queries <- types. None of them imports this module.
"""

# --- scalars, generic markers, the Type of an annotation (scalar_types.py) ------------------
from typing import Any as Any
from .scalar_types import bfloat16 as bfloat16
from .scalar_types import bool as bool
from .scalar_types import dtype_from_numpy as dtype_from_numpy
from .scalar_types import dtype_to_numpy as dtype_to_numpy
from .scalar_types import Float as Float
from .scalar_types import float16 as float16
from .scalar_types import float32 as float32
from .scalar_types import float64 as float64
from .scalar_types import float_base as float_base
from .scalar_types import float_types as float_types
from .scalar_types import half as half
from .scalar_types import Int as Int
from .scalar_types import int16 as int16
from .scalar_types import int32 as int32
from .scalar_types import int64 as int64
from .scalar_types import int8 as int8
from .scalar_types import int_base as int_base
from .scalar_types import int_types as int_types
from .scalar_types import resolve_dtype as resolve_dtype
from .scalar_types import Scalar as Scalar
from .scalar_types import scalar_base as scalar_base
from .scalar_types import scalar_types as scalar_types
from .scalar_types import type_of as type_of
from .scalar_types import type_size as type_size
from .scalar_types import type_size_in_bytes as type_size_in_bytes
from .scalar_types import types_equal as types_equal
from .scalar_types import uint16 as uint16
from .scalar_types import uint32 as uint32
from .scalar_types import uint64 as uint64
from .scalar_types import uint8 as uint8

# --- vectors and matrices (vec_types.py) ----------------------------------------------------
from .vec_types import mat22 as mat22
from .vec_types import mat22d as mat22d
from .vec_types import mat22f as mat22f
from .vec_types import mat22h as mat22h
from .vec_types import mat33 as mat33
from .vec_types import mat33d as mat33d
from .vec_types import mat33f as mat33f
from .vec_types import mat33h as mat33h
from .vec_types import mat44 as mat44
from .vec_types import mat44d as mat44d
from .vec_types import mat44f as mat44f
from .vec_types import mat44h as mat44h
from .vec_types import matrix as matrix
from .vec_types import matrix_base as matrix_base
from .vec_types import spatial_matrix as spatial_matrix
from .vec_types import spatial_matrixd as spatial_matrixd
from .vec_types import spatial_matrixf as spatial_matrixf
from .vec_types import spatial_matrixh as spatial_matrixh
from .vec_types import spatial_vector as spatial_vector
from .vec_types import spatial_vectord as spatial_vectord
from .vec_types import spatial_vectorf as spatial_vectorf
from .vec_types import spatial_vectorh as spatial_vectorh
from .vec_types import vec2 as vec2
from .vec_types import vec2b as vec2b
from .vec_types import vec2d as vec2d
from .vec_types import vec2f as vec2f
from .vec_types import vec2h as vec2h
from .vec_types import vec2i as vec2i
from .vec_types import vec2l as vec2l
from .vec_types import vec2s as vec2s
from .vec_types import vec2ub as vec2ub
from .vec_types import vec2ui as vec2ui
from .vec_types import vec2ul as vec2ul
from .vec_types import vec2us as vec2us
from .vec_types import vec3 as vec3
from .vec_types import vec3b as vec3b
from .vec_types import vec3d as vec3d
from .vec_types import vec3f as vec3f
from .vec_types import vec3h as vec3h
from .vec_types import vec3i as vec3i
from .vec_types import vec3l as vec3l
from .vec_types import vec3s as vec3s
from .vec_types import vec3ub as vec3ub
from .vec_types import vec3ui as vec3ui
from .vec_types import vec3ul as vec3ul
from .vec_types import vec3us as vec3us
from .vec_types import vec4 as vec4
from .vec_types import vec4b as vec4b
from .vec_types import vec4d as vec4d
from .vec_types import vec4f as vec4f
from .vec_types import vec4h as vec4h
from .vec_types import vec4i as vec4i
from .vec_types import vec4l as vec4l
from .vec_types import vec4s as vec4s
from .vec_types import vec4ub as vec4ub
from .vec_types import vec4ui as vec4ui
from .vec_types import vec4ul as vec4ul
from .vec_types import vec4us as vec4us
from .vec_types import vector as vector
from .vec_types import vector_base as vector_base

# --- quaternions and transforms (quat_types.py) ---------------------------------------------
from .quat_types import quat as quat
from .quat_types import quat_base as quat_base
from .quat_types import quatd as quatd
from .quat_types import quaternion as quaternion
from .quat_types import quatf as quatf
from .quat_types import quath as quath
from .quat_types import transform as transform
from .quat_types import transform_base as transform_base
from .quat_types import transformation as transformation
from .quat_types import transformd as transformd
from .quat_types import transformf as transformf
from .quat_types import transformh as transformh

# --- arrays (array.py) ----------------------------------------------------------------------
from .array import array as array
from .array_nd import array1d as array1d
from .array_nd import array2d as array2d
from .array_nd import array3d as array3d
from .array_nd import array4d as array4d

# --- indexed arrays (indexedarray.py) -------------------------------------------------------
from .indexedarray import indexedarray as indexedarray
from .indexedarray import indexedarray1d as indexedarray1d
from .indexedarray import indexedarray2d as indexedarray2d
from .indexedarray import indexedarray3d as indexedarray3d
from .indexedarray import indexedarray4d as indexedarray4d

# --- Fabric arrays (fabricarray.py) -------------------------------------------------------------
from .fabricarray import fabric_to_warp_dtype as fabric_to_warp_dtype
from .fabricarray import fabricarray as fabricarray
from .fabricarray import fabricarrayarray as fabricarrayarray
from .fabricarray import indexedfabricarray as indexedfabricarray
from .fabricarray import indexedfabricarrayarray as indexedfabricarrayarray

# --- introspection (type_queries.py) --------------------------------------------------------
from .type_queries import is_array as is_array
from .type_queries import is_composite as is_composite
from .type_queries import is_float as is_float
from .type_queries import is_int as is_int
from .type_queries import is_matrix as is_matrix
from .type_queries import is_quaternion as is_quaternion
from .type_queries import is_scalar as is_scalar
from .type_queries import is_struct as is_struct
from .type_queries import is_tile as is_tile
from .type_queries import tile as tile
from .type_queries import tile_stack as tile_stack
from .type_queries import is_transformation as is_transformation
from .type_queries import is_value as is_value
from .type_queries import is_vector as is_vector
from .type_queries import type_ctype as type_ctype
from .type_queries import type_is_array as type_is_array
from .type_queries import type_is_composite as type_is_composite
from .type_queries import type_is_float as type_is_float
from .type_queries import type_is_int as type_is_int
from .type_queries import type_is_matrix as type_is_matrix
from .type_queries import type_is_quaternion as type_is_quaternion
from .type_queries import type_is_scalar as type_is_scalar
from .type_queries import type_is_struct as type_is_struct
from .type_queries import type_is_tile as type_is_tile
from .type_queries import type_is_transformation as type_is_transformation
from .type_queries import type_is_value as type_is_value
from .type_queries import type_is_vector as type_is_vector
from .type_queries import type_repr as type_repr
