"""treadle.array (Warp's wp.array) on the CPU or a CUDA device, and zeros/full/copy/..."""

import builtins
import math
from typing import Any

import numpy as np

from . import _treadle, scalar_types
from . import cpu_capture as _cpu_capture
from . import array_grad as _array_grad
from . import memory_tracker as _memory_tracker
from . import tape as _tape
from .array_arithmetic import ArrayArithmetic
from .array_ctypes import ArrayCtypes
from .array_interfaces import ArrayInterfaces
from .context import get_device
from .scalar_types import Float, Int, Scalar, is_type_class, resolve_dtype, scalar_base
from .shapes import check_ndim, is_int, shape_tuple, subscript_params, view_layout
from .struct import is_struct_type, struct_type_of_data
from .type_classes import class_of
from .vec_types import composite_base

_GENERIC_DTYPES = (Any, Int, Float, Scalar)


def _annotation_dtype(dtype):
    if any(dtype is g for g in _GENERIC_DTYPES):
        return dtype
    return resolve_dtype(dtype)


def _dtype_text(dtype):
    """How messages and reprs name an element type class: its compiler type key ("float32",
    "vector:3:float32"); a generic marker by its name."""
    if is_type_class(dtype):
        return dtype._type.key
    return getattr(dtype, "__name__", None) or repr(dtype)


def _host_values(a):
    """The numpy values of treadle array ``a`` (bfloat16 bits converted to float32)."""
    out = a.numpy()
    if scalar_types.holds_bits(a.dtype):
        return scalar_types.bfloat16_bits_to_float32(out)
    return out


def _new_null():
    out = array.__new__(array)
    _treadle.Array.__init__(out)
    return out


def _no_indexedarray(data, indices):
    raise RuntimeError("indexing by index arrays needs treadle.indexedarray (import treadle)")


_make_indexedarray = _no_indexedarray
"""Makes ``indexedarray(data, indices)``: indexedarray.py, which imports this module, registers
its class here (register_indexedarray), so that ``a[index_array]`` can make one."""


def register_indexedarray(cls):
    """Sets the class that ``a[index_array]`` makes (called once by indexedarray.py)."""
    global _make_indexedarray
    _make_indexedarray = cls


def _wrap(native):
    """A treadle.array sharing memory (and grad) with a native _treadle.Array."""
    out = _new_null()
    out._init_view_of(native)
    return out


class _Deleter:
    """Calls a Warp-style ``deleter(ptr, size)`` once the last view of external memory dies."""

    def __init__(self, deleter, ptr, size):
        self.deleter, self.ptr, self.size = deleter, ptr, size

    def __del__(self):
        self.deleter(self.ptr, self.size)


