"""wp.capture_if and wp.capture_while: branches and loops on a device-side condition (Warp's API).

The condition is the first element of a one-element int32 array. Outside a graph capture the
branch runs at once: the condition is read on the host (after the work queued before on its
stream, for a CUDA array), and a branch is a callable (called with the keyword arguments) or a
captured Graph (launched on the stream). During a CPU capture each branch (or the loop body) is
recorded once, and the graph reads the condition and runs the chosen steps at every replay.
During a CUDA capture they record conditional graph nodes (graph_conditional_cuda.py), which
read the condition at every replay.
"""

from . import cpu_capture as _cpu_capture
from . import graph_conditional_cuda as _cuda_nodes

from .array import array
from .context import get_stream
from .scalar_types import int32
from .stream import Graph, capture_launch


def _condition_stream(what, condition, stream):
    """The stream the condition was written on (None for the CPU) after checking
    `condition`."""
    if not isinstance(condition, array) or condition.dtype is not int32 or condition.size != 1:
        raise TypeError(f"{what}: Condition must be a Warp array of int32 with a single element")
    device = condition.device
    if not device.is_cuda:
        return None
    return get_stream(device) if stream is None else stream


def _value(condition, stream):
    if stream is not None:
        stream.synchronize()
    return int(condition.numpy().reshape(-1)[0])


def _recorded(what, branch, kwargs):
    """The steps of `branch` recorded into a capture of their own (none for None)."""
    recorder = _cpu_capture.begin()
    try:
        _run(what, branch, None, kwargs)
    finally:
        steps = _cpu_capture.end(recorder)
    return steps


def _cpu_recording(condition):
    return (_cpu_capture.depth[0] and condition.device.is_cpu
            and _cpu_capture.active() is not None)


def _run(what, branch, stream, kwargs):
    if branch is None:
        return
    if isinstance(branch, Graph):
        capture_launch(branch, stream=stream)
    elif callable(branch):
        branch(**kwargs)
    else:
        raise TypeError(f"{what} must be a Callable or a Graph")


def capture_if(condition, on_true=None, on_false=None, stream=None, **kwargs):
    """Runs ``on_true`` when ``condition[0]`` is nonzero, else ``on_false`` (either may be
    None; a callable gets ``**kwargs``, a Graph is launched). ``stream``: where the condition
    was written (default: the current stream of its device)."""
    if on_true is None and on_false is None:
        return
    stream = _condition_stream("capture_if()", condition, stream)
    if stream is not None and stream.is_capturing:
        _cuda_nodes.captured_if(condition, stream, on_true, on_false, kwargs)
        return
    if _cpu_recording(condition):
        on_true = _recorded("on_true", on_true, kwargs)
        on_false = _recorded("on_false", on_false, kwargs)
        _cpu_capture.active().add(
            lambda: _cpu_capture.replay(on_true if _value(condition, None) else on_false))
        return
    if _value(condition, stream):
        _run("on_true", on_true, stream, kwargs)
    else:
        _run("on_false", on_false, stream, kwargs)


def capture_while(condition, while_body, stream=None, **kwargs):
    """Runs ``while_body`` (a callable given ``**kwargs``, or a Graph) as long as
    ``condition[0]`` is nonzero, reading the condition before each iteration; the body is
    what changes it."""
    stream = _condition_stream("capture_while()", condition, stream)
    if stream is not None and stream.is_capturing:
        _cuda_nodes.captured_while(condition, stream, while_body, kwargs)
        return
    if _cpu_recording(condition):
        body = _recorded("while_body", while_body, kwargs)

        def loop():
            while _value(condition, None):
                _cpu_capture.replay(body)

        _cpu_capture.active().add(loop)
        return
    while _value(condition, stream):
        _run("while_body", while_body, stream, kwargs)
