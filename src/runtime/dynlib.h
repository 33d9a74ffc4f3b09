// src/runtime/dynlib.h -- RAII handle on a dlopen()ed kernel shared object
#pragma once

#include <string>

namespace treadle {

/// Owns one dlopen() reference to a shared object, opened with RTLD_NOW | RTLD_LOCAL so that
/// missing symbols fail at load time and kernels cannot see each other's symbols. Movable,
/// not copyable; the destructor calls dlclose() (a library with thread-local storage stays
/// mapped for the process: see the constructor). Pointers returned by symbol() are valid only
/// while this object (or one it was moved into) is alive. Distinct objects may be used from
/// different threads; dlerror() text is captured under a process-wide lock so that concurrent
/// failures do not mix their messages.
class DynamicLibrary {
public:
    DynamicLibrary() = default;
    /// Loads `path`; throws treadle::Error (ErrorKind::Runtime) with dlerror()'s text.
    explicit DynamicLibrary(const std::string& path);
    ~DynamicLibrary();

    DynamicLibrary(DynamicLibrary&& other) noexcept;
    DynamicLibrary& operator=(DynamicLibrary&& other) noexcept;
    DynamicLibrary(const DynamicLibrary&) = delete;
    DynamicLibrary& operator=(const DynamicLibrary&) = delete;

    /// Address of `name`; throws treadle::Error (ErrorKind::Runtime) when it is not exported.
    void* symbol(const std::string& name) const;
    /// Address of `name`, or nullptr when it is not exported (or nothing is loaded).
    void* find_symbol(const std::string& name) const;

    bool is_open() const { return m_handle != nullptr; }
    const std::string& path() const { return m_path; }

    /// Drops the reference now (what the destructor does).
    void close();

private:
    void* m_handle = nullptr;  ///< from dlopen, or nullptr when empty / moved from
    std::string m_path;
};

}  // namespace treadle
