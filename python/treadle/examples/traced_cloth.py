"""A hanging cloth, traced and repeatable: a mass-spring sheet pinned at two corners falls
under gravity. Spring forces are scattered to their two particles with float atomics in
deterministic mode (wp.DeterministicMode.RUN_TO_RUN), so every run of the script gives the
same bits on any thread count. The run is watched by the memory tracker
(wp.ScopedMemoryTracker prints its report at the end) and the timeline (wp.timing_begin /
timing_end), which is printed as a summary and written as a Chrome trace JSON file
(kernels per device, live bytes as a counter) that chrome://tracing or ui.perfetto.dev open.

    python -m treadle.examples.traced_cloth [--device cpu] [--n 32] [--steps 100]
                                            [--trace cloth_trace.json]
"""

import argparse
import hashlib

import numpy as np

import treadle as wp

DETERMINISTIC = {"deterministic": wp.DeterministicMode.RUN_TO_RUN}


@wp.kernel(module="unique", module_options=DETERMINISTIC)
def spring_forces(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3),
                  springs: wp.array(dtype=int, ndim=2), rest: wp.array(dtype=float),
                  stiffness: float, damping: float, f: wp.array(dtype=wp.vec3)):
    s = wp.tid()
    a = springs[s, 0]
    b = springs[s, 1]
    d = x[b] - x[a]
    length = wp.length(d)
    direction = d / length
    magnitude = (length - rest[s]) * stiffness + wp.dot(v[b] - v[a], direction) * damping
    wp.atomic_add(f, a, direction * magnitude)
    wp.atomic_sub(f, b, direction * magnitude)


@wp.kernel
def integrate(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3),
              f: wp.array(dtype=wp.vec3), inv_mass: wp.array(dtype=float), dt: float):
    i = wp.tid()
    w = inv_mass[i]
    acc = f[i] * w + wp.vec3(0.0, -9.8, 0.0) * wp.where(w > 0.0, 1.0, 0.0)
    v[i] = (v[i] + acc * dt) * 0.999
    x[i] = x[i] + v[i] * dt
    f[i] = wp.vec3(0.0)


def make_cloth(n, spacing=0.05):
    """n x n particles in the x-z plane, structural, shear and bending springs; the two far
    corners pinned (inverse mass 0)."""
    ij = np.stack(np.meshgrid(np.arange(n), np.arange(n), indexing="ij"), -1).reshape(-1, 2)
    x = np.zeros((n * n, 3), np.float32)
    x[:, 0] = ij[:, 0] * spacing
    x[:, 2] = ij[:, 1] * spacing
    ids = np.arange(n * n).reshape(n, n)
    pairs = [np.stack([ids[:-1, :].ravel(), ids[1:, :].ravel()], 1),
             np.stack([ids[:, :-1].ravel(), ids[:, 1:].ravel()], 1),
             np.stack([ids[:-1, :-1].ravel(), ids[1:, 1:].ravel()], 1),
             np.stack([ids[1:, :-1].ravel(), ids[:-1, 1:].ravel()], 1),
             np.stack([ids[:-2, :].ravel(), ids[2:, :].ravel()], 1),
             np.stack([ids[:, :-2].ravel(), ids[:, 2:].ravel()], 1)]
    springs = np.concatenate(pairs).astype(np.int32)
    rest = np.linalg.norm(x[springs[:, 1]] - x[springs[:, 0]], axis=1).astype(np.float32)
    inv_mass = np.ones(n * n, np.float32)
    inv_mass[ids[0, -1]] = inv_mass[ids[-1, -1]] = 0.0
    return x, springs, rest, inv_mass


def simulate(device, n=32, steps=100, dt=1.0 / 600.0):
    """Runs the cloth; returns the final positions (numpy)."""
    x0, springs_np, rest_np, inv_mass_np = make_cloth(n)
    x = wp.array(x0, dtype=wp.vec3, device=device)
    v = wp.zeros(len(x0), dtype=wp.vec3, device=device)
    f = wp.zeros(len(x0), dtype=wp.vec3, device=device)
    springs = wp.array(springs_np, device=device)
    rest = wp.array(rest_np, device=device)
    inv_mass = wp.array(inv_mass_np, device=device)
    for _ in range(steps):
        wp.launch(spring_forces, dim=len(springs_np),
                  inputs=[x, v, springs, rest, 2000.0, 5.0, f], device=device)
        wp.launch(integrate, dim=len(x0), inputs=[x, v, f, inv_mass, dt], device=device)
    return x.numpy()


def run(device="cpu", n=32, steps=100, trace="cloth_trace.json", report=True):
    """The traced run: returns (final positions, timing results). Writes the trace to `trace`."""
    with wp.ScopedMemoryTracker("cloth", print=report):
        wp.timing_begin(cuda_filter=wp.TIMING_ALL)
        positions = simulate(device, n, steps)
        results = wp.timing_end()
    wp.timing_export_chrome_trace(results, trace)
    return positions, results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--n", type=int, default=32)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--trace", default="cloth_trace.json")
    args = parser.parse_args()
    positions, results = run(args.device, args.n, args.steps, args.trace)
    kernels = [r for r in results if r.filter == wp.TIMING_KERNEL]
    print(f"{len(kernels)} kernel launches, {sum(r.elapsed for r in kernels):.3f} ms in kernels")
    print(f"lowest point y = {positions[:, 1].min():.4f} m; positions digest "
          f"{hashlib.sha256(positions.tobytes()).hexdigest()[:16]} (the same on every run)")
    print(f"trace written to {args.trace} (open it in chrome://tracing or ui.perfetto.dev)")


if __name__ == "__main__":
    main()
