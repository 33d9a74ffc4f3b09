"""wp.capture_if / wp.capture_while inside a CUDA graph capture: conditional graph nodes.

The node reads the int32 condition each time the graph runs (treadle::ConditionalCapture in
C++: a captured set-condition kernel, then the nodes). Each body is filled by capturing the
capturing stream itself into it, its outer capture paused meanwhile, while the branch runs
with that stream current (a callable; streams the branch forks from it take part), or by a
captured Graph added as a child graph. Memory cannot be allocated inside a body
(RuntimeError).
"""

from . import _treadle
from .context import is_conditional_graph_supported
from .stream import Graph, ScopedStream


def _fill(node, index, branch, stream, kwargs, what):
    if branch is None:
        return
    if isinstance(branch, Graph):
        if branch._native is None:
            raise RuntimeError(f"{what}: the graph of an external capture cannot be a body")
        node.add_graph(index, branch._native, stream._native)
        return
    if not callable(branch):
        raise TypeError(f"{what} must be a Callable or a Graph")
    node.begin_body(index, stream._native)
    try:
        with ScopedStream(stream, sync_enter=False):
            branch(**kwargs)
    finally:
        node.end_body(index, stream._native)


def _add(what, condition, stream, is_while, with_else):
    if not is_conditional_graph_supported():
        raise RuntimeError(
            f"{what}: this device cannot record conditional graph nodes (they need a CUDA "
            "12.4+ driver, NVRTC and the CUDA toolkit's libcudadevrt.a; see "
            "wp.is_conditional_graph_supported())")
    return _treadle.ConditionalCapture.add(stream._native, condition.ptr, is_while, with_else)


def captured_if(condition, stream, on_true, on_false, kwargs):
    """Records an if (or if/else) node on the capturing ``stream``."""
    node = _add("capture_if()", condition, stream, False, on_false is not None)
    _fill(node, 0, on_true, stream, kwargs, "on_true")
    if node.body_count > 1:
        _fill(node, 1, on_false, stream, kwargs, "on_false")


def captured_while(condition, stream, while_body, kwargs):
    """Records a while node on the capturing ``stream``."""
    node = _add("capture_while()", condition, stream, True, False)
    _fill(node, 0, while_body, stream, kwargs, "while_body")
