"""treadle.sparse.BsrMatrix: the block sparse row matrix (Warp's ``warp.sparse.BsrMatrix``) and
the typed struct classes ``bsr_matrix_t`` makes (storage helpers are in storage.py).

A matrix holds ``nrow`` x ``ncol`` blocks of ``block_type`` (a scalar: CSR; a matrix type: BSR)
in ``offsets`` (nrow + 1), ``columns`` and ``values`` (at least ``nnz`` slots each), and for the
padded topology ``row_counts`` (nrow); see funcs.py for the layout. ``nnz`` is a host-side
upper bound of the slots in use: operations that change the topology leave it at a bound and
``nnz_sync()`` reads the exact ``offsets[nrow]`` back. ``status`` is a one-int device array that
padded operations raise to BSR_STATUS_ROW_CAPACITY_EXCEEDED when a row does not fit.

Value kernels address blocks through a 3-D scalar view of ``values`` (block, row, column), so
one generic kernel serves scalar and matrix blocks of every shape.
"""

import typing
import warnings

from .. import types as _types
from ..array import array, empty, zeros
from ..array_copy import copy
from ..builtin_functions import tid
from ..context import Event, get_stream
from ..kernel import kernel
from ..launch import launch
from ..stream import synchronize_event
from ..struct import struct
from .funcs import bsr_row_index
from .storage import ensure_fits, scalar_view

BSR_STATUS_SUCCESS = 0
"""Sparse operation status: success."""

BSR_STATUS_ROW_CAPACITY_EXCEEDED = 1
"""Sparse operation status: a row of a padded matrix had too little capacity."""

_BlockType = typing.TypeVar("_BlockType")

_operators = [None]


def register_operators(impl):
    """Makes ``impl`` (operators.py, a layer above every operation) the implementation of the
    arithmetic operators of BsrMatrix and of scaled-matrix expressions."""
    _operators[0] = impl


def operators():
    """The registered operator implementation."""
    if _operators[0] is None:
        raise NotImplementedError("BsrMatrix arithmetic needs treadle.sparse to be imported")
    return _operators[0]


@kernel(enable_backward=False)
def _block_rows(
    row_count: int,
    offsets: array(dtype=int),
    row_counts: array(dtype=int),
    rows: array(dtype=int),
):
    block = tid()
    rows[block] = bsr_row_index(offsets, row_count, block, row_counts)


