"""treadle.sparse: the parts of Warp's ``warp.sparse`` that treadle has so far.

Only ``bsr_row_index``, the @wp.func that finds the block row of a block in compressed
(BSR/CSR) row storage, exists; Warp's BSR matrix type and its operations do not yet.
"""

from .array import array
from .kernel import func


@func
def bsr_row_index(offsets: array(dtype=int), row_count: int, block_index: int) -> int:
    """The row of compact BSR/CSR storage that holds block `block_index`, or -1 when no row
    does. ``offsets`` (at least ``row_count + 1`` entries, non-decreasing) holds the index of
    the first block of each row; the search is a binary search over it."""
    if block_index < 0 or block_index >= offsets[row_count]:
        return -1
    # The first row end beyond block_index: lo is the least i with offsets[i] > block_index.
    lo = int(0)
    hi = row_count + 1
    while lo < hi:
        mid = (lo + hi) // 2
        if offsets[mid] > block_index:
            hi = mid
        else:
            lo = mid + 1
    return lo - 1


@func
def bsr_row_index(  # noqa: F811 - an overload, as in Warp
    offsets: array(dtype=int), row_count: int, block_index: int, row_counts: array(dtype=int)
) -> int:
    """As above for storage with spare capacity per row: the row's active blocks are
    ``offsets[row]`` to ``offsets[row] + row_counts[row]``, and a block in the slack after them
    is in no row (-1). With an empty ``row_counts`` this is the compact search (Warp also takes
    None; treadle's launches refuse None for an array a kernel reads)."""
    row = bsr_row_index(offsets, row_count, block_index)
    if row_counts.shape[0] > 0 and row >= 0:
        if block_index >= offsets[row] + row_counts[row]:
            row = -1
    return row
