"""The expect_* checks, interpolations and special scalar functions in kernels and on the host,
numbers of the treadle module used in kernels, and negative constant component indices."""

import math
import statistics

import numpy as np

import treadle as wp


@wp.kernel
def checks_that_pass(x: wp.array(dtype=float)):
    wp.expect_eq(1, 1)
    wp.expect_eq(x[0], 2.0)
    wp.expect_eq(wp.vec3(1.0, 2.0, 3.0), wp.vec3(1.0, 2.0, 3.0))
    wp.expect_eq(wp.mat22(1.0, 2.0, 3.0, 4.0), wp.mat22(1.0, 2.0, 3.0, 4.0))
    wp.expect_eq(wp.quat_identity(), wp.quat_identity())
    wp.expect_eq(wp.transform_identity(), wp.transform_identity())
    wp.expect_eq(wp.vec2i(1, 2), wp.vec2i(1, 2))
    wp.expect_eq(True, True)
    wp.expect_neq(1.0, 2.0)
    wp.expect_neq(wp.vec2(1.0, 2.0), wp.vec2(1.0, 3.0))
    wp.expect_near(1.0, 1.0000001, 1e-5)
    wp.expect_near(wp.vec3d(1.0), wp.vec3d(1.0), 1e-9)
    wp.expect_near(wp.mat22(1.0, 2.0, 3.0, 4.0), wp.mat22(1.0, 2.0, 3.0, 4.001), 0.01)
    wp.expect_near(wp.quat_identity(), wp.quat_identity(), 0.0)


@wp.kernel
def checks_that_fail():
    wp.expect_eq(2, 3)
    wp.expect_neq(wp.vec2(1.0, 2.0), wp.vec2(1.0, 2.0))
    wp.expect_near(wp.vec2(1.0, 2.0), wp.vec2(1.0, 2.5), 0.1)


def test_checks_print_nothing_when_they_hold(capfd):
    wp.launch(checks_that_pass, 1, [wp.array([2.0], dtype=float, device="cpu")], device="cpu")
    wp.synchronize()
    assert capfd.readouterr().out == ""


def test_checks_print_warps_messages_when_they_fail(capfd):
    wp.launch(checks_that_fail, 1, [], device="cpu")
    wp.synchronize()
    assert capfd.readouterr().out.splitlines() == [
        "Error, expect_eq() failed:",
        "\t Expected: 3",
        "\t Actual: 2",
        "Error, expect_neq() failed:",
        "\t Expected: 1 2 ",
        "\t Actual: 1 2 ",
        "Error, expect_near() failed with tolerance 0.1",
        "    Expected: 1 2.5 ",
        "    Actual: 1 2 ",
        "    Max absolute difference: 0.5",
    ]


def test_checks_on_the_host(capfd):
    wp.expect_eq(wp.vec3(1.0), wp.vec3(1.0))
    wp.expect_near(1.0, 1.05, 0.1)
    assert capfd.readouterr().out == ""
    wp.expect_eq(1, 2)
    assert capfd.readouterr().out.startswith("Error, expect_eq() failed:")


