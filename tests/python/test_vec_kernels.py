"""Vectors and matrices inside kernels: construction, components, operators, builtins, arrays."""

import numpy as np
import pytest

import treadle as wp


@wp.kernel
def integrate(pos: wp.array(dtype=wp.vec3), vel: wp.array(dtype=wp.vec3), gravity: wp.vec3,
              dt: float):
    i = wp.tid()
    v = vel[i] + gravity * dt
    vel[i] = v
    pos[i] = pos[i] + v * dt


def test_particle_integration_matches_numpy(device):
    rng = np.random.default_rng(1)
    p0 = rng.standard_normal((100, 3)).astype(np.float32)
    v0 = rng.standard_normal((100, 3)).astype(np.float32)
    pos = wp.array(p0, dtype=wp.vec3, device=device)
    vel = wp.array(v0, dtype=wp.vec3, device=device)
    g = np.array([0.0, -9.8, 0.0], dtype=np.float32)
    wp.launch(integrate, dim=100, inputs=[pos, vel, wp.vec3(0.0, -9.8, 0.0), 0.01], device=device)
    v1 = v0 + g * np.float32(0.01)
    np.testing.assert_allclose(vel.numpy(), v1, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(pos.numpy(), p0 + v1 * np.float32(0.01), rtol=1e-6, atol=1e-6)


@wp.kernel
def vector_math(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=float),
                vout: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x = a[i]
    y = b[i]
    out[i, 0] = wp.dot(x, y)
    out[i, 1] = wp.length(x)
    out[i, 2] = wp.length_sq(y)
    c = wp.cross(x, y)
    out[i, 3] = c.x + c[1] * 10.0 + c.z * 100.0
    n = wp.normalize(x)
    out[i, 4] = n[0]
    z = wp.vec3()
    z.y = 2.0
    z[2] = x.x
    z.x += 1.0
    w = wp.vec3(3.0) - z * 2.0 + -y / 4.0
    vout[i] = w
    out[i, 5] = float(x == x) + float(x != y) * 2.0


def test_vector_builtins_and_components(device):
    rng = np.random.default_rng(2)
    av = rng.standard_normal((17, 3)).astype(np.float32)
    bv = rng.standard_normal((17, 3)).astype(np.float32)
    a = wp.array(av, dtype=wp.vec3, device=device)
    b = wp.array(bv, dtype=wp.vec3, device=device)
    out = wp.zeros((17, 6), dtype=wp.float32, device=device)
    vout = wp.zeros(17, dtype=wp.vec3, device=device)
    wp.launch(vector_math, dim=17, inputs=[a, b, out, vout], device=device)
    c = np.cross(av, bv)
    z = np.stack([np.ones(17), np.full(17, 2.0), av[:, 0]], axis=1)
    expected = np.stack([
        (av * bv).sum(1), np.linalg.norm(av, axis=1), (bv * bv).sum(1),
        c[:, 0] + c[:, 1] * 10 + c[:, 2] * 100, av[:, 0] / np.linalg.norm(av, axis=1),
        np.full(17, 3.0),
    ], axis=1)
    np.testing.assert_allclose(out.numpy(), expected, rtol=2e-5, atol=2e-5)
    np.testing.assert_allclose(vout.numpy(), 3.0 - z * 2.0 - bv / 4.0, rtol=1e-5, atol=1e-5)


@wp.kernel
def matrix_math(m: wp.array(dtype=wp.mat33), v: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3),
                mout: wp.array(dtype=wp.mat33), sout: wp.array2d(dtype=float)):
    i = wp.tid()
    a = m[i]
    x = v[i]
    out[i] = a @ x + a * x * 0.5
    r = wp.mat33(x, x * 2.0, wp.vec3(0.0, 0.0, 1.0))
    r[1, 1] = 7.0
    mout[i] = wp.transpose(a) @ r + wp.inverse(a) * 0.0
    sout[i, 0] = wp.determinant(a)
    sout[i, 1] = wp.trace(a)
    sout[i, 2] = a[0, 1] + a[2][0]
    sout[i, 3] = wp.determinant(wp.inverse(a) @ a)


