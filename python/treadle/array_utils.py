"""Warp's array utilities (wp.utils.array_scan, array_sum, array_inner, array_cast), written as
treadle kernels so that one implementation runs on the CPU and on CUDA.

Scans and whole-array reductions work in chunks of ``CHUNK`` elements: one thread reduces each
chunk, the chunk totals are scanned (or reduced) the same way, recursively, and a last pass
rescans every chunk from its offset. Reductions along an axis give each output element one
thread. Every launch is left off the tape and the kernels have no backward pass, as in Warp,
whose utilities are native code. Errors are RuntimeErrors with Warp's messages."""

import math
from typing import Any

from . import types as _types
from . import vec_types as _vec_types
from .array import array, empty, zeros
from .builtin_functions import ddot, dot, tid
from .kernel import func, kernel
from .launch import launch
from .types import Float

CHUNK = 64
"""Elements one thread scans or reduces serially in a scan or whole-array reduction."""


# --- kernels -------------------------------------------------------------------------------


@kernel(enable_backward=False)
def _chunk_sums(values: array(dtype=Any), sums: array(dtype=Any), count: int, chunk: int):
    t = tid()
    start = t * chunk
    end = min(start + chunk, count)
    total = values[start]
    for i in range(start + 1, end):
        total = total + values[i]
    sums[t] = total


@kernel(enable_backward=False)
def _chunk_scan(values: array(dtype=Any), out: array(dtype=Any), offsets: array(dtype=Any),
                count: int, chunk: int, inclusive: int):
    # Reads each element before writing its result, so `out` may be `values`.
    t = tid()
    start = t * chunk
    end = min(start + chunk, count)
    running = offsets[t]
    for i in range(start, end):
        v = values[i]
        if inclusive != 0:
            running = running + v
            out[i] = running
        else:
            out[i] = running
            running = running + v


@func
def _product(a: Float, b: Float):
    return a * b


@func
def _product(a: _vec_types.vector(length=Any, dtype=Float),  # noqa: F811 - an overload
             b: _vec_types.vector(length=Any, dtype=Float)):
    return dot(a, b)


@func
def _product(a: _vec_types.matrix(shape=(Any, Any), dtype=Float),  # noqa: F811 - an overload
             b: _vec_types.matrix(shape=(Any, Any), dtype=Float)):
    return ddot(a, b)


@kernel(enable_backward=False)
def _chunk_inner(a: array(dtype=Any), b: array(dtype=Any), sums: array(dtype=Any), count: int,
                 chunk: int):
    t = tid()
    start = t * chunk
    end = min(start + chunk, count)
    total = _product(a[start], b[start])
    for i in range(start + 1, end):
        total = total + _product(a[i], b[i])
    sums[t] = total


@kernel(enable_backward=False)
def _row_sums(rows: array(dtype=Any, ndim=2), out: array(dtype=Any), length: int):
    m = tid()
    total = rows[m, 0]
    for j in range(1, length):
        total = total + rows[m, j]
    out[m] = total


@kernel(enable_backward=False)
def _row_inner(a: array(dtype=Any, ndim=2), b: array(dtype=Any, ndim=2), out: array(dtype=Any),
               length: int):
    m = tid()
    total = _product(a[m, 0], b[m, 0])
    for j in range(1, length):
        total = total + _product(a[m, j], b[m, j])
    out[m] = total


_cast_kernels = {}


def _cast_kernel(dst_dtype):
    """The kernel converting any array's elements to `dst_dtype` (one per destination type;
    the source type specialises it)."""
    k = _cast_kernels.get(dst_dtype)
    if k is None:

        @kernel(enable_backward=False)
        def cast_elements(src: array(dtype=Any), dst: array(dtype=dst_dtype)):
            i = tid()
            dst[i] = dst_dtype(src[i])

        k = _cast_kernels[dst_dtype] = cast_elements
    return k


# --- helpers shared with array_sort.py -----------------------------------------------------


def run(k, dim, args, device):
    """Launches utility kernel `k` on `device` (an alias), off any tape."""
    launch(k, dim=dim, inputs=args, device=device, record_tape=False)


def type_name(dtype):
    """Warp's name of a dtype in messages: ``int32``, ``vec3h``."""
    return getattr(dtype, "__name__", None) or str(dtype)


