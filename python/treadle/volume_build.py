"""NanoVDB grid buffers built on the host: from dense numpy arrays (Volume.load_from_numpy), from
leaf origins (Volume.allocate, allocate_by_tiles) and from active voxels (allocate_by_voxels,
an OnIndex grid).

The buffer follows the published NanoVDB layout: GridData (672 bytes), TreeData (64 bytes), the
root with its tile table (one tile per upper node, sorted by key), then the upper (32^3), lower
(16^3) and leaf (8^3) nodes, each 32-byte aligned; child references are byte offsets from the
parent node. Header sizes follow native/treadle/volume_layout.h: values of N components of a
scalar align to the scalar; statistics are 8 bytes for 8-byte values, else 4 (uint64 for index
grids, whose 96-byte leaves hold the index of their first active voxel and prefix counts)."""

import struct

import numpy as np

_GRID_HEADER = 672
_TREE_HEADER = 64
_VERSION = 32 << 21 | 3 << 10 | 3  # NanoVDB 32.3.3, the version of the grids Warp 1.17 writes
_ONINDEX = 20


def _up(n, a):
    return (n + a - 1) // a * a


def _mask(bits):
    return np.packbits(np.asarray(bits, dtype=bool).reshape(-1), bitorder="little").tobytes()


class _Kind:
    """A value type's grid type, numpy scalar, components and layout sizes."""

    def __init__(self, gtype, scalar, comps):
        self.gtype, self.scalar, self.comps = gtype, np.dtype(scalar), comps
        self.align = self.scalar.itemsize
        self.size = self.align * comps
        self.stats = 8 if self.size == 8 else 4
        self.root_bg = _up(28, self.align)
        self.root_header = _up(_up(self.root_bg + 3 * self.size, self.stats) + 2 * self.stats, 32)
        self.tile_value = _up(20, self.align)
        self.root_tile = _up(self.tile_value + self.size, 32)
        self.node_tile = _up(max(self.size, 8), max(self.align, 8))
        self.upper_table = _up(_up(32 + 8192 + 2 * self.size, self.stats) + 2 * self.stats, 32)
        self.lower_table = _up(_up(32 + 1024 + 2 * self.size, self.stats) + 2 * self.stats, 32)
        self.leaf_values = _up(_up(80 + 2 * self.size, self.stats) + 2 * self.stats, 32)
        self.leaf_size = 96 if gtype == _ONINDEX else self.leaf_values + 512 * self.size


_SCALAR_KINDS = {"float32": (1, np.float32), "float64": (2, np.float64), "int32": (4, np.int32),
                 "int64": (5, np.int64), "uint32": (10, np.uint32)}
_VECTOR_KINDS = {("float32", 3): 6, ("float64", 3): 7, ("float32", 4): 17, ("float64", 4): 18}


def kind_of_value(bg_value):
    """The value kind a background selects: its treadle type (wp.float64(3.0), wp.vec3d(...)),
    else float32, int32, vec3f or vec4f by its Python shape; None selects an OnIndex grid."""
    if bg_value is None:
        return _Kind(_ONINDEX, np.uint64, 1)
    t = getattr(type(bg_value), "_type", None)
    if t is not None and t.kind == "scalar" and t.scalar.name in _SCALAR_KINDS:
        return _Kind(*_SCALAR_KINDS[t.scalar.name], 1)
    if t is not None and t.kind == "vector" and (t.scalar.name, t.length) in _VECTOR_KINDS:
        return _Kind(_VECTOR_KINDS[(t.scalar.name, t.length)], np.dtype(t.scalar.name), t.length)
    v = np.asarray(bg_value)
    if v.ndim == 0:
        return _Kind(4, np.int32, 1) if np.issubdtype(v.dtype, np.integer) else _Kind(1, np.float32, 1)
    if v.shape == (3,):
        return _Kind(6, np.float32, 3)
    if v.shape == (4,):
        return _Kind(17, np.float32, 4)
    raise RuntimeError(f"bg_value must be a scalar or a 3- or 4-vector, got {bg_value!r}")


def reserved_size(kind, leaves, lowers, uppers):
    """The bytes of a grid of `kind` with these node counts (a rebuildable volume's buffer)."""
    return (_GRID_HEADER + _TREE_HEADER + kind.root_header + kind.root_tile * uppers
            + (kind.upper_table + 32768 * kind.node_tile) * uppers
            + (kind.lower_table + 4096 * kind.node_tile) * lowers + kind.leaf_size * leaves)


