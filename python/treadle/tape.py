"""wp.Tape: a thin wrapper of the C++ tape (treadle/tape.h), which records launches, copies and
custom steps and runs their backward passes in reverse order.

Beyond Warp, the tape refuses to compute a gradient it knows is wrong. Every array's memory
carries a write counter (bumped by each launch that may write it and by host writes such as
``assign`` or ``fill_``). The C++ tape remembers the counter of every array a recorded launch
reads; ``backward()`` raises before running anything if one changed since, because the backward
pass would replay the launch with the overwritten values. Writes made through a numpy view of an
array's memory are not seen.
"""

import os
import sys
import threading

from . import _treadle, config
from . import tape_graph as _tape_graph
from .logger import log_warning
from .struct import StructInstance

# The tape recording on each thread (one at a time per thread, as Warp allows one): a tape
# records only the launches and copies of the thread that entered it.
_local = threading.local()
# How many tapes record now, on any thread: launch() looks further only when this is nonzero.
_recording = [0]


def _backward_warning(message):
    """A warning of the C++ tape's backward pass, shown as Warp shows it. Programs patch
    ``warp._src.context.log_warning``, so it is looked up there at each call when that
    compatibility module is loaded (it sits above this one)."""
    context = sys.modules.get(__package__ + "._src.context")
    warn = getattr(context, "log_warning", log_warning)
    warn(message, category=UserWarning, stacklevel=5, once=True)


def current():
    """The tape recording on this thread, or None."""
    return _local.__dict__.get("tape") if _recording[0] else None


# --- wp.config.verify_autograd_array_access: warn of writes after recorded reads -----------

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep

_CORRUPTS = "This may corrupt gradient computation in the backward pass."


def caller_location():
    """(file, line) of the first frame outside treadle's package, or (None, None)."""
    frame = sys._getframe(1)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE_DIR):
        frame = frame.f_back
    return (None, None) if frame is None else (frame.f_code.co_filename, frame.f_lineno)


def note_write(array, arg_name=None, kernel_name=None, filename=None, lineno=None,
               operation=None):
    """Warns when `array`'s memory was read by a launch recorded on a tape (its read flag is
    set): a write now changes what the backward pass of that launch replays."""
    if not array._is_read:
        return
    if kernel_name is not None:
        where = (f"passed to argument {arg_name} in kernel {kernel_name} at {filename}:{lineno} "
                 "is being written to but")
    elif operation is not None:
        where = f"is being written to by {operation} at {filename}:{lineno} but"
    else:
        where = "is being written to but"
    log_warning(f"Array {array} {where} has already been read from in a previous launch. "
                f"{_CORRUPTS}")


def note_kernel_build(kernel, handle):
    """Warns, once per build, of arrays a kernel writes after reading them itself (treadle's
    own kernels, such as wp.utils', are not the user's to fix and are not reported)."""
    if kernel.module.name.startswith("treadle."):
        return
    file, line = (kernel._source[1], kernel._source[2]) if kernel._source else ("?", 0)
    for (name, _), access in zip(handle.params, handle.param_access):
        if access & 4:
            log_warning(f"Array passed to argument {name} in kernel {kernel.key} at {file}:{line} "
                        "is being written to after it has been read from within the same "
                        f"kernel. {_CORRUPTS}")


def _launch_arrays(args):
    for a in args:
        if getattr(a, "_is_indexedarray", False):
            a = a.data  # an indexed array reads and writes its data array
        yield a if isinstance(a, _treadle.Array) else None


def _struct_arrays(s):
    """The arrays held by struct instance `s` and the structs nested in it."""
    for f in type(s)._fields:
        v = object.__getattribute__(s, f.name)
        if isinstance(v, StructInstance):
            yield from _struct_arrays(v)
        elif isinstance(v, _treadle.Array):
            yield v
        elif getattr(v, "_is_indexedarray", False) and v.data is not None:
            yield v.data


def _struct_gradients(s):
    """An instance of `s`'s struct whose array fields hold the gradients of `s`'s arrays (None
    where one has none) and whose nested structs are mirrored the same way (Warp's
    ``Tape.gradients`` entry of a struct)."""
    out = type(s)()
    for f in type(s)._fields:
        v = object.__getattribute__(s, f.name)
        if isinstance(v, StructInstance):
            setattr(out, f.name, _struct_gradients(v))
        elif isinstance(v, _treadle.Array):
            setattr(out, f.name, v.grad)
    return out


