"""Graph capture on the CPU: launches, copies, fills, allocations and conditionals are
recorded, not run, and every capture_launch replays them; work with no recorded form raises."""

import numpy as np
import pytest

import treadle as wp


@wp.kernel
def axpy(x: wp.array(dtype=float), y: wp.array(dtype=float), a: float):
    i = wp.tid()
    y[i] = y[i] + a * x[i]


@wp.kernel
def count_down(c: wp.array(dtype=wp.int32), hits: wp.array(dtype=wp.int32)):
    wp.atomic_sub(c, 0, 1)
    wp.atomic_add(hits, 0, 1)


def test_launches_copies_and_fills_are_replayed():
    x = wp.array(np.arange(4, dtype=np.float32), device="cpu")
    y = wp.zeros(4, dtype=float, device="cpu")
    z = wp.zeros(4, dtype=float, device="cpu")
    with wp.ScopedCapture("cpu") as capture:
        assert wp.get_device("cpu").is_capturing
        y.fill_(1.0)
        wp.launch(axpy, 4, inputs=[x, y, 2.0], device="cpu")
        tmp = wp.zeros(4, dtype=float, device="cpu")  # allocated now, kept by the graph
        wp.copy(tmp, y)
        wp.launch(axpy, 4, inputs=[tmp, z, 1.0], device="cpu")
    assert not wp.get_device("cpu").is_capturing
    assert not y.numpy().any() and not z.numpy().any()  # nothing ran yet
    for k in (1, 2, 3):
        wp.capture_launch(capture.graph)
        np.testing.assert_array_equal(y.numpy(), 1.0 + 2.0 * np.arange(4))
        np.testing.assert_array_equal(z.numpy(), k * (1.0 + 2.0 * np.arange(4)))
    assert capture.graph.graph_exec is None


def test_graphs_replay_inside_captures_and_conditionals():
    counter = wp.zeros(1, dtype=wp.int32, device="cpu")
    hits = wp.zeros(1, dtype=wp.int32, device="cpu")
    flag = wp.array([1], dtype=wp.int32, device="cpu")
    with wp.ScopedCapture("cpu") as inner:
        wp.launch(count_down, 1, inputs=[counter, hits], device="cpu")
    with wp.ScopedCapture("cpu") as outer:
        counter.fill_(3)
        wp.capture_while(counter, inner.graph)  # 3 iterations per replay
        wp.capture_if(flag, lambda: wp.capture_launch(inner.graph))
    for _ in range(2):
        wp.capture_launch(outer.graph)
    assert hits.numpy()[0] == 2 * 4
    flag.zero_()  # the condition is read at every replay
    wp.capture_launch(outer.graph)
    assert hits.numpy()[0] == 2 * 4 + 3


def test_unrecordable_work_is_refused_and_captures_pair_up():
    grid = wp.zeros((4, 4), dtype=wp.int32, device="cpu")
    column = grid[:, 0]
    with wp.ScopedCapture("cpu"):
        with pytest.raises(NotImplementedError, match="non-contiguous array during a CPU graph"):
            column.fill_(1)
        with pytest.raises(NotImplementedError, match="copy between non-contiguous arrays"):
            wp.copy(column, grid[:, 1])
        with pytest.raises(NotImplementedError, match="writing an indexed array"):
            wp.indexedarray(grid, [wp.array([0, 2], dtype=wp.int32, device="cpu")]).fill_(5)
        with pytest.raises(RuntimeError, match="a CPU capture is already open on this thread"):
            wp.capture_begin("cpu")
    with pytest.raises(RuntimeError, match="no CPU capture is open on this thread"):
        wp.capture_end("cpu")
    assert not grid.numpy().any()
