// src/frontend/ast_dump.h -- compact text rendering of the AST for debug output and tests
#pragma once

#include <string>

#include "frontend/ast.h"

namespace treadle::ast {

/// One line, e.g. "BinOp(+, Name(a), Call(Name(f), Int(1), k=Str(\"s\")))". Constants print
/// as Int(..), Float(..), Str("..") (escaped), True, False, None; a missing slice part as _.
std::string dump(const Expr& e);

/// The statement and its nested bodies, one statement per line, each line indented by
/// two spaces per level starting at `indent`, each ending with '\n'.
std::string dump(const Stmt& s, int indent = 0);

/// All statements of the module, as dump(Stmt).
std::string dump(const Module& m);

/// "line:col-end_line:end_col".
std::string dump(const Span& span);

}  // namespace treadle::ast
