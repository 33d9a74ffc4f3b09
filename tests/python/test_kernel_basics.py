"""Kernels end to end on every device: arithmetic, control flow, functions, tid, atomics."""

import math
import types

import numpy as np
import pytest

import treadle as wp


@wp.func
def lerp(a: float, b: float, t: float):
    return a + (b - a) * t


@wp.func
def divmod_c(a: int, b: int):
    return a // b, a % b


@wp.func
def scaled(x: float, s: float = 2.0):
    return x * s


@wp.kernel
def saxpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = a * x[i] + y[i]


def test_saxpy_matches_numpy(device):
    n = 100_003
    xs = np.random.default_rng(1).standard_normal(n).astype(np.float32)
    ys = np.random.default_rng(2).standard_normal(n).astype(np.float32)
    x = wp.array(xs, device=device)
    y = wp.array(ys, device=device)
    wp.launch(saxpy, dim=n, inputs=[2.5, x, y], device=device)
    # CUDA contracts a * x + y into one fused multiply-add (one rounding instead of two)
    np.testing.assert_allclose(y.numpy(), np.float32(2.5) * xs + ys, rtol=1e-6, atol=1e-6)


@wp.kernel
def use_functions(x: wp.array(dtype=float), q: wp.array(dtype=int), r: wp.array(dtype=int),
                  out: wp.array(dtype=float)):
    i = wp.tid()
    a, b = divmod_c(q[i], 3)
    r[i] = a * 10 + b
    out[i] = lerp(x[i], 10.0, 0.25) + scaled(x[i]) + scaled(x[i], s=3.0)


def test_user_functions_defaults_and_multiple_returns(device):
    xs = np.linspace(-2, 2, 64).astype(np.float32)
    qs = np.arange(-32, 32, dtype=np.int32)
    x = wp.array(xs, device=device)
    q = wp.array(qs, device=device)
    r = wp.zeros(64, dtype=wp.int32, device=device)
    out = wp.zeros(64, dtype=wp.float32, device=device)
    wp.launch(use_functions, dim=64, inputs=[x, q, r, out], device=device)
    # C rules: truncation toward zero, remainder with the sign of the dividend
    quot = np.trunc(qs / 3).astype(np.int32)
    rem = qs - quot * 3
    np.testing.assert_array_equal(r.numpy(), quot * 10 + rem)
    expected = (xs + (np.float32(10) - xs) * np.float32(0.25)) + xs * 2 + xs * 3
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)


@wp.kernel
def control_flow(x: wp.array(dtype=int), out: wp.array(dtype=int)):
    i = wp.tid()
    v = x[i]
    total = 0
    if v < 0:
        total = -1
    elif v == 0:
        total = 100
    else:
        for k in range(v):
            if k % 2 == 0:
                continue
            total += k
            if total > 20:
                break
    count = 0
    while count * count < v:
        count += 1
    out[i] = total * 1000 + count


def test_if_for_while_break_continue(device):
    xs = np.arange(-3, 20, dtype=np.int32)
    x = wp.array(xs, device=device)
    out = wp.zeros(len(xs), dtype=wp.int32, device=device)
    wp.launch(control_flow, dim=len(xs), inputs=[x, out], device=device)

    def ref(v):
        if v < 0:
            total = -1
        elif v == 0:
            total = 100
        else:
            total = 0
            for k in range(v):
                if k % 2 == 0:
                    continue
                total += k
                if total > 20:
                    break
        count = 0
        while count * count < v:
            count += 1
        return total * 1000 + count

    np.testing.assert_array_equal(out.numpy(), [ref(int(v)) for v in xs])


@wp.kernel
def ranges(out: wp.array(dtype=int)):
    i = wp.tid()
    s = 0
    for k in range(10, i, -2):
        s += k
    for k in range(i, 2 * i, 3):
        s += 100 * k
    out[i] = s


