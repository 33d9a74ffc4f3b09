"""treadle.sparse device functions: where a block of BSR/CSR storage lives (its row, the block
at given block coordinates) and the binary searches under them.

Storage, as in Warp: row ``r`` owns the slots ``offsets[r]`` to ``offsets[r + 1]``; with
``row_counts`` (padded topology) only the first ``row_counts[r]`` of them are active, the rest
is slack that belongs to no row. Columns are sorted within each row's active slots. A
``row_counts`` of None (or an empty array) means every slot of a row is active (compact).
"""

from typing import Any

from ..array import array
from ..kernel import func


@func
def upper_bound(values: array(dtype=Any), lo: int, hi: int, value: Any) -> int:
    """The least ``i`` in [lo, hi] with ``values[i] > value`` (``hi`` when there is none);
    ``values[lo:hi]`` must be non-decreasing."""
    first = lo
    last = hi
    while first < last:
        mid = (first + last) // 2
        if values[mid] > value:
            last = mid
        else:
            first = mid + 1
    return first


@func
def lower_bound(values: array(dtype=Any), lo: int, hi: int, value: Any) -> int:
    """The least ``i`` in [lo, hi] with ``values[i] >= value`` (``hi`` when there is none);
    ``values[lo:hi]`` must be non-decreasing."""
    first = lo
    last = hi
    while first < last:
        mid = (first + last) // 2
        if values[mid] < value:
            first = mid + 1
        else:
            last = mid
    return first


@func
def has_row_counts(row_counts: array(dtype=int)) -> bool:
    """True when ``row_counts`` is given (padded topology): not None and not empty."""
    if row_counts:
        return row_counts.shape[0] > 0
    return False


@func
def row_end(offsets: array(dtype=int), row_counts: array(dtype=int), row: int) -> int:
    """One past the last active slot of ``row``."""
    if has_row_counts(row_counts):
        return offsets[row] + row_counts[row]
    return offsets[row + 1]


@func
def bsr_row_index(offsets: array(dtype=int), row_count: int, block_index: int) -> int:
    """The row of compact BSR/CSR storage that holds block `block_index`, or -1 when no row
    does. ``offsets`` (at least ``row_count + 1`` entries, non-decreasing) holds the index of
    the first block of each row; the search is a binary search over it."""
    if block_index < 0 or block_index >= offsets[row_count]:
        return -1
    return upper_bound(offsets, 0, row_count + 1, block_index) - 1


@func
def bsr_row_index(  # noqa: F811 - an overload, as in Warp
    offsets: array(dtype=int), row_count: int, block_index: int, row_counts: array(dtype=int)
) -> int:
    """As above for storage with spare capacity per row: the row's active blocks are
    ``offsets[row]`` to ``offsets[row] + row_counts[row]``, and a block in the slack after them
    is in no row (-1). With None or an empty ``row_counts`` this is the compact search."""
    row = bsr_row_index(offsets, row_count, block_index)
    if row >= 0 and has_row_counts(row_counts):
        if block_index >= offsets[row] + row_counts[row]:
            row = -1
    return row


@func
def block_in_row(col: int, beg: int, end: int, columns: array(dtype=int)) -> int:
    """The slot in [beg, end) whose column is ``col`` (columns sorted within it), or -1."""
    slot = lower_bound(columns, beg, end, col)
    if slot < end:
        if columns[slot] == col:
            return slot
    return -1


@func
def bsr_block_index(
    row: int, col: int, bsr_offsets: array(dtype=int), bsr_columns: array(dtype=int)
) -> int:
    """The index of the block at block coordinates (row, col) of compact storage, or -1 when
    there is none (or ``row`` is negative). Columns must be sorted within each row."""
    if row < 0:
        return -1
    return block_in_row(col, bsr_offsets[row], bsr_offsets[row + 1], bsr_columns)


@func
def bsr_block_index(  # noqa: F811 - an overload, as in Warp
    row: int,
    col: int,
    bsr_offsets: array(dtype=int),
    bsr_columns: array(dtype=int),
    bsr_row_counts: array(dtype=int),
) -> int:
    """As above, searching only the active slots of the row when ``bsr_row_counts`` is given
    (None or empty: the compact search)."""
    if row < 0:
        return -1
    return block_in_row(
        col, bsr_offsets[row], row_end(bsr_offsets, bsr_row_counts, row), bsr_columns
    )
