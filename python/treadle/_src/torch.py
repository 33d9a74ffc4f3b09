"""treadle._src.torch: the names of Warp's private torch module, bound to treadle's PyTorch
interop (a compatibility layer, not treadle's API)."""

from ..torch_interop import device_from_torch as device_from_torch
from ..torch_interop import device_to_torch as device_to_torch
from ..torch_interop import dtype_from_torch as dtype_from_torch
from ..torch_interop import dtype_to_torch as dtype_to_torch
from ..torch_interop import from_torch as from_torch
from ..torch_interop import stream_from_torch as stream_from_torch
from ..torch_interop import stream_to_torch as stream_to_torch
from ..torch_interop import to_torch as to_torch
