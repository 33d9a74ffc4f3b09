"""wp.Volume: sparse NanoVDB grids (Warp 1.17's class) read by the volume builtins.

A volume holds a NanoVDB grid buffer in a uint8 array on its device (the grids of one file back
to back; a volume is the first of them and ``load_next_grid`` gives the next); its ``id`` is the
buffer's address, which kernels pass to ``volume_lookup``, ``volume_sample`` and the other
volume builtins (native/treadle/volume.h). Files and headers: volume_nvdb.py; grids built from
numpy arrays, tiles or voxels: volume_build.py."""

import math
import numbers
import struct
from collections import namedtuple

import numpy as np

from . import volume_nvdb as nvdb
from .array import array
from .context import get_device
from .scalar_types import float32, float64, int32, int64, uint8, uint32
from .vec_types import vec3d, vec3f, vec4d, vec4f
from .volume_build import build_from_dense, build_from_leaves
from .volume_topology import (NOT_REBUILDABLE, REBUILD_INVALID_INPUT, REBUILD_LEAF_CAPACITY_EXCEEDED,
                              REBUILD_LOWER_CAPACITY_EXCEEDED, REBUILD_SUCCESS,
                              REBUILD_UPPER_CAPACITY_EXCEEDED, REBUILD_VOXEL_CAPACITY_EXCEEDED,
                              ActiveStats, RebuildInfo, Topology, host_points, limits_of,
                              write_status)

GridInfo = namedtuple(
    "GridInfo",
    ["name", "size_in_bytes", "grid_index", "grid_count", "type_str", "translation",
     "transform_matrix"],
)
FeatureArrayInfo = namedtuple("FeatureArrayInfo", ["name", "ptr", "value_size", "value_count", "type_str"])

_DTYPES = {1: float32, 2: float64, 4: int32, 5: int64, 6: vec3f, 7: vec3d, 10: uint32, 17: vec4f,
           18: vec4d}


def voxel_size_of(voxel_size):
    """Three positive finite voxel sizes from a number or a sequence of three (TypeError for
    anything else, ValueError for a wrong count or value)."""
    if isinstance(voxel_size, (str, bytes)) or voxel_size is None:
        raise TypeError(f"voxel_size must be a number or a sequence of three numbers, got {voxel_size!r}")
    if isinstance(voxel_size, numbers.Real) or np.isscalar(voxel_size):
        sizes = [voxel_size] * 3
    else:
        try:
            sizes = list(voxel_size)
        except TypeError as err:
            raise TypeError(f"voxel_size must be a number or a sequence of three numbers, got {voxel_size!r}") from err
        if len(sizes) != 3:
            raise ValueError(f"voxel_size must have 3 elements, got {len(sizes)}")
    try:
        sizes = [float(s) for s in sizes]
    except (TypeError, ValueError) as err:
        raise TypeError(f"voxel_size must hold numbers, got {voxel_size!r}") from err
    if any(not math.isfinite(s) or s <= 0.0 for s in sizes):
        raise ValueError(f"voxel_size must be positive and finite, got {voxel_size!r}")
    return sizes


def _space(voxel_size, translation, transform):
    """(index-to-world matrix, translation) of a volume allocated by tiles or voxels."""
    if transform is not None:
        mat = np.asarray(transform, dtype=np.float64).reshape(3, 3)
    else:
        mat = np.diag(voxel_size_of(voxel_size))
    return mat, np.asarray(translation, dtype=np.float64).reshape(3)


def _grid_of(topo, points, point_mask):
    """(grid bytes, REBUILD_* flags) of a tile or voxel topology over `points`."""
    origins, active, flags = topo.select(host_points(points, point_mask))
    grid = build_from_leaves(origins, active, topo.value_kind, topo.bg, topo.space[0],
                             topo.space[1], topo.capacity_bytes())
    return grid, flags


