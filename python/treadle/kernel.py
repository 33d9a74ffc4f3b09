"""@wp.kernel and @wp.func: capture a Python function's source for the C++ compiler."""

import inspect
import linecache
import os
import weakref

from . import _treadle, config
from .builtin_functions import BUILTINS as builtins  # noqa: F401 - kernel.builtins
from .builtin_functions import builtin_function  # noqa: F401 - used by resolver.py

_native_dir_set = False
_module_options = {}
# [n], bumped whenever module options change, so launch caches keyed on it go stale.
options_generation = [0]
# Every live kernel, for wp.load_module and wp.force_load.
registry = weakref.WeakSet()


def _ensure_native_dir():
    global _native_dir_set
    if _native_dir_set:
        return
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(here, "native"), os.path.join(here, "..", "..", "native")):
        if os.path.isfile(os.path.join(candidate, "treadle", "core.h")):
            _treadle.set_native_dir(os.path.abspath(candidate))
            break
    _native_dir_set = True


def _source_of(func):
    """The source text of `func`'s definition (decorators included), its file and first line.

    Reads the file through linecache and cuts the block at the code object's first line:
    much cheaper than inspect.getsourcelines, which searches sys.modules for the module.
    """
    code = getattr(func, "__code__", None)
    lines = linecache.getlines(code.co_filename, func.__globals__) if code else []
    if not lines or code.co_firstlineno > len(lines):
        raise RuntimeError(
            f"cannot read the source of '{func.__qualname__}'; kernels and functions must be "
            "defined in a file, not typed into an interactive prompt"
        )
    first_line = code.co_firstlineno
    block = _cut_block(lines, first_line - 1) or inspect.getblock(lines[first_line - 1 :])
    # The compiler needs the def, not the decorators (whose arguments, such as an options
    # dict, may be any Python): blank them, keeping the line numbers.
    block = list(block)
    for i, line in enumerate(block):
        if line.lstrip().startswith(("def ", "async def ")):
            break
        block[i] = "\n"
    return "".join(block), os.path.abspath(code.co_filename), first_line


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


class Function:
    """A user function (@wp.func) callable from kernels and, as plain Python, from the host."""

    def __init__(self, func):
        self.func = func
        self.key = f"{func.__module__}.{func.__qualname__}#{id(self)}"
        self.__name__ = func.__name__
        self.__qualname__ = func.__qualname__
        self.__module__ = func.__module__
        self.__doc__ = func.__doc__
        self.__wrapped__ = func
        self._source = None
        self._resolver = None
        self._custom_grad = None  # Function registered with @wp.func_grad(self)
        self._custom_replay = None  # Function registered with @wp.func_replay(self)
        # Every @wp.func definition of this name (overloads by annotation), self first; see
        # generics.register_function.
        self._overloads = [self]

    def _function_source(self, with_overloads=True, **fields):
        """The FunctionSource the compiler reads (src/python/export_function.cpp): this
        function's source and resolver, its custom gradient and replay, and its overloads;
        `fields` adds the kernel-only ones (arg_types, max_unroll)."""
        if self._source is None:
            self._source = _source_of(self.func)
            self._resolver = _make_resolver(self.func)
        text, filename, line = self._source
        grad, replay = self._custom_grad, self._custom_replay
        overloads = ()
        if with_overloads and len(self._overloads) > 1:
            overloads = [f._function_source(with_overloads=False) for f in self._overloads]
        return _treadle.FunctionSource(
            key=self.key, name=self.__name__, source=text, file=filename, line=line,
            is_kernel=isinstance(self, Kernel), resolver=self._resolver,
            custom_grad=None if grad is None else grad._function_source(),
            custom_replay=None if replay is None else replay._function_source(),
            overloads=overloads, **fields)

    def __call__(self, *args, **kwargs):
        return self.func(*args, **kwargs)

    def __repr__(self):
        return f"<treadle function {self.__qualname__}>"