def test_range_forms(device):
    out = wp.zeros(16, dtype=wp.int32, device=device)
    wp.launch(ranges, dim=16, inputs=[out], device=device)
    expected = [sum(range(10, i, -2)) + 100 * sum(range(i, 2 * i, 3)) for i in range(16)]
    np.testing.assert_array_equal(out.numpy(), expected)


@wp.kernel
def early_return(x: wp.array(dtype=float)):
    i = wp.tid()
    if i % 2 == 1:
        return
    x[i] = 7.0


def test_early_return(device):
    x = wp.zeros(10, dtype=wp.float32, device=device)
    wp.launch(early_return, dim=10, inputs=[x], device=device)
    np.testing.assert_array_equal(x.numpy(), [7.0, 0.0] * 5)


@wp.kernel
def grid(out: wp.array2d(dtype=int)):
    i, j = wp.tid()
    out[i, j] = i * 100 + j


@wp.kernel
def grid4(out: wp.array4d(dtype=int)):
    i, j, k, l = wp.tid()
    out[i, j, k, l] = i * 1000 + j * 100 + k * 10 + l


def test_multidimensional_launch(device):
    out = wp.zeros((5, 7), dtype=wp.int32, device=device)
    wp.launch(grid, dim=(5, 7), inputs=[out], device=device)
    i, j = np.meshgrid(np.arange(5), np.arange(7), indexing="ij")
    np.testing.assert_array_equal(out.numpy(), i * 100 + j)
    out4 = wp.zeros((2, 3, 4, 5), dtype=wp.int32, device=device)
    wp.launch(grid4, dim=(2, 3, 4, 5), inputs=[out4], device=device)
    idx = np.indices((2, 3, 4, 5))
    np.testing.assert_array_equal(out4.numpy(), idx[0] * 1000 + idx[1] * 100 + idx[2] * 10 + idx[3])


def test_tid_arity_must_match_dim(device):
    out = wp.zeros((5, 7), dtype=wp.int32, device=device)
    with pytest.raises(ValueError, match=r"grid\(\): the kernel unpacks 2 indices"):
        wp.launch(grid, dim=35, inputs=[out], device=device)


@wp.kernel
def histogram(values: wp.array(dtype=int), bins: wp.array(dtype=int), fsum: wp.array(dtype=float),
              lo: wp.array(dtype=int), hi: wp.array(dtype=int)):
    i = wp.tid()
    v = values[i]
    bins[v % 8] += 1
    wp.atomic_add(fsum, 0, 1.0)
    fsum[1] -= 0.5
    wp.atomic_min(lo, 0, v)
    wp.atomic_max(hi, 0, v)


def test_atomics_under_concurrency(device):
    n = 1_000_000
    vals = np.random.default_rng(3).integers(0, 1_000_000, n).astype(np.int32)
    values = wp.array(vals, device=device)
    bins = wp.zeros(8, dtype=wp.int32, device=device)
    fsum = wp.zeros(2, dtype=wp.float32, device=device)
    lo = wp.full(1, 2**31 - 1, dtype=wp.int32, device=device)
    hi = wp.full(1, -1, dtype=wp.int32, device=device)
    wp.launch(histogram, dim=n, inputs=[values, bins, fsum, lo, hi], device=device)
    np.testing.assert_array_equal(bins.numpy(), np.bincount(vals % 8, minlength=8))
    np.testing.assert_array_equal(fsum.numpy(), [float(n), -0.5 * n])
    assert lo.numpy()[0] == vals.min()
    assert hi.numpy()[0] == vals.max()


