"""NanoVDB grid buffers built from dense numpy arrays (wp.Volume.load_from_numpy).

The buffer follows the published NanoVDB layout: GridData (672 bytes), TreeData (64 bytes),
the root with its tile table, then upper (32^3), lower (16^3) and leaf (8^3) nodes, each
32-byte aligned; child references are byte offsets from the parent node. Every element of the
array becomes an active voxel at its index (i, j, k); the rest of each leaf holds the
background."""

import struct

import numpy as np

_GRID_HEADER = 672
_TREE_HEADER = 64
_UPPER_HEADER = 8256
_LOWER_HEADER = 1088
_VERSION = 67111939  # NanoVDB 32.3.3, the version of the grids Warp 1.17 reads and writes


def _align32(n):
    return (n + 31) & ~31


def _mask(bits):
    return np.packbits(np.asarray(bits, dtype=bool).reshape(-1), bitorder="little").tobytes()


def _value_kind(values):
    """(grid type, value dtype, components) of a dense array."""
    if values.ndim == 4 and values.shape[3] == 3:
        return 6, np.float32, 3
    if values.ndim != 3:
        raise RuntimeError("load_from_numpy expects a 3-D array of scalars or of 3-vectors")
    if np.issubdtype(values.dtype, np.integer):
        return 4, np.int32, 1
    return 1, np.float32, 1


def build_grid(values, min_world, voxel_size, bg_value):
    """A NanoVDB grid buffer (bytes) holding `values` at voxels [0, shape) of the index space."""
    values = np.asarray(values)
    gtype, vdtype, comps = _value_kind(values)
    values = values.astype(vdtype)
    vsize = 4 * comps
    bg = np.broadcast_to(np.asarray(bg_value, dtype=vdtype), (comps,)).copy()
    nx, ny, nz = values.shape[:3]
    if min(nx, ny, nz) == 0 or max(nx, ny, nz) > 4096:
        raise RuntimeError("load_from_numpy expects every dimension in [1, 4096]")
    node_tile = 16 if vsize > 8 else 8
    leaf_header = _align32(80 + 2 * vsize + 8)
    leaf_size = leaf_header + 512 * vsize
    lower_size = _LOWER_HEADER + 4096 * node_tile
    upper_size = _UPPER_HEADER + 32768 * node_tile
    root_header = _align32(28 + 3 * vsize + 8)
    leaves = [(x, y, z) for x in range(0, nx, 8) for y in range(0, ny, 8) for z in range(0, nz, 8)]
    lowers = sorted({(x & ~127, y & ~127, z & ~127) for x, y, z in leaves})
    root = _GRID_HEADER + _TREE_HEADER
    upper = root + root_header + 32
    lower0 = upper + upper_size
    leaf0 = lower0 + lower_size * len(lowers)
    total = leaf0 + leaf_size * len(leaves)
    buf = bytearray(total)
    lower_at = {o: lower0 + n * lower_size for n, o in enumerate(lowers)}
    lower_children = {o: [] for o in lowers}
    for n, (x, y, z) in enumerate(leaves):
        at = leaf0 + n * leaf_size
        block = np.empty((8, 8, 8, comps), dtype=vdtype)
        block[:] = bg
        part = values[x : x + 8, y : y + 8, z : z + 8]
        part = part.reshape(part.shape[:3] + (comps,))
        block[: part.shape[0], : part.shape[1], : part.shape[2]] = part
        active = np.zeros((8, 8, 8), dtype=bool)
        active[: part.shape[0], : part.shape[1], : part.shape[2]] = True
        struct.pack_into("<3i3BB", buf, at, x, y, z, 7, 7, 7, 0)
        buf[at + 16 : at + 80] = _mask(active)
        buf[at + leaf_header : at + leaf_size] = block.tobytes()
        lo = (x & ~127, y & ~127, z & ~127)
        lower_children[lo].append((((x & 127) >> 3) << 8 | ((y & 127) >> 3) << 4 | ((z & 127) >> 3), at))
    upper_bits = np.zeros(32768, dtype=bool)
    for o in lowers:
        at = lower_at[o]
        _node_header(buf, at, o, 128)
        bits = np.zeros(4096, dtype=bool)
        tiles = np.zeros((4096, node_tile // 4), dtype=np.uint32)
        tiles[:, :comps] = bg.view(np.uint32)
        buf[at + _LOWER_HEADER : at + lower_size] = tiles.tobytes()
        for n, child in lower_children[o]:
            bits[n] = True
            struct.pack_into("<q", buf, at + _LOWER_HEADER + n * node_tile, child - at)
        buf[at + 32 + 512 : at + 32 + 1024] = _mask(bits)
        nu = (o[0] >> 7) << 10 | (o[1] >> 7) << 5 | (o[2] >> 7)
        upper_bits[nu] = True
    _node_header(buf, upper, (0, 0, 0), 4096)
    table = np.zeros((32768, node_tile // 4), dtype=np.uint32)
    table[:, :comps] = bg.view(np.uint32)
    buf[upper + _UPPER_HEADER : upper + upper_size] = table.tobytes()
    for o in lowers:
        nu = (o[0] >> 7) << 10 | (o[1] >> 7) << 5 | (o[2] >> 7)
        struct.pack_into("<q", buf, upper + _UPPER_HEADER + nu * node_tile, lower_at[o] - upper)
    buf[upper + 32 + 4096 : upper + 32 + 8192] = _mask(upper_bits)
    struct.pack_into("<6iI", buf, root, 0, 0, 0, nx - 1, ny - 1, nz - 1, 1)
    buf[root + 28 : root + 28 + vsize] = bg.tobytes()
    struct.pack_into("<Qq", buf, root + root_header, 0, upper - root)
    tree = _GRID_HEADER
    struct.pack_into("<4q3I3IQ", buf, tree, leaf0 - tree, lower0 - tree, upper - tree, root - tree,
                     len(leaves), len(lowers), 1, 0, 0, 0, nx * ny * nz)
    _grid_header(buf, total, gtype, min_world, voxel_size, (nx, ny, nz))
    return bytes(buf)


def _node_header(buf, at, origin, dim):
    x, y, z = origin
    struct.pack_into("<6iQ", buf, at, x, y, z, x + dim - 1, y + dim - 1, z + dim - 1, 0)


def _grid_header(buf, total, gtype, min_world, voxel_size, shape):
    """GridData: magic, version, size, the map index -> min_world + voxel_size * index."""
    vs = float(voxel_size)
    t = [float(v) for v in min_world]
    struct.pack_into("<8sQIIIIQ", buf, 0, b"NanoVDB0", 0, _VERSION, 0, 0, 1, total)
    mat = [vs, 0, 0, 0, vs, 0, 0, 0, vs]
    inv = [1.0 / vs, 0, 0, 0, 1.0 / vs, 0, 0, 0, 1.0 / vs]
    struct.pack_into("<9f9f3ff9d9d3dd", buf, 296, *mat, *inv, *t, 1.0, *mat, *inv, *t, 1.0)
    hi = [t[a] + vs * shape[a] for a in range(3)]
    struct.pack_into("<6d3dII", buf, 560, *t, *hi, vs, vs, vs, 0, gtype)
