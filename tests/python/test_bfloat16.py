"""bfloat16: host values, arrays (numpy sees its bits as uint16), kernel conversions, arithmetic,
math, comparisons, atomics, gradients, vectors, matrices and struct fields, on every device.
Results are compared with numpy computed in float64 and rounded once to bfloat16."""

import numpy as np

import treadle as wp
from treadle import scalar_types
from treadle._src import types as src_types

bits_of = scalar_types.float64_to_bfloat16_bits
values_of = scalar_types.bfloat16_bits_to_float32


# numpy() shows bfloat16 as ml_dtypes.bfloat16 where that package is installed, else as bits
SHOWN = scalar_types.ml_bfloat16() or np.dtype(np.uint16)


def bits(a):
    """The bfloat16 bits of treadle array ``a`` (as uint16), whatever numpy() shows."""
    return a.numpy().view(np.uint16)


def rounded(x):
    """numpy values rounded once to bfloat16, as float32."""
    return values_of(bits_of(np.asarray(x, dtype=np.float64)))


def sample_floats(n=4096, seed=7):
    """Finite float32 values of every magnitude, both signs, and the special ones."""
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 2**32, size=n, dtype=np.uint64).astype(np.uint32).view(np.float32)
    raw = raw[np.isfinite(raw)]
    special = np.array([0.0, -0.0, 1.0, -1.0, 1.00390625, 1.005859375, 3.3895314e38, 3.40e38,
                        1e-38, 1e-40, np.inf, -np.inf], dtype=np.float32)
    return np.concatenate([raw, special])


@wp.kernel
def to_bf16(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.bfloat16)):
    i = wp.tid()
    y[i] = wp.bfloat16(x[i])


@wp.kernel
def from_bf16(x: wp.array(dtype=wp.bfloat16), y: wp.array(dtype=wp.float32)):
    i = wp.tid()
    y[i] = wp.float32(x[i])


@wp.kernel
def f64_to_bf16(x: wp.array(dtype=wp.float64), y: wp.array(dtype=wp.bfloat16)):
    i = wp.tid()
    y[i] = wp.bfloat16(x[i])


def test_host_rounding_is_the_kernels(device):
    x = sample_floats()
    y = wp.zeros(len(x), dtype=wp.bfloat16, device=device)
    wp.launch(to_bf16, len(x), inputs=[wp.array(x, device=device), y], device=device)
    np.testing.assert_array_equal(bits(y), scalar_types.float32_to_bfloat16_bits(x))
    # from float64, rounded once (not through float32): 1 + 2^-8 + 2^-40 rounds up
    d = np.concatenate([x.astype(np.float64) * (1.0 + 2.0**-30), [1.0 + 2.0**-8 + 2.0**-40]])
    z = wp.zeros(len(d), dtype=wp.bfloat16, device=device)
    wp.launch(f64_to_bf16, len(d), inputs=[wp.array(d, device=device), z], device=device)
    np.testing.assert_array_equal(bits(z), bits_of(d))
    assert bits(z)[-1] == 0x3F81
    back = wp.zeros(len(x), dtype=wp.float32, device=device)
    wp.launch(from_bf16, len(x), inputs=[y, back], device=device)
    np.testing.assert_array_equal(back.numpy(), values_of(bits(y)))


def test_nans_stay_nan_and_signed_zero_survives(device):
    snan = np.array([0x7F800001, 0xFF800001, 0x7FBFFFFF, 0x7FC00000], dtype=np.uint32)
    x = np.concatenate([snan.view(np.float32), np.array([-0.0], dtype=np.float32)])
    want = scalar_types.float32_to_bfloat16_bits(x)
    assert np.all(np.isnan(values_of(want[:4])))
    assert want[4] == 0x8000
    y = wp.zeros(len(x), dtype=wp.bfloat16, device=device)
    wp.launch(to_bf16, len(x), inputs=[wp.array(x, device=device), y], device=device)
    np.testing.assert_array_equal(bits(y), want)
    assert np.isnan(wp.bfloat16(float("nan")).value)


def test_scalar_host_values():
    assert wp.bfloat16(3.14).value == 3.140625
    assert float(wp.bfloat16(1.0 + 2.0**-8 + 2.0**-40)) == 1.0078125
    assert float(wp.bfloat16(2.0) * wp.bfloat16(1.5)) == 3.0
    assert float(wp.bfloat16(256.0) + 1.0) == 256.0  # 257 rounds to even
    assert repr(wp.bfloat16(0.5)) == "bfloat16(0.5)"
    assert wp.bfloat16 in wp.types.float_types and wp.types.type_size_in_bytes(wp.bfloat16) == 2
    assert wp.types.dtype_to_numpy(wp.bfloat16) == np.uint16
    assert wp.types.dtype_from_numpy(np.uint16) is wp.uint16  # numpy has no bfloat16


