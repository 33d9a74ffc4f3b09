"""treadle._src.utils: helpers of Warp's private utils module (a compatibility layer, not
treadle's API)."""

import os
import sys

from ..logger import ScopedLogger as ScopedLogger
from ..logger import ScopedLogLevel as ScopedLogLevel


def check_p2p():
    """Whether the machine is set up for peer-to-peer copies between CUDA devices: False when
    ``WARP_DISABLE_P2P_TESTS`` is set to a non-zero integer or, on Linux, when an IOMMU is
    active (it can break peer transfers); True otherwise."""
    if int(os.getenv("WARP_DISABLE_P2P_TESTS", default="0")):
        return False
    if sys.platform == "linux":
        for path in ("/sys/class/iommu", "/sys/kernel/iommu_groups"):
            if os.path.isdir(path) and os.listdir(path):
                return False
    return True


class MeshEdge:
    """One edge of a triangle mesh: its vertices `v0`, `v1` (in the order the first face
    holding it lists them), the vertex opposite it in that face (`o0`) and in the second face
    (`o1`), and the two faces (`f0`, `f1`); -1 where there is no second face."""

    def __init__(self, v0, v1, o0, o1, f0, f1):
        self.v0, self.v1, self.o0, self.o1, self.f0, self.f1 = v0, v1, o0, o1, f0, f1


class MeshAdjacency:
    """The edges of a triangle mesh and the faces on either side of them: `edges` maps
    (smaller vertex, larger vertex) to a MeshEdge. An edge shared by more than two faces
    prints "Detected non-manifold edge" and keeps its first two faces."""

    def __init__(self, indices, num_tris):
        self.edges = {}
        for f in range(num_tris):
            i, j, k = (int(v) for v in indices[f])
            self.add_edge(i, j, k, f)
            self.add_edge(j, k, i, f)
            self.add_edge(k, i, j, f)

    def add_edge(self, i0, i1, o, f):
        """Records edge (i0, i1) of face `f`, whose third vertex is `o`."""
        key = (min(i0, i1), max(i0, i1))
        edge = self.edges.get(key)
        if edge is None:
            self.edges[key] = MeshEdge(i0, i1, o, -1, f, -1)
        elif edge.f1 != -1:
            print("Detected non-manifold edge")
        else:
            edge.o1, edge.f1 = o, f
