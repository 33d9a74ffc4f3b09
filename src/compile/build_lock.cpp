// src/compile/build_lock.cpp -- per-entry build locks of the kernel cache (flock, bounded wait)
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <thread>
#include <utility>

#include "common/assert.h"
#include "compile/cache_files.h"
#include "compile/kernel_cache.h"

namespace fs = std::filesystem;

namespace treadle {

namespace {

constexpr const char* k_lock_suffix = ".lock";

bool is_hex_key(const std::string& key) {
    if (key.size() < 2 || key.size() > 128) return false;
    for (char c : key)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

}  // namespace

namespace cache_files {

void remove_unused_locks(const std::string& dir) {
    struct stat dir_st;
    if (::lstat(dir.c_str(), &dir_st) != 0 || !S_ISDIR(dir_st.st_mode) ||
        dir_st.st_uid != ::geteuid())
        return;
    std::error_code ec;
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
        std::string name = it->path().filename().string();
        size_t suffix = std::strlen(k_lock_suffix);
        if (name.size() <= suffix || name.compare(name.size() - suffix, suffix, k_lock_suffix) ||
            !is_hex_key(name.substr(0, name.size() - suffix)))
            continue;
        std::string path = it->path().string();
        int fd = ::open(path.c_str(), O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) continue;
        struct stat st, now;
        // Only an unused lock goes: a holder or a waiter keeps its build serialised.
        if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::geteuid() &&
            ::flock(fd, LOCK_EX | LOCK_NB) == 0 && ::stat(path.c_str(), &now) == 0 &&
            now.st_ino == st.st_ino)
            ::unlink(path.c_str());
        ::close(fd);
    }
}

}  // namespace cache_files

BuildLock::BuildLock(BuildLock&& other) noexcept
    : m_fd(std::exchange(other.m_fd, -1)), m_path(std::move(other.m_path)) {}

BuildLock& BuildLock::operator=(BuildLock&& other) noexcept {
    if (this != &other) {
        release();
        m_fd = std::exchange(other.m_fd, -1);
        m_path = std::move(other.m_path);
    }
    return *this;
}

BuildLock::~BuildLock() { release(); }

void BuildLock::release() {
    if (m_fd < 0) return;
    // Unlinked while still held: a waiter that then gets the old file sees that it is no
    // longer the lock file and retries on the current one.
    ::unlink(m_path.c_str());
    ::close(m_fd);
    m_fd = -1;
}

BuildLock KernelCache::lock_for_build(const std::string& key_hex,
                                      std::chrono::milliseconds timeout) {
    TREADLE_ASSERT(is_hex_key(key_hex));
    std::string dir = active_root() + "/locks";
    std::string path = dir + "/" + key_hex + k_lock_suffix;
    auto deadline = std::chrono::steady_clock::now() + timeout;
    auto pause = std::chrono::milliseconds(1);
    bool remade_dir = false;
    for (;;) {
        int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
        if (fd < 0 && errno == ENOENT && !remade_dir) {
            remade_dir = true;
            if (cache_files::make_private_dir(dir).empty()) continue;
        }
        struct stat st;
        if (fd >= 0) ::fchmod(fd, 0600);  // created under the umask
        if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) {
            int err = errno;
            if (fd >= 0) ::close(fd);
            cache_files::warn("cannot use the build lock '" + path + "' (" +
                              (fd < 0 ? std::strerror(err) : "not a regular file of this user") +
                              "); building without it");
            return {};
        }
        // Whether `path` still names the file `fd` is open on (a holder unlinks it on release).
        auto is_current = [&] {
            struct stat now;
            return ::stat(path.c_str(), &now) == 0 && now.st_ino == st.st_ino &&
                   now.st_dev == st.st_dev;
        };
        bool stale = false;
        while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int err = errno;
            // Released (a forked child of the holder may still share the old file's lock).
            if (!is_current()) {
                stale = true;
                break;
            }
            if (err != EWOULDBLOCK && err != EINTR) {
                ::close(fd);
                cache_files::warn("cannot take the build lock '" + path + "' (" +
                                  std::strerror(err) + "); building without it");
                return {};
            }
            if (std::chrono::steady_clock::now() >= deadline) {
                ::close(fd);
                cache_files::warn(
                    "gave up waiting for the build lock '" + path + "' after " +
                    std::to_string(timeout.count()) +
                    " ms (another build of this kernel is still running); building without it");
                return {};
            }
            std::this_thread::sleep_for(pause);
            pause = std::min(pause * 2, std::chrono::milliseconds(50));
        }
        if (!stale && is_current()) return BuildLock(fd, path);
        ::close(fd);  // released and unlinked by its holder meanwhile: lock the current file
        remade_dir = false;
    }
}

}  // namespace treadle
