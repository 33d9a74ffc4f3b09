"""@wp.kernel and @wp.func: capture a Python function's source for the C++ compiler, and the
Kernel object, which holds its C++ builds (``_treadle.KernelBuilds``) and the module it belongs
to (module.py resolves the options its builds are made with)."""

import hashlib
import inspect
import io
import linecache
import os
import re
import sys
import tokenize
import types
import unicodedata
from builtins import bool as builtins_bool
from builtins import float as builtins_float
from builtins import int as builtins_int

import numpy as np

from . import _treadle, config
from . import adjoint_args as _adjoint_args
from . import cpu_capture as _cpu_capture
from . import generics as _generics
from . import module as _module
from . import scalar_types as _scalar_types
from . import tape as _tape
from .context import get_device
from .builtin_functions import BUILTINS as builtins  # noqa: F401 - kernel.builtins
from .kernel_adjoint import KernelAdjoint
from .resolver import Resolver
from .scalar_types import scalar_base
from .struct import StructInstance
from .vec_types import composite_base


def _source_of(func):
    """The source text of `func`'s definition (decorators blanked), its file and first line.

    Reads the file through linecache (refreshed first, so an edited or re-imported file is read
    anew) and cuts the block at the code object's first line: much cheaper than
    inspect.getsourcelines, which searches sys.modules for the module. Identifiers are
    normalised as Python normalises them (NFKC), so ``ﬁ`` and ``fi`` are one variable.
    """
    code = getattr(func, "__code__", None)
    if code is not None:
        linecache.checkcache(code.co_filename)
    lines = linecache.getlines(code.co_filename, func.__globals__) if code else []
    if not lines or code.co_firstlineno > len(lines):
        raise RuntimeError(
            f"cannot read the source of '{func.__qualname__}'; kernels and functions must be "
            "defined in a file, not typed into an interactive prompt"
        )
    first_line = code.co_firstlineno
    block = _cut_block(lines, first_line - 1)
    if block is None:
        try:
            block = inspect.getblock(lines[first_line - 1 :])
        except (tokenize.TokenError, SyntaxError, IndentationError) as e:
            raise RuntimeError(
                f"cannot read the source of '{func.__qualname__}' from {code.co_filename}, line "
                f"{first_line} (was the file changed after it was imported?): {e}") from None
    # The compiler needs the def, not the decorators (whose arguments, such as an options
    # dict, may be any Python): blank them, keeping the line numbers.
    block = list(block)
    for i, line in enumerate(block):
        if line.lstrip().startswith(("def ", "async def ")):
            break
        block[i] = "\n"
    text = "".join(block)
    if not text.isascii():
        text = _normalise_identifiers(text)
    return text, os.path.abspath(code.co_filename), first_line


def _normalise_identifiers(text):
    """`text` with every identifier in NFKC form, as Python reads identifiers (strings and
    comments untouched); unchanged when it does not tokenize."""
    edits = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.NAME and not tok.string.isascii():
                normal = unicodedata.normalize("NFKC", tok.string)
                if normal != tok.string:
                    edits.append((tok.start, tok.end, normal))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return text
    lines = text.splitlines(keepends=True)
    for (row, col), (_, end), normal in reversed(edits):
        line = lines[row - 1]
        lines[row - 1] = line[:col] + normal + line[end:]
    return "".join(lines)


def _check_python_function(f, decorator):
    """TypeError unless `f` is a plain Python function (not a kernel or function already)."""
    if isinstance(f, Function):
        what = "kernel" if isinstance(f, Kernel) else "function"
        raise TypeError(
            f"{decorator}: '{f.__name__}' is already a treadle {what}; apply only one of "
            "@wp.func and @wp.kernel")
    if not isinstance(f, types.FunctionType):
        raise TypeError(f"{decorator}: expects a Python function, got {type(f).__name__}")


def _indent(line):
    return len(line) - len(line.lstrip(" \t"))


