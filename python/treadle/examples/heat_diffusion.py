"""Heat diffusion on a plate: an explicit finite-difference solver written as treadle kernels.

Two hot sources and a cold bar sit on a square plate with fixed (cold) edges; each step applies
the 5-point Laplacian. The result is checked against the same update done with numpy, the
kernel timings are printed, and the final temperature field is saved as a PNG.

    python -m treadle.examples.heat_diffusion [--size N] [--steps S] [--out heat.png]
"""

import argparse
import time

import numpy as np

import treadle as wp
from treadle.examples.png import colormap, write_png


@wp.func
def source_strength(x: float, y: float, cx: float, cy: float, radius: float):
    d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy)
    if d2 < radius * radius:
        return 1.0
    return 0.0


@wp.kernel
def apply_sources(temp: wp.array2d(dtype=float), n: int):
    i, j = wp.tid()
    x = float(i) / float(n)
    y = float(j) / float(n)
    hot = wp.max(source_strength(x, y, 0.3, 0.35, 0.08), source_strength(x, y, 0.7, 0.6, 0.05))
    if hot > 0.0:
        temp[i, j] = 1.0
    elif x > 0.45 and x < 0.55 and y > 0.75 and y < 0.9:
        temp[i, j] = -0.5


@wp.kernel
def diffuse(src: wp.array2d(dtype=float), dst: wp.array2d(dtype=float), alpha: float):
    i, j = wp.tid()
    n = src.shape[0]
    m = src.shape[1]
    if i == 0 or j == 0 or i == n - 1 or j == m - 1:
        dst[i, j] = 0.0
        return
    lap = src[i - 1, j] + src[i + 1, j] + src[i, j - 1] + src[i, j + 1] - 4.0 * src[i, j]
    dst[i, j] = src[i, j] + alpha * lap


@wp.kernel
def total_heat(temp: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    i, j = wp.tid()
    wp.atomic_add(out, 0, temp[i, j])


def numpy_reference(size, steps, alpha):
    """The same simulation in numpy, for checking the kernels."""
    idx = np.arange(size, dtype=np.float32) / np.float32(size)
    x, y = np.meshgrid(idx, idx, indexing="ij")

    def disc(cx, cy, r):
        return ((x - np.float32(cx)) ** 2 + (y - np.float32(cy)) ** 2) < np.float32(r) ** 2

    hot = disc(0.3, 0.35, 0.08) | disc(0.7, 0.6, 0.05)
    cold = (x > 0.45) & (x < 0.55) & (y > 0.75) & (y < 0.9) & ~hot
    t = np.zeros((size, size), dtype=np.float32)
    for _ in range(steps):
        t[hot] = 1.0
        t[cold] = -0.5
        nxt = np.zeros_like(t)
        lap = t[:-2, 1:-1] + t[2:, 1:-1] + t[1:-1, :-2] + t[1:-1, 2:] - 4.0 * t[1:-1, 1:-1]
        nxt[1:-1, 1:-1] = t[1:-1, 1:-1] + np.float32(alpha) * lap
        t = nxt
    return t


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=256)
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--alpha", type=float, default=0.2)
    parser.add_argument("--out", default="heat_diffusion.png")
    args = parser.parse_args(argv)

    wp.init()
    n = args.size
    a = wp.zeros((n, n), dtype=wp.float32, device="cpu")
    b = wp.zeros((n, n), dtype=wp.float32, device="cpu")

    t0 = time.perf_counter()
    wp.load_module(device="cpu")
    compile_ms = (time.perf_counter() - t0) * 1e3

    t0 = time.perf_counter()
    for _ in range(args.steps):
        wp.launch(apply_sources, dim=(n, n), inputs=[a, n], device="cpu")
        wp.launch(diffuse, dim=(n, n), inputs=[a, b, args.alpha], device="cpu")
        a, b = b, a
    wp.synchronize()
    sim_ms = (time.perf_counter() - t0) * 1e3

    heat = wp.zeros(1, dtype=wp.float32, device="cpu")
    wp.launch(total_heat, dim=(n, n), inputs=[a, heat], device="cpu")

    ref = numpy_reference(n, args.steps, args.alpha)
    err = float(np.max(np.abs(a.numpy() - ref)))
    cells = n * n * args.steps
    print(f"heat diffusion: {n}x{n} plate, {args.steps} steps on the CPU")
    print(f"  kernels ready in {compile_ms:.1f} ms (compile or cache load)")
    print(f"  simulation: {sim_ms:.1f} ms ({cells / sim_ms / 1e3:.1f} M cell-updates/s, "
          f"{2 * args.steps / sim_ms * 1e3:.0f} launches/s)")
    print(f"  total heat on the plate: {heat.numpy()[0]:.3f}")
    print(f"  max difference from numpy: {err:.2e}")
    write_png(args.out, colormap(a.numpy(), -0.5, 1.0))
    print(f"  wrote {args.out}")
    if err > 1e-4:
        raise SystemExit("heat diffusion: the kernels disagree with numpy")


if __name__ == "__main__":
    main()
