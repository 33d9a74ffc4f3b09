"""Modules (Warp's wp.get_module): the kernels of one Python module, their compile options, and
loading them (wp.load_module, wp.force_load). A kernel's builds live in the C++
``KernelBuilds`` the kernel holds; a module resolves the options those builds are made with."""

import hashlib
import inspect
import json
import os
import sys
import weakref

from . import _treadle, config
from . import context as _context
from .context import get_device
from .logger import log_warning
from .module_hash import ModuleHasher

# Every module by name (Warp's user_modules).
_modules = {}


def _default_options():
    """Warp's module options, as a new module starts with them: max_unroll and enable_backward
    are taken from wp.config now; None means "wp.config's value at build time"."""
    return {
        "max_unroll": config.max_unroll,
        "enable_backward": config.enable_backward,
        "fast_math": False,
        "fuse_fp": True,
        "lineinfo": config.lineinfo,
        "cuda_output": None,
        "mode": None,
        "optimization_level": None,
        "cpu_compiler_flags": None,
        "block_dim": 256,
        "strip_hash": False,
        "verify_fp": None,
        "deterministic": config.deterministic,
        "deterministic_max_records": config.deterministic_max_records,
        # Warp's choices of NVIDIA's MathDx library for tile products, solvers and FFTs: treadle
        # has its own kernels for all of them, so these change nothing
        "enable_mathdx_gemm": None,
        "enable_mathdx_solver": None,
        "enable_mathdx_fft": None,
    }


def check_options(options):
    """ValueError for a module option treadle refuses: a deterministic mode that is not a
    wp.DeterministicMode, a negative deterministic_max_records."""
    if "deterministic" in options and not isinstance(options["deterministic"],
                                                     config.DeterministicMode):
        raise ValueError("module option 'deterministic' must be a wp.DeterministicMode value, got "
                         f"{options['deterministic']!r}")
    records = options.get("deterministic_max_records", 0)
    if isinstance(records, bool) or not isinstance(records, int) or records < 0:
        raise ValueError("module option 'deterministic_max_records' must be an int >= 0, got "
                         f"{records!r}")


# Warp's module options that treadle keeps in Module.options but does not act on yet, with the
# value that means "as treadle builds anyway": another value is warned about, not ignored.
_NOT_IMPLEMENTED = {"fast_math": False, "fuse_fp": True, "lineinfo": False, "cuda_output": None,
                    "strip_hash": False}


def warn_unimplemented(options):
    """Warns (once per option and value) about options in `options` that would change a Warp
    build but do not change treadle's."""
    for key, value in options.items():
        if key in _NOT_IMPLEMENTED and value != _NOT_IMPLEMENTED[key]:
            log_warning(f"module option {key}={value!r} is not implemented by treadle and has no "
                        "effect on its builds", once=True)


class ModuleExec:
    """What Module.load() made for one device: the builds of the module's kernels there."""

    def __init__(self, device, builds):
        self.device = device
        self.builds = builds  # the CompiledKernels, in the order of the module's kernels


