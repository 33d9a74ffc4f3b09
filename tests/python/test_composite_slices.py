"""Constant slices of vectors, quaternions and matrices in kernels and on the host: reads, slice
assignment and augmented assignment (numpy's results), their gradients, and Warp's errors."""

import re

import numpy as np
import pytest

import treadle as wp

vec0 = wp.types.vector(0, float)
mat00 = wp.types.matrix((0, 0), float)
mat23 = wp.types.matrix((2, 3), float)


@wp.kernel
def read_slices(v: wp.array(dtype=wp.vec4), m: wp.array(dtype=wp.mat33),
                q: wp.array(dtype=wp.quat), out_v: wp.array(dtype=float),
                out_m: wp.array(dtype=float)):
    a = v[0]
    b = m[0]
    parts = wp.vec4(a[1:][0], a[::-1][0], a[1::2][1], a[-2:][0])
    empty = a[7:]
    for k in range(4):
        out_v[k] = parts[k]
    out_v[4] = float(len(empty))
    s = b[1:, ::2]  # rows 1, 2; columns 0, 2
    out_m[0] = s[0, 0]
    out_m[1] = s[0, 1]
    out_m[2] = s[1, 1]
    out_m[3] = b[:, 1][2]  # column 1
    out_m[4] = b[0, 1:][1]  # row 0 from column 1
    out_m[5] = b[::-1][0, 0]
    out_m[6] = q[0][2:][1]


def test_reads_select_pythons_positions(device):
    v = np.array([[1.0, 2.0, 3.0, 4.0]], dtype=np.float32)
    m = np.arange(9, dtype=np.float32).reshape(1, 3, 3)
    q = np.array([[0.1, 0.2, 0.3, 0.4]], dtype=np.float32)
    out_v = wp.zeros(5, dtype=float, device=device)
    out_m = wp.zeros(7, dtype=float, device=device)
    wp.launch(read_slices, 1, inputs=[wp.array(v, dtype=wp.vec4, device=device),
                                      wp.array(m, dtype=wp.mat33, device=device),
                                      wp.array(q, dtype=wp.quat, device=device), out_v, out_m],
              device=device)
    a, b = v[0], m[0]
    np.testing.assert_allclose(out_v.numpy(), [a[1:][0], a[::-1][0], a[1::2][1], a[-2:][0], 0])
    s = b[1:, ::2]
    np.testing.assert_allclose(out_m.numpy(), [s[0, 0], s[0, 1], s[1, 1], b[:, 1][2],
                                               b[0, 1:][1], b[::-1][0, 0], q[0][2:][1]],
                               rtol=1e-6)


@wp.kernel
def assign_slices(v: wp.array(dtype=wp.vec4), m: wp.array(dtype=wp.mat33),
                  out_v: wp.array(dtype=wp.vec4), out_m: wp.array(dtype=wp.mat33)):
    a = v[0]
    a[1:3] = wp.vec2(10.0, 20.0)
    a[::-2] += wp.vec2(100.0, 200.0)  # components 3 and 1
    a[:] %= wp.vec4(7.0, 7.0, 7.0, 7.0)
    out_v[0] = a
    b = m[0]
    b[1:, :2] = wp.mat22(-1.0, -2.0, -3.0, -4.0)
    b[:2, 2] *= 10.0
    b[0] = wp.vec3(b[2, :][::-1])
    out_m[0] = b
    out_m[1] = m[0]
    out_m[1][5:] = mat00()  # an empty slice changes nothing


def test_assignments_match_numpy(device):
    v = np.array([[1.0, 2.0, 3.0, 4.0]], dtype=np.float32)
    m = np.arange(9, dtype=np.float32).reshape(1, 3, 3)
    out_v = wp.zeros(1, dtype=wp.vec4, device=device)
    out_m = wp.zeros(2, dtype=wp.mat33, device=device)
    wp.launch(assign_slices, 1, inputs=[wp.array(v, dtype=wp.vec4, device=device),
                                        wp.array(m, dtype=wp.mat33, device=device), out_v, out_m],
              device=device)
    a = v[0].copy()
    a[1:3] = [10.0, 20.0]
    a[::-2] += [100.0, 200.0]
    a = np.fmod(a, 7.0)
    b = m[0].copy()
    b[1:, :2] = [[-1.0, -2.0], [-3.0, -4.0]]
    b[:2, 2] *= 10.0
    b[0] = b[2, :][::-1]
    np.testing.assert_allclose(out_v.numpy()[0], a)
    np.testing.assert_allclose(out_m.numpy()[0], b)
    np.testing.assert_allclose(out_m.numpy()[1], m[0])


@wp.kernel
def slice_loss(x: wp.array(dtype=wp.vec3), y: wp.array(dtype=mat23),
               loss: wp.array(dtype=float)):
    a = x[0]
    b = y[0]
    z = wp.mat33()
    z[0, :2] = a[1:]
    z[1:, 1:] = b[:, :2] * a[0]
    z[:2, 0] += wp.vec2(a[2], b[1, 2] * b[1, 2])
    loss[0] = wp.ddot(z, z)


