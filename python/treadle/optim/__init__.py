"""treadle.optim: Warp's gradient optimisers ``Adam`` and ``SGD`` (``warp.optim``).

Import it explicitly (``import treadle.optim``), as with Warp. Warp's iterative linear solvers
(``warp.optim.linear``) are not there.
"""

from .adam import Adam as Adam
from .sgd import SGD as SGD