def build_from_dense(values, min_world, voxel_size, bg_value):
    """A grid (bytes) holding `values` (nx, ny, nz[, 3]) at voxels [0, shape) of index space."""
    if values.ndim == 4 and values.shape[3] == 3:
        kind = _Kind(6, np.float32, 3)
    elif values.ndim == 3:
        kind = _Kind(4, np.int32, 1) if np.issubdtype(values.dtype, np.integer) else _Kind(1, np.float32, 1)
    else:
        raise RuntimeError("load_from_numpy expects a 3-D array of scalars or of 3-vectors")
    values = values.astype(kind.scalar).reshape(values.shape[:3] + (kind.comps,))
    nx, ny, nz = values.shape[:3]
    if min(nx, ny, nz) == 0:
        raise RuntimeError("load_from_numpy expects an array without empty dimensions")
    bg = np.broadcast_to(np.asarray(bg_value, dtype=kind.scalar), (kind.comps,))
    leaves = []
    for x in range(0, nx, 8):
        for y in range(0, ny, 8):
            for z in range(0, nz, 8):
                block = np.empty((8, 8, 8, kind.comps), dtype=kind.scalar)
                block[:] = bg
                part = values[x : x + 8, y : y + 8, z : z + 8]
                block[: part.shape[0], : part.shape[1], : part.shape[2]] = part
                active = np.zeros((8, 8, 8), dtype=bool)
                active[: part.shape[0], : part.shape[1], : part.shape[2]] = True
                leaves.append(((x, y, z), block, active))
    mat = np.diag(np.asarray(voxel_size, dtype=np.float64))
    return _build(kind, bg, leaves, mat, min_world)


def build_from_leaves(origins, active, kind, bg, mat, translation, capacity=None):
    """A grid (bytes) with a leaf at each origin: every voxel active and `bg` (value kinds), or
    an OnIndex grid whose active voxels are `active`; padded to `capacity` bytes when given (the
    grid's size is then the capacity)."""
    origins = np.unique(np.asarray(origins, dtype=np.int64).reshape(-1, 3), axis=0)
    if kind.gtype != _ONINDEX:
        bg = np.broadcast_to(np.asarray(bg, dtype=kind.scalar), (kind.comps,))
        block = np.broadcast_to(bg, (8, 8, 8, kind.comps))
        full = np.ones((8, 8, 8), dtype=bool)
        leaves = [(tuple(int(c) for c in o), block, full) for o in origins]
        return _build(kind, bg, leaves, mat, translation, capacity)
    masks = {tuple(int(c) for c in o): np.zeros((8, 8, 8), dtype=bool) for o in origins}
    if active is None:
        for m in masks.values():
            m[:] = True
    else:
        for p in np.asarray(active, dtype=np.int64).reshape(-1, 3):
            masks[tuple(int(c) for c in p & ~7)][tuple(int(c) for c in p & 7)] = True
    leaves = [(o, None, masks[o]) for o in sorted(masks)]
    return _build(kind, np.zeros(1, dtype=np.uint64), leaves, mat, translation, capacity)


