"""treadle.sparse.bsr_mm kernels: counting and listing the product terms of ``x @ y`` and
computing the product blocks.

A *term* is one pair (x block, y block) whose product lands in the result: x block ``b`` in row
``r`` with column ``k`` meets every block of y's row ``k``. Terms are numbered per x block
(``term_offsets``, an exclusive scan of the per-block counts). A row whose terms outnumber the
column span they reach (a "deep" row) lists that span instead, one term per column, all
charged to its last x block and marked by ``row_min[r]`` (the span's first column; -1 for an
ordinary row); its product blocks are then found by searching y for every x block of the row.
"""

from typing import Any

from ..array import array
from ..builtin_functions import printf, tid
from ..kernel import func, kernel
from .funcs import bsr_block_index, bsr_row_index, row_end


@kernel(enable_backward=False)
def count_terms(
    y_col_count: int,
    x_offsets: array(dtype=int),
    x_row_counts: array(dtype=int),
    x_columns: array(dtype=int),
    y_offsets: array(dtype=int),
    y_row_counts: array(dtype=int),
    y_columns: array(dtype=int),
    row_min: array(dtype=int),
    term_counts: array(dtype=int),
):
    """Per x row: ``term_counts[b + 1]`` = the terms of x block ``b`` (zeroed beforehand)."""
    row = tid()
    beg = x_offsets[row]
    end = row_end(x_offsets, x_row_counts, row)
    terms = int(0)
    lowest = y_col_count
    highest = int(-1)
    for block in range(beg, end):
        y_row = x_columns[block]
        y_beg = y_offsets[y_row]
        y_end = row_end(y_offsets, y_row_counts, y_row)
        if y_end > y_beg:
            lowest = min(lowest, y_columns[y_beg])
            highest = max(highest, y_columns[y_end - 1])
        term_counts[block + 1] = y_end - y_beg
        terms += y_end - y_beg
    span = max(0, highest - lowest + 1)
    if terms > span:
        row_min[row] = lowest
        for block in range(beg, end):
            term_counts[block + 1] = 0
        term_counts[end] = span
    else:
        row_min[row] = -1


@kernel(enable_backward=False)
def list_terms(
    capacity: int,
    x_nnz: int,
    x_row_count: int,
    x_offsets: array(dtype=int),
    x_row_counts: array(dtype=int),
    x_columns: array(dtype=int),
    y_offsets: array(dtype=int),
    y_columns: array(dtype=int),
    row_min: array(dtype=int),
    term_offsets: array(dtype=int),
    rows: array(dtype=int),
    cols: array(dtype=int),
    sources: array(dtype=int),
):
    """Term ``t`` (of ``capacity`` listed): its result row and column, and its x block (-1 for
    a term of a deep row); rows and columns -1 past the last term."""
    t = tid()
    total = term_offsets[x_nnz]
    if t == capacity - 1 and total > capacity:
        printf("bsr_mm(): %d potential product blocks exceeded max_new_nnz (%d); the rest are "
               "dropped\n", total, capacity)
    if t >= total:
        rows[t] = -1
        cols[t] = -1
        sources[t] = -1
        return
    block = bsr_row_index(term_offsets, x_nnz, t)
    row = bsr_row_index(x_offsets, x_row_count, block, x_row_counts)
    position = t - term_offsets[block]
    rows[t] = row
    if row_min[row] == -1:
        cols[t] = y_columns[y_offsets[x_columns[block]] + position]
        sources[t] = block
    else:
        cols[t] = row_min[row] + position
        sources[t] = -1


@func
def block_product(x_values: array(dtype=Any, ndim=3), x_block: int,
                  y_values: array(dtype=Any, ndim=3), y_block: int, i: int, j: int):
    """Coefficient (i, j) of the product of block ``x_block`` of x and ``y_block`` of y."""
    total = x_values.dtype(0.0)
    for k in range(x_values.shape[2]):
        total += x_values[x_block, i, k] * y_values[y_block, k, j]
    return total


