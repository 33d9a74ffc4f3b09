"""accumulate(dest, src): dest += src elementwise on any device (backward of copies)."""

import treadle as wp

_kernels = {}


def _make(dtype, ndim):
    # One kernel per element type and dimension count, built on first use.
    if ndim == 1:

        @wp.kernel
        def accumulate_1d(dest: wp.array(dtype=dtype, ndim=1), src: wp.array(dtype=dtype, ndim=1)):
            i = wp.tid()
            dest[i] = dest[i] + src[i]

        return accumulate_1d
    if ndim == 2:

        @wp.kernel
        def accumulate_2d(dest: wp.array(dtype=dtype, ndim=2), src: wp.array(dtype=dtype, ndim=2)):
            i, j = wp.tid()
            dest[i, j] = dest[i, j] + src[i, j]

        return accumulate_2d
    if ndim == 3:

        @wp.kernel
        def accumulate_3d(dest: wp.array(dtype=dtype, ndim=3), src: wp.array(dtype=dtype, ndim=3)):
            i, j, k = wp.tid()
            dest[i, j, k] = dest[i, j, k] + src[i, j, k]

        return accumulate_3d

    @wp.kernel
    def accumulate_4d(dest: wp.array(dtype=dtype, ndim=4), src: wp.array(dtype=dtype, ndim=4)):
        i, j, k, m = wp.tid()
        dest[i, j, k, m] = dest[i, j, k, m] + src[i, j, k, m]

    return accumulate_4d


def accumulate(dest, src):
    """Adds ``src`` into ``dest`` (same dtype and shape; same device, or src is copied there)."""
    from .launch import launch

    if src.shape != dest.shape or src.dtype is not dest.dtype:
        raise ValueError(
            f"accumulate(): shapes/dtypes differ: {dest.shape} {dest.dtype._spec} and "
            f"{src.shape} {src.dtype._spec}"
        )
    if src.device != dest.device:
        src = src.to(dest.device)
    key = (dest.dtype, dest.ndim)
    k = _kernels.get(key)
    if k is None:
        k = _kernels[key] = _make(dest.dtype, dest.ndim)
    launch(k, dest.shape, inputs=[dest, src], device=dest.device, record_tape=False)