class Kernel(Function):
    """A kernel (@wp.kernel): compiled on first launch, once per device and mode."""

    def __init__(self, func, key=None, module=None, enable_backward=None, options=None):
        super().__init__(func)
        if key:
            self.key = key
        # module="unique": a module of its own (options of the defining module still apply).
        self._defining_module = func.__module__
        if module == "unique":
            module = f"{func.__module__}.{func.__qualname__}.unique_{id(self):x}"
        self.module = module if module is not None else func.__module__
        self.options = dict(options or {})
        if enable_backward is not None:
            self.options["enable_backward"] = enable_backward
        self._compiled = {}
        # launch() fast path: (device argument, config.mode, options generation) -> handle
        self._launch_cache = {}
        self._built_max_unroll = None  # the max_unroll of the builds in _compiled
        # Generic kernels (generics.py): the compiler's reading of the parameters, the type
        # spec (or None: the annotation) of every parameter of a specialisation, and the
        # specialisations made so far, by their type specs and by launch argument types.
        self._params = None
        self._arg_types = None
        self._specialisations = {}
        self._by_arguments = {}
        registry.add(self)

    def _function_source(self, with_overloads=False, **fields):
        if self._arg_types is not None:
            fields["arg_types"] = list(self._arg_types)
        return super()._function_source(False, max_unroll=self._max_unroll(), **fields)

    @property
    def _generic_params(self):
        """The names of the generic parameters, or None (see generics.generic_params)."""
        from .generics import generic_params

        return generic_params(self)

    def _option(self, name):
        """A compile option: the kernel's own, else its module's, else the defining module's."""
        if name in self.options:
            return self.options[name]
        for module in (self.module, self._defining_module):
            value = _module_options.get(module, {}).get(name)
            if value is not None:
                return value
        return None

    def _mode(self):
        return self._option("mode") or config.mode

    def _max_unroll(self):
        value = self._option("max_unroll")
        return int(config.max_unroll if value is None else value)

    def _sync_options(self):
        """Forgets the builds made under another max_unroll (it changes the generated code)."""
        unroll = self._max_unroll()
        if unroll != self._built_max_unroll:
            self._compiled.clear()
            self._launch_cache.clear()
            self._built_max_unroll = unroll

    def _verify_fp(self):
        """Whether launches check every float store for NaN/Inf: the kernel's option, else
        its module's (wp.set_module_options({"verify_fp": True})), else wp.config.verify_fp."""
        for options in (self.options, _module_options.get(self.module, {})):
            if options.get("verify_fp") is not None:
                return bool(options["verify_fp"])
        return bool(config.verify_fp)

    def _build(self, key, what, **options):
        """The build cached under `key` in _compiled, compiled (or loaded from the disk cache)
        with `options` for _treadle.compile_kernel on first use."""
        handle = self._compiled.get(key)
        if handle is None:
            _prepare_compiler()
            handle = _treadle.compile_kernel(self._function_source(), key[1], key[0], **options)
            self._store(key, handle, what)
        return handle

    def _store(self, key, handle, what=""):
        self._compiled[key] = handle
        if config.verbose:
            how = "loaded from cache" if handle.from_cache else (
                f"compiled in {handle.compile_seconds * 1000:.0f} ms")
            print(f"treadle: kernel {self.__name__}{what} {how}")

    def _forward_key(self, device):
        """(key in _compiled, verify_fp) of the forward build for `device`."""
        self._sync_options()
        mode = self._mode()
        if self._verify_fp():
            return (device, mode, "verify_fp", True), True
        return (device, mode), False

    def _compile(self, device="cpu"):
        """The compiled kernel for `device` (an alias such as "cpu" or "cuda:0"), built or
        loaded from the cache once per device, mode and verify_fp setting."""
        key, verify_fp = self._forward_key(device)
        return self._build(key, "", verify_fp=verify_fp)

    def _compile_adjoint(self, device="cpu"):
        """The build of the kernel with its backward pass for `device`: compiled on first use by
        the C++ kernel object of the forward build, which keeps it. Kernels that never run
        backward never generate adjoint code."""
        if self.options.get("enable_backward") is False:
            raise RuntimeError(
                f"kernel '{self.__name__}' was declared with enable_backward=False, so it has "
                "no backward pass"
            )
        return self._compile(device).with_adjoint()

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            f"kernel '{self.__name__}' cannot be called directly; use wp.launch({self.__name__}, "
            "dim=..., inputs=[...])"
        )

    def __repr__(self):
        return f"<treadle kernel {self.__qualname__}>"


