# examples/saxpy/kernels.py -- kernels loaded by the C++ example (the same DSL Python uses)
import treadle as wp

DECAY = 0.5


@wp.func
def lerp(a: float, b: float, t: float):
    return a + (b - a) * t


@wp.kernel
def saxpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = a * x[i] + y[i]


@wp.kernel
def relax(y: wp.array(dtype=float), target: float):
    i = wp.tid()
    y[i] = lerp(y[i], target, DECAY)


@wp.kernel
def scale(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = a * x[i]


@wp.kernel
def sum_squares(y: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, y[i] * y[i])
