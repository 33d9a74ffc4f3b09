// src/runtime/dynlib.cpp -- dlopen/dlsym/dlclose wrapped with treadle errors
#include "runtime/dynlib.h"

#include <dlfcn.h>

#include <mutex>
#include <utility>

#include "treadle/error.h"

namespace treadle {

namespace {

// dlerror() state is per thread in glibc but global in some libcs; a lock keeps each call's
// message with the call that caused it everywhere.
std::mutex& dl_mutex() {
    static std::mutex mutex;
    return mutex;
}

std::string last_dl_error(const char* fallback) {
    const char* text = ::dlerror();
    return text ? text : fallback;
}

}  // namespace

DynamicLibrary::DynamicLibrary(const std::string& path) : m_path(path) {
    std::lock_guard<std::mutex> lock(dl_mutex());
    ::dlerror();
    m_handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!m_handle)
        throw Error(ErrorKind::Runtime, "cannot load kernel library '" + path +
                                            "': " + last_dl_error("unknown dlopen error"));
    // A library with thread-local storage (deterministic-mode kernels keep each thread's
    // record state there) stays loaded for the process: unloading it would leave every thread
    // that ran it holding a dangling thread-local block (leak checkers walking those crash).
    size_t tls_module = 0;
    if (::dlinfo(m_handle, RTLD_DI_TLS_MODID, &tls_module) == 0 && tls_module != 0)
        if (void* pinned =
                ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD | RTLD_NODELETE))
            ::dlclose(pinned);  // the flag stays; only the extra reference goes
}

DynamicLibrary::~DynamicLibrary() { close(); }

DynamicLibrary::DynamicLibrary(DynamicLibrary&& other) noexcept
    : m_handle(std::exchange(other.m_handle, nullptr)), m_path(std::move(other.m_path)) {}

DynamicLibrary& DynamicLibrary::operator=(DynamicLibrary&& other) noexcept {
    if (this != &other) {
        close();
        m_handle = std::exchange(other.m_handle, nullptr);
        m_path = std::move(other.m_path);
    }
    return *this;
}

void DynamicLibrary::close() {
    if (m_handle) {
        ::dlclose(m_handle);
        m_handle = nullptr;
    }
}

void* DynamicLibrary::find_symbol(const std::string& name) const {
    if (!m_handle) return nullptr;
    std::lock_guard<std::mutex> lock(dl_mutex());
    ::dlerror();
    void* address = ::dlsym(m_handle, name.c_str());
    ::dlerror();
    return address;
}

void* DynamicLibrary::symbol(const std::string& name) const {
    if (!m_handle)
        throw Error(ErrorKind::Runtime, "cannot look up '" + name + "': library not loaded");
    std::lock_guard<std::mutex> lock(dl_mutex());
    ::dlerror();
    void* address = ::dlsym(m_handle, name.c_str());
    if (!address) {
        std::string why = last_dl_error("symbol is null");
        throw Error(ErrorKind::Runtime,
                    "symbol '" + name + "' not found in '" + m_path + "': " + why);
    }
    return address;
}

}  // namespace treadle