class Volume:
    """A NanoVDB grid on a device; kernels read it through its ``id``."""

    CLOSEST = 0
    LINEAR = 1
    __treadle_namespace__ = True  # kernels read wp.Volume.CLOSEST and wp.Volume.LINEAR
    GridInfo = GridInfo
    FeatureArrayInfo = FeatureArrayInfo
    RebuildInfo = RebuildInfo
    ActiveStats = ActiveStats
    REBUILD_SUCCESS = REBUILD_SUCCESS
    REBUILD_LEAF_CAPACITY_EXCEEDED = REBUILD_LEAF_CAPACITY_EXCEEDED
    REBUILD_LOWER_CAPACITY_EXCEEDED = REBUILD_LOWER_CAPACITY_EXCEEDED
    REBUILD_UPPER_CAPACITY_EXCEEDED = REBUILD_UPPER_CAPACITY_EXCEEDED
    REBUILD_VOXEL_CAPACITY_EXCEEDED = REBUILD_VOXEL_CAPACITY_EXCEEDED
    REBUILD_INVALID_INPUT = REBUILD_INVALID_INPUT

    def __init__(self, data: array, copy: bool = True):
        """A volume over ``data``, a uint8 array holding NanoVDB grid buffers."""
        self.id = 0
        if data is None or data.dtype != uint8:
            raise RuntimeError("Only uint8 arrays are supported as volume data")
        self.device = data.device
        self._host = np.ascontiguousarray(data.numpy())
        if self._host.size < 736 or bytes(self._host[:8]) not in nvdb.MAGIC_GRID:
            raise RuntimeError("Invalid NanoVDB grid buffer: the magic number is wrong")
        self.buf = array(self._host, dtype=uint8, device=self.device) if copy else data
        self.buf.deleter = None  # as Warp reports a volume's buffer: the volume frees it
        self.id = self.buf.ptr
        self._previous_grid = None
        self._topology = None  # how allocate_by_tiles / allocate_by_voxels built it

    def __del__(self):
        self.id = 0

    @classmethod
    def load_from_nvdb(cls, file_or_buffer, device=None):
        """The grids of a NanoVDB file (a path, a file object or bytes) or raw grid buffer."""
        if isinstance(file_or_buffer, str):
            with open(file_or_buffer, "rb") as f:
                data = f.read()
        elif hasattr(file_or_buffer, "read"):
            data = file_or_buffer.read()
        elif isinstance(file_or_buffer, np.ndarray):
            data = file_or_buffer.tobytes()
        else:
            data = bytes(file_or_buffer)
        host = np.frombuffer(nvdb.buffer_of(data), dtype=np.uint8).copy()
        return cls(array(host, dtype=uint8, device=get_device(device)), copy=False)

    @classmethod
    def load_from_numpy(cls, ndarray, min_world=(0.0, 0.0, 0.0), voxel_size=1.0, bg_value=0.0,
                        device=None):
        """A volume holding a dense 3-D array (scalars, or 3-vectors in a last axis of 3): voxel
        (i, j, k) holds ndarray[i, j, k] at world point min_world + voxel_size * (i, j, k)."""
        sizes = voxel_size_of(voxel_size)
        grid = build_from_dense(np.asarray(ndarray), min_world, sizes, bg_value)
        return cls._of_bytes(grid, device)

    @classmethod
    def _of_bytes(cls, grid, device):
        host = np.frombuffer(grid, dtype=np.uint8).copy()
        return cls(array(host, dtype=uint8, device=get_device(device)), copy=False)

    @classmethod
    def allocate(cls, min, max, voxel_size, bg_value=0.0, translation=(0.0, 0.0, 0.0),
                 points_in_world_space=False, device=None):
        """A volume with every leaf covering the box [min, max] allocated (index space, or
        world space with points_in_world_space), each voxel holding bg_value."""
        sizes = voxel_size_of(voxel_size)
        lo, hi = np.asarray(min, dtype=np.float64), np.asarray(max, dtype=np.float64)
        if points_in_world_space:
            t = np.asarray(translation, dtype=np.float64)
            lo, hi = (lo - t) / sizes, (hi - t) / sizes
        lo = np.floor(lo).astype(np.int64) // 8
        hi = np.floor(hi).astype(np.int64) // 8
        axes = [np.arange(lo[a], hi[a] + 1) * 8 for a in range(3)]
        tiles = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)
        return cls.allocate_by_tiles(tiles.astype(np.int32), sizes, bg_value, translation, device)

    @classmethod
    def allocate_by_tiles(cls, tile_points, voxel_size=1.0, bg_value=0.0,
                          translation=(0.0, 0.0, 0.0), device=None, transform=None,
                          rebuildable=False, max_tiles=None, max_lower_nodes=None,
                          max_upper_nodes=None, status=None, point_mask=None):
        """A volume whose leaves are those holding the given points (integer index-space
        points, or world-space float points), each voxel active and holding bg_value (None: an
        OnIndex grid). Rebuildable volumes reserve max_tiles leaves and the node counts given."""
        limits = (limits_of("tiles", None, max_tiles, max_lower_nodes, max_upper_nodes)
                  if rebuildable else None)
        topo = Topology("tiles", bg_value, _space(voxel_size, translation, transform), limits)
        return cls._allocate(topo, tile_points, point_mask, status, device)

    @classmethod
    def allocate_by_voxels(cls, voxel_points, voxel_size=1.0, translation=(0.0, 0.0, 0.0),
                           device=None, transform=None, rebuildable=False,
                           max_active_voxels=None, max_leaf_nodes=None, max_lower_nodes=None,
                           max_upper_nodes=None, status=None, point_mask=None):
        """An index volume (OnIndex) whose active voxels are the given points (integer
        index-space points, or world-space float points rounded to the nearest voxel)."""
        limits = (limits_of("voxels", max_active_voxels, max_leaf_nodes, max_lower_nodes,
                            max_upper_nodes) if rebuildable else None)
        topo = Topology("voxels", None, _space(voxel_size, translation, transform), limits)
        return cls._allocate(topo, voxel_points, point_mask, status, device)

    @classmethod
    def _allocate(cls, topo, points, point_mask, status, device):
        grid, flags = _grid_of(topo, points, point_mask)
        vol = cls._of_bytes(grid, device if device is not None else getattr(points, "device", None))
        vol._topology = topo
        write_status(status, flags)
        return vol

    def rebuild(self, points, status=None, point_mask=None):
        """Replaces the topology of a rebuildable volume by the one of `points` (tiles or voxels,
        as it was allocated), in place: the id and the grid's size stay."""
        if self._topology is None or self._topology.limits is None:
            raise RuntimeError("This volume is not rebuildable (allocate it with rebuildable=True)")
        grid, flags = _grid_of(self._topology, points, point_mask)
        host = np.frombuffer(grid, dtype=np.uint8).copy()
        self.buf.assign(array(host, dtype=uint8, device=self.device))
        self._host = host
        write_status(status, flags)

    @property
    def is_rebuildable(self):
        """Whether rebuild() may replace the volume's topology."""
        return self._topology is not None and self._topology.limits is not None

    def get_rebuild_info(self):
        """The rebuild kind ("tiles", "voxels" or None) and the capacity reserved."""
        return NOT_REBUILDABLE if self._topology is None else self._topology.rebuild_info()

    def get_active_stats(self):
        """Active voxel, leaf, lower and upper node counts of the current topology."""
        counts = struct.unpack_from("<3IQ", self._host, nvdb.GRID_HEADER + 32)
        voxels = struct.unpack_from("<Q", self._host, nvdb.GRID_HEADER + 56)[0]
        return ActiveStats(int(voxels), int(counts[0]), int(counts[1]), int(counts[2]))

    def get_grid_info(self):
        """The grid's name, size, index, count, type and map (Warp's GridInfo)."""
        h = self._host
        name = bytes(h[40:296]).split(b"\0", 1)[0].decode()
        mat = np.frombuffer(h[296:332].tobytes(), dtype=np.float32).reshape(3, 3)
        vec = np.frombuffer(h[368:380].tobytes(), dtype=np.float32)
        index, count = nvdb.grid_index_count(h)
        return GridInfo(name, nvdb.grid_size(h), int(index), int(count),
                        nvdb.GRID_TYPES.get(nvdb.grid_type(h), "unknown"), vec.copy(), mat.copy())

    @property
    def dtype(self):
        """The value type of the grid (None for index grids)."""
        return _DTYPES.get(nvdb.grid_type(self._host))

    @property
    def is_index(self):
        """Whether this is an index grid (Index or OnIndex)."""
        return nvdb.grid_type(self._host) in nvdb.INDEX_GRIDS

    def get_voxel_size(self):
        """The voxel size (x, y, z) in world units."""
        return tuple(float(v) for v in struct.unpack_from("<3d", self._host, 608))

    def get_tile_count(self):
        """The number of leaves (8^3 tiles)."""
        return int(struct.unpack_from("<I", self._host, nvdb.GRID_HEADER + 32)[0])

    def get_voxel_count(self):
        """The number of indexable voxels (OnIndex grids: active ones; others: 512 per leaf;
        rebuildable volumes: their capacity)."""
        if self.is_rebuildable:
            return self._topology.limits[0]
        return nvdb.voxel_count(self._host)

    def get_tiles(self, out=None):
        """The origins of the leaves, an (n, 3) int32 array on the volume's device."""
        return self._to_device(nvdb.leaf_origins(self._host)[0], out)

    def get_voxels(self, out=None):
        """The indexable voxels in index order, an (n, 3) int32 array on the volume's device."""
        return self._to_device(nvdb.voxels(self._host), out)

    def _to_device(self, values, out):
        values = np.ascontiguousarray(values, dtype=np.int32).reshape(-1, 3)
        if out is None:
            return array(values, dtype=int32, device=self.device)
        if out.device != self.device or out.shape[0] < len(values):
            raise RuntimeError(
                f"'out' array must an array with at least {len(values)} rows on device {self.device}")
        host = out.numpy().reshape(-1, 3).copy()  # rows past the count keep their values
        host[: len(values)] = values
        out.assign(array(host.reshape(out.numpy().shape), dtype=out.dtype, device=self.device))
        return out

    def get_feature_array_count(self):
        """The number of blind-data arrays of the grid."""
        return len(nvdb.blind_data(self._host))

    def get_feature_array_info(self, feature_index):
        """Name, address, value size and count and type of blind-data array feature_index."""
        at, count, vsize, _sem, _cls, dtype, name = self._blind(feature_index)
        return FeatureArrayInfo(name, self.id + at, vsize, count, str(dtype))

    def _blind(self, feature_index):
        blind = nvdb.blind_data(self._host)
        if not 0 <= feature_index < len(blind):
            raise RuntimeError(f"Invalid feature index {feature_index}")
        return blind[feature_index]

    def feature_array(self, feature_index, dtype=None):
        """Blind-data array feature_index as an array of dtype (uint8 when not given) that
        aliases the grid buffer on the volume's device."""
        at, count, vsize, *_ = self._blind(feature_index)
        dtype = uint8 if dtype is None else dtype
        elem = int(np.dtype(array(np.zeros(0), dtype=dtype).numpy().dtype).itemsize)
        if elem == 0 or (count * vsize) % elem:
            raise RuntimeError("The feature array's size is not a multiple of the requested type's")
        a = array(ptr=self.id + at, dtype=dtype, shape=((count * vsize) // elem,), device=self.device)
        a._volume = self  # the buffer outlives the view
        return a

    def array(self):
        """The grid buffer (this grid and the ones after it) as a uint8 array."""
        return self.buf

    def load_next_grid(self):
        """A volume over the next grid of this buffer, or None after the last."""
        info = self.get_grid_info()
        if info.grid_index + 1 >= info.grid_count or self.buf.shape[0] <= info.size_in_bytes:
            return None
        n = self.buf.shape[0] - info.size_in_bytes
        data = array(ptr=self.id + info.size_in_bytes, dtype=uint8, shape=(n,), device=self.device)
        v = Volume(data, copy=False)
        v._previous_grid = self
        return v

    def save_to_nvdb(self, path, codec="none"):
        """Writes this volume's grids to a NanoVDB file (codec "none", "zip" or "blosc")."""
        return nvdb.write_file(path, self.buf.numpy(), codec)  # with the values kernels stored
