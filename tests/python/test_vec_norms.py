"""norm_l1, norm_l2, norm_huber, norm_pseudo_huber and smooth_normalize (delta given or left
at 1): values against numpy and gradients against finite differences."""

import numpy as np

import treadle as wp
from gradcheck_util import check_grad


@wp.kernel
def norms(x: wp.array(dtype=wp.float64), d: wp.array(dtype=wp.float64),
          out: wp.array(dtype=wp.float64)):
    v = wp.vec3d(x[0], x[1], x[2])
    out[0] = wp.norm_l1(v)
    out[1] = wp.norm_l2(v)
    out[2] = wp.norm_huber(v)
    out[3] = wp.norm_huber(v, d[0])
    out[4] = wp.norm_pseudo_huber(v)
    out[5] = wp.norm_pseudo_huber(v, d[0])
    s = wp.smooth_normalize(v)
    t = wp.smooth_normalize(v, d[0])
    out[6] = s[0] + wp.float64(2.0) * s[1] + wp.float64(3.0) * s[2]
    out[7] = t[0] - t[1] + wp.float64(0.5) * t[2]


def reference(x, d):
    length = np.linalg.norm(x)

    def huber(delta):
        return 0.5 * length**2 if length <= delta else delta * (length - 0.5 * delta)

    def pseudo(delta):
        return delta * np.sqrt(delta**2 + length**2)

    s, t = x / pseudo(1.0), x / pseudo(d)
    return [np.abs(x).sum(), length, huber(1.0), huber(d), pseudo(1.0), pseudo(d),
            s @ [1.0, 2.0, 3.0], t @ [1.0, -1.0, 0.5]]


def test_values_and_gradients(device):
    for x, d in [(np.array([-2.0, -1.0, 3.0]), 5.0), (np.array([0.3, -0.2, 0.1]), 0.2)]:
        ins = [wp.array(x, dtype=wp.float64, device=device),
               wp.array([d], dtype=wp.float64, device=device)]
        out = wp.zeros(8, dtype=wp.float64, device=device)
        wp.launch(norms, 1, inputs=ins + [out], device=device)
        np.testing.assert_allclose(out.numpy(), reference(x, d), rtol=1e-12)
        check_grad(norms, 1, [x, np.array([d])], [(8,)], device)
