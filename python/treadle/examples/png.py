"""A minimal PNG writer (8-bit RGB) so examples can save images without extra packages."""

import struct
import zlib

import numpy as np


def write_png(path, rgb):
    """Writes an (height, width, 3) uint8 array as a PNG file."""
    rgb = np.ascontiguousarray(rgb, dtype=np.uint8)
    height, width, channels = rgb.shape
    if channels != 3:
        raise ValueError("write_png(): expected an (h, w, 3) array")
    raw = b"".join(b"\x00" + rgb[y].tobytes() for y in range(height))

    def chunk(tag, data):
        body = tag + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", header))
        f.write(chunk(b"IDAT", zlib.compress(raw, 6)))
        f.write(chunk(b"IEND", b""))


def colormap(values, lo, hi):
    """Maps values in [lo, hi] to a blue-white-red palette (uint8 RGB)."""
    t = np.clip((np.asarray(values, dtype=np.float64) - lo) / max(hi - lo, 1e-12), 0.0, 1.0)
    r = np.clip(2.0 * t, 0.0, 1.0)
    b = np.clip(2.0 - 2.0 * t, 0.0, 1.0)
    g = 1.0 - np.abs(2.0 * t - 1.0)
    return (np.stack([r, g * 0.9 + 0.1 * (1 - g), b], axis=-1) * 255).astype(np.uint8)
