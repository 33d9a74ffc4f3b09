"""Warp's sorting utilities (wp.utils.radix_sort_pairs, segmented_sort_pairs, runlength_encode),
written as treadle kernels so that one implementation runs on the CPU and on CUDA.

radix_sort_pairs is a least-significant-digit radix sort of 8-bit digits. Keys are sorted as
unsigned integers of their width: signed and floating-point keys are first mapped in place to
unsigned integers of the same order (and back at the end). Each pass cuts the keys into blocks
of ``SORT_BLOCK``; one thread per block counts its digits into a digit-major table
(``counts[digit * blocks + block]``), the table's exclusive scan gives every (digit, block) its
first output slot, and the block's thread then moves its pairs there in order, so each pass is
stable. The passes alternate between the two halves of the arrays (Warp's layout: the second
half is scratch). segmented_sort_pairs gives each segment one thread, which merge-sorts it
bottom-up through the scratch half. runlength_encode marks run heads, scans the marks into run
numbers and writes each run's value and length from its first and last element."""

from typing import Any

import numpy as np

from . import types as _types
from .array import array, zeros
from .array_utils import flat, prefix_sum, run, scan_scratch_size, type_name
from .builtin_functions import tid
from .kernel import kernel
from .scratch import int32_scratch

RADIX_BITS = 8
"""Key bits one radix sort pass orders."""

SORT_BLOCK = 256
"""Elements one thread counts and moves in a radix sort pass."""

# How keys map to unsigned integers of the same order (_radix_flip's mode).
_FLIP_SIGNED = 0  # signed integers: flip the sign bit (its own inverse)
_FLIP_FLOAT = 1  # floats to order: negative -> every bit flipped, positive -> sign bit set
_UNFLIP_FLOAT = 2  # the inverse of _FLIP_FLOAT


# --- kernels ---------------------------------------------------------------------------------


@kernel(enable_backward=False)
def _radix_flip(keys: array(dtype=Any), one: Any, top: Any, mode: int):
    i = tid()
    k = keys[i]
    sign = one << top
    if mode == _FLIP_SIGNED:
        keys[i] = k ^ sign
    elif mode == _FLIP_FLOAT:
        if (k & sign) != 0:
            keys[i] = ~k
        else:
            keys[i] = k | sign
    else:
        if (k & sign) != 0:
            keys[i] = k ^ sign
        else:
            keys[i] = ~k


@kernel(enable_backward=False)
def _radix_count(keys: array(dtype=Any), counts: array(dtype=int), count: int, block: int,
                 blocks: int, shift: Any, mask: Any):
    b = tid()
    start = b * block
    end = min(start + block, count)
    for i in range(start, end):
        slot = int((keys[i] >> shift) & mask) * blocks + b
        counts[slot] = counts[slot] + 1


@kernel(enable_backward=False)
def _radix_move(keys: array(dtype=Any), values: array(dtype=Any), keys_out: array(dtype=Any),
                values_out: array(dtype=Any), offsets: array(dtype=int), count: int, block: int,
                blocks: int, shift: Any, mask: Any):
    b = tid()
    start = b * block
    end = min(start + block, count)
    for i in range(start, end):
        k = keys[i]
        slot = int((k >> shift) & mask) * blocks + b
        p = offsets[slot]
        offsets[slot] = p + 1
        keys_out[p] = k
        values_out[p] = values[i]


@kernel(enable_backward=False)
def _copy_pairs(keys: array(dtype=Any), values: array(dtype=Any), keys_out: array(dtype=Any),
                values_out: array(dtype=Any)):
    i = tid()
    keys_out[i] = keys[i]
    values_out[i] = values[i]


