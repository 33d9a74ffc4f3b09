"""Random numbers: the PCG stream (rand_init/randi/randu/randf/randn) on every device."""

import numpy as np
import pytest

import treadle as wp

MASK = 0xFFFFFFFF


def pcg(state):
    """The PCG hash of Jarzynski & Olano (2020), in Python, as an independent reference."""
    b = (state * 747796405 + 2891336453) & MASK
    c = (((b >> ((b >> 28) + 4)) ^ b) * 277803737) & MASK
    return (c >> 22) ^ c


@wp.kernel
def draw(seed: int, ints: wp.array(dtype=int), uints: wp.array(dtype=wp.uint32),
         f: wp.array(dtype=float), fr: wp.array(dtype=float), n: wp.array(dtype=float),
         ir: wp.array(dtype=int), s0: wp.array(dtype=wp.uint32)):
    i = wp.tid()
    state = wp.rand_init(seed, i)
    s0[i] = wp.rand_init(seed)
    ints[i] = wp.randi(state)
    uints[i] = wp.randu(state)
    f[i] = wp.randf(state)
    fr[i] = wp.randf(state, -2.0, 5.0)
    n[i] = wp.randn(state)
    ir[i] = wp.randi(state, -7, 30)


def test_streams_match_the_pcg_reference(device):
    count = 256
    types = (wp.int32, wp.uint32, wp.float32, wp.float32, wp.float32, wp.int32, wp.uint32)
    out = [wp.zeros(count, dtype=t, device=device) for t in types]
    wp.launch(draw, dim=count, inputs=[42, *out], device=device)
    ints, uints, f, fr, n, ir, s0 = (a.numpy() for a in out)
    for i in range(count):
        s = pcg((42 + pcg(i)) & MASK)
        s = pcg(s)
        assert ints[i] == np.array(s, dtype=np.uint32).view(np.int32)
        s = pcg(s)
        assert uints[i] == s
        s = pcg(s)
        assert f[i] == np.float32(s >> 8) * np.float32(1.0 / 16777216.0)
        s = pcg(s)
        u = np.float32(s >> 8) * np.float32(1.0 / 16777216.0)
        # CUDA fuses (high - low) * u + low into one multiply-add: allow that rounding
        assert fr[i] == pytest.approx(float(np.float32(7.0) * u + np.float32(-2.0)), abs=1e-6)
        s = pcg(s)
        u1 = np.float32(s >> 8) * np.float32(1.0 / 16777216.0)
        s = pcg(s)
        u2 = np.float32(s >> 8) * np.float32(1.0 / 16777216.0)
        ref = np.sqrt(-2.0 * np.log(float(u1) + 1.1920929e-07)) * np.cos(2 * np.pi * float(u2))
        assert n[i] == pytest.approx(ref, rel=1e-4, abs=1e-5)
        s = pcg(s)
        assert ir[i] == s % 37 - 7
    assert (s0 == pcg(42)).all()
    # values Warp produces for the same program (its integer and uniform draws match bit for bit)
    np.testing.assert_array_equal(ints[:3], [-575632308, 59537738, 1898992239])
    np.testing.assert_array_equal(uints[:3], [798497746, 3339178658, 4037432846])
    np.testing.assert_array_equal(s0[:1], [1223963391])


@wp.kernel
def draws_until_small(seed: int, count: wp.array(dtype=int)):
    i = wp.tid()
    state = wp.rand_init(seed, i)
    n = int(0)
    while wp.randu(state) % wp.uint32(8) != wp.uint32(0):  # the condition advances the state
        n += 1
    count[i] = n


def test_a_while_condition_advances_the_state_each_iteration(device):
    # the state the condition re-binds is carried round the loop: without that every
    # iteration would draw the same number and the loop would never end (or end at once)
    out = wp.zeros(64, dtype=int, device=device)
    wp.launch(draws_until_small, dim=64, inputs=[7, out], device=device)
    ref = []
    for i in range(64):
        s, n = pcg((7 + pcg(i)) & MASK), 0
        while True:
            s = pcg(s)
            if s % 8 == 0:
                break
            n += 1
        ref.append(n)
    np.testing.assert_array_equal(out.numpy(), ref)
    assert max(ref) > 1


def test_state_must_be_a_local_uint32():
    @wp.kernel
    def bad(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = wp.randf(i)

    with pytest.raises(TypeError, match=r"randf\(\): the first argument must be a local uint32 "
                                        r"state from wp.rand_init\(\)"):
        bad._compile("cpu")