class Module:
    """The kernels of one Python module (by ``__name__``) or of one ``module="unique"`` kernel,
    with the compile options they share (``options``, Warp's keys). Kernels compile lazily at
    their first launch, or all at once with ``load()``."""

    def __init__(self, name):
        self.name = name
        self.options = _default_options()
        self.kernels = {}  # key -> the latest kernel of that key
        self.functions = {}
        self.structs = {}
        self.execs = {}  # (device alias, block_dim) -> ModuleExec of load()
        self.hashers = {}  # block_dim -> the latest get_module_hash() of that block_dim
        self.resolved_options = {}  # block_dim -> the options that hash was made with
        self.failed_builds = {}
        self.references = set()  # the modules whose functions this module's code names
        self.dependents = set()  # the modules whose code names this module's functions
        self._live_kernels = weakref.WeakSet()

    def __repr__(self):
        return f"<treadle module {self.name!r}>"

    # --- kernels -------------------------------------------------------------------------
    def register_kernel(self, kernel):
        self.kernels[kernel.key] = kernel
        self._live_kernels.add(kernel)

    def _get_live_kernels(self):
        return list(self._live_kernels)

    # --- options ---------------------------------------------------------------------------
    def resolve_options(self, cfg=None, block_dim=None):
        """A copy of ``options`` with the None entries replaced by wp.config's values."""
        cfg = config if cfg is None else cfg
        options = dict(self.options)
        if block_dim is not None:
            options["block_dim"] = block_dim
        if options.get("mode") is None:
            options["mode"] = cfg.mode
        if options.get("verify_fp") is None:
            options["verify_fp"] = bool(cfg.verify_fp)
        for key in ("optimization_level", "cpu_compiler_flags"):
            if options.get(key) is None:
                options[key] = getattr(cfg, key, None)
        return options

    def build_options(self, kernel_options):
        """(mode, max_unroll, verify_fp) of a build of a kernel with `kernel_options`: the
        kernel's own option, else the module's, else wp.config's."""

        def pick(name, default):
            value = kernel_options.get(name)
            if value is None:
                value = self.options.get(name)
            return default if value is None else value

        return (str(pick("mode", config.mode)), int(pick("max_unroll", config.max_unroll)),
                bool(pick("verify_fp", config.verify_fp)))

    def deterministic_options(self, kernel_options):
        """(mode, max_records) of a build as ints: the kernel's option, else the module's."""
        mode = kernel_options.get("deterministic")
        if mode is None:
            mode = self.options.get("deterministic", config.deterministic)
        records = kernel_options.get("deterministic_max_records")
        if records is None:
            records = self.options.get("deterministic_max_records", 0)
        return int(mode), int(records)

    def compiler_options(self, kernel_options):
        """(optimization_level, cpu_compiler_flags) of a build, as the C++ builds take them
        (-1 and "" for the defaults): the kernel's option, else the module's, else wp.config's.
        ValueError for a level outside 0-3, TypeError for flags that are not a str."""
        level = kernel_options.get("optimization_level")
        if level is None:
            level = self.options.get("optimization_level")
        if level is None:
            level = config.optimization_level
        flags = kernel_options.get("cpu_compiler_flags")
        if flags is None:
            flags = self.options.get("cpu_compiler_flags")
        if flags is None:
            flags = config.cpu_compiler_flags
        if level is not None and (isinstance(level, bool) or level not in (0, 1, 2, 3)):
            raise ValueError(f"optimization_level must be None or 0-3, got {level!r}")
        if flags is not None and not isinstance(flags, str):
            raise TypeError(f"cpu_compiler_flags must be None or a str, got {type(flags).__name__}")
        return (-1 if level is None else int(level), flags or "")

    # --- loading -----------------------------------------------------------------------------
    def load(self, device=None, block_dim=None):
        """Compiles (or loads from the disk cache) every kernel of the module for `device`
        now, the builds in parallel; returns the ModuleExec. CPU builds ignore block_dim."""
        device = get_device(device)
        builds = build_all(self._get_live_kernels(), device.alias)
        exec_ = ModuleExec(device, builds)
        self.execs[(device.alias, self.options["block_dim"] if block_dim is None else block_dim)] = exec_
        return exec_

    def unload(self):
        """Forgets every build of the module's kernels (the next launch compiles again, or
        loads from the disk cache)."""
        for k in self._get_live_kernels():
            k._forget_builds()
        self.execs.clear()
        self.failed_builds.clear()
        self.hashers.clear()
        self.resolved_options.clear()

    def mark_modified(self):
        """Marks the module as changed: its builds, and those of every module whose code
        named its functions (``dependents``, transitively), are stale and are made again when
        needed."""
        pending, seen = [self], set()
        while pending:
            m = pending.pop()
            if id(m) in seen:
                continue
            seen.add(id(m))
            m.unload()
            pending.extend(m.dependents)

    # --- hashes ----------------------------------------------------------------------------
    def hash_module(self):
        """A content hash (bytes) of the module: the generated code of its latest kernels and
        the module's options resolved against wp.config (block_dim aside), so it changes with
        their source, the constants and types they use and the options of a build, and not
        with where Python objects live (Warp's resolved module hash)."""
        options = self.resolve_options(config)
        options.pop("block_dim", None)
        return ModuleHasher(self.kernels.values(), options).get_hash()

    def _write_meta(self, path, meta):
        """Writes a build's metadata (a dict) to `path` as JSON with sorted keys, so the file
        is the same whatever order the entries were made in; replaced atomically."""
        temp = f"{path}.{os.getpid()}.tmp"
        with open(temp, "w", encoding="utf-8") as f:
            json.dump(meta, f, sort_keys=True)
        os.replace(temp, path)

    def get_module_hash(self, block_dim=None):
        """hash_module() combined with the block_dim of a variant (Warp's per-variant hash)."""
        h = hashlib.sha256(self.hash_module())
        options = self.resolve_options(config, block_dim)
        h.update(repr(options["block_dim"]).encode())
        digest = h.digest()
        self.hashers[options["block_dim"]] = digest  # computed again at every call; kept as a
        self.resolved_options[options["block_dim"]] = options  # record, as Warp keeps its own
        return digest


