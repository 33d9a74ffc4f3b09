"""Differentiable simulation: learn launch velocities so bouncing balls land on their targets.

Each ball starts at the origin with a velocity, falls under gravity with air drag, and bounces
off the ground. The loss is the squared distance between where each ball is after the last
step and its target. wp.Tape records every step; backward() gives d(loss)/d(initial
velocity), and plain gradient descent moves the velocities. The script prints the loss as it
falls and writes a picture of the trajectories before (grey) and after (colour) learning.

    python -m treadle.examples.bounce [--device cpu] [--iters 60] [--out bounce.png]
"""

import argparse
import time

import numpy as np

import treadle as wp
from treadle.examples.png import write_png

GRAVITY = wp.constant(wp.vec3(0.0, -9.8, 0.0))


@wp.kernel
def step(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), drag: float, restitution: float,
         dt: float, x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    vel = v[i] + (GRAVITY - v[i] * drag) * dt
    pos = x[i] + vel * dt
    if pos[1] < 0.0:
        # bounce: reflect the height and the vertical velocity, losing some energy
        pos = wp.vec3(pos[0], -pos[1] * restitution, pos[2])
        vel = wp.vec3(vel[0], -vel[1] * restitution, vel[2])
    x_out[i] = pos
    v_out[i] = vel


@wp.kernel
def distance_loss(x: wp.array(dtype=wp.vec3), target: wp.array(dtype=wp.vec3),
                  loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


@wp.kernel
def descend(v: wp.array(dtype=wp.vec3), grad: wp.array(dtype=wp.vec3), rate: float):
    i = wp.tid()
    v[i] = v[i] - grad[i] * rate


class Simulation:
    """Balls with one array per time step, so no step overwrites what an earlier one read."""

    def __init__(self, targets, steps, dt, device):
        n = len(targets)
        self.device = device
        self.steps, self.dt = steps, dt
        self.targets = wp.array(targets, dtype=wp.vec3, device=device)
        self.x = [wp.zeros(n, dtype=wp.vec3, device=device, requires_grad=True) for _ in range(steps + 1)]
        self.v = [wp.zeros(n, dtype=wp.vec3, device=device, requires_grad=True) for _ in range(steps + 1)]
        self.loss = wp.zeros(1, dtype=float, device=device, requires_grad=True)

    def forward(self):
        n = len(self.targets)
        self.loss.zero_()
        for t in range(self.steps):
            wp.launch(step, n, inputs=[self.x[t], self.v[t], 0.1, 0.7, self.dt],
                      outputs=[self.x[t + 1], self.v[t + 1]], device=self.device)
        wp.launch(distance_loss, n, inputs=[self.x[-1], self.targets, self.loss], device=self.device)

    def trajectories(self):
        return np.stack([x.numpy() for x in self.x])  # (steps + 1, n, 3)


def draw(before, after, targets, path, size=480):
    """Side view (x to the right, y up) of every trajectory and target."""
    img = np.full((size, size, 3), 255, dtype=np.uint8)
    pts = np.concatenate([before.reshape(-1, 3), after.reshape(-1, 3), targets])
    lo, hi = pts[:, :2].min(axis=0) - 0.2, pts[:, :2].max(axis=0) + 0.2
    scale = (size - 20) / (hi - lo)

    def pixel(p):
        px = 10 + (p[..., 0] - lo[0]) * scale[0]
        py = size - 10 - (p[..., 1] - lo[1]) * scale[1]
        return np.clip(px.astype(int), 0, size - 1), np.clip(py.astype(int), 0, size - 1)

    def dots(p, color, r=1):
        px, py = pixel(p)
        for dx in range(-r, r + 1):
            for dy in range(-r, r + 1):
                img[np.clip(py + dy, 0, size - 1), np.clip(px + dx, 0, size - 1)] = color

    dots(before.reshape(-1, 3), (170, 170, 170))
    palette = np.array([(220, 50, 47), (38, 139, 210), (133, 153, 0), (211, 54, 130),
                        (42, 161, 152), (181, 137, 0), (108, 113, 196), (203, 75, 22)])
    for b in range(after.shape[1]):
        dots(after[:, b], tuple(palette[b % len(palette)]))
    dots(targets, (0, 0, 0), r=4)
    write_png(path, img)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default=None)
    parser.add_argument("--iters", type=int, default=60)
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--rate", type=float, default=0.05)
    parser.add_argument("--out", default="bounce.png")
    args = parser.parse_args(argv)
    device = wp.get_device(args.device).alias

    # Targets that some launch velocity reaches (found by simulating hidden velocities), so
    # the best loss is zero; the learner starts from a guess up to about 1 m/s off. (A guess
    # that bounces a different number of times sits in another basin: the number of bounces
    # is not differentiable.)
    hidden = np.array([[3.0, 6.0, 0.0], [4.5, 3.0, 1.0], [2.0, 5.0, -1.0], [5.0, 4.0, 0.5],
                       [3.5, 2.0, -0.5], [2.5, 7.0, 0.8]], dtype=np.float32)
    sim = Simulation(np.zeros_like(hidden), args.steps, 1.0 / 60.0, device)
    sim.v[0].assign(hidden)
    sim.forward()
    targets = sim.x[-1].numpy()
    sim.targets.assign(targets)
    v0 = hidden + np.random.default_rng(7).uniform(-1.0, 1.0, hidden.shape).astype(np.float32)
    sim.v[0].assign(v0)

    tape = wp.Tape()
    losses, before = [], None
    start = time.perf_counter()
    for it in range(args.iters):
        with tape:
            sim.forward()
        if before is None:
            before = sim.trajectories()
        tape.backward(loss=sim.loss)
        losses.append(float(sim.loss.numpy()[0]))
        wp.launch(descend, len(targets), inputs=[sim.v[0], sim.v[0].grad, args.rate], device=device)
        tape.zero()
        tape.reset()
        if it % 10 == 0 or it == args.iters - 1:
            print(f"iteration {it:3d}  loss {losses[-1]:.6f}")
    seconds = time.perf_counter() - start
    sim.forward()
    final = float(sim.loss.numpy()[0])
    print(f"loss {losses[0]:.4f} -> {final:.6f} in {args.iters} iterations ({seconds:.2f} s on {device})")
    draw(before, sim.trajectories(), targets, args.out)
    print(f"wrote {args.out}")
    return losses[0], final


if __name__ == "__main__":
    main()
