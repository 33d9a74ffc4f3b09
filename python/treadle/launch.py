"""wp.launch: run compiled kernels over a launch grid."""


import numpy as np

from . import _treadle, config
from . import context as _context
from . import cpu_capture as _cpu_capture
from . import logger as _logger
from . import tape as _tape
from . import timeline as _timeline
from .context import get_device
from .generics import kernel_parameters, specialise_for_arguments
from .kernel import Kernel
from .launch_args import composite_argument, fix_composite_arguments
from .launch_foreign import foreign_arrays
from .type_classes import class_of
from .vec_types import composite_base

# The packer reads vector/matrix components and numpy arrays straight from these classes.
_treadle.set_value_classes(composite_base, np.ndarray)


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
    """Runs `kernel` once for every index of `dim` (an int or a tuple of up to 4 ints). On a
    CUDA device the launch is enqueued on `stream` (a wp.Stream, which also decides the device)
    or, by default, on the device's current stream, in blocks of `block_dim` threads, at most
    `max_blocks` of them (0: as many as needed); CPU launches ignore both, as in Warp."""
    if record_cmd:
        cmd = Launch(kernel, stream.device if stream is not None else device,
                     params=[*inputs, *outputs], max_blocks=max_blocks, block_dim=block_dim,
                     adjoint=adjoint)
        cmd.set_dim(dim)
        if adjoint and (adj_inputs or adj_outputs):
            cmd.adj_params = [*adj_inputs, *adj_outputs]
        return cmd
    if adjoint:
        return _launch_adjoint(kernel, dim, inputs, outputs, adj_inputs, adj_outputs, device,
                               stream, max_blocks, block_dim)
    # The hot path: one dict lookup finds the compiled kernel for this device argument. With
    # no stream, the native runtime enqueues on the device's current stream (handle 0).
    if stream is None:
        handle_of_stream = 0
        if device is None:
            current = _context._local.__dict__.get("device") or _context._default_device
            device = current.alias if current is not None else None
    else:
        if not hasattr(stream, "cuda_stream") or not hasattr(stream, "device"):
            raise TypeError(f"launch(): stream must be a wp.Stream, got {type(stream).__name__}")
        device = stream.device.alias  # a stream decides the device, as in Warp
        handle_of_stream = stream.cuda_stream
    args = [*inputs, *outputs] if outputs else inputs if inputs is not None else ()
    key = (device, config.mode, config.verify_fp, config.optimization_level,
           config.cpu_compiler_flags)
    try:
        handle = kernel._launch_cache[key]
    except (KeyError, AttributeError, TypeError):
        handle = None
    if handle is None:  # resolved outside the except block: a compile error raises alone
        if getattr(kernel, "_generic_params", None):  # a generic kernel: its specialisation
            kernel = specialise_for_arguments(kernel, args)
            handle = kernel._launch_cache.get(key)
            handle = handle or _resolve(kernel, device)
        else:
            handle = _resolve(kernel, device)
    if block_dim != 256 and handle.tile_block_dim and handle.device != "cpu":
        handle = kernel._compile(handle.device, block_dim)  # its tiles need this block size
    if _tape._recording[0] and record_tape and _tape.current() is not None:
        args = foreign_arrays(kernel, args, handle.device) or args  # the tape keeps arrays
        _tape.current()._record_launch(kernel, handle, dim, args, len(inputs), device, stream,
                                      max_blocks, block_dim)
    if config.print_launches:
        _logger.log_info(f"kernel: {kernel.key} dim: {dim} device: {handle.device}")
    if _cpu_capture.depth[0] and _cpu_capture.active() is not None and handle.device == "cpu":
        # recorded with the compiled kernel it resolved now, replayed by capture_launch
        args = list(args)
        _cpu_capture.active().add(lambda: _treadle.launch(handle, dim, args, 0, False, None,
                                                          max_blocks, block_dim))
        return
    timed = _timeline.now() if _timeline.active[0] else 0
    try:
        if max_blocks or block_dim != 256:
            _treadle.launch(handle, dim, args, handle_of_stream, False, None, max_blocks,
                            block_dim)
        else:
            _treadle.launch(handle, dim, args, handle_of_stream)
    except TypeError as e:  # another library's arrays; Warp's own errors, or a deprecated
        # value Warp still widens
        fixed = foreign_arrays(kernel, args, handle.device)
        fixed = fix_composite_arguments(kernel, fixed or args, e) or fixed
        if fixed is None:
            raise
        _treadle.launch(handle, dim, fixed, handle_of_stream, False, None, max_blocks, block_dim)
    if timed:
        _timeline.record_kernel(kernel.key, handle.device, timed)