def _cut_block(lines, start):
    """The decorators and def starting at lines[start], cut by indentation; None when the
    text has a form this quick cut cannot judge (multi-line strings, backslash continuations,
    a def header spread over lines), so the caller falls back to the tokenizer."""
    base = _indent(lines[start])
    end = start
    while end < len(lines) and not lines[end].lstrip().startswith(("def ", "async def ")):
        end += 1
    if end == len(lines):
        return None
    header = lines[end].split("#", 1)[0].rstrip()
    if not header.endswith(":"):
        return None
    end += 1
    while end < len(lines):
        text = lines[end]
        stripped = text.strip()
        if stripped and not stripped.startswith("#") and _indent(text) <= base:
            break
        end += 1
    block = lines[start:end]
    while block and (not block[-1].strip() or block[-1].lstrip().startswith("#")):
        block.pop()
    body = "".join(block)
    if '"""' in body or "'''" in body or "\\\n" in body:
        return None
    return block


def _qualified_name(func):
    """Warp's kernel and function key: the qualified name of `func` (or `func` itself, a
    string) with "." as "__", other characters that cannot be in a C++ identifier dropped."""
    qualname = func if isinstance(func, str) else func.__qualname__
    return re.sub("[^0-9a-zA-Z_]+", "", qualname.replace(".", "__"))


class Function:
    """A user function (@wp.func) callable from kernels and, as plain Python, from the host."""

    def __init__(self, func, key=None):
        self.func = func
        self.key = key or _qualified_name(func)
        # What the compiler knows the function by: unique to this object.
        self._identity = f"{func.__module__}.{func.__qualname__}#{id(self)}"
        self.__name__ = func.__name__
        self.__qualname__ = func.__qualname__
        self.__module__ = func.__module__
        self.__doc__ = func.__doc__
        self.__wrapped__ = func
        # The definition's text, read now (as Python read the file) so that a file edited
        # after the import cannot change it; None when there is no file (read again at the
        # first build, which reports it).
        try:
            self._source = _source_of(func)
        except RuntimeError:
            self._source = None
        self._resolver = None
        self.module = _module.get_module(func.__module__)  # a Kernel may choose another
        self._custom_grad = None  # Function registered with @wp.func_grad(self)
        self._custom_replay = None  # Function registered with @wp.func_replay(self)
        # Every @wp.func definition of this name (overloads by annotation), self first; see
        # generics.register_function. (A kernel has none: wp.overload specialises it instead;
        # see Kernel._overloads, which keeps the list from holding the kernel in a cycle.)
        if not isinstance(self, Kernel):
            self._overloads = [self]
        # @wp.func_native: (snippet, adj_snippet, replay_snippet), the C++ text of the body
        self._native = None

    def _function_source(self, with_overloads=True, **fields):
        """The FunctionSource the compiler reads (src/python/export_function.cpp): this
        function's source and resolver, its custom gradient and replay, and its overloads;
        `fields` adds the kernel-only ones (arg_types)."""
        if self._source is None:
            self._source = _source_of(self.func)
        if self._resolver is None:
            self._resolver = Resolver(self.func)
            self._resolver.module = self.module
        text, filename, line = self._source
        grad, replay = self._custom_grad, self._custom_replay
        overloads = ()
        if with_overloads and len(self._overloads) > 1:
            overloads = [f._function_source(with_overloads=False) for f in self._overloads]
        if self._native is not None:
            fields["native"], fields["native_adjoint"], fields["native_replay"] = self._native
        return _treadle.FunctionSource(
            key=self._identity, name=self.__name__, source=text, file=filename, line=line,
            is_kernel=isinstance(self, Kernel), resolver=self._resolver,
            custom_grad=None if grad is None else grad._function_source(),
            custom_replay=None if replay is None else replay._function_source(),
            overloads=overloads, **fields)

    def __call__(self, *args, **kwargs):
        """Runs the function in Python: the first overload whose parameter annotations take
        the arguments (exactly, else with an int where a float is declared), or RuntimeError
        when none does, as Warp resolves such calls."""
        if getattr(self, "_overloads", None) and not kwargs:
            for widen in (False, True):
                for o in self._overloads:
                    if _host_call_fits(o.func, args, widen):
                        return o.func(*args)
            raise RuntimeError(
                f"Error calling function '{self.__name__}', no overload found for arguments "
                f"{args!r}")
        return self.func(*args, **kwargs)

    def __repr__(self):
        return f"<treadle function {self.__qualname__}>"