def flat(a, what):
    """`a` as a 1-D array: itself, or a view of a contiguous multi-dimensional array."""
    if a.ndim == 1:
        return a
    if not a.is_contiguous:
        raise RuntimeError(f"{what} must be one-dimensional or contiguous")
    return a.flatten()


def contiguous_copy(a):
    """`a` if contiguous, else a contiguous copy (not recorded on a tape)."""
    if a.is_contiguous:
        return a
    out = empty(a.shape, dtype=a.dtype, device=a.device)
    out._assign(a)
    return out


def scan_scratch_size(count):
    """An upper bound of the elements prefix_sum takes from `take` for `count` values."""
    return count // (CHUNK - 1) + 16


def prefix_sum(values, out, count, inclusive, take=None):
    """Scans the first `count` elements of 1-D `values` into 1-D `out` (which may be `values`):
    chunk totals, their exclusive scan (recursively), then each chunk rescanned from its
    offset. `take(n)`, when given, supplies its temporary arrays (n elements of the values'
    dtype, at most scan_scratch_size(count) in all) instead of new allocations."""
    device = values.device.alias
    if count <= 0:
        return
    if count <= CHUNK:
        if take is None:
            start = zeros(1, dtype=values.dtype, device=device)
        else:
            start = take(1)
            start.zero_()
        run(_chunk_scan, 1, [values, out, start, count, count, int(inclusive)], device)
        return
    blocks = (count + CHUNK - 1) // CHUNK
    offsets = empty(blocks, dtype=values.dtype, device=device) if take is None else take(blocks)
    run(_chunk_sums, blocks, [values, offsets, count, CHUNK], device)
    prefix_sum(offsets, offsets, blocks, False, take)
    run(_chunk_scan, blocks, [values, out, offsets, count, CHUNK, int(inclusive)], device)


def _reduce(a, b, count, result_dtype):
    """A one-element array holding the sum of the first `count` elements of 1-D `a` (b is
    None) or of their products with those of `b`."""
    device = a.device.alias
    out = zeros(1, dtype=result_dtype, device=device)
    if count == 0:
        return out
    first = True
    while first or count > 1:
        blocks = (count + CHUNK - 1) // CHUNK
        sums = out if blocks == 1 else empty(blocks, dtype=result_dtype, device=device)
        if first and b is not None:
            run(_chunk_inner, blocks, [a, b, sums, count, CHUNK], device)
        else:
            run(_chunk_sums, blocks, [a, sums, count, CHUNK], device)
        a, count, first = sums, blocks, False
    return out


# --- array_scan ----------------------------------------------------------------------------

_SCAN_SCALARS = (_types.int32, _types.int64, _types.float32, _types.float64)


def _scannable(dtype):
    if dtype in _SCAN_SCALARS:
        return True
    return (isinstance(dtype, type) and issubclass(dtype, _vec_types.vector_base)
            and dtype._wp_scalar_type_ in _SCAN_SCALARS)


def array_scan(in_array, out_array, inclusive=True):
    """Prefix sum of `in_array` into `out_array` (Warp's ``wp.utils.array_scan``): inclusive
    (element i is the sum of elements 0..i) or exclusive (0..i-1). Scalars and vectors of
    int32, int64, float32 and float64; vectors are scanned component-wise. The arrays may be
    strided 1-D views (only the elements of `out_array` are written) or contiguous arrays of
    any shape, scanned in row-major order."""
    if in_array.device != out_array.device:
        raise RuntimeError(
            f"In and out array storage devices do not match ({in_array.device.alias} vs "
            f"{out_array.device.alias})")
    if in_array.size != out_array.size:
        raise RuntimeError(
            f"In and out array storage sizes do not match ({in_array.size} vs {out_array.size})")
    if in_array.dtype is not out_array.dtype:
        raise RuntimeError(
            f"In and out array data types do not match ({type_name(in_array.dtype)} vs "
            f"{type_name(out_array.dtype)})")
    if not _scannable(in_array.dtype):
        raise RuntimeError(f"Unsupported data type: {type_name(in_array.dtype)}")
    if in_array.size == 0:
        return
    prefix_sum(flat(in_array, "in_array"), flat(out_array, "out_array"), in_array.size,
               inclusive)


# --- array_sum and array_inner --------------------------------------------------------------