class BsrMatrix(typing.Generic[_BlockType]):
    """A block sparse row matrix (Warp's ``BsrMatrix``); made by bsr_zeros, bsr_from_triplets,
    bsr_diag and the other constructors, never directly.

    Fields (see the module notes): ``nrow``, ``ncol`` (blocks), ``nnz`` (a host-side upper
    bound of the slots in use), ``offsets``, ``row_counts`` (None for compact storage),
    ``columns`` and ``values``."""

    @property
    def scalar_type(self):
        """The scalar type of block coefficients (the block type itself for CSR)."""
        return getattr(self.values.dtype, "_wp_scalar_type_", self.values.dtype)

    @property
    def block_shape(self):
        """Rows and columns of one block; (1, 1) for scalar blocks."""
        return tuple(getattr(self.values.dtype, "_shape_", (1, 1)))

    @property
    def block_size(self):
        """Coefficients per block."""
        return _types.type_size(self.values.dtype)

    @property
    def shape(self):
        """Scalar rows and columns of the whole matrix."""
        rows, cols = self.block_shape
        return (self.nrow * rows, self.ncol * cols)

    @property
    def dtype(self):
        """The block type."""
        return self.values.dtype

    @property
    def device(self):
        """The device of the matrix arrays."""
        return self.offsets.device

    @property
    def requires_grad(self):
        """Whether ``values`` takes part in adjoint computations."""
        return self.values.requires_grad

    @property
    def scalar_values(self):
        """``values`` seen as a 3-D scalar array (block, row, column), gradient included."""
        return scalar_view(self.values, self.block_shape)

    def uncompress_rows(self, out=None):
        """The row of every stored slot (-1 for slack), in the first ``nnz`` entries of ``out``
        (allocated when None) -- COO row indices, exact after ``nnz_sync()``."""
        if out is None:
            out = empty(self.nnz, dtype=int, device=self.device)
        if self.nnz > 0:
            launch(_block_rows, dim=self.nnz, device=self.device, record_tape=False,
                   inputs=[self.nrow, self.offsets, self.row_counts, out])
        return out

    def nnz_sync(self):
        """Reads ``offsets[nrow]`` back into ``nnz`` (waiting for a transfer scheduled by the
        last operation, if any) and returns it: the active block count of compact storage,
        the total row capacity of padded storage."""
        device = self.device
        if device.is_cuda and device.is_capturing:
            raise RuntimeError(
                "BsrMatrix.nnz_sync(): the block count needs a device-to-host readback, which "
                "a live CUDA graph capture cannot do (give an explicit nnz_capacity, or query "
                "the count outside the capture)")
        pending = getattr(self, "_nnz_pending", None)
        if pending is not None:
            buffer, event = pending
            object.__setattr__(self, "_nnz_pending", None)
            synchronize_event(event)
            self.nnz = int(buffer.numpy()[0])
        else:
            self.nnz = int(self.offsets[self.nrow : self.nrow + 1].numpy()[0])
        return self.nnz

    def _copy_nnz_async(self):
        """Schedules the readback of ``offsets[nrow]`` after the work queued so far (CUDA;
        on the CPU nnz_sync reads the offsets directly)."""
        device = self.device
        object.__setattr__(self, "_nnz_pending", None)
        if not device.is_cuda or device.is_capturing:
            return
        buffer = getattr(self, "_nnz_buffer", None)
        if buffer is None:
            buffer = (empty(1, dtype=int, device="cpu", pinned=True), Event(device))
            object.__setattr__(self, "_nnz_buffer", buffer)
        stream = get_stream(device)
        copy(dest=buffer[0], src=self.offsets, src_offset=self.nrow, count=1, stream=stream)
        stream.record_event(buffer[1])
        object.__setattr__(self, "_nnz_pending", buffer)

    def copy_nnz_async(self):
        """Deprecated (as in Warp): starts the readback of ``offsets[nrow]``; prefer
        ``notify_nnz_changed``."""
        warnings.warn("BsrMatrix.copy_nnz_async() is deprecated; use notify_nnz_changed()",
                      DeprecationWarning, stacklevel=2)
        self._copy_nnz_async()

    def notify_nnz_changed(self, nnz=None, nnz_capacity=None):
        """Tells the matrix that ``offsets`` or ``nnz`` changed outside treadle.sparse: sets
        ``nnz`` (read from ``offsets[nrow]`` when None and no ``nnz_capacity`` is given, else
        ``nnz_capacity``) and grows ``columns``/``values`` to ``nnz_capacity`` (default nnz)."""
        self._copy_nnz_async()
        if nnz is None:
            if nnz_capacity is None:
                self.nnz_sync()
            else:
                self.nnz = int(nnz_capacity)
        ensure_fits(self, nnz=nnz, capacity=nnz_capacity)

    def _ensure_status(self):
        """The status array (allocated, as success, on first use)."""
        status = getattr(self, "_status", None)
        if status is None or status.device != self.device:
            status = zeros(1, dtype=int, device=self.device)
            object.__setattr__(self, "_status", status)
        return status

    def status_sync(self):
        """The sticky status of padded operations (BSR_STATUS_*), read back from the device."""
        status = getattr(self, "_status", None)
        if status is None:
            return BSR_STATUS_SUCCESS
        if self.device.is_cuda and self.device.is_capturing:
            raise RuntimeError(
                "BsrMatrix.status_sync(): cannot read sparse status during a live CUDA graph "
                "capture (it needs a device-to-host readback; query it outside the capture)")
        return int(status.numpy()[0])

    def status_message(self):
        """status_sync() in words."""
        return status_message(self.status_sync())

    def clear_status(self):
        """Resets the status to BSR_STATUS_SUCCESS."""
        status = getattr(self, "_status", None)
        if status is not None:
            status.zero_()

    # --- arithmetic (operators.py) -------------------------------------------------------

    def __add__(self, y):
        return operators().add(self, 1.0, y)

    def __radd__(self, x):
        return operators().add(self, 1.0, x)

    def __iadd__(self, y):
        return operators().add_to(self, y, 1.0)

    def __sub__(self, y):
        return operators().subtract(self, 1.0, y)

    def __rsub__(self, x):
        return operators().subtract_from(x, self, 1.0)

    def __isub__(self, y):
        return operators().add_to(self, y, -1.0)

    def __mul__(self, y):
        return operators().scaled(self, y)

    def __rmul__(self, x):
        return operators().scaled(self, x)

    def __imul__(self, y):
        return operators().scale_in_place(self, y)

    def __truediv__(self, y):
        return operators().scaled(self, 1.0 / y)

    def __neg__(self):
        return operators().scaled(self, -1.0)

    def __matmul__(self, y):
        return operators().matmul(self, 1.0, y)

    def __rmatmul__(self, x):
        return operators().rmatmul(x, self, 1.0)

    def __imatmul__(self, y):
        return operators().matmul_in_place(self, y)

    def transpose(self):
        """A transposed copy of this matrix."""
        return operators().transposed(self)


def status_message(status):
    """A status code in words."""
    if status == BSR_STATUS_SUCCESS:
        return "success"
    if status == BSR_STATUS_ROW_CAPACITY_EXCEEDED:
        return "row capacity exceeded"
    return f"unknown status {status}"


_typed_classes = {}


def bsr_matrix_t(dtype):
    """The BsrMatrix class (a @wp.struct, so kernels may take it) of blocks of ``dtype``, a
    scalar or matrix type; ValueError for any other type."""
    block_type = _types.resolve_dtype(dtype)
    if not _types.type_is_matrix(block_type) and block_type not in _types.scalar_types:
        raise ValueError(
            "bsr_matrix_t(): BsrMatrix block type must be either warp matrix or scalar "
            f"(got {_types.type_repr(block_type)})")
    cls = _typed_classes.get(block_type)
    if cls is None:
        scalar = getattr(block_type, "_wp_scalar_type_", block_type)
        shape = getattr(block_type, "_shape_", None)
        name = f"BsrMatrix_{scalar.__name__}" + ("" if shape is None else "_%d_%d" % shape)
        fields = {"nrow": int, "ncol": int, "nnz": int, "offsets": array(dtype=int),
                  "row_counts": array(dtype=int), "columns": array(dtype=int),
                  "values": array(dtype=block_type)}
        layout = struct(type(name, (), {"__annotations__": fields, "__module__": __name__,
                                        "__qualname__": name}))
        cls = type(name, (BsrMatrix, layout), {"__module__": __name__, "__qualname__": name,
                                               "__doc__": BsrMatrix.__doc__})
        _typed_classes[block_type] = cls
    return cls
