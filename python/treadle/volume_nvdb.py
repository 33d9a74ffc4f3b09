"""NanoVDB files and grid buffers on the host: reading the grids of a file (uncompressed or ZIP
coded; Blosc when the ``blosc`` package is installed), writing them back, and reading a grid's
header, leaves and blind data (the facts wp.Volume reports).

A grid buffer starts with GridData (672 bytes: magic, checksum, version, flags, grid index and
count, size, name, map, world bbox, voxel size, class, type, blind-data offset and count) and
TreeData (64 bytes: offsets of the first leaf, lower, upper node and root from the tree, node
counts, tile counts, active voxel count). Grids of one file lie back to back in one buffer."""

import struct
import zlib

import numpy as np

MAGIC_FILE = b"NanoVDB0"
MAGIC_GRID = (b"NanoVDB0", b"NanoVDB1")
GRID_HEADER = 672
VERSION = 32 << 21 | 3 << 10 | 3
CODECS = {"none": 0, "zip": 1, "blosc": 2}
_META_SIZE = 176
GRID_TYPES = {1: "float", 2: "double", 4: "int32", 5: "int64", 6: "Vec3f", 7: "Vec3d",
              10: "uint32", 17: "Vec4f", 18: "Vec4d", 19: "index", 20: "onindex"}
INDEX_GRIDS = (19, 20)


def grid_size(buf, at=0):
    return int(struct.unpack_from("<Q", buf, at + 32)[0])


def grid_type(buf, at=0):
    return int(struct.unpack_from("<I", buf, at + 636)[0])


def grid_index_count(buf, at=0):
    return struct.unpack_from("<II", buf, at + 24)


def _blosc():
    try:
        import blosc  # noqa: PLC0415 -- optional
    except ImportError as err:
        raise RuntimeError(f"NanoVDB files compressed with Blosc need the blosc module: {err}") from err
    return blosc


def grids_of_file(data):
    """The grid buffers (bytes) of a NanoVDB file, decompressed."""
    grid_count, codec = struct.unpack_from("<HH", data, 12)
    offset = 16
    metas = []
    for _ in range(grid_count):
        gsize, fsize = struct.unpack_from("<QQ", data, offset)
        name_size = struct.unpack_from("<I", data, offset + 136)[0]
        metas.append((gsize, fsize))
        offset += _META_SIZE + name_size
    grids = []
    for gsize, fsize in metas:
        if codec == 0:
            grids.append(bytes(data[offset : offset + fsize]))
            offset += fsize
            continue
        n = struct.unpack_from("<Q", data, offset)[0]
        block = bytes(data[offset + 8 : offset + 8 + n])
        offset += 8 + n
        if codec == 1:
            grid = zlib.decompress(block)
        elif codec == 2:
            grid = _blosc().decompress(block)
        else:
            raise RuntimeError(f"NanoVDB file uses an unknown codec ({codec})")
        if len(grid) != gsize:
            raise RuntimeError("NanoVDB file is corrupt: a grid decompresses to the wrong size")
        grids.append(grid)
    return grids


def buffer_of(data):
    """The grid buffer (bytes, every grid back to back) of a file or a raw grid buffer."""
    if len(data) < 16:
        raise RuntimeError("NanoVDB signature not found")
    magic = bytes(data[:8])
    if magic in MAGIC_GRID and _is_grid_chain(data):
        return bytes(data)
    if magic == MAGIC_FILE:
        grids = grids_of_file(data)
        if not grids:
            raise RuntimeError("NanoVDB file holds no grid")
        return b"".join(grids)
    raise RuntimeError("NanoVDB signature not found")


def _is_grid_chain(data):
    """Whether `data` is grid buffers back to back (not a file's header)."""
    at = 0
    while at + GRID_HEADER + 64 <= len(data):
        size = grid_size(data, at)
        if size < GRID_HEADER + 64 or at + size > len(data) or bytes(data[at : at + 8]) not in MAGIC_GRID:
            return False
        at += size
    return at == len(data)