class Kernel(Function):
    """A kernel (@wp.kernel): compiled on first launch, once per device and build options.

    ``module`` is a Module (module.py), a module name, ``"unique"`` (a module of its own) or
    None (the module of ``func``). ``options`` are the kernel's own compile options, which win
    over its module's."""

    def __init__(self, func, key=None, module=None, options=None, enable_backward=None):
        super().__init__(func, key)
        if module is None:
            module = _module.get_module(func.__module__)
        elif isinstance(module, str):
            if module == "unique":
                module = _module.get_module(
                    f"{func.__module__}.{func.__qualname__}.unique_{id(self):x}")
            else:
                module = _module.get_module(module)
        self.module = module
        self.options = dict(options or {})
        if enable_backward is not None:
            self.options["enable_backward"] = enable_backward
        self._builds = _treadle.KernelBuilds()
        # launch() fast path: (device argument, wp.config.mode, wp.config.verify_fp) -> build
        self._launch_cache = {}
        # Generic kernels (generics.py): the compiler's reading of the parameters, the Type
        # (or None: the annotation) of every parameter of a specialisation, and the
        # specialisations made so far, by their types and by launch argument types.
        self._params = None
        self._arg_types = None
        self._specialisations = {}
        self._by_arguments = {}
        module.register_kernel(self)

    @property
    def _overloads(self):
        """A kernel is its only definition (made fresh, so no list holds the kernel: an
        unreferenced kernel is freed at once and leaves its module's live kernels)."""
        return [self]

    def _function_source(self, with_overloads=False, **fields):
        if self._arg_types is not None:
            fields["arg_types"] = list(self._arg_types)
        fields["enable_backward"] = self._backward_enabled()
        return super()._function_source(False, **fields)

    @property
    def overloads(self):
        """The specialisations of a generic kernel made so far (declared by wp.overload or
        inferred at launches), by the types of their parameters (None: as annotated)."""
        return dict(self._specialisations)

    @property
    def _generic_params(self):
        """The names of the generic parameters, or None (see generics.generic_params)."""
        return _generics.generic_params(self)

    @property
    def is_generic(self):
        """Whether the kernel has generic parameters (it builds per specialisation)."""
        return self._generic_params is not None

    def _specialised(self, types, tag):
        """A specialisation of this generic kernel for `types` (see generics.specialise)."""
        s = Kernel(self.func, key=f"{self.key}[{tag}]", module=self.module, options=self.options)
        s._source, s._resolver = self._source, self._resolver
        s._arg_types = types
        return s

    def _build_options(self):
        """(mode, max_unroll, verify_fp, launch_bounds, optimization_level, cpu_compiler_flags,
        deterministic, deterministic_max_records): what a build depends on besides the source
        and device (launch_bounds: None or (max threads per block, min blocks or 0); -1 and ""
        for the default level and flags)."""
        return (*self.module.build_options(self.options), self.options.get("launch_bounds"),
                *self.module.compiler_options(self.options),
                *self.module.deterministic_options(self.options))

    def _compile(self, device="cpu", block_dim=0):
        """The forward build for `device` (an alias such as "cpu" or "cuda:0"): compiled or
        loaded from the disk cache once per device and build options, kept by the C++
        KernelBuilds. `block_dim`: the block size a CUDA kernel that uses tiles is built for
        (0: 256, the launch default)."""
        options = (*self._build_options(), block_dim)
        handle = self._builds.find(device, *options)
        if handle is None:
            _module._prepare_compiler()
            handle = self._builds.get(self._function_source(), device, *options)
            self._report(handle)
            if config.verify_autograd_array_access:
                _tape.note_kernel_build(self, handle)
        return handle

    @property
    def adj(self):
        """Warp's ``kernel.adj``: the kernel's source and arguments (kernel_adjoint.py)."""
        return KernelAdjoint(self, lambda: self._compile("cpu"))

    def _build_request(self, device):
        """What _treadle.build_kernels takes to make the forward build for `device`."""
        return (self._builds, self._function_source(), device, *self._build_options())

    def _report(self, handle, what=""):
        if config.verbose:
            how = "loaded from cache" if handle.from_cache else (
                f"compiled in {handle.compile_seconds * 1000:.0f} ms")
            print(f"treadle: kernel {self.__name__}{what} {how}")

    def _forget_builds(self):
        """Drops every build (the module's options changed): the next use builds again."""
        self._builds.clear()
        self._launch_cache.clear()
        for s in self._specialisations.values():
            s._forget_builds()

    def _backward_enabled(self):
        value = self.options.get("enable_backward")
        if value is None:
            value = self.module.options.get("enable_backward")
        return value is not False

    def _compile_adjoint(self, device="cpu", block_dim=0):
        """The build of the kernel with its backward pass for `device`: compiled on first use by
        the C++ kernel object of the forward build, which keeps it. Kernels that never run
        backward never generate adjoint code."""
        if not self._backward_enabled():
            raise RuntimeError(
                f"kernel '{self.__name__}' was declared with enable_backward=False, so it has "
                "no backward pass"
            )
        handle = self._compile(device)
        if block_dim and block_dim != 256 and handle.tile_block_dim and device != "cpu":
            handle = self._compile(device, block_dim)  # tiles built for this block size
        return handle.with_adjoint()

    def _run_adjoint(self, dim, args, adj, device, stream, max_blocks=0, block_dim=256):
        """The backward pass of one launch of this kernel on `device` or `stream`:
        gradients flow from the adjoints of the outputs to those of the inputs (each array's
        .grad, or `adj`, one per argument). What wp.launch(adjoint=True) and the tape run."""
        if stream is not None:
            device = stream.device  # a stream decides the device, as in Warp
        kernel = _generics.specialise_for_arguments(self, args) if self._generic_params else self
        alias = get_device(device).alias
        handle = kernel._compile_adjoint(alias, block_dim)
        stream_handle = 0 if stream is None else stream.cuda_stream
        if alias == "cpu" and _cpu_capture.depth[0]:  # a CPU capture records the launch
            args = list(args)
            _cpu_capture.record_or_run(lambda: _treadle.launch(
                handle, dim, args, stream_handle, True, adj, max_blocks, block_dim))
            return
        args, adj, write_back = _adjoint_args.prepare(args, adj)
        _treadle.launch(handle, dim, args, stream_handle, True, adj, max_blocks, block_dim)
        if write_back is not None:
            write_back()

    def _generated_source(self, cuda=False):
        """The kernel's generated CPU (or CUDA) source, without building it."""
        return _treadle.kernel_source(self._function_source(), cuda=cuda,
                                      launch_bounds=self.options.get("launch_bounds"))

    @property
    def hash(self):
        """The SHA-256 (bytes) of the code the kernel generates (see _content_hash)."""
        return self._content_hash()

    def _content_hash(self):
        """A hash (bytes) of the code this kernel generates (its source text when it has no
        single build: a generic kernel, or one the compiler rejects)."""
        try:
            text = _treadle.kernel_source(self._function_source())
            bounds = self.options.get("launch_bounds")
            if bounds is not None:  # a CUDA-only attribute, not in the CPU source
                text += f"\n// launch_bounds {bounds}"
            # where the code is (file, line) is not part of it, as in Warp's hash, and nor is
            # the module that defines a struct (its C++ name holds a hash of its module and
            # name; its definition, in the text, holds its name and layout)
            text = _LINE_DIRECTIVE.sub("", text)
            text = _STRUCT_SPELLING.sub(r"\1", text)
        except Exception:  # noqa: BLE001 -- the build will report it; hash what there is:
            text = self._function_source().source  # its source and that of every overload of
            text += "".join(_called_function_sources(self.func, text))  # the @wp.func it names
        return hashlib.sha256(text.encode()).digest()

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            f"kernel '{self.__name__}' cannot be called directly; use wp.launch({self.__name__}, "
            "dim=..., inputs=[...])"
        )

    def __repr__(self):
        return f"<treadle kernel {self.__qualname__}>"