@func
def row_product(
    row: int,
    col: int,
    i: int,
    j: int,
    x_offsets: array(dtype=int),
    x_row_counts: array(dtype=int),
    x_columns: array(dtype=int),
    x_values: array(dtype=Any, ndim=3),
    y_offsets: array(dtype=int),
    y_row_counts: array(dtype=int),
    y_columns: array(dtype=int),
    y_values: array(dtype=Any, ndim=3),
):
    """Coefficient (i, j) of block (row, col) of x @ y, searching y for every x block."""
    total = x_values.dtype(0.0)
    for block in range(x_offsets[row], row_end(x_offsets, x_row_counts, row)):
        y_block = bsr_block_index(x_columns[block], col, y_offsets, y_columns, y_row_counts)
        if y_block != -1:
            total += block_product(x_values, block, y_values, y_block, i, j)
    return total


@kernel(enable_backward=False)
def product_values(
    alpha: Any,
    beta: Any,
    z_row_count: int,
    z_offsets: array(dtype=int),
    z_columns: array(dtype=int),
    run_ends: array(dtype=int),
    run_sources: array(dtype=int),
    copied: int,
    old_z: array(dtype=Any, ndim=3),
    term_sources: array(dtype=int),
    term_offsets: array(dtype=int),
    row_min: array(dtype=int),
    x_offsets: array(dtype=int),
    x_row_counts: array(dtype=int),
    x_columns: array(dtype=int),
    x_values: array(dtype=Any, ndim=3),
    y_offsets: array(dtype=int),
    y_row_counts: array(dtype=int),
    y_columns: array(dtype=int),
    y_values: array(dtype=Any, ndim=3),
    z_values: array(dtype=Any, ndim=3),
):
    """Block coefficient (block, i, j) of the compact result: beta times the old z blocks and
    alpha times the terms of its run (triplets below ``copied`` are old z blocks)."""
    block, i, j = tid()
    if block >= z_offsets[z_row_count]:
        return
    row = bsr_row_index(z_offsets, z_row_count, block)
    beg = int(0)
    if block > 0:
        beg = run_ends[block - 1]
    deep = row_min[row] != -1
    kept = z_values.dtype(0.0)
    products = z_values.dtype(0.0)
    for k in range(beg, run_ends[block]):
        s = run_sources[k]
        if s < copied:
            kept += beta * old_z[s, i, j]
        elif not deep:
            t = s - copied
            x_block = term_sources[t]
            y_block = y_offsets[x_columns[x_block]] + t - term_offsets[x_block]
            products += block_product(x_values, x_block, y_values, y_block, i, j)
    if deep:
        products = row_product(row, z_columns[block], i, j, x_offsets, x_row_counts, x_columns,
                               x_values, y_offsets, y_row_counts, y_columns, y_values)
    z_values[block, i, j] = kept + alpha * products


@kernel(enable_backward=False)
def add_masked_products(
    alpha: Any,
    z_row_count: int,
    z_offsets: array(dtype=int),
    z_row_counts: array(dtype=int),
    z_columns: array(dtype=int),
    x_offsets: array(dtype=int),
    x_row_counts: array(dtype=int),
    x_columns: array(dtype=int),
    x_values: array(dtype=Any, ndim=3),
    y_offsets: array(dtype=int),
    y_row_counts: array(dtype=int),
    y_columns: array(dtype=int),
    y_values: array(dtype=Any, ndim=3),
    z_values: array(dtype=Any, ndim=3),
):
    """Adds alpha * (x @ y) to every existing block of z (the masked product)."""
    block, i, j = tid()
    row = bsr_row_index(z_offsets, z_row_count, block, z_row_counts)
    if row == -1:
        return
    products = row_product(row, z_columns[block], i, j, x_offsets, x_row_counts, x_columns,
                           x_values, y_offsets, y_row_counts, y_columns, y_values)
    z_values[block, i, j] = z_values[block, i, j] + alpha * products