def _reducible(dtype):
    """Whether sums and inner products take `dtype`: float32/float64 scalars, vectors and
    matrices."""
    return (dtype in (_types.float32, _types.float64) or (
        _vec_types.is_composite_type(dtype)
        and dtype._wp_scalar_type_ in (_types.float32, _types.float64)))


def _axis_shape(shape, axis):
    """The shape of a reduction of `shape` along `axis`: that dimension becomes 1."""
    return tuple(1 if d == axis else n for d, n in enumerate(shape))


def _check_out(out, device, dtype, shape):
    if out.device != device:
        raise RuntimeError("out storage device should match values array")
    if out.dtype is not dtype:
        raise RuntimeError(f"out array should have type {type_name(dtype)}")
    if tuple(out.shape) != tuple(shape):
        raise RuntimeError(f"out array should have shape {tuple(shape)}")


def _normal_axis(axis, ndim):
    if not -ndim <= axis < ndim:
        raise IndexError(f"axis {axis} is out of bounds for an array of {ndim} dimensions")
    return axis + ndim if axis < 0 else axis


def _reduce_axis(a, b, axis, out):
    """Sums (b None) or inner products of `a` and `b` along `axis` into `out`, whose shape
    is that of `a` with 1 at `axis`: the axis is moved last, the rest flattened into rows,
    and each row reduced by one thread."""
    device = a.device.alias
    order = [d for d in range(a.ndim) if d != axis] + [axis]
    length = a.shape[axis]
    rows = math.prod(a.shape[d] for d in order[:-1])
    if rows == 0:
        return
    if length == 0:
        out.zero_()
        return
    result = empty(rows, dtype=out.dtype, device=device)
    if b is None:
        a2 = contiguous_copy(a.transpose(order)).reshape((rows, length))
        run(_row_sums, rows, [a2, result, length], device)
    else:
        a2 = contiguous_copy(a.transpose(order)).reshape((rows, length))
        b2 = contiguous_copy(b.transpose(order)).reshape((rows, length))
        run(_row_inner, rows, [a2, b2, result, length], device)
    target = out.transpose(order)
    target._assign(result.reshape(target.shape))


def _whole(a, count, what):
    """The first `count` (default: all) elements of `a` as a contiguous 1-D array."""
    values = contiguous_copy(a).flatten()
    count = values.size if count is None else int(count)
    if not 0 <= count <= values.size:
        raise RuntimeError(f"{what} ({count}) must be between 0 and the array size "
                           f"({values.size})")
    return values, count


def array_sum(values, out=None, value_count=None, axis=None):
    """Sum of the elements of `values` (Warp's ``wp.utils.array_sum``), float32 or float64
    scalars, vectors or matrices. With `axis` None: the sum of the first `value_count`
    (default: all) elements in row-major order, returned as a numpy scalar (or array, for
    vectors) or written to `out` (shape (1,)), which is then returned. With `axis`: the sums
    along that axis, in `out` (or a new array) of the shape of `values` with 1 at `axis`."""
    dtype = values.dtype
    if not _reducible(dtype):
        raise RuntimeError(f"Unsupported data type: {type_name(dtype)}")
    device = values.device
    if axis is None:
        shape = (1,)
    else:
        axis = _normal_axis(axis, values.ndim)
        shape = _axis_shape(values.shape, axis)
    if out is not None:
        _check_out(out, device, dtype, shape)
    if axis is not None:
        if out is None:
            out = empty(shape, dtype=dtype, device=device)
        _reduce_axis(values, None, axis, out)
        return out
    flat_values, count = _whole(values, value_count, "value_count")
    total = _reduce(flat_values, None, count, dtype)
    if out is None:
        return total.numpy()[0]
    out._assign(total)
    return out


