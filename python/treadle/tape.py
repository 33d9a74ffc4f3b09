"""wp.Tape: records launches and copies, then runs their backward passes in reverse order.

Beyond Warp, the tape refuses to compute a gradient it knows is wrong. Every array's memory
carries a write counter (bumped by each launch that may write it and by host writes such as
``assign`` or ``fill_``). The tape remembers the counter of every array a recorded launch reads;
``backward()`` raises if one changed since, because the backward pass would replay the launch
with the overwritten values. Writes made through a numpy view of an array's memory are not
seen.
"""

from . import _treadle

# The tape recording now (Warp allows one at a time), read by launch() and copy().
_current = None

_READ = 1


class _Launch:
    __slots__ = ("kernel", "dim", "args", "n_inputs", "device", "stream", "reads")

    def __init__(self, kernel, dim, args, n_inputs, device, stream, reads):
        self.kernel = kernel
        self.dim = dim
        self.args = args
        self.n_inputs = n_inputs
        self.device = device
        self.stream = stream
        self.reads = reads  # [(parameter name, array, write counter before the launch)]


class _Copy:
    __slots__ = ("dest", "src")

    def __init__(self, dest, src):
        self.dest = dest
        self.src = src


class _Func:
    __slots__ = ("backward", "arrays")

    def __init__(self, backward, arrays):
        self.backward = backward
        self.arrays = arrays


class Tape:
    """Records kernel launches (and wp.copy / array.assign) made inside ``with tape:``;
    ``backward()`` then computes the gradients of the recorded computation."""

    def __init__(self):
        self.launches = []
        self.loss = None
        self._arrays = {}  # id -> array seen by the tape (for zero() and gradients)

    # --- recording ---
    def __enter__(self):
        global _current
        if _current is not None:
            raise RuntimeError("Tape: another tape is already recording")
        _current = self
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        global _current
        _current = None

    def _remember(self, a):
        if isinstance(a, _treadle.Array):
            self._arrays[id(a)] = a

    def _record_launch(self, kernel, handle, dim, args, n_inputs, device, stream):
        args = list(args)
        reads = []
        params = handle.params
        for i, access in enumerate(handle.param_access):
            if i >= len(args):
                break
            a = args[i]
            if getattr(a, "_is_indexedarray", False):
                a = a.data  # an indexed array reads and writes its data array
            if isinstance(a, _treadle.Array):
                self._remember(a)
                if access & _READ:
                    reads.append((params[i][0], a, a._version))
        self.launches.append(_Launch(kernel, dim, args, n_inputs, device, stream, reads))

    def _record_copy(self, dest, src):
        self._remember(dest)
        self._remember(src)
        self.launches.append(_Copy(dest, src))

    def record_func(self, backward, arrays):
        """Records a custom backward step: ``backward()`` is called in its place during
        ``Tape.backward``; ``arrays`` are the arrays whose gradients it uses or fills."""
        for a in arrays:
            self._remember(a)
        self.launches.append(_Func(backward, list(arrays)))

    # --- backward ---
    def backward(self, loss=None, grads=None):
        """Runs the recorded operations backward. ``loss``: a one-element array whose
        gradient is seeded with 1. ``grads``: {array: gradient} seeds for output arrays."""
        if loss is not None:
            if loss.grad is None:
                raise ValueError("Tape.backward(): the loss array needs requires_grad=True")
            if loss.size != 1:
                raise ValueError(
                    f"Tape.backward(): the loss must hold one element, not {loss.size}; pass "
                    "grads={array: gradient} to seed a larger output"
                )
            self.loss = loss
            loss.grad.fill_(1.0)
        for a, g in (grads or {}).items():
            self._remember(a)
            if a.grad is None:
                a.grad = g
            else:
                a.grad.assign(g)
        for entry in reversed(self.launches):
            if isinstance(entry, _Launch):
                self._check_unchanged(entry)
                from .launch import launch

                launch(
                    entry.kernel,
                    entry.dim,
                    inputs=entry.args[: entry.n_inputs],
                    outputs=entry.args[entry.n_inputs :],
                    device=entry.device,
                    stream=entry.stream,
                    adjoint=True,
                )
            elif isinstance(entry, _Copy):
                if entry.dest.grad is not None and entry.src.grad is not None:
                    _accumulate(entry.src.grad, entry.dest.grad)
            else:
                entry.backward()

    def _check_unchanged(self, entry):
        name = entry.kernel.__name__
        for param, a, version in entry.reads:
            if a._version == version:
                continue
            writer = a._last_writer or "an unknown writer"
            if writer == "host":
                writer = "a host write (assign, fill_, zero_ or a copy)"
            else:
                writer = f"kernel {writer}"
            raise RuntimeError(
                f"Tape.backward(): the gradient of kernel '{name}' would be wrong: its argument "
                f"'{param}' was overwritten after the launch read it (last written by {writer}). "
                "The backward pass replays the launch with the array's current values. Write "
                "the new values to a different array (or clone the array before overwriting it)."
            )

    # --- gradients ---
    @property
    def gradients(self):
        """{array: gradient array} for every recorded array that has a gradient."""
        return {a: a.grad for a in self._arrays.values() if a.grad is not None}

    def get_adjoint(self, a):
        """The gradient array of ``a`` (None when it has none)."""
        return getattr(a, "grad", None)

    def zero(self):
        """Zeroes the gradients of every array the tape has seen."""
        for a in self._arrays.values():
            if a.grad is not None:
                a.grad.zero_()

    def reset(self):
        """Forgets the recorded operations and zeroes the gradients."""
        self.zero()
        self.launches = []
        self.loss = None
        self._arrays = {}


def _accumulate(dest, src):
    """dest += src, elementwise (the backward pass of a copy into an array)."""
    from .accumulate import accumulate

    accumulate(dest, src)
