"""Access between the memory of CUDA devices (Warp's peer-access and memory-pool-access
queries and switches): ``is_peer_access_supported``, ``is_peer_access_enabled``,
``set_peer_access_enabled``, ``is_mempool_access_supported``, ``is_mempool_access_enabled``,
``set_mempool_access_enabled``.

A device always reaches its own memory, so the queries are True for a device and itself and
switching its access to itself does nothing, as in Warp. Between two different CUDA devices
the driver answers (src/runtime/cuda_peer.cpp): peer access between their primary contexts,
pool access granted on the target's default memory pool."""

from . import _treadle
from .context import get_device


def _cuda_pair(target_device, peer_device, what):
    target = get_device(target_device)
    peer = get_device(peer_device)
    if not (target.is_cuda and peer.is_cuda):
        raise ValueError(f"{what}: access is only defined between CUDA devices, got "
                         f"{target} and {peer}")
    return target, peer




def is_peer_access_supported(target_device, peer_device):
    """Whether ``peer_device`` can be given direct access to the memory of ``target_device``;
    False when either is the CPU."""
    target, peer = get_device(target_device), get_device(peer_device)
    if not (target.is_cuda and peer.is_cuda):
        return False
    if target == peer:
        return True
    return _treadle.cuda_peer_access_supported(target.ordinal, peer.ordinal)


def is_peer_access_enabled(target_device, peer_device):
    """Whether ``peer_device`` currently has direct access to the memory of
    ``target_device``; False when either is the CPU."""
    target, peer = get_device(target_device), get_device(peer_device)
    if not (target.is_cuda and peer.is_cuda):
        return False
    if target == peer:
        return True
    return _treadle.cuda_peer_access_enabled(target.ordinal, peer.ordinal)


def set_peer_access_enabled(target_device, peer_device, enable):
    """Gives ``peer_device`` direct access to the memory of ``target_device`` (``enable``) or
    takes it away. A no-op for a device and itself (its access cannot be turned off)."""
    target, peer = _cuda_pair(target_device, peer_device, "set_peer_access_enabled()")
    if target != peer:
        _treadle.cuda_set_peer_access_enabled(target.ordinal, peer.ordinal, bool(enable))


def is_mempool_access_supported(target_device, peer_device):
    """Whether ``peer_device`` can be given access to the memory pool of ``target_device``;
    False when either is the CPU or the target has no memory pool."""
    target, peer = get_device(target_device), get_device(peer_device)
    if not (target.is_cuda and peer.is_cuda) or not target.is_mempool_supported:
        return False
    if target == peer:
        return True
    return _treadle.cuda_mempool_access_supported(target.ordinal, peer.ordinal)


def is_mempool_access_enabled(target_device, peer_device):
    """Whether ``peer_device`` can access allocations from the memory pool of
    ``target_device``; False when either is the CPU."""
    target, peer = get_device(target_device), get_device(peer_device)
    if not (target.is_cuda and peer.is_cuda):
        return False
    if target == peer:
        return target.is_mempool_supported
    return _treadle.cuda_mempool_access_enabled(target.ordinal, peer.ordinal)


def set_mempool_access_enabled(target_device, peer_device, enable):
    """Gives ``peer_device`` access to the memory pool of ``target_device`` (``enable``) or
    takes it away. A no-op for a device and itself."""
    target, peer = _cuda_pair(target_device, peer_device, "set_mempool_access_enabled()")
    if not target.is_mempool_supported:
        raise RuntimeError(f"set_mempool_access_enabled(): device {target} does not support "
                           "memory pools")
    if target != peer:
        _treadle.cuda_set_mempool_access_enabled(target.ordinal, peer.ordinal, bool(enable))