def array_inner(a, b, out=None, count=None, axis=None):
    """Inner product of `a` and `b` (Warp's ``wp.utils.array_inner``): arrays of one float32
    or float64 scalar, vector or matrix type and the same size; the products of elements are
    scalars (dot products for vectors). With `axis` None: over the first `count` (default: all)
    elements in row-major order, returned as a numpy scalar or written to `out` (shape (1,),
    the scalar type), which is then returned. With `axis`: along that axis, in `out` (or a new
    array) of the shape of `a` with 1 at `axis`."""
    if a.device != b.device:
        raise RuntimeError(
            f"A and b array storage devices do not match ({a.device.alias} vs {b.device.alias})")
    if a.size != b.size:
        raise RuntimeError(f"A and b array storage sizes do not match ({a.size} vs {b.size})")
    if _types.type_of(a.dtype) is not _types.type_of(b.dtype):
        raise RuntimeError(
            f"A and b array data types do not match ({type_name(a.dtype)} vs "
            f"{type_name(b.dtype)})")
    if not _reducible(a.dtype):
        raise RuntimeError(f"Unsupported data type: {type_name(a.dtype)}")
    scalar = getattr(a.dtype, "_wp_scalar_type_", a.dtype)
    device = a.device
    if axis is None:
        shape = (1,)
    else:
        if a.shape != b.shape:
            raise ValueError(f"array_inner(): a and b have different shapes ({a.shape} vs "
                             f"{b.shape})")
        axis = _normal_axis(axis, a.ndim)
        shape = _axis_shape(a.shape, axis)
    if out is not None:
        _check_out(out, device, scalar, shape)
    if axis is not None:
        if out is None:
            out = empty(shape, dtype=scalar, device=device)
        _reduce_axis(a, b, axis, out)
        return out
    flat_a, n = _whole(a, count, "count")
    flat_b, _ = _whole(b, n, "count")
    total = _reduce(flat_a, flat_b, n, scalar)
    if out is None:
        return total.numpy()[0]
    out._assign(total)
    return out


# --- array_cast ----------------------------------------------------------------------------


def _element_shape(dtype):
    return tuple(getattr(dtype, "_shape", ()))


def _scalar_view(a):
    """A contiguous array's memory as a 1-D array of its scalar type."""
    scalar = getattr(a.dtype, "_wp_scalar_type_", a.dtype)
    if not a.is_contiguous:
        raise RuntimeError("Array must be contiguous to be cast at the scalar level")
    length = math.prod(_element_shape(a.dtype))
    if a.size == 0:
        return empty(0, dtype=scalar, device=a.device)
    return array(ptr=a.ptr, dtype=scalar, shape=(a.size * length,), device=a.device)


def array_cast(in_array, out_array, count=None):
    """Converts the elements of `in_array` to the dtype of `out_array` (Warp's
    ``wp.utils.array_cast``), C conversion rules component by component. Arrays of the same
    number of dimensions and element shape convert element by element; otherwise both are
    seen as flat arrays of scalars (contiguous arrays only), and `count` counts elements of
    `in_array`. `count` (default: as many as both hold) is only allowed for one-dimensional
    or flattened arrays. Same dtypes are copied."""
    if in_array.device != out_array.device:
        raise RuntimeError(
            f"Array storage devices do not match ({in_array.device.alias} vs "
            f"{out_array.device.alias})")
    src, dst = in_array, out_array
    if src.ndim != dst.ndim or _element_shape(src.dtype) != _element_shape(dst.dtype):
        if count is not None:
            count = int(count) * math.prod(_element_shape(src.dtype))
        src, dst = _scalar_view(src), _scalar_view(dst)
    elif src.ndim > 1:
        if count is not None:
            raise RuntimeError(
                "Partial cast is not supported for arrays with more than one dimension")
        if src.shape != dst.shape:
            raise RuntimeError(f"Array shapes do not match ({src.shape} vs {dst.shape})")
    n = min(src.size, dst.size) if count is None else int(count)
    if n < 0 or n > src.size or n > dst.size:
        raise RuntimeError(f"count ({n}) exceeds the size of the arrays ({src.size} and "
                           f"{dst.size})")
    if n == 0:
        return
    if dst.ndim == 1:
        _convert(src[:n], dst[:n])
        return
    # Whole arrays of one shape: converted through flat contiguous views.
    staged = dst if dst.is_contiguous else empty(dst.shape, dtype=dst.dtype, device=dst.device)
    _convert(contiguous_copy(src).flatten(), staged.flatten())
    if staged is not dst:
        dst._assign(staged)


def _convert(src, dst):
    """Converts 1-D `src` into 1-D `dst` of the same size."""
    if src.dtype is dst.dtype:
        dst._assign(src)
    else:
        run(_cast_kernel(dst.dtype), src.size, [src, dst], dst.device.alias)
