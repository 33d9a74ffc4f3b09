"""Array shapes and dimension counts as the array functions check them (shared by arrays,
indexed arrays and arrays of structs), and the layout of dtype views."""

import builtins
import typing

import numpy as np


def is_int(x):
    """True for a Python or numpy integer (not a bool)."""
    if isinstance(x, (builtins.bool, np.bool_)):
        return False
    return isinstance(x, (builtins.int, np.integer))


def shape_tuple(shape, what="shape"):
    """Validates an int or a sequence of ints as an array shape of 1 to 4 dimensions."""
    if is_int(shape):
        shape = (shape,)
    try:
        items = tuple(shape)
    except TypeError:
        raise TypeError(
            f"{what} must be an int or a sequence of ints, got {type(shape).__name__}"
        ) from None
    for s in items:
        if not is_int(s):
            raise TypeError(f"{what} must contain only ints, got {s!r} in {shape!r}")
    items = tuple(builtins.int(s) for s in items)
    if not 1 <= len(items) <= 4:
        raise ValueError(f"{what} {items} has {len(items)} dimensions; arrays have 1 to 4")
    for s in items:
        if s < 0:
            raise ValueError(f"Array shapes must be non-negative: {what} {items} has a negative "
                             "dimension")
    return items


def check_ndim(ndim):
    """Validates a number of dimensions (1 to 4)."""
    if not is_int(ndim) or not 1 <= ndim <= 4:
        raise ValueError(f"ndim must be between 1 and 4 (an int), got {ndim!r}")
    return builtins.int(ndim)


def subscript_params(params, name, fixed_ndim=None):
    """The dtype and ndim of an annotation subscript ``name[dtype]`` / ``name[dtype, ndim]``;
    ndim may be an int or ``Literal[n]`` (the form static type checkers read). A class of
    fixed dimensions (``array2d``) takes the dtype alone."""
    if not isinstance(params, tuple):
        return params, None
    if fixed_ndim is not None:
        raise TypeError(f"{name}[...] takes a single type parameter (the dtype), got {params!r}")
    if len(params) != 2:
        raise TypeError(f"{name}[...] takes a dtype and optionally ndim, got {len(params)} items")
    dtype, ndim = params
    if typing.get_origin(ndim) is typing.Literal:
        values = typing.get_args(ndim)
        if len(values) != 1:
            raise TypeError(f"Expected a single Literal value for ndim, got {ndim!r}")
        ndim = values[0]
    return dtype, ndim


def _name(dtype):
    """A dtype as Warp's view() messages name it ("float32", "vec4f")."""
    return getattr(dtype, "__name__", None) or repr(dtype)


def packed_strides(shape, itemsize):
    """The byte strides of a packed (C-order) block of `shape` items of `itemsize` bytes."""
    out, step = [], itemsize
    for n in reversed(shape):
        out.append(step)
        step *= n
    return tuple(reversed(out))


def view_layout(src, src_size, dt, dt_size, shape, strides, has_struct):
    """(shape, strides) of a view as ``dt`` of an array of ``src`` elements (sizes in bytes)
    of a different size: the scalar of a vector/matrix ``src`` (its components become
    trailing dimensions), or a vector/matrix ``dt`` of the scalar ``src`` (trailing
    dimensions become the elements). Warp's TypeError / RuntimeError otherwise."""
    inner_src = getattr(src, "_wp_scalar_type_", None)
    inner_dt = getattr(dt, "_wp_scalar_type_", None)
    prefix = f"cannot create an array view with dtype {_name(dt)} from source dtype {_name(src)}"
    if inner_dt is None and inner_src is not None and not has_struct:
        if dt_size != inner_src._type.size:
            raise TypeError(f"{prefix}: source scalar dtype {_name(inner_src)} has size "
                            f"{inner_src._type.size} bytes, but target dtype has size "
                            f"{dt_size} bytes")
        inner = tuple(src._shape)
        return (*shape, *inner), (*strides, *packed_strides(inner, dt_size))
    if inner_dt is not None and inner_src is None and not has_struct:
        if src_size != inner_dt._type.size:
            raise TypeError(f"{prefix}: source dtype has size {src_size} bytes, but target "
                            f"scalar dtype {_name(inner_dt)} has size {inner_dt._type.size} "
                            "bytes")
        inner = tuple(dt._shape)
        k = len(inner)
        if len(shape) < k or tuple(shape[-k:]) != inner:
            raise RuntimeError(f"The shape of the source array {tuple(shape)} is not compatible "
                               f"with the requested data type {_name(dt)}")
        if tuple(strides[-k:]) != packed_strides(inner, src_size):
            raise RuntimeError(f"The inner strides of the source array {tuple(strides)} are not "
                               f"compatible with the requested data type {_name(dt)}")
        return tuple(shape[:-k]) or (1,), tuple(strides[:-k]) or (dt_size,)
    raise TypeError(f"{prefix}: source dtype has size {src_size} bytes, but target dtype has "
                    f"size {dt_size} bytes")
