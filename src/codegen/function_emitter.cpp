// src/codegen/function_emitter.cpp -- the statement walk: one C++ statement per IR instruction,
// printed by one FunctionEmitter method per instruction group
//
// Every IR variable becomes a C++ local declared at the top of its function (so values
// computed in a branch are visible after it); each instruction becomes one statement,
// preceded by a #line directive whenever the Python line changes. instr() dispatches every
// instruction kind to its group (values, calls, memory, printing, control flow); the switch
// there is exhaustive, so a new kind in ir/instr_kinds.h must be given a group.
#include "codegen/function_emitter.h"

#include <cmath>
#include <cstdio>

#include "builtins/builtins.h"
#include "codegen/type_spelling.h"
#include "common/assert.h"

namespace treadle::codegen {

using ir::Instr;
using ir::InstrKind;
using ir::VarId;

namespace {

std::string literal(const types::ConstValue& c) {
    const types::Type* t = c.type;
    if (t->is_bool()) return c.i ? "true" : "false";
    if (t->is_float()) {
        std::string v;
        if (std::isnan(c.f)) {
            // Not 0.0 / 0.0: NVRTC folds (0.0 / 0.0) == (0.0 / 0.0) to true.
            v = "wp::nan_f64()";
        } else if (std::isinf(c.f)) {
            v = c.f > 0 ? "wp::inf_f64()" : "(-wp::inf_f64())";
        } else {
            char buf[64];
            std::snprintf(buf, sizeof(buf), "%.17g", c.f);
            v = buf;
            if (v.find_first_of(".en") == std::string::npos) v += ".0";
        }
        if (t->scalar == ScalarType::Float64) return v;
        if (t->scalar == ScalarType::Float32 && !std::isnan(c.f) && !std::isinf(c.f)) {
            char buf[64];
            std::snprintf(buf, sizeof(buf), "%.9g", (double)(float)c.f);
            std::string f = buf;
            if (f.find_first_of(".en") == std::string::npos) f += ".0";
            if (f.find_first_of("n") == std::string::npos) return f + "f";
        }
        return "wp::cast<" + c_type(t) + ">(" + v + ")";
    }
    switch (t->scalar) {
        case ScalarType::Int64:
            if (c.i == INT64_MIN) return "(-9223372036854775807LL - 1)";
            return "(wp::int64)" + std::to_string(c.i) + "ll";
        case ScalarType::UInt64:
            return "(wp::uint64)" + std::to_string((uint64_t)c.i) + "ull";
        case ScalarType::UInt32:
            return "(wp::uint32)" + std::to_string((uint32_t)c.i) + "U";
        case ScalarType::Int32:
            if (c.i == INT32_MIN) return "(wp::int32)(-2147483647 - 1)";
            return "(wp::int32)" + std::to_string((int32_t)c.i);
        default:
            return "(" + c_type(t) + ")" + std::to_string(c.i);
    }
}

/// Arguments passed through printf's varargs: promote to what the format expects.
std::string printf_arg(const types::Type* t, const std::string& v) {
    switch (t->scalar) {
        case ScalarType::Float16:
        case ScalarType::BFloat16:
            return "(double)(float)" + v;
        case ScalarType::Float32:
            return "(double)" + v;
        case ScalarType::Bool:
        case ScalarType::Int8:
        case ScalarType::Int16:
            return "(int)" + v;
        case ScalarType::UInt8:
        case ScalarType::UInt16:
            return "(unsigned)" + v;
        case ScalarType::Int64:
            return "(long long)" + v;
        case ScalarType::UInt64:
            return "(unsigned long long)" + v;
        default:
            return v;
    }
}

}  // namespace

std::string FunctionEmitter::var(VarId v) const { return var_name(m_f, v); }

void FunctionEmitter::declarations(int depth) {
    std::vector<bool> is_param(m_f.vars.size(), false);
    for (VarId p : m_f.params) is_param[p] = true;
    for (VarId v = 0; v < m_f.vars.size(); ++v) {
        if (is_param[v]) continue;
        const types::Type* t = m_f.vars[v].type;
        if (t->is_tuple() || t->is_void()) continue;
        indent(depth);
        m_out << c_type(t) << " " << var(v) << "{};\n";
    }
}

void FunctionEmitter::block(const ir::Block& b, int depth) {
    for (const Instr& in : b) instr(in, depth);
}

void FunctionEmitter::indent(int depth) {
    for (int i = 0; i < depth; ++i) m_out << "    ";
}

void FunctionEmitter::line_directive(int line) {
    if (line <= 0 || line == m_line) return;
    m_line = line;
    m_out << "#line " << line << " " << c_string(m_f.source ? m_f.source->path : "") << "\n";
}

/// The view `in` (a View with a slice spec in `text`) as nested calls: wp::select_dim fixes
/// one dimension (which goes away), wp::slice_dim restricts one to a Python slice.
std::string FunctionEmitter::slice_view(const Instr& in) const {
    std::string v = var(in.args[0]);
    size_t arg = 1;
    int dim = 0;
    for (size_t c = 0; c < in.text.size(); ++c) {
        if (in.text[c] == 'i') {
            v = "wp::select_dim(" + v + ", " + std::to_string(dim) + ", " + var(in.args[arg++]) +
                ")";
            continue;
        }
        const int given = in.text[++c] - '0';
        v = "wp::slice_dim(" + v + ", " + std::to_string(dim) + ", " + var(in.args[arg]) + ", " +
            var(in.args[arg + 1]) + ", " + var(in.args[arg + 2]) + ", " + std::to_string(given) +
            ")";
        arg += 3;
        ++dim;
    }
    return v;
}

/// ", \"file\", line, column, \"function\"": where a checked access reports a bad index.
std::string FunctionEmitter::check_site(const Instr& in) const {
    return ", " + c_string(m_f.source ? m_f.source->path : "") + ", " + std::to_string(in.line) +
           ", " + std::to_string(in.col) + ", " + c_string(m_f.name);
}

/// The address of element args[0][args[1..n)] (checked in checked mode).
std::string FunctionEmitter::element_address(const Instr& in, size_t n) const {
    return std::string(m_checked ? "wp::address_checked(" : "wp::address(") + args(in, 0, n) +
           (m_checked ? check_site(in) : "") + ")";
}

std::string native_callee(const ir::Function& f, const Instr& in) {
    TREADLE_ASSERT((in.kind == InstrKind::Call || in.kind == InstrKind::Grad) && in.builtin);
    const builtins::Builtin& b = *in.builtin;
    if (b.traits.template_args == builtins::TemplateArgs::None) return b.native;
    // a Grad keeps the result type in the adjoint it seeds
    const types::Type* r = in.kind == InstrKind::Grad ? in.value.type : f.type_of(in.dsts[0]);
    const std::string scalar = c_scalar(r->scalar);
    switch (b.traits.template_args) {
        case builtins::TemplateArgs::None:
            break;
        case builtins::TemplateArgs::Scalar:
            return std::string(b.native) + "<" + scalar + ">";
        case builtins::TemplateArgs::Length:
            return std::string(b.native) + "<" + std::to_string(r->rows) + ", " + scalar + ">";
        case builtins::TemplateArgs::Shape:
            return std::string(b.native) + "<" + std::to_string(r->rows) + ", " +
                   std::to_string(r->cols) + ", " + scalar + ">";
        case builtins::TemplateArgs::Dtype:
            return std::string(b.native) + "<" + c_type(r) + ">";
        case builtins::TemplateArgs::DtypeSite: {
            // the call site: FNV-1a of the function's C name, then the result variable
            uint32_t site = 2166136261u;
            for (unsigned char c : f.c_name) site = (site ^ c) * 16777619u;
            site = (site ^ (uint32_t)in.dsts[0]) * 16777619u;
            return std::string(b.native) + "<" + c_type(r) + ", " +
                   std::to_string(site & 0x7fffffffu) + ">";
        }
    }
    return b.native;
}

std::string FunctionEmitter::args(const Instr& in, size_t from, size_t to) const {
    std::string s;
    for (size_t i = from; i < in.args.size() && i < to; ++i)
        s += (i > from ? ", " : "") + var(in.args[i]);
    return s;
}

/// The table entry of the element builtin a tile_map applies (its Call's `text`).
const builtins::Builtin& mapped_builtin(const Instr& in) {
    const builtins::Builtin* b = builtins::find_operator(in.text);
    TREADLE_ASSERT(b != nullptr);
    return *b;
}

std::string tile_map_operand(const std::string& var, const types::Type* t) {
    return t->is_tile() ? var + ".data[k_]" : var;
}

std::string FunctionEmitter::element_callee(const Instr& in) const {
    if (in.func) {
        const ir::Function* g =
            m_replay && in.func->custom_replay ? in.func->custom_replay : in.func;
        return m_replay ? replay_name(*g) : g->c_name;
    }
    return std::string("wp::") + mapped_builtin(in).native;
}

void FunctionEmitter::tile_reduce(const Instr& in, const std::string& dst) {
    const types::Type* t = m_f.type_of(in.args[0]);
    const std::string e = c_type(t->dtype);
    m_out << dst << " = wp::tile_reduce_with<" << c_type(m_f.type_of(in.dsts[0])) << ">("
          << var(in.args[0]) << ", " << var(in.args[1]) << ", [&](const " << e << "& a_, const "
          << e << "& b_) { return " << element_callee(in) << "(a_, b_); });\n";
}

void FunctionEmitter::tile_map(const Instr& in, const std::string& dst) {
    const std::string callee = element_callee(in);
    m_out << "for (int k_ = 0; k_ < decltype(" << dst << ")::slots; ++k_) " << dst
          << ".data[k_] = " << callee << "(";
    for (size_t i = 0; i < in.args.size(); ++i)
        m_out << (i ? ", " : "") << tile_map_operand(var(in.args[i]), m_f.type_of(in.args[i]));
    m_out << ");\n";
}

void FunctionEmitter::call(const Instr& in, const std::string& dst) {
    if (in.builtin && std::string(in.builtin->name) == "tile_map") return tile_map(in, dst);
    if (in.builtin && (std::string(in.builtin->name) == "tile_reduce" ||
                       std::string(in.builtin->name) == "tile_reduce_axis"))
        return tile_reduce(in, dst);
    if (ir::writes_last_array(in) && m_replay) {
        m_out << dst << " = 0;  // writes an array: not replayed\n";
        return;
    }
    if (ir::writes_first_array(in) && m_replay) {
        m_out << dst << " = {};  // writes an array: not replayed\n";
        return;
    }
    if (ir::prints_output(in) && m_replay) {
        m_out << dst << " = 0;  // prints: not replayed\n";
        return;
    }
    bool on_array = ir::is_atomic_call(in);
    const size_t end = in.args.size() - (on_array ? (size_t)in.builtin->traits.value_operands : 0);
    const std::string callee = native_callee(m_f, in);
    if (on_array && m_replay) {
        // An atomic in a replay changes nothing: it reads the element it would have updated.
        m_out << dst << " = wp::load(" << args(in, 0, end) << ");\n";
    } else if (on_array &&
               (m_checked || m_f.type_of(in.args[0])->indexed || m_f.type_of(in.args[0])->fabric)) {
        // atomics on an array element: the pointer form on a checked address (and always for
        // indexed and Fabric arrays, whose element families have no array overloads)
        m_out << dst << " = wp::" << callee << "(" << element_address(in, end) << ", "
              << args(in, end) << ");\n";
        if (m_verify_fp) verify_store(in, end, "*" + element_address(in, end), 0);
    } else if (in.dsts.size() > 1) {
        // several results: written through trailing reference parameters
        m_out << "wp::" << callee << "(" << args(in);
        for (size_t i = 0; i < in.dsts.size(); ++i)
            m_out << (in.args.empty() && i == 0 ? "" : ", ") << var(in.dsts[i]);
        m_out << ");\n";
    } else {
        m_out << dst << " = wp::" << callee << "(" << args(in) << ");\n";
        if (on_array && m_verify_fp) verify_store(in, end, "wp::load(" + args(in, 0, end) + ")", 0);
    }
}

void FunctionEmitter::verify_store(const Instr& in, size_t n, const std::string& value, int depth) {
    const types::Type* t = m_f.type_of(in.args.back());
    if (!t->is_value() || !treadle::is_float(t->scalar)) return;
    VarId a = in.args[0];
    std::string array = m_f.vars[a].hint.empty() ? "array" : m_f.vars[a].hint;
    indent(depth);
    m_out << "wp::verify_fp_store(" << value << ", " << (n - 1);
    for (size_t i = 1; i < 5; ++i) m_out << ", " << (i < n ? var(in.args[i]) : std::string("0"));
    m_out << check_site(in) << ", " << c_string(array) << ");\n";
}

void FunctionEmitter::loop(const Instr& in, int depth) {
    if (m_replay) m_replay->loop_entry(in, depth);
    indent(depth);
    if (in.kind == InstrKind::ForRange) {
        std::string c = var(in.dsts[0]), lo = var(in.args[0]), hi = var(in.args[1]),
                    step = var(in.args[2]);
        m_out << "for (" << c << " = " << lo << "; (" << step << " > 0) ? (" << c << " < " << hi
              << ") : (" << c << " > " << hi << "); " << c << " += " << step << ") {\n";
    } else {
        m_out << "for (;;) {\n";
    }
    if (m_replay) m_replay->iteration_start(in, depth + 1);
    block(in.body, depth + 1);
    indent(depth);
    m_out << "}\n";
    if (m_replay) m_replay->loop_exit(in);
}

void FunctionEmitter::instr(const Instr& in, int depth) {
    line_directive(in.line);
    bool steered = in.kind == InstrKind::Return || in.kind == InstrKind::Break ||
                   in.kind == InstrKind::Continue || in.kind == InstrKind::Assign;
    if (steered && m_replay && m_replay->intercept(in, depth)) return;
    bool side_effect = in.kind == InstrKind::Store || in.kind == InstrKind::StoreField ||
                       in.kind == InstrKind::Print || in.kind == InstrKind::Printf;
    if (side_effect && m_replay) return;
    if (m_guard_effects && (side_effect || ir::writes_last_array(in) ||
                            ir::writes_first_array(in) || ir::prints_output(in))) {
        indent(depth);
        m_out << "if (wp::det_effects()) {\n";
        m_guard_effects = false;
        instr(in, depth + 1);
        m_guard_effects = true;
        indent(depth);
        m_out << "}\n";
        return;
    }
    if (in.kind == InstrKind::ForRange || in.kind == InstrKind::Loop) return loop(in, depth);
    indent(depth);
    std::string dst = in.dsts.empty() ? "" : var(in.dsts[0]);
    switch (in.kind) {
        case InstrKind::Const:
        case InstrKind::Copy:
        case InstrKind::Assign:
        case InstrKind::Construct:
        case InstrKind::Field:
        case InstrKind::WithField:
        case InstrKind::Cast:
        case InstrKind::Compare:
        case InstrKind::Logical:
        case InstrKind::Select:
            return value(in, dst);
        case InstrKind::Call:
            return call(in, dst);
        case InstrKind::CallFunc:
            return call_function(in, dst);
        case InstrKind::Grad:
            return gradient(in, depth);
        case InstrKind::Tid:
            return tid(in, dst);
        case InstrKind::Load:
        case InstrKind::Store:
        case InstrKind::StoreField:
        case InstrKind::View:
        case InstrKind::Shape:
            return memory(in, dst, depth);
        case InstrKind::Print:
        case InstrKind::Printf:
            return print(in);
        case InstrKind::If:
        case InstrKind::ForRange:
        case InstrKind::Loop:
        case InstrKind::Break:
        case InstrKind::Continue:
        case InstrKind::Return:
            return control(in, depth);
    }
}

void FunctionEmitter::value(const Instr& in, const std::string& dst) {
    switch (in.kind) {
        case InstrKind::Const:
            m_out << dst << " = " << literal(in.value) << ";\n";
            return;
        case InstrKind::Copy:
        case InstrKind::Assign:
            m_out << dst << " = " << var(in.args[0]) << ";\n";
            return;
        case InstrKind::Construct:
            return construct(in, dst);
        case InstrKind::Field:
            m_out << dst << " = " << var(in.args[0]) << "." << c_field(in.text) << ";\n";
            return;
        case InstrKind::WithField:
            m_out << dst << " = " << var(in.args[0]) << "; " << dst << "." << c_field(in.text)
                  << " = " << var(in.args[1]) << ";\n";
            return;
        case InstrKind::Cast:
            m_out << dst << (in.callee == "bits" ? " = wp::bit_cast<" : " = wp::cast<")
                  << c_type(m_f.type_of(in.dsts[0])) << ">(" << var(in.args[0]) << ");\n";
            return;
        case InstrKind::Compare:
            m_out << dst << " = (" << var(in.args[0]) << " " << in.callee << " " << var(in.args[1])
                  << ");\n";
            return;
        case InstrKind::Logical:
            if (in.args.size() == 1)
                m_out << dst << " = !" << var(in.args[0]) << ";\n";
            else
                m_out << dst << " = (" << var(in.args[0]) << " " << in.callee << " "
                      << var(in.args[1]) << ");\n";
            return;
        case InstrKind::Select:
            m_out << dst << " = " << var(in.args[0]) << " ? " << var(in.args[1]) << " : "
                  << var(in.args[2]) << ";\n";
            return;
        default:
            TREADLE_ASSERT(false && "not a value instruction");
    }
}

void FunctionEmitter::construct(const Instr& in, const std::string& dst) {
    const types::Type* t = m_f.type_of(in.dsts[0]);
    if (t->is_struct()) {
        m_out << dst << " = " << c_type(t) << "{" << args(in) << "};\n";
        return;
    }
    m_out << dst << " = " << c_type(t) << "{{";
    if (t->is_matrix()) {
        for (int r = 0; r < t->rows; ++r) {
            m_out << (r ? ", {" : "{");
            for (int c = 0; c < t->cols; ++c)
                m_out << (c ? ", " : "") << var(in.args[r * t->cols + c]);
            m_out << "}";
        }
    } else {
        m_out << args(in);
    }
    m_out << "}};\n";
}

void FunctionEmitter::call_function(const Instr& in, const std::string& dst) {
    const types::Type* rt = in.func->return_type;
    const ir::Function* callee =
        m_replay && in.func->custom_replay ? in.func->custom_replay : in.func;
    std::string call = (m_replay ? replay_name(*callee) : callee->c_name) + "(" + args(in);
    if (rt->is_tuple()) {
        for (size_t i = 0; i < in.dsts.size(); ++i)
            call += (in.args.empty() && i == 0 ? "" : ", ") + var(in.dsts[i]);
        m_out << call << ");\n";
    } else if (rt->is_void()) {
        m_out << call << ");\n";
    } else {
        m_out << dst << " = " << call << ");\n";
    }
}

void FunctionEmitter::gradient(const Instr& in, int depth) {
    // { result's adjoint; a zeroed adjoint per argument; the adjoint call; the results }
    m_out << "{\n";
    indent(depth + 1);
    m_out << c_type(in.value.type) << " grad_ret = " << literal(in.value) << ";\n";
    std::vector<std::string> adjoints;  // per argument: its adjoint's name ("": none)
    std::string call;
    const ir::Function* f = in.func;
    if (in.builtin) {
        // wp::adj_f(args..., adj_args..., adj_ret): every argument has an adjoint slot
        call = "wp::adj_" + native_callee(m_f, in) + "(" + args(in);
        for (size_t i = 0; i < in.args.size(); ++i) adjoints.push_back("grad_" + std::to_string(i));
        for (const std::string& a : adjoints) call += ", " + a;
        call += ", grad_ret)";
    } else if (f->custom_grad) {
        // the user's gradient(args..., adj_ret, gradients of the value arguments...)
        call = f->custom_grad->c_name + "(" + args(in) + (in.args.empty() ? "" : ", ") + "grad_ret";
        for (size_t i = 0; i < in.args.size(); ++i) {
            const types::Type* t = m_f.type_of(in.args[i]);
            adjoints.push_back(t->is_value() || t->is_struct() ? "grad_" + std::to_string(i) : "");
            if (!adjoints.back().empty()) call += ", " + adjoints.back();
        }
        call += ")";
    } else {
        // adj_f(args..., adj_args with a gradient..., adj_ret)
        call = adjoint_name(*f) + "(" + args(in);
        for (size_t i = 0; i < in.args.size(); ++i) {
            bool grad = types::has_gradient(m_f.type_of(in.args[i]));
            adjoints.push_back(grad ? "grad_" + std::to_string(i) : "");
            if (grad) call += ", " + adjoints.back();
        }
        call += (in.args.empty() ? "" : ", ") + std::string("grad_ret)");
    }
    for (size_t i = 0; i < in.args.size(); ++i) {
        if (adjoints[i].empty()) continue;
        indent(depth + 1);
        m_out << c_type(m_f.type_of(in.args[i])) << " " << adjoints[i] << "{};\n";
    }
    indent(depth + 1);
    m_out << call << ";\n";
    size_t k = 0;  // the results: the adjoints of the arguments with a gradient, in order
    for (size_t i = 0; i < in.args.size(); ++i) {
        if (!types::has_gradient(m_f.type_of(in.args[i]))) continue;
        indent(depth + 1);
        m_out << var(in.dsts[k++]) << " = " << adjoints[i] << ";\n";
    }
    TREADLE_ASSERT(k == in.dsts.size());
    indent(depth);
    m_out << "}\n";
}

void FunctionEmitter::tid(const Instr& in, const std::string& dst) {
    bool tiles = false;  // a kernel with tiles may be launched with the block as a last dimension
    for (const ir::Var& v : m_f.vars) tiles |= v.type && v.type->is_tile();
    if (tiles) {
        m_out << "wp::tile_tid(index, bounds";
        for (VarId d : in.dsts) m_out << ", " << var(d);
        m_out << ");\n";
        return;
    }
    if (in.dsts.size() == 1) {
        m_out << dst << " = (wp::int32)index;\n";
        return;
    }
    m_out << "wp::tid_unravel(index, bounds";
    for (VarId d : in.dsts) m_out << ", " << var(d);
    m_out << ");\n";
}

void FunctionEmitter::memory(const Instr& in, const std::string& dst, int depth) {
    switch (in.kind) {
        case InstrKind::Load:
            if (m_checked)
                m_out << dst << " = *" << element_address(in, in.args.size()) << ";\n";
            else
                m_out << dst << " = wp::load(" << args(in) << ");\n";
            return;
        case InstrKind::Store:
            if (m_checked)
                m_out << "*" << element_address(in, in.args.size() - 1) << " = "
                      << var(in.args.back()) << ";\n";
            else
                m_out << "wp::store(" << args(in) << ");\n";
            if (m_verify_fp) verify_store(in, in.args.size() - 1, var(in.args.back()), depth);
            return;
        case InstrKind::StoreField: {
            std::string path = field_path(in.text);
            std::string address = m_checked
                                      ? element_address(in, in.args.size() - 1)
                                      : "wp::address(" + args(in, 0, in.args.size() - 1) + ")";
            m_out << "(*" << address << ")" << path << " = " << var(in.args.back()) << ";\n";
            if (m_verify_fp) verify_store(in, in.args.size() - 1, var(in.args.back()), depth);
            return;
        }
        case InstrKind::View: {
            if (!in.text.empty()) {  // slices and integer indices (sema's slice_array)
                m_out << dst << " = " << slice_view(in) << ";\n";
                return;
            }
            std::string v = var(in.args[0]);
            for (size_t i = 1; i < in.args.size(); ++i)
                v = (m_checked ? "wp::view_checked(" : "wp::view(") + v + ", " + var(in.args[i]) +
                    (m_checked ? check_site(in) : "") + ")";
            m_out << dst << " = " << v << ";\n";
            return;
        }
        case InstrKind::Shape:
            if (m_f.type_of(in.args[0])->fabric)  // one entry: the element count
                m_out << dst << " = wp::fabric_length(" << var(in.args[0]) << ");\n";
            else
                m_out << dst << " = " << var(in.args[0]) << ".shape[" << in.value.i << "];\n";
            return;
        default:
            TREADLE_ASSERT(false && "not a memory instruction");
    }
}

void FunctionEmitter::print(const Instr& in) {
    if (in.kind == InstrKind::Print) {
        m_out << "wp::print(" << var(in.args[0]) << ");\n";
        return;
    }
    if (in.callee == "assert") {
        m_out << "wp::assert_failed(" << c_string(in.text) << ");\n";
        return;
    }
    m_out << "printf(" << c_string(in.text);
    for (VarId a : in.args) {
        const types::Type* t = m_f.type_of(a);
        if (in.callee == "print" && t->is_bool())  // print(): True / False, as Python
            m_out << ", " << var(a) << " ? \"True\" : \"False\"";
        else
            m_out << ", " << printf_arg(t, var(a));
    }
    m_out << ");\n";
}

void FunctionEmitter::control(const Instr& in, int depth) {
    switch (in.kind) {
        case InstrKind::If:
            m_out << "if (" << var(in.args[0]) << ") {\n";
            block(in.body, depth + 1);
            if (!in.orelse.empty()) {
                indent(depth);
                m_out << "} else {\n";
                block(in.orelse, depth + 1);
            }
            indent(depth);
            m_out << "}\n";
            return;
        case InstrKind::ForRange:
        case InstrKind::Loop:
            return;  // printed by loop()
        case InstrKind::Break:
            m_out << "break;\n";
            return;
        case InstrKind::Continue:
            m_out << "continue;\n";
            return;
        case InstrKind::Return:
            if (m_f.is_kernel || in.args.empty()) {
                m_out << "return;\n";
            } else if (m_f.return_type->is_tuple()) {
                for (size_t i = 0; i < in.args.size(); ++i)
                    m_out << "ret_" << i << " = " << var(in.args[i]) << "; ";
                m_out << "return;\n";
            } else {
                m_out << "return " << var(in.args[0]) << ";\n";
            }
            return;
        default:
            TREADLE_ASSERT(false && "not a control-flow instruction");
    }
}

}  // namespace treadle::codegen
