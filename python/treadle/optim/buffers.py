"""What Adam and SGD share: the per-parameter state arrays that follow their parameters, and the
1-D arrays of scalars that their update kernels run over.

Both optimisers update every floating-point component independently, so one kernel per
optimiser serves scalars, vectors, matrices, quaternions and transforms: each array of a step
is seen as flat 1-D arrays of its scalar type ("lanes"), and the lanes of a parameter, its
gradient and its state line up component for component.
"""

import numpy as np

from ..array import zeros
from ..quat_types import quaternion, transformation
from ..scalar_types import float32, float64
from ..type_queries import (
    type_is_float,
    type_is_matrix,
    type_is_quaternion,
    type_is_transformation,
    type_is_vector,
)
from ..vec_types import matrix, vector


def scalar_of(dtype):
    """The scalar type of `dtype`: itself for a scalar, the component type of a composite."""
    return getattr(dtype, "_wp_scalar_type_", None) or dtype


def real_type(dtype, who):
    """The scalar type an update of `dtype` data computes in: float64 for float64 data, float32
    for float16, bfloat16 and float32 data. RuntimeError (as Warp's Adam raises) for data whose
    components are not floating point."""
    scalar = scalar_of(dtype)
    if not type_is_float(scalar):
        name = getattr(dtype, "__name__", dtype)
        raise RuntimeError(f"{who}: unsupported parameter dtype {name} (the optimisers update "
                           "floating-point scalars, vectors, matrices, quaternions and transforms)")
    return float64 if scalar is float64 else float32


def widened(dtype, who):
    """`dtype` with its scalar type replaced by real_type(): the dtype of state arrays that must
    not lose precision (Adam's moments are float32 for float16 parameters, as in Warp)."""
    real = real_type(dtype, who)
    scalar = scalar_of(dtype)
    if scalar is real:
        return dtype
    if dtype is scalar:
        return real
    if type_is_vector(dtype):
        return vector(dtype._length_, real)
    if type_is_matrix(dtype):
        return matrix(dtype._shape_, real)
    if type_is_quaternion(dtype):
        return quaternion(real)
    if type_is_transformation(dtype):
        return transformation(real)
    raise RuntimeError(f"{who}: unsupported parameter dtype {dtype.__name__}")


def follow_params(buffers, params, dtype_of):
    """One state array per parameter of `params`, reusing those of `buffers` (the previous list,
    index by index): an array of the right shape and dtype is kept as it is -- moved, contents
    and all, to its parameter's device when that changed -- and any other is replaced by zeros.
    `dtype_of(param)` is the dtype of a parameter's state array. A list of another length is
    replaced whole, as in Warp."""
    previous = buffers if len(buffers) == len(params) else [None] * len(params)
    out = []
    for old, p in zip(previous, params):
        dtype = dtype_of(p)
        if old is None or old.shape != p.shape or old.dtype != dtype:
            out.append(zeros(p.shape, dtype=dtype, device=p.device))
        else:
            out.append(old.to(p.device))  # `old` itself when already there
    return out


def _flat(a):
    """A contiguous array as one 1-D array of its scalar type (a view)."""
    scalar = scalar_of(a.dtype)
    return (a if a.dtype is scalar else a.view(scalar)).reshape(-1)


def lanes(arrays, who):
    """Tuples of 1-D scalar views, one array of `arrays` each (all of one shape and element
    shape), that together cover every component once and line up index for index: a single
    tuple when every array is contiguous, else one tuple per component of the element type
    (allowed for one-dimensional arrays only, with any stride)."""
    if all(a.is_contiguous for a in arrays):
        return [tuple(_flat(a) for a in arrays)]
    if any(a.ndim != 1 for a in arrays):
        shape = next(a.shape for a in arrays if not a.is_contiguous)
        raise RuntimeError(f"{who}: arrays must be contiguous or one-dimensional (got a "
                           f"non-contiguous array of shape {shape})")
    views = [a if a.dtype is scalar_of(a.dtype) else a.view(scalar_of(a.dtype)) for a in arrays]
    components = views[0].shape[1:]
    return [tuple(v[(slice(None), *index)] for v in views) for index in np.ndindex(*components)]


def check_step_arrays(grad, params, who):
    """TypeError/ValueError unless gradient `grad` matches parameter `params` (dtype, shape)."""
    if grad.dtype != params.dtype:
        raise TypeError(f"{who}: the gradient's dtype {grad.dtype.__name__} differs from the "
                        f"parameter's {params.dtype.__name__}")
    if grad.shape != params.shape:
        raise ValueError(f"{who}: the gradient's shape {grad.shape} differs from the "
                         f"parameter's {params.shape}")
