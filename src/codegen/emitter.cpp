// src/codegen/emitter.cpp -- the C-style emitter: one walk over the IR prints C++ statements
//
// Every IR variable becomes a C++ local declared at the top of its function (so values
// computed in a branch are visible after it); each instruction becomes one statement,
// preceded by a #line directive whenever the Python line changes, so compiler diagnostics and
// debuggers point at the kernel's Python source. Back ends (cpu_backend.cpp, later CUDA) supply
// the prologue, qualifiers and entry point.
#include "codegen/emitter.h"

#include <cmath>
#include <cstdio>
#include "common/text.h"

#include "common/assert.h"

namespace treadle::codegen {

using ir::Instr;
using ir::InstrKind;
using ir::VarId;
using sema::Type;

size_t layout_params(const ir::Function& kernel, std::vector<ParamLayout>& out) {
    size_t offset = 0, max_align = 1;
    for (size_t i = 0; i < kernel.params.size(); ++i) {
        const Type* t = kernel.type_of(kernel.params[i]);
        offset = (offset + t->align - 1) / t->align * t->align;
        out.push_back(ParamLayout{kernel.param_names[i], t, offset});
        offset += t->size;
        if (t->align > max_align) max_align = t->align;
    }
    return (offset + max_align - 1) / max_align * max_align;
}

namespace {

std::string c_string(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            case '\r': out += "\\r"; break;
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

std::string literal(const sema::ConstValue& c) {
    const Type* t = c.type;
    if (t->is_bool()) return c.i ? "true" : "false";
    if (t->is_float()) {
        std::string v;
        if (std::isnan(c.f)) {
            v = "(0.0 / 0.0)";
        } else if (std::isinf(c.f)) {
            v = c.f > 0 ? "(1.0 / 0.0)" : "(-1.0 / 0.0)";
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
        return "wp::cast<" + t->c_name + ">(" + v + ")";
    }
    switch (t->scalar) {
        case ScalarType::Int64:
            if (c.i == INT64_MIN) return "(-9223372036854775807LL - 1)";
            return "(wp::int64)" + std::to_string(c.i) + "LL";
        case ScalarType::UInt64: return "(wp::uint64)" + std::to_string((uint64_t)c.i) + "ULL";
        case ScalarType::UInt32: return "(wp::uint32)" + std::to_string((uint32_t)c.i) + "U";
        case ScalarType::Int32:
            if (c.i == INT32_MIN) return "(wp::int32)(-2147483647 - 1)";
            return "(wp::int32)" + std::to_string((int32_t)c.i);
        default: return "(" + t->c_name + ")" + std::to_string(c.i);
    }
}

/// Arguments passed through printf's varargs: promote to what the format expects.
std::string printf_arg(const Type* t, const std::string& v) {
    switch (t->scalar) {
        case ScalarType::Float16: return "(double)(float)" + v;
        case ScalarType::Float32: return "(double)" + v;
        case ScalarType::Bool:
        case ScalarType::Int8:
        case ScalarType::Int16: return "(int)" + v;
        case ScalarType::UInt8:
        case ScalarType::UInt16: return "(unsigned)" + v;
        case ScalarType::Int64: return "(long long)" + v;
        case ScalarType::UInt64: return "(unsigned long long)" + v;
        default: return v;
    }
}

class FunctionEmitter {
public:
    FunctionEmitter(const ir::Function& f, Text& out, bool checked)
        : m_f(f), m_out(out), m_checked(checked) {}

    std::string var(VarId v) const {
        const ir::Var& x = m_f.vars[v];
        return x.hint.empty() ? "v" + std::to_string(v) : "v" + std::to_string(v) + "_" + x.hint;
    }

    void declarations(int depth) {
        std::vector<bool> is_param(m_f.vars.size(), false);
        for (VarId p : m_f.params) is_param[p] = true;
        for (VarId v = 0; v < m_f.vars.size(); ++v) {
            if (is_param[v]) continue;
            const Type* t = m_f.vars[v].type;
            if (t->is_tuple() || t->is_void()) continue;
            indent(depth);
            m_out << t->c_name << " " << var(v) << "{};\n";
        }
    }

    void block(const ir::Block& b, int depth) {
        for (const Instr& in : b) instr(in, depth);
    }

private:
    void indent(int depth) {
        for (int i = 0; i < depth; ++i) m_out << "    ";
    }

    void line_directive(int line) {
        if (line <= 0 || line == m_line) return;
        m_line = line;
        m_out << "#line " << line << " " << c_string(m_f.source ? m_f.source->path : "") << "\n";
    }

    /// ", \"file\", line, \"function\"": where a checked access reports a bad index.
    std::string check_site(const Instr& in) const {
        return ", " + c_string(m_f.source ? m_f.source->path : "") + ", " +
               std::to_string(in.line) + ", " + c_string(m_f.name);
    }

    /// The address of element args[0][args[1..n)] (checked in checked mode).
    std::string element_address(const Instr& in, size_t n) const {
        return std::string(m_checked ? "wp::address_checked(" : "wp::address(") + args(in, 0, n) +
               (m_checked ? check_site(in) : "") + ")";
    }

    std::string args(const Instr& in, size_t from = 0, size_t to = (size_t)-1) const {
        std::string s;
        for (size_t i = from; i < in.args.size() && i < to; ++i)
            s += (i > from ? ", " : "") + var(in.args[i]);
        return s;
    }

    void instr(const Instr& in, int depth) {
        line_directive(in.line);
        indent(depth);
        std::string dst = in.dsts.empty() ? "" : var(in.dsts[0]);
        switch (in.kind) {
            case InstrKind::Const:
                m_out << dst << " = " << literal(in.value) << ";\n";
                break;
            case InstrKind::Copy:
            case InstrKind::Assign:
                m_out << dst << " = " << var(in.args[0]) << ";\n";
                break;
            case InstrKind::Construct: {
                const Type* t = m_f.type_of(in.dsts[0]);
                m_out << dst << " = " << t->c_name << "{{";
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
                break;
            }
            case InstrKind::Cast:
                m_out << dst << " = wp::cast<" << m_f.type_of(in.dsts[0])->c_name << ">("
                      << var(in.args[0]) << ");\n";
                break;
            case InstrKind::Call:
                if (m_checked && !in.args.empty() && m_f.type_of(in.args[0])->is_array()) {
                    // atomics on an array element: the pointer form on a checked address
                    m_out << dst << " = wp::" << in.callee << "("
                          << element_address(in, in.args.size() - 1) << ", "
                          << var(in.args.back()) << ");\n";
                    break;
                }
                if (in.dsts.size() > 1) {
                    // several results: written through trailing reference parameters
                    m_out << "wp::" << in.callee << "(" << args(in);
                    for (size_t i = 0; i < in.dsts.size(); ++i)
                        m_out << (in.args.empty() && i == 0 ? "" : ", ") << var(in.dsts[i]);
                    m_out << ");\n";
                    break;
                }
                m_out << dst << " = wp::" << in.callee << "(" << args(in) << ");\n";
                break;
            case InstrKind::Compare:
                m_out << dst << " = (" << var(in.args[0]) << " " << in.callee << " "
                      << var(in.args[1]) << ");\n";
                break;
            case InstrKind::Logical:
                if (in.args.size() == 1)
                    m_out << dst << " = !" << var(in.args[0]) << ";\n";
                else
                    m_out << dst << " = (" << var(in.args[0]) << " " << in.callee << " "
                          << var(in.args[1]) << ");\n";
                break;
            case InstrKind::Select:
                m_out << dst << " = " << var(in.args[0]) << " ? " << var(in.args[1]) << " : "
                      << var(in.args[2]) << ";\n";
                break;
            case InstrKind::CallFunc: {
                const Type* rt = in.func->return_type;
                std::string call = in.func->c_name + "(" + args(in);
                if (rt->is_tuple()) {
                    for (size_t i = 0; i < in.dsts.size(); ++i)
                        call += (in.args.empty() && i == 0 ? "" : ", ") + var(in.dsts[i]);
                    m_out << call << ");\n";
                } else if (rt->is_void()) {
                    m_out << call << ");\n";
                } else {
                    m_out << dst << " = " << call << ");\n";
                }
                break;
            }
            case InstrKind::Tid:
                if (in.dsts.size() == 1) {
                    m_out << dst << " = (wp::int32)index;\n";
                } else {
                    m_out << "wp::tid_unravel(index, bounds";
                    for (VarId d : in.dsts) m_out << ", " << var(d);
                    m_out << ");\n";
                }
                break;
            case InstrKind::Load:
                if (m_checked)
                    m_out << dst << " = *" << element_address(in, in.args.size()) << ";\n";
                else
                    m_out << dst << " = wp::load(" << args(in) << ");\n";
                break;
            case InstrKind::Store:
                if (m_checked)
                    m_out << "*" << element_address(in, in.args.size() - 1) << " = "
                          << var(in.args.back()) << ";\n";
                else
                    m_out << "wp::store(" << args(in) << ");\n";
                break;
            case InstrKind::View: {
                std::string v = var(in.args[0]);
                for (size_t i = 1; i < in.args.size(); ++i)
                    v = (m_checked ? "wp::view_checked(" : "wp::view(") + v + ", " +
                        var(in.args[i]) + (m_checked ? check_site(in) : "") + ")";
                m_out << dst << " = " << v << ";\n";
                break;
            }
            case InstrKind::Shape:
                m_out << dst << " = " << var(in.args[0]) << ".shape[" << in.value.i << "];\n";
                break;
            case InstrKind::Print:
                m_out << "wp::print(" << var(in.args[0]) << ");\n";
                break;
            case InstrKind::Printf:
                m_out << "printf(" << c_string(in.text);
                for (VarId a : in.args) m_out << ", " << printf_arg(m_f.type_of(a), var(a));
                m_out << ");\n";
                break;
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
                break;
            case InstrKind::ForRange: {
                std::string c = var(in.dsts[0]), lo = var(in.args[0]), hi = var(in.args[1]),
                            step = var(in.args[2]);
                m_out << "for (" << c << " = " << lo << "; (" << step << " > 0) ? (" << c
                      << " < " << hi << ") : (" << c << " > " << hi << "); " << c
                      << " += " << step << ") {\n";
                block(in.body, depth + 1);
                indent(depth);
                m_out << "}\n";
                break;
            }
            case InstrKind::Loop:
                m_out << "for (;;) {\n";
                block(in.body, depth + 1);
                indent(depth);
                m_out << "}\n";
                break;
            case InstrKind::Break:
                m_out << "break;\n";
                break;
            case InstrKind::Continue:
                m_out << "continue;\n";
                break;
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
                break;
        }
    }

    const ir::Function& m_f;
    Text& m_out;
    bool m_checked;
    int m_line = -1;
};

void emit_function(const ir::Function& f, const Backend& backend, Text& out, bool checked) {
    FunctionEmitter fe(f, out, checked);
    const Type* rt = f.return_type;
    std::string ret = (rt->is_void() || rt->is_tuple()) ? "void" : rt->c_name;
    out << backend.function_qualifier() << " " << ret << " " << f.c_name << "(";
    for (size_t i = 0; i < f.params.size(); ++i)
        out << (i ? ", " : "") << f.type_of(f.params[i])->c_name << " " << fe.var(f.params[i]);
    if (rt->is_tuple())
        for (size_t i = 0; i < rt->elements.size(); ++i)
            out << (f.params.empty() && i == 0 ? "" : ", ") << rt->elements[i]->c_name
                << "& ret_" << i;
    out << ") {\n";
    fe.declarations(1);
    fe.block(f.body, 1);
    if (!rt->is_void() && !rt->is_tuple()) out << "    return " << rt->c_name << "{};\n";
    out << "}\n\n";
}

void emit_kernel(const ir::Function& k, const Backend& backend, Text& out, bool checked) {
    std::vector<ParamLayout> layout;
    size_t size = layout_params(k, layout);
    std::string params = "params_" + k.c_name;
    out << "struct " << params << " {\n";
    for (const ParamLayout& p : layout) out << "    " << p.type->c_name << " arg_" << p.name << ";\n";
    if (layout.empty()) out << "    char unused_;\n";
    out << "};\n";
    // The runtime packs arguments with its own copy of this layout; these keep them equal.
    if (backend.layout_asserts()) {
        for (const ParamLayout& p : layout)
            out << "static_assert(__builtin_offsetof(" << params << ", arg_" << p.name
                << ") == " << p.offset << ", \"parameter layout\");\n";
    }
    if (backend.layout_asserts() && !layout.empty())
        out << "static_assert(sizeof(" << params << ") == " << size << ", \"parameter size\");\n";
    out << "\n";

    FunctionEmitter fe(k, out, checked);
    std::string body = k.c_name + "_body";
    out << backend.function_qualifier() << " void " << body << "(const " << params
        << "& params, wp::int64 index, const wp::launch_bounds_t& bounds) {\n";
    out << "    (void)index;\n    (void)bounds;\n";
    for (size_t i = 0; i < k.params.size(); ++i)
        out << "    " << k.type_of(k.params[i])->c_name << " " << fe.var(k.params[i])
            << " = params.arg_" << k.param_names[i] << ";\n";
    fe.declarations(1);
    fe.block(k.body, 1);
    out << "}\n\n";
    out << backend.entry(k, params, body);
}

}  // namespace

std::string generate_source(const ir::Program& program, const Backend& backend, bool checked) {
    TREADLE_ASSERT(program.kernel != nullptr);
    Text out;
    out << "// generated by treadle: kernel " << program.kernel->name << " (" << backend.name()
        << ")\n";
    out << backend.prologue() << "\n";
    for (const auto& f : program.functions)
        if (!f->is_kernel) emit_function(*f, backend, out, checked);
    emit_kernel(*program.kernel, backend, out, checked);
    return out.str();
}

}  // namespace treadle::codegen
