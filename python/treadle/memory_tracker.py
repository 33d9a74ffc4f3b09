"""Allocation tracking: wp.ScopedMemoryTracker, wp.print_memory_report, wp.config.track_memory.

While a tracker scope is open (or ``config.track_memory`` is set), every array allocation is
noted with its size, device, label (``array[float32, 32]``), pinned flag, time, the Python
file:line that caused it and the scope path of the allocating thread (``outer/inner``; each
thread has its own stack of scopes). The record is dropped from the live set when the array's
memory is released. Counters (total allocations and bytes, live count and bytes, peak bytes)
are kept until ``reset``. When tracking is off the allocation path pays one flag test.
"""

import itertools
import os
import sys
import threading
import time
import weakref

from . import _treadle, config

_lock = threading.Lock()
_local = threading.local()
_active_scopes = 0  # open ScopedMemoryTracker scopes over all threads
_enabled = False  # _active_scopes > 0 or a forced enable; config.track_memory is read too
_forced = False
_ids = itertools.count()  # unique over resets, so a late free never hits a new record
_package_dir = os.path.dirname(os.path.abspath(__file__))


class _State:
    def __init__(self):
        self.live = {}  # id -> record dict
        self.total_count = 0
        self.total_bytes = 0
        self.current_bytes = 0
        self.peak_bytes = 0
        self.scope_totals = {}  # scope path -> [count, bytes]
        self.device_bytes = {}  # device alias -> live bytes
        self.history = []  # (host clock in ms, device alias, live bytes on it) per change


def _changed(st, device, delta):
    live = st.device_bytes.get(device, 0) + delta
    st.device_bytes[device] = live
    st.history.append((time.perf_counter_ns() / 1.0e6, device, live))


_state = _State()


def is_enabled():
    """Whether allocations are being noted now."""
    return _enabled or bool(config.track_memory)


def set_enabled(enable):
    """Forces tracking on (True) or leaves it to the open scopes and config (False)."""
    global _forced, _enabled
    with _lock:
        _forced = bool(enable)
        _enabled = _forced or _active_scopes > 0


def reset():
    """Forgets every record and zeroes the counters (also the CUDA runtime's count of live
    device allocations)."""
    global _state
    with _lock:
        _state = _State()
    _treadle.cuda_alloc_tracker_reset()


def _scope_stack():
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


class native_allocations:
    """Within this block, allocations of this thread are reported as the native object's
    (``(native:<kind>)`` instead of a Python line): the buffers of a HashGrid, say."""

    def __init__(self, kind):
        self.kind = kind

    def __enter__(self):
        self.saved = getattr(_local, "native", None)
        _local.native = self.kind
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        _local.native = self.saved
        return False


def _callsite():
    native = getattr(_local, "native", None)
    if native is not None:
        return f"(native:{native})"
    frame = sys._getframe(2)
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)).startswith(
        _package_dir
    ):
        frame = frame.f_back
    if frame is None:
        return "(native)"
    return f"{frame.f_code.co_filename}:{frame.f_lineno}"


def _note_free(key):
    with _lock:
        rec = _state.live.pop(key, None)
        if rec is not None:
            _state.current_bytes -= rec["bytes"]
            _changed(_state, rec["device"], -rec["bytes"])


def note_allocation(owner, nbytes, device, label, pinned=False, native=None):
    """Notes an allocation of `nbytes` owned by `owner` (freed when `owner` is collected);
    `native` names the native object kind that made it (reported as ``(native:<kind>)``)."""
    stack = _scope_stack()
    scope = stack[-1] if stack else ""
    site = f"(native:{native})" if native else _callsite()
    with _lock:
        st = _state
        key = next(_ids)
        rec = {"bytes": int(nbytes), "device": str(device), "label": label, "pinned": pinned,
               "scope": scope, "site": site, "time": time.time()}
        st.live[key] = rec
        st.total_count += 1
        st.total_bytes += rec["bytes"]
        st.current_bytes += rec["bytes"]
        st.peak_bytes = max(st.peak_bytes, st.current_bytes)
        _changed(st, rec["device"], rec["bytes"])
        totals = st.scope_totals.setdefault(scope, [0, 0])
        totals[0] += 1
        totals[1] += rec["bytes"]
    weakref.finalize(owner, _note_free, key)


