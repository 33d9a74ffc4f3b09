// src/compile/host_compiler.cpp -- locating the C++ compiler, running it, precompiled headers
#include "compile/host_compiler.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>

#include "compile/sha256.h"
#include "treadle/error.h"

extern char** environ;

namespace treadle {

namespace {

bool is_executable_file(const std::string& path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
           ::access(path.c_str(), X_OK) == 0;
}

std::string absolute_path(const std::string& path) {
    if (!path.empty() && path[0] == '/') return path;
    char cwd[4096];
    if (!::getcwd(cwd, sizeof(cwd))) return path;
    return std::string(cwd) + "/" + path;
}

// Searches PATH like execvp does (an empty entry means the current directory).
std::optional<std::string> search_path(const std::string& name) {
    const char* env = std::getenv("PATH");
    std::string path_var = env ? env : "/usr/local/bin:/usr/bin:/bin";
    size_t start = 0;
    while (start <= path_var.size()) {
        size_t end = path_var.find(':', start);
        if (end == std::string::npos) end = path_var.size();
        std::string dir = path_var.substr(start, end - start);
        std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;
        if (is_executable_file(candidate)) return absolute_path(candidate);
        start = end + 1;
    }
    return std::nullopt;
}

std::string stat_signature(const std::string& path) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return "missing";
    return std::to_string((long long)st.st_size) + ":" +
           std::to_string((long long)st.st_mtim.tv_sec) + "." +
           std::to_string((long long)st.st_mtim.tv_nsec);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Reads everything from `fd` until end of file.
void drain(int fd, std::string& out) {
    char buf[8192];
    for (;;) {
        ssize_t got = ::read(fd, buf, sizeof(buf));
        if (got > 0) {
            out.append(buf, size_t(got));
        } else if (got == 0 || errno != EINTR) {
            return;
        }
    }
}

}  // namespace

HostCompiler find_host_compiler(const std::string& name_or_path) {
    std::optional<std::string> found;
    if (name_or_path.find('/') != std::string::npos) {
        if (is_executable_file(name_or_path)) found = absolute_path(name_or_path);
    } else if (!name_or_path.empty()) {
        found = search_path(name_or_path);
    }
    if (!found)
        throw Error(ErrorKind::Compile,
                    "no C++ compiler found: '" + name_or_path +
                        "' is not an executable file or on PATH; install a C++ compiler "
                        "(g++ or clang++) or set TREADLE_CXX to the compiler's path");
    HostCompiler cxx;
    cxx.path = *found;
    char* real = ::realpath(found->c_str(), nullptr);
    cxx.resolved_path = real ? real : *found;
    std::free(real);
    cxx.identity = cxx.path + "|" + cxx.resolved_path + "|" + stat_signature(cxx.resolved_path);
    return cxx;
}

const HostCompiler& host_compiler() {
    // A throwing initializer leaves the static uninitialised, so a later call retries.
    static const HostCompiler cxx = [] {
        const char* env = std::getenv("TREADLE_CXX");
        return find_host_compiler(env && *env ? env : "c++");
    }();
    return cxx;
}

CompileResult run_compiler(const HostCompiler& cxx, const std::vector<std::string>& args) {
    auto start = std::chrono::steady_clock::now();
    CompileResult result;

    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(cxx.path.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);

    // Close-on-exec so that compilers spawned concurrently by other threads do not inherit
    // the write end (which would delay our end-of-file until they exit).
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        result.diagnostics = std::string("treadle: cannot create a pipe: ") + std::strerror(errno);
        result.seconds = seconds_since(start);
        return result;
    }

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 2);

    // The host process (e.g. Python) may ignore SIGPIPE or block signals; the compiler
    // should start with the defaults.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t defaults, empty;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    sigemptyset(&empty);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setsigmask(&attr, &empty);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

    pid_t pid = -1;
    int spawn_err = ::posix_spawn(&pid, cxx.path.c_str(), &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(fds[1]);

    if (spawn_err != 0) {
        ::close(fds[0]);
        result.diagnostics =
            "treadle: cannot run the C++ compiler '" + cxx.path + "': " + std::strerror(spawn_err);
        result.seconds = seconds_since(start);
        return result;
    }

    drain(fds[0], result.diagnostics);
    ::close(fds[0]);

    int status = 0;
    pid_t waited;
    do {
        waited = ::waitpid(pid, &status, 0);
    } while (waited < 0 && errno == EINTR);

    if (waited < 0) {
        result.diagnostics += std::string("\ntreadle: cannot wait for the C++ compiler: ") +
                              std::strerror(errno) + " (is SIGCHLD ignored?)";
    } else if (WIFEXITED(status)) {
        result.ok = WEXITSTATUS(status) == 0;
        if (!result.ok && result.diagnostics.empty())
            result.diagnostics = "treadle: the C++ compiler exited with status " +
                                 std::to_string(WEXITSTATUS(status)) + " and printed nothing";
    } else if (WIFSIGNALED(status)) {
        result.diagnostics += "\ntreadle: the C++ compiler was killed by signal " +
                              std::to_string(WTERMSIG(status)) + " (" +
                              strsignal(WTERMSIG(status)) + ")";
    }
    result.seconds = seconds_since(start);
    return result;
}

