"""treadle._src.native_core: Warp's ``runtime.core`` for programs that reach it through the
private modules; the object itself lives in treadle.runtime_core (wp.cuda_profiler_start calls
through it without loading this layer)."""

from ..runtime_core import NativeCore as NativeCore  # noqa: F401
from ..runtime_core import core as core  # noqa: F401
from ..runtime_core import runtime as runtime  # noqa: F401