def test_gradients_match_finite_differences(device):
    rng = np.random.default_rng(3)
    xs = rng.normal(size=(1, 3))
    ys = rng.normal(size=(1, 2, 3))

    def run(xv, yv):
        x = wp.array(xv, dtype=wp.vec3, device=device, requires_grad=True)
        y = wp.array(yv, dtype=mat23, device=device, requires_grad=True)
        loss = wp.zeros(1, dtype=float, device=device, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(slice_loss, 1, inputs=[x, y, loss], device=device)
        tape.backward(loss=loss)
        return loss.numpy()[0], x.grad.numpy(), y.grad.numpy()

    _, gx, gy = run(xs, ys)
    eps = 1e-2
    for arr, grad in ((xs, gx), (ys, gy)):
        flat, g = arr.reshape(-1), grad.reshape(-1)
        for k in range(flat.size):
            old = flat[k]
            flat[k] = old + eps
            hi = run(xs, ys)[0]
            flat[k] = old - eps
            lo = run(xs, ys)[0]
            flat[k] = old
            assert g[k] == pytest.approx((hi - lo) / (2 * eps), rel=2e-2, abs=2e-2)


@pytest.mark.parametrize("value, message", [
    ("wp.vec3d(5.0, 6.0, 7.0)", "The provided vector is expected to be of length 3 with dtype "
                                "float32."),
    ("wp.float64(5.0)", "The provided value is expected to be a vector of length 3, with dtype "
                        "float32."),
    ("wp.vec2(5.0, 6.0)", "The length of the provided vector (2) isn't compatible with the given "
                          "slice (expected 3)."),
])
def test_vector_slice_assignment_errors(value, message):
    src = f"""
import treadle as wp

@wp.kernel(module="unique")
def bad():
    v = wp.vec4(1.0, 2.0, 3.0, 4.0)
    v[1:] = {value}
"""
    ns = {}
    path = f"/tmp/treadle_slice_error_{abs(hash(value))}.py"
    with open(path, "w") as f:
        f.write(src)
    exec(compile(src, path, "exec"), ns)
    with pytest.raises(ValueError, match=re.escape(message) + "$"):
        wp.launch(ns["bad"], 1, device="cpu")


@wp.kernel(module="unique")
def matrix_shape_error():
    m = wp.mat33()
    m[1:, :2] = wp.mat33()


def test_matrix_slice_assignment_error():
    message = ("The shape of the provided matrix (3, 3) isn't compatible with the given slice "
               "(expected (2, 2)).")
    with pytest.raises(ValueError, match=re.escape(message) + "$"):
        wp.launch(matrix_shape_error, 1, device="cpu")


@wp.kernel(module="unique")
def step_zero():
    v = wp.vec3()
    wp.expect_eq(v[::0][0], 0.0)


def test_zero_step_is_an_error():
    with pytest.raises(ValueError, match=re.escape("step_zero(): Slice step cannot be zero.")):
        wp.launch(step_zero, 1, device="cpu")


def test_host_matrix_slices():
    m = wp.mat33(*range(9))
    ref = np.arange(9, dtype=np.float32).reshape(3, 3)
    assert type(m[1:, :2]) is wp.mat22
    np.testing.assert_array_equal(np.array(m[1:, ::-2]), ref[1:, ::-2])
    np.testing.assert_array_equal(np.array(m[:, 1]), ref[:, 1])
    np.testing.assert_array_equal(np.array(m[2, 1:]), ref[2, 1:])
    assert m[5:] == mat00() and m[5:]._shape == (0, 0)
    m[1:, :2] = wp.mat22(-1.0, -2.0, -3.0, -4.0)
    m[0, ::2] = 9.0
    ref[1:, :2] = [[-1.0, -2.0], [-3.0, -4.0]]
    ref[0, ::2] = 9.0
    np.testing.assert_array_equal(np.array(m), ref)
    with pytest.raises(RuntimeError, match=re.escape(
            "The length of the provided vector (2) isn't compatible with the given slice "
            "(expected 3)")):
        m[:, 0] = wp.vec2()
    assert vec0() == vec0() and len(vec0()) == 0


def test_host_set_row_and_col_fill_from_a_number():
    m = wp.types.matrix((2, 3), float)(*range(6))
    m.set_row(0, 13.0)
    m.set_col(2, 14.0)
    np.testing.assert_array_equal(np.array(m), [[13.0, 13.0, 14.0], [3.0, 4.0, 14.0]])


@wp.kernel
def one_row_and_column(v: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    r = wp.matrix_from_rows(v[0])
    c = wp.matrix_from_cols(v[0])
    out[0] = r[0, 2] + 2.0 * c[1, 0] + wp.ddot(r, r)


def test_matrix_from_one_row_or_column(device):
    v = wp.array([[1.0, 2.0, 3.0]], dtype=wp.vec3, device=device, requires_grad=True)
    out = wp.zeros(1, dtype=float, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(one_row_and_column, 1, inputs=[v, out], device=device)
    tape.backward(loss=out)
    assert out.numpy()[0] == pytest.approx(3.0 + 4.0 + 14.0)
    np.testing.assert_allclose(v.grad.numpy()[0], [2.0, 2.0 + 4.0, 1.0 + 6.0])