def _host_value_fits(annotation, value, widen):
    """Whether a Python call's argument `value` fits a parameter annotated `annotation`: the
    annotation's own class, a Python or numpy number of its kind (int for int32, float for
    float32; with `widen`, an int for a float too), a numpy scalar of a scalar class's dtype."""
    if annotation is inspect.Parameter.empty:
        return True
    integer = (isinstance(value, (builtins_int, np.integer, _scalar_types.int_base))
               and not isinstance(value, (builtins_bool, np.bool_)))
    real = isinstance(value, (builtins_float, np.floating, _scalar_types.float_base))
    if annotation is builtins_bool:
        return isinstance(value, (builtins_bool, np.bool_))
    if annotation is builtins_int:
        return integer
    if annotation is builtins_float:
        return real or (widen and integer)
    if isinstance(annotation, type):
        try:
            if isinstance(value, annotation):
                return True
        except TypeError:  # typing.Any and other markers that refuse isinstance()
            return True
        np_dtype = getattr(annotation, "_np_dtype", None)
        return (np_dtype is not None and isinstance(value, np.generic)
                and value.dtype == np_dtype)
    return True  # a generic marker (typing.Any, wp.Float, ...) or an array annotation


def _host_call_fits(func, args, widen):
    try:
        signature = inspect.signature(func)
        bound = signature.bind(*args)  # parameters with defaults may be left out
    except (TypeError, ValueError):
        return False
    params = signature.parameters
    return all(_host_value_fits(params[name].annotation, value, widen)
               for name, value in bound.arguments.items())


