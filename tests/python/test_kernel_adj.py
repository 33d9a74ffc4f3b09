"""Kernel.adj (Warp's Adjoint as programs read it), FunctionSource.source, and dict/set displays
inside wp.static(), which also sees locals bound to integer constants."""

import treadle as wp
from treadle import _treadle


@wp.func
def bump(a: wp.array(dtype=int), i: int):
    wp.atomic_add(a, i, 1)


@wp.kernel
def reads_and_writes(src: wp.array(dtype=int), dst: wp.array(dtype=int),
                     counts: wp.array(dtype=int), scale: int):
    i, j = wp.tid()
    dst[i] = src[i] * scale
    bump(counts, j)


def test_kernel_adj_describes_source_and_arguments():
    adj = reads_and_writes.adj
    assert adj.fun_name == "reads_and_writes"
    assert adj.source.lstrip().startswith("def reads_and_writes(")
    assert adj.filename == __file__
    assert [a.label for a in adj.args] == ["src", "dst", "counts", "scale"]
    assert [(a.is_read, a.is_write) for a in adj.args] == [
        (True, False), (False, True), (False, True), (False, False)]
    assert adj.args[3].type is int
    assert adj.kernel_dim == 2


def test_function_source_text():
    fs = reads_and_writes._function_source()
    assert isinstance(fs, _treadle.FunctionSource)
    assert "dst[i] = src[i] * scale" in fs.source


PRIMES = (2, 3, 5)


@wp.kernel
def static_set_membership(out: wp.array(dtype=int)):
    if wp.static(len(PRIMES) in {1, 3}):
        out[0] = 1
    else:
        out[0] = 2
    out[1] = wp.static({"a": 10, "b": 20}["b"])


def test_dict_and_set_displays_in_static(device):
    out = wp.zeros(2, dtype=int, device=device)
    wp.launch(static_set_membership, dim=1, inputs=[out], device=device)
    assert out.numpy().tolist() == [1, 20]


@wp.func
def plus_two(x: int):
    return x + 2


@wp.kernel
def static_of_constant_local(out: wp.array(dtype=int)):
    k = 3
    out[0] = wp.static(plus_two(k) * 10)  # k is a constant local: known at compile time


def test_static_sees_constant_locals(device):
    out = wp.zeros(1, dtype=int, device=device)
    wp.launch(static_of_constant_local, dim=1, inputs=[out], device=device)
    assert out.numpy()[0] == 50