@kernel(enable_backward=False)
def _merge_sort_segments(keys: array(dtype=Any), values: array(dtype=Any),
                         starts: array(dtype=int), ends: array(dtype=int), count: int):
    # One thread per segment: bottom-up merge sort of keys[s:e] through keys[count + s:...].
    seg = tid()
    s = starts[seg]
    e = ends[seg]
    if s < 0 or e > count or s >= e:
        return
    src = 0
    width = 1
    while width < e - s:
        dst = count - src
        lo = s
        while lo < e:
            mid = min(lo + width, e)
            hi = min(lo + 2 * width, e)
            i = lo
            j = mid
            for o in range(lo, hi):
                right = i >= mid
                if not right and j < hi:
                    right = keys[src + j] < keys[src + i]
                if right:
                    keys[dst + o] = keys[src + j]
                    values[dst + o] = values[src + j]
                    j = j + 1
                else:
                    keys[dst + o] = keys[src + i]
                    values[dst + o] = values[src + i]
                    i = i + 1
            lo = hi
        src = dst
        width = width * 2
    if src != 0:
        for o in range(s, e):
            keys[o] = keys[src + o]
            values[o] = values[src + o]


@kernel(enable_backward=False)
def _run_heads(values: array(dtype=Any), heads: array(dtype=int)):
    i = tid()
    head = 1
    if i > 0:
        if values[i] == values[i - 1]:
            head = 0
    heads[i] = head


@kernel(enable_backward=False)
def _run_starts(values: array(dtype=Any), run_number: array(dtype=int),
                run_values: array(dtype=Any), run_lengths: array(dtype=int)):
    # run_number[i]: 1 + the run of element i; a run's length is first its start.
    i = tid()
    head = True
    if i > 0:
        head = values[i] != values[i - 1]
    if head:
        r = run_number[i] - 1
        run_values[r] = values[i]
        run_lengths[r] = i


@kernel(enable_backward=False)
def _run_ends(values: array(dtype=Any), run_number: array(dtype=int),
              run_lengths: array(dtype=int), run_count: array(dtype=int), count: int):
    i = tid()
    last = i == count - 1
    if not last:
        last = values[i] != values[i + 1]
    if last:
        r = run_number[i] - 1
        run_lengths[r] = i + 1 - run_lengths[r]
    if i == count - 1:
        run_count[0] = run_number[i]


# --- radix_sort_pairs ------------------------------------------------------------------------

_UNSIGNED = {4: _types.uint32, 8: _types.uint64}
_RADIX_KEYS = (_types.int32, _types.uint32, _types.float32, _types.int64, _types.uint64,
               _types.float64)
_PAIR_VALUES = _RADIX_KEYS


def _check_pair_devices(keys, values):
    if keys.device != values.device:
        raise RuntimeError(
            f"Keys and values array storage devices do not match ({keys.device.alias} vs "
            f"{values.device.alias})")


def _flip_mode(dtype, forward):
    """_radix_flip's mode for keys of `dtype`, None for unsigned keys."""
    if dtype in (_types.float32, _types.float64):
        return _FLIP_FLOAT if forward else _UNFLIP_FLOAT
    if dtype in (_types.int32, _types.int64):
        return _FLIP_SIGNED
    return None


def _flip(keys, dtype, forward):
    mode = _flip_mode(dtype, forward)
    if mode is not None:
        unsigned = keys.dtype
        top = unsigned(8 * dtype._size - 1)
        run(_radix_flip, keys.size, [keys, unsigned(1), top, mode], keys.device.alias)


