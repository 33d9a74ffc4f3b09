"""wp.Mesh: a triangle mesh with a BVH over its faces (Warp 1.17's class), over treadle::Mesh
(include/treadle/mesh.h); kernels take ``mesh.id`` as a uint64 and query it with the mesh_*
builtins (closest points, rays, boxes, spheres, evaluation).

On the CPU the mesh borrows the points, indices and velocities arrays it was given (they stay
alive with it; writing to ``mesh.points`` and calling ``refit()`` moves the mesh). On a CUDA
device kernels read the arrays given. The face BVH is built on the host from copies of the
points and indices (the default "sah", "median", grouped meshes, winding-number support) and
copied to the device, or with bvh_constructor="lbvh" built on the device (src/api/bvh_lbvh.h).
refit() runs on the device (src/api/bvh_refit.h), except that a mesh with winding-number
support computes its moments on the host from a copy of the points."""

import numpy as np

from . import memory_tracker as _memory_tracker
from . import runtime_core as _runtime_core
from .bvh import constructor_name
from .types import int32, vec3


def _check(array, dtype, what):
    if array.dtype != dtype:
        name = getattr(dtype, "__name__", str(dtype))
        raise RuntimeError(f"Mesh {what} should be a Warp array of type wp.{name}")
    if array.ndim != 1:
        raise RuntimeError(f"Mesh {what} should be a one-dimensional array, got {array.ndim} "
                           f"dimensions")
    if not array.is_contiguous:
        raise RuntimeError(f"Mesh {what} should be a contiguous array")


class Mesh:
    """A triangle mesh over `points` (wp.vec3) and `indices` (int32, three per face), with
    optional per-point `velocities`; `groups` (int32 per face) lets ray queries be confined to a
    group (mesh_get_group_root); `support_winding_number` keeps what
    mesh_query_point_sign_winding_number needs."""

    def __init__(self, points, indices, velocities=None, support_winding_number=False,
                 bvh_constructor=None, bvh_leaf_size=None, groups=None):
        self._native = None
        self.id = 0
        self.runtime = _runtime_core.runtime
        if points.device != indices.device:
            raise RuntimeError("Mesh points and indices must live on the same device")
        _check(points, vec3, "points")
        _check(indices, int32, "indices")
        if velocities is not None:
            if velocities.device != points.device:
                raise RuntimeError("Mesh velocities must live on the same device as its points")
            _check(velocities, vec3, "velocities")
            if len(velocities) != len(points):
                raise RuntimeError("Mesh velocities must have one entry per point")
        if groups is not None:
            if groups.device != points.device:
                raise RuntimeError("Mesh groups must live on the same device as its points")
            _check(groups, int32, "groups")
        self.device = points.device
        # sah by default on every device: the host build's trees answer rays and closest
        # points fastest ("lbvh" on CUDA builds on the device, much faster to build)
        constructor = constructor_name("sah" if bvh_constructor is None else bvh_constructor,
                                       self.device, groups is not None)
        if support_winding_number and str(getattr(bvh_constructor, "name", bvh_constructor)
                                           ).lower() == "cubql":
            raise RuntimeError("Winding number support is not available with the cubql "
                               "constructor")
        leaf = 4 if bvh_leaf_size is None else int(bvh_leaf_size)
        if leaf < 1:
            raise ValueError(f"bvh_leaf_size must be at least 1, got {bvh_leaf_size}")
        self._points, self._velocities, self.indices, self.groups = (points, velocities,
                                                                     indices, groups)
        self.support_winding_number = bool(support_winding_number)
        self.bvh_constructor = constructor
        host_groups = None
        if groups is not None:
            host_groups = np.ascontiguousarray(groups.numpy(), dtype=np.int32).reshape(-1)
        core = self.runtime.core
        if self.device.is_cuda:
            v = velocities.ptr if velocities is not None else 0
            native = core.wp_mesh_create_device(self.device.alias, points.ptr, len(points),
                                                indices.ptr, len(indices), v,
                                                self.support_winding_number, constructor,
                                                host_groups, leaf)
        else:
            native = core.wp_mesh_create_host(points.ptr, len(points), indices.ptr, len(indices),
                                              velocities.ptr if velocities is not None else 0,
                                              self.support_winding_number, constructor,
                                              host_groups, leaf)
        if not native:
            raise RuntimeError(f"Failed to create mesh: {self.runtime.get_error_string()}")
        self._native = native
        self.id = self._native.id
        _runtime_core.register_mesh(self)
        if _memory_tracker.is_enabled():
            nbytes = 32 * self._native.num_nodes + 28 * (len(indices) // 3)
            _memory_tracker.note_allocation(self, nbytes, self.device, "mesh bvh",
                                            native="mesh")

    def __del__(self):
        self._native = None

    def _bind(self):
        """Names the current device arrays in the mesh's CUDA descriptor."""
        v = self._velocities
        self._native.bind_device(self.device.alias, self._points.ptr, self.indices.ptr,
                                 v.ptr if v is not None else 0)

    @property
    def points(self):
        """The mesh's points (wp.vec3 array). Assigning another array of the same length
        makes it the mesh's points and refits."""
        return self._points

    @points.setter
    def points(self, points):
        _check(points, vec3, "points")
        if len(points) != len(self._points):
            raise RuntimeError(f"Mesh points can only be replaced by an array of the same length "
                               f"({len(self._points)}), got {len(points)}")
        core = self.runtime.core
        setter = core.wp_mesh_set_points_host if self.device.is_cpu else \
            core.wp_mesh_set_points_device
        if not setter(self.id, points):
            raise RuntimeError(f"Failed to set mesh points: {self.runtime.get_error_string()}")

    def _set_points_now(self, points):
        """Makes `points` the mesh's points and refits (through runtime.core)."""
        if points.device != self.device:
            raise RuntimeError(f"Mesh points must live on the mesh's device ({self.device}), got "
                               f"{points.device}")
        self._points = points
        if self.device.is_cuda:
            self._bind()
            self._native.refit()
        else:
            self._native.set_points(points.ptr, len(points))

    @property
    def velocities(self):
        """The mesh's per-point velocities (wp.vec3 array), or None."""
        return self._velocities

    @velocities.setter
    def velocities(self, velocities):
        if velocities is not None:
            _check(velocities, vec3, "velocities")
            if velocities.device != self.device or len(velocities) != len(self._points):
                raise RuntimeError("Mesh velocities must be one per point, on the mesh's device")
        self._velocities = velocities
        if self.device.is_cuda:
            self._bind()
            return
        self._native.set_velocities(velocities.ptr if velocities is not None else 0,
                                    len(self._points) if velocities is not None else 0)

    def refit(self):
        """Updates the BVH (and winding-number data) after the points moved; the tree's shape
        is kept."""
        core = self.runtime.core
        refit = core.wp_mesh_refit_host if self.device.is_cpu else core.wp_mesh_refit_device
        if not refit(self.id):
            raise RuntimeError(f"Failed to refit mesh: {self.runtime.get_error_string()}")

    def _refit_now(self):
        self._native.refit()
