// src/sema/builtins.h -- the builtin table: the single source of truth for every builtin
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sema/types.h"

namespace treadle::sema {

/// The type of one call argument as overload resolution sees it. `weak` marks literals and
/// Python-number constants, which adopt the type of the other operands.
struct ArgInfo {
    const Type* type = nullptr;
    bool weak = false;
};

/// A resolved overload: the types the arguments are converted to, and the result.
struct Signature {
    std::vector<const Type*> params;
    const Type* ret = nullptr;
};

/// How inference handles a builtin. Regular builtins become one `Call` of `wp::<native>`;
/// the others are lowered by dedicated code in sema/infer_call.cpp.
enum class BuiltinKind {
    Regular,
    Operator,  ///< reached through Python operators only (`+` is add)
    Compare,   ///< comparison operators: a C operator on two same-typed scalars
    Tid,
    Print,
    Printf,
    Atomic,
    Cast,  ///< int(x), float(x), wp.float64(x), ...
    Len,
    Where,     ///< where(cond, a, b): both evaluated, one selected
    Identity,  ///< identity(n, dtype): a constant-size identity matrix
    Random,    ///< randi/randf/sample_*/poisson(state, ...): advance a local uint32 state;
               ///< the rule sees the arguments after the state
    /// A Regular builtin whose rule gives a tuple (svd3 -> (U, sigma, V)): one `Call` with a
    /// result per member, which the native function writes through trailing reference
    /// parameters. Also callable in Warp's out-argument form `svd3(A, U, sigma, V)`, which
    /// re-binds the local variables U, sigma, V (the rule is applied to the inputs only).
    Multi,
};

/// Resolves argument types to a signature, or nullopt when no overload accepts them.
using TypeRule = std::optional<Signature> (*)(const std::vector<ArgInfo>& args);

/// One builtin. The table is ordered by group; lookup is by name.
struct Builtin {
    const char* name;    ///< name in kernels (`wp.<name>` or an operator's name)
    const char* native;  ///< C++ function in namespace wp (adjoint: adj_<native>)
    BuiltinKind kind;
    const char* group;      ///< documentation group
    const char* signature;  ///< documented signature, also quoted in errors
    const char* doc;
    bool differentiable;
    TypeRule rule;  ///< null for kinds lowered by dedicated code
};

/// Whether a call of `b` can re-bind local variables passed as arguments (the generator state
/// of a Random builtin, the out-arguments of a Multi builtin): loops treat those names as
/// assigned in their body.
bool builtin_writes_arguments(const Builtin& b);

/// The whole table, in documentation order.
const std::vector<Builtin>& builtin_table();
/// The builtin called `name` in kernel code (operators are not found here), or null.
const Builtin* find_builtin(std::string_view name);
/// The operator builtin `name` ("add", "floordiv", "neg", ...).
const Builtin* find_operator(std::string_view name);

/// The common type of `args` under the weak-literal rules, or nullptr when they conflict.
/// `want_float` turns all-weak integer arguments into float32 (for float-only builtins).
const Type* unify_scalars(const std::vector<ArgInfo>& args, bool want_float = false);

/// "(float32, int literal)" for error messages.
std::string describe_args(const std::vector<ArgInfo>& args);

}  // namespace treadle::sema
