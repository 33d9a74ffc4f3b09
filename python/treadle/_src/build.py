"""treadle._src.build: the kernel-cache location functions of Warp's private build module (a
compatibility layer, not treadle's API).

``init_kernel_cache(path)`` chooses the cache folder as Warp does: `path`, else the
``WARP_CACHE_PATH`` environment variable, each with the version appended as a subfolder
(unless it is the folder this function chose last, so that re-initialising with that folder
does not nest it), else treadle's default root (``TREADLE_CACHE_DIR``, ``$XDG_CACHE_HOME/treadle``
or ``~/.cache/treadle``) with the version appended. The choice goes to
``wp.config.kernel_cache_dir`` and to the compiler's cache, so later builds use it.

The LTO cache functions (``hash_symbol``, ``get_lto_cache_dir``, ``get_cached_lto``,
``get_cached_lto_meta``, ``_build_lto_base``) keep Warp's cache of link-time-optimised device
objects: files named by a prefix of the symbol's SHA-256 in ``<kernel cache>/lto``, each with
optional sidecars (``<key>.meta``: a JSON object of shared-memory sizes by symbol). treadle
makes no such objects itself (it links no MathDx libraries); the cache works for any producer.
"""

import contextlib
import hashlib
import json
import ntpath
import os
import shutil
import tempfile

from .. import _treadle
from .. import config as _config
from .. import logger as _logger

_resolved_kernel_cache_dir = None
"""The folder init_kernel_cache() chose last (None before the first call)."""


def _add_long_path_prefix(path):
    """A Windows absolute path with the long-path prefix (``\\\\?\\``, ``\\\\?\\UNC\\`` for a share),
    which lifts the 260-character limit; relative or already prefixed paths are unchanged."""
    if not ntpath.isabs(path) or path.startswith("\\\\?\\"):
        return path
    if path.startswith("\\\\"):
        return "\\\\?\\UNC\\" + path[2:]
    return "\\\\?\\" + path


def _warn_if_stale(base_dir):
    """Warns when `base_dir` holds ``wp_*`` folders, which Warp before 1.13 wrote there."""
    try:
        with os.scandir(base_dir) as entries:
            stale = any(e.is_dir() and e.name.startswith("wp_") for e in entries)
    except OSError:
        return
    if stale:
        _logger.log_warning(
            f"Kernel cache artifacts from a previous Warp version were found in '{base_dir}'. "
            "These will be ignored. You can safely delete them.")


def init_kernel_cache(path=None):
    """Chooses the kernel cache folder (see the module's description), creates it and makes it
    the cache that later builds use."""
    global _resolved_kernel_cache_dir
    if path is None:
        path = os.environ.get("WARP_CACHE_PATH")
    base_dir = None
    if path is not None:
        base_dir = os.path.realpath(path)
        candidate = _add_long_path_prefix(base_dir) if os.name == "nt" else base_dir
        if candidate == _resolved_kernel_cache_dir:
            root, base_dir = candidate, os.path.dirname(base_dir)
        else:
            root = os.path.join(base_dir, _config.version)
    else:
        root = os.path.join(_treadle.default_kernel_cache_dir(), _config.version)
    if os.name == "nt":
        root = _add_long_path_prefix(root)
    os.makedirs(root, exist_ok=True)
    _config.kernel_cache_dir = root
    _resolved_kernel_cache_dir = root
    _treadle.set_kernel_cache_dir(root)
    if base_dir is not None and os.path.isdir(base_dir):
        _warn_if_stale(base_dir)


LTO_CACHE_KEY_LENGTH = 32
"""How many hex digits of the symbol's SHA-256 name an LTO cache entry (128 bits: distinct
symbols never share a file in practice, unlike a 7-digit prefix)."""


def hash_symbol(symbol):
    """The SHA-256 of an LTO symbol's name, as hex digits."""
    return hashlib.sha256(symbol.encode("utf-8")).hexdigest()


def get_lto_cache_dir():
    """The folder of the LTO cache, inside the current kernel cache folder."""
    return os.path.join(_config.kernel_cache_dir, "lto")


def get_cached_lto(path):
    """The bytes of the cached LTO object at `path`, or None when there is none."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def get_cached_lto_meta(path, symbol):
    """The shared-memory size (an int) that the sidecar at `path` records for `symbol`; None
    (a cache miss) when the file is missing, unreadable, not UTF-8 JSON, lacks the symbol or
    holds something other than an integer (a bool is not one) for it."""
    try:
        with open(path, encoding="utf-8") as f:
            value = json.load(f)[symbol]
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError):
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def _build_lto_base(lto_symbol, compile_func, builder, extra_files=None):
    """The LTO object of `lto_symbol` (and its sidecars), from the cache or built.

    ``extra_files`` maps each sidecar suffix (``".meta"``) to the function that reads its
    cached value from a path (None when invalid). A cache hit needs the object and every
    sidecar valid. Otherwise ``compile_func(temp_paths)`` (paths by suffix, ``".lto"`` among
    them, in a private folder) writes the files and returns ``(ok, values by suffix)``; on
    success they are published into the cache: an object that appeared meanwhile (another
    process built it) is kept when its sidecars are valid, and replaced with the whole new set
    when any is not. Returns ``(ok, object bytes, *sidecar values in extra_files order)``, with
    None for each value on failure. `builder` must be None: treadle's module builds link no
    LTO objects."""
    if builder is not None:
        raise NotImplementedError(
            "_build_lto_base(): treadle's module builds link no LTO objects; pass builder=None")
    extra_files = dict(extra_files or {})
    key = hash_symbol(lto_symbol)[:LTO_CACHE_KEY_LENGTH]
    lto_dir = get_lto_cache_dir()
    paths = {".lto": os.path.join(lto_dir, f"{key}.lto")}
    paths.update({suffix: os.path.join(lto_dir, f"{key}{suffix}") for suffix in extra_files})

    def read_cached():
        values = [get_cached_lto(paths[".lto"])]
        values += [read(paths[s]) if read else get_cached_lto(paths[s])
                   for s, read in extra_files.items()]
        return None if any(v is None for v in values) else values

    cached = read_cached()
    if cached is not None:
        return (True, *cached)

    os.makedirs(lto_dir, exist_ok=True)
    temp_dir = tempfile.mkdtemp(prefix=f".{key}_", dir=lto_dir)
    try:
        temp_paths = {s: os.path.join(temp_dir, os.path.basename(p)) for s, p in paths.items()}
        ok, values = compile_func(temp_paths)
        if not ok:
            return (False, None, *(None for _ in extra_files))
        sidecars_valid = read_cached() is not None if os.path.exists(paths[".lto"]) else False
        if not sidecars_valid:  # publish the whole set: sidecars first, the object last
            for suffix in (*extra_files, ".lto"):
                if os.path.exists(temp_paths[suffix]):
                    os.replace(temp_paths[suffix], paths[suffix])
        return (True, values.get(".lto"), *(values.get(s) for s in extra_files))
    finally:
        with contextlib.suppress(OSError):
            shutil.rmtree(temp_dir)
