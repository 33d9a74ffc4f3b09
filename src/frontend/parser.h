// src/frontend/parser.h -- entry points of the parser for the kernel subset of Python
#pragma once

#include <memory>

#include "frontend/ast.h"

namespace treadle::frontend {

/// Parses a whole module file (imports, top-level constants, @decorated defs and classes).
/// Throws treadle::Error (kind Syntax) with the file, line, column and line text on
/// malformed input, or on Python constructs outside the kernel subset (lambda,
/// comprehensions, dict/set displays, try/with/raise/del, f-strings, *args, ...).
std::unique_ptr<ast::Module> parse_module(std::shared_ptr<const ast::SourceFile> src);

/// Parses the source of ONE function (as returned by Python's inspect.getsource: maybe
/// indented as a whole, maybe with decorators). Returns a Module whose body holds the def.
/// The indentation of the first non-blank line is the base level; spans keep the original
/// columns and absolute lines (src->first_line is the line of the text's first line).
std::unique_ptr<ast::Module> parse_function(std::shared_ptr<const ast::SourceFile> src);

}  // namespace treadle::frontend
