"""wp.HashGrid: a uniform grid of hashed cells over a point set for neighbour queries (Warp
1.17's class). The arrays are allocated here (so the memory tracker names them); a build is
treadle::build_hash_grid (include/treadle/hash_grid.h), kernels on the points' device: every
point's cell ``floor(p / radius)`` of the infinite lattice wrapped modulo the grid's
dimensions, the device sort of the (cell, point index) pairs, each cell's [start, end) range,
and the descriptor (native/treadle/hash_grid.h: hash_grid_t) the grid's id addresses, written
in place, so an id stays valid for the grid's life."""



from . import _treadle
from . import cpu_capture as _cpu_capture
from . import memory_tracker as _memory_tracker
from . import types as _types
from .array import array, empty, zeros
from .context import get_device

_MAX_CELLS = 2**31 - 1
_DESC_WORDS = 8  # hash_grid_t: a double, four pointers, four int32


def _on_device(device, work):
    """Runs `work` (launches of treadle's own kernels) now, or on the CPU during a capture of
    it records it as a step of the graph (CUDA captures record the launches themselves)."""
    if device.is_cpu:
        _cpu_capture.record_or_run(work)
    else:
        work()


_VEC3 = {"float16": "vec3h", "float32": "vec3f", "float64": "vec3d"}


def _scalar_name(dtype):
    return getattr(dtype, "__name__", str(dtype))


class HashGrid:
    """A hash grid of ``dim_x * dim_y * dim_z`` cells over points of `dtype` (float16, float32
    or float64 coordinates; the points given to build() are vec3 of it)."""

    def __init__(self, dim_x, dim_y, dim_z, device=None, dtype=float):
        self.id = 0
        self._desc = None
        if dtype is float:
            dtype = _types.float32
        name = _scalar_name(dtype)
        if name not in _VEC3:
            raise TypeError(f"HashGrid dtype must be float16, float32 or float64, got {name}")
        dims = []
        for d in (dim_x, dim_y, dim_z):
            if int(d) != d or int(d) <= 0:
                raise ValueError(f"HashGrid dimensions must be positive integers, got "
                                 f"({dim_x}, {dim_y}, {dim_z})")
            dims.append(int(d))
        if dims[0] * dims[1] * dims[2] > _MAX_CELLS:
            raise RuntimeError(
                f"HashGrid cell count exceeds supported limit: {dims[0]} * {dims[1]} * "
                f"{dims[2]} cells, at most {_MAX_CELLS}")
        self.dtype = dtype
        self.device = get_device(device)
        self.dim_x, self.dim_y, self.dim_z = dims
        self.reserved = False
        self._capacity = 0
        self._with_groups = False
        cells = dims[0] * dims[1] * dims[2]
        with _memory_tracker.native_allocations("hashgrid"):
            self.cell_starts = zeros(cells, dtype=int, device=self.device)
            self.cell_ends = zeros(cells, dtype=int, device=self.device)
            self._desc = zeros(_DESC_WORDS, dtype=_types.int64, device=self.device)
        self._keys = self._values = self._groups = None
        self._num_points = 0
        self._radius = 0.0
        self.id = self._desc.ptr
        args = (self.cell_starts, self.cell_ends, self._desc,
                (self.dim_x, self.dim_y, self.dim_z))
        _on_device(self.device, lambda: _treadle.reset_hash_grid(*args))

    def __del__(self):
        self._desc = None

    def reserve(self, num_points, with_groups=False):
        """Allocates the sort buffers for `num_points` points (and their groups), so that later
        builds of at most that many points allocate nothing. Not during a graph capture, where
        it would allocate: reserve before the capture, with the largest point count."""
        num_points = int(num_points)
        if self._grows(num_points, with_groups) and self.device.is_capturing:
            raise NotImplementedError(
                f"HashGrid.reserve({num_points}) would allocate during a graph capture on "
                f"{self.device}; call reserve before capture with the largest point count")
        self._reserve(num_points, with_groups)

    def _grows(self, num_points, with_groups):
        return num_points > self._capacity or (
            with_groups and (self._groups is None or self._groups.size < max(num_points,
                                                                              self._capacity)))

    def _reserve(self, num_points, with_groups):
        with _memory_tracker.native_allocations("hashgrid"):
            self._allocate(num_points, with_groups)

    def _allocate(self, num_points, with_groups):
        if num_points > self._capacity:
            self._keys = empty(2 * num_points, dtype=int, device=self.device)
            self._values = empty(2 * num_points, dtype=int, device=self.device)
            self._capacity = num_points
            self._groups = None
        if with_groups and (self._groups is None or self._groups.size < self._capacity):
            self._groups = empty(self._capacity, dtype=int, device=self.device)
        self.reserved = True

    def build(self, points, radius, groups=None):
        """Sorts `points` (an array of vec3 of the grid's dtype, any shape or strides) into the
        grid's cells of width `radius`; with `groups` (int32 per point), queries given a group
        see only that group's points."""
        if not isinstance(points, array):
            raise TypeError(f"HashGrid.build() expects a warp array of points, got "
                            f"{type(points).__name__}")
        if get_device(points.device) != self.device:
            raise RuntimeError(f"HashGrid points must live on the same device as the grid "
                               f"({self.device}), got {points.device}")
        want = _VEC3[_scalar_name(self.dtype)]
        got = getattr(points.dtype, "__name__", str(points.dtype))
        if got != want and not (want == "vec3f" and got == "vec3"):
            raise TypeError(f"HashGrid of dtype {_scalar_name(self.dtype)} expects points of "
                            f"type {want}, got {got}")
        radius = float(radius)
        if not radius > 0.0:
            raise ValueError(f"HashGrid.build() radius must be positive, got {radius}")
        if groups is not None:
            if not isinstance(groups, array):
                raise TypeError("HashGrid.build() expects groups as a warp array of int32")
            if get_device(groups.device) != self.device:
                raise RuntimeError(f"HashGrid groups must live on the same device as the grid "
                                   f"({self.device}), got {groups.device}")
            if groups.size != points.size:
                raise ValueError(f"HashGrid.build() needs one group per point: {points.size} "
                                 f"points, {groups.size} groups")
        if points.ndim != 1:
            points = points.flatten() if points.is_contiguous else points.contiguous().flatten()
        n = points.shape[0]
        self._reserve(max(n, 1), groups is not None or self._with_groups)
        self._num_points = n
        self._radius = radius
        self._with_groups = groups is not None
        g = None
        if groups is not None:
            g = groups if groups.ndim == 1 and groups.is_contiguous else \
                groups.contiguous().flatten()
        # the cells, the sort, the ranges and the descriptor: by kernels, which a CUDA graph
        # captures; a CPU capture records the build as one step
        args = (self.cell_starts, self.cell_ends, self._desc, self._keys, self._values,
                self._groups if g is not None else None, (self.dim_x, self.dim_y, self.dim_z),
                points, radius, g)
        _on_device(self.device, lambda: _treadle.build_hash_grid(*args))
