"""TiledDot: the solvers' dot products, as device reductions with fixed launch shapes (so they can
be captured in CUDA graphs), one result per (column, batch).

A reduction sums ``a[c, i] * b[c, i]`` over the dofs ``i`` of each batch for several columns
``c`` at once (2-D operands; a first stride of 0 repeats one row). Its results live in one
array of shape (max_column_count, batch_count) whose views ``col(c)`` the solvers keep across
calls. Three plans, chosen once at construction:

- no batch offsets: a tree over chunks of ``tile_size`` dofs (level 0 forms the chunk dot
  products, each later level sums chunks of ``tile_size`` partial sums, the last writes the
  result);
- offsets on the CPU, or on CUDA with ``max_batch_length <= tile_size``: one block per
  (column, batch) whose lanes stride over the batch (``batch_dot_launch``);
- offsets on CUDA otherwise: a segmented tree whose levels' batch-aligned chunk offsets are
  planned once on the device (``segmented_offsets``: the batch offsets, then one offset array
  per level; a batch gets max(1, ceil(n / tile_size)) chunks at each level).

Every kernel is the same on both devices: a block's lanes (one on the CPU, where a block is a
thread) stride over their range and add their partial sums as a tile.
"""

import functools
from typing import Any

from ... import builtin_functions as wpb
from ...array import array, empty, zeros
from ...context import get_device
from ...kernel import func, kernel
from ...launch import launch
from ...sparse.funcs import upper_bound
from .layout import scalar_view


@kernel(enable_backward=False)
def _chunk_dot(a: array(dtype=Any, ndim=2), b: array(dtype=Any, ndim=2),
               out: array(dtype=Any, ndim=2), chunk: int):
    """out[c, k] = sum of a[c, i] * b[c, i] over chunk k (`chunk` dofs)."""
    col, block, lane = wpb.tid()
    start = block * chunk
    end = wpb.min(start + chunk, a.shape[1])
    acc = out.dtype(0.0)
    for i in range(start + lane, end, wpb.block_dim()):
        acc += a[col, i] * b[col, i]
    wpb.tile_store(out[col], wpb.tile_sum(wpb.tile(acc)), offset=block)


@kernel(enable_backward=False)
def _chunk_sum(data: array(dtype=Any, ndim=2), count: int, out: array(dtype=Any, ndim=2),
               chunk: int):
    """out[c, k] = sum of data[c, i] over chunk k of the first `count` entries."""
    col, block, lane = wpb.tid()
    start = block * chunk
    end = wpb.min(start + chunk, count)
    acc = out.dtype(0.0)
    for i in range(start + lane, end, wpb.block_dim()):
        acc += data[col, i]
    wpb.tile_store(out[col], wpb.tile_sum(wpb.tile(acc)), offset=block)


@kernel(enable_backward=False)
def _batch_dot(a: array(dtype=Any, ndim=2), b: array(dtype=Any, ndim=2),
               out: array(dtype=Any, ndim=2), batch_offsets: array(dtype=int)):
    """out[c, k] = sum of a[c, i] * b[c, i] over the dofs of batch k."""
    col, batch, lane = wpb.tid()
    acc = out.dtype(0.0)
    for i in range(batch_offsets[batch] + lane, batch_offsets[batch + 1], wpb.block_dim()):
        acc += a[col, i] * b[col, i]
    wpb.tile_store(out[col], wpb.tile_sum(wpb.tile(acc)), offset=batch)


