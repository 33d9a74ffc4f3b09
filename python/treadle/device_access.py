"""Access between the memory of CUDA devices (Warp's peer-access and memory-pool-access
queries and switches): ``is_peer_access_supported``, ``is_peer_access_enabled``,
``set_peer_access_enabled``, ``is_mempool_access_supported``, ``is_mempool_access_enabled``,
``set_mempool_access_enabled`` and the scoped forms ``ScopedPeerAccess`` and
``ScopedMempoolAccess``.

A device always reaches its own memory, so the queries are True for a device and itself and
switching its access to itself does nothing, as in Warp. Between two CUDA devices the driver
is asked and set (runtime/cuda_peer.cpp); the CPU takes part in neither kind of access, and
turning access off for it is a no-op (Warp's rule), turning it on a ValueError."""

from . import _treadle
from .context import get_device


def is_peer_access_supported(target_device, peer_device):
    """Whether ``peer_device`` can access memory of ``target_device`` directly (ordinary
    allocations; see is_mempool_access_supported for pool allocations)."""
    target, peer = get_device(target_device), get_device(peer_device)
    if not target.is_cuda or not peer.is_cuda:
        return False
    return _treadle.cuda_peer_access_supported(target.ordinal, peer.ordinal)


def is_peer_access_enabled(target_device, peer_device):
    """Whether ``peer_device`` can access memory of ``target_device`` now."""
    target, peer = get_device(target_device), get_device(peer_device)
    if not target.is_cuda or not peer.is_cuda:
        return False
    return _treadle.cuda_peer_access_enabled(target.ordinal, peer.ordinal)


def set_peer_access_enabled(target_device, peer_device, enable):
    """Gives (``enable``) or takes away ``peer_device``'s direct access to the ordinary
    allocations of ``target_device``."""
    target, peer = get_device(target_device), get_device(peer_device)
    if not target.is_cuda or not peer.is_cuda:
        if enable:
            raise ValueError("Peer access is only supported between CUDA devices")
        return
    if not is_peer_access_supported(target, peer):
        if enable:
            raise RuntimeError(f"Device {peer} cannot access device {target}")
        return
    _treadle.cuda_set_peer_access_enabled(target.ordinal, peer.ordinal, bool(enable))


def is_mempool_access_supported(target_device, peer_device):
    """Whether ``peer_device`` can access allocations from the memory pool of
    ``target_device``."""
    target = get_device(target_device)
    return target.is_mempool_supported and is_peer_access_supported(target, peer_device)


def is_mempool_access_enabled(target_device, peer_device):
    """Whether ``peer_device`` can access allocations from the memory pool of
    ``target_device`` now."""
    target, peer = get_device(target_device), get_device(peer_device)
    if not target.is_cuda or not peer.is_cuda or not target.is_mempool_supported:
        return False
    return _treadle.cuda_mempool_access_enabled(target.ordinal, peer.ordinal)


def set_mempool_access_enabled(target_device, peer_device, enable):
    """Gives (``enable``) or takes away ``peer_device``'s access to every allocation of the
    memory pool of ``target_device``."""
    target, peer = get_device(target_device), get_device(peer_device)
    if not target.is_cuda or not peer.is_cuda:
        if enable:
            raise ValueError("Memory pool access is only supported between CUDA devices")
        return
    if not target.is_mempool_supported:
        if enable:
            raise RuntimeError(f"Device {target} does not support memory pools")
        return
    if not is_peer_access_supported(target, peer):
        if enable:
            raise RuntimeError(f"Device {peer} cannot access device {target}")
        return
    _treadle.cuda_set_mempool_access_enabled(target.ordinal, peer.ordinal, bool(enable))


class ScopedPeerAccess:
    """Sets peer access from ``peer_device`` to ``target_device`` inside a ``with`` block and
    restores it after."""

    def __init__(self, target_device, peer_device, enable):
        self.target_device, self.peer_device, self.enable = target_device, peer_device, enable
        self.saved_setting = None

    def __enter__(self):
        self.saved_setting = is_peer_access_enabled(self.target_device, self.peer_device)
        set_peer_access_enabled(self.target_device, self.peer_device, self.enable)

    def __exit__(self, exc_type, exc_value, traceback):
        set_peer_access_enabled(self.target_device, self.peer_device, self.saved_setting)
        return False


class ScopedMempoolAccess:
    """Sets access from ``peer_device`` to the memory pool of ``target_device`` inside a
    ``with`` block and restores it after."""

    def __init__(self, target_device, peer_device, enable):
        self.target_device, self.peer_device, self.enable = target_device, peer_device, enable
        self.saved_setting = None

    def __enter__(self):
        self.saved_setting = is_mempool_access_enabled(self.target_device, self.peer_device)
        set_mempool_access_enabled(self.target_device, self.peer_device, self.enable)

    def __exit__(self, exc_type, exc_value, traceback):
        set_mempool_access_enabled(self.target_device, self.peer_device, self.saved_setting)
        return False
