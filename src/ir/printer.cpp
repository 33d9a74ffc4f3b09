// src/ir/printer.cpp -- human-readable text of the IR
#include <cstdio>

#include "common/text.h"
#include "ir/ir.h"

namespace treadle::ir {

const char* instr_name(InstrKind kind) {
    switch (kind) {
#define TREADLE_IR_NAME(name, text) \
    case InstrKind::name:           \
        return text;
        TREADLE_IR_INSTR_KINDS(TREADLE_IR_NAME)
#undef TREADLE_IR_NAME
    }
    return "?";
}

namespace {

std::string var_text(const Function& f, VarId v) {
    std::string s = "%" + std::to_string(v);
    if (!f.vars[v].hint.empty()) s += "." + f.vars[v].hint;
    return s;
}

std::string const_text(const types::ConstValue& c) {
    if (c.type && c.type->is_float()) {
        char buf[64];
        std::snprintf(buf, sizeof(buf), "%.17g", c.f);
        return buf;
    }
    return std::to_string(c.i);
}

void print_block(Text& out, const Function& f, const Block& block, int depth) {
    std::string indent(depth * 2, ' ');
    for (const Instr& in : block) {
        out << indent;
        if (!in.dsts.empty()) {
            for (size_t i = 0; i < in.dsts.size(); ++i)
                out << (i ? ", " : "") << var_text(f, in.dsts[i]) << ":"
                    << f.type_of(in.dsts[i])->name;
            out << " = ";
        }
        out << instr_name(in.kind);
        if (in.builtin) out << " " << in.builtin->name;
        if (!in.callee.empty()) out << " " << in.callee;
        if (in.func) out << " " << in.func->c_name;
        if (in.kind == InstrKind::Const || in.kind == InstrKind::Shape)
            out << " " << const_text(in.value);
        if (!in.text.empty()) out << " \"" << in.text << "\"";
        for (size_t i = 0; i < in.args.size(); ++i)
            out << (i ? ", " : " ") << var_text(f, in.args[i]);
        out << "  # line " << in.line << "\n";
        if (!in.body.empty() || in.kind == InstrKind::If || in.kind == InstrKind::ForRange ||
            in.kind == InstrKind::Loop) {
            print_block(out, f, in.body, depth + 1);
            if (in.kind == InstrKind::If) {
                out << indent << "else\n";
                print_block(out, f, in.orelse, depth + 1);
            }
            out << indent << "end\n";
        }
    }
}

}  // namespace

std::string print(const Function& f) {
    Text out;
    out << (f.is_kernel ? "kernel " : "func ") << f.c_name << "(";
    for (size_t i = 0; i < f.params.size(); ++i)
        out << (i ? ", " : "") << var_text(f, f.params[i]) << ":" << f.type_of(f.params[i])->name;
    out << ") -> " << (f.return_type ? f.return_type->name : "None") << "\n";
    print_block(out, f, f.body, 1);
    return out.str();
}

std::string print(const Program& p) {
    std::string s;
    for (const auto& f : p.functions) s += print(*f) + "\n";
    return s;
}

}  // namespace treadle::ir
