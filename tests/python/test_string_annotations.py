"""Kernel parameter annotations written as strings (``from __future__ import annotations``):
evaluated in the function's globals and closure, as Warp does, so subscript forms work."""

from __future__ import annotations

from typing import Any

import numpy as np

import treadle as wp


@wp.kernel
def doubled(a: wp.array[Any], b: wp.array[Any]):
    i = wp.tid()
    b[i] = a[i] + a[i]


wp.overload(doubled, [wp.array[wp.float64], wp.array[wp.float64]])


def test_subscript_annotations_as_strings(device):
    a = wp.array(np.arange(4, dtype=np.float64), device=device)
    b = wp.zeros_like(a)
    wp.launch(doubled, dim=4, inputs=[a, b], device=device)
    np.testing.assert_array_equal(b.numpy(), 2.0 * np.arange(4))


def test_closure_names_in_string_annotations(device):
    vec = wp.vec2

    @wp.kernel
    def fill(out: wp.array[vec]):
        out[wp.tid()] = vec(1.0, 2.0)

    out = wp.zeros(2, dtype=wp.vec2, device=device)
    wp.launch(fill, dim=2, inputs=[out], device=device)
    np.testing.assert_array_equal(out.numpy(), [[1.0, 2.0], [1.0, 2.0]])
