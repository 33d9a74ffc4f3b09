"""Ray cast a triangle mesh into an image with wp.mesh_query_ray, in Warp's style.

One thread per pixel shoots a ray from a pinhole camera through the pixel; the closest hit's
face normal shades it (Lambert with a head light), misses are the background. The mesh is a
generated torus with a sphere resting in its hole (one wp.Mesh of both), so the picture shows
both shapes and their occlusion.

    python -m treadle.examples.raycast [--device cpu] [--width 512] [--height 384]
        [--out raycast.png]
"""

import argparse
import math

import numpy as np

import treadle as wp
from treadle.examples.png import write_png


def torus(n_major=64, n_minor=32, r_major=1.0, r_minor=0.35):
    """Points (n, 3) and triangles (m, 3) of a torus around the z axis, outward-facing."""
    a = 2.0 * np.pi * np.arange(n_major) / n_major
    b = 2.0 * np.pi * np.arange(n_minor) / n_minor
    aa, bb = np.meshgrid(a, b, indexing="ij")
    r = r_major + r_minor * np.cos(bb)
    pts = np.stack([r * np.cos(aa), r * np.sin(aa), r_minor * np.sin(bb)], -1).reshape(-1, 3)
    i, j = np.meshgrid(np.arange(n_major), np.arange(n_minor), indexing="ij")
    p = i * n_minor + j
    q = ((i + 1) % n_major) * n_minor + j
    pn = i * n_minor + (j + 1) % n_minor
    qn = ((i + 1) % n_major) * n_minor + (j + 1) % n_minor
    faces = np.concatenate([np.stack([p, q, qn], -1).reshape(-1, 3),
                            np.stack([p, qn, pn], -1).reshape(-1, 3)])
    return pts.astype(np.float32), faces.astype(np.int32)


def sphere(center, radius, n=24):
    """A UV sphere: points and outward-facing triangles."""
    pts = [[0.0, 0.0, 1.0]]
    for k in range(1, n):
        t = math.pi * k / n
        for m in range(2 * n):
            f = 2.0 * math.pi * m / (2 * n)
            pts.append([math.sin(t) * math.cos(f), math.sin(t) * math.sin(f), math.cos(t)])
    pts.append([0.0, 0.0, -1.0])
    ring = lambda k, m: 1 + (k - 1) * 2 * n + m % (2 * n)  # noqa: E731
    faces = []
    for m in range(2 * n):
        faces.append([0, ring(1, m), ring(1, m + 1)])
        faces.append([len(pts) - 1, ring(n - 1, m + 1), ring(n - 1, m)])
    for k in range(1, n - 1):
        for m in range(2 * n):
            faces.append([ring(k, m), ring(k + 1, m), ring(k + 1, m + 1)])
            faces.append([ring(k, m), ring(k + 1, m + 1), ring(k, m + 1)])
    pts = np.array(pts) * radius + np.array(center)
    return pts.astype(np.float32), np.array(faces, np.int32)


def scene():
    """The torus and a sphere in its hole, as one point and triangle list."""
    tp, tf = torus()
    sp, sf = sphere((0.0, 0.0, 0.1), 0.55)
    return np.concatenate([tp, sp]), np.concatenate([tf, sf + len(tp)])


@wp.kernel
def draw(mesh: wp.uint64, cam_pos: wp.vec3, cam_forward: wp.vec3, cam_right: wp.vec3,
         cam_up: wp.vec3, width: int, height: int, depth: wp.array(dtype=float),
         pixels: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    x = tid % width
    y = tid // width
    sx = 2.0 * (float(x) + 0.5) / float(width) - 1.0
    sy = 1.0 - 2.0 * (float(y) + 0.5) / float(height)
    aspect = float(width) / float(height)
    ro = cam_pos
    rd = wp.normalize(cam_forward + cam_right * (sx * aspect * 0.45) + cam_up * (sy * 0.45))
    color = wp.vec3(0.08, 0.09, 0.12)
    depth[tid] = -1.0
    query = wp.mesh_query_ray(mesh, ro, rd, 1.0e6)
    if query.result:
        n = query.normal
        if wp.dot(n, rd) > 0.0:
            n = -n
        shade = 0.15 + 0.85 * wp.max(-wp.dot(n, rd), 0.0)
        base = wp.vec3(0.9, 0.55, 0.2)
        if query.face >= 2 * 64 * 32:  # the sphere's faces follow the torus's
            base = wp.vec3(0.3, 0.6, 0.95)
        color = base * shade
        depth[tid] = query.t
    pixels[tid] = color


class Example:
    """A camera looking at the scene from above and in front; render() fills depth and pixels."""

    def __init__(self, width=512, height=384, device=None):
        self.device = wp.get_device(device).alias
        self.width, self.height = width, height
        pts, faces = scene()
        self.points, self.faces = pts, faces
        self.mesh = wp.Mesh(points=wp.array(pts, dtype=wp.vec3, device=self.device),
                            indices=wp.array(faces.ravel(), dtype=wp.int32, device=self.device))
        self.cam_pos = np.array([0.0, -3.2, 2.0], np.float32)
        forward = -self.cam_pos / np.linalg.norm(self.cam_pos)
        right = np.cross(forward, [0.0, 0.0, 1.0])
        right /= np.linalg.norm(right)
        up = np.cross(right, forward)
        self.basis = forward.astype(np.float32), right.astype(np.float32), up.astype(np.float32)
        self.depth = wp.zeros(width * height, dtype=float, device=self.device)
        self.pixels = wp.zeros(width * height, dtype=wp.vec3, device=self.device)

    def render(self):
        f, r, u = self.basis
        wp.launch(draw, dim=self.width * self.height,
                  inputs=[self.mesh.id, wp.vec3(*self.cam_pos), wp.vec3(*f), wp.vec3(*r),
                          wp.vec3(*u), self.width, self.height, self.depth, self.pixels],
                  device=self.device)

    def image(self):
        """The rendered pixels as an (height, width, 3) uint8 array."""
        rgb = self.pixels.numpy().reshape(self.height, self.width, 3)
        return (np.clip(rgb, 0.0, 1.0) * 255.0 + 0.5).astype(np.uint8)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default=None)
    parser.add_argument("--width", type=int, default=512)
    parser.add_argument("--height", type=int, default=384)
    parser.add_argument("--out", default="raycast.png")
    args = parser.parse_args(argv)
    ex = Example(args.width, args.height, args.device)
    with wp.ScopedTimer("render", synchronize=True):
        ex.render()
    write_png(args.out, ex.image())
    hit = (ex.depth.numpy() > 0).mean()
    print(f"wrote {args.out}: {args.width}x{args.height}, {hit:.0%} of pixels hit the mesh")


if __name__ == "__main__":
    main()
