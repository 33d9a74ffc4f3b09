"""s / v, s / m and s / q (componentwise), q / s, and length_sq of a quaternion: values and
gradients against finite differences."""

import numpy as np

import treadle as wp
from gradcheck_util import check_grad


@wp.kernel
def divisions(a: wp.array(dtype=wp.float64), s: wp.array(dtype=wp.float64),
              out: wp.array(dtype=wp.float64)):
    v = wp.vec3d(a[0], a[1], a[2])
    m = wp.mat22d(a[0], a[1], a[2], a[3])
    q = wp.quatd(a[0], a[1], a[2], a[3])
    rv = s[0] / v
    rm = s[0] / m
    rq = s[0] / q
    dq = q / s[0]
    for i in range(3):
        out[i] = rv[i]
    for i in range(4):
        out[3 + i] = rq[i] + dq[i] * wp.float64(2.0)
    out[7] = rm[0, 0] + rm[0, 1] * wp.float64(2.0) + rm[1, 0] * wp.float64(3.0) + rm[1, 1]
    out[8] = wp.length_sq(q)


def test_values_and_gradients(device):
    a = np.array([0.7, -1.3, 2.1, 0.9])
    s = np.array([1.7])
    ins = [wp.array(x, dtype=wp.float64, device=device) for x in (a, s)]
    out = wp.zeros(9, dtype=wp.float64, device=device)
    wp.launch(divisions, 1, inputs=ins + [out], device=device)
    m = s[0] / a
    want = list(m[:3]) + list(m + 2.0 * a / s[0]) + [m[0] + 2 * m[1] + 3 * m[2] + m[3],
                                                     float(a @ a)]
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-14)
    check_grad(divisions, 1, [a, s], [(9,)], device)


def test_host_scalar_over_vector():
    assert 2.0 / wp.vec2(4.0, 8.0) == wp.vec2(0.5, 0.25)
