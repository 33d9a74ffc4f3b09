// src/api/internal_module.cpp -- the per-device cache of treadle's own kernel modules
#include "api/internal_module.h"

#include <map>
#include <mutex>
#include <utility>

namespace treadle {

Kernel internal_kernel(const char* name, const char* source, const std::string& kernel,
                       Device device) {
    static std::mutex mutex;
    // Never destroyed: unloading the kernels' libraries at exit would leave their thread-local
    // blocks dangling for whatever runs after (a leak checker walking them crashes).
    static auto* modules = new std::map<std::pair<std::string, std::string>, Module>();
    std::lock_guard<std::mutex> lock(mutex);
    const auto key = std::make_pair(std::string(name), device.alias());
    auto it = modules->find(key);
    if (it == modules->end()) it = modules->emplace(key, Module::load_string(source, name)).first;
    return it->second.kernel(kernel, device);
}

}  // namespace treadle
