"""treadle._src.logger: Warp's private logger module is treadle.logger itself (compatibility).

Programs read and patch ``warp._src.logger._warnings_seen`` and ``log_warning``; binding this
name to the same module object makes those reads and patches act on treadle's real state.
"""

import sys

from .. import logger as _logger

sys.modules[__name__] = _logger
