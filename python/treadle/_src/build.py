"""treadle._src.build: the kernel-cache location functions of Warp's private build module (a
compatibility layer, not treadle's API).

``init_kernel_cache(path)`` chooses the cache folder as Warp does: `path`, else the
``WARP_CACHE_PATH`` environment variable, each with the version appended as a subfolder
(unless it is the folder this function chose last, so that re-initialising with that folder
does not nest it), else treadle's default root (``TREADLE_CACHE_DIR``, ``$XDG_CACHE_HOME/treadle``
or ``~/.cache/treadle``) with the version appended. The choice goes to
``wp.config.kernel_cache_dir`` and to the compiler's cache, so later builds use it. Warp's LTO
cache (for MathDx device libraries) does not exist in treadle.
"""

import ntpath
import os

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