def test_src_helpers_convert_whole_arrays():
    x = np.array([1.0, 2.5, -3.14, 0.0, np.inf, -np.inf, np.nan], dtype=np.float32)
    bits = src_types._np_float32_to_bfloat16_bits(x)
    assert bits.dtype == np.uint16
    back = src_types._np_bfloat16_bits_to_float32(bits)
    assert back.dtype == np.float32
    np.testing.assert_allclose(back[:4], x[:4], rtol=1e-2)
    assert np.isinf(back[4]) and np.isinf(back[5]) and np.isnan(back[6])
    assert src_types.warp_type_to_np_dtype[wp.bfloat16] is np.uint16
    assert wp.bfloat16 not in src_types.np_dtype_to_warp_type.values()


def test_arrays_hold_bits_numpy_shows_them(device):
    values = [1.0, 2.5, 3.14, -0.5, 0.0, 100.0, -0.001]
    want = bits_of(values)
    for data in (values, tuple(values), np.array(values, dtype=np.float32),
                 np.array(values, dtype=np.float64)):
        a = wp.array(data, dtype=wp.bfloat16, device=device)
        assert a.dtype is wp.bfloat16 and a.shape == (len(values),)
        np.testing.assert_array_equal(bits(a), want)
        assert a.numpy().dtype == SHOWN
        assert a.list() == rounded(values).tolist()
    raw = wp.array(np.array([0x3F80, 0x4000], dtype=np.uint16), dtype=wp.bfloat16, device=device)
    assert raw.list() == [1.0, 2.0]  # uint16 data are bits already, as in Warp
    z = wp.zeros((2, 3), dtype=wp.bfloat16, device=device)
    z.fill_(2.5)
    np.testing.assert_array_equal(bits(z), np.full((2, 3), 0x4020, dtype=np.uint16))
    z.assign([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert z.list() == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    f = wp.array(z, dtype=wp.float32, device=device)  # a conversion of values, not of bits
    np.testing.assert_array_equal(f.numpy(), [[1, 2, 3], [4, 5, 6]])
    assert "[4. 5. 6.]" in str(z) and z.view(wp.uint16).dtype is wp.uint16


@wp.kernel
def arithmetic(a: wp.array(dtype=wp.bfloat16), b: wp.array(dtype=wp.bfloat16),
               out: wp.array2d(dtype=wp.bfloat16)):
    i = wp.tid()
    out[0, i] = a[i] + b[i]
    out[1, i] = a[i] - b[i]
    out[2, i] = a[i] * b[i]
    out[3, i] = a[i] / b[i]
    out[4, i] = -a[i]
    out[5, i] = wp.min(a[i], b[i])
    out[6, i] = wp.max(a[i], b[i])
    out[7, i] = a[i] * wp.bfloat16(2.0) + wp.bfloat16(0.5)


def test_arithmetic_is_correctly_rounded(device):
    rng = np.random.default_rng(3)
    a64 = rounded(rng.uniform(-100, 100, 64)).astype(np.float64)
    b64 = rounded(rng.uniform(0.5, 50, 64)).astype(np.float64)
    a = wp.array(a64, dtype=wp.bfloat16, device=device)
    b = wp.array(b64, dtype=wp.bfloat16, device=device)
    out = wp.zeros((8, 64), dtype=wp.bfloat16, device=device)
    wp.launch(arithmetic, 64, inputs=[a, b, out], device=device)
    want = [a64 + b64, a64 - b64, a64 * b64, a64 / b64, -a64, np.minimum(a64, b64),
            np.maximum(a64, b64), rounded(a64 * 2.0).astype(np.float64) + 0.5]
    for row, expected in zip(bits(out), want):
        np.testing.assert_array_equal(row, bits_of(expected))


@wp.kernel
def math(x: wp.array(dtype=wp.bfloat16), out: wp.array2d(dtype=wp.bfloat16)):
    i = wp.tid()
    v = x[i]
    out[0, i] = wp.sin(v)
    out[1, i] = wp.sqrt(v)
    out[2, i] = wp.exp(v)
    out[3, i] = wp.log(v)
    out[4, i] = wp.pow(v, wp.bfloat16(2.0))
    out[5, i] = wp.floor(v * wp.bfloat16(3.0))
    out[6, i] = wp.abs(-v)
    out[7, i] = wp.atan2(v, wp.bfloat16(1.0))


def test_math_rounds_the_float32_result(device):
    x64 = rounded(np.linspace(0.1, 3.0, 32)).astype(np.float64)
    out = wp.zeros((8, 32), dtype=wp.bfloat16, device=device)
    wp.launch(math, 32, inputs=[wp.array(x64, dtype=wp.bfloat16, device=device), out],
              device=device)
    want = [np.sin(x64), np.sqrt(x64), np.exp(x64), np.log(x64), x64**2,
            np.floor(rounded(x64 * 3.0)), x64, np.arctan2(x64, 1.0)]
    for row, expected in zip(bits(out), want):
        np.testing.assert_allclose(values_of(row), expected, rtol=8e-3)  # one bfloat16 ulp


@wp.kernel
def compare(x: wp.array(dtype=wp.bfloat16), out: wp.array2d(dtype=wp.int32)):
    i = wp.tid()
    v = x[i]
    out[0, i] = wp.where(v < wp.bfloat16(1.0), 1, 0)
    out[1, i] = wp.where(v == wp.bfloat16(1.0), 1, 0)
    out[2, i] = wp.where(wp.isnan(v), 1, 0)
    out[3, i] = wp.where(wp.isinf(v), 1, 0)
    out[4, i] = wp.where(wp.isfinite(v), 1, 0)
    out[5, i] = wp.int32(v)


def test_comparisons_and_classification(device):
    x = [0.5, 1.0, -0.0, float("nan"), float("inf"), -2.75]
    out = wp.zeros((6, len(x)), dtype=wp.int32, device=device)
    wp.launch(compare, len(x), inputs=[wp.array(x, dtype=wp.bfloat16, device=device), out],
              device=device)
    r = out.numpy()
    assert r[0].tolist() == [1, 0, 1, 0, 0, 1]
    assert r[1].tolist() == [0, 1, 0, 0, 0, 0]
    assert r[2].tolist() == [0, 0, 0, 1, 0, 0]
    assert r[3].tolist() == [0, 0, 0, 0, 1, 0]
    assert r[4].tolist() == [1, 1, 1, 0, 0, 1]
    assert r[5][[0, 1, 2, 5]].tolist() == [0, 1, 0, -2]


@wp.kernel
def scalar_param(x: wp.bfloat16, n: int, out: wp.array(dtype=wp.bfloat16)):
    out[0] = x
    out[1] = wp.bfloat16(n)
    out[2] = x * wp.bfloat16(2.0)


def test_kernel_parameters(device):
    out = wp.zeros(3, dtype=wp.bfloat16, device=device)
    for x in (wp.bfloat16(3.14), 3.14, np.float32(3.14)):
        wp.launch(scalar_param, 1, inputs=[x, 300, out], device=device)
        assert out.list() == [3.140625, 300.0, 6.28125]
    wp.launch(scalar_param, 1, inputs=[1, 257, out], device=device)
    assert out.list() == [1.0, 256.0, 2.0]  # 257 rounds to even


@wp.kernel
def atomics(out: wp.array(dtype=wp.bfloat16), lo: wp.array(dtype=wp.bfloat16),
            hi: wp.array(dtype=wp.bfloat16), x: wp.array(dtype=wp.bfloat16)):
    i = wp.tid()
    wp.atomic_add(out, 0, wp.bfloat16(1.0))
    wp.atomic_sub(out, 1, wp.bfloat16(1.0))
    wp.atomic_min(lo, 0, x[i])
    wp.atomic_max(hi, 0, x[i])


def test_atomics(device):
    x = rounded(np.linspace(-50, 50, 64))
    out = wp.zeros(2, dtype=wp.bfloat16, device=device)
    lo = wp.full(1, 1000.0, dtype=wp.bfloat16, device=device)
    hi = wp.full(1, -1000.0, dtype=wp.bfloat16, device=device)
    wp.launch(atomics, 64, inputs=[out, lo, hi, wp.array(x, dtype=wp.bfloat16, device=device)],
              device=device)
    assert out.list() == [64.0, -64.0]  # exact: every partial sum is a bfloat16
    assert lo.list() == [-50.0] and hi.list() == [50.0]


@wp.kernel
def square_sum(x: wp.array(dtype=wp.bfloat16), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    v = wp.float32(x[i])
    wp.atomic_add(loss, 0, v * v)


@wp.kernel
def scaled(x: wp.array(dtype=wp.bfloat16), y: wp.array(dtype=wp.bfloat16)):
    i = wp.tid()
    y[i] = wp.sin(x[i]) * wp.bfloat16(3.0)


def test_gradients(device):
    x = wp.array([1.0, 2.0, 3.0], dtype=wp.bfloat16, device=device, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float32, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(square_sum, 3, inputs=[x, loss], device=device)
    tape.backward(loss)
    assert tape.gradients[x].list() == [2.0, 4.0, 6.0]
    y = wp.zeros(3, dtype=wp.bfloat16, device=device, requires_grad=True)
    x.grad.zero_()
    tape = wp.Tape()
    with tape:
        wp.launch(scaled, 3, inputs=[x, y], device=device)
    tape.backward(grads={y: wp.ones(3, dtype=wp.bfloat16, device=device)})
    np.testing.assert_allclose(x.grad.list(), 3.0 * np.cos([1.0, 2.0, 3.0]), rtol=1e-2)


vec3bf = wp.types.vector(3, dtype=wp.bfloat16)
mat22bf = wp.types.matrix((2, 2), dtype=wp.bfloat16)


@wp.kernel
def composites(v: vec3bf, vs: wp.array(dtype=vec3bf), m: wp.array(dtype=mat22bf),
               out: wp.array(dtype=wp.float32)):
    w = v + vs[0]
    out[0] = wp.float32(w[2])
    out[1] = wp.float32(wp.dot(v, v))
    n = m[0] * wp.bfloat16(2.0)
    out[2] = wp.float32(n[1, 0])
    vs[1] = vec3bf(wp.bfloat16(1.5), wp.bfloat16(2.5), wp.bfloat16(3.5))
    m[1] = mat22bf(wp.bfloat16(1.0), wp.bfloat16(2.0), wp.bfloat16(3.0), wp.bfloat16(4.0))


def test_vectors_and_matrices(device):
    v = vec3bf(1.0, 2.0, 3.3)
    assert vec3bf.__name__ == "vec3bf" and v[2] == 3.296875
    assert (v + v)[2] == 6.59375 and (v * 3.3)[0] == 3.296875  # host results rounded
    vs = wp.array([vec3bf(0.5, 0.5, 0.5), vec3bf()], dtype=vec3bf, device=device)
    assert vs.numpy().dtype == SHOWN and vs.numpy().shape == (2, 3)
    m = wp.array([mat22bf(1, 2, 3, 4), mat22bf()], dtype=mat22bf, device=device)
    out = wp.zeros(3, dtype=wp.float32, device=device)
    wp.launch(composites, 1, inputs=[v, vs, m, out], device=device)
    assert out.list() == [3.796875, float(rounded(1 + 4 + 3.296875**2)), 6.0]
    assert vs.list()[1] == vec3bf(1.5, 2.5, 3.5)
    assert m.list()[1] == mat22bf(1, 2, 3, 4)
    assert wp.types.quaternion(wp.bfloat16).__name__ == "quatbf"  # as in Warp 1.17


@wp.struct
class Sample:
    weight: wp.bfloat16
    offset: vec3bf
    scale: wp.float32


@wp.kernel
def struct_kernel(s: Sample, many: wp.array(dtype=Sample), out: wp.array(dtype=wp.float32)):
    out[0] = wp.float32(s.weight)
    out[1] = wp.float32(s.offset[2]) + s.scale
    out[2] = wp.float32(many[1].weight)
    t = many[0]
    t.weight = wp.bfloat16(7.0)
    many[0] = t


def test_struct_fields(device):
    assert Sample.numpy_dtype().fields["weight"][0] == np.uint16
    assert Sample.numpy_dtype().itemsize == 12
    s = Sample(weight=3.14, offset=vec3bf(1.0, 2.0, 3.3), scale=0.5)
    assert s.weight == 3.140625
    many = wp.array([s, Sample(weight=-2.0)], dtype=Sample, device=device)
    out = wp.zeros(3, dtype=wp.float32, device=device)
    wp.launch(struct_kernel, 1, inputs=[s, many, out], device=device)
    assert out.list() == [3.140625, 3.796875, -2.0]
    back = many.list()
    assert back[0].weight == 7.0 and back[0].offset == vec3bf(1.0, 2.0, 3.3)
    assert Sample.from_numpy(many.numpy()[1]).weight == -2.0