@wp.kernel
def math_builtins(x: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    v = x[i]
    out[i, 0] = wp.sin(v) + wp.cos(v)
    out[i, 1] = wp.exp(v * 0.1) - wp.log(wp.abs(v) + 1.0)
    out[i, 2] = wp.sqrt(wp.abs(v)) * wp.sign(v)
    out[i, 3] = wp.floor(v) + wp.ceil(v) * 10.0 + wp.round(v) * 100.0
    out[i, 4] = wp.clamp(v, -1.0, 1.0) + wp.min(v, 0.5) + wp.max(v, -0.5)
    out[i, 5] = wp.atan2(v, 2.0) + wp.tanh(v) + wp.pow(wp.abs(v), 1.5)
    out[i, 6] = wp.degrees(v) + wp.radians(v) + wp.trunc(v) + wp.cbrt(v)
    out[i, 7] = float(v > 0.0 and v < 1.0) + float(not (v >= 0.0)) * 2.0 + v ** 2.0


def test_scalar_math_builtins(device):
    xs = np.linspace(-3.5, 3.5, 57).astype(np.float32)
    x = wp.array(xs, device=device)
    out = wp.zeros((57, 8), dtype=wp.float32, device=device)
    wp.launch(math_builtins, dim=57, inputs=[x, out], device=device)
    v = xs.astype(np.float64)
    sign = np.where(v < 0, -1.0, 1.0)
    round_away = np.sign(v) * np.floor(np.abs(v) + 0.5)
    expected = np.stack([
        np.sin(v) + np.cos(v),
        np.exp(v * 0.1) - np.log(np.abs(v) + 1.0),
        np.sqrt(np.abs(v)) * sign,
        np.floor(v) + np.ceil(v) * 10 + round_away * 100,
        np.clip(v, -1, 1) + np.minimum(v, 0.5) + np.maximum(v, -0.5),
        np.arctan2(v, 2.0) + np.tanh(v) + np.abs(v) ** 1.5,
        np.degrees(v) + np.radians(v) + np.trunc(v) + np.cbrt(v),
        ((v > 0) & (v < 1)).astype(float) + (v < 0) * 2.0 + v ** 2,
    ], axis=1)
    np.testing.assert_allclose(out.numpy(), expected, rtol=2e-5, atol=2e-5)


@wp.kernel
def float64_kernel(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64), s: wp.float64):
    i = wp.tid()
    # a weakly typed literal takes the type of the other operand: all float64 here
    out[i] = x[i] * 0.1 + s * 2.0 + wp.sqrt(x[i])


def test_weak_literals_keep_float64_precision(device):
    xs = np.linspace(0, 10, 33)
    x = wp.array(xs, dtype=wp.float64, device=device)
    out = wp.zeros(33, dtype=wp.float64, device=device)
    wp.launch(float64_kernel, dim=33, inputs=[x, out, 1.0 / 3.0], device=device)
    # float64 throughout: float32 rounding would be off by ~1e-7, fused multiply-adds by ~1e-16
    np.testing.assert_allclose(out.numpy(), xs * 0.1 + (1.0 / 3.0) * 2.0 + np.sqrt(xs), rtol=1e-14)


@wp.kernel
def int_types(a: wp.array(dtype=wp.int64), b: wp.array(dtype=wp.uint32), c: wp.array(dtype=wp.int8)):
    i = wp.tid()
    a[i] = a[i] * wp.int64(3000000000) + (a[i] >> 1)
    b[i] = (b[i] ^ wp.uint32(0xFFFFFFFF)) & wp.uint32(0xFF00FF00)
    c[i] = c[i] * wp.int8(2)


def test_integer_types(device):
    av = np.array([-5, 0, 7, 123456], dtype=np.int64)
    bv = np.array([0, 1, 0xDEADBEEF, 42], dtype=np.uint32)
    cv = np.array([-64, 1, 63, 100], dtype=np.int8)
    a, b, c = (wp.array(v, device=device) for v in (av, bv, cv))
    wp.launch(int_types, dim=4, inputs=[a, b, c], device=device)
    np.testing.assert_array_equal(a.numpy(), av * 3000000000 + (av >> 1))
    np.testing.assert_array_equal(b.numpy(), (bv ^ np.uint32(0xFFFFFFFF)) & np.uint32(0xFF00FF00))
    np.testing.assert_array_equal(c.numpy(), (cv.astype(np.int32) * 2).astype(np.int8))


