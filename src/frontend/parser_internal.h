// src/frontend/parser_internal.h -- the Parser class shared by parser*.cpp (internal header)
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/ast.h"
#include "frontend/lexer.h"

namespace treadle::frontend::detail {

/// Most nesting units (expression recursion, postfix/operator chain length, elif chains)
/// a parse may use; bounds both the parser's recursion and the depth of the built tree.
constexpr int k_max_depth = 1000;
/// Most elif branches of one if statement (each nests the tree one level deeper).
constexpr size_t k_max_elifs = 900;

/// A recursive-descent parser over a Lexer with unbounded lookahead. One per parse.
class Parser {
public:
    Parser(std::shared_ptr<const ast::SourceFile> src, bool function_mode);

    /// Parses statements up to ENDMARKER.
    std::vector<ast::StmtPtr> parse_file();

    /// Throws a Syntax error at `at` (absolute line, original column).
    [[noreturn]] void fail(const ast::Span& at, const std::string& message);

private:
    /// Counts nesting units while alive; throws past k_max_depth.
    class DepthGuard {
    public:
        DepthGuard(Parser& parser, const ast::Span& at) : m_parser(parser) { bump(at); }
        ~DepthGuard() { m_parser.m_depth -= m_units; }
        DepthGuard(const DepthGuard&) = delete;
        DepthGuard& operator=(const DepthGuard&) = delete;
        /// One more unit (e.g. one more operand in a left-associative chain).
        void bump(const ast::Span& at);

    private:
        Parser& m_parser;
        int m_units = 0;
    };

    // --- token stream (parser.cpp) ---
    const Token& peek(size_t ahead = 0);
    Token take();
    /// Takes the next token and returns only its span (keeps recursive frames small).
    ast::Span skip();
    bool at_op(std::string_view op, size_t ahead = 0) { return peek(ahead).is_op(op); }
    bool at_keyword(std::string_view kw, size_t ahead = 0) { return peek(ahead).is_keyword(kw); }
    bool accept_op(std::string_view op);
    bool accept_keyword(std::string_view kw);
    /// Takes `op`, or fails with `message` at the current token.
    void expect_op(std::string_view op, const std::string& message);
    /// Takes a non-keyword NAME, or fails.
    Token expect_name();
    /// The span from the start of `first` to the end of the last real token taken.
    ast::Span span_from(const ast::Span& first) const;
    /// "invalid syntax" (or a more specific message) at an unexpected token, via
    /// fail_generic.
    [[noreturn]] void fail_unexpected(const Token& tok);
    /// Fails with a generic syntax error at `at`, unless tokenizing the rest of the file
    /// finds an unclosed bracket or string, which is reported instead (as Python does).
    [[noreturn]] void fail_generic(const ast::Span& at, const std::string& message);

    // --- statements (parser_stmt.cpp) ---
    void parse_statement(std::vector<ast::StmtPtr>& out);
    void parse_simple_statements(std::vector<ast::StmtPtr>& out);
    ast::StmtPtr parse_simple_statement();
    ast::StmtPtr parse_expression_statement();
    ast::StmtPtr parse_import();
    ast::StmtPtr parse_from_import();
    std::string parse_dotted_name();
    std::vector<ast::StmtPtr> parse_block(const std::string& what, int line);
    void expect_colon(bool condition);
    ast::StmtPtr parse_decorated();
    ast::StmtPtr parse_def(const ast::Span& start, std::vector<ast::ExprPtr> decorators);
    void parse_params(ast::Stmt& def);
    ast::StmtPtr parse_class(const ast::Span& start, std::vector<ast::ExprPtr> decorators);
    ast::StmtPtr parse_if();
    ast::StmtPtr parse_for();
    ast::StmtPtr parse_while();
    std::vector<ast::StmtPtr> parse_loop_body(const std::string& what, int line);
    std::vector<ast::StmtPtr> parse_else();

    // --- expressions (parser_expr.cpp) ---
    /// True when `tok` can start an expression (decides trailing commas and empty slices).
    static bool starts_expression(const Token& tok);
    /// `a, b` where a bare tuple is allowed (statement values, return, for iterables).
    ast::ExprPtr parse_star_expressions();
    /// A `for` target list: bitwise-or level expressions separated by commas.
    ast::ExprPtr parse_target_list();
    ast::ExprPtr parse_expression();  ///< ternary level
    ast::ExprPtr parse_disjunction();
    ast::ExprPtr parse_conjunction();
    ast::ExprPtr parse_inversion();
    ast::ExprPtr parse_comparison();
    /// Binary operators of precedence level >= min_level (1: | ... 6: * / // % @), by
    /// precedence climbing: one frame per operand rather than one per level.
    ast::ExprPtr parse_binary(int min_level);
    ast::ExprPtr parse_factor();
    ast::ExprPtr parse_power();
    ast::ExprPtr parse_primary();
    ast::ExprPtr parse_atom();
    ast::ExprPtr parse_leaf();  ///< names, numbers, strings, True/False/None
    ast::ExprPtr parse_strings();
    ast::ExprPtr parse_paren();
    ast::ExprPtr parse_list();
    /// `{a, b}` / `{k: v}`: parsed (as a List named "{}", keys and values in order) so that a
    /// wp.static() expression may hold one; sema rejects it anywhere else.
    ast::ExprPtr parse_display();
    void parse_call_args(ast::Expr& call);
    /// Fails with "Perhaps you forgot a comma?" when an element is followed by another.
    void check_missing_comma(const ast::Span& element);
    ast::ExprPtr parse_subscript_index();
    ast::ExprPtr parse_slice_item();

    std::shared_ptr<const ast::SourceFile> m_src;
    Lexer m_lexer;
    std::deque<Token> m_ahead;  ///< lookahead buffer; references stay valid on push
    int m_prev_end_line = 0;    ///< end of the last real token taken
    int m_prev_end_col = 0;
    int m_depth = 0;       ///< nesting units in use (see DepthGuard)
    int m_func_depth = 0;  ///< enclosing defs (for 'return' outside function)
    int m_loop_depth = 0;  ///< enclosing loops in the current def (break/continue)
};

/// Checks that `e` may be assigned to; `kind` is "assign" (also for targets), "aug" or "ann".
void check_target(Parser& parser, const ast::Expr& e, std::string_view kind);

}  // namespace treadle::frontend::detail
