"""wp.fabricarray and wp.indexedfabricarray: arrays whose elements live in buckets of memory
owned by someone else (Warp's types for USD Fabric attributes), and their arrays-of-arrays
forms wp.fabricarrayarray / wp.indexedfabricarrayarray.

A Fabric array is made from a Fabric interface dictionary (or an object with
``__fabric_arrays_interface__``): ``{"version": 1, "device": "cpu", "attribs": {name: info}}``
where ``info`` holds the attribute's ``type`` (a 5-tuple: usable in Warp, base type code such
as "f4", component count, array depth, role), ``access``, ``pointers`` and ``counts`` (one
entry per bucket) and, for arrays of arrays, ``array_lengths`` (per bucket, the address of the
elements' uint64 lengths). The bucket table goes to the array's device as a (buckets, 4)
uint64 array: index_start, index_end, pointer, lengths (native/treadle/fabricarray.h reads
it). Neither class owns the data: keep the Fabric storage alive while they are in use.
"""

import math
from typing import Any

import numpy as np

from . import _treadle, scalar_types
from . import cpu_capture as _cpu_capture
from .array import _annotation_dtype, _dtype_text, array, empty
from .context import get_device
from .quat_types import quaternion
from .shapes import subscript_params
from .struct import register_fabric_classes
from .vec_types import matrix, vector

_BASE_TYPES = {
    "b": scalar_types.bool, "i1": scalar_types.int8, "i2": scalar_types.int16,
    "i4": scalar_types.int32, "i8": scalar_types.int64, "u1": scalar_types.uint8,
    "u2": scalar_types.uint16, "u4": scalar_types.uint32, "u8": scalar_types.uint64,
    "f2": scalar_types.float16, "f4": scalar_types.float32, "f8": scalar_types.float64,
}


def fabric_to_warp_dtype(type_info, attrib_name):
    """The element type of a Fabric attribute from its 5-tuple type description."""
    if not type_info[0]:
        raise RuntimeError(f"Attribute '{attrib_name}' cannot be used in Warp")
    base = _BASE_TYPES.get(type_info[1])
    if base is None:
        raise RuntimeError(
            f"Attribute '{attrib_name}' base data type '{type_info[1]}' is not supported in Warp")
    count, role = type_info[2], type_info[4]
    if role in ("text", "path"):
        raise RuntimeError(f"Attribute '{attrib_name}' role '{role}' is not supported in Warp")
    if count <= 1:
        return base
    if role == "quat" and count == 4:
        return quaternion(base)
    if role in ("matrix", "transform", "frame"):
        n = math.isqrt(count)
        if n * n != count:
            raise RuntimeError(
                f"Attribute '{attrib_name}': a matrix of {count} components is not square")
        return matrix((n, n), base)
    return vector(count, base)


def _interface(data):
    if isinstance(data, dict):
        return data
    if hasattr(data, "__fabric_arrays_interface__"):
        return data.__fabric_arrays_interface__
    raise ValueError("Invalid data argument for fabricarray: expected dict or object with "
                     "__fabric_arrays_interface__")


def _np_shape(dtype):
    return tuple(getattr(dtype, "_shape", ()))


