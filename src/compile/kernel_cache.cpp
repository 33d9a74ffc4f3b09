// src/compile/kernel_cache.cpp -- private root, atomic publish, verified pinned lookup, safe clear
#include "compile/kernel_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <random>
#include <utility>

#include "common/assert.h"
#include "compile/cache_files.h"
#include "treadle/error.h"

namespace fs = std::filesystem;

namespace treadle {

using cache_files::is_private;
using cache_files::open_regular;
using cache_files::remove_tree;

namespace {

constexpr const char* k_meta_format = "treadle-kernel-cache 1";
constexpr const char* k_meta_name = "meta.txt";
constexpr const char* k_source_name = "source.cpp";
/// Prefixes of the folders the cache makes under `<root>/tmp/` (mkdtemp adds 6 characters).
constexpr const char* k_tmp_prefixes[] = {"stage-", "entry-", "trash-"};

[[noreturn]] void fail_io(const std::string& what, const std::string& path, int err = errno) {
    throw Error(ErrorKind::Runtime,
                "kernel cache: " + what + " '" + path + "': " + std::strerror(err));
}

bool is_valid_key(const std::string& key) {
    if (key.size() < 2 || key.size() > 128) return false;
    for (char c : key)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

bool is_valid_binary_name(const std::string& name) {
    return !name.empty() && name.find('/') == std::string::npos && name != "." && name != ".." &&
           name != k_meta_name && name != k_source_name;
}

// Reads a small private regular file (owned by this user, not writable by others).
bool read_private_file(const std::string& path, std::string& out) {
    return cache_files::read_small_file(path, out, true);
}

// Writes `text` to a new private file and fsyncs it.
void write_file_synced(const std::string& path, const std::string& text) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) fail_io("cannot create", path);
    if (::fchmod(fd, 0600) != 0 || !cache_files::write_all(fd, text.data(), text.size()) ||
        ::fsync(fd) != 0) {
        int err = errno;
        ::close(fd);
        fail_io("cannot write", path, err);
    }
    ::close(fd);
}

void fsync_path(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

// Copies the open regular file `from` into a new private file `to`; false on an error.
bool copy_fd_to(int from, const std::string& to) {
    int out = ::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (out < 0) return false;
    bool ok = ::fchmod(out, 0600) == 0;
    char buf[65536];
    while (ok) {
        ssize_t got = ::read(from, buf, sizeof(buf));
        if (got == 0) break;
        if (got < 0) {
            ok = errno == EINTR;
            continue;
        }
        ok = cache_files::write_all(out, buf, size_t(got));
    }
    ::close(out);
    if (!ok) ::unlink(to.c_str());
    return ok;
}

// Moves a file into a new private file (rename, or a copy across file systems).
void move_file(const std::string& from, const std::string& to) {
    if (::rename(from.c_str(), to.c_str()) == 0) return;
    if (errno != EXDEV) fail_io("cannot move the built binary", from);
    struct stat st;
    int fd = open_regular(from, st);
    if (fd < 0) fail_io("cannot read", from);
    bool ok = copy_fd_to(fd, to);
    int err = errno;
    ::close(fd);
    if (!ok) fail_io("cannot copy the built binary to", to, err);
    ::unlink(from.c_str());
}

struct Meta {
    std::string key, binary, sha256, version;
    uint64_t size = 0;
};

// Parses meta.txt; false for anything malformed or of another format.
bool parse_meta(const std::string& text, Meta& meta) {
    size_t pos = 0;
    bool first = true, have_size = false;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos) return false;  // a whole file ends with a newline
        std::string line = text.substr(pos, end - pos);
        pos = end + 1;
        if (first) {
            if (line != k_meta_format) return false;
            first = false;
            continue;
        }
        size_t space = line.find(' ');
        if (space == std::string::npos) return false;
        std::string name = line.substr(0, space), value = line.substr(space + 1);
        if (name == "key") {
            meta.key = value;
        } else if (name == "binary") {
            meta.binary = value;
        } else if (name == "sha256") {
            meta.sha256 = value;
        } else if (name == "version") {
            meta.version = value;
        } else if (name == "size") {
            if (value.empty() || value.size() > 19) return false;
            for (char c : value)
                if (c < '0' || c > '9') return false;
            meta.size = std::stoull(value);
            have_size = true;
        }
    }
    return !first && have_size && !meta.key.empty() && is_valid_binary_name(meta.binary) &&
           meta.sha256.size() == 64;
}

