// src/compile/compile_kernel.cpp -- compile_kernel(): the steps from source to loaded kernel
//
// Start reading here. Each step lives in its own subsystem: frontend/ (parser), sema/
// (inference into ir/), codegen/ (C++ text), compile/ (hash, cache, host compiler),
// runtime/ (loading). TREADLE_DEBUG_CODEGEN=1 prints the IR and the generated source.
#include "compile/compile_kernel.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "codegen/emitter.h"
#include "common/assert.h"
#include "compile/host_compiler.h"
#include "compile/kernel_cache.h"
#include "compile/sha256.h"
#include "sema/infer.h"

#ifndef TREADLE_VERSION
#define TREADLE_VERSION "0.0.0"
#endif

namespace treadle {

namespace {

std::mutex g_mutex;
std::string g_native_dir;
std::map<std::string, std::shared_ptr<const CompiledKernel>> g_loaded;  // by key

bool is_dir(const std::string& p) {
    struct stat st;
    return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// SHA-256 over the names and contents of native/treadle/*.h, computed once per directory.
const std::string& native_hash() {
    static std::string dir_hashed, hash;
    std::lock_guard<std::mutex> lock(g_mutex);
    if (dir_hashed == g_native_dir && !hash.empty()) return hash;
    std::vector<std::string> names;
    std::string dir = g_native_dir + "/treadle";
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d)) {
            std::string n = e->d_name;
            if (n.size() > 2 && n.substr(n.size() - 2) == ".h") names.push_back(n);
        }
        closedir(d);
    }
    std::sort(names.begin(), names.end());
    Sha256 sha;
    for (const std::string& n : names) {
        sha.update(n);
        sha.update(read_file(dir + "/" + n));
    }
    auto digest = sha.finish();
    hash = to_hex(digest.data(), digest.size());
    dir_hashed = g_native_dir;
    return hash;
}

bool debug_codegen() {
    const char* v = std::getenv("TREADLE_DEBUG_CODEGEN");
    return v && *v && std::string(v) != "0";
}

/// Finds the first "<python file>:<line>" in compiler output, to point the error at it.
SourceLocation first_error_location(const std::string& diag, const ast::SourceFile& src) {
    std::string needle = src.path + ":";
    size_t pos = 0;
    while ((pos = diag.find(needle, pos)) != std::string::npos) {
        pos += needle.size();
        int line = std::atoi(diag.c_str() + pos);
        if (line > 0) return SourceLocation{src.path, line, 1, src.line_text(line)};
    }
    return {};
}

std::vector<std::string> mode_flags(const std::string& mode) {
    if (mode == "debug") return {"-O0", "-g"};
    return {"-O2", "-fno-math-errno"};
}

}  // namespace

void set_native_dir(const std::string& dir) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_native_dir = dir;
}

const std::string& native_dir() {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_native_dir.empty()) {
        const char* env = std::getenv("TREADLE_NATIVE_DIR");
        if (env && *env) {
            g_native_dir = env;
        } else {
#ifdef TREADLE_BUILD_NATIVE_DIR
            if (is_dir(TREADLE_BUILD_NATIVE_DIR)) g_native_dir = TREADLE_BUILD_NATIVE_DIR;
#endif
#ifdef TREADLE_INSTALL_NATIVE_DIR
            if (g_native_dir.empty() && is_dir(TREADLE_INSTALL_NATIVE_DIR))
                g_native_dir = TREADLE_INSTALL_NATIVE_DIR;
#endif
        }
        if (g_native_dir.empty())
            throw Error(ErrorKind::Runtime,
                        "treadle cannot find its native headers; set TREADLE_NATIVE_DIR to the "
                        "folder that holds treadle/core.h");
    }
    return g_native_dir;
}

