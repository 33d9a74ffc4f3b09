"""treadle._src: a compatibility layer for programs written against Warp's private modules.

Programs (Warp's own tests among them) reach into ``warp._src.build``, ``warp._src.codegen``,
``warp._src.types``, ``warp._src.logger``, ``warp._src.context``, ``warp._src.dlpack``,
``warp._src.optim`` (its ``linear`` module), ``warp._src.torch`` and ``warp._src.utils``.
With ``import treadle as wp`` the same names resolve here, each bound to treadle's real object
or a faithful implementation. This is not treadle's API: only the names such programs use
exist, and new code should use the public ``treadle`` names instead. Submodules are imported
on first use, so ``import treadle`` pays nothing for this layer.
"""

import importlib as _importlib

_SUBMODULES = ("build", "codegen", "context", "dlpack", "logger", "optim", "torch", "types",
               "utils")


def __getattr__(name):
    if name in _SUBMODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted((*globals(), *_SUBMODULES))
