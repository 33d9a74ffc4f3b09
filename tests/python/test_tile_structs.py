"""Tiles of @wp.struct values: sums, +, -, atomic adds (fields without atomics are carried, not
added), stacks of structs, gradients through struct arithmetic, and the errors for operations
structs do not support."""

import inspect

import numpy as np
import pytest

import treadle as wp

M = 8


@pytest.fixture(autouse=True)
def _arrays_on_the_cpu():
    with wp.ScopedDevice("cpu"):
        yield


@wp.struct
class Body:
    flag: wp.bool
    small: wp.int8
    count: wp.int32
    mass: wp.float32
    pos: wp.vec3


@wp.struct
class Outer:
    inner: Body
    weight: wp.float32


def _bodies(n, flag=None, small=None):
    out = []
    for i in range(n):
        b = Body()
        b.flag = bool(i % 2) if flag is None else flag
        b.small = wp.int8(i if small is None else small)
        b.count = i
        b.mass = float(i + 1)
        b.pos = wp.vec3(i, 2 * i, 3 * i)
        out.append(b)
    return out


@wp.kernel
def struct_arithmetic(src: wp.array[Body], total: wp.array[Body], doubled: wp.array[Body],
                      diff: wp.array[Body], acc: wp.array[Body]):
    t = wp.tile_load(src, shape=M)
    wp.tile_store(total, wp.tile_sum(t))
    wp.tile_store(doubled, t + t)
    wp.tile_store(diff, t - t)
    wp.tile_atomic_add(acc, t)
    wp.tile_atomic_add(acc, t)


def test_struct_tiles_add_fieldwise_and_carry_fields_without_atomics():
    src = wp.array(_bodies(M, flag=True, small=3), dtype=Body)
    total = wp.empty(1, dtype=Body)
    doubled = wp.empty(M, dtype=Body)
    diff = wp.empty(M, dtype=Body)
    acc = wp.zeros(M, dtype=Body)
    wp.launch_tiled(struct_arithmetic, dim=[1], inputs=[src, total, doubled, diff, acc],
                    block_dim=32)
    mass = np.arange(1, M + 1, dtype=np.float32)
    pos = np.stack([np.arange(M), 2 * np.arange(M), 3 * np.arange(M)], axis=1)
    t = total.numpy()[0]
    assert t["mass"] == mass.sum() and t["count"] == np.arange(M).sum()
    np.testing.assert_array_equal(t["pos"], pos.sum(axis=0))
    assert bool(t["flag"]) and t["small"] == 3  # carried from the first element
    d = doubled.numpy()
    np.testing.assert_array_equal(d["mass"], 2 * mass)
    assert d["flag"].all() and (d["small"] == 3).all()
    np.testing.assert_array_equal(diff.numpy()["pos"], np.zeros((M, 3)))
    a = acc.numpy()  # two atomic adds into zeros: numbers added, bool/int8 left alone
    np.testing.assert_array_equal(a["mass"], 2 * mass)
    np.testing.assert_array_equal(a["count"], 2 * np.arange(M))
    assert not a["flag"].any() and not a["small"].any()


@wp.func
def outer_value(o: Outer) -> float:
    return o.inner.mass * o.weight + o.inner.pos[1]


@wp.kernel
def struct_grad(src: wp.array[Outer], loss: wp.array[float]):
    t = wp.tile_load(src, shape=M)
    zero = wp.tile_zeros(shape=M, dtype=Outer)
    d = t + t - zero
    wp.tile_store(loss, wp.tile_sum(wp.tile_map(outer_value, d)))


def test_gradients_flow_through_struct_tiles():
    items = []
    for i in range(M):
        o = Outer()
        o.inner = _bodies(M)[i]
        o.weight = 0.5 * i
        items.append(o)
    src = wp.array(items, dtype=Outer, requires_grad=True)
    loss = wp.zeros(1, requires_grad=True)
    with wp.Tape() as tape:
        wp.launch_tiled(struct_grad, dim=[1], inputs=[src, loss], block_dim=32)
    # loss = sum((2 m) (2 w) + 2 y)
    mass = np.arange(1, M + 1, dtype=np.float32)
    weight = 0.5 * np.arange(M, dtype=np.float32)
    np.testing.assert_allclose(loss.numpy()[0], np.sum(4 * mass * weight + 4 * np.arange(M)))
    tape.backward(loss)
    g = src.grad.numpy()
    np.testing.assert_allclose(g["inner"]["mass"], 4 * weight)
    np.testing.assert_allclose(g["weight"], 4 * mass)
    np.testing.assert_allclose(g["inner"]["pos"][:, 1], np.full(M, 2.0))


@wp.kernel
def struct_stack(src: wp.array[Body], out: wp.array[Body], slots: wp.array[int]):
    _i, j = wp.tid()
    s = wp.tile_stack(capacity=4, dtype=Body)
    wp.tile_stack_push(s, src[j], True)
    v, slot = wp.tile_stack_pop(s)
    out[0] = v
    slots[0] = slot


def test_stacks_of_structs():
    src = wp.array(_bodies(4), dtype=Body)
    out = wp.zeros(1, dtype=Body)
    slots = wp.full(1, -2, dtype=int)
    wp.launch_tiled(struct_stack, dim=[1], inputs=[src, out, slots], block_dim=4)
    assert slots.numpy()[0] == 0
    assert out.numpy()[0]["mass"] == 1.0


def _kernel_error(fn):
    kernel = wp.kernel(module="unique")(fn)
    with pytest.raises(Exception) as info:
        kernel._compile("cpu")
    return str(info.value)


def _line_of(fn, text):
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(lines) if text in line)


def test_struct_tile_errors():
    def bitwise(a: wp.array[Body]):
        t = wp.tile_load(a, shape=M)
        t &= t

    msg = _kernel_error(bitwise)
    assert "bitwise inplace '&=' does not apply to tiles of a Warp struct (Body)" in msg
    assert f":{_line_of(bitwise, 't &= t')}:" in msg

    def ordering(a: wp.array[Body]):
        t = wp.tile_load(a, shape=M)
        wp.tile_min(t)

    assert "it does not take tiles of a Warp struct (Body)" in _kernel_error(ordering)

    def reduce_min(a: wp.array[Body]):
        t = wp.tile_load(a, shape=M)
        wp.tile_reduce(wp.min, t)

    assert "tile_reduce(): no overload of min() accepts (Body, Body)" in _kernel_error(reduce_min)

    def arange():
        wp.tile_arange(M, dtype=Body)

    assert "tile_arange(): dtype must be a number type, not a Warp struct (Body)" in _kernel_error(
        arange)