// A fresh private folder `<root>/tmp/<prefix>-XXXXXX`.
std::string make_temp_dir(const std::string& root, const char* prefix) {
    std::string tmp = root + "/tmp";
    std::string path = tmp + "/" + prefix + "-XXXXXX";
    if (!::mkdtemp(path.data())) {
        if (errno != ENOENT) fail_io("cannot create a directory in", tmp);
        std::string problem = cache_files::make_private_dir(tmp);  // removed by someone
        if (!problem.empty())
            throw Error(ErrorKind::Runtime, "kernel cache: cannot use '" + tmp + "': " + problem);
        path = tmp + "/" + prefix + "-XXXXXX";
        if (!::mkdtemp(path.data())) fail_io("cannot create a directory in", tmp);
    }
    ::chmod(path.c_str(), 0700);  // mkdtemp's 0700 is masked by the umask
    return path;
}

enum class EntryState { Missing, Valid, Corrupt };

// A name for a new pin: unique in this process, and random across processes.
std::string pin_name(const std::string& root) {
    static std::atomic<uint64_t> counter{0};
    static thread_local std::mt19937_64 random{std::random_device{}()};
    return root + "/tmp/pin-" + std::to_string(::getpid()) + "-" +
           std::to_string(counter.fetch_add(1)) + "-" + std::to_string(random() % 1000000007u);
}

// Makes a pin of the regular file `source` (a hard link; a private copy where the file system
// has none) and returns it; `err` receives errno when that fails.
std::optional<CachedBinary> make_pin(const std::string& root, const std::string& source, int& err) {
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::string pinned = pin_name(root);
        if (::link(source.c_str(), pinned.c_str()) == 0) return CachedBinary(pinned);
        err = errno;
        if (err == EEXIST) continue;
        if (err == ENOENT) {  // tmp/ removed by someone, or `source` missing
            struct stat st;
            if (::lstat(source.c_str(), &st) != 0) return std::nullopt;
            std::string problem = cache_files::make_private_dir(root + "/tmp");
            if (!problem.empty()) return std::nullopt;
            continue;
        }
        // No hard links on this file system (or `source` is a directory): pin a private copy,
        // of a file that passes the owner and mode check itself (the copy always would).
        struct stat st;
        int from = open_regular(source, st);
        if (from >= 0 && !is_private(st)) {
            ::close(from);
            from = -1;
        }
        if (from < 0) return std::nullopt;
        bool copied = copy_fd_to(from, pinned);
        err = errno;
        ::close(from);
        if (copied) return CachedBinary(pinned);
        if (err != EEXIST) return std::nullopt;
    }
    return std::nullopt;
}

// Pins `<entry>/<binary_name>` and checks it against `meta`: the hash is computed on the
// pinned inode, which is what the caller loads.
EntryState pin_binary(const std::string& root, const std::string& entry, ino_t entry_inode,
                      const std::string& binary_name, const Meta& meta,
                      std::optional<CachedBinary>& pin) {
    int err = 0;
    std::optional<CachedBinary> holder = make_pin(root, entry + "/" + binary_name, err);
    if (!holder) {
        struct stat now;  // removed by a concurrent clear()?
        if (::lstat(entry.c_str(), &now) != 0 || now.st_ino != entry_inode)
            return EntryState::Missing;
        return EntryState::Corrupt;
    }
    struct stat st;
    int fd = open_regular(holder->path(), st);
    if (fd < 0) return EntryState::Corrupt;
    uint64_t size = 0;
    std::string hex;
    bool ok = is_private(st) && uint64_t(st.st_size) == meta.size &&
              cache_files::hash_fd(fd, size, hex) && size == meta.size && hex == meta.sha256;
    ::close(fd);
    if (!ok) return EntryState::Corrupt;
    pin = std::move(holder);
    return EntryState::Valid;
}