def test_matrix_builtins(device):
    rng = np.random.default_rng(3)
    mv = (rng.standard_normal((9, 3, 3)) + 3 * np.eye(3)).astype(np.float32)
    vv = rng.standard_normal((9, 3)).astype(np.float32)
    m = wp.array(mv, dtype=wp.mat33, device=device)
    v = wp.array(vv, dtype=wp.vec3, device=device)
    out = wp.zeros(9, dtype=wp.vec3, device=device)
    mout = wp.zeros(9, dtype=wp.mat33, device=device)
    sout = wp.zeros((9, 4), dtype=wp.float32, device=device)
    wp.launch(matrix_math, dim=9, inputs=[m, v, out, mout, sout], device=device)
    mvv = np.einsum("nij,nj->ni", mv, vv)
    np.testing.assert_allclose(out.numpy(), 1.5 * mvv, rtol=1e-5, atol=1e-5)
    r = np.stack([vv, vv * 2, np.tile([0.0, 0.0, 1.0], (9, 1))], axis=1)
    r[:, 1, 1] = 7.0
    np.testing.assert_allclose(mout.numpy(), np.einsum("nji,njk->nik", mv, r), rtol=1e-4, atol=1e-4)
    expected = np.stack([np.linalg.det(mv), np.trace(mv, axis1=1, axis2=2),
                         mv[:, 0, 1] + mv[:, 2, 0], np.ones(9)], axis=1)
    np.testing.assert_allclose(sout.numpy(), expected, rtol=1e-4, atol=1e-4)


