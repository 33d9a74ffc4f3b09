"""min/max/clamp with C's fmin/fmax NaN rules (kernels, host, atomics), min(v)/max(v) of one
vector with the gradient to the picked component, and copysign's gradient at -0.0."""

import math

import numpy as np

import treadle as wp

NAN = math.nan


@wp.kernel
def scalars(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float),
            lo: wp.array(dtype=float)):
    i = wp.tid()
    out[3 * i] = wp.min(a[i], b[i])
    out[3 * i + 1] = wp.max(a[i], b[i])
    out[3 * i + 2] = wp.clamp(a[i], -1.0, 1.0)
    wp.atomic_min(lo, 0, a[i])


def test_nan_counts_as_missing(device):
    a = [-1.0, NAN, NAN, 5.0]
    b = [NAN, -1.0, NAN, 2.0]
    out = wp.zeros(12, dtype=float, device=device)
    lo = wp.full(1, 10.0, dtype=float, device=device)
    wp.launch(scalars, 4, inputs=[wp.array(a, dtype=float, device=device),
                                  wp.array(b, dtype=float, device=device), out, lo], device=device)
    want = []
    for x, y in zip(a, b):
        want += [np.fmin(x, y), np.fmax(x, y), np.fmin(np.fmax(x, -1.0), 1.0)]
    np.testing.assert_array_equal(out.numpy(), np.float32(want))
    assert lo.numpy()[0] == -1.0
    assert wp.min(NAN, 1.0) == 1.0 and wp.max(2.0, NAN) == 2.0 and wp.clamp(NAN, -1.0, 1.0) == -1.0


@wp.kernel
def reduce(v: wp.array(dtype=wp.vec3), x: wp.array(dtype=float), out: wp.array(dtype=float)):
    out[0] = wp.min(v[0]) + 10.0 * wp.max(v[0]) + 100.0 * wp.copysign(x[0], -1.0)


def test_vector_reduction_and_gradients(device):
    v = wp.array([[NAN, 2.0, -1.0]], dtype=wp.vec3, device=device, requires_grad=True)
    x = wp.array([-0.0], dtype=float, device=device, requires_grad=True)
    out = wp.zeros(1, dtype=float, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(reduce, 1, inputs=[v, x, out], device=device)
    tape.backward(out)
    assert out.numpy()[0] == -1.0 + 20.0
    np.testing.assert_array_equal(v.grad.numpy(), [[0.0, 10.0, 1.0]])
    assert x.grad.numpy()[0] == 100.0  # copysign(-0.0, -1): d/dx = sign(-0.0) sign(-1) = 1
    assert wp.min(wp.vec3(NAN, 2.0, -1.0)) == -1.0 and wp.max(wp.vec3(NAN, 2.0, -1.0)) == 2.0


@wp.kernel
def vec_atomic_min(lo: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    wp.atomic_min(lo, 0, v[i])


def test_vector_atomic_min_gradient_goes_to_each_components_winner(device):
    v = wp.array([[3.0, -1.0], [1.0, 2.0], [2.0, 0.5]], dtype=wp.vec2, device=device,
                 requires_grad=True)
    lo = wp.full(1, wp.vec2(100.0, 100.0), dtype=wp.vec2, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(vec_atomic_min, 3, inputs=[lo, v], device=device)
    np.testing.assert_array_equal(lo.numpy(), [[1.0, -1.0]])
    lo.grad.fill_(1.0)
    tape.backward()
    np.testing.assert_array_equal(v.grad.numpy(), [[0.0, 1.0], [1.0, 0.0], [0.0, 0.0]])


@wp.kernel
def arg_extrema(v: wp.array(dtype=wp.vec4), out: wp.array(dtype=wp.uint32), x: wp.array(dtype=float)):
    i = wp.argmin(v[0])
    j = wp.argmax(v[0])
    out[0] = i
    out[1] = j
    x[0] = v[0][i] + v[0][j]


def test_argmin_argmax(device):
    v = wp.array([[NAN, 2.0, -1.0, 2.0]], dtype=wp.vec4, device=device)
    out = wp.zeros(2, dtype=wp.uint32, device=device)
    x = wp.zeros(1, dtype=float, device=device)
    wp.launch(arg_extrema, 1, inputs=[v, out, x], device=device)
    assert out.numpy().tolist() == [2, 1] and x.numpy()[0] == 1.0
