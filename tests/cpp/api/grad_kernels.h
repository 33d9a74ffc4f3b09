// tests/cpp/api/grad_kernels.h -- the DSL module the C++ gradient tests load (float64 kernels)
#pragma once

namespace treadle::test {

/// Loaded as "grad.py"; launch labels give the decorator line (scale: 10, square_in_place: 22).
inline const char* k_grad_module = R"(import treadle as wp

@wp.kernel
def wavy(x: wp.array(dtype=wp.float64), y: wp.array(dtype=wp.float64)):
    i = wp.tid()
    v = x[i]
    y[i] = wp.sin(v) * v + v * v * v - wp.exp(v * 0.5)


@wp.kernel
def scale(s: wp.float64, x: wp.array(dtype=wp.float64), y: wp.array(dtype=wp.float64)):
    i = wp.tid()
    y[i] = s * x[i]


@wp.kernel
def sum_squares(y: wp.array(dtype=wp.float64), loss: wp.array(dtype=wp.float64)):
    i = wp.tid()
    wp.atomic_add(loss, 0, y[i] * y[i])


@wp.kernel
def square_in_place(x: wp.array(dtype=wp.float64)):
    i = wp.tid()
    x[i] = x[i] * x[i]


@wp.kernel
def product(
    a: wp.array(dtype=wp.float64), b: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64)
):
    i = wp.tid()
    out[i] = a[i] * b[i]
)";

}  // namespace treadle::test