std::shared_ptr<const CompiledKernel> compile_kernel(const sema::FunctionSource& kernel,
                                                     const CompileOptions& options) {
    if (options.mode != "release" && options.mode != "debug" && options.mode != "checked")
        throw Error(ErrorKind::Value, "compile_kernel(): unknown mode '" + options.mode +
                                          "' (expected 'release', 'checked' or 'debug')");
    // 1-3. Parse, infer types, build the typed IR of the kernel and its callees.
    std::unique_ptr<ir::Program> program = sema::build_program(kernel);
    // 4. Check the IR's invariants: a failure here is a treadle bug, not a user error.
    for (const auto& f : program->functions) {
        std::string problem = ir::verify(*f);
        if (!problem.empty()) {
            std::fprintf(stderr, "%s\n", ir::print(*f).c_str());
            std::fprintf(stderr, "treadle internal error: invalid IR: %s\n", problem.c_str());
            TREADLE_ASSERT(problem.empty());
        }
    }
    // 5. Generate C++ for the CPU back end.
    std::string source = codegen::generate_source(*program, codegen::cpu_backend());
    if (debug_codegen())
        std::fprintf(stderr, "--- treadle IR ---\n%s--- treadle source ---\n%s\n",
                     ir::print(*program).c_str(), source.c_str());
    // 6. The cache key: everything that can change the binary.
    const std::string& native = native_dir();
    const HostCompiler& cxx = host_compiler();
    std::vector<std::string> flags = mode_flags(options.mode);
    Sha256 sha;
    for (const std::string& part :
         {source, std::string("cpu"), options.mode, cxx.identity, native_hash(),
          std::string(TREADLE_VERSION)}) {
        sha.update(part);
        sha.update(std::string_view("\0", 1));
    }
    for (const std::string& f : flags) sha.update(f);
    auto digest = sha.finish();
    std::string key = to_hex(digest.data(), digest.size());

    auto result = std::make_shared<CompiledKernel>();
    result->name = program->kernel->name;
    result->tid_arity = program->kernel->tid_arity;
    std::vector<codegen::ParamLayout> layout;
    result->params_size = codegen::layout_params(*program->kernel, layout);
    for (const auto& p : layout) result->params.push_back(KernelParam{p.name, p.type, p.offset});
    result->key = key;
    result->source = source;

    {
        std::lock_guard<std::mutex> lock(g_mutex);
        auto it = g_loaded.find(key);
        if (it != g_loaded.end()) return it->second;
    }

    // 7. Cache lookup; on a miss, build in a staging directory and publish atomically.
    KernelCache& cache = kernel_cache();
    const std::string binary_name = "kernel.so";
    std::optional<std::string> binary = cache.lookup(key, binary_name);
    result->from_cache = binary.has_value();
    if (!binary) {
        std::string staging = cache.make_staging_dir();
        std::string src_path = staging + "/source.cpp";
        std::string out_path = staging + "/" + binary_name;
        {
            std::ofstream out(src_path, std::ios::binary);
            out << source;
        }
        CompileResult built = compile_shared_object(src_path, out_path, {native}, flags);
        if (!built.ok) {
            cache.discard_staging_dir(staging);
            throw Error(ErrorKind::Compile,
                        result->name + "(): the C++ compiler failed to build this kernel:\n" +
                            built.diagnostics,
                        first_error_location(built.diagnostics, *kernel.source));
        }
        result->compile_seconds = built.seconds;
        try {
            binary = cache.publish(key, source, out_path, binary_name, TREADLE_VERSION);
        } catch (...) {
            cache.discard_staging_dir(staging);
            throw;
        }
        cache.discard_staging_dir(staging);
    }
    // 8. Load it.
    result->library = std::make_shared<DynamicLibrary>(*binary);
    result->cpu_entry = reinterpret_cast<CpuEntry>(result->library->symbol(codegen::k_cpu_entry_symbol));

    std::lock_guard<std::mutex> lock(g_mutex);
    auto [it, inserted] = g_loaded.emplace(key, result);
    return it->second;
}

void clear_kernel_cache() {
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        g_loaded.clear();
    }
    kernel_cache().clear();
}

}  // namespace treadle
