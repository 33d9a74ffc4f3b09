"""asin and acos clamp their argument to [-1, 1] as Warp's do, in kernels and on the host."""

import numpy as np

import treadle as wp


def test_asin_acos_clamp_values_rounded_past_one():
    @wp.kernel(module="unique")
    def k(x: wp.array(dtype=float), c: wp.array(dtype=float), s: wp.array(dtype=float)):
        i = wp.tid()
        c[i] = wp.acos(x[i])
        s[i] = wp.asin(x[i])

    values = np.array([1.0000001, -1.0000001, 2.0, 0.5, np.nan], dtype=np.float32)
    x = wp.array(values, device="cpu")
    c, s = wp.zeros(5, device="cpu"), wp.zeros(5, device="cpu")
    wp.launch(k, dim=5, inputs=[x, c, s], device="cpu")
    clipped = np.clip(values, -1.0, 1.0)
    np.testing.assert_allclose(c.numpy(), np.arccos(clipped), rtol=1e-6)  # NaN stays NaN
    np.testing.assert_allclose(s.numpy(), np.arcsin(clipped), rtol=1e-6)
    assert wp.acos(1.0000001) == 0.0
    assert abs(wp.asin(-1.5) + np.pi / 2) < 1e-6