def _radix_passes(keys, values, count, begin_bit, end_bit):
    """Sorts keys[:count] (unsigned) and their values by bits [begin_bit, end_bit), one pass
    per digit, alternating with keys[count:2 * count]; the result ends in the first half."""
    device = keys.device.alias
    unsigned = keys.dtype
    halves = [(keys[:count], values[:count]), (keys[count : 2 * count], values[count : 2 * count])]
    block = SORT_BLOCK
    blocks = (count + block - 1) // block
    table = (1 << RADIX_BITS) * blocks
    # the digit tables and their scans' temporaries: no allocation inside a capture
    scratch = int32_scratch(device, table + scan_scratch_size(table))
    current = 0
    for shift in range(begin_bit, end_bit, RADIX_BITS):
        digit_bits = min(RADIX_BITS, end_bit - shift)
        buckets = 1 << digit_bits
        counts = scratch[: buckets * blocks]
        counts.zero_()
        (k, v), (k_out, v_out) = halves[current], halves[1 - current]
        digit = [unsigned(shift), unsigned(buckets - 1)]
        run(_radix_count, blocks, [k, counts, count, block, blocks, *digit], device)
        cursor = [buckets * blocks]

        def take(n, cursor=cursor):
            view = scratch[cursor[0] : cursor[0] + n]
            cursor[0] += n
            return view

        prefix_sum(counts, counts, counts.size, False, take)
        run(_radix_move, blocks, [k, v, k_out, v_out, counts, count, block, blocks, *digit],
            device)
        current = 1 - current
    if current == 1:
        (k, v), (k_out, v_out) = halves[1], halves[0]
        run(_copy_pairs, count, [k, v, k_out, v_out], device)


def radix_sort_pairs(keys, values, count, begin_bit=0, end_bit=None):
    """Sorts the first `count` keys in place, moving values with them (Warp's
    ``wp.utils.radix_sort_pairs``): a stable ascending sort by key bits [begin_bit, end_bit)
    (all by default; for signed and floating-point keys, of the key's order-preserving
    unsigned form). Keys int32, uint32, float32, int64, uint64 or float64, values any of those
    types; both contiguous and at least 2 * count long, the second half being scratch."""
    _check_pair_devices(keys, values)
    if keys.dtype not in _RADIX_KEYS or values.dtype not in _PAIR_VALUES:
        raise RuntimeError(f"Unsupported keys and values data types: {type_name(keys.dtype)}, "
                           f"{type_name(values.dtype)}")
    width = 8 * keys.dtype._size
    stop = width if end_bit is None else end_bit
    if not 0 <= begin_bit <= stop <= width:
        raise RuntimeError(
            f"Invalid radix sort bit range [{begin_bit}, {stop}) for {width}-bit keys")
    if keys.size < 2 * count or values.size < 2 * count:
        raise RuntimeError(
            "Keys and values array storage must be large enough to contain 2*count elements")
    names = f"{type_name(keys.dtype)}, {type_name(values.dtype)}"
    for what, a in (("keys", keys), ("values", values)):
        if not a.is_contiguous:
            raise RuntimeError(f"radix_sort_pairs() requires a contiguous {what} array, got "
                               f"non-contiguous {what} with data types: {names}")
    if count <= 0 or begin_bit == stop:
        return
    k = keys.flatten().view(_UNSIGNED[keys.dtype._size])
    v = values.flatten().view(_UNSIGNED[values.dtype._size])
    _flip(k[:count], keys.dtype, True)
    _radix_passes(k, v, count, begin_bit, stop)
    _flip(k[:count], keys.dtype, False)


# --- segmented_sort_pairs ----------------------------------------------------------------------


def _segment_bounds(starts, ends):
    """(starts, ends) of the segments: `ends` None means ends = starts[1:]."""
    for what, a in (("segment_start_indices", starts), ("segment_end_indices", ends)):
        if a is not None and (a.dtype is not _types.int32 or a.ndim != 1):
            raise RuntimeError(f"{what} array must be a one-dimensional array of type int32")
    if ends is None:
        if starts.size == 0:
            return starts, starts
        return starts[: starts.size - 1], starts[1:]
    if ends.size < starts.size:
        raise RuntimeError("segment_end_indices must have at least as many entries as "
                           "segment_start_indices")
    return starts, ends[: starts.size]


def _check_segments_on_cpu(starts, ends, count):
    """Invalid bounds raise ValueError on the CPU, where checking costs no synchronisation."""
    lo, hi = starts.numpy(), ends.numpy()
    bad = np.nonzero((lo < 0) | (hi > count) | (lo > hi))[0]
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"segmented_sort_pairs(): segment {i} has invalid bounds "
                         f"[{lo[i]}, {hi[i]}) for count {count}")


