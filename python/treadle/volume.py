"""wp.Volume: sparse NanoVDB grids (Warp 1.17's class) read by the volume builtins.

A volume holds one NanoVDB grid buffer in a uint8 array on its device; its ``id`` is the
buffer's address, which kernels pass to ``volume_lookup_f``, ``volume_sample_f`` and the
other volume builtins (native/treadle/volume.h). ``load_from_nvdb`` reads NanoVDB files and raw
grid buffers, uncompressed or with the ZIP codec (zlib)."""

import struct
import zlib
from collections import namedtuple

import numpy as np

from .array import array
from .context import get_device
from .scalar_types import uint8
from .volume_build import build_grid

_MAGIC_FILE = b"NanoVDB0"
_MAGIC_GRID = (b"NanoVDB0", b"NanoVDB1")
_CODEC_NONE, _CODEC_ZIP, _CODEC_BLOSC = 0, 1, 2
_META_SIZE = 176
_GRID_TYPES = {1: "float", 2: "double", 4: "int32", 5: "int64", 6: "Vec3f", 19: "index", 20: "onindex"}

GridInfo = namedtuple(
    "GridInfo",
    ["name", "size_in_bytes", "grid_index", "grid_count", "type_str", "translation",
     "transform_matrix"],
)


def _grids_of_file(data):
    """The raw grid buffers of a NanoVDB file (bytes), decompressing ZIP-coded grids."""
    version, grid_count, codec = struct.unpack_from("<IHH", data, 8)
    del version
    offset = 16
    metas = []
    for _ in range(grid_count):
        grid_size, file_size = struct.unpack_from("<QQ", data, offset)
        name_size = struct.unpack_from("<I", data, offset + 136)[0]
        metas.append((grid_size, file_size))
        offset += _META_SIZE + name_size
    grids = []
    for grid_size, file_size in metas:
        block = data[offset : offset + file_size]
        offset += file_size
        if codec == _CODEC_NONE:
            grids.append(bytes(block))
        elif codec == _CODEC_ZIP:
            n = struct.unpack_from("<Q", block, 0)[0]
            grid = zlib.decompress(block[8 : 8 + n])
            if len(grid) != grid_size:
                raise RuntimeError("NanoVDB file is corrupt: a grid decompresses to the wrong size")
            grids.append(grid)
        elif codec == _CODEC_BLOSC:
            raise RuntimeError("NanoVDB files compressed with Blosc are not supported")
        else:
            raise RuntimeError(f"NanoVDB file uses an unknown codec ({codec})")
    return grids


class Volume:
    """A NanoVDB grid on a device; kernels read it through its ``id``."""

    CLOSEST = 0
    LINEAR = 1

    def __init__(self, data: array, copy: bool = True):
        """A volume over ``data``, a uint8 array holding one NanoVDB grid buffer."""
        self.id = 0
        if data is None or data.dtype != uint8:
            raise RuntimeError("Only uint8 arrays are supported as volume data")
        self.device = data.device
        self._host = np.ascontiguousarray(data.numpy())
        if self._host.size < 736 or bytes(self._host[:8]) not in _MAGIC_GRID:
            raise RuntimeError("Invalid NanoVDB grid buffer: the magic number is wrong")
        self.buf = array(self._host, dtype=uint8, device=self.device) if copy else data
        self.id = self.buf.ptr

    @classmethod
    def load_from_nvdb(cls, file_or_buffer, device=None):
        """The first grid of a NanoVDB file (a path, a file object or bytes) or raw buffer."""
        if isinstance(file_or_buffer, str):
            with open(file_or_buffer, "rb") as f:
                data = f.read()
        elif hasattr(file_or_buffer, "read"):
            data = file_or_buffer.read()
        elif isinstance(file_or_buffer, np.ndarray):
            data = file_or_buffer.tobytes()
        else:
            data = bytes(file_or_buffer)
        if len(data) < 16:
            raise RuntimeError("NanoVDB signature not found")
        magic = data[:8]
        if magic in _MAGIC_GRID and len(data) >= 736 and struct.unpack_from("<Q", data, 32)[0] == len(data):
            grids = [data]
        elif magic == _MAGIC_FILE:
            grids = _grids_of_file(data)
        else:
            raise RuntimeError("NanoVDB signature not found")
        if not grids:
            raise RuntimeError("NanoVDB file holds no grid")
        host = np.frombuffer(grids[0], dtype=np.uint8).copy()
        device = get_device(device)
        return cls(array(host, dtype=uint8, device=device), copy=False)

    @classmethod
    def load_from_numpy(cls, ndarray, min_world=(0.0, 0.0, 0.0), voxel_size=1.0, bg_value=0.0,
                        device=None):
        """A volume holding a dense 3-D array (scalars, or 3-vectors in a last axis of 3): voxel
        (i, j, k) holds ndarray[i, j, k] at world point min_world + voxel_size * (i, j, k)."""
        grid = build_grid(np.asarray(ndarray), min_world, voxel_size, bg_value)
        host = np.frombuffer(grid, dtype=np.uint8).copy()
        return cls(array(host, dtype=uint8, device=get_device(device)), copy=False)

    def _u32(self, offset):
        return int(struct.unpack_from("<I", self._host, offset)[0])

    def get_grid_info(self):
        """The grid's name, size, index, count, type and map (Warp's GridInfo)."""
        h = self._host
        name = bytes(h[40:296]).split(b"\0", 1)[0].decode()
        mat = np.frombuffer(h[296:332].tobytes(), dtype=np.float32).reshape(3, 3)
        vec = np.frombuffer(h[368:380].tobytes(), dtype=np.float32)
        return GridInfo(
            name,
            int(struct.unpack_from("<Q", h, 32)[0]),
            self._u32(24),
            self._u32(28),
            _GRID_TYPES.get(self._u32(636), "unknown"),
            vec.copy(),
            mat.copy(),
        )

    def get_voxel_size(self):
        """The voxel size (x, y, z) in world units."""
        return tuple(float(v) for v in struct.unpack_from("<3d", self._host, 608))

    def get_voxel_count(self):
        """The number of active voxels."""
        return int(struct.unpack_from("<Q", self._host, 672 + 56)[0])

    def array(self):
        """The grid buffer as a uint8 array."""
        return self.buf
