"""@wp.func closures that overload one name inside one call of their enclosing function."""

from typing import Any

import treadle as wp


def make_overloads(value: int):
    @wp.func
    def f():
        return value

    @wp.func
    def f(x: int):  # noqa: F811 - an overload of f, as in Warp
        return f() * x + value

    @wp.func
    def g(x: Any, y: int):
        return x + y + value

    @wp.func
    def g(x: Any, y: float):  # noqa: F811
        return float(x) * y + float(value)

    return f, g


f2, g2 = make_overloads(2)
f3, g3 = make_overloads(3)


@wp.kernel
def closure_overloads(out: wp.array(dtype=float)):
    out[0] = float(f2())
    out[1] = float(f2(5))
    out[2] = float(f3(5))
    out[3] = float(g2(1, 1))
    out[4] = g3(2, 0.5)


def test_closure_overloads_of_one_call(device):
    out = wp.zeros(5, dtype=float, device=device)
    wp.launch(closure_overloads, dim=1, inputs=[out], device=device)
    assert out.numpy().tolist() == [2.0, 12.0, 18.0, 4.0, 4.0]