def _build(kind, bg, leaves, mat, translation, capacity=None):
    """The grid buffer of `leaves` [(origin, values (8, 8, 8, comps) or None, mask (8, 8, 8))]."""
    leaves = sorted(leaves, key=lambda leaf: leaf[0])
    lowers = sorted({tuple(c & ~127 for c in o) for o, _, _ in leaves})
    uppers = sorted({tuple(c & ~4095 for c in o) for o in lowers}, key=_root_key)
    lower_size = kind.lower_table + 4096 * kind.node_tile
    upper_size = kind.upper_table + 32768 * kind.node_tile
    root = _GRID_HEADER + _TREE_HEADER
    upper0 = root + kind.root_header + kind.root_tile * len(uppers)
    lower0 = upper0 + upper_size * len(uppers)
    leaf0 = lower0 + lower_size * len(lowers)
    total = leaf0 + kind.leaf_size * len(leaves)
    if capacity is not None:
        if total > capacity:
            raise RuntimeError("the volume's topology exceeds its reserved capacity")
        total = capacity
    buf = bytearray(total)
    upper_at = {o: upper0 + n * upper_size for n, o in enumerate(uppers)}
    lower_at = {o: lower0 + n * lower_size for n, o in enumerate(lowers)}
    tile = np.zeros(kind.node_tile, dtype=np.uint8)
    tile[: kind.size] = np.frombuffer(np.asarray(bg, dtype=kind.scalar).tobytes(), dtype=np.uint8)
    lower_children = {o: [] for o in lowers}
    upper_children = {o: [] for o in uppers}
    active_count, offset = 0, 1
    for n, (o, values, mask) in enumerate(leaves):
        at = leaf0 + n * kind.leaf_size
        struct.pack_into("<3i3BB", buf, at, *o, 7, 7, 7, 0)
        buf[at + 16 : at + 80] = _mask(mask)
        count = int(mask.sum())
        if values is None:  # OnIndex: the first active voxel's index and the prefix counts
            words = np.asarray(mask, dtype=bool).reshape(8, 64).sum(axis=1)
            prefix = 0
            for w in range(1, 8):
                prefix |= int(words[:w].sum()) << (9 * (w - 1))
            struct.pack_into("<QQ", buf, at + 80, offset if count else 0, prefix)
            offset += count
        else:
            buf[at + kind.leaf_values : at + kind.leaf_size] = np.ascontiguousarray(values).tobytes()
        active_count += count
        lo = tuple(c & ~127 for c in o)
        lower_children[lo].append(((((o[0] & 127) >> 3) << 8) | (((o[1] & 127) >> 3) << 4) | ((o[2] & 127) >> 3), at))
    for o in lowers:
        upper_children[tuple(c & ~4095 for c in o)].append(
            ((((o[0] & 4095) >> 7) << 10) | (((o[1] & 4095) >> 7) << 5) | ((o[2] & 4095) >> 7), lower_at[o]))
    nodes = [(o, at, 128, lower_children[o]) for o, at in lower_at.items()]
    nodes += [(o, at, 4096, upper_children[o]) for o, at in upper_at.items()]
    for o, at, dim, kids in nodes:
        table_at, count, mask_bytes = (kind.lower_table, 4096, 512) if dim == 128 else (kind.upper_table, 32768, 4096)
        struct.pack_into("<6iQ", buf, at, *o, *(c + dim - 1 for c in o), 0)
        buf[at + table_at : at + table_at + count * kind.node_tile] = np.tile(tile, count).tobytes()
        bits = np.zeros(count, dtype=bool)
        for n, child in kids:
            bits[n] = True
            struct.pack_into("<q", buf, at + table_at + n * kind.node_tile, child - at)
        buf[at + 32 + mask_bytes : at + 32 + 2 * mask_bytes] = _mask(bits)
    lo_box = np.min([o for o, _, _ in leaves], axis=0) if leaves else np.zeros(3, dtype=np.int64)
    hi_box = np.max([o for o, _, _ in leaves], axis=0) + 7 if leaves else np.zeros(3, dtype=np.int64)
    struct.pack_into("<6iI", buf, root, *lo_box, *hi_box, len(uppers))
    buf[root + kind.root_bg : root + kind.root_bg + kind.size] = tile[: kind.size].tobytes()
    for n, o in enumerate(uppers):
        struct.pack_into("<Qq", buf, root + kind.root_header + n * kind.root_tile, _root_key(o), upper_at[o] - root)
    tree = _GRID_HEADER
    struct.pack_into("<4q3I3IQ", buf, tree, leaf0 - tree, lower0 - tree, upper0 - tree, root - tree,
                     len(leaves), len(lowers), len(uppers), 0, 0, 0, active_count)
    _grid_header(buf, total, kind.gtype, mat, translation, lo_box, hi_box)
    return bytes(buf)


def _root_key(o):
    i, j, k = (int(c) & 0xFFFFFFFF for c in o)
    return (k >> 12) | ((j >> 12) << 21) | ((i >> 12) << 42)


def _grid_header(buf, total, gtype, mat, translation, lo_box, hi_box):
    """GridData: magic, version, size, the map index -> mat @ index + translation."""
    t = [float(v) for v in translation]
    inv = np.linalg.inv(mat)
    struct.pack_into("<8sQIIIIQ", buf, 0, b"NanoVDB0", 0, _VERSION, 0, 0, 1, total)
    name = b"treadle"
    buf[40 : 40 + len(name)] = name
    m, i = mat.reshape(-1).tolist(), inv.reshape(-1).tolist()
    struct.pack_into("<9f9f3ff9d9d3dd", buf, 296, *m, *i, *t, 1.0, *m, *i, *t, 1.0)
    corners = [mat @ np.asarray(c, dtype=np.float64) + t for c in (lo_box, np.asarray(hi_box) + 1)]
    wlo, whi = np.minimum(*corners), np.maximum(*corners)
    vs = mat @ np.ones(3)
    struct.pack_into("<6d3dII", buf, 560, *wlo, *whi, *vs, 0, gtype)
