// src/runtime/cuda_peer.cpp -- access from one device to another's memory (peer and pool access)
//
// Plain allocations: peer access is a property of the pair of primary contexts, turned on with
// cuCtxEnablePeerAccess from the peer's context. The driver has no query for it, so the pairs
// turned on through here are remembered (enabling or disabling twice is harmless: the driver's
// "already enabled" / "not enabled" answers are not errors here). Pool allocations: access is
// a property of the target's default pool, set and read with cuMemPoolSetAccess/GetAccess.
#include <mutex>
#include <set>
#include <utility>

#include "runtime/cuda.h"
#include "runtime/cuda_internal.h"

namespace treadle::cuda {

using namespace detail;

namespace {

std::mutex g_peer_mutex;
std::set<std::pair<int, int>> g_peer_enabled;  ///< (target, peer) pairs turned on here

}  // namespace

bool peer_access_supported(int target, int peer) {
    Device& t = device(target);
    Device& p = device(peer);
    if (target == peer) return true;
    const drv::Table& table = drv::get();
    if (!table.cuDeviceCanAccessPeer) return false;  // a driver without peer access
    int can = 0;
    TREADLE_CU_WITH(table, cuDeviceCanAccessPeer, &can, p.handle, t.handle);
    return can != 0;
}

bool peer_access_enabled(int target, int peer) {
    device(target);
    device(peer);
    if (target == peer) return true;
    std::lock_guard<std::mutex> lock(g_peer_mutex);
    return g_peer_enabled.count({target, peer}) != 0;
}

void set_peer_access_enabled(int target, int peer, bool enable) {
    if (target == peer) {  // a device always reaches its own memory
        device(target);
        return;
    }
    if (enable && !peer_access_supported(target, peer))
        throw Error(ErrorKind::Runtime, "set_peer_access_enabled(): " + device_name(peer) +
                                            " cannot access the memory of " + device_name(target) +
                                            " on this system");
    drv::CUcontext target_context = enter(target).context.load(std::memory_order_acquire);
    enter(peer);  // the access is granted to the current context
    const drv::Table& t = drv::get();
    if (enable) {
        drv::CUresult r = t.cuCtxEnablePeerAccess(target_context, 0);
        if (r != drv::CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
            drv::check(t, r, "cuCtxEnablePeerAccess");
    } else {
        drv::CUresult r = t.cuCtxDisablePeerAccess(target_context);
        if (r != drv::CUDA_ERROR_PEER_ACCESS_NOT_ENABLED)
            drv::check(t, r, "cuCtxDisablePeerAccess");
    }
    std::lock_guard<std::mutex> lock(g_peer_mutex);
    if (enable)
        g_peer_enabled.insert({target, peer});
    else
        g_peer_enabled.erase({target, peer});
}

bool mempool_access_supported(int target, int peer) {
    const bool pools = device_info(target).memory_pools && device_info(peer).memory_pools;
    return pools && peer_access_supported(target, peer);
}

bool mempool_access_enabled(int target, int peer) {
    if (!mempool_access_supported(target, peer)) return false;
    if (target == peer) return true;
    Device& t = enter(target);
    const drv::Table& table = drv::get();
    if (!t.pool || !table.cuMemPoolGetAccess) return false;
    drv::MemLocation where{drv::CU_MEM_LOCATION_TYPE_DEVICE, device(peer).handle};
    int flags = drv::CU_MEM_ACCESS_FLAGS_PROT_NONE;
    TREADLE_CU_WITH(table, cuMemPoolGetAccess, &flags, t.pool, &where);
    return flags == drv::CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
}

void set_mempool_access_enabled(int target, int peer, bool enable) {
    if (target == peer) {
        device(target);
        return;
    }
    if (!mempool_access_supported(target, peer)) {
        if (!enable) return;
        throw Error(ErrorKind::Runtime, "set_mempool_access_enabled(): " + device_name(peer) +
                                            " cannot access the memory pool of " +
                                            device_name(target) + " on this system");
    }
    Device& t = enter(target);
    const drv::Table& table = drv::get();
    if (!t.pool || !table.cuMemPoolSetAccess)
        throw Error(ErrorKind::Runtime,
                    "set_mempool_access_enabled(): " + device_name(target) + " has no memory pool");
    drv::MemAccessDesc access{
        {drv::CU_MEM_LOCATION_TYPE_DEVICE, device(peer).handle},
        enable ? drv::CU_MEM_ACCESS_FLAGS_PROT_READWRITE : drv::CU_MEM_ACCESS_FLAGS_PROT_NONE};
    TREADLE_CU_WITH(table, cuMemPoolSetAccess, t.pool, &access, 1);
}

}  // namespace treadle::cuda