// Checks an entry and pins its binary when valid; `inode` receives the entry directory's
// inode number (0 when missing), so that a later quarantine() can tell whether the directory
// was replaced in between.
EntryState open_entry(const std::string& root, const std::string& entry, const std::string& key,
                      const std::string& binary_name, ino_t& inode,
                      std::optional<CachedBinary>& pin) {
    struct stat dir_st;
    if (::lstat(entry.c_str(), &dir_st) != 0) {
        inode = 0;
        return EntryState::Missing;
    }
    inode = dir_st.st_ino;
    if (!S_ISDIR(dir_st.st_mode) || !is_private(dir_st)) return EntryState::Corrupt;
    std::string text;
    Meta meta;
    if (!read_private_file(entry + "/" + k_meta_name, text) || !parse_meta(text, meta) ||
        meta.key != key || meta.binary != binary_name)
        return EntryState::Corrupt;
    return pin_binary(root, entry, inode, binary_name, meta, pin);
}

// Moves a bad entry out of the way atomically (so no reader sees it half-deleted), then
// deletes it. `inode` is the directory that was found bad (0: remove whatever is there); if
// a concurrent publisher replaced it with a fresh entry since, that one is put back.
void quarantine(const std::string& root, const std::string& entry, ino_t inode) {
    std::string trash;
    try {
        trash = make_temp_dir(root, "trash");
    } catch (const Error&) {
        return;  // cannot move it aside; lookups keep rejecting it
    }
    std::string moved = trash + "/entry";
    if (::rename(entry.c_str(), moved.c_str()) == 0 && inode != 0) {
        struct stat st;
        if (::lstat(moved.c_str(), &st) == 0 && st.st_ino != inode)
            ::rename(moved.c_str(), entry.c_str());  // fails harmlessly if replaced again
    }
    remove_tree(trash);
}

std::string entry_dir(const std::string& root, const std::string& key) {
    return root + "/" + key.substr(0, 2) + "/" + key;
}

// True when `path` is a real directory (not a symbolic link) owned by this user.
bool is_own_dir(const std::string& path) {
    struct stat st;
    return ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::geteuid();
}

// What is wrong with `root` as a cache root ("" when usable). `create` makes it (and missing
// parents) with mode 0700, and its tmp/ and locks/ folders. `refused` is set for the problems
// that make clear() refuse the root, as opposed to a root that merely cannot be created.
std::string check_root(const std::string& root, bool create, bool& refused) {
    refused = false;
    int create_err = 0;
    if (create) {
        std::string prefix;
        for (const fs::path& part : fs::path(root)) {
            if (part == "/") continue;
            prefix += "/" + part.string();
            if (::mkdir(prefix.c_str(), 0700) == 0)
                ::chmod(prefix.c_str(), 0700);  // made by us: private whatever the umask
            else if (errno != EEXIST)
                create_err = errno;
        }
    }
    struct stat st;
    if (::stat(root.c_str(), &st) != 0) {
        int err = create_err ? create_err : errno;
        return std::string("cannot create it (") + std::strerror(err) + ")";
    }
    refused = true;
    if (!S_ISDIR(st.st_mode)) return "it is not a directory";
    const char* planted = "; a shared object planted there would run in this process";
    if (st.st_uid != ::geteuid())
        return "it is owned by another user (uid " + std::to_string(st.st_uid) + ")" + planted;
    if (st.st_mode & S_IWOTH)
        return "it is writable by every user (" + cache_files::mode_text(st.st_mode) + ")" +
               planted;
    refused = false;
    if (!create) return "";
    if (::access(root.c_str(), W_OK | X_OK) != 0)
        return std::string("it is not writable (") + std::strerror(errno) + ")";
    for (const char* sub : {"/tmp", "/locks"}) {
        std::string problem = cache_files::make_private_dir(root + sub);
        if (!problem.empty()) return "'" + root + sub + "': " + problem;
    }
    return "";
}

