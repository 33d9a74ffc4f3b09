"""Warp's ``warp._src.deterministic`` names that programs and tests read: the deterministic
levels as ``wp.DeterministicMode`` members and the reduction operation codes of the records
(treadle's own, ``native/treadle/atomic.h``: add 0, min 2, max 3)."""

from ..config import DeterministicMode

DETERMINISTIC_NOT_GUARANTEED = DeterministicMode.NOT_GUARANTEED
DETERMINISTIC_RUN_TO_RUN = DeterministicMode.RUN_TO_RUN
DETERMINISTIC_GPU_TO_GPU = DeterministicMode.GPU_TO_GPU

REDUCE_OP_ADD = 0
REDUCE_OP_MIN = 2
REDUCE_OP_MAX = 3
