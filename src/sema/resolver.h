// src/sema/resolver.h -- how kernel code sees the names of its Python module (globals)
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "frontend/ast.h"
#include "ir/ir.h"
#include "types/const_value.h"
#include "types/types.h"

namespace treadle::sema {

class Resolver;

/// A user function (@wp.func) as the compiler sees it: its source and the resolver of its own
/// globals. `key` identifies the function across lookups (its qualified name plus an identity
/// from the front end), so it is parsed once per compilation.
struct FunctionSource {
    std::string key;
    std::string name;
    std::shared_ptr<const ast::SourceFile> source;
    std::shared_ptr<Resolver> resolver;
    bool is_kernel = false;  ///< a @wp.kernel: calling it from a kernel is an error
    /// Set when the function was already parsed as part of a module file; else the compiler
    /// parses `source` (a single def) itself.
    std::shared_ptr<const ast::Module> parsed;
    const ast::Stmt* def = nullptr;
    /// @wp.func_grad(f): computes f's adjoint in the backward pass instead of the generated one.
    std::shared_ptr<FunctionSource> custom_grad;
    /// @wp.func_replay(f): recomputes f's result in the backward pass's replay.
    std::shared_ptr<FunctionSource> custom_replay;
    /// In a custom gradient function: the number of leading parameters that are the primal
    /// function's (`wp.adjoint[p]` names their gradients); -1 elsewhere.
    int primal_params = -1;
    /// Several @wp.func definitions of one name (overloads by annotation), this one included,
    /// in definition order; empty for a single definition. A call picks one by argument types.
    std::vector<std::shared_ptr<FunctionSource>> overloads;
    /// A specialisation of a generic kernel: the concrete type of every parameter (each must
    /// fit its annotation, see generic_matches; null keeps a concrete annotation's type);
    /// empty for a kernel built from annotations.
    std::vector<const types::Type*> param_types;
    /// @wp.func_native: the C++/CUDA snippets that are the function's body (the Python def is
    /// a stub whose annotations give the types); null for a function written in Python.
    std::shared_ptr<const ir::NativeSnippets> native;
    /// Kernels: the largest trip count of a `for` over a constant range that is unrolled.
    int max_unroll = 16;
    /// Kernels: a debug build, in which `assert` statements are compiled (Warp's rule).
    bool debug = false;
    /// Kernels: the threads of a block that hold a tile together (1 on the CPU; the launch's
    /// block_dim on CUDA), which tile(x) and untile(t) give the shape of.
    int tile_block_dim = 1;
    /// Kernels: whether a backward pass may be built (Warp's enable_backward): builtins whose
    /// operands the backward pass cannot take (tile_matmul of bfloat16 tiles) refuse them.
    bool enable_backward = true;
};

/// What a global name means inside a kernel.
struct GlobalValue {
    enum class Kind {
        None,         ///< not found
        Module,       ///< a module: `module` is "treadle", "math", or an opaque handle
        Constant,     ///< a compile-time constant in `constant`
        Function,     ///< a user function or kernel in `function`
        Type,         ///< a type (an annotation such as float, wp.float64, wp.array(...))
        Builtin,      ///< a builtin of treadle imported by name; `what` is its name
        Unsupported,  ///< a Python object kernels cannot use; `what` names its Python type
        Error,        ///< the front end failed to evaluate it; `what` is its message
    };
    Kind kind = Kind::None;
    std::string module;
    types::ConstValue constant;
    std::shared_ptr<FunctionSource> function;
    const types::Type* type = nullptr;
    std::string what;  ///< Unsupported: the Python type; Builtin: the builtin's name
    /// Constant of a vector, matrix, quaternion or transform type (constant.type): its
    /// components, row-major (transforms: p then q).
    std::vector<double> components;
    /// Constant of a struct type (constant.type): one Constant per field, in field order.
    std::vector<GlobalValue> fields;
};

/// Looks up globals for the compiler. The Python front end implements it from a function's
/// __globals__ and closure cells; the C++ module loader from a module file's top level.
/// Called only from the compiling thread. Sema asks each distinct question once per build
/// (see sema/resolver_memo.h), so an implementation may be slow but must answer the same way for
/// the whole of one build.
class Resolver {
public:
    virtual ~Resolver() = default;
    /// What identifies the namespace this resolver answers for: resolvers of equal identity
    /// give equal answers, so a build asks only one of them (Python: the front end's object,
    /// shared by every FunctionSource of one function).
    virtual const void* identity() const { return this; }
    /// The meaning of a bare global name.
    virtual GlobalValue lookup(const std::string& name) = 0;
    /// The meaning of `name` as an attribute of a module that lookup() returned (other than
    /// "treadle" and "math", which the compiler knows itself).
    virtual GlobalValue attribute(const std::string& module, const std::string& name) {
        (void)module;
        (void)name;
        return {};
    }
    /// The already evaluated annotation of parameter `param` ("return": the return annotation)
    /// when the front end has one (Python evaluates annotations where the function is defined,
    /// so names visible only there, such as a factory function's arguments, work). A result of
    /// any kind other than Type means "evaluate the annotation's source instead".
    virtual GlobalValue annotation(const std::string& param) {
        (void)param;
        return {};
    }
    /// The value of the expression of a wp.static(`expression`) evaluated in the function's
    /// globals (and closure), with `indices` (the loop variables of enclosing unrolled loops)
    /// bound to those integers. None when the front end cannot evaluate static expressions;
    /// Error with the message of a failed evaluation.
    virtual GlobalValue static_value(const std::string& expression,
                                     const std::vector<std::pair<std::string, int64_t>>& indices) {
        (void)expression;
        (void)indices;
        return {};
    }
};

}  // namespace treadle::sema
