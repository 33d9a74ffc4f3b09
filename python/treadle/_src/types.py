"""treadle._src.types: the type lists and helpers of Warp's private types module, bound to
treadle's types (a compatibility layer for programs written against Warp, not treadle's API).

As in Warp, ``scalar_types`` holds the integer and floating-point types but not ``bool``
(``scalar_and_bool_types`` adds it), and ``vector_types`` every named vector, matrix,
quaternion and transform type. numpy has no bfloat16: Warp's maps send it to uint16 (its bits).
"""

import numpy as np

from .. import quat_types as _quat_types
from .. import types as _types
from .. import vec_types as _vec_types
from ..array import array as array
from ..indexedarray import indexedarray as indexedarray
from ..quat_types import quaternion as quaternion
from ..quat_types import transformation as transformation
from ..types import bfloat16 as bfloat16
from ..types import bool as bool  # noqa: A004 - Warp's name
from ..types import float16 as float16
from ..types import float32 as float32
from ..types import float64 as float64
from ..types import int8 as int8
from ..types import int16 as int16
from ..types import int32 as int32
from ..types import int64 as int64
from ..types import is_array as is_array
from ..types import type_is_float as type_is_float
from ..types import type_is_int as type_is_int
from ..types import type_size_in_bytes as type_size_in_bytes
from ..types import types_equal as types_equal
from ..types import uint8 as uint8
from ..types import uint16 as uint16
from ..types import uint32 as uint32
from ..types import uint64 as uint64
from ..vec_types import matrix as matrix
from ..vec_types import vector as vector

int_types = _types.int_types
float_types = _types.float_types
scalar_types = (*int_types, *float_types)
scalar_and_bool_types = (*scalar_types, bool)
non_atomic_types = (int8, uint8, int16, uint16)
"""Scalar types that atomic read-modify-write builtins do not accept."""

vector_types = (
    *_vec_types.vector_types,
    *_vec_types.matrix_types,
    *_quat_types.quat_types,
    *_quat_types.transform_types,
)

_numpy_scalars = tuple(t for t in scalar_and_bool_types if t is not bfloat16)
np_dtype_to_warp_type = {
    **{t._np_dtype.type: t for t in _numpy_scalars},
    np.byte: int8,
    np.ubyte: uint8,
    **{np.dtype(t._np_dtype): t for t in _numpy_scalars},
}
"""numpy scalar types and dtypes (both, as keys) to treadle's scalar types (none gives
bfloat16, which numpy lacks)."""

warp_type_to_np_dtype = {t: t._np_memory.type for t in scalar_and_bool_types}
"""treadle's scalar types to numpy scalar types (bfloat16 to uint16, its bits)."""


def dtype_from_numpy(numpy_dtype):
    """The treadle scalar type of a numpy dtype or scalar type (TypeError if there is none)."""
    t = np_dtype_to_warp_type.get(numpy_dtype)
    if t is None:
        raise TypeError(f"Cannot convert {numpy_dtype} to a Warp type")
    return t


def dtype_to_numpy(warp_dtype):
    """The numpy scalar type of a treadle scalar type (TypeError if there is none)."""
    t = warp_type_to_np_dtype.get(warp_dtype)
    if t is None:
        raise TypeError(f"Cannot convert {warp_dtype} to a NumPy type")
    return t


def type_scalar_type(dtype):
    """The scalar type of a vector, matrix, quaternion or transform type; a scalar type itself."""
    return getattr(dtype, "_wp_scalar_type_", dtype)


def strides_from_shape(shape, dtype):
    """The byte strides of a contiguous (row-major) array of `shape` with elements `dtype`."""
    strides = [0] * len(shape)
    step = type_size_in_bytes(dtype)
    for i in reversed(range(len(shape))):
        strides[i] = step
        step *= shape[i]
    return tuple(strides)
