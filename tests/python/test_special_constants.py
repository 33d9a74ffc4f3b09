"""NaN and infinity constants in kernels compare as IEEE 754 says, on every device and width."""

import math

import numpy as np
import pytest

import treadle as wp


@wp.kernel
def compare_specials64(out: wp.array(dtype=wp.bool), vals: wp.array(dtype=wp.float64)):
    out[0] = wp.float64(wp.nan) == wp.float64(wp.nan)
    out[1] = wp.float64(wp.nan) != wp.float64(wp.nan)
    out[2] = wp.float64(wp.nan) < wp.float64(wp.nan)
    out[3] = wp.float64(wp.inf) == wp.float64(wp.inf)
    out[4] = -wp.float64(wp.inf) < wp.float64(-1.0e308)
    vals[0] = wp.float64(wp.nan)
    vals[1] = wp.float64(wp.inf)
    vals[2] = -wp.float64(wp.inf)


@wp.kernel
def compare_specials32(out: wp.array(dtype=wp.bool), vals: wp.array(dtype=wp.float32)):
    out[0] = wp.float32(wp.nan) == wp.float32(wp.nan)
    out[1] = wp.float32(wp.nan) != wp.float32(wp.nan)
    out[2] = wp.float32(wp.nan) < wp.float32(wp.nan)
    out[3] = wp.float32(wp.inf) == wp.float32(wp.inf)
    out[4] = -wp.float32(wp.inf) < wp.float32(-3.0e38)
    vals[0] = wp.float32(wp.nan)
    vals[1] = wp.float32(wp.inf)
    vals[2] = -wp.float32(wp.inf)


@pytest.mark.parametrize("kernel,dtype", [(compare_specials64, wp.float64),
                                          (compare_specials32, wp.float32)])
def test_nan_and_inf_constants(device, kernel, dtype):
    out = wp.zeros(5, dtype=wp.bool, device=device)
    vals = wp.zeros(3, dtype=dtype, device=device)
    wp.launch(kernel, dim=1, inputs=[out, vals], device=device)
    assert out.numpy().tolist() == [False, True, False, True, True]
    v = vals.numpy()
    assert math.isnan(v[0]) and v[1] == np.inf and v[2] == -np.inf
