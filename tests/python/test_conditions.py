"""Conditions as Warp compiles them: short-circuit `and`/`or`, arrays as conditions (None is
false), conditions decided at compile time, names bound in one branch of an `if`, and loops over
reversed(range(...))."""

import numpy as np

import treadle as wp

FLAG_ON = wp.constant(1)


@wp.func
def count_call(counter: wp.array(dtype=int), value: bool):
    wp.atomic_add(counter, 0, 1)
    return value


@wp.kernel
def short_circuit(a: bool, b: bool, calls: wp.array(dtype=int), out: wp.array(dtype=int)):
    # the second operand runs only when the first leaves the result open
    r_and = a and count_call(calls, b)
    r_or = a or count_call(calls, b)
    out[0] = int(r_and)
    out[1] = int(r_or)


def test_and_or_short_circuit(device):
    for a in (False, True):
        for b in (False, True):
            calls = wp.zeros(1, dtype=int, device=device)
            out = wp.zeros(2, dtype=int, device=device)
            wp.launch(short_circuit, dim=1, inputs=[a, b, calls, out], device=device)
            assert out.numpy().tolist() == [int(a and b), int(a or b)]
            # `and` calls when a is true, `or` when a is false: once either way
            assert calls.numpy()[0] == 1


@wp.kernel
def guarded_by_array(arr: wp.array(dtype=int), out: wp.array(dtype=int)):
    i = wp.tid()
    if arr and arr[i] > 0:
        out[i] = 1
    elif not arr or arr[i] < -5:
        out[i] = 2
    else:
        out[i] = 3


def test_array_condition_and_none(device):
    out = wp.zeros(3, dtype=int, device=device)
    wp.launch(guarded_by_array, dim=3, inputs=[None, out], device=device)
    assert out.numpy().tolist() == [2, 2, 2]
    arr = wp.array([4, -9, 0], dtype=int, device=device)
    wp.launch(guarded_by_array, dim=3, inputs=[arr, out], device=device)
    assert out.numpy().tolist() == [1, 2, 3]


@wp.kernel
def three_way(x: wp.array(dtype=float), out: wp.array(dtype=int)):
    i = wp.tid()
    out[i] = int(x[i] > 0.0 and x[i] < 2.0 and x[i] != 1.0) + 2 * int(
        x[i] < -1.0 or x[i] > 5.0 or x[i] == 0.5)


def test_chains_of_three(device):
    xs = np.array([-2.0, 0.5, 1.0, 1.5, 3.0, 6.0], dtype=np.float32)
    out = wp.zeros(len(xs), dtype=int, device=device)
    wp.launch(three_way, dim=len(xs), inputs=[wp.array(xs, device=device), out], device=device)
    expect = [int(0 < v < 2 and v != 1) + 2 * int(v < -1 or v > 5 or v == 0.5) for v in xs]
    assert out.numpy().tolist() == expect


@wp.kernel
def constant_conditions(out: wp.array(dtype=int)):
    if 123:
        x = 1
    if 0:
        x = wp.vec3(1.0)  # never compiled: the condition is decided at compile time
    if not FLAG_ON:
        y = 5.0
    else:
        y = 7.0
    out[0] = x
    out[1] = int(y)
    out[2] = int(FLAG_ON and 0)


def test_constant_conditions_compile_one_branch(device):
    out = wp.zeros(3, dtype=int, device=device)
    wp.launch(constant_conditions, dim=1, inputs=[out], device=device)
    assert out.numpy().tolist() == [1, 7, 0]


@wp.struct
class Pair:
    a: float
    b: int


@wp.kernel
def one_branch_names(flags: wp.array(dtype=int), out: wp.array(dtype=float)):
    i = wp.tid()
    if flags[i] > 0:
        x = 3.0
        v = wp.vec2(1.0, 2.0)
        p = Pair(2.0, 4)
    else:
        y = 5.0
    out[i] = x + y + v[1] + p.a + float(p.b)


def test_name_bound_in_one_branch_is_zero_otherwise(device):
    flags = wp.array([1, 0], dtype=int, device=device)
    out = wp.zeros(2, dtype=float, device=device)
    wp.launch(one_branch_names, dim=2, inputs=[flags, out], device=device)
    # taken branch: its values (and y is 0); other branch: x, v and p are zero
    assert out.numpy().tolist() == [3.0 + 2.0 + 2.0 + 4.0, 5.0]


@wp.kernel
def short_circuit_grad(x: wp.array(dtype=float), flag: wp.array(dtype=int),
                       out: wp.array(dtype=float)):
    i = wp.tid()
    if flag[i] != 0 and x[i] > 0.0:
        out[i] = x[i] * x[i]
    else:
        out[i] = x[i] * 3.0


def test_short_circuit_gradient(device):
    xs = np.array([1.5, -1.0, 2.0, 0.5], dtype=np.float32)
    flags = np.array([1, 1, 0, 1], dtype=np.int32)
    x = wp.array(xs, device=device, requires_grad=True)
    out = wp.zeros(4, dtype=float, device=device, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(short_circuit_grad, dim=4, inputs=[x, wp.array(flags, device=device), out],
                  device=device)
    tape.backward(grads={out: wp.ones(4, dtype=float, device=device)})
    taken = (flags != 0) & (xs > 0)
    np.testing.assert_allclose(x.grad.numpy(), np.where(taken, 2 * xs, 3.0))


@wp.kernel
def reversed_ranges(starts: wp.array(dtype=int), stops: wp.array(dtype=int),
                    steps: wp.array(dtype=int), counts: wp.array(dtype=int),
                    values: wp.array2d(dtype=int)):
    t = wp.tid()
    count = int(0)
    for i in reversed(range(starts[t], stops[t], steps[t])):
        values[t, count] = i
        count += 1
    for i in reversed(range(3)):
        values[t, count] = i
        count += 1
    counts[t] = count


def test_reversed_range(device):
    cases = [(-2, 8, 3), (0, 5, 1), (5, 0, -1), (7, -4, -3), (3, 3, 1), (5, 0, 2), (0, 5, -2)]
    starts, stops, steps = (wp.array([c[k] for c in cases], dtype=int, device=device)
                            for k in range(3))
    counts = wp.zeros(len(cases), dtype=int, device=device)
    values = wp.zeros((len(cases), 32), dtype=int, device=device)
    wp.launch(reversed_ranges, dim=len(cases), inputs=[starts, stops, steps, counts, values],
              device=device)
    for t, (a, b, s) in enumerate(cases):
        expect = list(reversed(range(a, b, s))) + [2, 1, 0]
        assert counts.numpy()[t] == len(expect)
        assert values.numpy()[t, : len(expect)].tolist() == expect
