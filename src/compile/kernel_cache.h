// src/compile/kernel_cache.h -- the on-disk cache of compiled kernel binaries
#pragma once

#include <mutex>
#include <optional>
#include <string>

namespace treadle {

/// Default cache root: $TREADLE_CACHE_DIR, else $XDG_CACHE_HOME/treadle, else
/// $HOME/.cache/treadle (else /tmp/treadle-cache-<uid>), made absolute.
std::string default_cache_root();

/// A directory of compiled kernels keyed by a hex digest of everything that determines the
/// binary (source, compiler identity, flags, treadle version: the caller computes the key).
///
/// Layout: `<root>/<key[0:2]>/<key>/` holds `source.cpp`, the binary and `meta.txt` (format
/// tag, key, binary name, size, SHA-256, treadle version). Entries appear only through an
/// atomic rename() of a fully written and fsynced directory from `<root>/tmp/`, so a reader
/// sees a whole entry or none; lookup() still re-verifies size and hash, and moves any entry
/// that fails (disk damage, tampering, an old format) aside and deletes it, so the caller
/// rebuilds. A valid entry is never modified, only removed by clear().
///
/// Thread-safe and multi-process-safe: several threads or processes may look up and publish
/// the same key at once; the first publish wins and later equivalent ones are discarded.
class KernelCache {
public:
    explicit KernelCache(std::string root = default_cache_root());

    /// Changes the root for later calls (created on first use). Calls already running finish
    /// with the old root.
    void set_root(const std::string& root);
    std::string root() const;

    /// Absolute path of the verified binary for `key_hex`, or nullopt (miss, or a bad entry
    /// that was just removed). `key_hex`: lower-case hex, at least 2 digits.
    std::optional<std::string> lookup(const std::string& key_hex, const std::string& binary_name);

    /// Moves `built_binary_path` (normally inside a make_staging_dir() directory) into a new
    /// entry with `source_text` and a meta file, and returns the absolute path of the cached
    /// binary. If an equivalent valid entry already exists, it is kept and its binary path is
    /// returned. `version` (treadle's version string) is only recorded in meta.txt, for
    /// people inspecting the cache; the key must already cover it. Throws treadle::Error
    /// (ErrorKind::Runtime) on I/O failure; the built binary is consumed either way.
    std::string publish(const std::string& key_hex, const std::string& source_text,
                        const std::string& built_binary_path, const std::string& binary_name,
                        const std::string& version = "");

    /// Creates a fresh private directory `<root>/tmp/stage-XXXXXX` (same file system as the
    /// entries, so publish() can rename out of it) for writing a source file and building.
    /// The caller owns it and removes it with discard_staging_dir() when done.
    std::string make_staging_dir();

    /// Removes a directory made by make_staging_dir() and everything in it.
    void discard_staging_dir(const std::string& dir);

    /// Removes every entry, and leftovers under `<root>/tmp/` older than one hour (debris of
    /// crashed processes; younger ones may belong to builds in progress). Binaries already
    /// loaded stay usable; paths returned earlier become invalid.
    void clear();

private:
    mutable std::mutex m_mutex;  ///< guards m_root only; file operations run unlocked
    std::string m_root;          ///< absolute
};

/// The process-wide cache used by kernel launches (root from default_cache_root()).
KernelCache& kernel_cache();

}  // namespace treadle