class _Launch:
    """A recorded launch, as ``Tape.launches`` lists it."""

    __slots__ = ("args", "block_dim", "device", "dim", "kernel", "max_blocks", "n_inputs", "stream")

    def __init__(self, kernel, dim, args, n_inputs, device, stream, max_blocks=0, block_dim=256):
        self.kernel = kernel
        self.max_blocks = max_blocks
        self.block_dim = block_dim
        self.dim = dim
        self.args = args
        self.n_inputs = n_inputs
        self.device = device
        self.stream = stream

    def arrays(self):
        return [a for a in _launch_arrays(self.args) if a is not None]

    def backward(self):
        k = self.kernel
        if not k._backward_enabled():
            # As Warp: the launch contributes no gradient, and the tape says so.
            where = ("is configured with the option 'enable_backward=False'."
                     if k.options.get("enable_backward") is False else
                     "is defined in a module with the option 'enable_backward=False' set.")
            log_warning("Running the tape backwards may produce incorrect gradients because "
                        f"recorded kernel {k.key} {where}", category=UserWarning)
            return
        k._run_adjoint(self.dim, self.args, None, self.device, self.stream, self.max_blocks,
                       self.block_dim)


class _Copy:
    __slots__ = ("dest", "src")

    def __init__(self, dest, src):
        self.dest = dest
        self.src = src

    def arrays(self):
        return (self.dest, self.src)


class _Func:
    __slots__ = ("_arrays", "backward")

    def __init__(self, backward, arrays):
        self.backward = backward
        self._arrays = arrays

    def arrays(self):
        return [a for a in self._arrays if isinstance(a, _treadle.Array)]


