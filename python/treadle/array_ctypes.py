"""``wp.array.__ctype__()``: an array's descriptor as Warp's ``array_t`` ctypes structure (data
and gradient addresses, shape and byte strides padded to four dimensions, the dimension
count), for code that hands arrays to C through ctypes. treadle's launches take the arrays
themselves, never these records."""

import ctypes

ARRAY_MAX_DIMS = 4


class array_t(ctypes.Structure):
    """An array's descriptor, laid out as Warp's array_t."""

    _fields_ = [
        ("data", ctypes.c_uint64),
        ("grad", ctypes.c_uint64),
        ("shape", ctypes.c_int32 * ARRAY_MAX_DIMS),
        ("strides", ctypes.c_int32 * ARRAY_MAX_DIMS),
        ("ndim", ctypes.c_int32),
    ]


class ArrayCtypes:
    """The ``__ctype__`` method ``wp.array`` inherits."""

    def __ctype__(self):
        """The array as an array_t (all zero for a null array or an annotation)."""
        record = array_t()
        if self.ptr is None and self.size == 0:
            record.ndim = len(self.shape)
            return record
        record.data = self.ptr or 0
        grad = self.grad if self.requires_grad else None
        record.grad = (grad.ptr or 0) if grad is not None else 0
        record.ndim = len(self.shape)
        for i, (n, s) in enumerate(zip(self.shape, self.strides)):
            record.shape[i] = n
            record.strides[i] = s
        return record
