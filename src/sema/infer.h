// src/sema/infer.h -- type inference: turns a kernel's AST into typed IR
#pragma once

#include <memory>

#include "ir/ir.h"
#include "sema/resolver.h"

namespace treadle::sema {

/// Builds the typed IR of `kernel` and of every user function it calls (each specialised
/// for the argument types it is called with). Throws treadle::Error (Syntax or Type) with the
/// Python file, line and column of the offending code.
std::unique_ptr<ir::Program> build_program(const FunctionSource& kernel);

/// Parses a FunctionSource that holds a single def (the text cut out by the Python front end)
/// and returns the def; the returned module keeps it alive.
std::shared_ptr<const ast::Module> parse_function_source(const FunctionSource& fn,
                                                         const ast::Stmt** def);

}  // namespace treadle::sema
