"""Struct values as kernel constants: a global struct instance or a wp.static() expression
that makes one becomes a constant built field by field (nested structs, vectors, matrices,
transforms); a struct holding an array cannot be one."""

import numpy as np
import pytest

import treadle as wp


@wp.struct
class Inner:
    m: wp.mat22
    v: wp.vec3
    i: int


@wp.struct
class Outer:
    inner: Inner
    t: wp.transform
    f: wp.float64


@wp.struct
class WithArray:
    a: wp.array(dtype=float)
    x: float


def _make_outer(scale):
    o = Outer()
    o.inner.m = wp.mat22(1.0, 2.0, 3.0, 4.0) * scale
    o.inner.v = wp.vec3(5.0, 6.0, 7.0)
    o.inner.i = -3
    o.t = wp.transform(wp.vec3(1.0, 2.0, 3.0), wp.quat(0.0, 0.0, 0.0, 1.0))
    o.f = wp.float64(0.25)
    return o


GLOBAL_OUTER = _make_outer(1.0)


@wp.kernel
def read_global(out: wp.array(dtype=Outer)):
    out[0] = GLOBAL_OUTER


@wp.kernel
def read_static(out: wp.array(dtype=Outer), total: wp.array(dtype=float)):
    s = wp.static(_make_outer(2.0))
    out[0] = s
    total[0] = s.inner.m[1, 1] + s.inner.v[2] + float(s.inner.i) + s.t.p[1]


def test_global_struct_is_a_constant():
    out = wp.zeros(1, dtype=Outer, device="cpu")
    wp.launch(read_global, dim=1, outputs=[out], device="cpu")
    r = out.numpy()[0]
    np.testing.assert_array_equal(r["inner"]["m"], [[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(r["inner"]["v"], [5.0, 6.0, 7.0])
    assert r["inner"]["i"] == -3 and r["f"] == 0.25
    np.testing.assert_array_equal(r["t"], [1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 1.0])


def test_static_struct_expression():
    out = wp.zeros(1, dtype=Outer, device="cpu")
    total = wp.zeros(1, dtype=float, device="cpu")
    wp.launch(read_static, dim=1, outputs=[out, total], device="cpu")
    np.testing.assert_array_equal(out.numpy()[0]["inner"]["m"], [[2.0, 4.0], [6.0, 8.0]])
    assert total.numpy()[0] == 8.0 + 7.0 - 3.0 + 2.0


def test_a_struct_holding_an_array_is_no_constant():
    holder = WithArray()
    holder.a = wp.zeros(2, dtype=float, device="cpu")

    @wp.kernel
    def uses_holder(out: wp.array(dtype=float)):
        out[0] = holder.x

    with pytest.raises(TypeError, match=r"struct holding an array at WithArray\.a"):
        uses_holder._compile("cpu")


def test_struct_constant_changes_the_hash():
    def make(value):
        c = Inner()
        c.i = value

        @wp.kernel(module="unique")
        def k(out: wp.array(dtype=int)):
            out[0] = wp.static(c).i

        return k

    assert make(1).module.hash_module() == make(1).module.hash_module()
    assert make(1).module.hash_module() != make(2).module.hash_module()
