// src/compile/cache_files.h -- symlink-free, non-blocking, private file helpers of the cache
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstdint>
#include <string>

namespace treadle::cache_files {

/// Opens `path` read-only without following a final symbolic link and without blocking (a FIFO
/// or device planted in the cache cannot stall the caller), and returns the descriptor only
/// when it is a regular file; -1 otherwise. `st` receives its fstat().
int open_regular(const std::string& path, struct stat& st);

/// True when `st` belongs to this process's effective user and nobody else may write it
/// (no group or other write bit): the only files and folders the cache trusts.
bool is_private(const struct stat& st);

/// Reads a whole small (< 1 MiB) regular file through open_regular(); false otherwise, and
/// also when `require_private` is set and the file is not is_private().
bool read_small_file(const std::string& path, std::string& out, bool require_private = false);

/// Size and lower-case hex SHA-256 of what remains to be read from `fd`; false on a read error.
bool hash_fd(int fd, uint64_t& size, std::string& hex);

/// Writes all of `data` to `fd` (retrying short writes); false on an error.
bool write_all(int fd, const char* data, size_t size);

/// Creates the directory `path` with mode 0700 whatever the umask, or accepts an existing one
/// that is a real directory (not a symbolic link) owned by this user, whose mode it then sets to
/// 0700. Returns an empty string on success, else what is wrong (for an error message).
std::string make_private_dir(const std::string& path);

/// Removes `path` and, for a directory, everything below it, never following a symbolic link
/// (a link is removed, not its target). Errors are ignored.
void remove_tree(const std::string& path);

/// Removes the build lock files `<key>.lock` in `dir` that no process holds or waits for (a
/// real directory of this user; anything else there is left alone).
void remove_unused_locks(const std::string& dir);

/// Prints "treadle warning: kernel cache: <text>" on stderr.
void warn(const std::string& text);

/// "mode 0777" style text of the permission bits of `mode`.
std::string mode_text(mode_t mode);

}  // namespace treadle::cache_files
