"""The activity timeline: wp.timing_begin / timing_end / timing_print, the TIMING_* flags,
TimingResult, and export of a timeline to the Chrome trace (Perfetto) JSON format.

While timing is on, every kernel launch (CPU kernels included) is recorded with its device, its
start on the host clock and its elapsed time. A CPU launch is timed around the call; a CUDA
launch is timed from its enqueue to the end of a synchronization of the device, so each kernel's
time includes the wait for the work queued before it (``timing_begin`` synchronizes first by
default). When timing is off the launch path pays one flag test.
"""

import json
import time

from . import context, memory_tracker

TIMING_KERNEL = 1
"""Timing flag for user-defined kernel launches."""
TIMING_KERNEL_BUILTIN = 2
"""Timing flag for built-in kernel operations (array fill, copy)."""
TIMING_MEMCPY = 4
"""Timing flag for memory copies."""
TIMING_MEMSET = 8
"""Timing flag for memory sets."""
TIMING_GRAPH = 16
"""Timing flag for graph launches."""
TIMING_ALL = 0xFFFFFFFF
"""Timing flag for every kind of activity."""

active = [False]  # read by launch(); a list so the flag is shared without a global lookup
_filter = [0]
_results = []


class TimingResult:
    """One recorded activity: `device` (a wp.Device), `name`, `filter` (a TIMING_* flag),
    `elapsed` (milliseconds) and `start` (milliseconds on the host clock)."""

    def __init__(self, device, name, filter, elapsed, start=0.0):
        self.device = device
        self.name = name
        self.filter = filter
        self.elapsed = elapsed
        self.start = start

    def __repr__(self):
        return f"TimingResult({self.device!r}, {self.name!r}, {self.filter}, {self.elapsed:.6f})"


def now():
    """The host clock in nanoseconds."""
    return time.perf_counter_ns()


def record_kernel(key, device_alias, start_ns):
    """Records the launch of kernel `key` on `device_alias` that began at `start_ns`."""
    if not _filter[0] & TIMING_KERNEL:
        return
    device = context.get_device(device_alias)
    if device.is_cuda:
        context.synchronize_device(device)
    end = now()
    _results.append(TimingResult(device, f"forward kernel {key}", TIMING_KERNEL,
                                 (end - start_ns) / 1.0e6, start_ns / 1.0e6))


def timing_begin(cuda_filter=TIMING_ALL, synchronize=True):
    """Starts recording activities of the kinds in `cuda_filter` (TIMING_* flags), after
    waiting for every device when `synchronize` is true."""
    if synchronize:
        context.synchronize()
    _results.clear()
    _filter[0] = int(cuda_filter)
    active[0] = True


def timing_end(synchronize=True):
    """Stops recording and returns the list of TimingResult recorded since timing_begin."""
    if synchronize:
        context.synchronize()
    active[0] = False
    results = list(_results)
    _results.clear()
    return results


def _table(indent, title, header, rows, width):
    dashes = "-" * width
    print(f"{indent}{title}")
    print(f"{indent}----------------+---------+{dashes}")
    print(f"{indent}{header}")
    print(f"{indent}----------------+---------+{dashes}")
    for row in rows:
        print(f"{indent}{row}")


def timing_print(results, indent=""):
    """Prints the timeline, the total per activity and the total per device."""
    if not results:
        print("No activity")
        return
    width = max(len("Activity"), *(len(r.name) for r in results)) + 1
    per_name, per_device = {}, {}
    for r in results:
        for table, key in ((per_name, r.name), (per_device, r.device.alias)):
            count, total = table.get(key, (0, 0.0))
            table[key] = (count + 1, total + r.elapsed)
    _table(indent, "Timeline:", "Time            | Device  | Activity",
           [f"{r.elapsed:12.6f} ms | {r.device.alias:7s} | {r.name}" for r in results], width)
    print()
    _table(indent, "Activity summary:", "Total time      | Count   | Activity",
           [f"{t:12.6f} ms | {c:7d} | {n}" for n, (c, t) in per_name.items()], width)
    print()
    _table(indent, "Device summary:", "Total time      | Count   | Device",
           [f"{t:12.6f} ms | {c:7d} | {d}" for d, (c, t) in per_device.items()], width)


def chrome_trace(results, memory_events=()):
    """The Chrome trace (Perfetto) JSON object of `results`: one complete event ("ph": "X") per
    activity, one process per device, and a "live bytes" counter ("ph": "C") per entry of
    `memory_events` ((time in ms on the host clock, device alias, live bytes) triples)."""
    pids = {}
    events = []

    def pid_of(alias):
        if alias not in pids:
            pids[alias] = len(pids) + 1
            events.append({"name": "process_name", "ph": "M", "pid": pids[alias], "tid": 0,
                           "args": {"name": alias}})
        return pids[alias]

    for r in results:
        events.append({"name": r.name, "cat": _category(r.filter), "ph": "X",
                       "ts": r.start * 1000.0, "dur": r.elapsed * 1000.0,
                       "pid": pid_of(r.device.alias), "tid": 0,
                       "args": {"device": r.device.alias}})
    for t_ms, alias, live in memory_events:
        events.append({"name": "live bytes", "ph": "C", "ts": t_ms * 1000.0,
                       "pid": pid_of(alias), "tid": 0, "args": {"bytes": live}})
    return {"traceEvents": events, "displayTimeUnit": "ms"}


def _category(flag):
    names = {TIMING_KERNEL: "kernel", TIMING_KERNEL_BUILTIN: "builtin", TIMING_MEMCPY: "memcpy",
             TIMING_MEMSET: "memset", TIMING_GRAPH: "graph"}
    return names.get(flag, "activity")


def timing_export_chrome_trace(results, path, memory_events=None):
    """Writes `results` (and the memory tracker's live-bytes history, by default) to `path` as
    Chrome trace JSON, for chrome://tracing or ui.perfetto.dev."""
    if memory_events is None:
        memory_events = memory_tracker.history()
    with open(path, "w") as f:
        json.dump(chrome_trace(results, memory_events), f)
