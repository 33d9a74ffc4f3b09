"""wp.launch: run compiled kernels over a launch grid."""


import numpy as np

from . import _treadle, config
from . import context as _context
from . import tape as _tape
from .context import get_device
from .generics import specialise_for_arguments
from .kernel import Kernel
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
        if not hasattr(stream, "cuda_stream") or not hasattr(stream, "device"):
            raise TypeError(f"launch(): stream must be a wp.Stream, got {type(stream).__name__}")
        device = stream.device.alias  # a stream decides the device, as in Warp
        handle_of_stream = stream.cuda_stream
    args = [*inputs, *outputs] if outputs else inputs if inputs is not None else ()
    key = (device, config.mode, config.verify_fp)
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
    if _tape._recording[0] and record_tape and _tape.current() is not None:
        _tape.current()._record_launch(kernel, handle, dim, args, len(inputs), device, stream,
                                      max_blocks, block_dim)
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
    adj = [*adj_inputs, *adj_outputs] if adj_inputs or adj_outputs else None
    kernel._run_adjoint(dim, [*inputs, *outputs], adj, device, stream, max_blocks, block_dim)


def _resolve(kernel, device):
    """The compiled kernel for `device` (compiling it if needed), remembered for launch()."""
    if not isinstance(kernel, Kernel):
        raise TypeError(f"launch(): expected a kernel, got {type(kernel).__name__}")
    handle = kernel._compile(get_device(device).alias)
    if device is not None:
        kernel._launch_cache[(device, config.mode, config.verify_fp)] = handle
    return handle