@wp.kernel
def accumulate(values: wp.array(dtype=wp.vec3), total: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    total[0] += values[i]
    wp.atomic_add(total, 1, values[i] * 2.0)


def test_vector_atomics(device):
    vals = np.tile(np.array([1.0, 2.0, 3.0], dtype=np.float32), (1000, 1))
    values = wp.array(vals, dtype=wp.vec3, device=device)
    total = wp.zeros(2, dtype=wp.vec3, device=device)
    wp.launch(accumulate, dim=1000, inputs=[values, total], device=device)
    np.testing.assert_array_equal(total.numpy(), [[1000, 2000, 3000], [2000, 4000, 6000]])


@wp.kernel
def nbody_vec3(pos: wp.array(dtype=wp.vec3), mass: wp.array(dtype=float), acc: wp.array(dtype=wp.vec3),
               eps2: float):
    i = wp.tid()
    p = pos[i]
    a = wp.vec3()
    for j in range(pos.shape[0]):
        d = pos[j] - p
        r2 = wp.dot(d, d) + eps2
        inv = 1.0 / wp.sqrt(r2)
        a = a + d * (mass[j] * inv * inv * inv)
    acc[i] = a


def test_all_pairs_nbody_with_vec3(device):
    rng = np.random.default_rng(4)
    n = 256
    p = rng.random((n, 3)).astype(np.float32)
    m = rng.random(n).astype(np.float32)
    acc = wp.zeros(n, dtype=wp.vec3, device=device)
    wp.launch(nbody_vec3, dim=n, inputs=[wp.array(p, dtype=wp.vec3, device=device),
                                         wp.array(m, device=device), acc, 0.01], device=device)
    d = p[None, :, :].astype(np.float64) - p[:, None, :]
    r2 = (d ** 2).sum(-1) + 0.01
    ref = (d * (m[None, :, None] / r2[..., None] ** 1.5)).sum(1)
    np.testing.assert_allclose(acc.numpy(), ref, rtol=1e-3, atol=1e-3)


def test_vector_argument_errors(device):
    pos = wp.zeros(2, dtype=wp.vec3, device=device)
    with pytest.raises(TypeError, match=r"integrate\(\): argument 'gravity' expects vec3f \(3 "
                                        r"components\), got 2 values"):
        wp.launch(integrate, dim=2, inputs=[pos, pos, (1.0, 2.0), 0.1], device=device)
    wrong = wp.zeros(2, dtype=wp.float32, device=device)
    with pytest.raises(TypeError, match=r"argument 'pos' expects an array of vec3f, got an array "
                                        r"of float32"):
        wp.launch(integrate, dim=2, inputs=[wrong, pos, (1.0, 2.0, 3.0), 0.1], device=device)


@wp.kernel
def where_and_builders(x: wp.array(dtype=float), vout: wp.array(dtype=wp.vec3),
                       mout: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    v = x[i]
    s = wp.where(v > 0.0, v, -2.0 * v)
    vout[i] = wp.where(i % 2, wp.vec3(s), wp.vec3(0.0, s, 1.0))
    r = wp.matrix_from_rows(wp.vec3(1.0, 2.0, 3.0), wp.vec3(4.0, 5.0, 6.0), wp.vec3(v))
    c = wp.matrix_from_cols(wp.vec3(1.0, 2.0, 3.0), wp.vec3(4.0, 5.0, 6.0), wp.vec3(v))
    mout[i] = r + c * 10.0 + wp.identity(n=3, dtype=float) * 100.0


def test_where_identity_and_matrix_builders(device):
    xs = np.array([-1.5, 2.0, 0.5, -0.25], dtype=np.float32)
    x = wp.array(xs, device=device)
    vout = wp.zeros(4, dtype=wp.vec3, device=device)
    mout = wp.zeros(4, dtype=wp.mat33, device=device)
    wp.launch(where_and_builders, dim=4, inputs=[x, vout, mout], device=device)
    s = np.where(xs > 0, xs, -2 * xs)
    expected_v = np.where((np.arange(4) % 2)[:, None] == 1, np.stack([s, s, s], 1),
                          np.stack([np.zeros(4), s, np.ones(4)], 1))
    np.testing.assert_allclose(vout.numpy(), expected_v)
    for i, v in enumerate(xs):
        r = np.array([[1, 2, 3], [4, 5, 6], [v, v, v]])
        np.testing.assert_allclose(mout.numpy()[i], r + r.T * 10 + np.eye(3) * 100, rtol=1e-6)


@wp.kernel
def components_in_loops(n: int, out: wp.array(dtype=wp.vec3)):
    v = wp.vec3()
    m = wp.mat22()
    for i in range(n):
        v.x += 1.0
        m[1, 0] = m[1, 0] + 2.0
    j = 0
    while j < n:
        v[2] = v[2] - 1.0
        j += 1
    out[0] = wp.vec3(v.x, m[1, 0], v.z)


def test_components_assigned_in_dynamic_loops(device):
    out = wp.zeros(1, dtype=wp.vec3, device=device)
    wp.launch(components_in_loops, dim=1, inputs=[5, out], device=device)
    np.testing.assert_array_equal(out.numpy()[0], [5.0, 10.0, -5.0])


@wp.kernel
def flavour_casts(v: wp.array(dtype=wp.vec3), m: wp.array(dtype=wp.mat22),
                  vd: wp.array(dtype=wp.vec3d), vi: wp.array(dtype=wp.vec3i),
                  vh: wp.array(dtype=wp.vec3h), md: wp.array(dtype=wp.mat22d),
                  back: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    vd[i] = wp.vec3d(v[i])
    vi[i] = wp.vec3i(v[i])
    vh[i] = wp.vec3h(v[i])
    md[i] = wp.mat22d(m[i])
    back[i] = wp.vec3(wp.vec3d(v[i]) * 2.0) + wp.vec3(wp.vec3i(1, 2, 3))


def test_vector_and_matrix_casts_between_flavours(device):
    vals = np.array([[1.5, -2.7, 3.999], [-0.5, 1e4, 7.0]], dtype=np.float32)
    mats = np.arange(8, dtype=np.float32).reshape(2, 2, 2) / 3.0
    v = wp.array(vals, dtype=wp.vec3, device=device)
    m = wp.array(mats, dtype=wp.mat22, device=device)
    outs = [wp.zeros(2, dtype=t, device=device)
            for t in (wp.vec3d, wp.vec3i, wp.vec3h, wp.mat22d, wp.vec3)]
    wp.launch(flavour_casts, dim=2, inputs=[v, m, *outs], device=device)
    vd, vi, vh, md, back = (o.numpy() for o in outs)
    np.testing.assert_array_equal(vd, vals.astype(np.float64))
    np.testing.assert_array_equal(vi, np.trunc(vals).astype(np.int32))  # C casts truncate
    np.testing.assert_array_equal(vh, vals.astype(np.float16))
    np.testing.assert_array_equal(md, mats.astype(np.float64))
    np.testing.assert_array_equal(back, vals * 2 + np.array([1, 2, 3], dtype=np.float32))


@wp.kernel
def operator_functions(x: wp.array(dtype=wp.vec3), m: wp.mat33, out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = wp.add(wp.mul(m, x[i]), wp.sub(x[i], wp.neg(x[i])))
    out[i] = wp.div(out[i], 2.0)


def test_operators_called_as_functions(device):
    x = wp.array(np.ones((2, 3), dtype=np.float32), dtype=wp.vec3, device=device)
    out = wp.zeros(2, dtype=wp.vec3, device=device)
    wp.launch(operator_functions, 2, inputs=[x, wp.mat33(1, 0, 0, 0, 2, 0, 0, 0, 3), out],
              device=device)
    np.testing.assert_allclose(out.numpy(), [[1.5, 2.0, 2.5]] * 2)
