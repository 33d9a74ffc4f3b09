// src/compile/native_headers.cpp -- writes the embedded native headers into the kernel cache
#include "compile/native_headers.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

#include "compile/cache_files.h"
#include "compile/sha256.h"
#include "treadle/error.h"

namespace treadle {

namespace {

/// True when `dir`/treadle holds every embedded header with this library's bytes.
bool holds_headers(const std::string& dir) {
    for (const NativeHeader& h : native_headers()) {
        std::string text;
        if (!cache_files::read_small_file(dir + "/treadle/" + h.name, text, true) || text != h.text)
            return false;
    }
    return true;
}

/// Writes every header into `dir`/treadle (a fresh private directory); "" or what failed.
std::string write_headers(const std::string& dir) {
    std::string problem = cache_files::make_private_dir(dir + "/treadle");
    if (!problem.empty()) return problem;
    for (const NativeHeader& h : native_headers()) {
        std::string path = dir + "/treadle/" + h.name;
        int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0) return "cannot create " + path;
        bool ok = cache_files::write_all(fd, h.text.data(), h.text.size());
        ok = ::close(fd) == 0 && ok;
        if (!ok) return "cannot write " + path;
    }
    return "";
}

}  // namespace

const std::string& native_headers_hash() {
    static const std::string hash = [] {
        Sha256 sha;
        for (const NativeHeader& h : native_headers()) {
            sha.update(std::string(h.name));
            sha.update(h.text);
        }
        auto digest = sha.finish();
        return to_hex(digest.data(), digest.size());
    }();
    return hash;
}

std::string extract_native_headers(const std::string& cache_root) {
    const std::string parent = cache_root + "/native";
    const std::string target = parent + "/" + native_headers_hash().substr(0, 16);
    if (holds_headers(target)) return target;
    std::string problem = cache_files::make_private_dir(parent);
    // Processes starting at once on a cold cache race here: one may move aside the copy
    // another has just published (it looked damaged while still being checked). A copy that
    // does not verify is therefore written again a few times before it counts as a failure.
    for (int attempt = 0; problem.empty() && attempt < 5; ++attempt) {
        if (attempt > 0) ::usleep(useconds_t(2000 * attempt));
        if (holds_headers(target)) return target;
        const std::string staging = target + ".tmp-" + std::to_string(::getpid());
        cache_files::remove_tree(staging);
        problem = cache_files::make_private_dir(staging);
        if (problem.empty()) problem = write_headers(staging);
        if (!problem.empty()) {
            cache_files::remove_tree(staging);
            break;
        }
        // A damaged copy is moved aside first; a concurrent writer's good copy wins.
        if (!holds_headers(target)) {
            const std::string old = target + ".old-" + std::to_string(::getpid());
            if (::rename(target.c_str(), old.c_str()) == 0) cache_files::remove_tree(old);
            ::rename(staging.c_str(), target.c_str());
        }
        cache_files::remove_tree(staging);
        if (holds_headers(target)) return target;
        problem = "";
    }
    if (problem.empty()) problem = "the copy in " + target + " does not match after writing it";
    throw Error(ErrorKind::Runtime,
                "treadle cannot write its native headers into the kernel cache (" + problem +
                    "); set TREADLE_NATIVE_DIR to a folder that holds treadle/core.h");
}

}  // namespace treadle
