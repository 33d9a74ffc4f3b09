// src/codegen/emitter.cpp -- the C-style emitter: a program's source, from its structs, user
// functions and kernel
//
// The statements of each function come from one walk over its IR (FunctionEmitter,
// function_emitter.cpp), with #line directives so compiler diagnostics and debuggers point at
// the kernel's Python source. Back ends (cpu_backend.cpp, cuda_backend.cpp) supply the
// prologue, qualifiers and entry point.
#include "codegen/emitter.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>

#include "codegen/function_emitter.h"
#include "codegen/type_spelling.h"
#include "common/assert.h"
#include "common/text.h"
#include "types/abi.h"

namespace treadle::codegen {

using ir::VarId;

size_t layout_params(const ir::Function& kernel, std::vector<ParamLayout>& out) {
    types::abi::StructLayout layout;
    for (size_t i = 0; i < kernel.params.size(); ++i) {
        const types::Type* t = kernel.type_of(kernel.params[i]);
        out.push_back(ParamLayout{kernel.param_names[i], t, layout.add({t->size, t->align})});
    }
    return layout.finish().size;
}

namespace {

std::string c_string_impl(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\t':
                out += "\\t";
                break;
            case '\r':
                out += "\\r";
                break;
            default:
                if (c < 32 || c >= 127) {
                    char buf[8];
                    std::snprintf(buf, sizeof(buf), "\\%03o", c);
                    out += buf;
                } else {
                    out += (char)c;
                }
        }
    }
    return out + "\"";
}

}  // namespace

std::string c_string(const std::string& s) { return c_string_impl(s); }

std::string var_name(const ir::Function& f, VarId v) {
    const ir::Var& x = f.vars[v];
    std::string name = "v" + std::to_string(v);
    if (x.hint.empty()) return name;
    name += "_";
    for (char c : x.hint)  // hints are Python names, or "adjoint:x" in a func_grad
        name += (std::isalnum((unsigned char)c) || c == '_') ? c : '_';
    return name;
}

std::string field_path(const std::string& dotted) {
    std::string path;
    size_t start = 0;
    for (;;) {
        size_t dot = dotted.find('.', start);
        const std::string name = dotted.substr(start, dot - start);
        // a number is a component of a vector or quaternion (no field name starts with a digit)
        path += std::isdigit((unsigned char)name[0]) ? ".c[" + name + "]" : "." + c_field(name);
        if (dot == std::string::npos) return path;
        start = dot + 1;
    }
}

void emit_function(const ir::Function& f, const Backend& backend, Text& out, bool checked,
                   ReplayHooks* replay, bool verify_fp, bool det_guards) {
    if (f.native) return emit_native_function(f, backend, out, replay != nullptr);
    FunctionEmitter fe(f, out, checked, replay, verify_fp && !replay);
    fe.guard_effects(det_guards && !replay);
    const types::Type* rt = f.return_type;
    std::string ret = (rt->is_void() || rt->is_tuple()) ? "void" : c_type(rt);
    out << backend.function_qualifier() << " " << ret << " " << (replay ? replay_name(f) : f.c_name)
        << "(";
    for (size_t i = 0; i < f.params.size(); ++i)
        out << (i ? ", " : "") << c_type(f.type_of(f.params[i])) << " " << fe.var(f.params[i]);
    if (rt->is_tuple())
        for (size_t i = 0; i < rt->elements.size(); ++i)
            out << (f.params.empty() && i == 0 ? "" : ", ") << c_type(rt->elements[i]) << "& ret_"
                << i;
    out << ") {\n";
    fe.declarations(1);
    fe.block(f.body, 1);
    if (!rt->is_void() && !rt->is_tuple()) out << "    return " << c_type(rt) << "{};\n";
    out << "}\n\n";
}

std::string kernel_body_header(const ir::Function& k, const Backend& backend,
                               const std::string& params, const std::string& body) {
    std::string s = std::string(backend.function_qualifier()) + " void " + body + "(const " +
                    params + "& params, wp::int64 index, const wp::launch_bounds_t& bounds) {\n";
    s += "    (void)index;\n    (void)bounds;\n";
    for (size_t i = 0; i < k.params.size(); ++i)
        s += "    " + c_type(k.type_of(k.params[i])) + " " + var_name(k, k.params[i]) +
             " = params.arg_" + k.param_names[i] + ";\n";
    return s;
}

