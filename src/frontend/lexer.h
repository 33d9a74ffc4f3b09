// src/frontend/lexer.h -- tokenizer for the kernel subset of Python
//
// A hand-written, on-demand tokenizer in the style of Python's: it produces NAME, NUMBER,
// STRING, OP, NEWLINE, INDENT, DEDENT and ENDMARKER tokens, skips comments and blank lines,
// joins lines inside brackets and after a backslash, and tracks the indentation stack.
// Keywords are NAME tokens (see is_keyword). f-strings are rejected with a syntax error.
// Errors are treadle::Error of kind Syntax with the absolute line and 1-based column.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/ast.h"

namespace treadle::frontend {

enum class TokenKind { Name, Number, String, Op, Newline, Indent, Dedent, EndMarker };

/// "NAME", "NUMBER", ... (for debug output and tests).
const char* token_kind_name(TokenKind kind);

/// True for Python's hard keywords ("if", "def", "True", "not", ...).
bool is_keyword(std::string_view name);

/// One token. `span` uses absolute lines and original 1-based columns; the end is exclusive.
struct Token {
    TokenKind kind = TokenKind::EndMarker;
    /// Name: the identifier; Op: the operator; Number: the source spelling;
    /// String: the value with escapes decoded (prefix and quotes removed).
    std::string text;
    ast::Span span;
    bool is_float = false;     ///< Number: a float literal (else an integer)
    uint64_t int_value = 0;    ///< Number: the integer value
    double float_value = 0.0;  ///< Number: the float value
    bool is_bytes = false;     ///< String: had a b/B prefix

    bool is_op(std::string_view op) const { return kind == TokenKind::Op && text == op; }
    bool is_keyword(std::string_view kw) const { return kind == TokenKind::Name && text == kw; }
};

/// Produces the tokens of a SourceFile one at a time. After ENDMARKER, next() keeps
/// returning ENDMARKER. The SourceFile must outlive the Lexer and must come from make_source.
class Lexer {
public:
    /// In `function_mode` the indentation of the first non-blank line is the base level
    /// (for a function's source cut out of an indented class or block).
    explicit Lexer(const ast::SourceFile& src, bool function_mode = false);

    /// The next token; throws treadle::Error (Syntax) on malformed input.
    Token next();

private:
    struct Bracket {
        char ch;
        int line, col;
    };

    char ch(size_t ahead = 0) const;
    void advance();
    int line() const { return (int)m_row + m_src.first_line; }
    int col() const { return (int)m_col + 1; }
    [[noreturn]] void fail(int line, int col, const std::string& message) const;

    void handle_line_start();
    Token end_of_file();
    Token make(TokenKind kind, std::string text, int line, int col);
    Token lex_name_or_string();
    Token lex_number();
    Token lex_string(size_t start_col, std::string_view prefix);
    void lex_escape(std::string& out, bool bytes);
    Token lex_operator();

    const ast::SourceFile& m_src;
    size_t m_row = 0, m_col = 0;  ///< current position: index into m_src.lines, byte in line
    bool m_function_mode;
    bool m_base_set = false;            ///< function mode: base indentation already taken
    bool m_at_line_start = true;        ///< the next char starts a logical line
    bool m_line_has_tokens = false;     ///< a token was produced since the last NEWLINE
    bool m_done = false;                ///< ENDMARKER already queued
    std::vector<int> m_indents{0};      ///< indentation stack (tabs to multiples of 8)
    std::vector<int> m_alt_indents{0};  ///< the same with tabs as 1 column, for TabError
    std::vector<Bracket> m_brackets;
    std::deque<Token> m_pending;  ///< INDENT/DEDENT/ENDMARKER tokens still to hand out
};

/// All tokens of `src` up to and including ENDMARKER (for tests and debugging).
std::vector<Token> tokenize(const ast::SourceFile& src, bool function_mode = false);

}  // namespace treadle::frontend
