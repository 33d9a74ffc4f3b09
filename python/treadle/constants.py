"""Warp's mathematical constants (wp.pi, wp.e, wp.inf, ...), usable in kernels and on the host."""

import math as _math

E = e = _math.e
LOG2E = log2e = 1.0 / _math.log(2.0)
LOG10E = log10e = 1.0 / _math.log(10.0)
LN2 = ln2 = _math.log(2.0)
LN10 = ln10 = _math.log(10.0)
PHI = phi = (1.0 + _math.sqrt(5.0)) / 2.0
PI = pi = _math.pi
HALF_PI = half_pi = _math.pi / 2.0
TAU = tau = _math.tau
INF = inf = _math.inf
NAN = nan = _math.nan

__all__ = ["E", "e", "LOG2E", "log2e", "LOG10E", "log10e", "LN2", "ln2", "LN10", "ln10", "PHI",
           "phi", "PI", "pi", "HALF_PI", "half_pi", "TAU", "tau", "INF", "inf", "NAN", "nan"]