_LINE_DIRECTIVE = re.compile(r"^#line .*\n?", re.M)
_STRUCT_SPELLING = re.compile(r"\b(struct_\w+?)_[0-9a-f]{16}\b")


def _called_function_sources(f, text):
    """The sources of every overload of the @wp.func of `f`'s module whose names `text` uses
    (for the hash of a kernel that does not build)."""
    names = set(re.findall(r"[A-Za-z_]\w*", text))
    out = []
    for (module, qualname), holder in sorted(_generics._functions.items()):
        if module != f.__module__ or qualname.rsplit(".", 1)[-1] not in names:
            continue
        for o in getattr(holder, "_overloads", [holder]):
            try:
                out.append(o._function_source().source)
            except Exception:  # noqa: BLE001 -- a function without source adds nothing
                pass
    return out


def func(f):
    """Declares a function callable from kernels (Warp's @wp.func). A second definition of
    the same name in a module with other parameter annotations adds an overload."""
    _check_python_function(f, "@wp.func")
    return _generics.register_function(Function(f), sys._getframe(1).f_locals)


def func_native(snippet, adj_snippet=None, replay_snippet=None):
    """Declares a function whose body is C++/CUDA code (Warp's @wp.func_native). The decorated
    def is a stub: its annotated parameters are the names and types the snippet sees (arrays
    as ``wp::array_t<T>``, with ``a[i]`` and conversion to ``T*``), its return annotation the
    result type. ``adj_snippet`` is the body of the adjoint, which also sees ``adj_<param>``
    for every parameter (add to those of float values; an array's is its gradient array) and
    ``adj_ret``; ``replay_snippet`` recomputes the function in the backward pass instead of
    ``snippet`` (for side effects that must not run twice)."""
    for name, text in (("snippet", snippet), ("adj_snippet", adj_snippet),
                       ("replay_snippet", replay_snippet)):
        if not (isinstance(text, str) or (text is None and name != "snippet")):
            raise TypeError(f"func_native(): {name} must be a str, got {type(text).__name__}")

    def register(f):
        _check_python_function(f, "@wp.func_native")
        fn = Function(f)
        fn._native = (snippet, adj_snippet, replay_snippet)
        # A new definition changes the code of the module's kernels that call it (Warp
        # rebuilds the module).
        existing = _module._modules.get(f.__module__)
        if existing is not None:
            existing.mark_modified()
        return _generics.register_function(fn)

    return register


def _overload_for(forward, g):
    """The overload of ``forward`` (a @wp.func defined several times with other annotations)
    whose parameters the gradient/replay function ``g`` starts with; ``forward`` itself when
    none or only one matches."""
    if len(forward._overloads) < 2:
        return forward
    given = [p.annotation for p in inspect.signature(g).parameters.values()]
    for f in forward._overloads:
        params = [p.annotation for p in inspect.signature(f.func).parameters.values()]
        if len(params) <= len(given) and all(a == b for a, b in zip(params, given)):
            return f
    return forward


