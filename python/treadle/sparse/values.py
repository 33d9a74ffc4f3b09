"""treadle.sparse value kernels: the differentiable moves of block values along an index map.

Every operation first computes, with topology kernels that no tape records, a fresh array that
maps each destination block to its source block (or each source block to its destination);
only then do these kernels move the values. They read nothing of either matrix's topology, so
a tape replays them correctly even after the matrices' topology has been rebuilt.
"""

from typing import Any

from ..array import array
from ..builtin_functions import atomic_add, tid
from ..kernel import kernel
from ..launch import launch


@kernel
def _gather(
    sources: array(dtype=int),
    scale: Any,
    transpose: int,
    src: array(dtype=Any, ndim=3),
    dest: array(dtype=Any, ndim=3),
):
    block, i, j = tid()
    s = sources[block]
    if s >= 0:
        if transpose != 0:
            dest[block, i, j] = dest.dtype(scale * src[s, j, i])
        else:
            dest[block, i, j] = dest.dtype(scale * src[s, i, j])


@kernel
def _gather_add(
    sources: array(dtype=int),
    scale: Any,
    src: array(dtype=Any, ndim=3),
    dest: array(dtype=Any, ndim=3),
):
    block, i, j = tid()
    s = sources[block]
    if s >= 0:
        dest[block, i, j] = dest[block, i, j] + dest.dtype(scale * src[s, i, j])


@kernel
def _scatter_add(targets: array(dtype=int), src: array(dtype=Any, ndim=3),
                 dest: array(dtype=Any, ndim=3)):
    block, i, j = tid()
    t = targets[block]
    if t >= 0:
        atomic_add(dest, t, i, j, src[block, i, j])


def gather(sources, src, dest, scale=1.0, transpose=False, accumulate=False):
    """dest[b] (=, or += when ``accumulate``) scale * src[sources[b]] for every ``b`` of the
    1-D map ``sources`` with a source (>= 0); 3-D scalar arrays, ``src`` blocks transposed when
    ``transpose`` (not with ``accumulate``), the scalar type cast to dest's. The accumulating
    form reads dest, so a tape refuses to differentiate it once dest has been rewritten."""
    count = sources.shape[0]
    if count == 0:
        return
    dim = (count, dest.shape[1], dest.shape[2])
    scale = src.dtype(float(scale))
    if accumulate:
        launch(_gather_add, dim=dim, device=dest.device, inputs=[sources, scale, src],
               outputs=[dest])
    else:
        launch(_gather, dim=dim, device=dest.device,
               inputs=[sources, scale, int(transpose), src], outputs=[dest])


def scatter_add(targets, src, dest):
    """dest[targets[b]] += src[b] (atomically) for every ``b`` with a target (>= 0)."""
    count = targets.shape[0]
    if count == 0:
        return
    launch(_scatter_add, dim=(count, src.shape[1], src.shape[2]), device=dest.device,
           inputs=[targets, src], outputs=[dest])