class array(ArrayArithmetic, ArrayCtypes, ArrayInterfaces, _treadle.Array):
    """A fixed-size array of 1 to 4 dimensions on a device (Warp's ``wp.array``).

    ``wp.array(data)`` copies a numpy array, list or tuple (dtype inferred like numpy:
    Python floats give float64, ints int64; ``dtype=`` converts) to ``device``; ``copy=False``
    aliases a CPU numpy array when no conversion is needed. An object exporting
    ``__cuda_array_interface__`` (CuPy, PyTorch, ...) is copied, or aliased with ``copy=False``
    when ``device`` is its CUDA device. ``wp.array(ptr=..., dtype=..., shape=...)`` wraps
    external memory (a host address, or a device address with a CUDA ``device``).
    ``wp.array(shape=..., dtype=...)`` allocates. With none of data, ptr and shape it is a type
    annotation for kernel parameters: ``wp.array(dtype=float, ndim=2)``, with ``.dtype`` and
    ``.ndim`` only."""

    _ann_dtype = None  # the dtype of an annotation object; None for real arrays
    _ann_ndim = 0
    _fixed_ndim = None

    def __init__(
        self,
        data=None,
        dtype: Any = Any,
        shape=None,
        strides=None,
        ptr=None,
        capacity=None,
        device=None,
        copy=True,
        requires_grad=False,
        pinned=False,
        ndim=None,
        grad=None,
        deleter=None,
        retain_grad=False,
    ):
        super().__init__()
        if ndim is None:
            ndim = self._fixed_ndim
        elif self._fixed_ndim is not None and ndim != self._fixed_ndim:
            raise ValueError(f"{type(self).__name__}: ndim must be {self._fixed_ndim}")
        if data is None and ptr is None and shape is None:
            self._ann_dtype = _annotation_dtype(dtype)
            self._ann_ndim = 1 if ndim is None else check_ndim(ndim)
            return
        dev = get_device(device)
        if data is not None:
            if ptr is not None:
                raise ValueError("array(): give either data or ptr, not both")
            self._init_from_data(data, dtype, shape, dev, copy)
            if _check_pinned(pinned, dev) and not self._pinned:
                self._init_view_of(_pinned_copy(self))
        elif ptr is not None:
            self._init_from_pointer(ptr, dtype, shape, strides, capacity, dev, deleter)
        else:
            if dtype is Any:
                raise TypeError("array(): a dtype is required to allocate an array from a shape")
            self._init_empty(resolve_dtype(dtype)._type, list(shape_tuple(shape)), dev.alias,
                             False, _check_pinned(pinned, dev))
        if ptr is None:
            _memory_tracker.note_if_tracking(self, self._pinned)
        if ndim is not None and self._ndim != ndim:
            raise ValueError(f"array(): the data has {self._ndim} dimensions, but ndim={ndim}")
        if grad is not None:
            self.grad = grad
        elif requires_grad:
            self.requires_grad = True
        self.retain_grad = retain_grad

    def _init_from_data(self, data, dtype, shape, dev, copy):
        if isinstance(data, array):
            data._check_real("array()")
            if dtype is Any or resolve_dtype(dtype) is data.dtype:
                src = data if shape is None else data.reshape(shape_tuple(shape))
                native = src._clone(dev.alias) if copy or dev != src.device else src
                self._init_view_of(native)
                if copy:
                    self._set_grad(None)
                return
            data = _host_values(data)
        if not isinstance(data, np.ndarray):
            cai = getattr(data, "__cuda_array_interface__", None)
            # An object that also exports __array_interface__ hands out host memory: it is
            # read through numpy (CUDA libraries' arrays export device memory alone).
            if cai is not None and not hasattr(data, "__array_interface__"):
                self._init_from_cuda_interface(data, cai, dtype, shape, dev, copy)
                return
        struct_type = struct_type_of_data(data, dtype)
        if struct_type is not None:  # records seen as bytes (..., size)
            raw, alias = struct_type._bytes_of(data, shape)
            self._init_from_numpy(raw, dev.alias, not (alias and not copy and dev.is_cpu),
                                  struct_type._type)
            return
        if isinstance(data, scalar_base):
            if dtype is Any:
                dtype = type(data)
            data = data.value
        if dtype is Any and isinstance(data, (list, tuple, composite_base)) and len(data):
            first = data if isinstance(data, composite_base) else data[0]
            if isinstance(first, composite_base):
                dtype = type(first)
        target = None if dtype is Any else resolve_dtype(dtype)
        inner = getattr(target, "_shape", ())
        aliasable = isinstance(data, np.ndarray)
        bits = scalar_types.holds_bits(target)
        try:
            if aliasable or hasattr(data, "__array_interface__") or hasattr(data, "__array__"):
                arr = np.asarray(data)
            else:  # bfloat16 values are rounded once, from float64
                arr = np.array(data, dtype=None if target is None else
                               np.float64 if bits else target._np_dtype)
        except (TypeError, ValueError, OverflowError) as e:
            raise ValueError(
                f"array(): cannot convert data of type {type(data).__name__} to an array: {e}"
            ) from None
        if target is None:
            try:
                target = scalar_types.dtype_from_numpy(arr.dtype)
            except TypeError:
                raise TypeError(
                    f"array(): unsupported data type {arr.dtype}; supported: "
                    + ", ".join(t.__name__ for t in scalar_types.scalar_types)
                ) from None
        arr = scalar_types.to_memory(arr, target, raw_bits=True)
        if inner and shape is None and arr.size == 0 and arr.shape[-len(inner) :] != inner:
            arr = arr.reshape((0, *inner))  # no data, such as []: no elements of the dtype
        if inner and shape is None and arr.ndim >= 1 and arr.shape[-len(inner) :] != inner:
            while arr.ndim > 1 and arr.shape[-1] == 1:  # Warp drops inner dimensions of 1 first:
                arr = arr[..., 0]  # data (n, 2, 1) as vec2: shape (n,)
            # Warp's rule: a last dimension of n components is one element of the dtype, of
            # a multiple of n several (data (2, 6) as vec3: shape (2, 2))
            n, last = math.prod(inner), arr.shape[-1]
            if last == n:
                arr = arr.reshape((*arr.shape[:-1], *inner))
            elif last and last % n == 0:
                arr = arr.reshape((*arr.shape[:-1], last // n, *inner))
        if arr.ndim == len(inner):
            arr = arr.reshape((1, *arr.shape))
        if inner and shape is None and arr.shape[arr.ndim - len(inner) :] != inner:
            raise ValueError(
                f"array(): data of shape {arr.shape} does not end in the shape {inner} of "
                f"dtype {target.__name__}"
            )
        if shape is not None:
            shape = shape_tuple(shape) + inner
            if arr.shape != shape:
                if arr.size != math.prod(shape):
                    raise ValueError(
                        f"array(): data of shape {arr.shape} (size {arr.size}) does not fit "
                        f"shape {shape}"
                    )
                arr = arr.reshape(shape)
        if arr.ndim - len(inner) > 4:
            raise ValueError(f"array(): data has {arr.ndim} dimensions; arrays have 1 to 4")
        if inner and not arr.flags.c_contiguous:
            arr = np.ascontiguousarray(arr)  # the native side needs packed elements
        alias = not copy and dev.is_cpu and arr.flags.writeable
        typed = inner or scalar_types.holds_bits(target)  # (bfloat16: maybe inferred above)
        self._init_from_numpy(arr, dev.alias, not alias, target._type if typed else None)

    def _init_from_cuda_interface(self, data, cai, dtype, shape, dev, copy):
        """Aliases or copies the memory an object exports with ``__cuda_array_interface__``;
        the memory is taken to be on ``dev`` when that is a CUDA device, else on the current
        CUDA device."""
        src_dev = dev if dev.is_cuda else get_device("cuda")
        try:
            src_type = scalar_types.dtype_from_numpy(np.dtype(cai["typestr"]))
        except TypeError:
            raise TypeError(
                f"array(): unsupported __cuda_array_interface__ typestr {cai['typestr']!r}"
            ) from None
        src_shape = tuple(builtins.int(n) for n in cai["shape"]) or (1,)
        strides = cai.get("strides") if cai["shape"] else None
        if len(src_shape) > 4:
            raise ValueError(f"array(): data has {len(src_shape)} dimensions; arrays have 1 to 4")
        if cai.get("stream") is not None:
            # Work on the exporter's stream must finish first; waiting for the whole device is
            # the one wait treadle has that covers any stream.
            _treadle.synchronize_device(src_dev.ordinal)
        view = _new_null()
        view._init_from_ptr(
            builtins.int(cai["data"][0]),
            src_type._type,
            list(src_shape),
            [] if strides is None else [builtins.int(x) for x in strides],
            src_dev.alias,
            data,
        )
        view = _wrap(view)
        if dtype is not Any and resolve_dtype(dtype) is not src_type:
            self._init_from_data(view.numpy(), dtype, shape, dev, True)
            return
        src = view if shape is None else view.reshape(shape_tuple(shape))
        self._init_view_of(src._clone(dev.alias) if copy or dev != src_dev else src)

    def _init_from_pointer(self, ptr, dtype, shape, strides, capacity, dev, deleter):
        if dtype is Any:
            raise TypeError("array(): a dtype is required to wrap a pointer")
        dt = resolve_dtype(dtype)
        if shape is None:
            if capacity is None:
                raise ValueError("array(): wrapping a pointer needs a shape (or a capacity)")
            shape = capacity // dt._size
        shape = shape_tuple(shape)
        strides = [] if strides is None else [builtins.int(s) for s in strides]
        ptr = builtins.int(ptr)
        if not 0 <= ptr < 1 << 64:
            raise ValueError(f"array(): ptr must be an address in [0, 2^64) (got {ptr})")
        if any(not -(1 << 63) <= s < 1 << 63 for s in strides):
            raise ValueError(f"array(): strides must fit 64 bits (got {strides})")
        size = capacity if capacity is not None else math.prod(shape) * dt._size
        owner = None if deleter is None else _Deleter(deleter, ptr, size)
        self._init_from_ptr(ptr, dt._type, list(shape), strides, dev.alias, owner)

    def __class_getitem__(cls, params):
        """``wp.array[float]`` / ``wp.array[float, 2]`` / ``wp.array[float, Literal[2]]``:
        annotation shorthand."""
        dtype, ndim = subscript_params(params, cls.__name__, cls._fixed_ndim)
        return cls(dtype=dtype) if ndim is None else cls(dtype=dtype, ndim=ndim)

    # --- attributes -----------------------------------------------------------------------

    @property
    def _is_annotation(self):
        return self._ann_dtype is not None

    def _check_real(self, what):
        if self._is_null:
            if self._is_annotation:
                raise TypeError(f"{what}: this is an array type annotation, not an array")
            raise ValueError(f"{what}: the array is null")

    @property
    def _type(self):
        """The compiler's interned type of this array or annotation (a ``_treadle.Type``)."""
        if self._ann_dtype is not None:
            return _treadle.types.array(scalar_types.type_of(self._ann_dtype), self._ann_ndim)
        return _treadle.types.array(self._dtype, self._ndim)

    @property
    def dtype(self):
        """The element type (a scalar type class such as ``wp.float32``, a vector, matrix,
        quaternion or transform class such as ``wp.vec3``, or a @wp.struct class)."""
        if self._ann_dtype is not None:
            return self._ann_dtype
        return class_of(self._dtype)

    def _np_layout(self):
        """Shape and byte strides of the numpy view: vector/matrix elements add dimensions."""
        inner, item = getattr(self.dtype, "_shape", ()), self.dtype._np_memory.itemsize
        inner_strides = tuple(item * math.prod(inner[i + 1 :]) for i in range(len(inner)))
        return self._shape + inner, self._strides + inner_strides

    @property
    def ndim(self):
        """Number of dimensions."""
        return self._ann_ndim if self._ann_dtype is not None else self._ndim

    @property
    def shape(self):
        """Size of each dimension (a tuple)."""
        return (0,) * self._ann_ndim if self._ann_dtype is not None else self._shape

    @property
    def strides(self):
        """Byte distance between neighbours along each dimension (a tuple)."""
        return self._strides

    @property
    def size(self):
        """Number of elements."""
        return self._size

    @property
    def capacity(self):
        """Bytes spanned by the elements (size times element size for contiguous arrays)."""
        if self._is_null:
            return 0
        if self._is_contiguous:
            return self._size * self._itemsize
        return builtins.sum((n - 1) * s for n, s in zip(self._shape, self._strides)) + (
            self._itemsize if self._size else 0
        )

    @property
    def device(self):
        """The Device holding the memory (None for annotations)."""
        return None if self._is_null else get_device(self._device_alias)

    @property
    def ptr(self):
        """The first element's address (None for annotations, null and empty arrays)."""
        return None if self._is_null or self._size == 0 else self._ptr

    @property
    def pinned(self):
        """Whether the memory is pinned (page-locked) host memory; ``pinned=True`` gives plain
        memory when CUDA is not available, and this then says False."""
        return False if self._is_null else self._pinned

    @property
    def is_contiguous(self):
        """Whether the elements are packed in row-major order."""
        return self._is_contiguous

    @property
    def requires_grad(self):
        """Whether the array has a gradient array; setting True allocates a zeroed one."""
        return self._has_grad

    @requires_grad.setter
    def requires_grad(self, value):
        if value and not self._has_grad:
            self._check_real("requires_grad")
            self._enable_grad()  # same strides as the array, also for strided views
        elif not value:
            self._set_grad(None)
            self._retain_grad = False

    retain_grad = _array_grad.retain_grad

    @property
    def grad(self):
        """The gradient array (a treadle array) or None."""
        g = self._get_grad()
        return None if g is None else _wrap(g)

    @grad.setter
    def grad(self, value):
        if value is None:
            self._set_grad(None)
            return
        self._check_real("grad")
        if not isinstance(value, array):
            value = array(value, dtype=self.dtype, device=self.device)
        if value.shape != self.shape or value.dtype is not self.dtype:
            raise ValueError(
                f"grad must have the array's shape {self.shape} and dtype "
                f"{_dtype_text(self.dtype)}, got shape {value.shape} and dtype "
                f"{_dtype_text(value.dtype)}"
            )
        if value.strides != self.strides:
            # kernels address the gradient with the array's strides
            raise ValueError(
                f"grad must have the array's strides {self.strides}, got {value.strides}; "
                "use requires_grad=True for a gradient laid out like the array"
            )
        self._set_grad(value)

    # --- data access ----------------------------------------------------------------------

    def numpy(self):
        """A numpy array of the data: on the CPU it aliases the memory; of a CUDA array a host
        copy after the device's work. bfloat16 data is ml_dtypes.bfloat16 (or uint16 bits)."""
        self._check_real("numpy()")
        if self._size == 0:
            if self._dtype.kind == "struct":
                return np.empty(self._shape, dtype=self.dtype._np_dtype)
            empty = np.empty(self._np_layout()[0], dtype=self.dtype._np_memory)
            return scalar_types.as_shown(self.dtype, empty)
        if self._dtype.kind == "struct":  # bytes (..., size) seen as records
            return self._numpy().view(self.dtype._np_dtype)[..., 0]
        return scalar_types.as_shown(self.dtype, self._numpy())

    def list(self):
        """The elements as a flat Python list (of vectors / matrices for such dtypes)."""
        dt = self.dtype
        if isinstance(dt, type) and issubclass(dt, composite_base):
            return [dt._from_memory(x) for x in self.numpy().reshape((-1, *dt._shape))]
        if is_struct_type(dt):
            return [dt.from_numpy(r) for r in self.numpy().reshape(-1)]
        return _host_values(self).reshape(-1).tolist()

    def __array__(self, dtype=None, copy=None):
        on_cpu = self._device_alias == "cpu"
        if copy is False and not on_cpu:
            raise ValueError(
                f"cannot alias an array on {self._device_alias} with numpy (copy=False); "
                "numpy() makes a host copy"
            )
        a = self.numpy()
        if dtype is not None and np.dtype(dtype) != a.dtype:
            return a.astype(dtype)
        return a.copy() if copy and on_cpu else a

    def fill_(self, value):
        """Sets every element to ``value`` (converted to the dtype)."""
        self._check_real("fill_()")
        dt = self.dtype
        if isinstance(value, scalar_base):
            value = value.value
        if is_struct_type(dt):
            raw = dt._record_bytes(value, "fill_()")
            self._write_fill(raw)
            return
        try:
            if issubclass(dt, composite_base) and not isinstance(value, dt):
                value = dt(*value) if isinstance(value, (list, tuple)) else dt(value)
            # bfloat16 is rounded once, from float64
            host = np.float64 if scalar_types.holds_bits(dt) else dt._np_dtype
            v = scalar_types.to_memory(np.array(value, dtype=host), dt, raw_bits=False)
        except (TypeError, ValueError, OverflowError) as e:
            raise ValueError(
                f"fill_(): cannot convert {value!r} to {_dtype_text(dt)}: {e}") from None
        if v.shape != getattr(dt, "_shape", ()):
            raise ValueError(f"fill_(): expected a scalar for dtype {_dtype_text(dt)}")
        self._write_fill(v.tobytes())

    def zero_(self):
        """Sets every element to zero."""
        self._check_real("zero_()")
        self._write_fill(b"")

    def _write_fill(self, raw):
        """Sets every element to the bytes `raw` (zero when empty or all zero); recorded
        instead when a CPU capture is open (contiguous arrays only)."""
        step = self._zero if not any(raw) else (lambda: self._fill_bytes(raw))
        if _cpu_capture.depth[0] and self._device_alias == "cpu" and _cpu_capture.active():
            if not self._is_contiguous:
                _cpu_capture.refuse("fill_()/zero_() of a non-contiguous array")
            _cpu_capture.active().add(step)
            return
        step()

    def _capture_copy_from(self, src):
        """self._assign(src), or its recording when a CPU capture is open (a copy into a CPU
        array; contiguous arrays only)."""
        if _cpu_capture.depth[0] and self._device_alias == "cpu" and _cpu_capture.active():
            if not (self._is_contiguous and src._is_contiguous):
                _cpu_capture.refuse("a copy between non-contiguous arrays")
            _cpu_capture.active().add(lambda: self._assign(src))
            return
        self._assign(src)

    def mark_init(self):
        """Clears the read flag of this array's memory (wp.config.verify_autograd_array_access)."""
        self._is_read = False

    def mark_read(self):
        """Flags this array's memory (every view of it) as read by a recorded launch."""
        self._is_read = True

    def mark_write(self, **kwargs):
        """Warns when this array's memory was read by a recorded launch: a write now would
        change what its backward pass replays. ``arg_name``, ``kernel_name``, ``filename``,
        ``lineno`` (a launch) or ``operation``, ``filename``, ``lineno`` say where."""
        _tape.note_write(self, **kwargs)

    def assign(self, src):
        """Copies ``src`` (a treadle array, numpy array or nested list) into this array."""
        self._check_real("assign()")
        if not isinstance(src, array):
            try:  # bfloat16: numpy data goes to array() as it is (uint16 as bits, as there)
                want = None if scalar_types.holds_bits(self.dtype) else self.dtype._np_dtype
                arr = np.asarray(src, dtype=want)
            except (TypeError, ValueError, OverflowError) as e:
                raise ValueError(f"assign(): cannot convert the source: {e}") from None
            # A CPU view of the host data: one copy from there to any device.
            src = array(arr, dtype=self.dtype, device="cpu", copy=False)
        src._check_real("assign()")
        if src.dtype is not self.dtype:
            raise TypeError(
                f"assign(): cannot copy {_dtype_text(src.dtype)} data into a "
                f"{_dtype_text(self.dtype)} array"
            )
        if src.shape != self.shape:
            if src.size != self.size:
                raise ValueError(
                    f"assign(): shape mismatch: destination {self.shape}, source {src.shape}"
                )
            src = src.contiguous().reshape(self.shape)
        self._capture_copy_from(src)
        tape = _tape.current()
        if tape is not None:
            tape._record_copy(self, src)

    def to(self, device, requires_grad=None):
        """This array if it is on ``device``, else a contiguous copy there (any pair of
        devices: CPU to CUDA, CUDA to CPU, one CUDA device to another)."""
        self._check_real("to()")
        dev = get_device(device)
        if dev == self.device:
            return self
        return clone(self, device=dev, requires_grad=requires_grad)

    def contiguous(self):
        """This array if it is contiguous, else a contiguous copy."""
        self._check_real("contiguous()")
        return self if self._is_contiguous else clone(self)

    # --- views ----------------------------------------------------------------------------

    def reshape(self, shape):
        """A view with another shape (contiguous arrays); one dimension may be -1."""
        self._check_real("reshape()")
        if is_int(shape):
            shape = (shape,)
        shape = tuple(shape)
        if not all(is_int(s) for s in shape):
            raise TypeError(f"reshape(): shape must contain only ints, got {shape!r}")
        if not 1 <= len(shape) <= 4:
            raise ValueError(f"reshape(): shape {shape} must have 1 to 4 dimensions")
        return _wrap(self._reshape([builtins.int(s) for s in shape]))

    def flatten(self):
        """A 1-D view of a contiguous array."""
        return self.reshape(-1)

    def transpose(self, axes=None):
        """A view with the dimensions permuted (reversed when ``axes`` is None)."""
        self._check_real("transpose()")
        n = self._ndim
        if axes is None:
            axes = list(range(n - 1, -1, -1))
        else:
            axes = [builtins.int(a) + n if is_int(a) and a < 0 else a for a in axes]
            if not all(is_int(a) for a in axes):
                raise TypeError("transpose(): axes must be ints")
        return _wrap(self._transpose([builtins.int(a) for a in axes]))

    def view(self, dtype):
        """The same memory seen as another dtype: one of the same element size (same shape),
        the scalar of a vector/matrix dtype (its components become trailing dimensions), or a
        vector/matrix of this array's scalar dtype (trailing dimensions of its shape become
        the elements). TypeError for other sizes, as in Warp."""
        self._check_real("view()")
        dt = resolve_dtype(dtype)
        src = self.dtype
        if dt._type.size == self._dtype.size:
            return _wrap(self._view_as(dt._type))
        shape, strides = view_layout(src, self._dtype.size, dt, dt._type.size, self.shape,
                                     self.strides, is_struct_type(src) or is_struct_type(dt))
        out = _new_null()
        out._init_from_ptr(self.ptr or 0, dt._type, list(shape), list(strides),
                           self._device_alias, self)  # keeps this array's memory alive
        if self.grad is not None:
            out.grad = self.grad.view(dt)
        return out

    def __getitem__(self, key):
        self._check_real("indexing")
        if not isinstance(key, tuple):
            key = (key,)
        n_ellipsis = builtins.sum(1 for k in key if k is Ellipsis)
        if n_ellipsis > 1:
            raise IndexError("an index can only have a single ellipsis ('...')")
        if n_ellipsis:
            i = next(j for j, k in enumerate(key) if k is Ellipsis)
            key = key[:i] + (slice(None),) * (self._ndim - len(key) + 1) + key[i + 1 :]
        if len(key) > self._ndim:
            raise IndexError(
                f"too many indices: the array has {self._ndim} dimensions, {len(key)} were given"
            )
        if len(key) == self._ndim and all(is_int(k) for k in key):
            raise RuntimeError(
                "Item indexing is not supported on wp.array objects; use slices for views, or "
                "numpy() / list() to read values"
            )
        native, dim, index_arrays = self, 0, {}
        for k in key:
            n = native._shape[dim]
            if is_int(k):
                i = builtins.int(k) + n if k < 0 else builtins.int(k)
                if not 0 <= i < n:
                    raise IndexError(f"index {k} is out of bounds for axis {dim} with size {n}")
                native = native._select(dim, i)
            elif isinstance(k, slice):
                start, stop, step = k.indices(n)
                if step < 1:
                    raise ValueError("array slices with a negative step are not supported")
                native = native._slice(dim, start, builtins.max(stop, start), step)
                dim += 1
            elif isinstance(k, array) and not k._is_annotation:
                index_arrays[dim] = k  # the dimension stays; indexedarray() checks the array
                dim += 1
            else:
                raise TypeError(
                    f"array indices must be ints, slices, '...' or int32 index arrays, got "
                    f"{type(k).__name__}"
                )
        view = _wrap(native)
        if not index_arrays:
            return view
        return _make_indexedarray(view, [index_arrays.get(d) for d in range(view.ndim)])

    def __len__(self):
        return self.shape[0] if self.ndim else 0

    def __bool__(self):
        return True if self._is_annotation else self._size > 0

    def __str__(self):
        if self._is_null:
            return self.__repr__()
        return str(_host_values(self))

    def __repr__(self):
        if self._is_annotation:
            return f"array(dtype={_dtype_text(self._ann_dtype)}, ndim={self._ann_ndim})"
        if self._is_null:
            return "array(null)"
        body = np.array2string(_host_values(self), separator=", ", prefix="array(")
        dev = "" if self._device_alias == "cpu" else f', device="{self._device_alias}"'
        return f"array({body}, dtype={self._dtype.key}{dev})"


# --- creation functions -------------------------------------------------------------------


def _check_pinned(pinned, dev):
    if pinned and not dev.is_cpu:
        raise ValueError(f"pinned memory is host memory: it needs device 'cpu', not '{dev}'")
    return builtins.bool(pinned)


def _allocate(shape, dtype, device, requires_grad, zero, pinned=False, retain_grad=False, **_):
    if shape is None:
        shape = 0
    dt = resolve_dtype(dtype)
    dev = get_device(device)
    out = _new_null()
    out._init_empty(dt._type, list(shape_tuple(shape)), dev.alias, zero, _check_pinned(pinned, dev))
    _memory_tracker.note_if_tracking(out, out._pinned)
    if requires_grad:
        out.requires_grad = True
    out.retain_grad = retain_grad
    return out


def empty(shape=None, dtype=float, device=None, requires_grad=False, pinned=False, **kwargs):
    """An uninitialised array."""
    return _allocate(kwargs.pop("n", shape), dtype, device, requires_grad, False, pinned, **kwargs)


def zeros(shape=None, dtype=float, device=None, requires_grad=False, pinned=False, **kwargs):
    """A zero-filled array."""
    return _allocate(kwargs.pop("n", shape), dtype, device, requires_grad, True, pinned, **kwargs)


def _like(src, device, requires_grad):
    if not isinstance(src, array) and not getattr(src, "_is_indexedarray", False) and \
            getattr(src, "_fabric_indexed", None) is None:
        raise TypeError(f"expected a treadle array, got {type(src).__name__}")
    src._check_real("*_like()")
    dev = src.device if device is None else device
    rg = src.requires_grad if requires_grad is None else requires_grad
    return dev, rg


def _pinned_copy(src):
    """A contiguous copy of a CPU array in pinned memory (plain memory without CUDA)."""
    out = _new_null()
    out._init_empty(src._dtype, list(src.shape), "cpu", False, True)
    _memory_tracker.note_if_tracking(out, True)
    out._assign(src)
    return out


def _pinned_like(src, device, pinned):
    """Explicit ``pinned``, else that of ``src`` when the copy stays on the CPU."""
    if pinned is not None:
        return pinned
    return src.pinned and get_device(device).is_cpu


def clone(src, device=None, requires_grad=None, pinned=None):
    """A contiguous copy of ``src`` (an array or indexed array; on ``device``, default: the
    same device)."""
    dev, rg = _like(src, device, requires_grad)
    if not isinstance(src, array):  # an indexedarray: its elements, gathered
        src = src.contiguous()
    if _pinned_like(src, dev, pinned):
        out = _pinned_copy(src)
    elif _cpu_capture.depth[0] and get_device(dev).is_cpu and _cpu_capture.active():
        out = empty(src.shape, src.dtype, dev)  # the copy is recorded, as Warp's clone
        out._capture_copy_from(src)
    else:
        out = _wrap(src._clone(get_device(dev).alias))
    out._set_grad(None)
    if rg:
        out.requires_grad = True
    tape = _tape.current()
    if tape is not None and out.requires_grad and src.requires_grad:
        tape._record_copy(out, src)  # a clone is a copy: its gradient flows back to src
    return out