// True when the folder entry `name` inside a shard holds exactly the files of an entry that
// treadle wrote for the key `name`.
bool is_treadle_entry(const std::string& entry, const std::string& name) {
    if (!is_own_dir(entry)) return false;
    std::string text;
    Meta meta;
    if (!read_private_file(entry + "/" + k_meta_name, text) || !parse_meta(text, meta) ||
        meta.key != name)
        return false;
    std::error_code ec;
    for (auto it = fs::directory_iterator(entry, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
        std::string file = it->path().filename().string();
        if (file != k_meta_name && file != k_source_name && file != meta.binary) return false;
        std::error_code type_ec;
        if (!it->is_regular_file(type_ec) || it->is_symlink(type_ec)) return false;
    }
    return !ec;
}

void clear_entries(const std::string& base) {
    std::error_code ec;
    for (auto it = fs::directory_iterator(base, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
        std::string shard_name = it->path().filename().string();
        std::string shard = it->path().string();
        if (shard_name.size() != 2 || !is_valid_key(shard_name) || !is_own_dir(shard)) continue;
        std::error_code shard_ec;
        for (auto e = fs::directory_iterator(shard, shard_ec);
             !shard_ec && e != fs::directory_iterator(); e.increment(shard_ec)) {
            std::string name = e->path().filename().string();
            if (!is_valid_key(name) || name.compare(0, 2, shard_name) != 0) continue;
            // Move each entry aside first so that no lookup sees it half-deleted.
            if (is_treadle_entry(e->path().string(), name)) quarantine(base, e->path().string(), 0);
        }
        ::rmdir(shard.c_str());  // only when nothing else is left in it
    }
}

// The process id in a pin's file name "pin-<pid>-<n>-<random>", or 0 for another name.
pid_t pin_owner(const std::string& name) {
    if (name.rfind("pin-", 0) != 0 || name.size() < 9) return 0;
    int dashes = 0;
    for (size_t i = 4; i < name.size(); ++i) {
        if (name[i] == '-')
            ++dashes;
        else if (name[i] < '0' || name[i] > '9')
            return 0;
    }
    return dashes == 2 ? pid_t(std::atol(name.c_str() + 4)) : 0;
}

// Removes the pins of processes that have ended (a crash, or an exit that skipped the
// destructors). A pin younger than a minute is kept whatever its process id says: in another
// pid namespace that process may be loading it right now.
void sweep_pins(const std::string& tmp) {
    time_t cutoff = ::time(nullptr) - 60;
    std::error_code ec;
    for (auto it = fs::directory_iterator(tmp, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
        std::string name = it->path().filename().string(), path = it->path().string();
        pid_t owner = pin_owner(name);
        struct stat st;
        if (owner <= 0 || ::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
            st.st_uid != ::geteuid() || st.st_ctime >= cutoff)
            continue;
        if (::kill(owner, 0) != 0 && errno == ESRCH) ::unlink(path.c_str());
    }
}

void clear_tmp(const std::string& base) {
    std::string tmp = base + "/tmp";
    if (!is_own_dir(tmp)) return;
    sweep_pins(tmp);
    // ctime, not mtime: a folder's contents may have changed since it was made.
    time_t cutoff = ::time(nullptr) - 3600;
    std::error_code ec;
    for (auto it = fs::directory_iterator(tmp, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
        std::string name = it->path().filename().string(), path = it->path().string();
        bool ours = false;
        for (const char* prefix : k_tmp_prefixes)
            ours = ours || (name.size() == std::strlen(prefix) + 6 && name.rfind(prefix, 0) == 0);
        struct stat st;
        if (ours && ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode) &&
            st.st_uid == ::geteuid() && st.st_ctime < cutoff)
            remove_tree(path);
    }
}

}  // namespace

CachedBinary::CachedBinary(CachedBinary&& other) noexcept
    : m_path(std::exchange(other.m_path, "")) {}

CachedBinary& CachedBinary::operator=(CachedBinary&& other) noexcept {
    if (this != &other) {
        if (!m_path.empty()) ::unlink(m_path.c_str());
        m_path = std::exchange(other.m_path, "");
    }
    return *this;
}

CachedBinary::~CachedBinary() {
    if (!m_path.empty()) ::unlink(m_path.c_str());
}

std::string default_cache_root() {
    std::string root;
    if (const char* dir = std::getenv("TREADLE_CACHE_DIR"); dir && *dir) {
        root = dir;
    } else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/') {
        root = std::string(xdg) + "/treadle";
    } else if (const char* home = std::getenv("HOME"); home && *home) {
        root = std::string(home) + "/.cache/treadle";
    } else if (const passwd* pw = ::getpwuid(::getuid()); pw && pw->pw_dir && *pw->pw_dir) {
        root = std::string(pw->pw_dir) + "/.cache/treadle";
    } else {
        root = "/tmp/treadle-cache-" + std::to_string(::getuid());
    }
    std::error_code ec;
    fs::path abs = fs::absolute(root, ec);
    return ec ? root : abs.lexically_normal().string();
}

KernelCache::KernelCache(std::string root) { set_root(root); }

KernelCache::~KernelCache() {
    if (!m_fallback.empty() && m_fallback_owner == ::getpid()) remove_tree(m_fallback);
}

void KernelCache::set_root(const std::string& root) {
    std::error_code ec;
    fs::path abs = fs::absolute(root, ec);
    std::string normal = ec ? root : abs.lexically_normal().string();
    while (normal.size() > 1 && normal.back() == '/') normal.pop_back();
    std::lock_guard<std::mutex> lock(m_mutex);
    if (normal == m_root) return;
    m_root = normal;
    m_resolved = false;
}

std::string KernelCache::root() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_root;
}