def note_array(arr, pinned=False):
    """Notes the allocation of a freshly allocated array (called only when tracking is on)."""
    dtype = getattr(arr.dtype, "__name__", str(arr.dtype))
    shape = ", ".join(str(s) for s in arr.shape)
    label = f"array[{dtype}, {shape}]"
    nbytes = arr.capacity if hasattr(arr, "capacity") else 0
    note_allocation(arr, nbytes, arr.device, label, pinned)


def note_if_tracking(arr, pinned=False):
    """Notes a freshly allocated array when tracking is on; a flag test otherwise."""
    if _enabled or config.track_memory:
        note_array(arr, pinned)


def history():
    """The live bytes of each device after every noted allocation and free since the last
    reset: (host clock in ms, device alias, live bytes) triples."""
    with _lock:
        return list(_state.history)


def counters():
    """(total count, total bytes, live count, current bytes, peak bytes)."""
    with _lock:
        st = _state
        return st.total_count, st.total_bytes, len(st.live), st.current_bytes, st.peak_bytes


def report_text(sort_order=0, max_items=10):
    """The report: totals, allocations per scope, and the `max_items` largest live allocations
    (``sort_order`` 0: by size; 1: oldest first)."""
    with _lock:
        st = _state
        live = list(st.live.values())
        scopes = sorted(st.scope_totals.items())
        head = (st.total_count, st.total_bytes, len(live), st.current_bytes, st.peak_bytes)
    if sort_order == 1:
        live.sort(key=lambda r: r["time"])
    else:
        live.sort(key=lambda r: -r["bytes"])
    lines = ["Allocation Tracking Report", "=" * 26,
             f"Total allocations: {head[0]} ({head[1]} bytes)",
             f"Live allocations: {head[2]} ({head[3]} bytes)",
             f"Peak bytes: {head[4]}", "", "Allocations per scope:"]
    for path, (count, nbytes) in scopes:
        lines.append(f"  {path or '(no scope)'}: {count} allocations, {nbytes} bytes")
    lines += ["", f"Largest live allocations (up to {max_items}):"]
    for rec in live[: max(0, int(max_items))]:
        kind = " pinned" if rec["pinned"] else ""
        lines.append(f"  {rec['bytes']:>12} bytes  {rec['label']} on {rec['device']}{kind}  "
                     f"[{rec['scope'] or '(no scope)'}]  {rec['site']}")
    return "\n".join(lines) + "\n"


def print_memory_report(sort_order=0, max_items=10, file=None):
    """Prints the report of the allocations noted so far; RuntimeError when no tracking is on
    (no open ScopedMemoryTracker and ``config.track_memory`` off)."""
    if not is_enabled():
        raise RuntimeError(
            "print_memory_report(): memory tracking is not active; open a wp.ScopedMemoryTracker "
            "or set wp.config.track_memory = True before allocating"
        )
    print(report_text(sort_order, max_items), end="", file=file or sys.stdout)


class ScopedMemoryTracker:
    """Notes every allocation made inside the with block, under the scope path `name` (nested
    in the scopes open on this thread); prints the report at exit when `print` is true."""

    def __init__(self, name="", print=True, sort_order=0, max_items=10):
        self.name = name
        self.print = print
        self.sort_order = sort_order
        self.max_items = max_items

    def __enter__(self):
        global _active_scopes, _enabled
        stack = _scope_stack()
        self.path = f"{stack[-1]}/{self.name}" if stack else self.name
        stack.append(self.path)
        with _lock:
            _active_scopes += 1
            _enabled = True
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        global _active_scopes, _enabled
        stack = _scope_stack()
        if stack:
            stack.pop()
        with _lock:
            _active_scopes -= 1
            _enabled = _forced or _active_scopes > 0
        if self.print:
            self.report()

    def report(self, file=None):
        """Writes the report (also after the block has ended) to `file` (stdout)."""
        print(report_text(self.sort_order, self.max_items), end="", file=file or sys.stdout)

    def clear(self):
        """Forgets the allocations noted so far."""
        reset()