@functools.cache
def _create_segmented_tiled_dot_kernels(tile_size):
    """The kernels of a segmented tree with chunks of `tile_size` entries: (plan, dot, sum).

    ``plan(input_offsets, output_offsets)`` (one block of lanes; on CUDA launched with
    dim=block_dim=tile_size) writes the offsets of the next level: batch k gets
    max(1, ceil(n_k / tile_size)) chunks, n_k its entries at this level.
    ``dot(a, b, out, input_offsets, output_offsets)`` and ``sum(data, out, input_offsets,
    output_offsets)`` reduce chunk j of the level into out[c, j]."""

    @func
    def chunks_of(count: int) -> int:
        blocks = count // tile_size
        if blocks * tile_size < count:
            blocks += 1
        return wpb.max(blocks, 1)

    @kernel(enable_backward=False, module="unique")
    def plan_chunk_offsets(input_offsets: array(dtype=int), output_offsets: array(dtype=int)):
        lane = wpb.tid()
        batch_count = input_offsets.shape[0] - 1
        per_lane = (batch_count + wpb.block_dim() - 1) // wpb.block_dim()
        first = wpb.min(lane * per_lane, batch_count)
        last = wpb.min(first + per_lane, batch_count)
        total = int(0)
        for batch in range(first, last):
            total += chunks_of(input_offsets[batch + 1] - input_offsets[batch])
        start = wpb.tile_extract(wpb.tile_scan_exclusive(wpb.tile(total)), lane)
        for batch in range(first, last):
            output_offsets[batch] = start
            start += chunks_of(input_offsets[batch + 1] - input_offsets[batch])
        if first < last and last == batch_count:
            output_offsets[batch_count] = start
        if batch_count == 0 and lane == 0:
            output_offsets[0] = 0

    @kernel(enable_backward=False, module="unique")
    def segmented_chunk_dot(a: array(dtype=Any, ndim=2), b: array(dtype=Any, ndim=2),
                            out: array(dtype=Any, ndim=2), input_offsets: array(dtype=int),
                            output_offsets: array(dtype=int)):
        col, block, lane = wpb.tid()
        batch_count = output_offsets.shape[0] - 1
        if block >= output_offsets[batch_count]:
            return
        batch = upper_bound(output_offsets, 0, batch_count + 1, block) - 1
        start = input_offsets[batch] + (block - output_offsets[batch]) * tile_size
        end = wpb.min(start + tile_size, input_offsets[batch + 1])
        acc = out.dtype(0.0)
        for i in range(start + lane, end, wpb.block_dim()):
            acc += a[col, i] * b[col, i]
        wpb.tile_store(out[col], wpb.tile_sum(wpb.tile(acc)), offset=block)

    @kernel(enable_backward=False, module="unique")
    def segmented_chunk_sum(data: array(dtype=Any, ndim=2), out: array(dtype=Any, ndim=2),
                            input_offsets: array(dtype=int), output_offsets: array(dtype=int)):
        col, block, lane = wpb.tid()
        batch_count = output_offsets.shape[0] - 1
        if block >= output_offsets[batch_count]:
            return
        batch = upper_bound(output_offsets, 0, batch_count + 1, block) - 1
        start = input_offsets[batch] + (block - output_offsets[batch]) * tile_size
        end = wpb.min(start + tile_size, input_offsets[batch + 1])
        acc = out.dtype(0.0)
        for i in range(start + lane, end, wpb.block_dim()):
            acc += data[col, i]
        wpb.tile_store(out[col], wpb.tile_sum(wpb.tile(acc)), offset=block)

    return plan_chunk_offsets, segmented_chunk_dot, segmented_chunk_sum


