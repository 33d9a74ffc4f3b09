// src/compile/host_compiler.h -- finding the host C++ compiler and running it on a kernel
#pragma once

#include <string>
#include <vector>

namespace treadle {

/// The C++ compiler that builds kernels into shared objects.
struct HostCompiler {
    /// Absolute path used to run the compiler: TREADLE_CXX, else `c++` found on PATH. Symlinks
    /// are NOT followed here, because drivers such as clang pick their language from argv[0].
    std::string path;
    /// `path` with every symlink followed (realpath): the file that actually runs.
    std::string resolved_path;
    /// Cheap fingerprint that changes when the compiler changes, computed without running it:
    /// both paths plus the resolved file's size and modification time. Part of cache keys.
    std::string identity;
};

/// The host compiler, located once per process (thread-safe). Throws treadle::Error
/// (ErrorKind::Compile) naming TREADLE_CXX when no usable compiler is found; a later call
/// tries again.
const HostCompiler& host_compiler();

/// Locates a compiler from a TREADLE_CXX-style value (a path, or a name searched on PATH) and
/// fingerprints it. Throws treadle::Error (ErrorKind::Compile) when it is not executable.
HostCompiler find_host_compiler(const std::string& name_or_path);

/// Outcome of one compiler run. `diagnostics` is everything the compiler printed on stdout
/// and stderr, plus a note from treadle when the compiler could not run or died on a signal.
struct CompileResult {
    bool ok = false;
    std::string diagnostics;
    double seconds = 0.0;  ///< wall time of the compiler run
};

/// Runs `<cxx> -std=c++17 -shared -fPIC <extra_flags> -I<dir>... -o output_path source_path`
/// with posix_spawn (no shell) and waits for it. Never throws for a failed compile: returns
/// ok=false with the diagnostics. Thread-safe: several compiles may run at once (the output
/// pipe is close-on-exec so no other child inherits it).
CompileResult compile_shared_object(const std::string& source_path, const std::string& output_path,
                                    const std::vector<std::string>& include_dirs,
                                    const std::vector<std::string>& extra_flags);

/// Same as compile_shared_object, with an explicit compiler (used by tests and ensure_pch).
CompileResult run_compiler(const HostCompiler& cxx, const std::vector<std::string>& args);

/// Precompiles `header` (an absolute path) once for this exact compiler, include dirs and
/// flags, into `<cache_dir>/pch/<key>/`, and returns the path P of a stub header there: pass
/// `-include P` (in extra_flags, with the SAME include_dirs and flags) to compile_shared_object
/// so the compiler loads `P.gch` instead of parsing the header (the header needs an include
/// guard or #pragma once, since sources usually #include it again). The key covers the
/// compiler identity, flags, include dirs and the header's text; the size and mtime of every
/// file the header pulled in are recorded and re-checked once per process, and a stale PCH is
/// rebuilt. When the header cannot be precompiled, `header` itself is returned (`-include
/// header` then parses it normally), so callers need no fallback path. Tested with GCC.
/// Thread-safe (builds are serialised in-process); concurrent processes may race to build,
/// and the first one's directory wins atomically. Throws treadle::Error (Runtime) only when
/// the header cannot be read or the cache directory is unusable.
std::string ensure_pch(const std::string& header, const std::vector<std::string>& include_dirs,
                       const std::vector<std::string>& flags, const std::string& cache_dir);

}  // namespace treadle
