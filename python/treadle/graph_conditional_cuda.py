"""wp.capture_if / wp.capture_while inside a CUDA graph capture: conditional graph nodes.

The node reads the int32 condition each time the graph runs (treadle::ConditionalCapture in
C++: a captured set-condition kernel, then the nodes). Each body is filled by capturing a body
stream into it while the branch runs with that stream current (a callable), or by a captured
Graph added as a child graph. Body streams are kept per device and reused; a nested conditional
takes the next free one. Memory cannot be allocated inside a body (RuntimeError).
"""

from . import _treadle
from .context import Stream, is_conditional_graph_supported
from .stream import Graph, ScopedStream

_body_streams = {}  # device alias -> [Stream]: created once, reused by later conditionals
_busy = set()  # ids of the body streams capturing a body now


def _free_body_stream(device):
    streams = _body_streams.setdefault(device.alias, [])
    for s in streams:
        if id(s) not in _busy:
            return s
    s = Stream(device)
    streams.append(s)
    return s


def _fill(node, index, branch, device, kwargs, what):
    if branch is None:
        return
    body = _free_body_stream(device)
    _busy.add(id(body))
    try:
        if isinstance(branch, Graph):
            if branch._native is None:
                raise RuntimeError(f"{what}: the graph of an external capture cannot be a body")
            node.add_graph(index, branch._native, body._native)
            return
        if not callable(branch):
            raise TypeError(f"{what} must be a Callable or a Graph")
        node.begin_body(index, body._native)
        try:
            with ScopedStream(body, sync_enter=False):
                branch(**kwargs)
        finally:
            node.end_body(index, body._native)
    finally:
        _busy.discard(id(body))


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
    _fill(node, 0, on_true, condition.device, kwargs, "on_true")
    if node.body_count > 1:
        _fill(node, 1, on_false, condition.device, kwargs, "on_false")


def captured_while(condition, stream, while_body, kwargs):
    """Records a while node on the capturing ``stream``."""
    node = _add("capture_while()", condition, stream, True, False)
    _fill(node, 0, while_body, condition.device, kwargs, "while_body")
