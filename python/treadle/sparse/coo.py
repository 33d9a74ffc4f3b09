"""treadle.sparse COO -> compact BSR: the one topology builder under triplet construction,
copies, transposes, sums, products and compression, written as device kernels (no host
synchronisation, so it runs the same on the CPU and on CUDA).

compact_topology() sorts the triplet coordinates and merges duplicates:

1. ``_triplet_keys``: one key per triplet, ``row * ncol + col``; a triplet out of range, past
   ``count[0]`` or (when pruning) with an all-zero block gets the key ``nrow * ncol``, which
   sorts after every valid one. The values beside the keys are the triplet indices.
2. ``radix_sort_pairs`` over the bits the keys need (stable: duplicates keep input order).
3. ``_run_heads`` marks the first of every run of equal valid keys; the inclusive scan of the
   marks numbers the blocks (1-based) at every position.
4. ``_write_blocks`` writes each block's column and the end of its run; ``_row_starts`` finds
   each row's first block by a binary search over the sorted keys.

The result's ``Runs`` (``ends``, ``sources``, ``block_count``) say which triplets make each
block: block ``b`` sums the triplets ``sources[ends[b - 1]:ends[b]]`` (``ends[-1]`` read as 0).
sum_runs() is the differentiable kernel that adds them up; it reads only these arrays, made
fresh by every call, so a tape replays it correctly after the matrix's topology has changed.
"""

from typing import Any

from .. import types as _types
from ..array import array, empty, zeros
from ..array_sort import radix_sort_pairs
from ..array_utils import array_scan
from ..builtin_functions import tid
from ..kernel import kernel
from ..launch import launch
from .funcs import lower_bound

_INT32_KEY_LIMIT = (1 << 31) - 1


@kernel(enable_backward=False)
def _triplet_keys(
    row_count: int,
    col_count: int,
    count: array(dtype=int),
    rows: array(dtype=int),
    columns: array(dtype=int),
    prune: int,
    values: array(dtype=Any, ndim=3),
    keys: array(dtype=Any),
    indices: array(dtype=int),
):
    i = tid()
    indices[i] = i
    row = rows[i]
    col = columns[i]
    valid = row >= 0 and row < row_count and col >= 0 and col < col_count
    if count:
        if i >= count[0]:
            valid = False
    if valid and prune != 0:
        nonzero = False
        zero = values.dtype(0.0)
        for r in range(values.shape[1]):
            for c in range(values.shape[2]):
                if values[i, r, c] != zero:
                    nonzero = True
        valid = nonzero
    if valid:
        keys[i] = keys.dtype(row) * keys.dtype(col_count) + keys.dtype(col)
    else:
        keys[i] = keys.dtype(row_count) * keys.dtype(col_count)


@kernel(enable_backward=False)
def _run_heads(keys: array(dtype=Any), invalid: Any, heads: array(dtype=int)):
    i = tid()
    head = 0
    if keys[i] != invalid:
        if i == 0:
            head = 1
        elif keys[i - 1] != keys[i]:
            head = 1
    heads[i] = head


@kernel(enable_backward=False)
def _write_blocks(
    keys: array(dtype=Any),
    invalid: Any,
    col_count: int,
    count: int,
    block_numbers: array(dtype=int),
    columns: array(dtype=int),
    run_ends: array(dtype=int),
):
    i = tid()
    key = keys[i]
    if key == invalid:
        return
    block = block_numbers[i] - 1
    if i == 0 or keys[i - 1] != key:
        columns[block] = int(key % keys.dtype(col_count))
    if i + 1 == count or keys[i + 1] != key:
        run_ends[block] = i + 1


@kernel(enable_backward=False)
def _row_starts(
    keys: array(dtype=Any),
    col_count: int,
    count: int,
    block_numbers: array(dtype=int),
    offsets: array(dtype=int),
    block_count: array(dtype=int),
):
    row = tid()
    first = lower_bound(keys, 0, count, keys.dtype(row) * keys.dtype(col_count))
    start = int(0)
    if first > 0:
        start = block_numbers[first - 1]
    offsets[row] = start
    if row + 1 == offsets.shape[0]:
        block_count[0] = start