class _fabric_base:
    """What both Fabric array classes share: type, host reads and element writes."""

    _fabric_indexed = False
    _fabric_type = None  # the interned type of a real array; None for annotations
    _fabric_buckets = None
    _fabric_count = 0
    _fabric_indices = None

    def __class_getitem__(cls, params):
        """``wp.fabricarray[float]`` / ``wp.fabricarray[float, Literal[2]]``: annotations."""
        dtype, ndim = subscript_params(params, cls.__name__)
        return cls(dtype=dtype, ndim=ndim)

    @property
    def _type(self):
        """The compiler's interned type of this array or annotation (a ``_treadle.Type``)."""
        ndim = 1 if self.ndim is Any else self.ndim
        return _treadle.types.array(scalar_types.type_of(self.dtype), ndim,
                                    indexed=self._fabric_indexed, fabric=True)

    @property
    def is_contiguous(self):
        return False

    @property
    def requires_grad(self):
        return False

    @property
    def grad(self):
        return None

    @property
    def pinned(self):
        return False

    def _check_real(self, what):
        if self.device is None:
            raise TypeError(f"{what}: this is a {type(self).__name__} type annotation")

    def _check_flat(self, what):
        if self.ndim != 1:
            raise RuntimeError(f"{what}: the elements of a Fabric array of arrays differ in "
                               "length, so it has no flat form")

    def __len__(self):
        return self.size

    def _empty_values(self):
        return np.empty((0, *_np_shape(self.dtype)), dtype=self.dtype._np_dtype)

    def fill_(self, value):
        """Sets every element to ``value`` (converted to the dtype, as array.fill_)."""
        self._check_real("fill_()")
        if self.ndim > 1:
            kind = "indexed Fabric" if self._fabric_indexed else "Fabric"
            raise RuntimeError(f"Filling {kind} arrays of arrays is not supported")
        one = empty(1, dtype=self.dtype, device="cpu")
        one.fill_(value)
        self._write(np.broadcast_to(one.numpy()[0], (self.size, *_np_shape(self.dtype))))

    def zero_(self):
        """Sets every element to zero."""
        self._check_real("zero_()")
        self._check_flat("zero_()")
        self._write(np.zeros((self.size, *_np_shape(self.dtype)), dtype=self.dtype._np_dtype))

    def assign(self, src):
        """Copies ``src`` (an array of any kind, numpy array or nested list of this shape)
        into the elements."""
        self._check_real("assign()")
        self._check_flat("assign()")
        if hasattr(src, "numpy") and hasattr(src, "dtype") and not isinstance(src, np.ndarray):
            if src.dtype is not self.dtype:
                raise TypeError(f"assign(): cannot copy {_dtype_text(src.dtype)} data into a "
                                f"{_dtype_text(self.dtype)} Fabric array")
            values = src.numpy()
        else:
            values = array(src, dtype=self.dtype, device="cpu").numpy()
        if values.shape[:1] != self.shape:
            raise ValueError(f"assign(): shape mismatch: destination {self.shape}, source "
                             f"{values.shape[:1]}")
        self._write(values)

    def contiguous(self):
        """A new contiguous array holding the elements (on the same device)."""
        self._check_real("contiguous()")
        return array(self.numpy(), dtype=self.dtype, device=self.device)

    def list(self):
        """The elements as a flat Python list (of vectors / matrices for such dtypes)."""
        dt = self.dtype
        values = self.numpy()
        if isinstance(dt, type) and hasattr(dt, "_from_memory") and hasattr(dt, "_shape"):
            return [dt._from_memory(x) for x in values.reshape((-1, *dt._shape))]
        return values.reshape(-1).tolist()

    def __str__(self):
        if self.device is None:
            return f"{type(self).__name__}{_dtype_text(self.dtype)}"
        return str(self.numpy())

    def __repr__(self):
        if self.device is None:
            return f"{type(self).__name__}(dtype={_dtype_text(self.dtype)}, ndim={self.ndim})"
        return (f"{type(self).__name__}({self.numpy()!r}, dtype={_dtype_text(self.dtype)}, "
                f"device={self.device})")


class fabricarray(_fabric_base):
    """``wp.fabricarray(data=iface, attrib="name")``: the attribute ``name`` of a Fabric
    interface (see the module docstring) as an array of ``size`` elements. Kernels read,
    write and update elements (``a[i]``, atomics); ``a[i]`` of a Fabric array of arrays
    (``ndim=2``) is element i as a 1-D array. ``fa[index_array]`` is an indexedfabricarray.
    Without data it is a type annotation: ``wp.fabricarray(dtype=float)``."""

    def __init__(self, data=None, attrib=None, dtype=Any, ndim=None):
        self._bucket_rows = []
        if data is None:
            self.dtype = _annotation_dtype(dtype)
            self.ndim = 1 if ndim is None else ndim
            self.device, self.access, self.size, self.shape = None, None, 0, (0,)
            return
        if not isinstance(attrib, str):
            raise ValueError(f"Invalid attribute name: {attrib}")
        iface = _interface(data)
        version = iface.get("version")
        if version != 1:
            raise ValueError(f"Unsupported Fabric interface version: {version}")
        device = iface.get("device")
        if not isinstance(device, str):
            raise ValueError(f"Invalid Fabric interface device: {device}")
        attribs = iface.get("attribs")
        if not isinstance(attribs, dict):
            raise ValueError("Failed to get Fabric interface attributes")
        info = attribs.get(attrib)
        if not isinstance(info, dict):
            raise ValueError(f"Failed to get attribute '{attrib}'")
        self.device = get_device(device)
        self.dtype = fabric_to_warp_dtype(info["type"], attrib)
        self.access = info.get("access")
        pointers, counts = info["pointers"], info["counts"]
        if not (hasattr(pointers, "__len__") and hasattr(counts, "__len__")
                and len(pointers) == len(counts)):
            raise RuntimeError("Attribute pointers and counts must be lists of the same size")
        depth = info["type"][3]
        if depth == 0:
            self.ndim, lengths = 1, [0] * len(pointers)
        elif depth == 1:
            self.ndim, lengths = 2, info["array_lengths"]
            if not hasattr(lengths, "__len__") or len(lengths) != len(pointers):
                raise RuntimeError("Attribute `array_lengths` must be a list of the same size "
                                   "as `pointers` and `counts`")
        else:
            raise ValueError(f"Invalid attribute array depth: {depth}")
        if ndim is not None and ndim != self.ndim:
            raise ValueError(f"fabricarray(): attribute '{attrib}' has {self.ndim} "
                             f"dimension(s), not {ndim}")
        start = 0
        for p, c, n in zip(pointers, counts, lengths):
            self._bucket_rows.append((start, start + int(c), int(p or 0), int(n or 0)))
            start += int(c)
        self.size, self.shape = start, (start,)
        if self._bucket_rows:
            table = np.array(self._bucket_rows, dtype=np.uint64)
            self._fabric_buckets = array(table, dtype=scalar_types.uint64, device=self.device)
        self._fabric_count = start
        self._fabric_type = self._type

    def __del__(self):
        """Drops the bucket table (the Fabric data itself is not this array's)."""
        self.__dict__.pop("_fabric_buckets", None)

    def __getitem__(self, key):
        if isinstance(key, array):
            return indexedfabricarray(fa=self, indices=key)
        raise ValueError("Fabric arrays only support indexing using index arrays, got key of "
                         f"type {type(key)}")

    def _bucket_views(self):
        """(start, end, array view of the bucket's elements) for every non-empty bucket."""
        for start, end, ptr, _ in self._bucket_rows:
            if end > start:
                yield start, end, array(ptr=ptr, shape=(end - start,), dtype=self.dtype,
                                        device=self.device)

    def numpy(self):
        """A host copy of the elements, in bucket order."""
        self._check_real("numpy()")
        self._check_flat("numpy()")
        parts = [view.numpy() for _, _, view in self._bucket_views()]
        return np.concatenate(parts) if parts else self._empty_values()

    def _write(self, values):
        """Writes ``values`` (numpy, in memory form, one row per element) bucket by bucket."""
        if _cpu_capture.depth[0] and _cpu_capture.active() and self.device.is_cpu:
            _cpu_capture.refuse("writing a Fabric array (fill_, zero_, assign, copy)")
        values = np.ascontiguousarray(values, dtype=self.dtype._np_dtype)
        for start, end, view in self._bucket_views():
            view._assign(array(values[start:end], dtype=self.dtype, device="cpu"))


