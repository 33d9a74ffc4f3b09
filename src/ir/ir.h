// src/ir/ir.h -- the typed, structured, three-address IR of a kernel or function
//
// Key structures: `Function` owns its variables (`Var`, named by `VarId`) and its body, a
// `Block` of `Instr`. Every value an instruction produces is a fresh variable, so an adjoint
// can later be attached to each one; user variables that are re-bound in branches or loops
// are explicit mutable variables written by `Assign`. Control flow is structured: `If`,
// `ForRange` and `Loop` own nested blocks. Start reading at `Instr`, then sema/infer.cpp
// (which builds the IR) and codegen/emitter.cpp (which prints it as C++).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "builtins/builtins.h"
#include "frontend/ast.h"
#include "ir/instr_kinds.h"
#include "types/const_value.h"
#include "types/types.h"

namespace treadle::ir {

using VarId = uint32_t;

enum class InstrKind {
#define TREADLE_IR_ENUM(name, text) name,
    TREADLE_IR_INSTR_KINDS(TREADLE_IR_ENUM)
#undef TREADLE_IR_ENUM
};

/// Printed name of an instruction kind.
const char* instr_name(InstrKind kind);

/// The C++/CUDA text of a @wp.func_native function. `forward` is the body of the function;
/// `adjoint` the body of its adjoint, which sees every parameter, `adj_<param>` for each (a
/// reference for float values, the gradient array for arrays, a zeroed local otherwise) and
/// `adj_ret`; `replay` the body that recomputes it in a backward pass (unset: `forward`).
struct NativeSnippets {
    std::string forward;
    std::optional<std::string> adjoint;
    std::optional<std::string> replay;
};

/// A variable: a typed temporary or a mutable user variable.
struct Var {
    const types::Type* type = nullptr;
    std::string hint;       ///< the user's name when there is one (for readable output)
    bool mutable_ = false;  ///< written by Assign (merge/loop-carried) or a loop counter
    bool param = false;     ///< a function/kernel parameter
};

struct Function;
struct Instr;
using Block = std::vector<Instr>;

/// One IR instruction; see instr_kinds.h for how each kind uses the fields.
struct Instr {
    InstrKind kind;
    int line = 0;             ///< Python source line (for #line and error reports)
    int col = 0;              ///< column of the expression it comes from (0: not recorded)
    std::vector<VarId> dsts;  ///< results (most kinds have exactly one)
    std::vector<VarId> args;  ///< operands
    /// Call: the builtin it invokes; codegen spells its C++ name from the table entry and the
    /// result type (template arguments).
    const builtins::Builtin* builtin = nullptr;
    std::string callee;              ///< Compare: the C operator; Printf: "print" (bools as words)
    std::string text;                ///< Printf format
    types::ConstValue value;         ///< Const value, Shape dimension
    const Function* func = nullptr;  ///< CallFunc target
    Block body;                      ///< If then-block, loop body
    Block orelse;                    ///< If else-block

    Instr(InstrKind k, int l) : kind(k), line(l) {}
};

/// A kernel or user function in IR form.
struct Function {
    std::string name;    ///< Python name
    std::string c_name;  ///< unique C++ name in the generated source
    bool is_kernel = false;
    std::vector<VarId> params;  ///< parameter variables, in order
    std::vector<std::string> param_names;
    const types::Type* return_type = nullptr;  ///< void, a scalar/array, or a tuple (out-params)
    std::vector<Var> vars;
    Block body;
    int tid_arity = 0;  ///< kernels: number of indices wp.tid() unpacks (0 = unused)
    /// The user's @wp.func_grad / @wp.func_replay replacements (in the same program), or null.
    /// A custom gradient takes this function's parameters then the adjoint of its result and
    /// returns the gradients of its value-typed parameters, in order, as a tuple.
    const Function* custom_grad = nullptr;
    const Function* custom_replay = nullptr;
    bool grad_helper = false;  ///< a custom gradient/replay itself: no adjoint of its own
    /// Tile parameters the function updates in place (t += u, t[i] = v, tile_assign(t, ...)),
    /// by index: its result is followed by their final values (the return type is the tuple
    /// of the results and those), which the caller gives back to its arguments, as Warp's
    /// tiles passed by reference are.
    std::vector<int> inout_params;
    /// With inout_params: the function's own result type (void, a value, or a tuple), whose
    /// values come first in its results.
    const types::Type* own_return_type = nullptr;
    /// A @wp.func_native function: its body is this text (`body` stays empty; parameters are
    /// named by their Python names in it).
    std::shared_ptr<const NativeSnippets> native;
    std::shared_ptr<const ast::SourceFile> source;

    VarId new_var(const types::Type* type, std::string hint = "", bool is_mutable = false) {
        vars.push_back(Var{type, std::move(hint), is_mutable, false});
        return (VarId)(vars.size() - 1);
    }
    const types::Type* type_of(VarId v) const { return vars[v].type; }
};

/// A kernel with every user function it calls (callees first, in a deterministic order).
struct Program {
    std::vector<std::unique_ptr<Function>> functions;
    Function* kernel = nullptr;
    /// The block size tiles are built for (FunctionSource::tile_block_dim).
    int tile_block_dim = 1;
    /// Whether a variable of any function is a tile or a tile stack (the source then includes
    /// tile.h and is built for the block size).
    bool uses_tiles() const {
        for (const auto& f : functions)
            for (const Var& v : f->vars)
                if (v.type && (v.type->is_tile() || types::is_tile_stack(v.type))) return true;
        return false;
    }
};

/// The table entry of the builtin a Call invokes, or null (other kinds, C operators).
inline const builtins::Builtin* called_builtin(const Instr& in) {
    return in.kind == InstrKind::Call ? in.builtin : nullptr;
}

/// An atomic builtin on an array element (atomic_add(a, i..., v), ...): args[0] is the array.
inline bool is_atomic_call(const Instr& in) {
    const builtins::Builtin* b = called_builtin(in);
    return b && b->traits.atomic != builtins::AtomicOp::None;
}

/// A builtin that writes into its last argument, an array, and reads its other array
/// arguments (the table's writes_last_array trait). Its result is a dummy int32.
inline bool writes_last_array(const Instr& in) {
    const builtins::Builtin* b = called_builtin(in);
    return b && b->traits.writes_last_array;
}

/// A tile store or atomic add (the table's writes_first_array trait): args[0] is the array it
/// writes.
inline bool writes_first_array(const Instr& in) {
    const builtins::Builtin* b = called_builtin(in);
    return b && b->traits.writes_first_array;
}

/// A builtin that prints a message when a check fails (the table's prints trait): not
/// replayed in adjoints. Its result is a dummy int32.
inline bool prints_output(const Instr& in) {
    const builtins::Builtin* b = called_builtin(in);
    return b && b->traits.prints;
}

/// Where `f`'s Python line `line` is, for an error: its file, the line's text, and column
/// `col` (0: the line's first non-blank character). Empty when `f` has no source.
SourceLocation source_location(const Function& f, int line, int col = 0);

/// Human-readable IR (TREADLE_DEBUG_CODEGEN=1 and golden tests).
std::string print(const Function& f);
std::string print(const Program& p);

/// Checks structural invariants (operand counts, types, defined variables, breaks inside
/// loops); returns an empty string when the IR is valid, else a description of the problem.
std::string verify(const Function& f);

}  // namespace treadle::ir
