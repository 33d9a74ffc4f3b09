"""wp.utils: ScopedTimer (Warp's signature and output), Warp's array utilities (scans,
reductions, casts, sorts and run-length encoding, from array_utils.py and array_sort.py) and
create_warp_function (create_function.py), transform_expand."""

import builtins
import cProfile
import time

from . import context, timeline
from .array_sort import radix_sort_pairs as radix_sort_pairs
from .array_sort import runlength_encode as runlength_encode
from .array_sort import segmented_sort_pairs as segmented_sort_pairs
from .array_utils import array_cast as array_cast
from .array_utils import array_inner as array_inner
from .array_utils import array_scan as array_scan
from .array_utils import array_sum as array_sum
from .create_function import create_warp_function as create_warp_function
from .quat_types import transformf


def transform_expand(t):
    """The transformf of a flat sequence of 7 numbers: position (3), then quaternion (4)."""
    values = list(t)
    if len(values) != 7:
        raise ValueError(f"transform_expand(): expected 7 values, got {len(values)}")
    return transformf(p=values[0:3], q=values[3:7])


class ScopedTimer:
    """Context manager that times its block: ``with wp.ScopedTimer("step"): ...`` prints
    ``step took 1.23 ms``; the time in milliseconds is then in ``.elapsed``.

    Nested timers indent their lines. ``dict`` (a dict of lists) collects ``elapsed`` under
    ``name``; ``detailed`` profiles the block with cProfile; ``synchronize`` waits for device
    work before and after. ``use_nvtx``, ``color``, ``cuda_filter``, ``report_func`` and
    ``skip_tape`` are accepted for Warp compatibility and only matter with CUDA."""

    indent = -1
    enabled = True
    """Set to False to turn every ScopedTimer off."""

    def __init__(
        self,
        name,
        active=True,
        print=True,
        detailed=False,
        dict=None,
        use_nvtx=False,
        color="rapids",
        synchronize=False,
        cuda_filter=0,
        report_func=None,
        skip_tape=False,
    ):
        self.name = name
        self.active = active and ScopedTimer.enabled
        self.print = print
        self.detailed = detailed
        self.dict = dict
        self.use_nvtx = use_nvtx
        self.color = color
        self.synchronize = synchronize
        self.cuda_filter = cuda_filter
        self.report_func = report_func
        self.skip_tape = skip_tape
        self.elapsed = 0.0
        self.extra_msg = ""
        self.timing_results = []
        self._start = 0
        self._profile = None
        if self.dict is not None and name not in self.dict:
            self.dict[name] = []

    def __enter__(self):
        if self.active:
            if self.synchronize:
                context.synchronize()
            if self.detailed:
                self._profile = cProfile.Profile()
                self._profile.enable()
            ScopedTimer.indent += 1
            if self.cuda_filter:
                timeline.timing_begin(self.cuda_filter, synchronize=False)
            self._start = time.perf_counter_ns()
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        if not self.active:
            return False
        if self.synchronize:
            context.synchronize()
        self.elapsed = (time.perf_counter_ns() - self._start) / 1.0e6
        if self._profile is not None:
            self._profile.disable()
            self._profile.print_stats(sort="tottime")
            self._profile = None
        if self.dict is not None:
            self.dict.setdefault(self.name, []).append(self.elapsed)
        indent = "    " * ScopedTimer.indent
        if self.print:
            extra = f" {self.extra_msg}" if self.extra_msg else ""
            builtins.print(f"{indent}{self.name} took {self.elapsed:.2f} ms{extra}")
        if self.cuda_filter:
            self.timing_results = timeline.timing_end(synchronize=False)
            if self.report_func is not None:
                self.report_func(self.timing_results, indent)
            elif self.print:
                timeline.timing_print(self.timing_results, indent)
        ScopedTimer.indent -= 1
        return False
