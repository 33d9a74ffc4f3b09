"""Graph capture on a stream another library owns (PyTorch), and arrays shared with it."""

import numpy as np
import pytest

import treadle as wp

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(
    not (wp.is_cuda_available() and torch.cuda.is_available()), reason="needs CUDA and PyTorch"
)


@wp.kernel
def axpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = a * x[i] + y[i]


def test_launch_inside_a_torch_graph_capture():
    n = 1024
    x = torch.arange(n, dtype=torch.float32, device="cuda:0")
    y = torch.zeros(n, dtype=torch.float32, device="cuda:0")
    wx = wp.array(x, dtype=wp.float32, device="cuda:0", copy=False)  # shares torch's memory
    wy = wp.array(y, dtype=wp.float32, device="cuda:0", copy=False)
    wp.launch(axpy, dim=n, inputs=[1.0, wx, wy], device="cuda:0")  # compile outside the capture
    torch.cuda.synchronize()
    y.zero_()

    side = torch.cuda.Stream()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=side):
        stream = wp.Stream("cuda:0", cuda_stream=side.cuda_stream)
        wp.launch(axpy, dim=n, inputs=[2.0, wx, wy], stream=stream)
    torch.cuda.synchronize()
    np.testing.assert_array_equal(y.cpu().numpy(), np.zeros(n))  # captured, not run
    for _ in range(3):
        graph.replay()
    torch.cuda.synchronize()
    np.testing.assert_array_equal(y.cpu().numpy(), 6.0 * np.arange(n))


def test_external_capture_with_treadle_api():
    n = 256
    x = wp.array(np.ones(n, dtype=np.float32), device="cuda:0")
    y = wp.zeros(n, dtype=wp.float32, device="cuda:0")
    wp.launch(axpy, dim=n, inputs=[1.0, x, y], device="cuda:0")
    wp.synchronize()
    y.zero_()
    side = torch.cuda.Stream()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=side):
        stream = wp.Stream("cuda:0", cuda_stream=side.cuda_stream)
        with wp.ScopedCapture(stream=stream, external=True):
            wp.launch(axpy, dim=n, inputs=[3.0, x, y], stream=stream)
    graph.replay()
    torch.cuda.synchronize()
    np.testing.assert_array_equal(y.numpy(), np.full(n, 3.0))
