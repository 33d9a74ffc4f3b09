"""Tape scopes and visualize(), struct entries of Tape.gradients, and the copy adjoint's
accumulate-then-consume rule (clone, copy, assign) against analytic gradients."""

import numpy as np
import pytest

import treadle as wp
import treadle.logger


@wp.kernel
def dot(x: wp.array(dtype=float), y: wp.array(dtype=float), z: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(z, 0, x[i] * y[i])


@wp.kernel
def twice(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * 2.0


@wp.kernel
def total(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    wp.atomic_add(out, 0, x[wp.tid()])


@wp.struct
class Inner:
    a: wp.array(dtype=float)


@wp.struct
class Outer:
    inner: Inner
    b: wp.array(dtype=float)
    k: float


@wp.kernel
def struct_loss(s: Outer, out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, s.inner.a[i] * s.k + 3.0 * s.b[i])


def _arr(values, grad=True):
    return wp.array(np.asarray(values, dtype=np.float32), device="cpu", requires_grad=grad)


def test_scopes_markers_and_errors():
    tape = wp.Tape()
    with pytest.raises(RuntimeError, match="ended tape scope, but scope not present"):
        tape.record_scope_end()
    tape.record_scope_begin("outer", {"k": 1})
    tape.record_scope_begin("inner")
    tape.record_scope_end()  # empty: dropped
    tape.launches.append(object())
    tape.record_scope_end()
    assert tape.scopes == [(0, "outer", {"k": 1}), (1, None, None)]
    tape.record_scope_begin("kept")
    tape.record_scope_end(remove_scope_if_empty=False)
    assert tape.scopes[-2:] == [(1, "kept", {}), (1, None, None)]
    tape.reset()
    assert tape.scopes == []


def test_visualize_groups_repeats_inside_scopes(tmp_path):
    x, y, z = _arr(np.ones(4)), _arr(np.ones(4) * 2), _arr([0.0])
    tape = wp.Tape()
    with tape:
        tape.record_scope_begin("my loop")
        for _ in range(5):
            wp.launch(dot, 4, inputs=[x, y], outputs=[z], device="cpu")
        tape.record_scope_end()
        wp.launch(dot, 4, inputs=[x, y], outputs=[z], device="cpu")
    path = tmp_path / "tape.dot"
    code = tape.visualize(str(path), array_labels={x: "x-input"})
    assert path.read_text() == code
    assert code.startswith("digraph tape {") and code.rstrip().endswith("}")
    assert 'label="my loop"' in code and "subgraph cluster_" in code
    assert code.count("(repeated 5x)") == 1 and code.count("dot") >= 2
    assert 'label="x-input"' in code and "array: dtype=float32, shape=(4,)" in code
    assert code.count("->") == 6  # two boxes, each reading x and y and writing z
    flat = tape.visualize(simplify_graph=False, ignore_graph_scopes=True)
    assert "repeated" not in flat and "cluster" not in flat and flat.count("->") == 18


def test_struct_gradients_and_zero():
    s = Outer()
    s.inner = Inner()
    s.inner.a = _arr([1.0, 2.0])
    s.b = _arr([5.0, 6.0])
    s.k = 4.0
    out = _arr([0.0])
    tape = wp.Tape()
    with tape:
        wp.launch(struct_loss, 2, inputs=[s, out], device="cpu")
    tape.backward(out)
    g = tape.gradients[s]
    assert isinstance(g, Outer)
    np.testing.assert_array_equal(g.inner.a.numpy(), [4.0, 4.0])
    np.testing.assert_array_equal(g.b.numpy(), [3.0, 3.0])
    tape.zero()
    assert not s.inner.a.grad.numpy().any() and not s.b.grad.numpy().any()
    tape.reset()
    assert not tape.gradients[s].b.numpy().any()  # still listed after reset, as in Warp


def test_copy_adjoint_accumulates_then_consumes():
    # loss = sum(2x) + sum(clone(x)): d/dx = 3
    x, doubled, loss = _arr([1.0, 2.0, 3.0]), _arr(np.zeros(3)), _arr([0.0])
    tape = wp.Tape()
    with tape:
        c = wp.clone(x)
        wp.launch(twice, 3, inputs=[x, doubled], device="cpu")
        wp.launch(total, 3, inputs=[doubled, loss], device="cpu")
        wp.launch(total, 3, inputs=[c, loss], device="cpu")
    tape.backward(loss)
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0, 3.0])
    # two copies into one destination: only the last one's source gets the gradient
    a, b, dst, loss = _arr(np.ones(3)), _arr(np.ones(3)), _arr(np.zeros(3)), _arr([0.0])
    tape = wp.Tape()
    with tape:
        wp.copy(dst, a)
        dst.assign(b)
        wp.launch(total, 3, inputs=[dst, loss], device="cpu")
    tape.backward(loss)
    np.testing.assert_array_equal(b.grad.numpy(), np.ones(3))
    np.testing.assert_array_equal(a.grad.numpy(), np.zeros(3))
    np.testing.assert_array_equal(dst.grad.numpy(), np.zeros(3))  # consumed


def test_copy_adjoint_overwrites_for_overlap_and_reinterpretation(monkeypatch, capsys):
    monkeypatch.setattr(treadle.logger, "_warnings_seen", set())  # shown once per process
    y, loss = _arr([1.0, 2.0, 3.0, 4.0]), _arr([0.0])
    tape = wp.Tape()
    with tape:
        wp.copy(y, y, dest_offset=1, src_offset=0, count=3)  # overlapping views
        wp.launch(total, 4, inputs=[y, loss], device="cpu")
    tape.backward(loss)
    assert capsys.readouterr().err == (
        "Warp UserWarning: Tape.backward(): the gradient of an overlapping copy (source and "
        "destination share memory) cannot yet be fully tracked; the destination's gradient is "
        "copied to the source's instead of accumulated\n"
    )
    np.testing.assert_array_equal(y.grad.numpy(), np.ones(4))
    f = _arr(np.ones(3))
    i = wp.zeros(3, dtype=wp.int32, device="cpu", requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.copy(i, f)  # the bytes
    np.testing.assert_array_equal(i.numpy(), np.ones(3, dtype=np.float32).view(np.int32))
    i.grad.assign(np.full(3, 7, dtype=np.int32))
    tape.backward()
    np.testing.assert_array_equal(f.grad.numpy(), np.full(3, 7, dtype=np.int32).view(np.float32))
    np.testing.assert_array_equal(i.grad.numpy(), [7, 7, 7])
