"""Componentwise vector % and sign (kernels and host, Warp's C remainder rules, the gradient of
% against finite differences) and ** on float scalars on the host."""

import numpy as np
import pytest

import treadle as wp


@wp.kernel
def mod_sign_i(a: wp.array(dtype=wp.vec3i), b: wp.array(dtype=wp.vec3i),
               r: wp.array(dtype=wp.vec3i), s: wp.array(dtype=wp.vec3i)):
    i = wp.tid()
    r[i] = a[i] % b[i]
    s[i] = wp.sign(a[i])


def test_integer_vector_remainder_follows_the_dividend(device):
    a = wp.array([[-7, 7, 5], [9, -9, 0]], dtype=wp.vec3i, device=device)
    b = wp.array([[2, -2, 0], [4, 4, 3]], dtype=wp.vec3i, device=device)
    r = wp.zeros(2, dtype=wp.vec3i, device=device)
    s = wp.zeros(2, dtype=wp.vec3i, device=device)
    wp.launch(mod_sign_i, 2, inputs=[a, b, r, s], device=device)
    np.testing.assert_array_equal(r.numpy(), [[-1, 1, 0], [1, -1, 0]])
    np.testing.assert_array_equal(s.numpy(), [[-1, 1, 1], [1, -1, 1]])
    assert wp.vec3i(-7, 7, 5) % wp.vec3i(2, -2, 0) == wp.vec3i(-1, 1, 0)
    assert wp.sign(wp.vec3i(-9, 0, 4)) == wp.vec3i(-1, 1, 1)


def test_float_vector_remainder_is_fmod():
    r = wp.vec3d(-5.5, 6.0, 7.25) % wp.vec3d(2.0, 4.0, -2.0)
    np.testing.assert_array_equal(np.array(r), np.fmod([-5.5, 6.0, 7.25], [2.0, 4.0, -2.0]))
    assert wp.mod(wp.vec2h(5.0, 6.0), wp.vec2h(2.0, 4.0)) == wp.vec2h(1.0, 2.0)
    with pytest.raises(TypeError):
        wp.vec3d(1.0, 2.0, 3.0) % wp.vec2d(1.0, 2.0)


@wp.kernel
def mod_grad(a: wp.array(dtype=wp.float64), b: wp.array(dtype=wp.float64),
             out: wp.array(dtype=wp.float64)):
    va = wp.vec3d(a[0], a[1], a[2])
    vb = wp.vec3d(b[0], b[1], b[2])
    r = va % vb + wp.cw_mul(wp.sign(va), va)
    out[0] = r[0]
    out[1] = r[1]
    out[2] = r[2]


def test_vector_remainder_gradient_is_warps(device):
    # d(a % b)/da = 1 (componentwise), and b gets no gradient (Warp's rule)
    a = wp.array([-5.3, 6.7, 7.1], dtype=wp.float64, device=device, requires_grad=True)
    b = wp.array([2.1, 4.3, -1.9], dtype=wp.float64, device=device, requires_grad=True)
    out = wp.zeros(3, dtype=wp.float64, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(mod_grad, 1, inputs=[a, b, out], device=device)
    out.grad = wp.ones_like(out)
    tape.backward()
    np.testing.assert_allclose(a.grad.numpy(), 1.0 + np.sign([-5.3, 6.7, 7.1]))
    np.testing.assert_array_equal(b.grad.numpy(), np.zeros(3))


def test_float_scalars_raise_to_powers_on_the_host():
    assert float(wp.float16(2.0) ** wp.float16(3.0)) == 8.0
    assert isinstance(wp.float32(3.0) ** wp.float32(2.0), wp.float32)
    assert np.isnan(float(wp.float64(-2.0) ** wp.float64(0.5)))
    with pytest.raises(TypeError):
        wp.int32(2) ** wp.int32(3)
