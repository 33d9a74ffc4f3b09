"""wp.capture_if / wp.capture_while recorded as conditional nodes in CUDA graph captures: the
graph reads the condition at every replay (if, else, if/else, while, bodies given as captured
graphs, nesting), and a body that allocates is refused. Runs on CUDA devices only."""

import pytest

import treadle as wp

CUDA = wp.is_cuda_available()
pytestmark = pytest.mark.skipif(not CUDA, reason="needs a CUDA device")


@wp.kernel
def scale(a: wp.array(dtype=float), s: float):
    i = wp.tid()
    a[i] = a[i] * s


@wp.kernel
def count_down(c: wp.array(dtype=wp.int32), a: wp.array(dtype=float)):
    a[0] = a[0] + 1.0
    c[0] = c[0] - 1


@pytest.fixture
def device():
    if not wp.is_conditional_graph_supported():
        pytest.fail("a CUDA device without conditional graph support here: the driver, NVRTC "
                    "or libcudadevrt.a is missing (set TREADLE_CUDADEVRT)")
    with wp.ScopedDevice("cuda:0") as d:
        wp.load_module(device=d)
        yield d


def replay(graph, a, cond, values, start):
    out = []
    for v in values:
        a.assign(start)
        cond.assign([v])
        wp.capture_launch(graph)
        out.append(a.numpy().tolist())
    return out


def test_if_else_reads_the_condition_at_each_replay(device):
    a = wp.zeros(3, dtype=float)
    cond = wp.zeros(1, dtype=wp.int32)
    with wp.ScopedCapture(force_module_load=False) as cap:
        wp.capture_if(cond, lambda: wp.launch(scale, dim=3, inputs=[a, 2.0]),
                      lambda: wp.launch(scale, dim=3, inputs=[a, 5.0]))
    assert replay(cap.graph, a, cond, [0, 1, 7, 0], [1.0, 2.0, 3.0]) == [
        [5, 10, 15], [2, 4, 6], [2, 4, 6], [5, 10, 15]]


def test_if_alone_and_else_alone(device):
    a = wp.zeros(2, dtype=float)
    cond = wp.zeros(1, dtype=wp.int32)
    with wp.ScopedCapture(force_module_load=False) as cap:
        wp.capture_if(cond, on_true=lambda s: wp.launch(scale, dim=2, inputs=[a, s]), s=3.0)
        wp.capture_if(cond, on_false=lambda: wp.launch(scale, dim=2, inputs=[a, 10.0]))
    assert replay(cap.graph, a, cond, [1, 0], [1.0, 2.0]) == [[3, 6], [10, 20]]


def test_while_runs_until_the_body_clears_the_condition(device):
    a = wp.zeros(1, dtype=float)
    cond = wp.zeros(1, dtype=wp.int32)
    with wp.ScopedCapture(force_module_load=False) as cap:
        wp.capture_while(cond, lambda: wp.launch(count_down, dim=1, inputs=[cond, a]))
    assert replay(cap.graph, a, cond, [4, 0, 2], [0.0]) == [[4.0], [0.0], [2.0]]


def test_graph_bodies_and_nesting(device):
    a = wp.zeros(1, dtype=float)
    cond = wp.zeros(1, dtype=wp.int32)
    inner = wp.zeros(1, dtype=wp.int32)
    with wp.ScopedCapture(force_module_load=False) as body:
        wp.launch(scale, dim=1, inputs=[a, 3.0])
    def outer():  # if inner: a *= 3 (a graph body), then a *= 7 (a callable body)
        wp.capture_if(inner, on_true=body.graph)
        wp.capture_if(inner, on_true=lambda: wp.launch(scale, dim=1, inputs=[a, 7.0]))

    with wp.ScopedCapture(force_module_load=False) as cap:
        wp.capture_if(cond, on_true=outer)
    for c, i, want in [(0, 1, 1.0), (1, 0, 1.0), (1, 1, 21.0)]:
        a.assign([1.0])
        cond.assign([c])
        inner.assign([i])
        wp.capture_launch(cap.graph)
        assert a.numpy()[0] == want, (c, i)


def test_a_body_that_allocates_is_refused(device):
    cond = wp.ones(1, dtype=wp.int32)
    with pytest.raises(RuntimeError, match=r"Conditional body graph contains an unsupported "
                                           r"operation \(memory allocation\)"):
        with wp.ScopedCapture(force_module_load=False):
            wp.capture_if(cond, on_true=lambda: wp.zeros(10))
    with wp.ScopedCapture(force_module_load=False) as allocating:
        wp.zeros(10)
    with pytest.raises(RuntimeError, match=r"Child graph contains an unsupported operation "
                                           r"\(memory allocation\)"):
        with wp.ScopedCapture(force_module_load=False):
            wp.capture_while(cond, while_body=allocating.graph)


def test_debug_dot_print(device, tmp_path):
    a = wp.zeros(1, dtype=float)
    cond = wp.ones(1, dtype=wp.int32)
    with wp.ScopedCapture(force_module_load=False) as cap:
        wp.capture_if(cond, lambda: wp.launch(scale, dim=1, inputs=[a, 2.0]))
    path = tmp_path / "graph.dot"
    wp.capture_debug_dot_print(cap.graph, path, verbose=True)
    text = path.read_text()
    assert text.startswith("digraph") and "CONDITIONAL" in text.upper()
