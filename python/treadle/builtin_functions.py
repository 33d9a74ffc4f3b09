"""The kernel builtins as Python objects (``wp.sin``, ``wp.transform_point``, ``wp.add``): one per
callable entry of the C++ builtin table, carrying its signature and documentation, and callable
on the host where ``host_builtins.HOST`` has a version."""

from . import _treadle, host_resolution
from .host_builtins import HOST
from .type_queries import tile as _tile_annotation
from .type_queries import tile_stack as _tile_stack_annotation


class builtin_function:
    """A kernel builtin seen from Python: importable by name, documented from the builtin table,
    and callable on host values when the builtin has a host version."""

    def __init__(self, name, host=None, doc=None, typed=False):
        self.__name__ = name
        self._host = host
        self._typed = typed  # the table resolves its overloads: Warp's host rules apply
        if doc is not None:
            self.__doc__ = doc

    def __call__(self, *args, **kwargs):
        if self._host is None:
            raise RuntimeError(f"wp.{self.__name__}() can only be called inside kernels")
        if self._typed:
            return host_resolution.call(self.__name__, self._host, args, kwargs)
        return self._host(*args, **kwargs)

    def __repr__(self):
        return f"<treadle builtin {self.__name__}>"


def _doc(entry):
    text = f"{entry['signature']}\n\n{entry['doc']}"
    if entry["differentiable"]:
        text += "\n\nDifferentiable."
    return text


def _public(entry):
    """Whether the builtin has a ``wp.<name>`` callable: every kernel-callable entry, operators
    with a function form (wp.add) included, internal ones and compare / matmul not."""
    return entry["callable"] and entry["kind"] != "internal"


TABLE = [entry for entry in _treadle.builtin_table() if _public(entry)]
"""The table entries that have a Python object, in table order."""

BUILTINS = {entry["name"]: builtin_function(entry["name"], HOST.get(entry["name"]), _doc(entry),
                                            entry["typed"])
            for entry in TABLE}
"""Builtin name -> its Python object (``treadle/__init__.py`` re-exports them)."""

# wp.tile is both the builtin tile(x) of kernels and the annotation class: the class carries
# the builtin's documentation first
_tile_annotation.__doc__ = f"{BUILTINS['tile'].__doc__}\n\nAs an annotation: {_tile_annotation.__doc__}"
_tile_stack_annotation.__doc__ = (f"{BUILTINS['tile_stack'].__doc__}\n\nAs an annotation: "
                                  f"{_tile_stack_annotation.__doc__}")

globals().update(BUILTINS)
__all__ = list(BUILTINS)  # what ``from .builtin_functions import *`` re-exports as wp.<name>
