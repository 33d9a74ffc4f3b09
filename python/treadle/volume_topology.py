"""The topology of volumes allocated by tiles or voxels (wp.Volume.allocate_by_tiles,
allocate_by_voxels and rebuild): points given in index or world space and filtered by a mask,
the value kind a background selects, and the capacity limits of rebuildable volumes.

A rebuildable volume reserves a grid buffer for its capacity (leaf, lower and upper node counts
and, for voxels, active voxels); a rebuild writes the new grid into that buffer, so the id and
the grid's size stay those of the allocation. Topology beyond the capacity is left out and
reported by the REBUILD_* status flags."""

from collections import namedtuple

import numpy as np

from .volume_build import kind_of_value, reserved_size

REBUILD_SUCCESS = 0
REBUILD_LEAF_CAPACITY_EXCEEDED = 1 << 0
REBUILD_LOWER_CAPACITY_EXCEEDED = 1 << 1
REBUILD_UPPER_CAPACITY_EXCEEDED = 1 << 2
REBUILD_VOXEL_CAPACITY_EXCEEDED = 1 << 3
REBUILD_INVALID_INPUT = 1 << 4

RebuildInfo = namedtuple("RebuildInfo", ["kind", "max_voxel_count", "max_leaf_node_count",
                                         "max_lower_node_count", "max_upper_node_count"])
ActiveStats = namedtuple("ActiveStats", ["voxel_count", "leaf_node_count", "lower_node_count",
                                         "upper_node_count"])
NOT_REBUILDABLE = RebuildInfo(None, 0, 0, 0, 0)


def host_points(points, point_mask):
    """The points as an (n, 3) numpy array, without those whose mask entry is 0."""
    pts = points.numpy() if hasattr(points, "numpy") else np.asarray(points)
    pts = np.asarray(pts).reshape(-1, 3)
    if point_mask is not None:
        mask = point_mask.numpy() if hasattr(point_mask, "numpy") else np.asarray(point_mask)
        mask = np.asarray(mask).reshape(-1)
        if len(mask) != len(pts):
            raise ValueError(f"point_mask must have one entry per point ({len(pts)}), got {len(mask)}")
        pts = pts[mask != 0]
    return pts


def index_points(pts, space):
    """Integer index coordinates of points: integer points as they are, float points mapped from
    world space by `space` = (matrix, translation) and rounded to the nearest voxel (as Warp
    does for tiles and voxels alike)."""
    if not np.issubdtype(pts.dtype, np.floating):
        return pts.astype(np.int64)
    mat, t = space
    local = np.linalg.solve(mat, (pts.astype(np.float64) - t).T).T if len(pts) else pts.astype(np.float64)
    return np.floor(local + 0.5).astype(np.int64)


class Topology:
    """What a tile or voxel volume is built from and, when rebuildable, its capacity."""

    def __init__(self, kind, bg_value, space, limits):
        self.kind = kind  # "tiles" or "voxels"
        self.value_kind = kind_of_value(None if kind == "voxels" else bg_value)
        self.bg = None if bg_value is None else np.array(bg_value, dtype=self.value_kind.scalar)
        self.space = space
        self.limits = limits  # (voxels, leaves, lowers, uppers) or None

    def rebuild_info(self):
        if self.limits is None:
            return NOT_REBUILDABLE
        return RebuildInfo(self.kind, *self.limits)

    def select(self, pts):
        """(leaf origins, active voxels or None, status flags) of index points, within the
        capacity: points are taken in sorted order while their leaf, lower and upper nodes (and,
        for voxels, the voxel count) fit."""
        ijk = np.unique(index_points(pts, self.space), axis=0)
        if self.kind == "tiles":
            ijk = np.unique(ijk & ~7, axis=0)
        if self.limits is None:
            return ijk & ~7, (ijk if self.kind == "voxels" else None), REBUILD_SUCCESS
        max_voxels, max_leaves, max_lowers, max_uppers = self.limits
        leaves, lowers, uppers, kept, flags = set(), set(), set(), [], REBUILD_SUCCESS
        for p in ijk:
            leaf, lower, upper = (tuple(int(c) & ~m for c in p) for m in (7, 127, 4095))
            if self.kind == "voxels" and len(kept) >= max_voxels:
                flags |= REBUILD_VOXEL_CAPACITY_EXCEEDED
                continue
            checks = ((leaf, leaves, max_leaves, REBUILD_LEAF_CAPACITY_EXCEEDED),
                      (lower, lowers, max_lowers, REBUILD_LOWER_CAPACITY_EXCEEDED),
                      (upper, uppers, max_uppers, REBUILD_UPPER_CAPACITY_EXCEEDED))
            over = [flag for key, held, cap, flag in checks if key not in held and len(held) >= cap]
            if over:
                for flag in over:
                    flags |= flag
                continue
            leaves.add(leaf)
            lowers.add(lower)
            uppers.add(upper)
            kept.append(p)
        kept = np.asarray(kept, dtype=np.int64).reshape(-1, 3)
        return kept & ~7, (kept if self.kind == "voxels" else None), flags

    def capacity_bytes(self):
        """The bytes a rebuildable volume reserves (None when not rebuildable)."""
        if self.limits is None:
            return None
        _, leaves, lowers, uppers = self.limits
        return reserved_size(self.value_kind, leaves, lowers, uppers)


def write_status(status, flags):
    """Stores the REBUILD_* flags in a one-element uint32 array (when given)."""
    if status is not None:
        status.assign(np.array([flags], dtype=np.uint32))


def limits_of(kind, max_voxels, max_leaves, max_lowers, max_uppers):
    """The capacity (voxels, leaves, lowers, uppers) of a rebuildable volume."""
    if kind == "tiles":
        max_voxels = None if max_leaves is None else 512 * int(max_leaves)
    for name, v in (("voxel", max_voxels), ("leaf", max_leaves), ("lower node", max_lowers),
                    ("upper node", max_uppers)):
        if v is None or int(v) < 0:
            raise ValueError(f"a rebuildable volume needs a non-negative maximum {name} count")
    return int(max_voxels), int(max_leaves), int(max_lowers), int(max_uppers)