@wp.kernel
def special(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    v = x[i]
    out[i * 12 + 0] = wp.step(v)
    out[i * 12 + 1] = wp.nonzero(v)
    out[i * 12 + 2] = wp.copysign(wp.float64(2.0), v)
    out[i * 12 + 3] = wp.frac(v * wp.float64(3.7))
    out[i * 12 + 4] = wp.erf(v)
    out[i * 12 + 5] = wp.erfc(v)
    out[i * 12 + 6] = wp.erfinv(v * wp.float64(0.9))
    out[i * 12 + 7] = wp.erfcinv(v * wp.float64(0.9) + wp.float64(1.0))
    out[i * 12 + 8] = wp.lerp(v, wp.float64(4.0), wp.float64(0.25))
    out[i * 12 + 9] = wp.smoothstep(wp.float64(-0.5), wp.float64(0.5), v)
    out[i * 12 + 10] = wp.float64(wp.step(wp.int32(-3)) + wp.nonzero(wp.int32(0)))
    out[i * 12 + 11] = wp.float64(wp.HALF_PI) + wp.float64(wp.LN2)


def test_special_functions_match_python():
    xs = np.array([-0.75, -0.2, 0.0, 0.3, 0.95])
    out = wp.zeros(len(xs) * 12, dtype=wp.float64, device="cpu")
    wp.launch(special, len(xs), [wp.array(xs, dtype=wp.float64, device="cpu"), out], device="cpu")
    got = out.numpy().reshape(len(xs), 12)
    nd = statistics.NormalDist()

    def erfinv(y):
        return nd.inv_cdf((y + 1.0) / 2.0) / math.sqrt(2.0)

    for row, v in zip(got, xs):
        t = min(max(v + 0.5, 0.0), 1.0)
        want = [1.0 if v < 0 else 0.0, 1.0 if v != 0 else 0.0, math.copysign(2.0, v),
                v * 3.7 - math.trunc(v * 3.7), math.erf(v), math.erfc(v), erfinv(v * 0.9),
                -erfinv(v * 0.9), v * 0.75 + 1.0, t * t * (3 - 2 * t), 1.0,
                math.pi / 2 + math.log(2.0)]
        np.testing.assert_allclose(row, want, rtol=1e-12, atol=1e-12)
    half = wp.float64(0.5)
    assert wp.erfinv(half) == wp.erfinv(half) and abs(math.erf(wp.erfinv(half)) - 0.5) < 1e-12
    assert wp.lerp(1.0, 3.0, 0.5) == 2.0 and wp.step(-1.0) == 1.0 and wp.frac(-1.25) == -0.25


@wp.kernel
def lerp_composites(out: wp.array(dtype=float)):
    v = wp.lerp(wp.vec3(0.0, 1.0, 2.0), wp.vec3(2.0, 3.0, 6.0), 0.5)
    m = wp.lerp(wp.mat22(0.0, 0.0, 0.0, 0.0), wp.mat22(4.0, 4.0, 4.0, 8.0), 0.25)
    q = wp.lerp(wp.quat(0.0, 0.0, 0.0, 1.0), wp.quat(1.0, 0.0, 0.0, 0.0), 0.5)
    t = wp.lerp(wp.transform_identity(), wp.transform(wp.vec3(2.0), wp.quat_identity()), 0.5)
    out[0] = v[2]
    out[1] = m[1, 1]
    out[2] = q[0] + q[3]
    out[3] = t.p[1]


def test_lerp_of_composites():
    out = wp.zeros(4, dtype=float, device="cpu")
    wp.launch(lerp_composites, 1, [out], device="cpu")
    np.testing.assert_allclose(out.numpy(), [4.0, 2.0, 1.0, 1.0])
    np.testing.assert_allclose(np.array(wp.lerp(wp.vec2(0.0, 2.0), wp.vec2(2.0, 4.0), 0.5)),
                               [1.0, 3.0])


@wp.kernel
def negative_indices(out: wp.array(dtype=float)):
    v = wp.vec3(1.0, 2.0, 3.0)
    m = wp.mat22(1.0, 2.0, 3.0, 4.0)
    out[0] = v[-1]
    out[1] = m[-1, -2]
    out[2] = m[-2][1]
    v[-3] = 7.0
    out[3] = v[0]
    m[-1, -1] = 9.0
    out[4] = m[1, 1]
    q = wp.quat(0.1, 0.2, 0.3, 0.4)
    out[5] = q[-1]


def test_negative_constant_indices_count_from_the_end():
    out = wp.zeros(6, dtype=float, device="cpu")
    wp.launch(negative_indices, 1, [out], device="cpu")
    np.testing.assert_allclose(out.numpy(), [3.0, 3.0, 2.0, 7.0, 9.0, 0.4], rtol=1e-6)