std::string KernelCache::root_problem() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_resolved ? m_problem : "";
}

void KernelCache::resolve_locked() {
    bool refused = false;
    m_problem = check_root(m_root, true, refused);
    if (m_problem.empty()) {
        m_active = m_root;
        m_resolved = true;
        sweep_pins(m_root + "/tmp");
        return;
    }
    if (m_fallback.empty()) {
        const char* env = std::getenv("TMPDIR");
        std::string dir = env && *env == '/' ? env : "/tmp";
        std::string path = dir + "/treadle-cache-XXXXXX";
        if (!::mkdtemp(path.data()))
            throw Error(ErrorKind::Runtime,
                        "kernel cache: cannot use '" + m_root + "': " + m_problem +
                            ", and cannot create a private temporary cache in '" + dir +
                            "': " + std::strerror(errno));
        ::chmod(path.c_str(), 0700);
        m_fallback = path;
        m_fallback_owner = ::getpid();
        bool unused = false;
        std::string problem = check_root(m_fallback, true, unused);
        if (!problem.empty())
            throw Error(ErrorKind::Runtime, "kernel cache: cannot use '" + m_root +
                                                "': " + m_problem + ", nor the private cache '" +
                                                m_fallback + "': " + problem);
    }
    cache_files::warn("not using '" + m_root + "': " + m_problem +
                      "; kernels are cached in the private temporary folder '" + m_fallback +
                      "' for this process only");
    m_active = m_fallback;
    m_resolved = true;
}

std::string KernelCache::active_root() {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (!m_resolved) resolve_locked();
    return m_active;
}

std::optional<CachedBinary> KernelCache::lookup(const std::string& key_hex,
                                                const std::string& binary_name) {
    TREADLE_ASSERT(is_valid_key(key_hex));
    TREADLE_ASSERT(is_valid_binary_name(binary_name));
    std::string base = active_root();
    if (!is_own_dir(base + "/" + key_hex.substr(0, 2))) return std::nullopt;
    std::string entry = entry_dir(base, key_hex);
    ino_t inode = 0;
    std::optional<CachedBinary> pin;
    switch (open_entry(base, entry, key_hex, binary_name, inode, pin)) {
        case EntryState::Valid:
            return pin;
        case EntryState::Corrupt:
            quarantine(base, entry, inode);
            return std::nullopt;
        case EntryState::Missing:
            break;
    }
    return std::nullopt;
}