def _ceil_div(count, size):
    return -(-count // size)


def _rows(x, who):
    """`x` (1-D, or 2-D rows) as a 2-D array of rows of scalars on the same memory."""
    x = scalar_view(x, who)
    if x.ndim == 2:
        return x
    if x.is_contiguous:
        return x.reshape((1, x.shape[0]))
    view = array(ptr=x.ptr, shape=(1, x.shape[0]), strides=(0, x.strides[0]), dtype=x.dtype,
                 device=x.device)
    view._viewed = x
    return view


class TiledDot:
    """Dot products of solver vectors, one per (column, batch), written on the device into
    arrays whose views (``col``, ``cols``) stay valid for the object's life.

    Args:
        max_length: the most scalar dofs an operand row may have.
        scalar_type: the scalar type of the operands and results.
        tile_size: lanes of a CUDA block and entries of a reduction chunk.
        device: where the scratch memory lives and the reductions run.
        max_column_count: the most dot products computed by one ``compute``.
        batch_offsets: optional 1-D int32 array of B + 1 dof offsets: each column then gets
            B dot products, one per batch (dofs past the last offset are ignored).
        max_batch_length: optional bound on the dofs of any batch (requires batch_offsets);
            at most ``tile_size`` it selects one block per batch on CUDA.
    """

    def __init__(self, max_length, scalar_type, tile_size=512, device=None, max_column_count=1,
                 batch_offsets=None, max_batch_length=None):
        if max_batch_length is not None:
            if batch_offsets is None:
                raise ValueError("TiledDot(): max_batch_length requires batch_offsets")
            if max_batch_length < 0:
                raise ValueError(f"TiledDot(): max_batch_length must be non-negative (got "
                                 f"{max_batch_length})")
        if device is None and batch_offsets is not None:
            device = batch_offsets.device
        self.device = get_device(device)
        self.tile_size = int(tile_size)
        self.max_length = int(max_length)
        self.max_column_count = int(max_column_count)
        self.scalar_type = scalar_type
        self.batch_offsets = batch_offsets
        self.max_batch_length = max_batch_length
        self.batch_count = 1 if batch_offsets is None else batch_offsets.shape[0] - 1
        self.result = zeros((self.max_column_count, max(self.batch_count, 1)), dtype=scalar_type,
                            device=self.device)
        self.dot_launch = self.sum_launch = None
        self.batch_dot_launch = self.segmented_dot_launch = None
        self.segmented_offsets = None
        self.partial_sums_a = self.partial_sums_b = None
        cuda = self.device.is_cuda
        self._lanes = self.tile_size if cuda else 1
        if batch_offsets is None:
            self._plan_chunks()
        elif not cuda or (max_batch_length is not None and max_batch_length <= self.tile_size):
            if not cuda:
                self.tile_size = 1  # a CPU block is one thread: it sums its whole batch
            self._plan_batches()
        else:
            self._plan_segments()

    # --- plans ----------------------------------------------------------------------------

    def _record(self, kernel_to_launch, params):
        return launch(kernel_to_launch, dim=1, inputs=params, device=self.device,
                      block_dim=self._lanes, record_cmd=True)

    def _partials(self, capacity):
        shape = (self.max_column_count, max(capacity, 1))
        self.partial_sums_a = zeros(shape, dtype=self.scalar_type, device=self.device)
        self.partial_sums_b = zeros(shape, dtype=self.scalar_type, device=self.device)

    def _chunk_counts(self, length):
        """The block count of each level of the chunk tree over `length` dofs."""
        counts = [max(1, _ceil_div(length, self.tile_size))]
        while counts[-1] > 1:
            counts.append(_ceil_div(counts[-1], self.tile_size))
        return counts

    def _plan_chunks(self):
        counts = self._chunk_counts(self.max_length)
        self.rounds = len(counts) - 1
        if self.rounds:
            self._partials(counts[0])
        self.dot_launch = self._record(_chunk_dot, [None, None, None, self.tile_size])
        self.sum_launch = self._record(_chunk_sum, [None, 0, None, self.tile_size])

    def _plan_batches(self):
        self.rounds = 0
        self.batch_dot_launch = self._record(_batch_dot, [None, None, None, self.batch_offsets])

    def _plan_segments(self):
        """Plans the levels on the device once: the offsets never change for this object."""
        plan, dot, total = _create_segmented_tiled_dot_kernels(self.tile_size)
        batches = self.batch_count
        bound = self.max_length
        if self.max_batch_length is not None:
            bound = min(bound, self.max_batch_length)
        self.segmented_offsets = [self.batch_offsets]
        self._level_bounds = []
        level_scale = 1
        while True:
            level_scale *= self.tile_size
            bound = max(1, _ceil_div(bound, self.tile_size))
            total_bound = max(batches, _ceil_div(self.max_length, level_scale) + batches - 1)
            offsets = empty(batches + 1, dtype=int, device=self.device)
            launch(plan, dim=self._lanes, inputs=[self.segmented_offsets[-1], offsets],
                   block_dim=self._lanes, device=self.device)
            self.segmented_offsets.append(offsets)
            self._level_bounds.append(min(total_bound, batches * bound))
            if bound == 1:
                break
        self.rounds = len(self._level_bounds) - 1
        if self.rounds:
            self._partials(self._level_bounds[0])
        self.segmented_dot_launch = self._record(dot, [None, None, None, None, None])
        self.sum_launch = self._record(total, [None, None, None, None])

    # --- reductions -----------------------------------------------------------------------

    def _level_output(self, level, last, columns, result):
        """Where tree level `level` writes: the results at the last level, else the partial
        sums (alternating between the two scratch arrays)."""
        if level == last:
            return result
        scratch = self.partial_sums_a if level % 2 == 0 else self.partial_sums_b
        return scratch[0:columns]

    def compute(self, a, b, col_offset=0):
        """Computes the dot products of the rows of `a` and `b` (1-D arrays, or 2-D arrays of
        rows of the same shape; scalar or vector dtypes) into columns ``col_offset`` onwards,
        and returns the view of those results, shape (rows, batch_count)."""
        a = _rows(a, "TiledDot.compute()")
        b = _rows(b, "TiledDot.compute()")
        if tuple(a.shape) != tuple(b.shape):
            raise ValueError(f"TiledDot.compute(): the operands have different shapes "
                             f"({tuple(a.shape)} and {tuple(b.shape)} scalars)")
        columns, length = a.shape
        if col_offset < 0 or col_offset + columns > self.max_column_count:
            raise ValueError(f"TiledDot.compute(): columns {col_offset} to "
                             f"{col_offset + columns - 1} do not fit in "
                             f"max_column_count={self.max_column_count}")
        if length > self.max_length:
            raise ValueError(f"TiledDot.compute(): the operands have {length} scalars, more "
                             f"than max_length={self.max_length}")
        result = self.result[col_offset:col_offset + columns]
        if self.batch_dot_launch is not None:
            self._run(self.batch_dot_launch, (columns, self.batch_count), [a, b, result])
        elif self.segmented_dot_launch is not None:
            self._segmented(a, b, columns, result)
        else:
            self._chunked(a, b, columns, length, result)
        return result[:, :self.batch_count]

    def _run(self, command, grid, params):
        for index, value in enumerate(params):
            command.set_param_at_index(index, value)
        command.set_dim((*grid, self._lanes))
        command.launch()

    def _chunked(self, a, b, columns, length, result):
        counts = self._chunk_counts(length)
        last = len(counts) - 1
        out = self._level_output(0, last, columns, result)
        self._run(self.dot_launch, (columns, counts[0]), [a, b, out])
        for level in range(1, last + 1):
            source = out
            out = self._level_output(level, last, columns, result)
            self._run(self.sum_launch, (columns, counts[level]), [source, counts[level - 1], out])

    def _segmented(self, a, b, columns, result):
        offsets = self.segmented_offsets
        last = self.rounds
        out = self._level_output(0, last, columns, result)
        self._run(self.segmented_dot_launch, (columns, self._level_bounds[0]),
                  [a, b, out, offsets[0], offsets[1]])
        for level in range(1, last + 1):
            source = out
            out = self._level_output(level, last, columns, result)
            self._run(self.sum_launch, (columns, self._level_bounds[level]),
                      [source, out, offsets[level], offsets[level + 1]])

    def col(self, col=0):
        """The view of column `col`'s results, shape (batch_count,)."""
        return self.result[col][:self.batch_count]

    def cols(self, count, start=0):
        """The view of the results of columns ``start`` to ``start + count``, shape (count,
        batch_count)."""
        return self.result[start:start + count, :self.batch_count]