namespace {

/// Adds the struct types `t` uses (its own, its fields', an array's element type's) to `out`,
/// each after the structs it contains.
void collect_structs(const types::Type* t, std::vector<const types::Type*>& out) {
    if (!t) return;
    if (t->is_array() || t->is_tile() || types::is_tile_stack(t))
        return collect_structs(t->dtype, out);
    if (t->is_tuple()) {
        for (const types::Type* e : t->elements) collect_structs(e, out);
        return;
    }
    if (!t->is_struct() || t->is_native_struct()) return;  // native ones: the library's
    for (const types::Type* seen : out)
        if (seen == t) return;
    for (const types::StructField& f : t->fields) collect_structs(f.type, out);
    out.push_back(t);
}

/// The native headers (Traits::header) of the builtins called in `block`, added to `out`.
void collect_headers(const ir::Block& block, std::set<std::string>& out) {
    for (const ir::Instr& in : block) {
        if (const builtins::Builtin* b = ir::called_builtin(in); b && b->traits.header)
            out.insert(b->traits.header);
        collect_headers(in.body, out);
        collect_headers(in.orelse, out);
    }
}

/// The C++ definition of a struct type (layout asserted where the back end can).
void emit_struct(const types::Type* t, const Backend& backend, Text& out) {
    out << "struct " << c_type(t) << " {  // " << t->name << "\n";
    for (const types::StructField& f : t->fields)
        out << "    " << c_type(f.type) << " " << c_field(f.name) << ";\n";
    out << "};\n";
    if (backend.layout_asserts()) {
        for (const types::StructField& f : t->fields)
            out << "static_assert(__builtin_offsetof(" << c_type(t) << ", " << c_field(f.name)
                << ") == " << f.offset << ", \"struct layout\");\n";
    }
    out << "static_assert(sizeof(" << c_type(t) << ") == " << t->size << " && alignof(" << c_type(t)
        << ") == " << t->align << ", \"struct layout\");\n\n";
}

/// The parameter block struct (and layout asserts); returns its name.
std::string emit_params_struct(const ir::Function& k, const Backend& backend, Text& out,
                               bool deterministic) {
    std::vector<ParamLayout> layout;
    size_t size = layout_params(k, layout);
    std::string params = "params_" + k.c_name;
    out << "struct " << params << " {\n";
    for (const ParamLayout& p : layout)
        out << "    " << c_type(p.type) << " arg_" << p.name << ";\n";
    if (layout.empty() && !deterministic) out << "    char unused_;\n";
    if (deterministic)  // filled in by the runtime for each launch (native/treadle/det_record.h)
        out << "    wp::det_launch_t wp_det_;\n";
    out << "};\n";
    if (deterministic && backend.layout_asserts())
        out << "static_assert(__builtin_offsetof(" << params
            << ", wp_det_) == " << det_launch_offset(size) << ", \"parameter layout\");\n";
    if (deterministic) size = det_launch_offset(size) + k_det_launch_size;
    // The runtime packs arguments with its own copy of this layout; these keep them equal.
    if (backend.layout_asserts()) {
        for (const ParamLayout& p : layout)
            out << "static_assert(__builtin_offsetof(" << params << ", arg_" << p.name
                << ") == " << p.offset << ", \"parameter layout\");\n";
    }
    if (backend.layout_asserts() && (!layout.empty() || deterministic))
        out << "static_assert(sizeof(" << params << ") == " << size << ", \"parameter size\");\n";
    out << "\n";
    return params;
}

/// Deterministic builds: a body that runs `body` between det_begin and det_end (the launch
/// index's record slots); returns its name.
std::string emit_det_body(const Backend& backend, Text& out, const std::string& params,
                          const std::string& body) {
    std::string name = body + "_det";
    out << backend.function_qualifier() << " void " << name << "(const " << params
        << "& params, wp::int64 index, const wp::launch_bounds_t& bounds) {\n"
        << "    wp::det_thread_t own_;\n"
        << "    if (!wp::det_begin(params.wp_det_, index, own_)) return;\n"
        << "    " << body << "(params, index, bounds);\n"
        << "    wp::det_end(params.wp_det_, index);\n"
        << "}\n\n";
    return name;
}

void emit_kernel(const ir::Function& k, const Backend& backend, Text& out, bool checked,
                 const passes::ProgramAdjointPlan* adjoint, bool verify_fp,
                 const CudaLaunchBounds& launch_bounds, DetBuild det) {
    const bool deterministic = det.records || det.counters;
    std::string params = emit_params_struct(k, backend, out, deterministic);
    FunctionEmitter fe(k, out, checked, nullptr, verify_fp);
    fe.guard_effects(det.counters);
    std::string body = k.c_name + "_body";
    out << kernel_body_header(k, backend, params, body);
    fe.declarations(1);
    fe.block(k.body, 1);
    out << "}\n\n";
    std::string symbol = std::string(backend.name()) == std::string("cuda") ? k_cuda_entry_symbol
                                                                            : k_cpu_entry_symbol;
    std::string entry_body = deterministic ? emit_det_body(backend, out, params, body) : body;
    out << backend.entry(k, params, entry_body, symbol, launch_bounds);
    if (!adjoint || !adjoint->find(k)) return;
    out << "\n";
    std::string adj_body = k.c_name + "_adj_body";
    emit_kernel_adjoint(adjoint->of(k), backend, out, checked, params, adj_body);
    if (deterministic) adj_body = emit_det_body(backend, out, params, adj_body);
    out << backend.entry(k, params, adj_body, symbol + k_adjoint_suffix, launch_bounds);
}

}  // namespace

