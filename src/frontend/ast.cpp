// src/frontend/ast.cpp -- source files, locations and operator spellings of the AST
#include "frontend/ast.h"

namespace treadle::ast {

const std::string& SourceFile::line_text(int line) const {
    static const std::string empty;
    long index = (long)line - first_line;
    if (index < 0 || index >= (long)lines.size()) return empty;
    return lines[(size_t)index];
}

std::shared_ptr<const SourceFile> make_source(std::string path, std::string text, int first_line) {
    auto src = std::make_shared<SourceFile>();
    src->path = std::move(path);
    src->text = std::move(text);
    src->first_line = first_line;
    // Split on '\n' (so "a\n" gives "a" and ""); a '\r' before a '\n' belongs to the newline.
    size_t start = 0;
    for (;;) {
        size_t nl = src->text.find('\n', start);
        if (nl == std::string::npos) {
            src->lines.push_back(src->text.substr(start));
            break;
        }
        size_t end = nl;
        if (end > start && src->text[end - 1] == '\r') --end;
        src->lines.push_back(src->text.substr(start, end - start));
        start = nl + 1;
    }
    return src;
}

SourceLocation location(const SourceFile& file, const Span& span) {
    return SourceLocation{file.path, span.line, span.col, file.line_text(span.line)};
}

const char* op_text(BinOpKind op) {
    switch (op) {
        case BinOpKind::Add:
            return "+";
        case BinOpKind::Sub:
            return "-";
        case BinOpKind::Mul:
            return "*";
        case BinOpKind::Div:
            return "/";
        case BinOpKind::FloorDiv:
            return "//";
        case BinOpKind::Mod:
            return "%";
        case BinOpKind::Pow:
            return "**";
        case BinOpKind::MatMul:
            return "@";
        case BinOpKind::LShift:
            return "<<";
        case BinOpKind::RShift:
            return ">>";
        case BinOpKind::BitOr:
            return "|";
        case BinOpKind::BitXor:
            return "^";
        case BinOpKind::BitAnd:
            return "&";
    }
    return "?";
}

const char* op_text(UnaryOpKind op) {
    switch (op) {
        case UnaryOpKind::Neg:
            return "-";
        case UnaryOpKind::Pos:
            return "+";
        case UnaryOpKind::Not:
            return "not";
        case UnaryOpKind::Invert:
            return "~";
    }
    return "?";
}

const char* op_text(BoolOpKind op) {
    switch (op) {
        case BoolOpKind::And:
            return "and";
        case BoolOpKind::Or:
            return "or";
    }
    return "?";
}

const char* op_text(CmpOpKind op) {
    switch (op) {
        case CmpOpKind::Eq:
            return "==";
        case CmpOpKind::NotEq:
            return "!=";
        case CmpOpKind::Lt:
            return "<";
        case CmpOpKind::LtE:
            return "<=";
        case CmpOpKind::Gt:
            return ">";
        case CmpOpKind::GtE:
            return ">=";
        case CmpOpKind::Is:
            return "is";
        case CmpOpKind::IsNot:
            return "is not";
        case CmpOpKind::In:
            return "in";
        case CmpOpKind::NotIn:
            return "not in";
    }
    return "?";
}

ExprPtr clone(const Expr& e) {
    auto out = std::make_unique<Expr>(e.kind, e.span);
    out->name = e.name;
    out->const_kind = e.const_kind;
    out->int_value = e.int_value;
    out->float_value = e.float_value;
    out->str_value = e.str_value;
    out->bin_op = e.bin_op;
    out->unary_op = e.unary_op;
    out->bool_op = e.bool_op;
    out->cmp_ops = e.cmp_ops;
    for (const ExprPtr& a : e.args) out->args.push_back(a ? clone(*a) : nullptr);
    for (const Keyword& k : e.keywords)
        out->keywords.push_back(Keyword{k.name, k.value ? clone(*k.value) : nullptr, k.span});
    return out;
}

}  // namespace treadle::ast
