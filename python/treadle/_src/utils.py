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
