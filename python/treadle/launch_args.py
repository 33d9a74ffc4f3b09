"""Warp's rules for a single value given where a kernel parameter is a vector, matrix,
quaternion or transform. The native packer rejects every such value; launch() asks this module,
only after that rejection, whether Warp raises its own error instead or still accepts the value
(numpy scalars and booleans: every component set to the value, with a DeprecationWarning)."""

import numpy as np

from .generics import kernel_parameters
from .single_values import refused, warn_widening, widened

_COMPOSITE_KINDS = ("vector", "matrix", "quat", "transform")


def composite_argument(kernel, name, t, value, stacklevel=4):
    """`value` for parameter `name` of Type `t` by Warp's rules: Warp's error for None
    (ValueError) or a Python/treadle scalar (RuntimeError), deprecated single values widened
    to every component (warning once per parameter and type), anything else unchanged."""
    if t.kind not in _COMPOSITE_KINDS:
        return value
    if value is None:
        raise ValueError(f"Failed to convert argument for param {name} to {t.name}")
    if widened(value):
        warn_widening(value, t.name, f"kernel parameter '{name}'", stacklevel)
        return np.full(t.length or int(np.prod(t.shape)), float(value))
    if refused(value):
        raise RuntimeError(
            f"Error launching kernel '{kernel.key}', argument '{name}' expects {t.name} but got "
            f"a single value of type {type(value).__name__}. Construct the value explicitly, "
            f"e.g.: {t.name}(...).")
    return value


def fix_composite_arguments(kernel, args, error):
    """Called with the TypeError the native packer raised for `args`: raises Warp's error (see
    composite_argument) or returns `args` with deprecated single values widened; None when no
    rule applies (the native error stands)."""
    fixed = list(args)
    for i, (name, t, _) in enumerate(kernel_parameters(kernel)[: len(fixed)]):
        try:
            fixed[i] = composite_argument(kernel, name, t, fixed[i], stacklevel=5)
        except (ValueError, RuntimeError) as e:
            raise e from error if isinstance(e, ValueError) else None
    return fixed if any(a is not b for a, b in zip(fixed, args)) else None