CachedBinary KernelCache::publish(const std::string& key_hex, const std::string& source_text,
                                  const std::string& built_binary_path,
                                  const std::string& binary_name, const std::string& version) {
    TREADLE_ASSERT(is_valid_key(key_hex));
    TREADLE_ASSERT(is_valid_binary_name(binary_name));
    TREADLE_ASSERT(version.find('\n') == std::string::npos);
    std::string base = active_root();
    std::string stage = make_temp_dir(base, "entry");
    try {
        std::string binary = stage + "/" + binary_name;
        move_file(built_binary_path, binary);
        ::chmod(binary.c_str(), 0600);  // written under the umask, perhaps unreadable so far
        struct stat st;
        int fd = open_regular(binary, st);
        if (fd < 0) fail_io("cannot read", binary);
        uint64_t size = 0;
        std::string hex;
        bool ok =
            ::fchmod(fd, 0600) == 0 && cache_files::hash_fd(fd, size, hex) && ::fsync(fd) == 0;
        int err = errno;
        ::close(fd);
        if (!ok) fail_io("cannot read", binary, err);
        write_file_synced(stage + "/" + k_source_name, source_text);
        std::string meta = std::string(k_meta_format) + "\nkey " + key_hex + "\nbinary " +
                           binary_name + "\nsize " + std::to_string(size) + "\nsha256 " + hex +
                           "\nversion " + version + "\n";
        write_file_synced(stage + "/" + k_meta_name, meta);
        fsync_path(stage);

        // Pinned before it is visible, so a clear() right after the rename cannot take it away.
        int pin_err = 0;
        std::optional<CachedBinary> pin = make_pin(base, binary, pin_err);
        if (!pin) fail_io("cannot pin", binary, pin_err);

        std::string shard = base + "/" + key_hex.substr(0, 2);
        std::string entry = shard + "/" + key_hex;
        for (int attempt = 0; attempt < 8; ++attempt) {
            std::string problem = cache_files::make_private_dir(shard);
            if (!problem.empty())
                throw Error(ErrorKind::Runtime,
                            "kernel cache: cannot use '" + shard + "': " + problem);
            // rename() onto a missing or empty directory succeeds atomically; onto a
            // non-empty one it fails, which is how a concurrent publisher's entry is kept.
            if (::rename(stage.c_str(), entry.c_str()) == 0) {
                fsync_path(shard);
                return std::move(*pin);
            }
            if (errno == ENOENT) continue;  // a concurrent clear() removed the shard directory
            if (errno != EEXIST && errno != ENOTEMPTY) fail_io("cannot publish", entry);
            ino_t inode = 0;
            std::optional<CachedBinary> existing;
            switch (open_entry(base, entry, key_hex, binary_name, inode, existing)) {
                case EntryState::Valid:
                    remove_tree(stage);
                    return std::move(*pin);  // an equivalent build: ours is as good as the one kept
                case EntryState::Corrupt:
                    quarantine(base, entry, inode);
                    break;
                case EntryState::Missing:
                    break;  // removed meanwhile: try the rename again
            }
        }
        throw Error(ErrorKind::Runtime, "kernel cache: cannot publish '" + entry +
                                            "': the entry keeps changing under us");
    } catch (...) {
        remove_tree(stage);
        throw;
    }
}

std::string KernelCache::make_staging_dir() { return make_temp_dir(active_root(), "stage"); }

void KernelCache::discard_staging_dir(const std::string& dir) {
    std::string tmp = active_root() + "/tmp/";
    TREADLE_ASSERT(dir.compare(0, tmp.size(), tmp) == 0 && dir.size() > tmp.size());
    remove_tree(dir);
}

void KernelCache::clear() {
    std::string base, fallback;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        base = m_root;
        fallback = m_fallback;
    }
    bool refused = false;
    std::string problem = check_root(base, false, refused);
    if (refused)
        throw Error(ErrorKind::Runtime, "clear_kernel_cache(): refusing to clear '" + base +
                                            "': " + problem + " (nothing was deleted)");
    for (const std::string& root : {base, fallback}) {
        if (root.empty() || (root == base && !problem.empty())) continue;  // nothing there
        clear_entries(root);
        cache_files::remove_unused_locks(root + "/locks");
        clear_tmp(root);
    }
}

KernelCache& kernel_cache() {
    static KernelCache cache;
    return cache;
}

}  // namespace treadle