def fabricarrayarray(**kwargs):
    """A Fabric array of arrays: ``fabricarray(..., ndim=2)``."""
    kwargs["ndim"] = 2
    return fabricarray(**kwargs)


class indexedfabricarray(_fabric_base):
    """``fa[indices]`` or ``wp.indexedfabricarray(fa, indices)``: element i is element
    ``indices[i]`` of the Fabric array ``fa`` (``indices`` a 1-D int32 array on its device).
    Without ``fa`` it is a type annotation: ``wp.indexedfabricarray(dtype=float)``."""

    _fabric_indexed = True

    def __init__(self, fa=None, indices=None, dtype=None, ndim=None):
        if fa is None:
            self.fa, self.indices = None, None
            self.dtype = _annotation_dtype(Any if dtype is None else dtype)
            self.ndim = 1 if ndim is None else ndim
            self.device, self.size, self.shape = None, 0, (0,)
            return
        if not isinstance(fa, fabricarray) or fa.device is None:
            raise TypeError(f"indexedfabricarray(): fa must be a wp.fabricarray, got "
                            f"{type(fa).__name__}")
        if not isinstance(indices, array):
            raise ValueError(f"Indices must be a Warp array, got {type(indices)}")
        if indices.ndim != 1:
            raise ValueError(f"Index array must be one-dimensional, got {indices.ndim}")
        if indices.dtype is not scalar_types.int32:
            raise ValueError(f"Index array must use int32, got dtype {indices.dtype}")
        if indices.device != fa.device:
            raise ValueError(f"Index array device ({indices.device} does not match data array "
                             f"device ({fa.device}))")
        if not indices.is_contiguous:
            indices = indices.contiguous()
        self.fa, self.indices = fa, indices
        self.dtype, self.ndim, self.device = fa.dtype, fa.ndim, fa.device
        self.size, self.shape = indices.size, (indices.size,)
        self._fabric_buckets, self._fabric_count = fa._fabric_buckets, fa.size
        self._fabric_indices = indices
        self._fabric_type = self._type

    def _picks(self):
        return self.indices.numpy().astype(np.int64)

    def numpy(self):
        """A host copy of the indexed elements."""
        self._check_real("numpy()")
        self._check_flat("numpy()")
        if self.size == 0:
            return self._empty_values()
        return np.array(self.fa.numpy()[self._picks()], copy=True)

    def _write(self, values):
        """Writes ``values`` to the indexed elements: the Fabric array's elements go through
        the host (read, update of the picked ones, write back)."""
        if self.size == 0:
            return
        host = np.array(self.fa.numpy(), copy=True)
        host[self._picks()] = values
        self.fa._write(host)


def indexedfabricarrayarray(**kwargs):
    """An indexed Fabric array of arrays: ``indexedfabricarray(..., ndim=2)``."""
    kwargs["ndim"] = 2
    return indexedfabricarray(**kwargs)


register_fabric_classes(fabricarray, indexedfabricarray)  # struct fields read back as stubs

__all__ = ["fabricarray", "fabricarrayarray", "indexedfabricarray", "indexedfabricarrayarray"]