SCALE = 3.0
OFFSET = wp.constant(10)


@wp.kernel
def use_globals(out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = float(i) * SCALE + float(OFFSET) + wp.pi * 0.0 + math.pi * 0.0


def test_module_constants(device):
    out = wp.zeros(4, dtype=wp.float32, device=device)
    wp.launch(use_globals, dim=4, inputs=[out], device=device)
    np.testing.assert_array_equal(out.numpy(), np.arange(4) * 3.0 + 10.0)


def make_scaler(factor):
    @wp.kernel
    def scale(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] * factor

    return scale


def test_closures_capture_values(device):
    k2, k5 = make_scaler(2.0), make_scaler(5.0)
    x = wp.ones(3, dtype=wp.float32, device=device)
    wp.launch(k2, dim=3, inputs=[x], device=device)
    wp.launch(k5, dim=3, inputs=[x], device=device)
    np.testing.assert_array_equal(x.numpy(), [10.0, 10.0, 10.0])


@wp.kernel
def ternary_and_views(m: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    row = m[i]
    s = 0.0
    for j in range(row.shape[0]):
        s += row[j] if row[j] > 0.0 else -row[j] * 2.0
    out[i] = s + float(len(m))


def test_ternary_and_row_views(device):
    mv = np.random.default_rng(5).standard_normal((6, 9)).astype(np.float32)
    m = wp.array(mv, device=device)
    out = wp.zeros(6, dtype=wp.float32, device=device)
    wp.launch(ternary_and_views, dim=6, inputs=[m, out], device=device)
    expected = np.where(mv > 0, mv, -mv * 2).sum(axis=1) + 6
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5)


@wp.kernel
def strided(x: wp.array(dtype=float), y: wp.array2d(dtype=float)):
    i, j = wp.tid()
    y[i, j] = x[i] + 10.0 * float(j)


def test_non_contiguous_arrays(device):
    base = wp.array(np.arange(20, dtype=np.float32), device=device)
    view = base[::2]
    y = wp.zeros((4, 3), dtype=wp.float32, device=device)
    yt = y.transpose()
    wp.launch(strided, dim=(3, 4), inputs=[view, yt], device=device)
    expected = np.arange(0, 20, 2, dtype=np.float32)[:3, None] + 10.0 * np.arange(4)[None, :]
    np.testing.assert_array_equal(y.numpy(), expected.T)


def test_zero_size_launch(device):
    x = wp.zeros(0, dtype=wp.float32, device=device)
    wp.launch(saxpy, dim=0, inputs=[1.0, x, x], device=device)


@wp.kernel
def print_kernel(x: wp.array(dtype=int)):
    i = wp.tid()
    print(x[i])
    wp.printf("value %d of %d\n", x[i], 3)
    print("done", 1.5)


def test_print_and_printf(device, capfd):
    x = wp.array(np.array([42], dtype=np.int32), device=device)
    wp.launch(print_kernel, dim=1, inputs=[x], device=device)
    wp.synchronize()
    out = capfd.readouterr().out
    assert "42\nvalue 42 of 3\ndone 1.5\n" in out


@wp.kernel
def bit_operations(a: wp.array(dtype=wp.int32), b: wp.array(dtype=wp.uint64),
                   c: wp.array(dtype=wp.int8), out: wp.array2d(dtype=wp.int32),
                   out64: wp.array2d(dtype=wp.uint64), out8: wp.array(dtype=wp.int8)):
    i = wp.tid()
    x = a[i]
    out[i, 0] = x & 0x0F0F
    out[i, 1] = x | 0x1000
    out[i, 2] = x ^ -1
    out[i, 3] = ~x
    out[i, 4] = x << 3
    out[i, 5] = x >> 2
    y = x
    y <<= 1
    y |= 1
    y ^= 0x55
    y &= 0x7FFF
    y >>= 1
    out[i, 6] = y
    u = b[i]
    out64[i, 0] = (u << wp.uint64(40)) | (u >> wp.uint64(3))
    out64[i, 1] = ~u & wp.uint64(0xFFFF0000FFFF)
    out8[i] = ~c[i] ^ wp.int8(3)


def test_bit_operations_on_integer_scalars(device):
    av = np.array([0, 1, -7, 123456, -2147483648, 2147483647], dtype=np.int32)
    bv = np.array([0, 1, 5, 2**40 + 7, 2**63, 2**64 - 1], dtype=np.uint64)
    cv = np.array([0, 1, -1, 127, -128, 55], dtype=np.int8)
    out = wp.zeros((6, 7), dtype=wp.int32, device=device)
    out64 = wp.zeros((6, 2), dtype=wp.uint64, device=device)
    out8 = wp.zeros(6, dtype=wp.int8, device=device)
    wp.launch(bit_operations, dim=6, device=device,
              inputs=[wp.array(av, dtype=wp.int32, device=device),
                      wp.array(bv, dtype=wp.uint64, device=device),
                      wp.array(cv, dtype=wp.int8, device=device), out, out64, out8])
    o = out.numpy()
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(o[:, 0], av & 0x0F0F)
        np.testing.assert_array_equal(o[:, 1], av | 0x1000)
        np.testing.assert_array_equal(o[:, 2], av ^ -1)
        np.testing.assert_array_equal(o[:, 3], ~av)
        np.testing.assert_array_equal(o[:, 4], (av.astype(np.int64) << 3).astype(np.int32))
        np.testing.assert_array_equal(o[:, 5], av >> 2)  # arithmetic shift for signed
        y = (((av.astype(np.int64) << 1).astype(np.int32) | 1) ^ 0x55) & 0x7FFF
        np.testing.assert_array_equal(o[:, 6], y >> 1)
        np.testing.assert_array_equal(
            out64.numpy()[:, 0], (bv << np.uint64(40)) | (bv >> np.uint64(3)))
        np.testing.assert_array_equal(out64.numpy()[:, 1], ~bv & np.uint64(0xFFFF0000FFFF))
        np.testing.assert_array_equal(out8.numpy(), ~cv ^ np.int8(3))


@wp.kernel
def annotated_none(out: wp.array(dtype=float)) -> None:
    out[0] = 1.0


@wp.kernel
def annotated_none_type(out: wp.array(dtype=float)) -> types.NoneType:
    out[0] = 2.0
    return


def test_kernel_may_be_annotated_to_return_none(device):
    out = wp.zeros(1, dtype=float, device=device)
    wp.launch(annotated_none, 1, inputs=[out], device=device)
    assert out.numpy()[0] == 1.0
    wp.launch(annotated_none_type, 1, inputs=[out], device=device)
    assert out.numpy()[0] == 2.0


@wp.kernel
def bound_in_loops(x: wp.array(dtype=float), n: int, out: wp.array(dtype=float)):
    i = int(0)
    while i < n:
        last = x[i] * 2.0  # first bound in the body: visible after the loop
        i = i + 1
    for j in range(n):
        stop = x[j]
        if j == 1:
            break
    for k in range(n):
        if k < 0:
            never = 5.0
    out[0] = last
    out[1] = stop
    out[2] = never


def test_locals_first_bound_in_loops_stay_visible(device):
    # As in Python: the last value bound (at the end of the body or at a break); the zero of the
    # type when no iteration bound it.
    x = wp.array([1.0, 2.0, 3.0], dtype=float, device=device, requires_grad=True)
    out = wp.zeros(3, dtype=float, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(bound_in_loops, 1, inputs=[x, 3, out], device=device)
    np.testing.assert_array_equal(out.numpy(), [6.0, 2.0, 0.0])
    out.grad.fill_(1.0)
    tape.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 1.0, 2.0])
    wp.launch(bound_in_loops, 1, inputs=[x, 0, out], device=device)
    np.testing.assert_array_equal(out.numpy(), [0.0, 0.0, 0.0])
