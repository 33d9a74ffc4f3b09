"""The content hash of a set of kernels built with one set of module options (Warp's
ModuleHasher): what Module.hash_module() and Module.get_module_hash() report, and the order in
which a module's kernels are listed wherever order must not depend on definition order."""

import hashlib


def _options_text(options):
    return repr(sorted((str(k), repr(v)) for k, v in options.items()))


class ModuleHasher:
    """Hashes `kernels` (@wp.kernel objects) under `options` (a dict of module options).

    Each kernel contributes its key and the SHA-256 of the code it generates
    (Kernel._content_hash: its source, the functions, constants and types it uses, its own
    options), so the hash changes with any of them and not with where Python objects live.
    The kernels are taken in (key, digest) order, so the hash does not depend on the order
    they are given in; two kernels of one key (made by one factory with different captured
    values) are told apart by their digests. ``options`` is hashed as given (resolve it
    first: Module.resolve_options)."""

    def __init__(self, kernels, options):
        digests = [(k.key, k._content_hash(), k) for k in kernels]
        digests.sort(key=lambda entry: (entry[0], entry[1]))
        self.kernels = [k for _, _, k in digests]
        self.digests = {id(k): d for _, d, k in digests}
        self.options = dict(options)
        h = hashlib.sha256()
        for key, digest, _ in digests:
            h.update(key.encode())
            h.update(digest)
        h.update(_options_text(self.options).encode())
        self._hash = h.digest()

    def get_hash(self):
        """The module's hash (32 bytes)."""
        return self._hash

    def get_kernel_hash(self, kernel):
        """The digest of one of the hashed kernels (32 bytes)."""
        return self.digests[id(kernel)]