class Runs:
    """Which triplets make each block of a compact_topology() result (see the module notes):
    ``ends`` and ``sources`` (triplet indices in sorted order), ``count`` entries each (the
    triplet count, a bound of the blocks), and ``block_count`` (one int: the blocks)."""

    def __init__(self, ends, sources, count, block_count):
        self.ends = ends
        self.sources = sources
        self.count = count
        self.block_count = block_count


def compact_topology(row_count, col_count, rows, columns, triplet_count, offsets, out_columns,
                     count=None, prune_values=None):
    """Builds compact storage of the distinct valid (row, column) pairs of the first
    ``triplet_count`` triplets, sorted by row then column: ``offsets`` (row_count + 1 entries)
    and ``out_columns`` (at least triplet_count slots) are written, on the triplets' device.
    ``count`` (a one-int device array) may lower the triplet count; ``prune_values`` (a 3-D
    scalar array, one block per triplet) drops the triplets whose block is all zero. Returns
    the Runs of the blocks."""
    device = rows.device
    triplet_count = int(triplet_count)
    run_ends = empty(triplet_count, dtype=int, device=device)
    block_count = zeros(1, dtype=int, device=device)
    if triplet_count == 0:
        offsets[: row_count + 1].zero_()
        return Runs(run_ends, run_ends, 0, block_count)

    invalid = row_count * col_count
    key_type = _types.int32 if invalid < _INT32_KEY_LIMIT else _types.int64
    keys = empty(2 * triplet_count, dtype=key_type, device=device)
    indices = empty(2 * triplet_count, dtype=int, device=device)
    prune = prune_values is not None
    values = prune_values if prune else empty((0, 1, 1), dtype=float, device=device)
    launch(_triplet_keys, dim=triplet_count, device=device, record_tape=False,
           inputs=[row_count, col_count, count, rows, columns, int(prune), values, keys,
                   indices])
    radix_sort_pairs(keys, indices, triplet_count, end_bit=max(1, invalid.bit_length()))

    invalid_key = key_type(invalid)
    block_numbers = empty(triplet_count, dtype=int, device=device)
    launch(_run_heads, dim=triplet_count, device=device, record_tape=False,
           inputs=[keys, invalid_key, block_numbers])
    array_scan(block_numbers, block_numbers, inclusive=True)
    launch(_write_blocks, dim=triplet_count, device=device, record_tape=False,
           inputs=[keys, invalid_key, col_count, triplet_count, block_numbers, out_columns,
                   run_ends])
    launch(_row_starts, dim=row_count + 1, device=device, record_tape=False,
           inputs=[keys, col_count, triplet_count, block_numbers, offsets[: row_count + 1],
                   block_count])
    return Runs(run_ends, indices[:triplet_count], triplet_count, block_count)


@kernel
def _sum_runs(
    block_count: array(dtype=int),
    run_ends: array(dtype=int),
    sources: array(dtype=int),
    first: array(dtype=Any, ndim=3),
    first_count: int,
    first_scale: Any,
    second: array(dtype=Any, ndim=3),
    second_scale: Any,
    transpose: int,
    dest: array(dtype=Any, ndim=3),
):
    block, i, j = tid()
    if block >= block_count[0]:
        return
    beg = int(0)
    if block > 0:
        beg = run_ends[block - 1]
    si = i
    sj = j
    if transpose != 0:
        si = j
        sj = i
    total = dest.dtype(0.0)
    for k in range(beg, run_ends[block]):
        s = sources[k]
        if s < first_count:
            total += first_scale * first[s, si, sj]
        else:
            total += second_scale * second[s - first_count, si, sj]
    dest[block, i, j] = total


def sum_runs(runs, dest, first, first_scale=1.0, second=None, second_scale=1.0,
             transpose=False):
    """Writes every block of a compact_topology() result (its ``runs``) as the sum of its
    triplets' blocks: triplet ``s`` reads ``first_scale * first[s]`` for ``s``
    below ``first.shape[0]``, else ``second_scale * second[s - first.shape[0]]`` (3-D scalar
    arrays of ``dest``'s scalar type; blocks transposed when ``transpose``). Differentiable."""
    if runs.count == 0:
        return
    scalar = dest.dtype
    launch(_sum_runs, dim=(runs.count, dest.shape[1], dest.shape[2]), device=dest.device,
           inputs=[runs.block_count, runs.ends, runs.sources, first, first.shape[0],
                   scalar(first_scale), first if second is None else second,
                   scalar(second_scale), int(transpose)],
           outputs=[dest])
