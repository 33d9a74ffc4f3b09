// tests/cpp/frontend/frontend_test_util.h -- helpers shared by the frontend tests
#pragma once

#include <memory>
#include <string>

#include "frontend/ast.h"
#include "frontend/ast_dump.h"
#include "frontend/lexer.h"
#include "frontend/parser.h"
#include "treadle/error.h"

namespace treadle::frontend::testing {

inline std::shared_ptr<const ast::SourceFile> source(const std::string& text, int first_line = 1) {
    return ast::make_source("kernel.py", text, first_line);
}

/// Tokens as "KIND(text)" (or bare KIND for layout tokens) separated by spaces.
inline std::string lex(const std::string& text, bool function_mode = false) {
    auto src = source(text);
    std::string out;
    for (const Token& tok : tokenize(*src, function_mode)) {
        if (!out.empty()) out += ' ';
        out += token_kind_name(tok.kind);
        if (tok.kind == TokenKind::Name || tok.kind == TokenKind::Op ||
            tok.kind == TokenKind::Number || tok.kind == TokenKind::String)
            out += "(" + tok.text + ")";
    }
    return out;
}

/// The first token of `text`.
inline Token first_token(const std::string& text) {
    auto src = source(text);
    return Lexer(*src).next();
}

/// dump() of the whole module parsed from `text`.
inline std::string parse_dump(const std::string& text) {
    return ast::dump(*parse_module(source(text)));
}

/// dump() of the single expression statement `text`.
inline std::string expr(const std::string& text) {
    auto module = parse_module(source(text + "\n"));
    if (module->body.size() != 1 || module->body[0]->kind != ast::StmtKind::ExprStmt)
        return "<not one expression statement>";
    return ast::dump(*module->body[0]->value);
}

/// What a failing parse reported; message "<no error>" when it succeeded.
struct ErrorInfo {
    std::string message;
    int line = 0, col = 0;
    std::string line_text;
    ErrorKind kind = ErrorKind::Runtime;
};

inline ErrorInfo parse_error(const std::string& text, bool function_mode = false,
                             int first_line = 1) {
    try {
        auto src = source(text, first_line);
        if (function_mode) {
            parse_function(src);
        } else {
            parse_module(src);
        }
    } catch (const Error& e) {
        return ErrorInfo{e.message(), e.where().line, e.where().col, e.where().line_text, e.kind()};
    }
    ErrorInfo none;
    none.message = "<no error>";
    return none;
}

}  // namespace treadle::frontend::testing
