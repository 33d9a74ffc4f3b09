"""wp.launch and module loading: run compiled kernels over a launch grid."""

import gc
import sys

from . import _treadle
from .context import get_device
from .kernel import Kernel


def launch(
    kernel,
    dim,
    inputs=(),
    outputs=(),
    adj_inputs=(),
    adj_outputs=(),
    device=None,
    stream=None,
    adjoint=False,
    record_tape=True,
    record_cmd=False,
    max_blocks=0,
    block_dim=256,
):
    """Runs `kernel` once for every index of `dim` (an int or a tuple of up to 4 ints)."""
    if not isinstance(kernel, Kernel):
        raise TypeError(f"launch(): expected a kernel, got {type(kernel).__name__}")
    if adjoint:
        raise RuntimeError(
            f"launch(): kernel '{kernel.__name__}': adjoint launches need automatic "
            "differentiation, which this version of treadle does not provide"
        )
    alias = get_device(device).alias
    handle = kernel._compiled.get((alias, kernel._mode())) or kernel._compile(alias)
    args = list(inputs) + list(outputs) if outputs else inputs
    _treadle.launch(handle, dim, args)


def load_module(module=None, device=None, recursive=False):
    """Compiles (or loads from the cache) every kernel of a Python module now."""
    if module is None:
        module = sys._getframe(1).f_globals.get("__name__", "__main__")
    name = module if isinstance(module, str) else module.__name__
    kernels = [
        obj for obj in gc.get_objects()
        if isinstance(obj, Kernel) and (obj.module == name or (recursive and obj.module.startswith(name + ".")))
    ]
    alias = get_device(device).alias
    for k in kernels:
        k._compile(alias)


def force_load(device=None, modules=None):
    """Compiles every kernel defined so far (of the given modules, when named)."""
    names = None if modules is None else {m if isinstance(m, str) else m.__name__ for m in modules}
    alias = get_device(device).alias
    for obj in gc.get_objects():
        if isinstance(obj, Kernel) and (names is None or obj.module in names):
            obj._compile(alias)
