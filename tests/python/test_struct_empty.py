"""A struct without fields (as in Warp): one byte, usable as a parameter and as a field."""

import numpy as np

import treadle as wp


@wp.struct
class Empty:
    pass


@wp.struct
class Holder:
    a: Empty
    b: Empty
    z: int


@wp.kernel
def read_holder(e: Empty, h: Holder, out: wp.array(dtype=int)):
    out[0] = h.z


@wp.kernel
def write_holders(hs: wp.array(dtype=Holder)):
    i = wp.tid()
    h = Holder()
    h.z = i * 3
    hs[i] = h


def test_empty_struct_layout():
    assert Empty._size == 1 and Empty._type.size == 1 and Empty._type.align == 1
    assert Holder._size == 8 and [f[2] for f in Holder._type.fields] == [0, 1, 4]
    assert repr(Holder()) == "Holder(a=Empty(), b=Empty(), z=int32(0))"


def test_empty_struct_as_argument_and_field():
    out = wp.zeros(1, dtype=int, device="cpu")
    h = Holder()
    h.z = 7
    wp.launch(read_holder, 1, inputs=[Empty(), h, out], device="cpu")
    assert out.numpy()[0] == 7
    hs = wp.zeros(4, dtype=Holder, device="cpu")
    wp.launch(write_holders, 4, inputs=[hs], device="cpu")
    np.testing.assert_array_equal(hs.numpy()["z"], [0, 3, 6, 9])
