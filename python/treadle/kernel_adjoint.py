"""What Warp programs read from ``Kernel.adj`` (Warp's Adjoint): the kernel's source, name,
file and first line, and its arguments with whether the kernel reads or writes each array.

treadle's compiler is C++ and has no Python code builder, so this is an introspection object
only: the access flags and the launch dimension come from the kernel's CPU build (made on
first use), never from a Python pass over the source."""

import inspect

# Bits of CompiledKernel.param_access
_READ, _WRITE = 1, 2


class KernelArg:
    """One kernel parameter as Warp's Adjoint lists it: ``label`` (its name), ``type`` (its
    annotation) and, once built, ``is_read`` / ``is_write`` (arrays the kernel may load from
    or store or update into, following the functions it calls)."""

    def __init__(self, label, type_, access):
        self.label = label
        self.type = type_
        self.is_read = bool(access & _READ)
        self.is_write = bool(access & _WRITE)

    def __repr__(self):
        return f"KernelArg({self.label!r}, read={self.is_read}, write={self.is_write})"


class KernelAdjoint:
    """``kernel.adj`` for a @wp.kernel: see the module docstring."""

    def __init__(self, kernel, compile_cpu):
        self._kernel = kernel
        self._compile_cpu = compile_cpu  # () -> _treadle.CompiledKernel

    @property
    def func(self):
        """The Python function the kernel was made from."""
        return self._kernel.func

    @property
    def fun_name(self):
        return self._kernel.__name__

    @property
    def source(self):
        """The text of the kernel's def, as the compiler reads it."""
        return self._kernel._function_source().source

    @property
    def filename(self):
        return self._kernel._function_source().file

    @property
    def fun_lineno(self):
        return self._kernel._function_source().line

    def _build(self):
        return self._compile_cpu()

    def build(self, builder=None):
        """Runs the compiler's front end and code generation over the kernel (Warp's
        Adjoint.build): reports the mistakes in its source, as a build would. `builder` must be
        None (treadle's builds are not made through a Python builder)."""
        if builder is not None:
            raise NotImplementedError(
                "KernelAdjoint.build(): treadle builds kernels in C++; pass builder=None")
        self._kernel._generated_source()

    @property
    def called_user_functions(self):
        """The @wp.func objects the kernel's code names, in the order the compiler first met
        them (an ordered set: a dict of None values)."""
        self._kernel._generated_source()  # the compiler resolves the names it meets
        referenced = self._kernel._resolver.referenced
        # a kernel named in a kernel (an error the compiler reports) holds builds
        return {f: None for f in referenced if not hasattr(f, "_builds")}

    @property
    def args(self):
        """The parameters in order (a generic kernel's as annotated, without access flags)."""
        params = list(inspect.signature(self._kernel.func).parameters.values())
        if self._kernel._generic_params:
            return [KernelArg(p.name, p.annotation, 0) for p in params]
        access = dict(zip((name for name, _ in self._build().params), self._build().param_access))
        return [KernelArg(p.name, p.annotation, access.get(p.name, 0)) for p in params]

    @property
    def kernel_dim(self):
        """How many indices the kernel takes from wp.tid() (1 when it takes none)."""
        return max(1, self._build().tid_arity)

    def __repr__(self):
        return f"<KernelAdjoint of {self._kernel.__qualname__}>"