CompileResult compile_shared_object(const std::string& source_path, const std::string& output_path,
                                    const std::vector<std::string>& include_dirs,
                                    const std::vector<std::string>& extra_flags) {
    const HostCompiler& cxx = host_compiler();
    std::vector<std::string> args = {"-std=c++17", "-shared", "-fPIC"};
    args.insert(args.end(), extra_flags.begin(), extra_flags.end());
    for (const auto& dir : include_dirs) args.push_back("-I" + dir);
    args.push_back("-o");
    args.push_back(output_path);
    args.push_back(source_path);
    return run_compiler(cxx, args);
}

// --- precompiled headers ----------------------------------------------------------------

namespace {

// Splits a make-style dependency file ("target: a b \<newline> c") into its prerequisites.
std::vector<std::string> parse_make_deps(const std::string& text) {
    std::vector<std::string> words;
    std::string word;
    bool seen_colon = false;
    auto flush = [&] {
        if (!word.empty()) {
            if (seen_colon) words.push_back(word);
            word.clear();
        }
    };
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c == '\\' && i + 1 < text.size()) {
            char next = text[i + 1];
            if (next == '\n') {
                ++i;
                flush();
                continue;
            }
            if (next == ' ' || next == '#' || next == '\\') {
                word += next;
                ++i;
                continue;
            }
        }
        if (c == '$' && i + 1 < text.size() && text[i + 1] == '$') {
            word += '$';
            ++i;
            continue;
        }
        if (!seen_colon && c == ':' &&
            (i + 1 == text.size() || text[i + 1] == ' ' || text[i + 1] == '\n' ||
             text[i + 1] == '\\')) {
            seen_colon = true;
            word.clear();
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            flush();
            continue;
        }
        word += c;
    }
    flush();
    return words;
}

bool read_file(const std::string& path, std::string& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream ss;
    ss << in.rdbuf();
    out = ss.str();
    return true;
}

bool write_file(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    return bool(out);
}

std::string inode_signature(const std::string& path) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return "missing";
    return "ino" + std::to_string((unsigned long long)st.st_ino) + ":" + stat_signature(path);
}

// deps.txt: one "signature<TAB>path" line per file the PCH was built from, the PCH itself
// first (with its inode, so that a deps.txt and a .gch from two different builds that
// raced never pass as a pair).
bool deps_still_valid(const std::string& deps_path) {
    std::string text;
    if (!read_file(deps_path, text) || text.empty()) return false;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        size_t tab = line.find('\t');
        if (tab == std::string::npos) return false;
        std::string path = line.substr(tab + 1), recorded = line.substr(0, tab);
        bool with_inode = recorded.compare(0, 3, "ino") == 0;
        if ((with_inode ? inode_signature(path) : stat_signature(path)) != recorded) return false;
    }
    return true;
}

void make_dirs(const std::string& path) {
    for (size_t i = 1; i <= path.size(); ++i) {
        if (i == path.size() || path[i] == '/') {
            std::string prefix = path.substr(0, i);
            if (::mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST)
                throw Error(ErrorKind::Runtime,
                            "cannot create directory '" + prefix + "': " + std::strerror(errno));
        }
    }
}

