"""The exchange protocols ``wp.array`` exports to other libraries: numpy's
``__array_interface__`` (CPU arrays), the CUDA Array Interface (CUDA arrays) and DLPack
(``__dlpack__`` / ``__dlpack_device__``, any device; the capsules are made by
``dlpack_export.py``). Each aliases the array's memory; none copies unless asked to."""

from . import dlpack_export as _dlpack_export


class ArrayInterfaces:
    """The exchange protocols ``wp.array`` inherits."""

    __slots__ = ()

    @property
    def __array_interface__(self):
        if self._is_null or self._device_alias != "cpu":
            raise AttributeError("__array_interface__ is only available for CPU arrays")
        shape, strides = self._np_layout()
        return {
            "version": 3,
            "shape": shape,
            "typestr": self.dtype._np_memory.str,
            "descr": self.dtype._np_memory.descr,
            "data": (self._ptr, False),
            "strides": None if self._is_contiguous else strides,
        }

    @property
    def __cuda_array_interface__(self):
        """The CUDA Array Interface (version 3) of a CUDA array (absent on CPU arrays).
        ``stream`` is 1, the legacy default stream: treadle's default stream of each device is
        a blocking stream, so a consumer that synchronises with the legacy stream sees its
        work (after work on a non-blocking stream, synchronise that stream first)."""
        if self._is_null or not self._device_alias.startswith("cuda"):
            raise AttributeError("__cuda_array_interface__ is only available for CUDA arrays")
        shape, strides = self._np_layout()
        return {
            "version": 3,
            "shape": shape,
            "typestr": self.dtype._np_memory.str,
            "data": (self._ptr if self._size else 0, False),
            "strides": None if self._is_contiguous else strides,
            "stream": 1,
        }

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule aliasing this array (the array API's ``__dlpack__``): versioned
        when the consumer's ``max_version`` is at least (1, 0). On CUDA the consumer's
        ``stream`` (a CUstream as an int; None, 0 or 1: the legacy default stream; -1: no
        synchronisation) first waits for the work queued on the device's current stream; on
        the CPU it must be None or -1. ``copy=True`` exports a copy; ``dl_device`` may name
        another device (then a copy, refused with ``copy=False``)."""
        return _dlpack_export.dlpack_capsule(self, stream, max_version, dl_device, copy)

    def __dlpack_device__(self):
        """(DLPack device type, device id): (kDLCUDA, ordinal) or (kDLCPU, 0)."""
        return _dlpack_export.dlpack_device(self)
