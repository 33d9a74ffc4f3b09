"""Graph capture on the CPU (Warp 1.17's CPU capture): while a capture of the CPU is open on a
thread, the CPU work that thread queues -- kernel launches, contiguous copies, fills and zeroes,
replays of other graphs, capture_if/capture_while -- is recorded as steps instead of run, and
the Graph that capture_end() returns runs the steps again at every capture_launch().

Launches keep the compiled kernel they resolved when captured (unloading its module later does
not affect the graph) and their argument list (arrays by reference, as a CUDA graph holds
their addresses). Work with no recorded form (non-contiguous or indexed fills and copies)
raises NotImplementedError during a capture rather than run once and be missing from replays.
Arrays allocated during a capture stay alive with the graph through the steps that use them.
Nothing here imports treadle: the modules that queue work check ``depth`` and ``active()``.
"""

import threading

_local = threading.local()
depth = [0]
"""How many CPU captures are open on any thread: callers look further only when nonzero."""


class Recorder:
    """The steps of one open CPU capture (callables run in order by replay())."""

    def __init__(self):
        self.steps = []

    def add(self, step):
        self.steps.append(step)


def active():
    """The innermost open CPU capture of this thread, or None."""
    stack = _local.__dict__.get("stack")
    return stack[-1] if stack else None


def begin():
    """Opens a capture (nested captures record into the innermost); returns its Recorder."""
    stack = _local.__dict__.setdefault("stack", [])
    recorder = Recorder()
    stack.append(recorder)
    depth[0] += 1
    return recorder


def end(recorder):
    """Closes `recorder` (the innermost capture of this thread); returns its steps."""
    stack = _local.__dict__.get("stack")
    if not stack or stack[-1] is not recorder:
        raise RuntimeError("capture_end(): no CPU capture is open on this thread")
    stack.pop()
    depth[0] -= 1
    return recorder.steps


def record_or_run(step):
    """Records `step` into the open CPU capture of this thread, else runs it now."""
    recorder = active() if depth[0] else None
    if recorder is None:
        step()
    else:
        recorder.add(step)


def replay(steps):
    """Runs recorded steps (into an open capture, as one step, when there is one)."""
    def run():
        for step in steps:
            step()

    record_or_run(run)


def refuse(what):
    """NotImplementedError for work with no recorded form during a CPU capture."""
    raise NotImplementedError(
        f"{what} during a CPU graph capture is not supported (it has no recorded form); do it "
        "before or after the capture, or on contiguous arrays")
