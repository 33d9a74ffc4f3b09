// src/compile/kernel_cache.h -- the on-disk cache of compiled kernel binaries
#pragma once

#include <sys/types.h>

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

namespace treadle {

/// Default cache root: $TREADLE_CACHE_DIR, else $XDG_CACHE_HOME/treadle, else
/// $HOME/.cache/treadle (else /tmp/treadle-cache-<uid>), made absolute.
std::string default_cache_root();

/// A verified cached binary, held for loading: a private hard link (or copy) of the entry's
/// binary at `<root>/tmp/pin-<pid>-<n>-<random>`, made before the hash check, so what was
/// verified is exactly what dlopen() or the CUDA loader reads, and a concurrent clear() of the
/// entry cannot make the load fail. The pin is unlinked when this object is destroyed (a
/// loaded library stays usable). Move-only.
class CachedBinary {
public:
    explicit CachedBinary(std::string pin_path) : m_path(std::move(pin_path)) {}
    CachedBinary(CachedBinary&& other) noexcept;
    CachedBinary& operator=(CachedBinary&& other) noexcept;
    CachedBinary(const CachedBinary&) = delete;
    CachedBinary& operator=(const CachedBinary&) = delete;
    ~CachedBinary();

    /// Absolute path of the pinned binary; valid while this object lives.
    const std::string& path() const { return m_path; }

private:
    std::string m_path;  ///< "" once moved from
};

/// The per-entry build lock (an flock() on `<root>/locks/<key>.lock`), so that concurrent
/// threads or processes building the same entry run the compiler once. The kernel releases
/// it when its holder dies, so a crashed builder never blocks the others. Move-only.
class BuildLock {
public:
    BuildLock() = default;
    BuildLock(int fd, std::string path) : m_fd(fd), m_path(std::move(path)) {}
    BuildLock(BuildLock&& other) noexcept;
    BuildLock& operator=(BuildLock&& other) noexcept;
    BuildLock(const BuildLock&) = delete;
    BuildLock& operator=(const BuildLock&) = delete;
    ~BuildLock();

    /// False when the wait timed out or the lock file could not be used: the caller then
    /// builds without it (publish() stays atomic; at worst the compiler runs twice).
    bool acquired() const { return m_fd >= 0; }

    /// Releases the lock now (also done by the destructor).
    void release();

private:
    int m_fd = -1;
    std::string m_path;
};

/// A directory of compiled kernels keyed by a hex digest of everything that determines the
/// binary (source, compiler identity, flags, treadle version: the caller computes the key).
///
/// Layout: `<root>/<key[0:2]>/<key>/` holds `source.cpp`, the binary and `meta.txt` (format
/// tag, key, binary name, size, SHA-256, treadle version); `<root>/tmp/` holds staging and
/// trash folders and pins, `<root>/locks/` the build locks. Entries appear only through an
/// atomic rename() of a fully written and fsynced directory from `<root>/tmp/`, so a reader
/// sees a whole entry or none; lookup() re-verifies owner, permissions, size and hash, and
/// moves any entry that fails (disk damage, tampering, an old format) aside and deletes it,
/// so the caller rebuilds.
///
/// Safety: every folder the cache creates is 0700 and every file 0600, whatever the umask.
/// The root is used only when it is a directory owned by this user and not writable by every
/// user; otherwise (or when it cannot be created or written) the cache warns once on stderr
/// and uses a private temporary root for the rest of the process, so nothing in a refused
/// root is ever loaded. Nothing below the root is followed through a symbolic link, and
/// anything that is not a regular file (a FIFO, a device) is rejected without blocking.
///
/// Thread-safe and multi-process-safe: several threads or processes may look up, build under
/// lock_for_build(), publish and clear the same key at once.
class KernelCache {
public:
    explicit KernelCache(std::string root = default_cache_root());
    ~KernelCache();
    KernelCache(const KernelCache&) = delete;
    KernelCache& operator=(const KernelCache&) = delete;

    /// Changes the root for later calls (checked and created on first use); setting the same
    /// root again keeps the state. Calls already running finish with the old root.
    void set_root(const std::string& root);

    /// The configured root (absolute), whether or not it passed the safety checks.
    std::string root() const;

    /// The root actually used: root() when it is usable, else the private temporary fallback
    /// (created, with a warning on stderr, on the first call). Throws treadle::Error
    /// (ErrorKind::Runtime) only when neither can be created.
    std::string active_root();

    /// Why root() is not used ("" when it is, or before the first active_root()).
    std::string root_problem() const;

    /// The verified binary for `key_hex`, pinned for loading, or nullopt (miss, or a bad entry
    /// that was just removed). `key_hex`: lower-case hex, at least 2 digits.
    std::optional<CachedBinary> lookup(const std::string& key_hex, const std::string& binary_name);

    /// Waits (at most `timeout`, polling) for the build lock of `key_hex`. A caller that
    /// missed in lookup() takes it, looks up again (another process may have published the
    /// entry meanwhile) and builds only on a second miss. On a timeout it warns and returns a
    /// lock that is not acquired.
    BuildLock lock_for_build(const std::string& key_hex,
                             std::chrono::milliseconds timeout = std::chrono::minutes(10));

    /// Moves `built_binary_path` (normally inside a make_staging_dir() directory) into a new
    /// entry with `source_text` and a meta file, and returns the new binary, pinned. If an
    /// equivalent valid entry already exists, it is kept. `version` (treadle's version string)
    /// is only recorded in meta.txt, for people inspecting the cache; the key must already
    /// cover it. Throws treadle::Error (ErrorKind::Runtime) on I/O failure; the built binary
    /// is consumed either way.
    CachedBinary publish(const std::string& key_hex, const std::string& source_text,
                         const std::string& built_binary_path, const std::string& binary_name,
                         const std::string& version = "");

    /// Creates a fresh private directory `<root>/tmp/stage-XXXXXX` (same file system as the
    /// entries, so publish() can rename out of it) for writing a source file and building.
    /// The caller owns it and removes it with discard_staging_dir() when done.
    std::string make_staging_dir();

    /// Removes a directory made by make_staging_dir() and everything in it.
    void discard_staging_dir(const std::string& dir);

    /// Removes every entry treadle wrote (a real directory at `<root>/<key[0:2]>/<key>`, owned
    /// by this user, whose meta.txt repeats the key and which holds nothing but the entry's
    /// three files), unused build locks, and its own leftovers under `<root>/tmp/` older than
    /// one hour. Anything else under the root is left alone, and no symbolic link is followed.
    /// Builds and loads in progress elsewhere are not disturbed (they hold pins). Also clears
    /// the private fallback root when one is in use. Throws treadle::Error (ErrorKind::Runtime)
    /// naming the root when it exists but is refused (owned by another user, writable by every
    /// user, not a directory); nothing is deleted then.
    void clear();

private:
    /// Checks and prepares the configured root once; the caller holds m_mutex.
    void resolve_locked();

    mutable std::mutex m_mutex;  ///< guards the fields below; file operations run unlocked
    std::string m_root;          ///< configured, absolute
    bool m_resolved = false;     ///< m_active and m_problem are set for m_root
    std::string m_active;        ///< m_root or m_fallback
    std::string m_problem;       ///< why m_root is refused ("" when it is used)
    std::string m_fallback;      ///< private temporary root of this process ("" when none)
    pid_t m_fallback_owner = 0;  ///< the process that made m_fallback (removes it at exit)
};

/// The process-wide cache used by kernel launches (root from default_cache_root()).
KernelCache& kernel_cache();

}  // namespace treadle
