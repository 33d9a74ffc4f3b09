"""wp.launch and module loading: run compiled kernels over a launch grid."""

import sys

import numpy as np

from . import _treadle, config
from . import context as _context
from . import tape as _tape
from .context import get_device
from .generics import specialise_for_arguments
from .kernel import Kernel, compile_all, options_generation, registry
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
        raise NotImplementedError(
            "launch(): record_cmd=True (returning a wp.Launch to replay) is not supported; call "
            "wp.launch again, or capture launches once with wp.ScopedCapture and replay the graph"
        )
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
        device = stream.device.alias  # a stream decides the device, as in Warp
        handle_of_stream = stream.cuda_stream
    args = [*inputs, *outputs] if outputs else inputs
    key = (device, config.mode, config.verify_fp, options_generation[0])
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
    if _tape._current is not None and record_tape:
        _tape._current._record_launch(kernel, handle, dim, args, len(inputs), device, stream)
    if max_blocks or block_dim != 256:
        _treadle.launch(handle, dim, args, handle_of_stream, False, None, max_blocks, block_dim)
    else:
        _treadle.launch(handle, dim, args, handle_of_stream)


def _launch_adjoint(kernel, dim, inputs, outputs, adj_inputs, adj_outputs, device, stream,
                    max_blocks=0, block_dim=256):
    """The backward pass of one launch: gradients flow from the adjoints of the outputs (by
    default each array's .grad) to the adjoints of the inputs. Never recorded on a tape."""
    if not isinstance(kernel, Kernel):
        raise TypeError(f"launch(): expected a kernel, got {type(kernel).__name__}")
    if stream is not None:
        device = stream.device.alias
    alias = get_device(device).alias
    args = [*inputs, *outputs]
    if kernel._generic_params:
        kernel = specialise_for_arguments(kernel, args)
    handle = kernel._compile_adjoint(alias)
    adj = [*adj_inputs, *adj_outputs] if adj_inputs or adj_outputs else None
    _treadle.launch(handle, dim, args, 0 if stream is None else stream.cuda_stream, True, adj,
                    max_blocks, block_dim)


def _resolve(kernel, device):
    """The compiled kernel for `device` (compiling it if needed), remembered for launch()."""
    if not isinstance(kernel, Kernel):
        raise TypeError(f"launch(): expected a kernel, got {type(kernel).__name__}")
    alias = get_device(device).alias
    kernel._sync_options()
    handle = kernel._compile(alias)
    if device is not None:
        key = (device, config.mode, config.verify_fp, options_generation[0])
        kernel._launch_cache[key] = handle
    return handle


def load_module(module=None, device=None, recursive=False):
    """Compiles (or loads from the cache) every kernel of a Python module now, the builds in
    parallel on the runtime's build threads."""
    if module is None:
        module = sys._getframe(1).f_globals.get("__name__", "__main__")
    name = module if isinstance(module, str) else module.__name__
    kernels = [
        k for k in list(registry)
        if k.module == name or (recursive and k.module.startswith(name + "."))
    ]
    compile_all(kernels, get_device(device).alias)


def force_load(device=None, modules=None):
    """Compiles every kernel defined so far (of the given modules, when named)."""
    names = None if modules is None else {m if isinstance(m, str) else m.__name__ for m in modules}
    kernels = [k for k in list(registry) if names is None or k.module in names]
    compile_all(kernels, get_device(device).alias)
