"""Warp's rules for a single value (a scalar) given where a vector, matrix, quaternion or
transform is expected, as a kernel argument or a struct field: Python and treadle numbers are
refused; numpy scalars and booleans are still widened to every component, with a
DeprecationWarning (shown once per message)."""

import numpy as np

from . import logger
from .scalar_types import scalar_base


def widened(value):
    """True for the single values Warp still widens to every component (deprecated)."""
    if isinstance(value, (bool, np.bool_)):
        return True
    if isinstance(value, scalar_base):
        return type(value).__name__ == "bool"
    return isinstance(value, np.number)


def refused(value):
    """True for the single values Warp refuses where a composite is expected."""
    if isinstance(value, (bool, np.bool_)):
        return False
    return isinstance(value, (int, float, scalar_base))


def warn_widening(value, type_name, what, stacklevel):
    """Warp's deprecation warning for widening `value` to `type_name` for `what` (such as
    "kernel parameter 'v'")."""
    logger.log_warning(
        f"Implicit conversion from a value of type `{type(value).__name__}` to the composite "
        f"type `{type_name}` for {what} is deprecated. Construct the value explicitly, e.g.: "
        f"`{type_name}(...)`.", DeprecationWarning, stacklevel=stacklevel + 1)
