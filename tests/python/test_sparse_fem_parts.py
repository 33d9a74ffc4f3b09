"""treadle.sparse.bsr_row_index (both overloads) vs a numpy search, and treadle.fem.Sample."""

import inspect

import numpy as np

import treadle as wp
from treadle.fem import NULL_DOF_INDEX, NULL_QP_INDEX, Sample
from treadle.sparse import bsr_row_index


@wp.kernel
def row_of_blocks(offsets: wp.array(dtype=int), rows: int, counts: wp.array(dtype=int),
                  compact: wp.array(dtype=int), active: wp.array(dtype=int)):
    i = wp.tid()
    compact[i] = bsr_row_index(offsets, rows, i - 2)
    active[i] = bsr_row_index(offsets, rows, i - 2, counts)


def _expected(offsets, counts, blocks):
    compact, active = [], []
    for b in blocks:
        row = -1
        if 0 <= b < offsets[-1]:
            row = int(np.searchsorted(offsets, b, side="right")) - 1
        compact.append(row)
        active.append(row if row >= 0 and b < offsets[row] + counts[row] else -1)
    return compact, active


def test_bsr_row_index_matches_a_numpy_search():
    offsets = np.array([0, 2, 2, 5, 6, 6, 9], dtype=np.int32)
    counts = np.array([1, 0, 3, 1, 0, 2], dtype=np.int32)
    n = offsets[-1] + 4
    compact = wp.zeros(n, dtype=int, device="cpu")
    active = wp.zeros(n, dtype=int, device="cpu")
    wp.launch(row_of_blocks, n, inputs=[wp.array(offsets, device="cpu"), len(counts),
                                         wp.array(counts, device="cpu"), compact, active],
              device="cpu")
    want_compact, want_active = _expected(offsets, counts, range(-2, n - 2))
    np.testing.assert_array_equal(compact.numpy(), want_compact)
    np.testing.assert_array_equal(active.numpy(), want_active)


def test_bsr_row_index_signature():
    assert list(inspect.signature(bsr_row_index).parameters) == ["offsets", "row_count",
                                                                 "block_index"]


@wp.kernel
def read_sample(s: Sample, out: wp.array(dtype=float)):
    out[0] = float(s.element_index)
    out[1] = s.element_coords[2]
    out[2] = float(s.qp_index)
    out[3] = s.qp_weight
    out[4] = float(s.test_dof[0] + s.trial_dof[1])


def test_fem_sample_defaults_and_kernel_use():
    s = Sample()
    assert s.qp_index == NULL_QP_INDEX == -1 and s.qp_weight == 0.0
    assert list(s.test_dof) == list(NULL_DOF_INDEX) == [-1, -1]
    s.element_index = 4
    s.element_coords = wp.vec3(0.25, 0.5, 0.125)
    s.qp_weight = 2.0
    out = wp.zeros(5, dtype=float, device="cpu")
    wp.launch(read_sample, 1, inputs=[s, out], device="cpu")
    np.testing.assert_array_equal(out.numpy(), [4.0, 0.125, -1.0, 2.0, -2.0])