// A unique name next to `path` for building a file that is then rename()d onto `path`.
std::string temp_name_for(const std::string& path) {
    static std::atomic<unsigned> counter{0};
    return path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(++counter);
}

// Creates `path` with `text` unless it exists. The stub never changes once created: clang
// records its mtime in the PCH and refuses a PCH whose inputs were touched.
bool create_once(const std::string& path, const std::string& text) {
    std::string tmp = temp_name_for(path);
    bool ok = write_file(tmp, text) && (::link(tmp.c_str(), path.c_str()) == 0 || errno == EEXIST);
    ::unlink(tmp.c_str());
    return ok;
}

}  // namespace

std::string ensure_pch(const std::string& header, const std::vector<std::string>& include_dirs,
                       const std::vector<std::string>& flags, const std::string& cache_dir) {
    static std::mutex mutex;
    static std::map<std::string, std::string> known;  // key -> result, checked this process
    const HostCompiler& cxx = host_compiler();

    std::string header_text;
    if (!read_file(header, header_text))
        throw Error(ErrorKind::Runtime, "cannot read header '" + header + "' to precompile");
    Sha256 h;
    auto field = [&](const std::string& s) {
        h.update(std::to_string(s.size()) + ":");
        h.update(s);
    };
    field("treadle-pch-1");
    field(cxx.identity);
    field(header);
    field(header_text);
    for (const auto& f : flags) field("flag " + f);
    for (const auto& d : include_dirs) field("dir " + d);
    auto digest = h.finish();
    std::string key = to_hex(digest.data(), digest.size()).substr(0, 32);

    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = known.find(key); it != known.end()) return it->second;

    // The stub must sit at its final path while the PCH is built (clang records the paths of
    // its inputs), so files are published one by one with rename() instead of as a directory.
    size_t slash = header.find_last_of('/');
    std::string base = slash == std::string::npos ? header : header.substr(slash + 1);
    std::string dir = cache_dir + "/pch/" + key;
    std::string stub = dir + "/" + base;
    std::string gch = stub + ".gch";
    std::string deps = dir + "/deps.txt";
    if (deps_still_valid(deps)) {
        known[key] = stub;
        return stub;
    }

    make_dirs(dir);
    if (!create_once(stub, "// treadle precompiled-header stub\n#include \"" + header + "\"\n"))
        throw Error(ErrorKind::Runtime, "cannot write '" + stub + "': " + std::strerror(errno));
    std::string gch_tmp = temp_name_for(gch), deps_d = temp_name_for(dir + "/deps.d");
    std::vector<std::string> args = {"-std=c++17", "-fPIC"};
    args.insert(args.end(), flags.begin(), flags.end());
    for (const auto& d : include_dirs) args.push_back("-I" + d);
    for (const char* a : {"-x", "c++-header", "-MD", "-MF"}) args.push_back(a);
    args.insert(args.end(), {deps_d, "-o", gch_tmp, stub});
    CompileResult r = run_compiler(cxx, args);

    std::string deps_text, lines;
    if (r.ok && read_file(deps_d, deps_text)) {
        for (const auto& dep : parse_make_deps(deps_text)) {
            std::string sig = stat_signature(dep);
            if (sig != "missing") lines += sig + "\t" + dep + "\n";
        }
    }
    ::unlink(deps_d.c_str());
    // rename() keeps the inode, so the recorded signature of gch_tmp is that of gch.
    std::string deps_tmp = temp_name_for(deps);
    bool built = !lines.empty() &&
                 write_file(deps_tmp, inode_signature(gch_tmp) + "\t" + gch + "\n" + lines) &&
                 ::rename(gch_tmp.c_str(), gch.c_str()) == 0 &&
                 ::rename(deps_tmp.c_str(), deps.c_str()) == 0;
    ::unlink(gch_tmp.c_str());
    ::unlink(deps_tmp.c_str());
    // Without a PCH, `-include header` behaves exactly like the stub would.
    known[key] = built ? stub : header;
    return known[key];
}

}  // namespace treadle
