"""wp.indexedarray: a view of an array through per-dimension int32 index arrays (Warp's type)."""

import math
from typing import Any

import numpy as np

from . import _treadle, scalar_types
from . import cpu_capture as _cpu_capture
from .array import _annotation_dtype, _dtype_text, array, empty, register_indexedarray, zeros
from .shapes import check_ndim, subscript_params


class indexedarray:
    """``wp.indexedarray(data, indices)``: element ``[i, j, ...]`` is ``data[indices[0][i],
    indices[1][j], ...]``. ``indices`` holds one entry per dimension of ``data`` (a 1-D int32
    array, or anything numpy turns into one, copied to ``data``'s device; None takes the whole
    dimension); a single array indexes the first dimension. Kernels read, write and update
    it like an array (``a[i]``, ``a.shape``, atomics, ``len``); its gradient is ``data``'s
    gradient through the same indices. With no data it is a type annotation for kernel
    parameters: ``wp.indexedarray(dtype=float, ndim=2)``."""

    _is_indexedarray = True
    _fixed_ndim = None

    def __init__(self, data=None, indices=None, dtype: Any = Any, ndim=None):
        if ndim is None:
            ndim = self._fixed_ndim
        elif self._fixed_ndim is not None and ndim != self._fixed_ndim:
            raise ValueError(f"{type(self).__name__}: ndim must be {self._fixed_ndim}")
        self._ann_dtype = None
        if data is None:
            self._ann_dtype = _annotation_dtype(dtype)
            self._ann_ndim = 1 if ndim is None else check_ndim(ndim)
            self.data, self.indices = None, [None] * self._ann_ndim
            return
        if not isinstance(data, array):
            raise TypeError(f"indexedarray(): data must be a wp.array, got {type(data).__name__}")
        if ndim is not None and ndim != data.ndim:
            raise ValueError(f"indexedarray(): data has {data.ndim} dimensions, expected {ndim}")
        if dtype is not Any and scalar_types.type_of(dtype) != data._dtype:
            raise TypeError("indexedarray(): dtype does not match the data array's dtype")
        if indices is None:
            indices = []
        elif isinstance(indices, array) or not isinstance(indices, (list, tuple)):
            indices = [indices]
        if len(indices) > data.ndim:
            raise ValueError(
                f"indexedarray(): {len(indices)} index arrays for a {data.ndim}-D array"
            )
        indices = list(indices) + [None] * (data.ndim - len(indices))
        self.data = data
        self.indices = [self._index_array(ix, d) for d, ix in enumerate(indices)]

    def _index_array(self, ix, d):
        if ix is None:
            return None
        if not isinstance(ix, array):
            ix = array(np.asarray(ix, dtype=np.int32).reshape(-1), dtype=scalar_types.int32,
                       device=self.data.device)
        if ix.dtype is not scalar_types.int32 or ix.ndim != 1:
            raise TypeError(f"indexedarray(): index array {d} must be a 1-D int32 array")
        if ix.device != self.data.device:
            raise ValueError(
                f"indexedarray(): index array {d} is on {ix.device}, the data on {self.data.device}"
            )
        if not ix.is_contiguous:
            ix = ix.contiguous()
        return ix

    def __class_getitem__(cls, params):
        """``wp.indexedarray[float]`` / ``wp.indexedarray[float, 2]`` (or ``Literal[2]``):
        annotation shorthand."""
        dtype, ndim = subscript_params(params, cls.__name__, cls._fixed_ndim)
        return cls(dtype=dtype) if ndim is None else cls(dtype=dtype, ndim=ndim)

    @property
    def _type(self):
        """The compiler's interned type of this indexed array or annotation (a ``_treadle.Type``)."""
        return _treadle.types.array(scalar_types.type_of(self.dtype), self.ndim, indexed=True)

    @property
    def dtype(self):
        return self._ann_dtype if self.data is None else self.data.dtype

    @property
    def ndim(self):
        return self._ann_ndim if self.data is None else self.data.ndim

    @property
    def shape(self):
        """Size of each indexed dimension: the length of its index array, or the data's."""
        if self.data is None:
            return (0,) * self._ann_ndim
        return tuple(
            self.data.shape[d] if ix is None else ix.shape[0] for d, ix in enumerate(self.indices)
        )

    @property
    def size(self):
        return math.prod(self.shape)

    @property
    def device(self):
        return None if self.data is None else self.data.device

    @property
    def requires_grad(self):
        return self.data is not None and self.data.requires_grad

    @property
    def grad(self):
        """The gradient seen through the same indices (None when the data has none)."""
        if self.data is None or self.data.grad is None:
            return None
        return indexedarray(self.data.grad, list(self.indices))

    def numpy(self):
        """A host copy of the indexed elements (numpy fancy indexing of ``data.numpy()``)."""
        if self.data is None:
            raise TypeError("numpy(): this is an indexedarray type annotation, not an array")
        values = self.data.numpy()
        picks = [
            np.arange(n) if ix is None else ix.numpy().astype(np.int64)
            for n, ix in zip(self.data.shape, self.indices)
        ]
        return np.array(values[np.ix_(*picks)], copy=True)

    @property
    def is_contiguous(self):
        """False: the elements are wherever the indices point."""
        return False

    @property
    def pinned(self):
        return False

    def _check_real(self, what):
        if self.data is None:
            raise TypeError(f"{what}: this is an indexedarray type annotation, not an array")

    def _picks(self):
        return [
            np.arange(n) if ix is None else ix.numpy().astype(np.int64)
            for n, ix in zip(self.data.shape, self.indices)
        ]

    def _scatter(self, values):
        """Writes `values` (numpy, in memory form: bfloat16 as bits, structs as records;
        broadcast to the indexed shape) to the indexed elements of ``data``. The data goes
        through the host (a read, an update of the picked elements, a write back), in order
        with the device's other work."""
        if self.size == 0:
            return
        if _cpu_capture.depth[0] and _cpu_capture.active() and self.data.device.is_cpu:
            _cpu_capture.refuse("writing an indexed array (fill_, zero_, assign)")
        host = np.array(self.data.numpy(), copy=True)
        host[np.ix_(*self._picks())] = values
        self.data._assign(array(host, dtype=self.dtype, device="cpu", copy=False))

    def fill_(self, value):
        """Sets every indexed element to ``value`` (converted to the dtype, as array.fill_).
        On a CUDA device, one kernel (asynchronous, and capturable in a graph)."""
        self._check_real("fill_()")
        one = empty(1, dtype=self.dtype, device="cpu")
        one.fill_(value)
        if self.data.device.is_cuda:
            if self.size:
                self.data._fill_indexed(self.indices, one.numpy().tobytes())
            return
        self._scatter(one.numpy()[0])

    def zero_(self):
        """Sets every indexed element to zero."""
        self._check_real("zero_()")
        if self.data.device.is_cuda:
            if self.size:
                raw = zeros(1, dtype=self.dtype, device="cpu").numpy().tobytes()
                self.data._fill_indexed(self.indices, raw)
            return
        self._scatter(zeros(1, dtype=self.dtype, device="cpu").numpy()[0])

    def assign(self, src):
        """Copies ``src`` (an array, indexed or Fabric array, numpy array or nested list of
        this shape) into the indexed elements."""
        self._check_real("assign()")
        fabric = getattr(src, "_fabric_indexed", None) is not None  # a Fabric array
        if isinstance(src, (array, indexedarray)) or fabric:
            if src.dtype is not self.dtype:
                raise TypeError(
                    f"assign(): cannot copy {_dtype_text(src.dtype)} data into a "
                    f"{_dtype_text(self.dtype)} indexed array"
                )
            if self.data.device.is_cuda and src.device == self.data.device:
                if src.shape != self.shape:
                    raise ValueError(
                        f"assign(): shape mismatch: destination {self.shape}, source "
                        f"{src.shape}")
                if self.size:  # one kernel on the device
                    if isinstance(src, indexedarray):
                        self.data._assign_indexed(self.indices, src.data, src.indices)
                    else:
                        self.data._assign_indexed(self.indices, src, [None] * src.ndim)
                return
            values = src.numpy()
        else:
            values = array(src, dtype=self.dtype, device="cpu").numpy()
        if values.shape[: self.ndim] != self.shape:
            raise ValueError(
                f"assign(): shape mismatch: destination {self.shape}, source "
                f"{values.shape[: self.ndim]}"
            )
        self._scatter(values)

    def contiguous(self):
        """A new contiguous array holding the indexed elements (on the same device)."""
        self._check_real("contiguous()")
        return array(self.numpy(), dtype=self.dtype, device=self.device)

    def list(self):
        """The elements as a flat Python list (of vectors / matrices for such dtypes)."""
        dt = self.dtype
        if isinstance(dt, type) and hasattr(dt, "_from_memory") and hasattr(dt, "_shape"):
            return [dt._from_memory(x) for x in self.numpy().reshape((-1, *dt._shape))]
        values = self.numpy()
        if scalar_types.holds_bits(dt):
            values = scalar_types.bfloat16_bits_to_float32(values)
        return values.reshape(-1).tolist()

    def __len__(self):
        return self.shape[0]

    def __repr__(self):
        if self.data is None:
            return f"indexedarray(dtype={_dtype_text(self._ann_dtype)}, ndim={self._ann_ndim})"
        return (f"indexedarray({self.numpy()!r}, dtype={_dtype_text(self.dtype)}, "
                f"device={self.device})")


class indexedarray1d(indexedarray):
    """A 1-D indexed array (or annotation ``wp.indexedarray1d(dtype=float)``)."""

    _fixed_ndim = 1


class indexedarray2d(indexedarray):
    """A 2-D indexed array (or annotation ``wp.indexedarray2d(dtype=float)``)."""

    _fixed_ndim = 2


class indexedarray3d(indexedarray):
    """A 3-D indexed array (or annotation ``wp.indexedarray3d(dtype=float)``)."""

    _fixed_ndim = 3


class indexedarray4d(indexedarray):
    """A 4-D indexed array (or annotation ``wp.indexedarray4d(dtype=float)``)."""

    _fixed_ndim = 4


__all__ = ["indexedarray", "indexedarray1d", "indexedarray2d", "indexedarray3d", "indexedarray4d"]


register_indexedarray(indexedarray)  # a[index_array] makes one
