// src/compile/kernel_cache.cpp -- atomic publish and verified lookup of cached kernel binaries
#include "compile/kernel_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>

#include "common/assert.h"
#include "compile/sha256.h"
#include "treadle/error.h"

namespace fs = std::filesystem;

namespace treadle {

namespace {

constexpr const char* k_meta_format = "treadle-kernel-cache 1";
constexpr const char* k_meta_name = "meta.txt";
constexpr const char* k_source_name = "source.cpp";

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

void make_dirs(const std::string& path) {
    std::error_code ec;
    fs::create_directories(path, ec);
    if (ec)
        throw Error(ErrorKind::Runtime,
                    "kernel cache: cannot create directory '" + path + "': " + ec.message());
}

// Reads a whole (small) file with plain read(2); false when it cannot be opened or read.
bool read_small_file(const std::string& path, std::string& out) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
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

// Writes `text` to a new file and fsyncs it.
void write_file_synced(const std::string& path, const std::string& text, mode_t mode) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0) fail_io("cannot create", path);
    if (!write_all(fd, text.data(), text.size()) || ::fsync(fd) != 0) {
        int err = errno;
        ::close(fd);
        fail_io("cannot write", path, err);
    }
    ::close(fd);
}

void fsync_path(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

// Size and SHA-256 of a file, in one pass; false when it cannot be read.
bool hash_file(const std::string& path, uint64_t& size, std::string& hex) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    Sha256 hasher;
    size = 0;
    char buf[65536];
    bool ok = true;
    for (;;) {
        ssize_t got = ::read(fd, buf, sizeof(buf));
        if (got > 0) {
            hasher.update(buf, size_t(got));
            size += uint64_t(got);
        } else if (got == 0) {
            break;
        } else if (errno != EINTR) {
            ok = false;
            break;
        }
    }
    ::close(fd);
    auto digest = hasher.finish();
    hex = to_hex(digest.data(), digest.size());
    return ok;
}

// Copies a file into a new file (used when rename() cannot cross file systems).
void copy_file(const std::string& from, const std::string& to) {
    std::error_code ec;
    if (!fs::copy_file(from, to, ec) || ec)
        throw Error(ErrorKind::Runtime,
                    "kernel cache: cannot copy '" + from + "' to '" + to + "': " + ec.message());
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
    return !first && have_size && !meta.key.empty() && !meta.binary.empty() &&
           meta.sha256.size() == 64;
}

enum class EntryState { Missing, Valid, Corrupt };

// Checks an entry; `inode` receives the entry directory's inode number (0 when missing), so
// that a later quarantine() can tell whether the directory was replaced in between.
EntryState verify_entry(const std::string& entry, const std::string& key,
                        const std::string& binary_name, ino_t& inode) {
    struct stat dir_st;
    if (::lstat(entry.c_str(), &dir_st) != 0) {
        inode = 0;
        return EntryState::Missing;
    }
    inode = dir_st.st_ino;
    std::string text;
    if (!read_small_file(entry + "/" + k_meta_name, text)) return EntryState::Corrupt;
    Meta meta;
    if (!parse_meta(text, meta) || meta.key != key || meta.binary != binary_name)
        return EntryState::Corrupt;
    std::string binary = entry + "/" + binary_name;
    struct stat st;
    if (::stat(binary.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
        uint64_t(st.st_size) != meta.size)
        return EntryState::Corrupt;
    uint64_t size = 0;
    std::string hex;
    if (!hash_file(binary, size, hex) || size != meta.size || hex != meta.sha256)
        return EntryState::Corrupt;
    return EntryState::Valid;
}

std::string make_temp_dir(const std::string& root, const char* prefix) {
    std::string tmp = root + "/tmp";
    make_dirs(tmp);
    std::string path = tmp + "/" + prefix + "-XXXXXX";
    if (!::mkdtemp(path.data())) fail_io("cannot create a directory in", tmp);
    return path;
}

void remove_all_quietly(const std::string& path) {
    std::error_code ec;
    fs::remove_all(path, ec);
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
    remove_all_quietly(trash);
}

std::string entry_dir(const std::string& root, const std::string& key) {
    return root + "/" + key.substr(0, 2) + "/" + key;
}

}  // namespace

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

void KernelCache::set_root(const std::string& root) {
    std::error_code ec;
    fs::path abs = fs::absolute(root, ec);
    std::string normal = ec ? root : abs.lexically_normal().string();
    while (normal.size() > 1 && normal.back() == '/') normal.pop_back();
    std::lock_guard<std::mutex> lock(m_mutex);
    m_root = normal;
}

std::string KernelCache::root() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_root;
}

