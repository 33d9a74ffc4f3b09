"""The golden codegen corpus: kernels covering the language, whose generated source is compared
byte for byte with the files next to this one (see test_codegen_golden.py)."""

from typing import Any

import treadle as wp

SCALE = wp.constant(2.5)
OFFSETS = wp.constant(wp.vec3(1.0, 2.0, 3.0))


@wp.kernel
def saxpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = a * x[i] + y[i]


@wp.kernel
def branches(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    v = x[i]
    if v > 1.0:
        v = v * 2.0
    elif v < -1.0:
        v = -v
    else:
        v = wp.sin(v)
    out[i] = v if v > 0.5 else v * v


@wp.kernel
def dynamic_loop(n: int, x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    s = float(0.0)
    p = x[i]
    for k in range(n):
        if k == 7:
            break
        if k % 2 == 1:
            continue
        s += p * float(k)
        p = p * 0.5 + 1.0
    out[i] = s + p


@wp.kernel
def while_loop(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    v = x[i]
    steps = int(0)
    while v > 1.0 and steps < 20:
        v = v * 0.5
        steps += 1
    out[i] = v + float(steps)


@wp.kernel
def static_unroll(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    s = float(0.0)
    for k in range(4):
        s += x[i] * float(k) * SCALE
    out[i] = s


@wp.func
def polar(v: wp.vec2):
    return wp.length(v), wp.atan2(v[1], v[0])


@wp.func
def smooth(x: float, k: float):
    return x * x / (k + x * x)


@wp.kernel
def multi_return(v: wp.array(dtype=wp.vec2), r: wp.array(dtype=float), t: wp.array(dtype=float)):
    i = wp.tid()
    radius, angle = polar(v[i])
    r[i] = smooth(radius, 2.0)
    t[i] = angle


@wp.kernel
def vec_math(p: wp.array(dtype=wp.vec3), q: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    i = wp.tid()
    a = p[i] + OFFSETS
    b = wp.cross(a, q[i])
    c = wp.normalize(b + wp.vec3(0.0, 0.0, 1.0))
    out[i] = wp.dot(c, a) + wp.length_sq(b) * 0.25


@wp.kernel
def mat_math(m: wp.array(dtype=wp.mat33), v: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    a = m[i]
    b = wp.transpose(a) @ a + wp.identity(n=3, dtype=float)
    out[i] = b * v[i] + wp.diag(v[i]) @ v[i]


@wp.kernel
def rigid(tf: wp.array(dtype=wp.transform), p: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    q = wp.quat_from_axis_angle(wp.vec3(0.0, 1.0, 0.0), 0.3)
    t = wp.transform_multiply(tf[i], wp.transform(wp.vec3(), q))
    out[i] = wp.transform_point(t, p[i]) + wp.quat_rotate(q, p[i])


@wp.struct
class Particle:
    pos: wp.vec3
    vel: wp.vec3
    mass: float


@wp.kernel
def structs(ps: wp.array(dtype=Particle), dt: float, out: wp.array(dtype=Particle)):
    i = wp.tid()
    p = ps[i]
    p.vel = p.vel + wp.vec3(0.0, -9.8, 0.0) * dt
    p.pos = p.pos + p.vel * dt / p.mass
    out[i] = p


@wp.kernel
def atomics(x: wp.array(dtype=float), total: wp.array(dtype=float), hi: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(total, 0, x[i] * x[i])
    wp.atomic_max(hi, 0, x[i])
    total[1] += x[i]


@wp.kernel
def grid_2d(a: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    n = a.shape[1]
    left = a[i, wp.max(j - 1, 0)]
    right = a[i, wp.min(j + 1, n - 1)]
    out[i, j] = 0.5 * (left + right) - a[i, j]


@wp.func
def generic_square(x: Any):
    return x * x


@wp.kernel
def generic_scale(x: wp.array(dtype=Any), s: Any, out: wp.array(dtype=Any)):
    i = wp.tid()
    out[i] = generic_square(x[i]) * s


wp.overload(generic_scale, {"x": wp.array(dtype=wp.float64), "s": wp.float64,
                            "out": wp.array(dtype=wp.float64)})


@wp.kernel
def random_draws(seed: int, out: wp.array(dtype=float)):
    i = wp.tid()
    state = wp.rand_init(seed, i)
    out[i] = wp.randf(state) + wp.randn(state) * 0.1


@wp.func
def clipped(x: float):
    return wp.min(x, 1.0)


@wp.func_grad(clipped)
def adj_clipped(x: float, adj_ret: float):
    wp.adjoint[x] += adj_ret * 0.5


@wp.kernel
def custom_grad(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = clipped(x[i]) * 3.0


@wp.kernel
def int_ops(a: wp.array(dtype=int), out: wp.array(dtype=int)):
    i = wp.tid()
    v = a[i]
    out[i] = (v // 3) + (v % 5) * 2 - (v >> 1) + (v & 7) ^ 3


@wp.func
def smooth_step(x: float, k: float):
    return x * x * k + wp.sin(x)


@wp.kernel
def forward_grad(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    dx, dk = wp.grad(smooth_step)(x[i], 2.0)
    out[i] = dx + dk + wp.grad(wp.sqrt)(x[i])


KERNELS = [
    saxpy, branches, dynamic_loop, while_loop, static_unroll, multi_return, vec_math, mat_math,
    rigid, structs, atomics, grid_2d, random_draws, custom_grad, int_ops, forward_grad,
]
