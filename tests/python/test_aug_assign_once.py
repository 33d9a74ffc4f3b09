"""Augmented assignment evaluates its target's indices once: `x[f()].y += v` calls f once."""

import numpy as np

import treadle as wp


@wp.struct
class Cell:
    value: float
    v: wp.vec3


@wp.func
def next_index(counter: wp.array(dtype=int), i: int):
    wp.atomic_add(counter, 0, 1)
    return i


@wp.kernel
def aug_assign_places(counter: wp.array(dtype=int), cells: wp.array(dtype=Cell),
                      vals: wp.array(dtype=float), mats: wp.array(dtype=wp.mat22)):
    i = wp.tid()
    cells[next_index(counter, i)].value += 5.0          # field of an array element
    vals[next_index(counter, i)] += 2.0                 # atomic element update
    v = wp.vec3(1.0, 2.0, 3.0)
    v[next_index(counter, 1)] *= 10.0                   # component of a local
    cells[i].v = v
    m = mats[i]
    m[next_index(counter, 0), next_index(counter, 1)] -= 1.0  # matrix entry, two indices
    mats[i] = m


def test_indices_with_calls_run_once(device):
    counter = wp.zeros(1, dtype=int, device=device)
    cells = wp.zeros(1, dtype=Cell, device=device)
    vals = wp.ones(1, dtype=float, device=device)
    mats = wp.zeros(1, dtype=wp.mat22, device=device)
    wp.launch(aug_assign_places, dim=1, inputs=[counter, cells, vals, mats], device=device)
    assert counter.numpy()[0] == 5
    c = cells.numpy()[0]
    assert c[0] == 5.0
    np.testing.assert_array_equal(c[1], [1.0, 20.0, 3.0])
    assert vals.numpy()[0] == 3.0
    np.testing.assert_array_equal(mats.numpy()[0], [[0.0, -1.0], [0.0, 0.0]])
