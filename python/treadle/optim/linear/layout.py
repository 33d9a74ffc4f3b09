"""How the linear solvers see their vectors: as scalar degrees of freedom ("dofs") split into
batches.

A solver vector is a 1-D array of scalars or of vectors; its dofs are its scalar components in
order, so entry ``i`` of a vec3 array holds dofs ``3 i`` to ``3 i + 2``. An operator's
``batch_offsets`` (``B + 1`` non-decreasing ints) cut the dofs into ``B`` independent
subproblems, batch ``k`` owning dofs ``batch_offsets[k]`` to ``batch_offsets[k + 1]``; dofs
outside ``[batch_offsets[0], batch_offsets[B])`` belong to no batch (an inactive tail) and are
never read into a reduction nor changed by an update. Without offsets every dof is in batch 0.
"""

from typing import Any

from ...array import array
from ...kernel import func
from ...scalar_types import type_size, type_size_in_bytes
from ...sparse.funcs import upper_bound


def scalar_type_of(dtype):
    """The scalar type of `dtype`: itself for a scalar, the component type of a composite."""
    return getattr(dtype, "_wp_scalar_type_", None) or dtype


def dofs_per_entry(dtype):
    """How many scalar dofs one element of `dtype` holds (1 for a scalar)."""
    return type_size(dtype)


def scalar_dof_count(x):
    """The number of scalar dofs of the 1-D solver vector `x`."""
    return x.shape[0] * dofs_per_entry(x.dtype)


def scalar_view(x, who):
    """`x` (a 1-D array, or a 2-D array of rows) seen as scalars on the same memory: a vector
    dtype's components become consecutive entries of the last dimension. Any stride of the
    first dimension of a 2-D array is kept (0 repeats one row). ValueError when the components
    of one row are not packed (a strided view of vectors)."""
    scalar = scalar_type_of(x.dtype)
    if scalar is x.dtype:
        return x
    components = dofs_per_entry(x.dtype)
    if x.is_contiguous:
        return x.view(scalar).reshape((*x.shape[:-1], x.shape[-1] * components))
    scalar_bytes = type_size_in_bytes(scalar)
    if x.strides[-1] != components * scalar_bytes:
        raise ValueError(f"{who}: the entries of a vector-valued array must be contiguous "
                         f"(stride {x.strides[-1]} bytes for {components} components of "
                         f"{scalar_bytes} bytes)")
    view = array(ptr=x.ptr, shape=(*x.shape[:-1], x.shape[-1] * components),
                 strides=(*x.strides[:-1], scalar_bytes), dtype=scalar, device=x.device)
    view._viewed = x  # the view does not own its memory: keep the array alive
    return view


def repeated_row(rows, count=None):
    """The 2-D view of `count` copies (default: as many as `rows` has rows) of row 0 of the 2-D
    array `rows` (or of the 1-D array `rows` itself), on its memory (first stride 0): a
    reduction of ``(r, r)`` against ``(r, z)`` computes r.r and r.z in one launch."""
    count = rows.shape[0] if count is None else count
    length, stride = rows.shape[-1], rows.strides[-1]
    view = array(ptr=rows.ptr, shape=(count, length), strides=(0, stride), dtype=rows.dtype,
                 device=rows.device)
    view._viewed = rows
    return view


@func
def batch_of_dof(dof: int, batch_offsets: array(dtype=int)) -> int:
    """The batch holding scalar dof `dof`: 0 without offsets (a None array), -1 for a dof
    outside every batch."""
    if not batch_offsets:
        return 0
    count = batch_offsets.shape[0] - 1
    if dof < batch_offsets[0] or dof >= batch_offsets[count]:
        return -1
    return upper_bound(batch_offsets, 0, count + 1, dof) - 1


@func
def batch_of_entry(entry: int, batch_offsets: array(dtype=int), dofs_per_entry: int) -> int:
    """The batch holding element `entry` of a solver vector whose elements hold
    `dofs_per_entry` dofs each (offsets are aligned to whole elements), or -1."""
    return batch_of_dof(entry * dofs_per_entry, batch_offsets)


@func
def guarded_ratio(active: bool, numerator: Any, denominator: Any):
    """numerator / denominator where `active` and the denominator is not zero, else zero: a
    batch that has converged, or whose recurrence broke down, stops moving."""
    zero = type(numerator)(0.0)
    if active and denominator != zero:
        return numerator / denominator
    return zero