std::optional<std::string> KernelCache::lookup(const std::string& key_hex,
                                               const std::string& binary_name) {
    TREADLE_ASSERT(is_valid_key(key_hex));
    TREADLE_ASSERT(is_valid_binary_name(binary_name));
    std::string base = root();
    std::string entry = entry_dir(base, key_hex);
    ino_t inode = 0;
    switch (verify_entry(entry, key_hex, binary_name, inode)) {
        case EntryState::Valid:
            return entry + "/" + binary_name;
        case EntryState::Corrupt:
            quarantine(base, entry, inode);
            return std::nullopt;
        case EntryState::Missing:
            break;
    }
    return std::nullopt;
}

std::string KernelCache::publish(const std::string& key_hex, const std::string& source_text,
                                 const std::string& built_binary_path,
                                 const std::string& binary_name, const std::string& version) {
    TREADLE_ASSERT(is_valid_key(key_hex));
    TREADLE_ASSERT(is_valid_binary_name(binary_name));
    TREADLE_ASSERT(version.find('\n') == std::string::npos);
    std::string base = root();
    std::string stage = make_temp_dir(base, "entry");
    try {
        std::string binary = stage + "/" + binary_name;
        if (::rename(built_binary_path.c_str(), binary.c_str()) != 0) {
            if (errno != EXDEV) fail_io("cannot move the built binary", built_binary_path);
            copy_file(built_binary_path, binary);
        }
        uint64_t size = 0;
        std::string hex;
        if (!hash_file(binary, size, hex)) fail_io("cannot read", binary);
        fsync_path(binary);
        write_file_synced(stage + "/" + k_source_name, source_text, 0644);
        std::string meta = std::string(k_meta_format) + "\nkey " + key_hex + "\nbinary " +
                           binary_name + "\nsize " + std::to_string(size) + "\nsha256 " + hex +
                           "\nversion " + version + "\n";
        write_file_synced(stage + "/" + k_meta_name, meta, 0644);
        fsync_path(stage);
        ::chmod(stage.c_str(), 0755);  // mkdtemp makes it 0700

        std::string shard = base + "/" + key_hex.substr(0, 2);
        make_dirs(shard);
        std::string entry = shard + "/" + key_hex;
        for (int attempt = 0; attempt < 8; ++attempt) {
            // rename() onto a missing or empty directory succeeds atomically; onto a
            // non-empty one it fails, which is how a concurrent publisher's entry is kept.
            if (::rename(stage.c_str(), entry.c_str()) == 0) {
                fsync_path(shard);
                return entry + "/" + binary_name;
            }
            if (errno == ENOENT) {  // a concurrent clear() removed the shard directory
                make_dirs(shard);
                continue;
            }
            if (errno != EEXIST && errno != ENOTEMPTY) fail_io("cannot publish", entry);
            ino_t inode = 0;
            switch (verify_entry(entry, key_hex, binary_name, inode)) {
                case EntryState::Valid:
                    remove_all_quietly(stage);
                    return entry + "/" + binary_name;
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
        remove_all_quietly(stage);
        throw;
    }
}

std::string KernelCache::make_staging_dir() { return make_temp_dir(root(), "stage"); }

void KernelCache::discard_staging_dir(const std::string& dir) {
    std::string tmp = root() + "/tmp/";
    TREADLE_ASSERT(dir.compare(0, tmp.size(), tmp) == 0 && dir.size() > tmp.size());
    remove_all_quietly(dir);
}

void KernelCache::clear() {
    std::string base = root();
    std::error_code ec;
    for (auto it = fs::directory_iterator(base, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
        std::string name = it->path().filename().string();
        if (name.size() == 2 && is_valid_key(name)) {
            // Move each entry aside first so that no lookup sees it half-deleted.
            std::error_code shard_ec;
            for (auto e = fs::directory_iterator(it->path(), shard_ec);
                 !shard_ec && e != fs::directory_iterator(); e.increment(shard_ec))
                quarantine(base, e->path().string(), 0);
            ::rmdir(it->path().c_str());
        }
    }
    auto cutoff = fs::file_time_type::clock::now() - std::chrono::hours(1);
    std::error_code tmp_ec;
    for (auto it = fs::directory_iterator(base + "/tmp", tmp_ec);
         !tmp_ec && it != fs::directory_iterator(); it.increment(tmp_ec)) {
        std::error_code time_ec;
        auto written = fs::last_write_time(it->path(), time_ec);
        if (!time_ec && written < cutoff) remove_all_quietly(it->path().string());
    }
}

KernelCache& kernel_cache() {
    static KernelCache cache;
    return cache;
}

}  // namespace treadle