size_t tile_scratch_bytes(const ir::Program& program) {
    size_t largest = 16;
    for (const auto& f : program.functions)
        for (const ir::Var& v : f->vars) {
            if (!v.type || !v.type->is_tile()) continue;
            // room for 16 bytes after each row of 16 bytes or more: the tensor-core and
            // register-blocked products (tile_mma.h) pad the rows they stage
            const size_t rows = size_t(v.type->tile_size() / v.type->shape.back());
            const size_t pad = v.type->size / rows >= 16 ? rows * 16 : 0;
            largest = std::max(largest, (v.type->size + pad + 15) / 16 * 16);
        }
    return 2 * largest;
}

std::string generate_source(const ir::Program& program, const Backend& backend, bool checked,
                            const passes::ProgramAdjointPlan* adjoint, bool verify_fp,
                            CudaLaunchBounds launch_bounds, DetBuild det) {
    TREADLE_ASSERT(program.kernel != nullptr);
    const bool deterministic = det.records || det.counters;
    Text out;
    out << "// generated by treadle: kernel " << program.kernel->name << " (" << backend.name()
        << ")\n";
    if (deterministic) out << "#define WP_DETERMINISTIC 1\n";
    if (det.counters) out << "#define WP_DET_COUNTERS 1\n";
    out << backend.prologue();
    if (program.uses_tiles()) {
        // tile.h: the block the tiles are spread over, and the size of the shared scratch
        out << "#define WP_TILE_BLOCK_DIM " << program.tile_block_dim << "\n";
        out << "#define WP_TILE_SCRATCH_BYTES " << tile_scratch_bytes(program) << "\n";
    }
    std::set<std::string> headers;
    if (deterministic) headers.insert("deterministic.h");
    if (program.uses_tiles()) headers.insert("tile.h");
    for (const auto& f : program.functions) collect_headers(f->body, headers);
    for (const std::string& h : headers) out << "#include \"treadle/" << h << "\"\n";
    out << "\n";
    std::vector<const types::Type*> structs;
    for (const auto& f : program.functions) {
        for (const ir::Var& v : f->vars) collect_structs(v.type, structs);
        collect_structs(f->return_type, structs);
    }
    for (const types::Type* t : structs) {
        emit_struct(t, backend, out);
        // tiles of structs add and accumulate them in the forward code too (tile_sum, +, ...)
        if (adjoint || program.uses_tiles()) emit_struct_gradient_ops(t, out);
    }
    for (const auto& f : program.functions) {
        if (f->is_kernel) continue;
        emit_function(*f, backend, out, checked, nullptr, verify_fp, det.counters);
        if (adjoint && adjoint->find(*f))
            emit_function_adjoint(adjoint->of(*f), backend, out, checked);
    }
    emit_kernel(*program.kernel, backend, out, checked, adjoint, verify_fp, launch_bounds, det);
    return out.str();
}

}  // namespace treadle::codegen
