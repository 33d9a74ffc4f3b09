"""isnan / isinf / isfinite of vectors, matrices and quaternions (any component NaN or
infinite; every component finite), in kernels and on the host."""

import math

import numpy as np

import treadle as wp


@wp.kernel
def checks(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.bool)):
    v = wp.vec3d(x[0], x[1], x[2])
    m = wp.mat22d(x[0], x[1], x[2], x[3])
    q = wp.quatd(x[0], x[1], x[2], x[3])
    out[0] = wp.isnan(v)
    out[1] = wp.isinf(v)
    out[2] = wp.isfinite(v)
    out[3] = wp.isnan(m)
    out[4] = wp.isinf(m)
    out[5] = wp.isfinite(m)
    out[6] = wp.isnan(q)
    out[7] = wp.isinf(q)
    out[8] = wp.isfinite(q)


def run(values, device):
    x = wp.array(values, dtype=wp.float64, device=device)
    out = wp.zeros(9, dtype=wp.bool, device=device)
    wp.launch(checks, 1, inputs=[x, out], device=device)
    return out.numpy().tolist()


def test_composites_in_kernels(device):
    assert run([1.0, 2.0, 3.0, 4.0], device) == [False, False, True] * 3
    assert run([1.0, math.nan, 3.0, 4.0], device) == [True, False, False] * 3
    assert run([1.0, 2.0, -math.inf, 4.0], device) == [False, True, False] * 3
    # the fourth component is only in the matrix and the quaternion
    assert run([1.0, 2.0, 3.0, math.inf], device) == [False, False, True] + [False, True, False] * 2


def test_composites_on_the_host():
    assert wp.isnan(wp.vec3(1.0, math.nan, 0.0)) is True
    assert wp.isinf(wp.mat22(1.0, 2.0, math.inf, 0.0)) is True
    assert wp.isfinite(wp.quat(0.0, 0.0, 0.0, 1.0)) is True
    assert wp.isfinite(wp.vec2(np.inf, 0.0)) is False
