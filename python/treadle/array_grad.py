"""array.retain_grad: whether backward passes keep an array's gradient where kernels (and
copies) store to it."""

import builtins


def _get(self):
    return self._has_grad and self._retain_grad


def _set(self, value):
    if value and not self._has_grad:
        raise ValueError("retain_grad=True requires requires_grad=True")
    self._retain_grad = builtins.bool(value)


retain_grad = property(
    _get,
    _set,
    doc="Whether backward passes keep this array's gradient where kernels store to it; by "
    "default the adjoint of a store (and of a copy) consumes (zeroes) the element's gradient, "
    "so only the final write of an element receives one.",
)