def segmented_sort_pairs(keys, values, count, segment_start_indices, segment_end_indices=None):
    """Sorts each segment [start, end) of the first `count` keys in place, moving values with
    them (Warp's ``wp.utils.segmented_sort_pairs``): stable and ascending within each segment,
    elements outside every segment untouched. Keys int32 or float32, values int32, at least
    2 * count long (the second half is scratch); segment bounds are int32 arrays, the ends
    defaulting to ``segment_start_indices[1:]``. Segments must not overlap; on CUDA, segments
    with invalid bounds are skipped, on the CPU they raise ValueError."""
    arrays = (keys, values, segment_start_indices, segment_end_indices)
    if any(a is not None and a.device != keys.device for a in arrays):
        raise RuntimeError("Keys, values and segment index array storage devices do not match")
    if keys.size < 2 * count or values.size < 2 * count:
        raise RuntimeError("Array storage must be large enough to contain 2*count elements")
    if keys.dtype not in (_types.int32, _types.float32) or values.dtype is not _types.int32:
        raise RuntimeError(f"Unsupported data type: {type_name(keys.dtype)}")
    starts, ends = _segment_bounds(segment_start_indices, segment_end_indices)
    if count <= 0 or starts.size == 0:
        return
    k, v = flat(keys, "keys"), flat(values, "values")
    if keys.device.is_cpu:
        _check_segments_on_cpu(starts, ends, count)
    run(_merge_sort_segments, starts.size, [k, v, starts, ends, count], keys.device.alias)


# --- runlength_encode ---------------------------------------------------------------------------


def _check_runlength(values, run_values, run_lengths, run_count, value_count):
    if not values.device == run_values.device == run_lengths.device:
        raise RuntimeError("run_values, run_lengths and values storage devices do not match")
    if run_count is not None and run_count.device != values.device:
        raise RuntimeError("run_count storage device does not match other arrays")
    if value_count < 0:
        raise RuntimeError(f"value_count must be non-negative, got {value_count}")
    if run_values.size < value_count or run_lengths.size < value_count:
        raise RuntimeError(
            f"Output array storage sizes must be at least equal to value_count ({value_count})")
    if values.dtype is not run_values.dtype:
        raise RuntimeError(f"values and run_values data types do not match "
                           f"({type_name(values.dtype)} vs {type_name(run_values.dtype)})")
    if run_lengths.dtype is not _types.int32:
        raise RuntimeError("run_lengths array must be of type int32")
    if run_count is not None and run_count.dtype is not _types.int32:
        raise RuntimeError("run_count array must be of type int32")
    if values.dtype is not _types.int32:
        raise RuntimeError(f"Unsupported data type: {type_name(values.dtype)}")


def runlength_encode(values, run_values, run_lengths, run_count=None, value_count=None):
    """Run-length encodes the first `value_count` (default: all) int32 `values` (Warp's
    ``wp.utils.runlength_encode``): each run of equal neighbours gives its value to
    `run_values` and its length to `run_lengths`, in order. The number of runs is written to
    ``run_count[0]`` (an int32 array), which is returned; without `run_count` it is read back
    and returned as an int."""
    if value_count is None:
        value_count = values.size
    value_count = int(value_count)
    _check_runlength(values, run_values, run_lengths, run_count, value_count)
    device = values.device.alias
    counter = zeros(1, dtype=_types.int32, device=device) if run_count is None else run_count
    if value_count == 0:
        counter[:1].zero_()
    else:
        n = value_count
        v = flat(values, "values")[:n]
        out_values, out_lengths = flat(run_values, "run_values"), flat(run_lengths, "run_lengths")
        numbers = zeros(n, dtype=_types.int32, device=device)
        run(_run_heads, n, [v, numbers], device)
        prefix_sum(numbers, numbers, n, True)
        run(_run_starts, n, [v, numbers, out_values, out_lengths], device)
        run(_run_ends, n, [v, numbers, out_lengths, flat(counter, "run_count"), n], device)
    if run_count is None:
        return int(counter.numpy()[0])
    return run_count