def write_file(path, buf, codec):
    """Writes the grids of `buf` (a uint8 numpy buffer, the first grid at 0) to a .nvdb file."""
    if codec not in CODECS:
        raise RuntimeError(f"Unsupported codec requested: {codec}")
    code = CODECS[codec]
    if code == 2:
        _blosc()
    index, count = grid_index_count(buf)
    if index > 0:
        raise RuntimeError(
            "Saving of aliased Volumes is not supported. Use `save_to_nvdb` on the original "
            "volume, before any `load_next_grid` calls."
        )
    header = struct.pack("<8sIHH", MAGIC_FILE, VERSION, count, code)
    metas, blocks, at = [], [], 0
    for _ in range(count):
        size = grid_size(buf, at)
        grid = bytes(buf[at : at + size])
        if code == 1:
            block = zlib.compress(grid)
        elif code == 2:
            block = _blosc().compress(grid)
        else:
            block = grid
        name = bytes(buf[at + 40 : at + 296]).split(b"\0", 1)[0]
        meta = bytearray(_META_SIZE)
        struct.pack_into("<QQ", meta, 0, size, len(block))
        struct.pack_into("<II", meta, 32, grid_type(buf, at), struct.unpack_from("<I", buf, at + 632)[0])
        meta[40:88] = bytes(buf[at + 560 : at + 608])
        meta[112:136] = bytes(buf[at + 608 : at + 632])
        struct.pack_into("<I", meta, 136, len(name) + 1)
        struct.pack_into("<HHI", meta, 168, code, 0, VERSION)
        metas.append(bytes(meta) + name + b"\0")
        blocks.append((struct.pack("<Q", len(block)) if code else b"") + block)
        at += size
    with open(path, "wb") as f:
        f.write(header)
        for m in metas:
            f.write(m)
        for b in blocks:
            f.write(b)
    return path


def leaf_origins(buf):
    """The origins (n, 3) int32 of the leaves of the grid at the start of `buf`."""
    tree = GRID_HEADER
    first = tree + struct.unpack_from("<q", buf, tree)[0]
    count = struct.unpack_from("<I", buf, tree + 32)[0]
    size = leaf_size(grid_type(buf))
    at = first + size * np.arange(count, dtype=np.int64)
    raw = np.frombuffer(bytes(buf[: grid_size(buf)]), dtype=np.uint8)
    idx = at[:, None] + np.arange(12)[None, :]
    bbox_min = raw[idx].copy().view(np.int32).reshape(count, 3)  # of the leaf's active voxels
    return bbox_min & ~7, raw, at


def leaf_size(code):
    """The bytes of one leaf of grid type `code` (native/treadle/volume_layout.h's rule)."""
    if code in INDEX_GRIDS:
        return 96
    comps, scalar = {1: (1, 4), 2: (1, 8), 4: (1, 4), 5: (1, 8), 6: (3, 4), 7: (3, 8), 10: (1, 4),
                     17: (4, 4), 18: (4, 8)}.get(code, (0, 0))
    if not comps:
        raise RuntimeError(f"grids of type {GRID_TYPES.get(code, code)} are not supported")
    size = comps * scalar
    stats = 8 if size == 8 else 4

    def up(n, a):
        return (n + a - 1) // a * a

    return up(up(80 + 2 * size, stats) + 2 * stats, 32) + 512 * size


def voxels(buf):
    """The indexable voxels (n, 3) int32 in index order: OnIndex grids their active voxels,
    other grids every voxel of every leaf."""
    origins, raw, at = leaf_origins(buf)
    local = np.array([[(n >> 6) & 7, (n >> 3) & 7, n & 7] for n in range(512)], dtype=np.int32)
    coords = (origins[:, None, :] + local[None, :, :]).reshape(-1, 3)
    if grid_type(buf) != 20 or len(origins) == 0:
        return coords
    masks = raw[(at + 16)[:, None] + np.arange(64)[None, :]]
    bits = np.unpackbits(masks, axis=1, bitorder="little").reshape(-1).astype(bool)
    offsets = raw[(at + 80)[:, None] + np.arange(8)[None, :]].copy().view(np.uint64).reshape(-1)
    order = np.argsort(np.repeat(offsets, 512)[bits] * 512 + np.tile(np.arange(512), len(at))[bits],
                       kind="stable")
    return coords[bits][order]


def voxel_count(buf):
    """The number of indexable voxels (see voxels())."""
    tree = GRID_HEADER
    if grid_type(buf) == 20:
        return int(struct.unpack_from("<Q", buf, tree + 56)[0])
    return int(struct.unpack_from("<I", buf, tree + 32)[0]) * 512


def blind_data(buf):
    """The blind data of the grid at the start of `buf`: (offset, value count, value size,
    semantic, data class, data type, name) each."""
    offset, count = struct.unpack_from("<qI", buf, 640)
    out = []
    for n in range(count):
        at = offset + 288 * n
        data, values, vsize, sem, cls, dtype = struct.unpack_from("<qQIIII", buf, at)
        name = bytes(buf[at + 32 : at + 288]).split(b"\0", 1)[0].decode()
        out.append((at + data, values, vsize, sem, cls, dtype, name))
    return out
