// src/compile/compile_kernel.cpp -- compile_kernel(): the steps from source to loaded kernel
//
// Start reading here. Each step lives in its own subsystem: frontend/ (parser), sema/
// (inference into ir/), codegen/ (C++ text), compile/ (hash, cache, host compiler),
// runtime/ (loading). TREADLE_DEBUG_CODEGEN=1 prints the IR and the generated source.
#include "compile/compile_kernel.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

#include "codegen/emitter.h"
#include "common/assert.h"
#include "compile/host_compiler.h"
#include "compile/kernel_cache.h"
#include "compile/native_headers.h"
#include "compile/nvrtc.h"
#include "compile/sha256.h"
#include "passes/adjoint_plan.h"
#include "passes/array_access.h"
#include "passes/deterministic.h"
#include "passes/tile_divergence.h"
#include "runtime/cuda.h"
#include "runtime/deterministic.h"
#include "runtime/thread_pool.h"
#include "sema/infer.h"

#ifndef TREADLE_VERSION
#define TREADLE_VERSION "0.0.0"
#endif

namespace treadle {

namespace {

std::mutex g_mutex;
std::string g_native_dir;

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

/// A copy of `label` that lives until the process ends (one per distinct kernel and device).
/// The byte offset of array field `path` ("a.b") inside struct `t`; none when the path does not
/// end at an array field.
std::optional<size_t> array_field_offset(const types::Type* t, const std::string& path) {
    size_t offset = 0, start = 0;
    while (t && t->is_struct()) {
        size_t dot = path.find('.', start);
        std::string name = path.substr(start, dot == std::string::npos ? dot : dot - start);
        const types::StructField* found = nullptr;
        for (const types::StructField& f : t->fields)
            if (f.name == name) found = &f;
        if (!found) return std::nullopt;
        offset += found->offset;
        t = found->type;
        if (dot == std::string::npos) return t->is_array() ? std::optional(offset) : std::nullopt;
        start = dot + 1;
    }
    return std::nullopt;
}

const char* intern_label(const std::string& label) {
    static std::mutex mutex;
    static std::set<std::string>* labels = new std::set<std::string>();  // never freed
    std::lock_guard<std::mutex> lock(mutex);
    return labels->insert(label).first->c_str();
}

bool debug_codegen() {
    const char* v = std::getenv("TREADLE_DEBUG_CODEGEN");
    return v && *v && std::string(v) != "0";
}

/// Finds the first "<python file>:<line>" in compiler output, to point the error at it.
/// Finds the first "<python file>:<line>" (g++) or "<python file>(<line>)" (NVRTC) in compiler
/// output, to point the error at it.
SourceLocation first_error_location(const std::string& diag, const ast::SourceFile& src) {
    for (const char* sep : {":", "("}) {
        std::string needle = src.path + sep;
        size_t pos = 0;
        while ((pos = diag.find(needle, pos)) != std::string::npos) {
            pos += needle.size();
            int line = std::atoi(diag.c_str() + pos);
            if (line > 0) return SourceLocation{src.path, line, 1, src.line_text(line)};
        }
    }
    return {};
}

/// The host compiler's flags for a build: unoptimised with debug information in debug mode,
/// else -O<level> (-O2 by default), then the user's extra flags split at spaces.
std::vector<std::string> cpu_flags(const std::string& mode, int level, const std::string& extra) {
    std::vector<std::string> flags;
    if (mode == "debug")
        flags = {"-O0", "-g"};
    else
        flags = {"-O" + std::to_string(level < 0 ? 2 : level), "-fno-math-errno"};
    size_t pos = 0;
    while (pos < extra.size()) {
        size_t end = extra.find(' ', pos);
        if (end == std::string::npos) end = extra.size();
        if (end > pos) flags.push_back(extra.substr(pos, end - pos));
        pos = end + 1;
    }
    return flags;
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
        // Without a folder named by the front end or the environment, the headers this library
        // was built with are written into the kernel cache: no source or install tree needed.
        g_native_dir =
            env && *env ? std::string(env) : extract_native_headers(kernel_cache().active_root());
    }
    return g_native_dir;
}

namespace {

/// Builds the typed IR of a kernel and checks its invariants (a failure is a treadle bug).
std::unique_ptr<ir::Program> front_end(const sema::FunctionSource& kernel) {
    std::unique_ptr<ir::Program> program = sema::build_program(kernel);
    for (const auto& f : program->functions) {
        std::string problem = ir::verify(*f);
        if (!problem.empty()) {
            std::fprintf(stderr, "%s\n", ir::print(*f).c_str());
            std::fprintf(stderr, "treadle internal error: invalid IR: %s\n", problem.c_str());
            TREADLE_ASSERT(problem.empty());
        }
    }
    return program;
}

std::string hash_parts(const std::vector<std::string>& parts) {
    Sha256 sha;
    for (const std::string& part : parts) {
        sha.update(part);
        sha.update(std::string_view("\0", 1));
    }
    auto digest = sha.finish();
    return to_hex(digest.data(), digest.size());
}

/// Returns the cached binary for `key`, pinned for loading; on a miss builds it under the
/// entry's build lock (so concurrent processes run the compiler once) with `build`, which
/// writes `source` into a staging directory and returns the built file's path or throws.
/// `from_cache` tells whether this call found the binary instead of building it.
template <typename Build>
CachedBinary find_or_build(const std::string& key, const std::string& source,
                           const std::string& binary_name, bool& from_cache, Build&& build) {
    KernelCache& cache = kernel_cache();
    from_cache = true;
    if (std::optional<CachedBinary> hit = cache.lookup(key, binary_name)) return std::move(*hit);
    BuildLock lock = cache.lock_for_build(key);
    // Another process may have built it while this one waited for the lock.
    if (std::optional<CachedBinary> hit = cache.lookup(key, binary_name)) return std::move(*hit);
    from_cache = false;
    std::string staging = cache.make_staging_dir();
    try {
        std::string built = build(staging);
        CachedBinary binary = cache.publish(key, source, built, binary_name, TREADLE_VERSION);
        cache.discard_staging_dir(staging);
        return binary;
    } catch (...) {
        cache.discard_staging_dir(staging);
        throw;
    }
}

void build_cpu(const sema::FunctionSource& kernel, const PreparedKernel& prepared,
               CompiledKernel& k) {
    const std::string& mode = prepared.mode;
    const std::string& native = native_dir();
    const HostCompiler& cxx = host_compiler();
    std::vector<std::string> flags =
        cpu_flags(mode, prepared.optimization_level, prepared.cpu_compiler_flags);
    if (prepared.deterministic == 2) flags.push_back("-ffp-contract=off");
    std::vector<std::string> parts{k.source,     "cpu",         mode,
                                   cxx.identity, native_hash(), TREADLE_VERSION};
    parts.insert(parts.end(), flags.begin(), flags.end());
    k.key = hash_parts(parts);
    const std::string binary_name = "kernel.so";
    CachedBinary binary =
        find_or_build(k.key, k.source, binary_name, k.from_cache, [&](const std::string& dir) {
            std::string src_path = dir + "/source.cpp", out_path = dir + "/" + binary_name;
            std::ofstream(src_path, std::ios::binary) << k.source;
            CompileResult built = compile_shared_object(src_path, out_path, {native}, flags);
            if (!built.ok)
                throw Error(ErrorKind::Compile,
                            k.name + "(): the C++ compiler failed to build this kernel:\n" +
                                built.diagnostics,
                            first_error_location(built.diagnostics, *kernel.source));
            k.compile_seconds = built.seconds;
            return out_path;
        });
    k.library = std::make_shared<DynamicLibrary>(binary.path());
    k.library_file = std::make_shared<const CachedBinary>(std::move(binary));
    k.cpu_entry = reinterpret_cast<CpuEntry>(k.library->symbol(codegen::k_cpu_entry_symbol));
    if (k.adjoint)
        k.cpu_adj_entry = reinterpret_cast<CpuEntry>(k.library->symbol(
            std::string(codegen::k_cpu_entry_symbol) + codegen::k_adjoint_suffix));
    if (k.checked)
        k.take_bounds_error =
            reinterpret_cast<int (*)(void*)>(k.library->symbol("wp_take_bounds_error"));
    if (k.verify_fp)
        k.take_fp_error = reinterpret_cast<int (*)(void*)>(k.library->symbol("wp_take_fp_error"));
    if (k.det_per_thread > 0) {
        k.det_apply = reinterpret_cast<decltype(k.det_apply)>(k.library->symbol("wp_det_apply"));
        k.det_take_overflow =
            reinterpret_cast<int (*)()>(k.library->symbol("wp_det_take_overflow"));
    }
}

void build_cuda(const sema::FunctionSource& kernel, const PreparedKernel& prepared,
                CompiledKernel& k) {
    const std::string& mode = prepared.mode;
    int ordinal = k.device.ordinal();
    const cuda::DeviceInfo& info = cuda::device_info(ordinal);
    k.arch = info.major * 10 + info.minor;
    const std::string& native = native_dir();
    std::vector<std::string> options;
    if (mode == "debug")
        options = {"-G", "-lineinfo"};
    else
        options = {"-lineinfo"};
    if (mode != "debug" && prepared.optimization_level >= 0)
        options.push_back("--ptxas-options=-O" + std::to_string(prepared.optimization_level));
    if (prepared.deterministic == 2) options.push_back("--fmad=false");
    std::vector<std::string> parts{
        k.source,          "cuda",        mode,           std::to_string(k.arch),
        nvrtc::identity(), native_hash(), TREADLE_VERSION};
    parts.insert(parts.end(), options.begin(), options.end());
    k.key = hash_parts(parts);
    const std::string binary_name = "kernel.bin";
    CachedBinary binary =
        find_or_build(k.key, k.source, binary_name, k.from_cache, [&](const std::string& dir) {
            if (!nvrtc::is_available())
                throw Error(ErrorKind::Runtime, k.name + "(): cannot compile for " +
                                                    k.device.alias() + ": " +
                                                    nvrtc::unavailable_reason());
            nvrtc::Result r =
                nvrtc::compile(k.source, kernel.source->path, k.arch, {native}, options);
            if (!r.ok)
                throw Error(ErrorKind::Compile,
                            k.name + "(): NVRTC failed to build this kernel:\n" + r.log,
                            first_error_location(r.log, *kernel.source));
            k.compile_seconds = r.seconds;
            std::string out_path = dir + "/" + binary_name;
            std::ofstream(out_path, std::ios::binary) << r.image;
            return out_path;
        });
    std::string image = read_file(binary.path());
    cuda::ModuleHandle module = cuda::load_module(ordinal, image);
    k.cuda_module = std::shared_ptr<void>(module, [ordinal](void* m) {
        try {
            cuda::unload_module(ordinal, m);
        } catch (...) {  // unloading at exit or after a device error: nothing left to do
        }
    });
    k.cuda_function = cuda::get_function(module, codegen::k_cuda_entry_symbol);
    if (k.adjoint)
        k.cuda_adj_function = cuda::get_function(
            module, std::string(codegen::k_cuda_entry_symbol) + codegen::k_adjoint_suffix);
    if (k.checked) k.cuda_bounds_record = cuda::get_global(module, "_ZN2wp12bounds_errorE");
    if (k.verify_fp) k.cuda_fp_record = cuda::get_global(module, "_ZN2wp8fp_errorE");
    if (k.det_per_thread > 0) {
        CompiledKernel::DetCudaKernels& d = k.cuda_det;
        const std::pair<void**, const char*> kernels[] = {
            {&d.keys, "wp_det_keys"},
            {&d.bitonic, "wp_det_bitonic"},
            {&d.bitonic_tile, "wp_det_bitonic_tile"},
            {&d.runs, "wp_det_runs"},
            {&d.apply, "wp_det_apply"},
            {&d.gather, "wp_det_gather"},
            {&d.sequential, "wp_det_sequential"},
            {&d.scan_init, "wp_det_scan_init"},
            {&d.scan_step, "wp_det_scan_step"},
            {&d.counter_results, "wp_det_counter_results"},
            {&d.counter_totals, "wp_det_counter_totals"},
        };
        for (const auto& [slot, name] : kernels) *slot = cuda::get_function(module, name);
        d.overflow = cuda::get_global(module, "_ZN2wp12det_overflowE");
        k.det_scratch = make_det_scratch(ordinal);
    }
}

/// What the generated source of a deterministic build adds for `plan` (counters run in two
/// passes on CUDA only; the CPU runs their launch indices in order).
codegen::DetBuild det_build(const passes::DeterministicPlan& plan, bool cuda) {
    codegen::DetBuild det;
    det.records = plan.records;
    det.counters = cuda && plan.counter_line != 0;
    return det;
}

/// Deterministic builds: the plan of `program` for `options`, its refusals and what the
/// launch needs in `k`; what the generated source adds.
codegen::DetBuild plan_deterministic_build(const ir::Program& program,
                                           const CompileOptions& options, CompiledKernel& k) {
    k.deterministic = options.deterministic;
    if (options.deterministic == 0) return {};
    if (options.deterministic < 0 || options.deterministic > 2)
        throw Error(ErrorKind::Value, k.name + "(): unknown deterministic mode " +
                                          std::to_string(options.deterministic) +
                                          " (expected a wp.DeterministicMode)");
    const bool cuda = options.device.is_cuda();
    passes::DeterministicPlan plan = passes::plan_deterministic(program, options.adjoint, cuda);
    const codegen::DetBuild det = det_build(plan, cuda);
    uint32_t per_thread = plan.records ? plan.per_thread : 0;
    k.det_serial = plan.counter_line != 0 && !cuda;
    k.det_counters = det.counters;
    if (det.counters) per_thread = std::max(per_thread, plan.counter_per_thread);
    k.det_records = plan.records;
    if (!det.records && !det.counters) return det;
    k.det_per_thread =
        std::max<uint32_t>(per_thread, (uint32_t)std::max(0, options.deterministic_max_records));
    k.det_offset = codegen::det_launch_offset(k.params_size);
    k.params_size = k.det_offset + codegen::k_det_launch_size;
    return det;
}

}  // namespace

std::string generate_kernel_source(const sema::FunctionSource& kernel, bool cuda, bool adjoint,
                                   bool verify_fp, codegen::CudaLaunchBounds launch_bounds,
                                   int deterministic) {
    const codegen::Backend& backend = cuda ? codegen::cuda_backend() : codegen::cpu_backend();
    std::unique_ptr<ir::Program> program = front_end(kernel);
    if (cuda) passes::check_tile_divergence(*program);
    std::optional<passes::ProgramAdjointPlan> plan;
    plan = adjoint ? passes::plan_adjoint(*program) : passes::plan_forward_gradients(*program);
    codegen::DetBuild det;
    if (deterministic != 0)
        det = det_build(passes::plan_deterministic(*program, adjoint, cuda), cuda);
    return codegen::generate_source(*program, backend, false, plan ? &*plan : nullptr, verify_fp,
                                    launch_bounds, det);
}

PreparedKernel prepare_kernel(const sema::FunctionSource& kernel, const CompileOptions& options) {
    if (options.mode != "release" && options.mode != "debug" && options.mode != "checked")
        throw Error(ErrorKind::Value, "compile_kernel(): unknown mode '" + options.mode +
                                          "' (expected 'release', 'checked' or 'debug')");
    // 1-4. Parse, infer types into typed IR of the kernel and its callees, verify the IR.
    std::unique_ptr<ir::Program> program = front_end(kernel);
    // 5. Plan the adjoint (when asked for) and generate C++ for the device's back end.
    bool on_cuda = options.device.is_cuda();
    // A block-wide tile operation in a per-thread branch would hang a CUDA block.
    if (on_cuda) passes::check_tile_divergence(*program);
    const codegen::Backend& backend = on_cuda ? codegen::cuda_backend() : codegen::cpu_backend();
    auto result = std::make_shared<CompiledKernel>();
    result->name = program->kernel->name;
    result->device = options.device;
    result->tid_arity = program->kernel->tid_arity;
    result->tile_block_dim = program->uses_tiles() ? program->tile_block_dim : 0;
    result->tile_shared_bytes = program->uses_tiles() ? codegen::tile_scratch_bytes(*program) : 0;
    result->label = intern_label(
        "'" + result->name + "' (" + kernel.source->path + ":" +
        std::to_string(kernel.def ? kernel.def->span.line : kernel.source->first_line) + ") on " +
        options.device.alias());
    std::vector<codegen::ParamLayout> layout;
    result->params_size = codegen::layout_params(*program->kernel, layout);
    std::vector<uint8_t> access = passes::array_param_access(*program->kernel);
    std::vector<std::map<std::string, uint8_t>> fields =
        passes::struct_field_access(*program->kernel);
    for (size_t i = 0; i < layout.size(); ++i) {
        KernelParam p{layout[i].name, layout[i].type, layout[i].offset};
        p.reads = (access[i] & passes::k_access_read) != 0;
        p.writes = (access[i] & passes::k_access_write) != 0;
        p.writes_after_reads = (access[i] & passes::k_access_write_after_read) != 0;
        p.null_tested = (access[i] & passes::k_access_null_tested) != 0;
        for (const auto& [path, bits] : fields[i])
            if (auto offset = array_field_offset(p.type, path))
                p.array_fields.push_back({path, *offset, (bits & passes::k_access_write) != 0,
                                          (bits & passes::k_access_null_tested) != 0});
        result->params.push_back(std::move(p));
    }
    // Debug builds check bounds too, as Warp's do.
    result->checked = options.mode == "checked" || options.mode == "debug";
    result->adjoint = options.adjoint;
    result->verify_fp = options.verify_fp;
    if (on_cuda) result->max_block_dim = options.launch_bounds.max_threads;
    // The adjoint plan refuses what cannot be differentiated (a treadle::Error at its line).
    // A forward build plans only the adjoints that wp.grad() calls in forward code.
    std::optional<passes::ProgramAdjointPlan> plan =
        options.adjoint ? passes::plan_adjoint(*program) : passes::plan_forward_gradients(*program);
    codegen::DetBuild det = plan_deterministic_build(*program, options, *result);
    result->source =
        codegen::generate_source(*program, backend, result->checked, plan ? &*plan : nullptr,
                                 options.verify_fp, options.launch_bounds, det);
    if (debug_codegen())
        std::fprintf(stderr, "--- treadle IR ---\n%s--- treadle source ---\n%s\n",
                     ir::print(*program).c_str(), result->source.c_str());
    return PreparedKernel{&kernel,
                          options.mode,
                          options.optimization_level,
                          options.cpu_compiler_flags,
                          options.deterministic,
                          std::move(result)};
}

std::shared_ptr<const CompiledKernel> finish_kernel(PreparedKernel& prepared) {
    // 6-8. Hash, look up the cache, build and publish on a miss, load.
    CompiledKernel& k = *prepared.result;
    if (k.device.is_cuda())
        build_cuda(*prepared.function, prepared, k);
    else
        build_cpu(*prepared.function, prepared, k);
    return std::move(prepared.result);
}

std::shared_ptr<const CompiledKernel> compile_kernel(const sema::FunctionSource& kernel,
                                                     const CompileOptions& options) {
    PreparedKernel prepared = prepare_kernel(kernel, options);
    return finish_kernel(prepared);
}

namespace {

/// Threads that build kernels for finish_kernels(): separate from the launch pool, so builds
/// never hold up launches, and with every range split (a build is seconds of work).
ThreadPool& build_pool() {
    static ThreadPool* pool = [] {
        auto* p = new ThreadPool();  // never destroyed: workers may outlive static destructors
        p->set_inline_threshold(2);
        return p;
    }();
    return *pool;
}

struct FinishJob {
    std::vector<PreparedKernel>* prepared;
    std::vector<std::shared_ptr<const CompiledKernel>>* out;
    std::vector<std::exception_ptr>* errors;
};

void finish_range(void* ctx, int64_t begin, int64_t end) {
    auto* job = static_cast<FinishJob*>(ctx);
    for (int64_t i = begin; i < end; ++i) {
        try {
            (*job->out)[i] = finish_kernel((*job->prepared)[i]);
        } catch (...) {
            (*job->errors)[i] = std::current_exception();
        }
    }
}

}  // namespace

std::vector<std::shared_ptr<const CompiledKernel>> finish_kernels(
    std::vector<PreparedKernel>& prepared) {
    std::vector<std::shared_ptr<const CompiledKernel>> out(prepared.size());
    std::vector<std::exception_ptr> errors(prepared.size());
    FinishJob job{&prepared, &out, &errors};
    build_pool().parallel_for((int64_t)prepared.size(), finish_range, &job, 1);
    for (const std::exception_ptr& e : errors)
        if (e) std::rethrow_exception(e);
    return out;
}

void clear_kernel_cache() { kernel_cache().clear(); }

}  // namespace treadle
