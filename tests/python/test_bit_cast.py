"""wp.cast(a, dtype): the bits of a value read as another type of the same size (Warp's
reinterpreting cast), for scalars, vectors and structs; sizes that differ are a compile error."""

import numpy as np
import pytest

import treadle as wp


@wp.struct
class Halves:
    f: wp.float16
    i: wp.int16


@wp.kernel
def reinterpret(ints: wp.array(dtype=wp.int32), floats: wp.array(dtype=float)):
    floats[0] = wp.cast(wp.int32(0x40000000), wp.float32)
    s = Halves()
    s.f = wp.float16(2.0)
    s.i = wp.int16(4096)
    ints[0] = wp.cast(s, wp.int32)
    ints[1] = wp.cast(a=1.0, dtype=wp.int32)
    v = wp.cast(wp.vec2(1.0, -2.0), wp.vec2i)
    ints[2] = v[1]
    floats[1] = wp.cast(wp.cast(floats[2], wp.uint32), wp.float32)  # a round trip


def test_bits_are_kept(device):
    ints = wp.zeros(3, dtype=wp.int32, device=device)
    floats = wp.array([0.0, 0.0, -3.25], dtype=float, device=device)
    wp.launch(reinterpret, dim=1, inputs=[ints, floats], device=device)
    assert floats.numpy()[0] == 2.0 and floats.numpy()[1] == -3.25
    want = [0x10004000, np.float32(1.0).view(np.int32), np.float32(-2.0).view(np.int32)]
    assert ints.numpy().tolist() == [int(w) for w in want]


@wp.kernel
def narrowing():
    y = wp.cast(wp.float64(1.0), wp.float32)  # noqa: F841


def test_sizes_must_match():
    with pytest.raises(wp.WarpCodegenTypeError) as info:
        wp.launch(narrowing, dim=1, device="cpu")
    assert str(info.value).startswith(f"{__file__}:40:9: narrowing(): cast(): cannot reinterpret a "
                                      "float64 (8 bytes) as a float32 (4 bytes): the sizes must "
                                      "match")


@wp.kernel
def through_cast(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = wp.cast(wp.cast(x[i], wp.int32), wp.float32) + 2.0 * x[i]


def test_no_gradient_flows_through_the_bits():
    x = wp.array([1.5, -2.0], dtype=float, requires_grad=True, device="cpu")
    y = wp.zeros(2, dtype=float, requires_grad=True, device="cpu")
    tape = wp.Tape()
    with tape:
        wp.launch(through_cast, dim=2, inputs=[x, y], device="cpu")
    tape.backward(grads={y: wp.ones(2, dtype=float, device="cpu")})
    np.testing.assert_array_equal(y.numpy(), [4.5, -6.0])
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])
