"""Fixed kernels that bad-launch cases launch (one module, so the kernel cache serves them)."""

from typing import Any

import treadle as wp


@wp.struct
class Pair:
    x: float
    v: wp.vec3


@wp.kernel
def k_scalars(a: wp.array(dtype=float), s: float, n: int):
    i = wp.tid()
    a[i] = s + float(n)


@wp.kernel
def k_values(v: wp.vec3, m: wp.mat33, q: wp.quat, out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = m * v + wp.quat_rotate(q, v)


@wp.kernel
def k_struct(p: Pair, out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = p.x + p.v[0]


@wp.kernel
def k_generic(a: wp.array(dtype=Any), s: float):
    i = wp.tid()
    a[i] = a[i] * type(a[i])(s)


@wp.kernel
def k_indexed(a: wp.indexedarray(dtype=float)):
    i = wp.tid()
    a[i] = 1.0


@wp.kernel
def k_2d(a: wp.array2d(dtype=float), u: wp.uint8, d: wp.float64):
    i, j = wp.tid()
    a[i, j] = float(u) + float(d)


KERNELS = {
    "k_scalars": ["wp.zeros(8, dtype=float)", "1.5", "2"],
    "k_values": ["wp.vec3(1.0, 2.0, 3.0)", "wp.mat33(1.0)", "wp.quat_identity()",
                 "wp.zeros(8, dtype=wp.vec3)"],
    "k_struct": ["Pair()", "wp.zeros(8, dtype=float)"],
    "k_generic": ["wp.zeros(8, dtype=float)", "2.0"],
    "k_indexed": ["wp.indexedarray(wp.zeros(8, dtype=float), [wp.array([0, 1], dtype=int)])"],
    "k_2d": ["wp.zeros((2, 4), dtype=float)", "3", "1.0"],
}
