"""treadle.optim: Warp's gradient optimisers ``Adam`` and ``SGD`` and its iterative linear
solvers ``linear`` (``warp.optim``, ``warp.optim.linear``).

Import it explicitly (``import treadle.optim``), as with Warp.
"""

from . import linear as linear
from .adam import Adam as Adam
from .sgd import SGD as SGD
