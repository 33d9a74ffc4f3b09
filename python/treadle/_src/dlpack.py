"""treadle._src.dlpack: the names of Warp's private dlpack module that programs use, bound to
treadle's DLPack support (a compatibility layer, not treadle's API)."""

from ..dlpack import _from_dlpack as _from_dlpack
from ..dlpack import from_dlpack as from_dlpack
from ..dlpack import to_dlpack as to_dlpack
from ..dlpack_abi import DLDataTypeCode as DLDataTypeCode
from ..dlpack_abi import DLDeviceType as DLDeviceType
