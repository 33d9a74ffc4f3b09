"""treadle.sparse.bsr_scale: ``x := alpha * x`` on the stored values of a matrix."""

from typing import Any

from ..array import array
from ..builtin_functions import tid
from ..kernel import kernel
from ..launch import launch
from .expression import matrix_and_scale


@kernel
def _scale_values(alpha: Any, values: array(dtype=Any, ndim=3)):
    block, i, j = tid()
    values[block, i, j] = alpha * values[block, i, j]


def bsr_scale(x, alpha):
    """Multiplies the values of matrix ``x`` (or of the matrix of a scaled expression, by both
    factors) by ``alpha`` in place and returns the matrix. The topology is kept, also for
    ``alpha == 0``."""
    x, scale = matrix_and_scale(x, "bsr_scale")
    alpha = alpha * scale
    if alpha != 1.0 and x.nnz > 0:
        if alpha == 0.0:
            x.values.zero_()
        else:
            values = x.scalar_values
            launch(_scale_values, dim=(x.nnz, *x.block_shape), device=x.device,
                   inputs=[x.scalar_type(float(alpha))], outputs=[values])
    return x
