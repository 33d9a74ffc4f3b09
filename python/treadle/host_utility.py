"""Host (plain Python) versions of the special scalar functions, the interpolations and the
``expect_*`` checks: ``wp.lerp(a, b, t)``, ``wp.erfinv(x)``, ``wp.expect_eq(a, b)``.

Scalars compute with Python floats; composites (vectors, matrices, quaternions, transforms)
componentwise in float64, rounded once to their scalar type. The checks print the kernel
builtins' messages when they fail and nothing otherwise.
"""

import math
import statistics

import numpy as np

from .vec_types import composite_base

_STANDARD_NORMAL = statistics.NormalDist()


def _step(x):
    return type(x)(1) if x < 0 else type(x)(0)


def _nonzero(x):
    return type(x)(1) if x != 0 else type(x)(0)


def _frac(x):
    return x - math.trunc(x)


def _erfinv(x):
    if x == 1.0:
        return math.inf
    if x == -1.0:
        return -math.inf
    if not -1.0 < x < 1.0:
        return math.nan
    return _STANDARD_NORMAL.inv_cdf((x + 1.0) / 2.0) / math.sqrt(2.0)


def _erfcinv(x):
    return -_erfinv(x - 1.0) if 0.0 <= x <= 2.0 else math.nan


def _lerp(a, b, t):
    if isinstance(a, composite_base):
        if type(a) is not type(b):
            raise TypeError(f"lerp(): a and b have different types ({type(a).__name__}, "
                            f"{type(b).__name__})")
        t = float(t)
        return type(a)._new(a._data.astype(np.float64) * (1.0 - t) + b._data.astype(np.float64) * t)
    return a * (1.0 - t) + b * t


def _smoothstep(a, b, x):
    t = min(max((x - a) / (b - a), 0.0), 1.0)
    return t * t * (3.0 - 2.0 * t)


def _equal(a, b):
    if isinstance(a, composite_base) or isinstance(b, composite_base):
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    return a == b


def _show(x):
    return " ".join(str(v) for v in np.asarray(x).ravel()) if isinstance(x, composite_base) else x


def _expect_eq(a, b):
    if not _equal(a, b):
        print(f"Error, expect_eq() failed:\n\t Expected: {_show(b)}\n\t Actual: {_show(a)}")


def _expect_neq(a, b):
    if _equal(a, b):
        print(f"Error, expect_neq() failed:\n\t Expected: {_show(b)}\n\t Actual: {_show(a)}")


def _expect_near(a, b, tolerance=1e-6):
    diff = np.abs(np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64))
    if not np.all(diff <= tolerance):  # NaN fails
        print(f"Error, expect_near() failed with tolerance {tolerance}\n\t Expected: {_show(b)}\n"
              f"\t Actual: {_show(a)}")


HOST_BUILTINS = {
    "step": _step, "nonzero": _nonzero, "copysign": math.copysign, "frac": _frac,
    "erf": math.erf, "erfc": math.erfc, "erfinv": _erfinv, "erfcinv": _erfcinv,
    "lerp": _lerp, "smoothstep": _smoothstep, "expect_eq": _expect_eq,
    "expect_neq": _expect_neq, "expect_near": _expect_near,
}
"""Host versions of the special scalar functions, interpolations and checks (merged by
``host_builtins.py``)."""
