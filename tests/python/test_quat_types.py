"""Host quaternion and transform types (wp.quat, wp.transform, ...): math checked against numpy,
arrays of them on every device, their specs for the compiler."""

import math

import numpy as np
import pytest

import treadle as wp
from treadle import _treadle
from treadle import resolver


def _hamilton_ref(a, b):
    """Hamilton product of (x, y, z, w) quaternions via the (w, v) formula."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    av, aw, bv, bw = a[:3], a[3], b[:3], b[3]
    v = aw * bv + bw * av + np.cross(av, bv)
    return np.array([*v, aw * bw - np.dot(av, bv)])


def _rotate_ref(q, v):
    """Rotation of v by unit quaternion q via its rotation matrix."""
    x, y, z, w = np.asarray(q, dtype=np.float64)
    m = np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )
    return m @ np.asarray(v, dtype=np.float64)


def _unit(rng, n):
    v = rng.normal(size=n)
    return v / np.linalg.norm(v)


# --- construction and access --------------------------------------------------------------


def test_quat_construction():
    assert wp.quat() == [0.0, 0.0, 0.0, 0.0]
    q = wp.quat(1.0, 2.0, 3.0, 4.0)
    assert (q.x, q.y, q.z, q.w) == (1.0, 2.0, 3.0, 4.0)
    assert q[3] == 4.0 and q[-4] == 1.0
    assert wp.quat([1.0, 2.0, 3.0, 4.0]) == q
    assert wp.quat(np.array([1.0, 2.0, 3.0, 4.0])) == q
    assert q != wp.quat(1.0, 2.0, 3.0, 5.0)
    q.w = 9.0
    assert q[3] == 9.0
    assert repr(wp.quat(1.0, 2.0, 3.0, 4.0)) == "quatf([1.0, 2.0, 3.0, 4.0])"
    assert str(wp.quat(1.0, 2.0, 3.0, 4.0)) == "[1.0, 2.0, 3.0, 4.0]"
    a = np.array(q)
    assert a.shape == (4,) and a.dtype == np.float32
    assert np.asarray(wp.quatd(1, 2, 3, 4)).dtype == np.float64
    assert np.asarray(wp.quath(1, 2, 3, 4)).dtype == np.float16
    with pytest.raises(ValueError):
        wp.quat(1.0, 2.0, 3.0)
    with pytest.raises(TypeError):
        wp.types.quaternion(wp.int32)


def test_quat_types_and_their_compiler_types():
    assert wp.quat is wp.quatf and wp.types.quat is wp.quat
    assert wp.types.quaternion(wp.float64) is wp.quatd
    assert wp.types.transformation(wp.float16) is wp.transformh
    assert wp.transform is wp.transformf and wp.types.transformd is wp.transformd
    T = _treadle.types
    assert wp.quat._type == T.quat(wp.float32._type) and wp.quat._type.key == "quat:float32"
    assert wp.quath._type == T.quat(wp.float16._type)
    assert wp.quatd._type == T.quat(wp.float64._type)
    assert wp.transform._type == T.transform(wp.float32._type)
    assert wp.transformd._type.key == "transform:float64"
    assert wp.types.type_of(wp.quat) == wp.quat._type
    assert wp.types.type_size_in_bytes(wp.transform) == 28
    assert wp.array(dtype=wp.quat)._type == T.array(wp.quat._type, 1)
    assert wp.array(dtype=wp.transformd, ndim=2)._type == T.array(wp.transformd._type, 2)


def test_quat_hamilton_product():
    rng = np.random.default_rng(1)
    for _ in range(10):
        a, b = rng.normal(size=4), rng.normal(size=4)
        got = np.asarray(wp.quatd(a) * wp.quatd(b))
        np.testing.assert_allclose(got, _hamilton_ref(a, b), rtol=1e-12, atol=1e-12)
    i, j, k = wp.quat(1, 0, 0, 0), wp.quat(0, 1, 0, 0), wp.quat(0, 0, 1, 0)
    assert i * j == k and j * i == -k
    assert i * i == wp.quat(0, 0, 0, -1)
    q = wp.quat(1.0, 2.0, 3.0, 4.0)
    assert q * wp.quat_identity() == q
    assert q * 2.0 == wp.quat(2.0, 4.0, 6.0, 8.0) and 2.0 * q == q * 2.0
    with pytest.raises(TypeError):
        wp.quat() * wp.quatd()


def test_quat_identity_and_axis_angle():
    assert wp.quat_identity() == [0.0, 0.0, 0.0, 1.0]
    assert type(wp.quat_identity()) is wp.quat
    assert type(wp.quat_identity(wp.float64)) is wp.quatd
    q = wp.quat_from_axis_angle(wp.vec3(0.0, 0.0, 1.0), 0.5 * math.pi)
    assert type(q) is wp.quat
    np.testing.assert_allclose(np.asarray(q), [0, 0, math.sqrt(0.5), math.sqrt(0.5)], atol=1e-7)
    qd = wp.quat_from_axis_angle(wp.vec3d(1.0, 0.0, 0.0), 1.0)
    assert type(qd) is wp.quatd
    np.testing.assert_allclose(np.asarray(qd), [math.sin(0.5), 0, 0, math.cos(0.5)])


def test_quat_rotate():
    rng = np.random.default_rng(2)
    for _ in range(10):
        axis, angle, v = _unit(rng, 3), rng.uniform(-math.pi, math.pi), rng.normal(size=3)
        q = wp.quat_from_axis_angle(wp.vec3d(axis), angle)
        got = wp.quat_rotate(q, wp.vec3d(v))
        assert type(got) is wp.vec3d
        np.testing.assert_allclose(np.asarray(got), _rotate_ref(q, v), rtol=1e-10, atol=1e-12)
        # Rotating by a * b is rotating by b, then by a.
        q2 = wp.quatd(_unit(rng, 4))
        np.testing.assert_allclose(
            np.asarray(wp.quat_rotate(q * q2, wp.vec3d(v))),
            np.asarray(wp.quat_rotate(q, wp.quat_rotate(q2, wp.vec3d(v)))),
            atol=1e-12,
        )
    qz = wp.quat_from_axis_angle(wp.vec3(0.0, 0.0, 1.0), 0.5 * math.pi)
    r = wp.quat_rotate(qz, wp.vec3(1, 0, 0))
    assert type(r) is wp.vec3
    np.testing.assert_allclose(np.asarray(r), [0, 1, 0], atol=1e-6)


def test_transform_construction():
    t = wp.transform()
    assert t == [0, 0, 0, 0, 0, 0, 1]
    assert wp.transform_identity() == t and type(wp.transform_identity()) is wp.transform
    assert type(wp.transform_identity(wp.float64)) is wp.transformd
    q = wp.quat_from_axis_angle(wp.vec3(0.0, 1.0, 0.0), 0.3)
    t = wp.transform(wp.vec3(1.0, 2.0, 3.0), q)
    assert t.p == wp.vec3(1.0, 2.0, 3.0) and type(t.p) is wp.vec3
    assert t.q == q and type(t.q) is wp.quat
    np.testing.assert_array_equal(np.asarray(t), [1, 2, 3, *np.asarray(q)])
    assert np.asarray(t).shape == (7,)
    assert wp.transform((1, 2, 3), (0, 0, 0, 1)) == [1, 2, 3, 0, 0, 0, 1]
    assert wp.transform(p=(1, 2, 3)) == [1, 2, 3, 0, 0, 0, 1]
    assert wp.transform(1, 2, 3, 4, 5, 6, 7) == [1, 2, 3, 4, 5, 6, 7]
    assert wp.transform(list(range(7))) == list(range(7))
    assert wp.transformd(0.5) == [0.5] * 7
    t.p = (4.0, 5.0, 6.0)
    t.q = wp.quat_identity()
    assert t == [4, 5, 6, 0, 0, 0, 1]
    assert t[2] == 6.0
    assert repr(wp.transform()) == "transformf([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0])"
    assert str(wp.transformd()) == "[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]"
    with pytest.raises(ValueError):
        wp.transform((1, 2), (0, 0, 0, 1))


@pytest.mark.parametrize("make, message", [
    (lambda: wp.transform(object()),
     "Invalid argument in transformation constructor: expected a scalar value, got object"),
    (lambda: wp.transform(1.0, 2.0),
     "Invalid argument 'p' in transformation constructor: expected a sequence, got float"),
    (lambda: wp.transform((1.0, 2.0, 3.0), 1.0),
     "Invalid argument 'q' in transformation constructor: expected a sequence, got float"),
    (lambda: wp.transformd(1.0, (0.0, 0.0, 0.0, 1.0)),
     "Invalid argument 'p' in transformation constructor: expected a sequence, got float"),
    (lambda: wp.transformh(p=1.0),
     "Invalid argument 'p' in transformation constructor: expected a sequence, got float"),
    (lambda: wp.transform(q=1),
     "Invalid argument 'q' in transformation constructor: expected a sequence, got int"),
    (lambda: wp.transform(*range(7), q=(0.0, 0.0, 0.0, 1.0)), "multiple values for argument 'q'"),
    (lambda: wp.transform((1.0, 2.0, 3.0), p=(1.0, 2.0, 3.0)), "multiple values for argument 'p'"),
    (lambda: wp.transform(*range(7), pos=(1.0, 2.0, 3.0)), "got an unexpected keyword argument 'pos'"),
])
def test_transform_construction_errors(make, message):
    with pytest.raises(TypeError) as info:
        make()
    assert str(info.value) == message


def test_transform_construction_with_keywords():
    assert wp.transform((1, 2, 3), q=(0, 0, 1, 0)) == [1, 2, 3, 0, 0, 1, 0]
    assert wp.transform(q=(0, 1, 0, 0)) == [0, 0, 0, 0, 1, 0, 0]
    assert wp.transformd(p=(1, 2, 3), q=(4, 5, 6, 7)) == [1, 2, 3, 4, 5, 6, 7]


def test_resolver_describe():
    assert resolver.describe(wp.quat) == ("type", _treadle.types.quat(wp.float32._type))
    assert resolver.describe(wp.transformd) == ("type", _treadle.types.transform(wp.float64._type))
    assert resolver.describe(wp.quat(1, 2, 3, 4)) == (
        "const", wp.quat._type, (1.0, 2.0, 3.0, 4.0), False)
    t = wp.transform(wp.vec3(1, 2, 3))
    assert resolver.describe(t) == (
        "const",
        wp.transform._type,
        (1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 1.0),
        False,
    )


# --- arrays -------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [wp.quath, wp.quat, wp.quatd])
def test_quat_array_round_trip(device, dtype):
    rng = np.random.default_rng(3)
    data = rng.normal(size=(6, 4)).astype(dtype._np_dtype)
    a = wp.array(data, dtype=dtype, device=device)
    assert a.dtype is dtype
    assert a.shape == (6,)
    got = a.numpy()
    assert got.shape == (6, 4) and got.dtype == dtype._np_dtype
    np.testing.assert_array_equal(got, data)
    assert a.list()[2] == dtype(data[2]) and type(a.list()[2]) is dtype
    b = wp.zeros(3, dtype=dtype, device=device)
    assert b.numpy().shape == (3, 4) and not b.numpy().any()
    b.fill_(wp.quat_identity(dtype._wp_scalar_type_))
    np.testing.assert_array_equal(b.numpy(), np.tile([0, 0, 0, 1], (3, 1)))


@pytest.mark.parametrize("dtype", [wp.transform, wp.transformd])
def test_transform_array_round_trip(device, dtype):
    rng = np.random.default_rng(4)
    data = rng.normal(size=(5, 7)).astype(dtype._np_dtype)
    a = wp.array(data, dtype=dtype, device=device)
    assert a.dtype is dtype and a.shape == (5,)
    got = a.numpy()
    assert got.shape == (5, 7)
    np.testing.assert_array_equal(got, data)
    t = a.list()[1]
    assert type(t) is dtype
    np.testing.assert_array_equal(np.asarray(t.p), data[1, :3])
    np.testing.assert_array_equal(np.asarray(t.q), data[1, 3:])
    c = wp.array([wp.transform_identity(dtype._wp_scalar_type_)] * 2, device=device)
    assert c.dtype is dtype
    np.testing.assert_array_equal(c.numpy(), np.tile([0, 0, 0, 0, 0, 0, 1], (2, 1)))
    m = wp.array(rng.normal(size=(2, 3, 7)), dtype=dtype, device=device)
    assert m.shape == (2, 3) and m.numpy().shape == (2, 3, 7)


def test_quat_array_is_not_vec4_array(device):
    data = np.arange(8, dtype=np.float32).reshape(2, 4)
    q = wp.array(data, dtype=wp.quat, device=device)
    v = wp.array(data, dtype=wp.vec4, device=device)
    assert q.dtype is wp.quat and v.dtype is wp.vec4
    assert q._dtype == wp.quat._type and v._dtype == wp.vec4._type and q._dtype != v._dtype
    v2 = wp.array(data + 10.0, dtype=wp.vec4, device=device)
    wp.copy(q, v2)  # one element size: the bytes are copied, as in Warp; the dtypes stay
    assert q.dtype is wp.quat
    np.testing.assert_array_equal(q.numpy(), data + 10.0)
    w = wp.clone(q)
    assert w.dtype is wp.quat
    np.testing.assert_array_equal(w.numpy(), data + 10.0)


def test_bfloat16_quaternions_and_transforms():
    Q = wp.types.quaternion(wp.bfloat16)
    T = wp.types.transformation(wp.bfloat16)
    assert Q.__name__ == "quatbf" and T.__name__ == "transformbf"
    assert Q._wp_scalar_type_ is wp.bfloat16 and T._length_ == 7

    @wp.kernel(module="unique")
    def square(a: wp.array(dtype=Q), out: wp.array(dtype=float)):
        q = a[0] * a[0]
        out[0] = float(q[3])

    out = wp.zeros(1, dtype=float, device="cpu")
    wp.launch(square, 1, inputs=[wp.array([Q(0.0, 0.0, 0.0, 2.0)], dtype=Q, device="cpu"), out],
              device="cpu")
    assert out.numpy()[0] == 4.0
    with pytest.raises(TypeError, match="must be float16, bfloat16, float32 or float64"):
        wp.types.quaternion(wp.int32)
