"""treadle._src.codegen: Warp's compiler error classes (a compatibility layer, not treadle's API).

The compiler raises these for mistakes in kernel source (see src/python/export_errors.cpp,
where the classes are created and mapped from treadle::ErrorKind). Their names and bases are
Warp's: WarpCodegenError derives from RuntimeError, and each of the others from one builtin
exception only (``except TypeError`` catches WarpCodegenTypeError, ``except WarpCodegenError``
does not). treadle adds WarpCodegenSyntaxError, a SyntaxError that is also a WarpCodegenError,
for malformed kernel source (Warp reports the same mistakes as WarpCodegenError), and its
CompileError (the C++ compiler failed) is a WarpCodegenError too. ``Adjoint`` holds Warp's
source finders (source_extract.py).
"""

import ast
import inspect
import textwrap

from .._treadle import CompileError as CompileError
from .._treadle import WarpCodegenAttributeError as WarpCodegenAttributeError
from .._treadle import WarpCodegenError as WarpCodegenError
from .._treadle import WarpCodegenIndexError as WarpCodegenIndexError
from .._treadle import WarpCodegenKeyError as WarpCodegenKeyError
from .._treadle import WarpCodegenSyntaxError as WarpCodegenSyntaxError
from .._treadle import WarpCodegenTypeError as WarpCodegenTypeError
from .._treadle import WarpCodegenValueError as WarpCodegenValueError
from ..kernel import _qualified_name
from . import source_extract as _source_extract


def codegen_func_forward(adj, func_type="kernel", device="cpu"):
    """The generated forward code of the kernel whose ``kernel.adj`` is `adj`, for `device`
    ("cpu", or a CUDA name: generated without a GPU). Warp returns the body of the forward
    function alone; treadle returns the kernel's whole forward translation unit (its parameter
    block, body function and entry point), which holds that body."""
    if func_type != "kernel":
        raise NotImplementedError(
            f"codegen_func_forward(): func_type {func_type!r} is not supported by treadle (a "
            "@wp.func is generated inside the kernels that call it); pass func_type='kernel'")
    cuda = device.startswith("cuda") if isinstance(device, str) else bool(device.is_cuda)
    return adj._kernel._generated_source(cuda=cuda)


def make_full_qualified_name(func):
    """Warp's kernel key for a function or a qualified name ("." as "__", other characters
    that cannot be in a C++ identifier dropped)."""
    return _qualified_name(func)


class Adjoint:
    """Warp's per-function compiler object, as far as programs use it to read a function's
    source: ``Adjoint(func)`` has ``func``, ``source``, ``lineno``, ``tree`` and
    ``builder_options``, and the static source finders below (treadle's compiler is C++ and
    builds nothing from this object)."""

    def __init__(self, func, builder_options=None):
        self.func = func
        self.source, self.lineno, self.tree = Adjoint.extract_function_source(func)
        self.filename = inspect.unwrap(func).__code__.co_filename
        self.builder_options = {} if builder_options is None else dict(builder_options)

    @staticmethod
    def _try_extract_function_source(code):
        return _source_extract.try_extract_function_source(code)

    @staticmethod
    def _inspect_extract_function_source(func):
        lines, lineno = inspect.getsourcelines(func)
        return "".join(lines), lineno

    @staticmethod
    def extract_function_source(func):
        """(dedented source, first line number, module AST) of `func` (wrappers followed
        through ``__wrapped__``): the linecache slice when it parses as the function, else
        ``inspect.getsourcelines``'s lines."""
        func = inspect.unwrap(func)
        code = func.__code__
        fast = Adjoint._try_extract_function_source(code)
        if fast is not None:
            source = textwrap.dedent(fast[0])
            tree = _source_extract.parsed_function(source, code.co_name)
            if tree is not None:
                return source, fast[1], tree
        raw, lineno = Adjoint._inspect_extract_function_source(func)
        source = textwrap.dedent(raw)
        return source, lineno, ast.parse(source)

    @staticmethod
    def extract_lambda_source(func, only_body=False):
        """The source of a lambda (what follows its ``:`` with `only_body`), or None."""
        return _source_extract.lambda_source(func, only_body)
