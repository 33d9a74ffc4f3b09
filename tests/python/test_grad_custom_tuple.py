"""@wp.func_grad of a function that returns several values: it takes the function's parameters,
then one adj_ret per returned value."""

import numpy as np
import pytest

import treadle as wp
from gradcheck_util import check_grad

F64 = wp.array(dtype=wp.float64)


@wp.func
def polar(x: wp.float64, y: wp.float64):
    return x * x + y * y, x * y


@wp.func_grad(polar)
def adj_polar(x: wp.float64, y: wp.float64, adj_ret0: wp.float64, adj_ret1: wp.float64):
    wp.adjoint[x] += 2.0 * x * adj_ret0 + y * adj_ret1
    wp.adjoint[y] += 2.0 * y * adj_ret0 + x * adj_ret1


@wp.kernel
def use_polar(x: F64, y: F64, r: F64, p: F64):
    i = wp.tid()
    a, b = polar(x[i], y[i])
    r[i] = a * 3.0
    p[i] = b


def test_func_grad_of_a_tuple_function_matches_finite_differences(device):
    rng = np.random.default_rng(3)
    check_grad(use_polar, 4, [rng.standard_normal(4), rng.standard_normal(4)], [(4,), (4,)], device)


@wp.func
def pair(x: wp.float64):
    return x, 2.0 * x


@wp.func_grad(pair)
def adj_pair_scaled(x: wp.float64, adj_ret0: wp.float64, adj_ret1: wp.float64):
    wp.adjoint[x] += 10.0 * adj_ret0 + 100.0 * adj_ret1  # replaces the generated adjoint


@wp.kernel
def use_pair(x: F64, a: F64, b: F64):
    i = wp.tid()
    u, v = pair(x[i])
    a[i] = u
    b[i] = v


def test_the_func_grad_receives_each_returned_value_gradient(device):
    x = wp.array(np.ones(2), dtype=wp.float64, device=device, requires_grad=True)
    a = wp.zeros(2, dtype=wp.float64, device=device, requires_grad=True)
    b = wp.zeros(2, dtype=wp.float64, device=device, requires_grad=True)
    with wp.Tape() as tape:
        wp.launch(use_pair, 2, inputs=[x, a, b], device=device)
    tape.backward(
        grads={
            a: wp.array(np.full(2, 1.0), dtype=wp.float64, device=device),
            b: wp.array(np.full(2, 2.0), dtype=wp.float64, device=device),
        }
    )
    np.testing.assert_allclose(x.grad.numpy(), np.full(2, 210.0))


def test_func_grad_of_a_tuple_function_needs_one_adj_ret_per_value():
    @wp.func
    def two(x: wp.float64):
        return x, x

    @wp.func_grad(two)
    def adj_two(x: wp.float64, adj_ret: wp.float64):
        wp.adjoint[x] += adj_ret

    @wp.kernel
    def uses_two(x: F64, out: F64):
        i = wp.tid()
        a, b = two(x[i])
        out[i] = a + b

    x = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    out = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    with pytest.raises(TypeError, match=r"adj_two\(\) must take 3 parameters"):
        wp.launch(uses_two, 1, inputs=[x, out], device="cpu")


@wp.struct
class Body:
    mass: wp.float64
    pos: wp.vec2d


@wp.func
def energy(b: Body):
    return b.mass * (b.pos[0] * b.pos[0] + b.pos[1]), b.mass


@wp.func_grad(energy)
def adj_energy(b: Body, adj_ret0: wp.float64, adj_ret1: wp.float64):
    # parts of a struct parameter's gradient: a field, and a component of a field
    wp.adjoint[b.mass] += (b.pos[0] * b.pos[0] + b.pos[1]) * adj_ret0 + adj_ret1
    if b.mass != 0.0:
        wp.adjoint[b.pos][0] += 2.0 * b.mass * b.pos[0] * adj_ret0
    wp.adjoint[b.pos][1] += b.mass * adj_ret0


@wp.kernel
def use_energy(m: F64, px: F64, py: F64, e: F64, w: F64):
    i = wp.tid()
    b = Body()
    b.mass = m[i]
    b.pos = wp.vec2d(px[i], py[i])
    u, v = energy(b)
    e[i] = u
    w[i] = v * 2.0


def test_func_grad_adds_to_parts_of_a_struct_gradient(device):
    rng = np.random.default_rng(5)
    ins = [rng.standard_normal(3) for _ in range(3)]
    check_grad(use_energy, 3, ins, [(3,), (3,)], device)


@wp.func
def twice(x: wp.float64):
    return 2.0 * x


@wp.func_grad(twice)
def adj_twice_scalar(x: wp.float64, adj_ret: wp.float64):
    wp.adjoint[x] += 2.0 * adj_ret


@wp.func
def twice(v: wp.vec2d):  # noqa: F811 -- an overload of twice()
    return wp.vec2d(2.0 * v[0], 2.0 * v[1] * v[1])


@wp.func_grad(twice)
def adj_twice_vec(v: wp.vec2d, adj_ret: wp.vec2d):
    wp.adjoint[v] += wp.vec2d(2.0 * adj_ret[0], 4.0 * v[1] * adj_ret[1])


@wp.kernel
def use_twice(x: F64, y: F64, out: F64):
    i = wp.tid()
    r = twice(wp.vec2d(x[i], y[i]))
    out[i] = twice(x[i]) + r[0] + r[1]


def test_each_overload_keeps_its_own_func_grad(device):
    rng = np.random.default_rng(7)
    check_grad(use_twice, 3, [rng.standard_normal(3), rng.standard_normal(3)], [(3,)], device)