def _register_on(forward, attribute, decorator):
    """The decorator that stores Function(g) as forward.<attribute> and returns it."""
    if not isinstance(forward, Function):
        raise TypeError(f"{decorator}(): expects a @wp.func function")

    def register(g):
        target = _overload_for(forward, g)
        setattr(target, attribute, Function(g))
        return getattr(target, attribute)

    return register


def func_grad(forward):
    """Registers the decorated function as the gradient of ``forward`` (a @wp.func): it takes
    forward's parameters followed by ``adj_ret`` (the adjoint of forward's result, when it
    returns one) and adds to ``wp.adjoint[param]`` for the parameters it differentiates."""
    return _register_on(forward, "_custom_grad", "func_grad")


def func_replay(forward):
    """Registers the decorated function (same parameters and result as ``forward``) to
    recompute forward's result in the replay of a backward pass, instead of forward itself."""
    return _register_on(forward, "_custom_replay", "func_replay")


class _Adjoint:
    """``wp.adjoint[param]`` inside a @wp.func_grad function: the gradient of a parameter."""

    def __getitem__(self, key):
        raise RuntimeError("wp.adjoint[...] is only meaningful inside a @wp.func_grad function")


adjoint = _Adjoint()

# @wp.kernel keywords of Warp's that change CUDA code generation or the launch, which treadle
# does not implement yet: refused rather than ignored.
_UNSUPPORTED_KERNEL_OPTIONS = ("cuda_max_registers", "enable_cuda_smem_spilling", "cluster_dim")


def _launch_bounds(bounds):
    """Warp's launch_bounds (an int, or a tuple or list of 1-2 ints: max threads per block and
    min blocks per multiprocessor) as (max_threads, min_blocks or 0); None stays None."""
    if bounds is None:
        return None
    if isinstance(bounds, int) and not isinstance(bounds, bool):
        values = (bounds,)
    elif isinstance(bounds, (tuple, list)):
        if not 1 <= len(bounds) <= 2:
            raise ValueError(f"launch_bounds must be an int or a tuple/list of 1-2 ints, got {bounds}")
        values = tuple(bounds)
    else:
        raise ValueError(
            f"launch_bounds must be an int or a tuple/list of 1-2 ints, got {type(bounds)}")
    for v in values:
        if not isinstance(v, int) or isinstance(v, bool):
            raise ValueError(
                f"launch_bounds must be an int or a tuple/list of 1-2 ints, got {bounds}")
        if v <= 0:
            raise ValueError(f"launch_bounds must be positive, got {bounds}")
    if values[0] > 1024:
        raise ValueError(
            f"launch_bounds: at most 1024 threads per block, got {values[0]}")
    return (values[0], values[1] if len(values) == 2 else 0)


def _kernel_module(f, module, module_options):
    """The module of a new kernel: Warp's rules for ``module`` and ``module_options``."""
    if module_options is None:
        return module
    if not isinstance(module_options, dict):
        raise TypeError(f"@wp.kernel for '{f.__name__}': module_options must be a dict, got "
                        f"{type(module_options).__name__}.")
    if module != "unique":
        raise ValueError(
            f"@wp.kernel for '{f.__name__}': module_options requires module=\"unique\". Use "
            "wp.set_module_options() to set module-level options for a shared module.")
    m = _module.get_module(f"{f.__module__}.{f.__qualname__}.unique_{len(_module._modules):x}")
    unknown = sorted(set(module_options) - set(m.options))
    if unknown:
        raise ValueError(
            f"@wp.kernel for '{f.__name__}': unknown module_options: "
            f"{', '.join(repr(k) for k in unknown)}. Valid options are: "
            f"{', '.join(repr(k) for k in sorted(m.options))}.")
    _module.check_options(module_options)
    _module.warn_unimplemented(module_options)
    m.options.update(module_options)
    return m


