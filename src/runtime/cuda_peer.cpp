// src/runtime/cuda_peer.cpp -- access between devices: peer contexts and memory pool access
//
// Peer access (cuCtxEnablePeerAccess) is a property of the accessing device's context; the
// driver offers no query, so the pairs enabled through this file are remembered here. Memory
// pool access is asked of and set on the target's pool itself (cuMemPoolGetAccess/SetAccess).
#include <mutex>
#include <set>
#include <utility>

#include "runtime/cuda.h"
#include "runtime/cuda_internal.h"

namespace treadle::cuda {

using namespace detail;

namespace {

std::mutex g_peer_mutex;
std::set<std::pair<int, int>> g_peer_enabled;  ///< (target, peer) pairs with access enabled

}  // namespace

bool peer_access_supported(int target, int peer) {
    if (target == peer) {
        device(target);  // validates the ordinal
        return true;
    }
    Device& t = device(target);
    Device& p = device(peer);
    int can = 0;
    TREADLE_CU(cuDeviceCanAccessPeer, &can, p.handle, t.handle);
    return can != 0;
}

bool peer_access_enabled(int target, int peer) {
    if (target == peer) return true;
    device(target);
    device(peer);
    std::lock_guard<std::mutex> lock(g_peer_mutex);
    return g_peer_enabled.count({target, peer}) != 0;
}

void set_peer_access_enabled(int target, int peer, bool enable) {
    if (target == peer) return;
    if (enable && !peer_access_supported(target, peer))
        throw Error(ErrorKind::Runtime, "set_peer_access_enabled(): " + device_name(peer) +
                                            " cannot access " + device_name(target));
    drv::CUcontext target_context = enter(target).context.load(std::memory_order_acquire);
    enter(peer);  // the accessing context is the current one
    const drv::Table& t = drv::get();
    const drv::CUresult r = enable ? t.cuCtxEnablePeerAccess(target_context, 0)
                                   : t.cuCtxDisablePeerAccess(target_context);
    if (r != drv::CUDA_SUCCESS && r != drv::CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED &&
        r != drv::CUDA_ERROR_PEER_ACCESS_NOT_ENABLED)
        drv::throw_error(t, enable ? "cuCtxEnablePeerAccess" : "cuCtxDisablePeerAccess", r);
    std::lock_guard<std::mutex> lock(g_peer_mutex);
    if (enable)
        g_peer_enabled.insert({target, peer});
    else
        g_peer_enabled.erase({target, peer});
}

bool mempool_access_enabled(int target, int peer) {
    Device& t = enter(target);
    device(peer);
    if (!t.pool) return false;
    if (target == peer) return true;
    const drv::Table& table = drv::get();
    if (!table.cuMemPoolGetAccess) return false;
    drv::MemLocation where{drv::CU_MEM_LOCATION_TYPE_DEVICE, peer};
    int flags = drv::CU_MEM_ACCESS_FLAGS_PROT_NONE;
    TREADLE_CU_WITH(table, cuMemPoolGetAccess, &flags, t.pool, &where);
    return flags == drv::CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
}

void set_mempool_access_enabled(int target, int peer, bool enable) {
    Device& t = enter(target);
    device(peer);
    if (!t.pool) {
        if (!enable) return;
        throw Error(ErrorKind::Runtime, "set_mempool_access_enabled(): " + device_name(target) +
                                            " does not support memory pools");
    }
    if (target == peer) return;
    if (!peer_access_supported(target, peer)) {
        if (!enable) return;
        throw Error(ErrorKind::Runtime, "set_mempool_access_enabled(): " + device_name(peer) +
                                            " cannot access " + device_name(target));
    }
    const drv::Table& table = drv::get();
    if (!table.cuMemPoolSetAccess)
        throw Error(ErrorKind::Runtime,
                    "set_mempool_access_enabled(): the CUDA driver has no cuMemPoolSetAccess");
    drv::MemAccessDesc desc{
        {drv::CU_MEM_LOCATION_TYPE_DEVICE, peer},
        enable ? drv::CU_MEM_ACCESS_FLAGS_PROT_READWRITE : drv::CU_MEM_ACCESS_FLAGS_PROT_NONE};
    TREADLE_CU_WITH(table, cuMemPoolSetAccess, t.pool, &desc, 1);
}

}  // namespace treadle::cuda
