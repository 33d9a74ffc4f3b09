"""treadle._src.codegen: Warp's compiler error classes (a compatibility layer, not treadle's API).

The compiler raises these for mistakes in kernel source (see src/python/export_errors.cpp,
where the classes are created and mapped from treadle::ErrorKind). Their names and bases are
Warp's: WarpCodegenError derives from RuntimeError, and each of the others from one builtin
exception only (``except TypeError`` catches WarpCodegenTypeError, ``except WarpCodegenError``
does not). treadle adds WarpCodegenSyntaxError, a SyntaxError that is also a WarpCodegenError,
for malformed kernel source (Warp reports the same mistakes as WarpCodegenError), and its
CompileError (the C++ compiler failed) is a WarpCodegenError too.
"""

from .._treadle import CompileError as CompileError
from .._treadle import WarpCodegenAttributeError as WarpCodegenAttributeError
from .._treadle import WarpCodegenError as WarpCodegenError
from .._treadle import WarpCodegenIndexError as WarpCodegenIndexError
from .._treadle import WarpCodegenKeyError as WarpCodegenKeyError
from .._treadle import WarpCodegenSyntaxError as WarpCodegenSyntaxError
from .._treadle import WarpCodegenTypeError as WarpCodegenTypeError
from .._treadle import WarpCodegenValueError as WarpCodegenValueError
from ..kernel import _qualified_name


def codegen_func_forward(adj, func_type="kernel", device="cpu"):
    """Warp's Python code generator (not in treadle, whose compiler is C++): raises
    NotImplementedError. The generated source of a kernel is ``kernel._compile(device).source``."""
    raise NotImplementedError(
        "codegen_func_forward(): treadle generates code in C++ from the kernel's source; read a "
        "build's code with kernel._compile(device).source")


def make_full_qualified_name(func):
    """Warp's kernel key for a function or a qualified name ("." as "__", other characters
    that cannot be in a C++ identifier dropped)."""
    return _qualified_name(func)