class Tape:
    """Records kernel launches (and wp.copy / array.assign) made inside ``with tape:``;
    ``backward()`` then computes the gradients of the recorded computation."""

    def __init__(self):
        self._tape = _treadle.Tape()
        self._tape.set_warning_handler(_backward_warning)
        self.launches = []  # what was recorded, in order (_Launch, _Copy, _Func)
        self.scopes = []  # (launch index, name, metadata) at a begin, (index, None, None) an end
        self.loss = None
        self._seeded = {}  # id -> array given in backward(grads=...)
        # id -> every array and struct argument seen, kept by reset() (as Warp's gradients)
        self._seen = {}

    # --- recording ---
    def __enter__(self):
        if current() is not None:
            raise RuntimeError("Tape: another tape is already recording")
        _local.tape = self
        _recording[0] += 1
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        _local.tape = None
        _recording[0] -= 1

    def _record_launch(self, kernel, handle, dim, args, n_inputs, device, stream, max_blocks=0,
                       block_dim=256):
        entry = _Launch(kernel, dim, list(args), n_inputs, device, stream, max_blocks, block_dim)
        self._tape.record_launch(handle, entry.args, entry.backward)
        self.launches.append(entry)
        self._remember(entry)
        if config.verify_autograd_array_access:
            self._check_access(kernel, handle, entry.args)

    def _check_access(self, kernel, handle, args):
        """Warp's checks of a recorded launch: warns of a write to memory a recorded launch
        read, then flags the memory this launch reads. Writes are checked first: a kernel may
        write an array and then read it."""
        file, line = (kernel._source[1], kernel._source[2]) if kernel._source else ("?", 0)
        for a, (name, _), access in zip(_launch_arrays(args), handle.params, handle.param_access):
            if a is None:
                continue
            if access & 2:
                note_write(a, arg_name=name, kernel_name=kernel.key, filename=file, lineno=line)
            if access & 1:
                a._is_read = True

    def _remember(self, entry):
        for a in entry.arrays():
            self._seen[id(a)] = a
        for a in getattr(entry, "args", ()):
            if isinstance(a, StructInstance):
                self._seen[id(a)] = a

    def _record_copy(self, dest, src):
        self._tape.record_copy(dest, src)
        self.launches.append(_Copy(dest, src))
        self._remember(self.launches[-1])
        if config.verify_autograd_array_access:
            file, line = caller_location()
            note_write(dest, operation="an array copy", filename=file, lineno=line)
            src._is_read = True

    def _clear_read_flags(self):
        """Clears the read flags of the memory the recorded steps used (their reads are
        consumed by backward(), or forgotten by reset())."""
        for entry in self.launches:
            for a in entry.arrays():
                a._is_read = False

    def record_func(self, backward, arrays):
        """Records a custom backward step: ``backward()`` is called in its place during
        ``Tape.backward``; ``arrays`` are the arrays whose gradients it uses or fills."""
        entry = _Func(backward, list(arrays))
        self._tape.record_func(backward, entry._arrays)
        self.launches.append(entry)
        self._remember(entry)

    def record_scope_begin(self, scope_name, metadata=None):
        """Opens a named group of the steps recorded from now on (for visualize() only)."""
        self.scopes.append((len(self.launches), scope_name, {} if metadata is None else metadata))

    def record_scope_end(self, remove_scope_if_empty=True):
        """Closes the innermost open scope; one that holds no step is dropped when
        `remove_scope_if_empty`. RuntimeError when no scope is open."""
        depth = sum(-1 if name is None else 1 for _, name, _ in self.scopes)
        if depth == 0:
            raise RuntimeError("Tape.record_scope_end(): ended tape scope, but scope not present")
        last = self.scopes[-1]
        if remove_scope_if_empty and last[1] is not None and last[0] == len(self.launches):
            self.scopes.pop()
        else:
            self.scopes.append((len(self.launches), None, None))

    def visualize(self, filename=None, simplify_graph=True, hide_readonly_arrays=False,
                  array_labels=None, choose_longest_node_name=True, ignore_graph_scopes=False,
                  track_inputs=None, track_outputs=None, track_input_names=None,
                  track_output_names=None, graph_direction="LR"):
        """The recorded steps as GraphViz dot code (written to `filename` too, when given):
        kernels and copies as nodes, arrays as nodes joined to the steps that read and write
        them, scopes as clusters; with `simplify_graph`, runs of one launch repeated with the
        same arguments become one node ("repeated Nx")."""
        return _tape_graph.dot_code(
            self, filename=filename, simplify_graph=simplify_graph,
            hide_readonly_arrays=hide_readonly_arrays, array_labels=array_labels or {},
            ignore_graph_scopes=ignore_graph_scopes,
            track_inputs=list(zip(track_inputs or [], track_input_names or [])),
            track_outputs=list(zip(track_outputs or [], track_output_names or [])),
            graph_direction=graph_direction)

    # --- backward ---
    def backward(self, loss=None, grads=None):
        """Runs the recorded operations backward. ``loss``: a one-element array whose
        gradient is seeded with 1. ``grads``: {array: gradient} seeds for output arrays."""
        for a, g in (grads or {}).items():
            self._seeded[id(a)] = a
            if a.grad is None:
                a.grad = g
            else:
                a.grad.assign(g)
        if loss is None:
            self._tape.backward()
        else:
            self.loss = loss
            self._tape.backward_from(loss)
        if config.verify_autograd_array_access:
            self._clear_read_flags()

    # --- gradients ---
    def _arrays(self):
        seen = dict(self._seeded)
        seen.update((k, a) for k, a in self._seen.items() if not isinstance(a, StructInstance))
        return seen.values()

    @property
    def gradients(self):
        """{array: gradient array} for every recorded array that has a gradient, and {struct:
        a struct of the gradients of its arrays} for every struct argument of a launch."""
        out = {a: a.grad for a in self._arrays() if a.grad is not None}
        for s in self._seen.values():
            if isinstance(s, StructInstance):
                out[s] = _struct_gradients(s)
        return out

    def get_adjoint(self, a):
        """The gradient array of ``a`` (None when it has none)."""
        return getattr(a, "grad", None)

    def zero(self):
        """Zeroes the gradients of every array the tape has seen."""
        self._tape.zero()
        for a in self._seeded.values():
            if a.grad is not None:
                a.grad.zero_()
        for s in self._seen.values():
            if isinstance(s, StructInstance):
                for a in _struct_arrays(s):
                    if a.grad is not None:
                        a.grad.zero_()

    def reset(self):
        """Forgets the recorded operations and zeroes the gradients."""
        if config.verify_autograd_array_access:
            self._clear_read_flags()
        self.zero()
        self._tape.reset()
        self.launches = []
        self.scopes = []
        self.loss = None
        self._seeded = {}
