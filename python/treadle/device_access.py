"""Access between the memory of CUDA devices (Warp's peer-access and memory-pool-access
queries and switches): ``is_peer_access_supported``, ``is_peer_access_enabled``,
``set_peer_access_enabled``, ``is_mempool_access_supported``, ``is_mempool_access_enabled``,
``set_mempool_access_enabled``.

A device always reaches its own memory, so the queries are True for a device and itself and
switching its access to itself does nothing, as in Warp. Access between two different CUDA
devices (peer contexts and pool access grants) is not implemented yet: those calls raise
NotImplementedError rather than answering for hardware treadle has not set up."""

from .context import get_device


def _cuda_pair(target_device, peer_device, what):
    target = get_device(target_device)
    peer = get_device(peer_device)
    if not (target.is_cuda and peer.is_cuda):
        raise ValueError(f"{what}: access is only defined between CUDA devices, got "
                         f"{target} and {peer}")
    return target, peer


def _refuse_distinct(target, peer, what):
    raise NotImplementedError(
        f"{what}: access between two different CUDA devices ({target} and {peer}) is not "
        "supported by treadle yet")


def is_peer_access_supported(target_device, peer_device):
    """Whether ``peer_device`` can be given direct access to the memory of ``target_device``;
    False when either is the CPU."""
    target, peer = get_device(target_device), get_device(peer_device)
    if not (target.is_cuda and peer.is_cuda):
        return False
    if target == peer:
        return True
    _refuse_distinct(target, peer, "is_peer_access_supported()")


def is_peer_access_enabled(target_device, peer_device):
    """Whether ``peer_device`` currently has direct access to the memory of
    ``target_device``; False when either is the CPU."""
    target, peer = get_device(target_device), get_device(peer_device)
    if not (target.is_cuda and peer.is_cuda):
        return False
    if target == peer:
        return True
    _refuse_distinct(target, peer, "is_peer_access_enabled()")


def set_peer_access_enabled(target_device, peer_device, enable):
    """Gives ``peer_device`` direct access to the memory of ``target_device`` (``enable``) or
    takes it away. A no-op for a device and itself (its access cannot be turned off)."""
    target, peer = _cuda_pair(target_device, peer_device, "set_peer_access_enabled()")
    if target != peer:
        _refuse_distinct(target, peer, "set_peer_access_enabled()")


def is_mempool_access_supported(target_device, peer_device):
    """Whether ``peer_device`` can be given access to the memory pool of ``target_device``;
    False when either is the CPU or the target has no memory pool."""
    target, peer = get_device(target_device), get_device(peer_device)
    if not (target.is_cuda and peer.is_cuda) or not target.is_mempool_supported:
        return False
    if target == peer:
        return True
    _refuse_distinct(target, peer, "is_mempool_access_supported()")


def is_mempool_access_enabled(target_device, peer_device):
    """Whether ``peer_device`` can access allocations from the memory pool of
    ``target_device``; False when either is the CPU."""
    target, peer = get_device(target_device), get_device(peer_device)
    if not (target.is_cuda and peer.is_cuda):
        return False
    if target == peer:
        return target.is_mempool_supported
    _refuse_distinct(target, peer, "is_mempool_access_enabled()")


def set_mempool_access_enabled(target_device, peer_device, enable):
    """Gives ``peer_device`` access to the memory pool of ``target_device`` (``enable``) or
    takes it away. A no-op for a device and itself."""
    target, peer = _cuda_pair(target_device, peer_device, "set_mempool_access_enabled()")
    if not target.is_mempool_supported:
        raise RuntimeError(f"set_mempool_access_enabled(): device {target} does not support "
                           "memory pools")
    if target != peer:
        _refuse_distinct(target, peer, "set_mempool_access_enabled()")
