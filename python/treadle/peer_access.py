"""Access from one device to another's memory, with Warp's API: wp.is_peer_access_supported,
wp.set_peer_access_enabled (memory from plain allocations) and wp.is_mempool_access_supported,
wp.set_mempool_access_enabled (memory from a device's pool). Only CUDA devices reach each
other's memory: a pair with the CPU is never supported nor enabled."""

from . import _treadle
from .context import get_device


def _cuda_pair(target_device, peer_device):
    """(target, peer) Devices, or None when either is not a CUDA device."""
    target, peer = get_device(target_device), get_device(peer_device)
    return (target, peer) if target.is_cuda and peer.is_cuda else None


def _refuse_cpu(what, target_device, peer_device, enable):
    if enable:
        raise ValueError(f"{what}: peer access is only between CUDA devices "
                         f"({get_device(target_device)}, {get_device(peer_device)})")


def is_peer_access_supported(target_device, peer_device):
    """Whether `peer_device` can read and write the memory of `target_device` on this system
    (memory of plain allocations; see is_mempool_access_supported for pools)."""
    pair = _cuda_pair(target_device, peer_device)
    return pair is not None and _treadle.cuda_peer_access_supported(pair[0].ordinal,
                                                                    pair[1].ordinal)


def is_peer_access_enabled(target_device, peer_device):
    """Whether `peer_device` can access the memory of `target_device` now."""
    pair = _cuda_pair(target_device, peer_device)
    return pair is not None and _treadle.cuda_peer_access_enabled(pair[0].ordinal,
                                                                  pair[1].ordinal)


def set_peer_access_enabled(target_device, peer_device, enable):
    """Lets `peer_device` access the memory of `target_device` (`enable`), or stops it.
    RuntimeError where the system does not support it, ValueError for the CPU."""
    pair = _cuda_pair(target_device, peer_device)
    if pair is None:
        return _refuse_cpu("set_peer_access_enabled()", target_device, peer_device, enable)
    _treadle.cuda_set_peer_access_enabled(pair[0].ordinal, pair[1].ordinal, bool(enable))


def is_mempool_access_supported(target_device, peer_device):
    """Whether `peer_device` can access the memory pool of `target_device` on this system."""
    pair = _cuda_pair(target_device, peer_device)
    return pair is not None and _treadle.cuda_mempool_access_supported(pair[0].ordinal,
                                                                       pair[1].ordinal)


def is_mempool_access_enabled(target_device, peer_device):
    """Whether `peer_device` can access the memory pool of `target_device` now."""
    pair = _cuda_pair(target_device, peer_device)
    return pair is not None and _treadle.cuda_mempool_access_enabled(pair[0].ordinal,
                                                                     pair[1].ordinal)


def set_mempool_access_enabled(target_device, peer_device, enable):
    """Lets `peer_device` access the memory pool of `target_device` (`enable`), or stops it.
    RuntimeError where the system does not support it, ValueError for the CPU."""
    pair = _cuda_pair(target_device, peer_device)
    if pair is None:
        return _refuse_cpu("set_mempool_access_enabled()", target_device, peer_device, enable)
    _treadle.cuda_set_mempool_access_enabled(pair[0].ordinal, pair[1].ordinal, bool(enable))
