"""Names the package still answers but no longer lists: Warp's deprecated ``wp.HashGridQueryH``
and ``wp.HashGridQueryD`` (now ``wp.HashGridQuery[wp.float16]`` and ``[wp.float64]``). The
package re-exports this module's ``__getattr__``, so reading one of them warns (once) and gives
the type; ``dir(treadle)`` does not show them."""

from . import geometry_types
from .logger import log_warning

_ALIASES = {
    "HashGridQueryH": ("float16", geometry_types._HashGridQueryH),
    "HashGridQueryD": ("float64", geometry_types._HashGridQueryD),
}


def __getattr__(name):
    if name not in _ALIASES:
        raise AttributeError(f"module 'treadle' has no attribute '{name}'")
    dtype, cls = _ALIASES[name]
    log_warning(f"wp.{name} is deprecated: a query's type follows its grid's dtype, as "
                f"warp.hash_grid_query() returns it; annotate with wp.HashGridQuery[wp.{dtype}]",
                DeprecationWarning, stacklevel=2)
    return cls
