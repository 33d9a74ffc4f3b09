"""wp.Bvh: bounding volume hierarchies of boxes (Warp 1.17's class), over treadle::Bvh
(include/treadle/bvh.h); kernels take ``bvh.id`` as a uint64 and query it with
wp.bvh_query_aabb, _ray, _sphere, _capsule and wp.bvh_query_next.

On the CPU every constructor builds on the host ("sah", the default: binned surface-area
heuristic; "median"; "lbvh": Morton order). On a CUDA device "lbvh" (the default there, as in
Warp) builds on the device without reading anything back (src/api/bvh_lbvh.h); "sah",
"median" and grouped BVHs build on the host from copies of the boxes and are copied to the
device. Refits run on the device (src/api/bvh_refit.h), and ``id`` names the device copy, so
kernels query it on the arrays' device only. "cubql" (an external CUDA builder) is not part of treadle: it falls back to "lbvh" on
CUDA and "sah" on the CPU, with a warning."""

import numpy as np

from . import _treadle
from . import memory_tracker as _memory_tracker
from .logger import log_warning
from .types import int32, vec3

_CONSTRUCTORS = ("sah", "median", "lbvh", "cubql")


def _check_boxes(array, name):
    if array.dtype != vec3 or not array.is_contiguous:
        raise RuntimeError(f"{name} should be a contiguous array of type wp.vec3")


def _host(array):
    return np.ascontiguousarray(array.numpy(), dtype=np.float32).reshape(-1, 3)


def constructor_name(constructor, device, grouped):
    """The host build a `constructor=` value stands for on `device`."""
    if constructor is None:
        return "lbvh" if device.is_cuda else "sah"
    name = str(getattr(constructor, "name", constructor)).lower()
    if name not in _CONSTRUCTORS:
        raise ValueError(f"Unknown BVH constructor '{constructor}', expected one of: "
                         + ", ".join(_CONSTRUCTORS))
    if name == "cubql":
        if grouped:
            raise RuntimeError("Grouped BVHs are not supported by the cubql constructor; use "
                               "'sah', 'median' or 'lbvh'")
        fallback = "lbvh" if device.is_cuda else "sah"
        log_warning(f"The cubql constructor is not available in treadle; building with "
                    f"'{fallback}' instead.", stacklevel=4)
        return fallback
    return name


class Bvh:
    """A BVH over the boxes [lowers[i], uppers[i]] (wp.vec3 arrays of one device). `groups`
    (int32 per box) builds one subtree per group, whose root wp.bvh_get_group_root gives;
    leaves hold at most `leaf_size` boxes."""

    def __init__(self, lowers, uppers, constructor=None, groups=None, leaf_size=1):
        self._native = None
        self.id = 0
        if len(lowers) != len(uppers):
            raise RuntimeError("The same number of lower and upper bounds must be provided")
        if lowers.device != uppers.device:
            raise RuntimeError("Lower and upper bounds must live on the same device")
        _check_boxes(lowers, "lowers")
        _check_boxes(uppers, "uppers")
        if groups is not None:
            if groups.dtype != int32 or not groups.is_contiguous:
                raise RuntimeError("groups should be a contiguous array of type wp.int32")
            if groups.device != lowers.device:
                raise RuntimeError("groups must live on the same device as lowers/uppers")
            if len(groups) != len(lowers):
                raise RuntimeError("groups must have the same length as lowers/uppers")
        if leaf_size < 1:
            raise ValueError(
                f"leaf_size must be greater than or equal to 1, current value: {leaf_size}")
        self.device = lowers.device
        self.lowers, self.uppers, self.groups = lowers, uppers, groups
        self.leaf_size = int(leaf_size)
        self.constructor = constructor_name(constructor, self.device, groups is not None)
        self._build()

    def __del__(self):
        self._native = None

    def _build(self):
        host_groups = None
        if self.groups is not None:
            host_groups = np.ascontiguousarray(self.groups.numpy(), dtype=np.int32).reshape(-1)
        if self.device.is_cuda:
            # lbvh without groups builds on the device; the others copy the boxes to the host
            self._native = _treadle.Bvh.from_device(
                self.lowers.ptr, self.uppers.ptr, len(self.lowers), self.constructor,
                host_groups, self.leaf_size, self.device.alias)
        else:
            self._native = _treadle.Bvh(_host(self.lowers), _host(self.uppers), self.constructor,
                                        host_groups, self.leaf_size, self.device.alias)
        self.id = self._native.id
        if _memory_tracker.is_enabled():
            # nodes (32 bytes), item indices and boxes, group roots: what the build holds
            n = len(self.lowers)
            groups = 0 if self.groups is None else len(self.groups)
            nbytes = 32 * self._native.num_nodes + 28 * n + 4 * groups
            _memory_tracker.note_allocation(self, nbytes, self.device, "bvh",
                                            native="bvh")

    def refit(self):
        """Recomputes the node boxes from the current contents of lowers and uppers, keeping
        the tree's shape (on a CUDA device by kernels there, so a graph can capture it)."""
        if self.device.is_cuda:
            self._native.refit_device(self.lowers.ptr, self.uppers.ptr, len(self.lowers))
        else:
            self._native.refit(_host(self.lowers), _host(self.uppers))

    def rebuild(self, constructor=None):
        """Builds the tree anew from the current lowers and uppers (with `constructor`, or the
        one it was built with); the id stays the same."""
        if constructor is not None:
            self.constructor = constructor_name(constructor, self.device, self.groups is not None)
        if self.device.is_cuda:
            self._native.rebuild_device(self.lowers.ptr, self.uppers.ptr, len(self.lowers),
                                        self.constructor)
        else:
            self._native.rebuild(_host(self.lowers), _host(self.uppers), self.constructor)


def is_cubql_available():
    """Whether the cuBQL BVH builder can be used: never in treadle (constructor="cubql" falls
    back to treadle's own builds)."""
    return False