def _prepare_compiler():
    _ensure_native_dir()
    if config.kernel_cache_dir:
        _treadle.set_kernel_cache_dir(str(config.kernel_cache_dir))


def compile_all(kernels, device):
    """Compiles the forward builds of `kernels` for `device` that are not built yet: front ends
    in order, then the C++ builds in parallel on the runtime's build threads."""
    pending = []
    for k in kernels:
        if k._generic_params:  # generic kernels compile per specialisation, when launched
            continue
        key, verify_fp = k._forward_key(device)
        if key not in k._compiled:
            pending.append((k, key, verify_fp))
    if not pending:
        return
    _prepare_compiler()
    handles = _treadle.compile_kernels(
        [(k._function_source(), key[1], device, False, verify_fp)
         for k, key, verify_fp in pending])
    for (k, key, _), handle in zip(pending, handles):
        k._store(key, handle)


def _make_resolver(func):
    from .resolver import Resolver

    return Resolver(func)


def func(f):
    """Declares a function callable from kernels (Warp's @wp.func). A second definition of
    the same name in a module with other parameter annotations adds an overload."""
    from .generics import register_function

    return register_function(Function(f))


def _register_on(forward, attribute, decorator):
    """The decorator that stores Function(g) as forward.<attribute> and returns it."""
    if not isinstance(forward, Function):
        raise TypeError(f"{decorator}(): expects a @wp.func function")

    def register(g):
        setattr(forward, attribute, Function(g))
        return getattr(forward, attribute)

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


def kernel(f=None, *, enable_backward=None, module=None, options=None):
    """Declares a kernel (Warp's @wp.kernel), optionally with options: ``module`` (a module
    name, or ``"unique"`` for a module of its own), ``enable_backward``, and ``options``
    (per-kernel compile options such as ``{"max_unroll": 4}``)."""
    from .generics import register_kernel

    def make(g):
        return register_kernel(
            Kernel(g, module=module, enable_backward=enable_backward, options=options))

    return make if f is None else make(f)


def constant(x):
    """Marks a module-level value as a kernel constant (its value becomes part of the kernel)."""
    return x


def set_module_options(options, module=None):
    """Sets compile options ("mode": "release" | "checked" | "debug", "max_unroll": int,
    "verify_fp": bool, ...) for the kernels of a module."""
    if module is None:
        module = inspect.currentframe().f_back.f_globals.get("__name__", "__main__")
    elif not isinstance(module, str):
        module = module.__name__
    _module_options.setdefault(module, {}).update(options)
    options_generation[0] += 1


def get_module_options(module=None):
    if module is None:
        module = inspect.currentframe().f_back.f_globals.get("__name__", "__main__")
    elif not isinstance(module, str):
        module = module.__name__
    return {"mode": config.mode, "max_unroll": config.max_unroll, **_module_options.get(module, {})}


def clear_kernel_cache():
    """Removes the kernels treadle compiled from the disk cache, and nothing else in its
    folder. Raises RuntimeError naming the folder, and deletes nothing, when the folder is
    refused (owned by another user or writable by every user)."""
    _ensure_native_dir()
    if config.kernel_cache_dir:
        _treadle.set_kernel_cache_dir(str(config.kernel_cache_dir))
    _treadle.clear_kernel_cache()
