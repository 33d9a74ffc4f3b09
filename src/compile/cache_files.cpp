// src/compile/cache_files.cpp -- symlink-free, non-blocking, private file helpers of the cache
#include "compile/cache_files.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>

#include "compile/sha256.h"

namespace fs = std::filesystem;

namespace treadle::cache_files {

int open_regular(const std::string& path, struct stat& st) {
    int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return -1;
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return -1;
    }
    return fd;
}

bool is_private(const struct stat& st) {
    return st.st_uid == ::geteuid() && (st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

bool read_small_file(const std::string& path, std::string& out, bool require_private) {
    struct stat st;
    int fd = open_regular(path, st);
    if (fd < 0) return false;
    if (require_private && !is_private(st)) {
        ::close(fd);
        return false;
    }
    out.clear();
    char buf[4096];
    bool ok = true;
    for (;;) {
        ssize_t got = ::read(fd, buf, sizeof(buf));
        if (got > 0) {
            out.append(buf, size_t(got));
            if (out.size() > (1u << 20)) {
                ok = false;
                break;
            }
        } else if (got == 0) {
            break;
        } else if (errno != EINTR) {
            ok = false;
            break;
        }
    }
    ::close(fd);
    return ok;
}

bool hash_fd(int fd, uint64_t& size, std::string& hex) {
    Sha256 hasher;
    size = 0;
    char buf[65536];
    for (;;) {
        ssize_t got = ::read(fd, buf, sizeof(buf));
        if (got > 0) {
            hasher.update(buf, size_t(got));
            size += uint64_t(got);
        } else if (got == 0) {
            break;
        } else if (errno != EINTR) {
            return false;
        }
    }
    auto digest = hasher.finish();
    hex = to_hex(digest.data(), digest.size());
    return true;
}

bool write_all(int fd, const char* data, size_t size) {
    while (size > 0) {
        ssize_t put = ::write(fd, data, size);
        if (put < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        data += put;
        size -= size_t(put);
    }
    return true;
}

std::string make_private_dir(const std::string& path) {
    struct stat st;
    for (int attempt = 0;; ++attempt) {
        if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST)
            return std::string("cannot create it (") + std::strerror(errno) + ")";
        if (::lstat(path.c_str(), &st) == 0) break;
        // Removed between the two calls (a concurrent clear() removes empty shards): again.
        if (errno != ENOENT || attempt == 8)
            return std::string("cannot inspect it (") + std::strerror(errno) + ")";
    }
    if (S_ISLNK(st.st_mode)) return "it is a symbolic link";
    if (!S_ISDIR(st.st_mode)) return "it is not a directory";
    if (st.st_uid != ::geteuid())
        return "it is owned by another user (uid " + std::to_string(st.st_uid) + ")";
    if ((st.st_mode & 07777) != 0700 && ::chmod(path.c_str(), 0700) != 0)
        return std::string("cannot make it private (") + std::strerror(errno) + ")";
    return "";
}

void remove_tree(const std::string& path) {
    std::error_code ec;
    fs::remove_all(path, ec);  // removes symbolic links themselves, never their targets
}

void warn(const std::string& text) {
    std::fprintf(stderr, "treadle warning: kernel cache: %s\n", text.c_str());
}

std::string mode_text(mode_t mode) {
    char text[16];
    std::snprintf(text, sizeof(text), "mode %04o", unsigned(mode & 07777));
    return text;
}

}  // namespace treadle::cache_files