def _launch_adjoint(kernel, dim, inputs, outputs, adj_inputs, adj_outputs, device, stream,
                    max_blocks=0, block_dim=256):
    """The backward pass of one launch: gradients flow from the adjoints of the outputs (by
    default each array's .grad) to the adjoints of the inputs. Never recorded on a tape."""
    if not isinstance(kernel, Kernel):
        raise TypeError(f"launch(): expected a kernel, got {type(kernel).__name__}")
    adj = [*adj_inputs, *adj_outputs] if adj_inputs or adj_outputs else None
    kernel._run_adjoint(dim, [*inputs, *outputs], adj, device, stream, max_blocks, block_dim)


def _resolve(kernel, device):
    """The compiled kernel for `device` (compiling it if needed), remembered for launch()."""
    if not isinstance(kernel, Kernel):
        raise TypeError(f"launch(): expected a kernel, got {type(kernel).__name__}")
    handle = kernel._compile(get_device(device).alias)
    if device is not None:
        kernel._launch_cache[(device, config.mode, config.verify_fp, config.optimization_level,
                              config.cpu_compiler_flags)] = handle
    return handle


def _zero_argument(t):
    """The value an unset parameter of Type `t` takes in a wp.Launch: None for an array (or a
    generic parameter), else the type's zero (scalars, vectors, matrices, structs)."""
    if t.kind in ("array", "generic"):
        return None
    try:
        cls = class_of(t)
        if t.kind in ("vector", "matrix", "quat", "transform"):  # all zero, as in Warp (not
            return cls._new(np.zeros(cls._shape, dtype=cls._np_dtype))  # an identity transform)
        return cls()
    except TypeError:
        return None