def kernel(f=None, *, name=None, enable_backward=None, launch_bounds=None, module=None,
           module_options=None, entry_point_abi=None, options=None, grid_stride=None,
           **unsupported):
    """Declares a kernel (Warp's @wp.kernel). ``name`` sets its key (a C++ identifier);
    ``module`` is a module, a module name or ``"unique"`` (a module of its own, whose options
    ``module_options`` sets); ``enable_backward=False`` never builds a backward pass;
    ``launch_bounds`` (an int, or 1-2 ints: max threads per block, min blocks per
    multiprocessor) is the CUDA entry points' ``__launch_bounds__``, and CUDA launches then
    refuse a larger ``block_dim`` (the CPU ignores it); ``options`` are per-kernel compile
    options such as ``{"max_unroll": 4}``. ``grid_stride`` is accepted: treadle's CUDA entry
    covers the launch with one thread per index and loops only past 2^31 blocks, which serves
    both of Warp's forms. Warp's other CUDA keywords (cuda_max_registers, cluster_dim, ...) and
    ``entry_point_abi="external_constant_params"`` raise NotImplementedError."""
    if grid_stride is not None and not isinstance(grid_stride, bool):
        raise TypeError(f"grid_stride must be a bool or None, got {type(grid_stride).__name__}")
    for keyword in unsupported:
        if keyword not in _UNSUPPORTED_KERNEL_OPTIONS:
            raise TypeError(f"kernel() got an unexpected keyword argument '{keyword}'")
    if name is not None:
        if not isinstance(name, str):
            raise TypeError(f"name must be a str, got {type(name)}")
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise ValueError(
                "name must be a non-empty valid C++ identifier matching [A-Za-z_][A-Za-z0-9_]*")
    if entry_point_abi is not None and entry_point_abi not in ("warp", "external_constant_params"):
        raise ValueError(
            f"entry_point_abi must be 'warp' or 'external_constant_params', got {entry_point_abi!r}")
    if entry_point_abi == "external_constant_params" and enable_backward is not False:
        raise ValueError("entry_point_abi='external_constant_params' requires enable_backward=False")
    if launch_bounds is not None and unsupported.get("cuda_max_registers") is not None:
        raise ValueError("cuda_max_registers and launch_bounds cannot be specified together")
    bounds = _launch_bounds(launch_bounds)
    if bounds is not None:
        options = {**(options or {}), "launch_bounds": bounds}
    _module.check_options(options or {})

    def make(g):
        _check_python_function(g, "@wp.kernel")
        refused = [k for k, v in unsupported.items() if v is not None]
        if entry_point_abi == "external_constant_params":
            refused.append("entry_point_abi='external_constant_params'")
        if refused:
            raise NotImplementedError(
                f"@wp.kernel for '{g.__name__}': {', '.join(refused)} is not supported by treadle")
        k = Kernel(g, key=name, module=_kernel_module(g, module, module_options),
                   enable_backward=enable_backward, options=options)
        return _generics.register_kernel(k)

    return make if f is None else make(f)


def overload(kernel, arg_types=None):
    """Warp's wp.overload: declares the specialisation of a generic kernel for `arg_types` (a
    list with a type per parameter, or a dict naming some generic parameters) and returns it.
    As a decorator on a def with the generic kernel's name, the def's annotations give the
    types, and the generic kernel is returned (the name keeps naming it)."""
    if isinstance(kernel, Kernel):
        return _generics.overload_kernel(kernel, arg_types)
    if not callable(kernel) or arg_types is not None:
        raise TypeError("overload(): expects a generic kernel and its argument types")
    generic = _generics.registered_kernel(kernel)
    if generic is None:
        raise TypeError(f"overload(): no kernel named '{kernel.__qualname__}' to overload")
    returns = kernel.__annotations__.get("return", None)
    if returns is not None and returns is not type(None) and returns != "None":
        raise TypeError(
            f"overload(): Return annotations are not allowed on @wp.overload stubs "
            f"('{kernel.__qualname__}' is annotated -> {returns!r}; a kernel returns nothing)")
    hints = {n: t for n, t in kernel.__annotations__.items() if n != "return"}
    _generics.overload_kernel(generic, hints)
    return generic  # the name keeps naming the generic kernel


def constant(x):
    """Marks a module-level value as a kernel constant (its value becomes part of the kernel):
    a bool, int or float, a treadle scalar, vector, matrix, quaternion, transform or struct;
    anything else (numpy scalars included, as in Warp) is a TypeError."""
    if type(x) in (bool, int, float) or isinstance(x, (scalar_base, composite_base,
                                                        StructInstance)):
        return x
    raise TypeError(f"Invalid constant type: {type(x)}")
