"""Quaternion and transform constructions in kernels (wp.quaternion / wp.transformation, quat(v,
w), dtype conversion, transform(p), transform(s), p=/q= keywords, Warp's all-zero transform()),
transform components t[i] (read, write, gradient), transform +, - and scaling."""

import numpy as np
import pytest

import treadle as wp
from gradcheck_util import check_grad


@wp.kernel
def build(x: wp.array(dtype=wp.float64), q16: wp.array(dtype=wp.quath),
          t32: wp.array(dtype=wp.transformf), td: wp.array(dtype=wp.transformd)):
    q = wp.types.quaternion(x[0], x[1], x[2], x[3])
    q16[0] = wp.types.quaternion(q, dtype=wp.float16)
    q16[1] = wp.quath(wp.vec3h(wp.float16(1.0), wp.float16(2.0), wp.float16(3.0)),
                      wp.float16(4.0))
    t = wp.transformation(wp.types.vector(x[0], x[1], x[2]), q)
    td[0] = t
    t32[0] = wp.types.transformation(t, dtype=wp.float32)
    t32[1] = wp.transform(p=wp.vec3(1.0, 2.0, 3.0))
    t32[2] = wp.transform(1.5)
    t32[3] = wp.transform()
    t32[4] = wp.transform(q=wp.quat(0.0, 0.0, 0.0, 1.0), p=wp.vec3(4.0, 5.0, 6.0))
    u = td[0]
    u[6] = wp.float64(9.0)
    td[1] = u + t * wp.float64(2.0) - wp.float64(0.5) * t


def test_constructions(device):
    x = wp.array([0.5, -1.0, 2.0, 0.25], dtype=wp.float64, device=device)
    q16 = wp.zeros(2, dtype=wp.quath, device=device)
    t32 = wp.zeros(5, dtype=wp.transformf, device=device)
    td = wp.zeros(2, dtype=wp.transformd, device=device)
    wp.launch(build, 1, inputs=[x, q16, t32, td], device=device)
    np.testing.assert_array_equal(q16.numpy(), np.float16([[0.5, -1.0, 2.0, 0.25], [1, 2, 3, 4]]))
    t = np.array([0.5, -1.0, 2.0, 0.5, -1.0, 2.0, 0.25])
    np.testing.assert_array_equal(td.numpy()[0], t)
    np.testing.assert_array_equal(t32.numpy()[0], t.astype(np.float32))
    np.testing.assert_array_equal(t32.numpy()[1], [1, 2, 3, 0, 0, 0, 1])
    np.testing.assert_array_equal(t32.numpy()[2], [1.5] * 7)
    np.testing.assert_array_equal(t32.numpy()[3], [0] * 7)
    np.testing.assert_array_equal(t32.numpy()[4], [4, 5, 6, 0, 0, 0, 1])
    u = t.copy()
    u[6] = 9.0
    np.testing.assert_allclose(td.numpy()[1], u + 2.0 * t - 0.5 * t)


def test_transform_copy_needs_matching_dtypes():
    @wp.kernel(module="unique")
    def kernel():
        wp.transformd(wp.transform(1.0))

    with pytest.raises(RuntimeError, match=r"copy constructing a transform requires matching "
                                           r"source and target dtypes, got `float32` and "
                                           r"`float64`$"):
        wp.launch(kernel, 1, device="cpu")

    @wp.kernel(module="unique")
    def three():
        wp.transform(1.0, 2.0, 3.0)

    with pytest.raises(RuntimeError, match=r"incompatible number of values given \(3\) when "
                                           r"constructing a transform; expected 0, 1, or 7$"):
        wp.launch(three, 1, device="cpu")


@wp.kernel
def transform_grad(a: wp.array(dtype=wp.float64), s: wp.array(dtype=wp.float64),
                   out: wp.array(dtype=wp.float64)):
    t = wp.transformd(a[0], a[1], a[2], a[3], a[4], a[5], a[6])
    t[2] = a[0] * a[1]
    u = s[0] * t + t - wp.transformation(t, dtype=wp.float64) * s[0] * s[0]
    for i in range(7):
        out[i] = u[i] * wp.float64(i + 1)


def test_transform_component_gradients_match_finite_differences(device):
    a = np.array([0.3, -0.7, 1.1, 0.2, 0.4, -0.5, 0.9])
    s = np.array([1.3])
    check_grad(transform_grad, 1, [a, s], [(7,)], device)


@wp.kernel
def rpy(a: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.quatd)):
    out[0] = wp.quat_rpy(a[0], a[1], a[2])


def test_quat_rpy_on_the_host_matches_kernels(device):
    a = wp.array([0.3, -1.1, 2.0], dtype=wp.float64, device=device)
    out = wp.zeros(1, dtype=wp.quatd, device=device)
    wp.launch(rpy, 1, inputs=[a, out], device=device)
    h = wp.quat_rpy(wp.float64(0.3), wp.float64(-1.1), wp.float64(2.0))
    assert isinstance(h, wp.quatd)
    np.testing.assert_allclose(np.array(h), out.numpy()[0], rtol=1e-15)
    assert isinstance(wp.quat_rpy(0.3, -1.1, 2.0), wp.quatf)


@wp.kernel
def set_parts(x: wp.array(dtype=wp.transform), y: wp.array(dtype=wp.transform)):
    a = wp.transform()
    b = x[0]
    a.p += b.p
    a.q = b.q * 2.0
    y[0] = a


def test_transform_parts_assigned_by_attribute(device):
    x = wp.array([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]], dtype=wp.transform, device=device,
                 requires_grad=True)
    y = wp.zeros(1, dtype=wp.transform, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(set_parts, 1, inputs=[x, y], device=device)
    np.testing.assert_array_equal(y.numpy(), [[1.0, 2.0, 3.0, 8.0, 10.0, 12.0, 14.0]])
    y.grad = wp.ones_like(y)
    tape.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0]])
