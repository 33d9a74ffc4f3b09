"""treadle._src.context: the names programs use from Warp's private context module (a
compatibility layer, not treadle's API).

``runtime`` is a view of treadle's device registry with the few methods such programs call;
``init`` and ``log_warning`` are treadle's own functions and ``builtin_functions`` maps each
builtin's name to treadle's callable builtin object.
"""

from .. import config as _config
from .. import context as _context
from ..builtin_functions import BUILTINS as builtin_functions  # noqa: F401
from ..context import init as init  # noqa: F401
from ..logger import log_warning as log_warning  # noqa: F401


class _Runtime:
    """The runtime as Warp's private ``runtime`` object presents it, over treadle's state."""

    @property
    def device_map(self):
        """Every device by alias ("cpu", "cuda:0", ...): treadle's registry itself."""
        _context.init()
        return _context._devices

    def get_device(self, ident=None):
        """The Device for `ident` (None: the current default device); as wp.get_device."""
        return _context.get_device(ident)

    def verify_cuda_device(self, device=None):
        """With ``config.verify_cuda``, waits for `device` (a CUDA device) and raises the
        error an earlier kernel left on it; otherwise does nothing."""
        if not _config.verify_cuda:
            return
        device = _context.get_device(device)
        if device.is_cuda:
            _context.synchronize_device(device)


runtime = _Runtime()
"""The runtime (Warp's ``warp._src.context.runtime``)."""
