"""div_approx: the float forms of `/` (exact on the CPU), and its refusal of integers."""

import numpy as np
import pytest

import treadle as wp


@wp.kernel
def quotients(x: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), m: wp.array(dtype=wp.mat22),
              q: wp.array(dtype=wp.quat), h: wp.array(dtype=wp.float16),
              out_s: wp.array(dtype=float), out_v: wp.array(dtype=wp.vec3),
              out_m: wp.array(dtype=wp.mat22), out_q: wp.array(dtype=wp.quat),
              out_h: wp.array(dtype=wp.float16)):
    i = wp.tid()
    out_s[i] = wp.div_approx(x[i], 3.0)
    out_v[2 * i] = wp.div_approx(v[i], x[i])
    out_v[2 * i + 1] = wp.div_approx(x[i], v[i])
    out_m[i] = wp.div_approx(m[i], x[i])
    out_q[i] = wp.div_approx(q[i], x[i])
    out_h[i] = wp.div_approx(h[i], wp.float16(4.0))


def test_div_approx_matches_division(device):
    rng = np.random.default_rng(0)
    n = 4
    x = rng.uniform(0.5, 2.0, n).astype(np.float32)
    v = rng.standard_normal((n, 3)).astype(np.float32) + 3.0
    m = rng.standard_normal((n, 2, 2)).astype(np.float32)
    q = rng.standard_normal((n, 4)).astype(np.float32)
    h = np.array([1.0, 2.5, -3.0, 0.75], dtype=np.float16)
    outs = [wp.zeros(n, dtype=float, device=device), wp.zeros(2 * n, dtype=wp.vec3, device=device),
            wp.zeros(n, dtype=wp.mat22, device=device), wp.zeros(n, dtype=wp.quat, device=device),
            wp.zeros(n, dtype=wp.float16, device=device)]
    ins = [wp.array(x, device=device), wp.array(v, dtype=wp.vec3, device=device),
           wp.array(m, dtype=wp.mat22, device=device), wp.array(q, dtype=wp.quat, device=device),
           wp.array(h, dtype=wp.float16, device=device)]
    wp.launch(quotients, dim=n, inputs=ins + outs, device=device)
    tol = dict(rtol=1e-6) if device == "cpu" else dict(rtol=1e-5)  # CUDA: the fast intrinsic
    np.testing.assert_allclose(outs[0].numpy(), x / np.float32(3.0), **tol)
    np.testing.assert_allclose(outs[1].numpy()[0::2], v / x[:, None], **tol)
    np.testing.assert_allclose(outs[1].numpy()[1::2], x[:, None] / v, **tol)
    np.testing.assert_allclose(outs[2].numpy(), m / x[:, None, None], **tol)
    np.testing.assert_allclose(outs[3].numpy(), q / x[:, None], **tol)
    np.testing.assert_array_equal(outs[4].numpy(), h / np.float16(4.0))


def test_div_approx_refuses_integers():
    @wp.kernel
    def ints(a: wp.array(dtype=int)):
        a[0] = wp.div_approx(a[0], 2)

    with pytest.raises(TypeError) as info:
        wp.launch(ints, dim=1, inputs=[wp.zeros(1, dtype=int, device="cpu")], device="cpu")
    assert "div_approx(): no overload accepts (int32, int literal) (signature: div_approx(a: Float " \
           "| Vector | Matrix | quat, b: Float | Vector | Matrix | quat) -> Float | Vector | " \
           "Matrix | quat)" in str(info.value)
