// src/frontend/ast.h -- the abstract syntax tree of the kernel subset of Python
//
// One `Expr` and one `Stmt` struct with a kind tag, in the spirit of Python's own `ast`
// module. Children are owned by unique_ptr. Every node carries a Span with absolute line
// numbers in its SourceFile (the first line of a function's source is its line in the file).
// Per-kind use of the generic fields is documented next to each kind below; the parser
// (parser.h) is the only producer, sema/ the main consumer.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "treadle/error.h"

namespace treadle::ast {

/// A Python source text. `first_line` is the line number (1-based) of `text`'s first line in
/// the file `path`, so that a function's source cut out by `inspect` reports real lines.
struct SourceFile {
    std::string path;
    std::string text;
    int first_line = 1;
    std::vector<std::string> lines;  ///< text split on '\n', without the newlines

    /// The text of absolute line `line` (empty when out of range).
    const std::string& line_text(int line) const;
};

/// Builds a SourceFile and splits its lines.
std::shared_ptr<const SourceFile> make_source(std::string path, std::string text,
                                              int first_line = 1);

/// A source range: absolute 1-based line, 1-based column; end is exclusive.
struct Span {
    int line = 0, col = 0, end_line = 0, end_col = 0;
};

/// A SourceLocation for errors at `span` in `file`.
SourceLocation location(const SourceFile& file, const Span& span);

enum class BinOpKind {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    MatMul,
    LShift,
    RShift,
    BitOr,
    BitXor,
    BitAnd
};
enum class UnaryOpKind { Neg, Pos, Not, Invert };
enum class BoolOpKind { And, Or };
enum class CmpOpKind { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };
/// Ellipsis (`...`) is parsed for annotations (`tuple[int, ...]`) and stub bodies only.
enum class ConstKind { Int, Float, Bool, Str, None, Ellipsis };

/// Python spelling of an operator ("+", "//", "not", "<=", ...).
const char* op_text(BinOpKind op);
const char* op_text(UnaryOpKind op);
const char* op_text(BoolOpKind op);
const char* op_text(CmpOpKind op);

enum class ExprKind {
    Name,       ///< name
    Constant,   ///< const_kind + int_value / float_value / str_value (bool in int_value)
    Attribute,  ///< args[0] = object, name = attribute
    Subscript,  ///< args[0] = object, args[1] = index (a Tuple for `a[i, j]`)
    Call,       ///< args[0] = callee, args[1..] = positional arguments, keywords
    BinOp,      ///< args[0] op args[1], bin_op
    UnaryOp,    ///< unary_op args[0]
    BoolOp,     ///< args[0] op args[1] op ..., bool_op (two or more operands)
    Compare,    ///< args[0] cmp_ops[0] args[1] cmp_ops[1] args[2] ...
    IfExp,      ///< args[1] if args[0] else args[2]
    Tuple,      ///< args = elements
    List,       ///< args = elements (parsed so sema can reject it with a clear message)
    Slice,      ///< args[0..2] = lower, upper, step; each may be null
    Starred,    ///< *args[0], a positional argument of a call (sema expands it)
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

/// A keyword argument `name=value` in a call.
struct Keyword {
    std::string name;
    ExprPtr value;
    Span span;
};

struct Expr {
    ExprKind kind;
    Span span;
    std::string name;  ///< Name id, Attribute attr
    ConstKind const_kind = ConstKind::None;
    uint64_t int_value = 0;    ///< Int literal (always non-negative) or Bool (0/1)
    double float_value = 0.0;  ///< Float literal
    std::string str_value;     ///< Str literal (escapes decoded)
    BinOpKind bin_op = BinOpKind::Add;
    UnaryOpKind unary_op = UnaryOpKind::Neg;
    BoolOpKind bool_op = BoolOpKind::And;
    std::vector<CmpOpKind> cmp_ops;
    std::vector<ExprPtr> args;
    std::vector<Keyword> keywords;

    Expr(ExprKind k, Span s) : kind(k), span(s) {}
};

/// A deep copy of `e` (its spans too), for front-end rewrites such as sema's expansion of
/// starred call arguments.
ExprPtr clone(const Expr& e);

enum class StmtKind {
    FunctionDef,  ///< name, params, returns, decorators, body, docstring
    ClassDef,     ///< name, bases (in targets), decorators, body
    Assign,       ///< targets (more than one for `a = b = c`), value
    AugAssign,    ///< targets[0] aug_op= value
    AnnAssign,    ///< targets[0]: annotation [= value]
    ExprStmt,     ///< value
    If,           ///< test, body, orelse (an `elif` is an If alone in orelse)
    For,          ///< targets[0] in iter (stored in value), body, orelse
    While,        ///< test, body, orelse
    Break,
    Continue,
    Return,  ///< value (may be null)
    Pass,
    Import,      ///< imports: `import a.b as c`
    ImportFrom,  ///< module, imports: `from module import a as b`
    Global,      ///< names in imports (parsed so sema can reject it)
    Nonlocal,    ///< names in imports
    Assert,      ///< test, value = message (may be null)
};

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;

/// A function parameter `name: annotation = default`.
struct Param {
    std::string name;
    ExprPtr annotation;     ///< may be null
    ExprPtr default_value;  ///< may be null
    Span span;
};

/// One name of an import: `name as asname` (asname empty when absent).
struct ImportName {
    std::string name;
    std::string asname;
};

struct Stmt {
    StmtKind kind;
    Span span;
    std::string name;                 ///< FunctionDef / ClassDef name
    std::string docstring;            ///< FunctionDef / ClassDef, when the body starts with one
    std::vector<Param> params;        ///< FunctionDef
    ExprPtr returns;                  ///< FunctionDef return annotation (may be null)
    std::vector<ExprPtr> decorators;  ///< FunctionDef / ClassDef
    std::vector<ExprPtr> targets;
    ExprPtr value;
    ExprPtr annotation;  ///< AnnAssign
    ExprPtr test;        ///< If / While / Assert
    BinOpKind aug_op = BinOpKind::Add;
    std::vector<StmtPtr> body;
    std::vector<StmtPtr> orelse;
    std::string module;               ///< ImportFrom (with leading dots for relative imports)
    std::vector<ImportName> imports;  ///< Import / ImportFrom / Global / Nonlocal

    Stmt(StmtKind k, Span s) : kind(k), span(s) {}
};

/// A parsed file or function: its statements and the source they came from.
struct Module {
    std::shared_ptr<const SourceFile> source;
    std::vector<StmtPtr> body;
};

}  // namespace treadle::ast