def _forget_hashes():
    """wp.init() makes the hashes and options resolved before it stale (wp.config may have
    changed), as in Warp."""
    for m in list(_modules.values()):
        m.hashers.clear()
        m.resolved_options.clear()


def get_module(name):
    """The module called `name` (created on first use)."""
    module = _modules.get(name)
    if module is None:
        module = _modules[name] = Module(name)
    return module


def caller_module_name(stack_level=2):
    """The name of the module `stack_level` frames up the stack (1: the caller of this
    function's caller): its ``__name__``, else its ``__spec__``'s name, else the module
    inspect finds for the frame, else the module whose file the frame runs. RuntimeError
    when none of these tells."""
    frame = sys._getframe(stack_level)
    name = frame.f_globals.get("__name__")
    if name:
        return name
    spec = frame.f_globals.get("__spec__")
    if spec is not None and getattr(spec, "name", None):
        return spec.name
    found = inspect.getmodule(frame)
    if found is not None:
        return found.__name__
    filename = frame.f_code.co_filename
    for name, m in list(sys.modules.items()):
        if getattr(m, "__file__", None) == filename:
            return name
    raise RuntimeError(
        f"Could not determine the calling module (file '{filename}'); pass the module "
        "explicitly, e.g. wp.set_module_options(options, module=__name__)")


def _module_name(module, depth=3):
    if module is None:
        return caller_module_name(depth)
    if isinstance(module, Module):
        return module.name
    return module if isinstance(module, str) else module.__name__


def set_module_options(options, module=None):
    """Sets compile options of a module's kernels (Warp's keys: "mode", "max_unroll",
    "enable_backward", ..., and treadle's "verify_fp"); by default the caller's module. Its
    kernels are built again with them when next used."""
    m = get_module(_module_name(module))
    check_options(options)
    warn_unimplemented(options)
    m.options.update(options)
    m.mark_modified()


def get_module_options(module=None):
    """The options dict of a module (by default the caller's), None entries resolved."""
    return get_module(_module_name(module)).resolve_options()


def build_all(kernels, device):
    """The forward builds of `kernels` for `device`: those not built yet are made in parallel
    on the runtime's build threads (front ends in order first). Generic kernels are skipped
    (they build per specialisation, when launched)."""
    requests = [k._build_request(device) for k in kernels if not k._generic_params]
    if requests:
        _prepare_compiler()
        _treadle.build_kernels(requests)
    return [k._compile(device) for k in kernels if not k._generic_params]


_native_dir_set = False


def _prepare_compiler():
    """Points the compiler at the native headers (once) and at wp.config.kernel_cache_dir (the
    default root when that is None again)."""
    global _native_dir_set
    if not _native_dir_set:
        here = os.path.dirname(os.path.abspath(__file__))
        for candidate in (os.path.join(here, "native"), os.path.join(here, "..", "..", "native")):
            if os.path.isfile(os.path.join(candidate, "treadle", "core.h")):
                _treadle.set_native_dir(os.path.abspath(candidate))
                break
        _native_dir_set = True
    if config.kernel_cache_dir:
        _treadle.set_kernel_cache_dir(str(config.kernel_cache_dir))
    else:
        _treadle.set_kernel_cache_dir(_treadle.default_kernel_cache_dir())


def _load(modules, device, block_dim):
    """Module.load() of several modules, with every build in one parallel batch."""
    device = get_device(device)
    build_all([k for m in modules for k in m._get_live_kernels()], device.alias)
    for m in modules:
        m.load(device, block_dim)


def load_module(module=None, device=None, recursive=False, block_dim=None):
    """Compiles (or loads from the cache) every kernel of a module now (by default the
    caller's; with `recursive`, its submodules' too), the builds in parallel."""
    name = _module_name(module)
    _load([m for m in list(_modules.values())
           if m.name == name or (recursive and isinstance(m.name, str)
                                 and m.name.startswith(name + "."))], device, block_dim)


def force_load(device=None, modules=None, block_dim=None):
    """Compiles every kernel defined so far (of the given modules, when named)."""
    names = None if modules is None else {_module_name(m) for m in modules}
    _load([m for m in list(_modules.values()) if names is None or m.name in names], device,
          block_dim)


def clear_kernel_cache():
    """Removes the kernels treadle compiled from the disk cache, and nothing else in its
    folder. Raises RuntimeError naming the folder, and deletes nothing, when the folder is
    refused (owned by another user or writable by every user)."""
    _prepare_compiler()
    _treadle.clear_kernel_cache()


_context.on_init.append(_forget_hashes)