class Launch:
    """A kernel launch kept to run again (Warp's ``wp.Launch``): what ``wp.launch(...,
    record_cmd=True)`` returns, or ``Launch(kernel, device, adjoint=False)`` with every
    parameter at its zero value (arrays None). Change it with ``set_param_at_index``,
    ``set_param_by_name`` (``adjoint=True``: the parameter's adjoint, by default its
    ``.grad``) and ``set_dim``, then ``launch()`` it as often as needed; structs are held by
    reference, so later changes to their fields are seen. Arguments are checked when it is
    launched. Launches of a Launch are not recorded on a tape."""

    def __init__(self, kernel, device=None, hooks=None, params=None, params_addr=None,
                 bounds=None, max_blocks=0, block_dim=256, adjoint=False):
        if not isinstance(kernel, Kernel):
            raise TypeError(f"Launch(): expected a kernel, got {type(kernel).__name__}")
        if hooks is not None or params_addr is not None:
            raise NotImplementedError(
                "Launch(): hooks and params_addr (Warp's packed ctypes parameters) do not exist in "
                "treadle; pass params (the argument values) instead")
        declared = kernel_parameters(kernel)
        self.kernel = kernel
        self.device = get_device(device)
        self.adjoint = bool(adjoint)
        self.max_blocks = max_blocks
        self.block_dim = block_dim
        self._names = [name for name, _, _ in declared]
        self._types = [t for _, t, _ in declared]
        if params is None:
            params = [_zero_argument(t) for _, t, _ in declared]
        elif len(params) != len(declared):
            raise ValueError(f"Launch(): {kernel.key} takes {len(declared)} arguments, got "
                             f"{len(params)}")
        self.params = list(params)
        self.adj_params = [None] * len(declared)
        self.dim = (0,) if bounds is None else bounds

    def _index(self, name):
        try:
            return self._names.index(name)
        except ValueError:
            raise KeyError(f"Launch: {self.kernel.key} has no parameter '{name}'") from None

    def set_dim(self, dim):
        """The launch grid of later launches (an int or a tuple of up to 4 ints)."""
        self.dim = dim

    def set_param_at_index(self, index, value, adjoint=False):
        """Sets parameter `index` (or, with `adjoint`, its adjoint array)."""
        if adjoint:
            self.adj_params[index] = value
        else:  # Warp refuses a single value for a composite parameter here already
            self.params[index] = composite_argument(self.kernel, self._names[index],
                                                    self._types[index], value)

    def set_param_by_name(self, name, value, adjoint=False):
        """Sets the parameter called `name` (or, with `adjoint`, its adjoint array)."""
        self.set_param_at_index(self._index(name), value, adjoint)

    def set_param_at_index_from_ctype(self, index, value):
        """As set_param_at_index: treadle has no ctypes parameter records, so `value` is the
        argument itself (a ctypes object, such as an array's ``__ctype__()``, is a
        LaunchArgumentError: a TypeError and a RuntimeError)."""
        if type(value).__module__ == "ctypes" or hasattr(value, "_fields_"):
            raise _treadle.LaunchArgumentError(
                f"Launch: {self.kernel.key} takes argument values, not raw ctypes records (pass "
                f"the array or value itself to set_param_at_index / set_param_by_name)")
        self.set_param_at_index(index, value)

    def set_param_by_name_from_ctype(self, name, value):
        """As set_param_by_name (see set_param_at_index_from_ctype)."""
        self.set_param_at_index_from_ctype(self._index(name), value)

    def launch(self, stream=None):
        """Runs the launch (its backward pass when made with adjoint=True) on `stream`, by
        default the device's current stream."""
        if self.adjoint:
            _launch_adjoint(self.kernel, self.dim, self.params, (), self.adj_params, (),
                            self.device, stream, self.max_blocks, self.block_dim)
        else:
            launch(self.kernel, self.dim, self.params, device=self.device, stream=stream,
                   record_tape=False, max_blocks=self.max_blocks, block_dim=self.block_dim)


def launch_tiled(*args, **kwargs):
    """Warp's launch of a grid of thread blocks that work on tiles together: `dim` (a keyword,
    up to 3 dimensions) counts blocks, and each gets `block_dim` (a keyword) threads, so the
    launch is wp.launch(kernel, [*dim, block_dim], ..., block_dim=block_dim); inside, ``i, j =
    wp.tid()`` gives the block's index. On the CPU a block is one thread (block_dim 1)."""
    if "dim" not in kwargs:
        raise RuntimeError("Launch dimensions 'dim' argument should be passed via. keyword args "
                           "for wp.launch_tiled()")
    if "block_dim" not in kwargs:
        raise RuntimeError("Launch block dimension 'block_dim' argument should be passed via. "
                           "keyword args for wp.launch_tiled()")
    stream = kwargs.get("stream")
    device = stream.device if stream is not None else get_device(kwargs.get("device"))
    if device.is_cpu:
        kwargs["block_dim"] = 1
    dim = kwargs["dim"]
    dim = [dim] if isinstance(dim, (int, np.integer)) else list(dim)
    if len(dim) > 3:
        raise RuntimeError("wp.launch_tiled() requires a grid with fewer than 4 dimensions")
    kwargs["dim"] = [*dim, kwargs["block_dim"]]
    return launch(*args, **kwargs)

