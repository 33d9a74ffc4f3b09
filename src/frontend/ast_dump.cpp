// src/frontend/ast_dump.cpp -- compact text rendering of the AST for debug output and tests
#include "frontend/ast_dump.h"

#include <charconv>
#include <cstdio>

namespace treadle::ast {

namespace {

std::string quote(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        unsigned char u = (unsigned char)c;
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c == '\r') {
            out += "\\r";
        } else if (u < 0x20 || u == 0x7F) {
            char buf[8];
            snprintf(buf, sizeof buf, "\\x%02x", u);
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

std::string format_float(double v) {
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    std::string out(buf, res.ptr);
    if (out.find_first_of(".eni") == std::string::npos) out += ".0";  // not inf/nan/exp
    return out;
}

std::string dump_opt(const Expr* e) { return e ? dump(*e) : "_"; }
std::string dump_opt(const ExprPtr& e) { return dump_opt(e.get()); }

const Expr* first_target(const Stmt& s) { return s.targets.empty() ? nullptr : s.targets[0].get(); }

std::string dump_list(const std::vector<ExprPtr>& items, size_t from = 0) {
    std::string out;
    for (size_t i = from; i < items.size(); ++i) {
        if (i > from) out += ", ";
        out += dump_opt(items[i]);
    }
    return out;
}

std::string dump_names(const std::vector<ImportName>& names) {
    std::string out;
    for (size_t i = 0; i < names.size(); ++i) {
        if (i) out += ", ";
        out += names[i].name;
        if (!names[i].asname.empty()) out += " as " + names[i].asname;
    }
    return out;
}

void dump_body(std::string& out, const std::vector<StmtPtr>& body, int indent) {
    for (const StmtPtr& s : body) out += dump(*s, indent);
}

}  // namespace

std::string dump(const Expr& e) {
    switch (e.kind) {
        case ExprKind::Name:
            return "Name(" + e.name + ")";
        case ExprKind::Constant:
            switch (e.const_kind) {
                case ConstKind::Int:
                    return "Int(" + std::to_string(e.int_value) + ")";
                case ConstKind::Float:
                    return "Float(" + format_float(e.float_value) + ")";
                case ConstKind::Bool:
                    return e.int_value ? "True" : "False";
                case ConstKind::Str:
                    return "Str(" + quote(e.str_value) + ")";
                case ConstKind::None:
                    return "None";
                case ConstKind::Ellipsis:
                    return "Ellipsis";
            }
            return "?";
        case ExprKind::Attribute:
            return "Attribute(" + dump_opt(e.args[0]) + ", " + e.name + ")";
        case ExprKind::Subscript:
            return "Subscript(" + dump_list(e.args) + ")";
        case ExprKind::Call: {
            std::string out = "Call(" + dump_list(e.args);
            for (const Keyword& kw : e.keywords) out += ", " + kw.name + "=" + dump_opt(kw.value);
            return out + ")";
        }
        case ExprKind::BinOp:
            return std::string("BinOp(") + op_text(e.bin_op) + ", " + dump_list(e.args) + ")";
        case ExprKind::UnaryOp:
            return std::string("UnaryOp(") + op_text(e.unary_op) + ", " + dump_list(e.args) + ")";
        case ExprKind::BoolOp:
            return std::string("BoolOp(") + op_text(e.bool_op) + ", " + dump_list(e.args) + ")";
        case ExprKind::Compare: {
            std::string out = "Compare(" + dump_opt(e.args[0]);
            for (size_t i = 0; i < e.cmp_ops.size() && i + 1 < e.args.size(); ++i)
                out += std::string(", ") + op_text(e.cmp_ops[i]) + ", " + dump_opt(e.args[i + 1]);
            return out + ")";
        }
        case ExprKind::IfExp:
            return "IfExp(" + dump_list(e.args) + ")";
        case ExprKind::Tuple:
            return "Tuple(" + dump_list(e.args) + ")";
        case ExprKind::List:
            return "List(" + dump_list(e.args) + ")";
        case ExprKind::Slice:
            return "Slice(" + dump_list(e.args) + ")";
        case ExprKind::Starred:
            return "Starred(" + dump_list(e.args) + ")";
    }
    return "?";
}

std::string dump(const Stmt& s, int indent) {
    const std::string pad((size_t)indent * 2, ' ');
    std::string out = pad;
    switch (s.kind) {
        case StmtKind::FunctionDef: {
            out += "FunctionDef(" + s.name + ", [";
            for (size_t i = 0; i < s.params.size(); ++i) {
                const Param& p = s.params[i];
                if (i) out += ", ";
                out += p.name;
                if (p.annotation) out += ": " + dump(*p.annotation);
                if (p.default_value) out += " = " + dump(*p.default_value);
            }
            out += "]";
            if (s.returns) out += ", returns=" + dump(*s.returns);
            if (!s.decorators.empty()) out += ", decorators=[" + dump_list(s.decorators) + "]";
            if (!s.docstring.empty()) out += ", doc=" + quote(s.docstring);
            out += ")\n";
            dump_body(out, s.body, indent + 1);
            return out;
        }
        case StmtKind::ClassDef:
            out += "ClassDef(" + s.name;
            if (!s.targets.empty()) out += ", bases=[" + dump_list(s.targets) + "]";
            if (!s.decorators.empty()) out += ", decorators=[" + dump_list(s.decorators) + "]";
            if (!s.docstring.empty()) out += ", doc=" + quote(s.docstring);
            out += ")\n";
            dump_body(out, s.body, indent + 1);
            return out;
        case StmtKind::Assign:
            out += "Assign(";
            for (const ExprPtr& t : s.targets) out += dump_opt(t) + " = ";
            out += dump_opt(s.value) + ")\n";
            return out;
        case StmtKind::AugAssign:
            out += "AugAssign(" + dump_opt(first_target(s)) + " " + op_text(s.aug_op) + "= " +
                   dump_opt(s.value) + ")\n";
            return out;
        case StmtKind::AnnAssign:
            out += "AnnAssign(" + dump_opt(first_target(s)) + ": " + dump_opt(s.annotation);
            if (s.value) out += " = " + dump(*s.value);
            out += ")\n";
            return out;
        case StmtKind::ExprStmt:
            return out + "Expr(" + dump_opt(s.value) + ")\n";
        case StmtKind::If:
        case StmtKind::While:
        case StmtKind::For:
            if (s.kind == StmtKind::For) {
                out += "For(" + dump_opt(first_target(s)) + " in " + dump_opt(s.value) + ")\n";
            } else {
                out += std::string(s.kind == StmtKind::If ? "If(" : "While(") + dump_opt(s.test) +
                       ")\n";
            }
            dump_body(out, s.body, indent + 1);
            if (!s.orelse.empty()) {
                out += pad + "else:\n";
                dump_body(out, s.orelse, indent + 1);
            }
            return out;
        case StmtKind::Break:
            return out + "Break\n";
        case StmtKind::Continue:
            return out + "Continue\n";
        case StmtKind::Pass:
            return out + "Pass\n";
        case StmtKind::Return:
            return out + (s.value ? "Return(" + dump(*s.value) + ")\n" : "Return\n");
        case StmtKind::Import:
            return out + "Import(" + dump_names(s.imports) + ")\n";
        case StmtKind::ImportFrom:
            return out + "ImportFrom(" + s.module + ": " + dump_names(s.imports) + ")\n";
        case StmtKind::Global:
            return out + "Global(" + dump_names(s.imports) + ")\n";
        case StmtKind::Nonlocal:
            return out + "Nonlocal(" + dump_names(s.imports) + ")\n";
        case StmtKind::Assert:
            out += "Assert(" + dump_opt(s.test);
            if (s.value) out += ", " + dump(*s.value);
            return out + ")\n";
    }
    return out + "?\n";
}

std::string dump(const Module& m) {
    std::string out;
    dump_body(out, m.body, 0);
    return out;
}

std::string dump(const Span& span) {
    return std::to_string(span.line) + ":" + std::to_string(span.col) + "-" +
           std::to_string(span.end_line) + ":" + std::to_string(span.end_col);
}

}  // namespace treadle::ast
