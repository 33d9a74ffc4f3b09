"""Global settings of treadle, read at use time (Warp's ``warp.config`` attributes)."""

import enum
import sys
import types
import warnings

version: str = "0.1.0"
"""treadle's version string."""

mode: str = "release"
"""Code generation mode: ``"release"`` or ``"debug"`` (bounds checks, no optimisation)."""

verify_fp: bool = False
"""Check every float value a kernel stores to an array for NaN / Inf: a launch raises
FloatingPointError naming the kernel, the Python line of the store, the array and the index of
the first one. Kernels are rebuilt with the checks; on CUDA every launch then synchronises (and
so cannot be captured in a graph). Also per module: ``wp.set_module_options({"verify_fp":
True})``."""

class LaunchArrayAccessMode(enum.IntEnum):
    """Warp's checks of array arguments at launch: RELAXED (none), CHECKED (refuse arrays the
    launch device is known not to reach), STRICT (every array on the launch device)."""

    RELAXED = 0
    CHECKED = 1
    STRICT = 2


launch_array_access_mode: LaunchArrayAccessMode = LaunchArrayAccessMode.RELAXED
"""Warp's launch-time check of array arguments. treadle checks every launch as Warp's STRICT
mode does, in every mode (an array on another device than the launch raises ValueError), so
that no kernel ever touches memory its device cannot reach; the check happens before a launch
is recorded, so it works during graph capture."""

class DeterministicMode(enum.IntEnum):
    """How far float atomics repeat. NOT_GUARANTEED: as the hardware schedules them.
    RUN_TO_RUN: float atomic_add/sub/min/max (scalars, composites, ``+=`` on array elements and
    the backward pass's adjoint accumulations) are recorded during the launch and applied after
    it in an order fixed by the launch indices (on the CPU the sequential one), the same bits on
    every run and every CPU thread count (and
    kernels that read the old value of an integer atomic, counters, run their indices in order
    on the CPU). GPU_TO_GPU: that, and kernels compiled without floating-point contraction, so
    the CPU and CUDA give the same bits for the same operations."""

    NOT_GUARANTEED = 0
    RUN_TO_RUN = 1
    GPU_TO_GPU = 2


deterministic: DeterministicMode = DeterministicMode.NOT_GUARANTEED
"""The deterministic mode new modules start with (see DeterministicMode); per module:
``wp.set_module_options({"deterministic": wp.DeterministicMode.RUN_TO_RUN})``. A kernel that
reads the old value of a float atomic is refused in deterministic mode."""

deterministic_max_records: int = 0
"""Float atomic records one launch index may emit in deterministic mode, at least (0: the bound
the compiler finds, where a dynamic loop's body counts once). A launch that emits more raises
RuntimeError and applies nothing. Per module: the ``deterministic_max_records`` option."""

deterministic_debug: bool = False
"""Accepted for Warp's API; treadle reports overflows at the launch either way."""

verify_cuda: bool = False
"""Check for CUDA errors after every launch (CUDA devices only)."""

_verbose_value: bool = False
# ``verbose`` (deprecated: log_level = LOG_DEBUG) lives here and is reached through the
# module's __getattr__, so that reading it from outside treadle warns once.

verbose_warnings: bool = False
"""Add the source location to warnings."""

quiet: bool = False
"""Suppress the initialisation banner and informational messages."""

log_level: int = 20
"""Messages below this level are not shown: ``wp.LOG_DEBUG`` (10), ``wp.LOG_INFO`` (20, the
default), ``wp.LOG_WARNING`` (30) or ``wp.LOG_ERROR`` (40); see wp.set_logger."""

legacy_scalar_return_types: bool = False
"""Builtins called on the host return plain Python ``int`` / ``float`` for every scalar type,
instead of Warp scalar instances (``wp.float64``, ``wp.int8``) for the types other than int32,
float32 and bool."""

max_unroll: int = 16
"""Largest constant trip count of a ``for ... in range()`` loop that is unrolled."""

verify_autograd_array_access: bool = False
"""Warn (on stderr) when a launch or copy recorded on a tape writes an array that an earlier
recorded launch read, and when a kernel writes an array after reading it itself: the backward
pass would replay those reads with the overwritten values. Reads are cleared by
``Tape.backward()`` and ``Tape.reset()``."""
enable_backward: bool = True
"""Generate adjoint (backward) kernels."""

cache_kernels: bool = True
"""Reuse compiled kernels from the kernel cache across processes."""

kernel_cache_dir = None
"""Kernel cache directory; ``None`` picks a per-user default at init()."""

optimization_level = None
"""The compilers' optimisation level, 0-3 (``-O<n>`` for the CPU's C++ compiler, ptxas's
``-O<n>`` for CUDA); ``None``: treadle's defaults (``-O2`` on the CPU, ptxas's own on CUDA).
Debug mode builds without optimisation whatever it says. Per module: the
``"optimization_level"`` module option."""

cpu_compiler_flags = None
"""Extra flags for the CPU's C++ compiler, separated by spaces (``"-march=native"``, ...;
``None`` or ``""``: none, a build for any CPU of the architecture). Part of the kernel cache
key. Per module: the ``"cpu_compiler_flags"`` module option."""

print_launches: bool = False
"""Print every kernel launch (name, dim, device)."""

lineinfo: bool = False
"""Emit line information in generated code (for profilers and debuggers)."""

line_directives: bool = True
"""Map generated code back to Python source lines with #line directives."""

enable_graph_capture_module_load_by_default: bool = True
"""Compile every kernel for the device before a graph capture begins (capture_begin()'s
``force_module_load=None``); only with CUDA drivers older than 12.3, which cannot load kernels
during capture."""

track_memory: bool = False
"""Note every allocation (size, device, label, Python file:line) even outside a
wp.ScopedMemoryTracker scope, so that wp.print_memory_report can list them."""


_deprecated_verbose_warning_seen = False
_deprecated_quiet_warning_seen = False
_DEPRECATED = {
    "verbose": "warp.config.verbose is deprecated; set warp.config.log_level = warp.LOG_DEBUG",
    "quiet": "warp.config.quiet is deprecated; set warp.config.log_level = warp.LOG_WARNING",
}


_warn = [warnings.warn]
"""How a deprecation is reported: the logger installs its log_warning here when it is imported
(it reads this module, so this module cannot import it)."""


def _warn_deprecated(name, caller):
    """Warns once that `name` is deprecated, unless `caller` (a frame) is treadle's or Warp's."""
    module = caller.f_globals.get("__name__", "") if caller is not None else ""
    if module.split(".")[0] in ("treadle", "warp"):
        return
    flag = f"_deprecated_{name}_warning_seen"
    if globals()[flag]:
        return
    globals()[flag] = True
    # stacklevel 3: _warn_deprecated, the module's attribute hook, then the user's line
    _warn[0](_DEPRECATED[name], DeprecationWarning, stacklevel=3)


def __getattr__(name):
    if name == "verbose":
        _warn_deprecated(name, sys._getframe(1))
        return _verbose_value
    raise AttributeError(f"module 'treadle.config' has no attribute '{name}'")


class _ConfigModule(types.ModuleType):
    """The config module's type: assigning a deprecated setting warns."""

    def __setattr__(self, name, value):
        if name == "deterministic" and not isinstance(value, DeterministicMode):
            raise ValueError("warp.config.deterministic must be a wp.DeterministicMode value, "
                             f"got {value!r}")
        if name in _DEPRECATED:
            _warn_deprecated(name, sys._getframe(1))
            if name == "verbose":
                name = "_verbose_value"
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _ConfigModule
