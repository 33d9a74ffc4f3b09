// src/codegen/function_emitter.h -- the statement walk shared by forward and adjoint emission
//
// Internal to codegen/. FunctionEmitter prints a function's IR as C++ statements. The adjoint
// emitter (adjoint.cpp) uses the same walk in replay mode: side effects (array stores, atomics,
// printing) are left out, user functions are called through their replay variants, and
// ReplayHooks turn returns, breaks and continues into jumps into the reverse code and count
// loop trips.
#pragma once

#include <string>

#include "codegen/emitter.h"
#include "common/text.h"
#include "passes/adjoint_plan.h"

namespace treadle::codegen {

/// How the adjoint emitter steers a replay of the forward code.
class ReplayHooks {
public:
    virtual ~ReplayHooks() = default;
    /// A Return, Break, Continue or Assign in the replay: true when the hook printed it (a jump
    /// into the reverse code; an assignment that first saves the overwritten value).
    virtual bool intercept(const ir::Instr& in, int depth) = 0;
    /// Printed before a ForRange/Loop starts (saves loop-carried values, zeroes the trip count).
    virtual void loop_entry(const ir::Instr& loop, int depth) = 0;
    /// Printed first in each iteration of the loop (counts the trip).
    virtual void iteration_start(const ir::Instr& loop, int depth) = 0;
    /// Called after the loop's text is printed (no output).
    virtual void loop_exit(const ir::Instr& loop) = 0;
};

/// Name of the side-effect-free variant of a user function (adjoint builds only).
inline std::string replay_name(const ir::Function& f) { return f.c_name + "_replay"; }
/// Name of a user function's adjoint.
inline std::string adjoint_name(const ir::Function& f) { return "adj_" + f.c_name; }

/// The C++ function (in namespace wp) a Call of `f` invokes: the builtin's native name with the
/// template arguments its table entry takes from the result type ("vec_fill<3, float>").
std::string native_callee(const ir::Function& f, const ir::Instr& in);

/// tile_map's element builtin (the name its Call's `text` holds), and one operand of the
/// element call: `var.data[k_]` for a tile, `var` for a value every element sees.
const builtins::Builtin& mapped_builtin(const ir::Instr& in);
std::string tile_map_operand(const std::string& var, const types::Type* t);

/// A C string literal for `s`.
std::string c_string(const std::string& s);
/// ".a.b_" for the field path "a.b" of a StoreField (C++ member names).
std::string field_path(const std::string& dotted);
/// The C++ name of variable `v` of `f` ("v12_x"; "v3" when the variable has no user name).
std::string var_name(const ir::Function& f, ir::VarId v);

/// Prints the statements of one function. With `replay` set, prints the replay form.
class FunctionEmitter {
public:
    /// With `verify_fp` (forward code only), every store of a float-valued array element is
    /// followed by wp::verify_fp_store (native/treadle/verify_fp.h).
    FunctionEmitter(const ir::Function& f, Text& out, bool checked, ReplayHooks* replay = nullptr,
                    bool verify_fp = false)
        : m_f(f), m_out(out), m_checked(checked), m_replay(replay), m_verify_fp(verify_fp) {}

    /// Deterministic counter kernels (CUDA): every store, array-writing builtin and print
    /// runs only where wp::det_effects() (not in the counting pass, det_record.h).
    void guard_effects(bool on) { m_guard_effects = on; }
    /// The C++ name of variable `v` ("v12_x").
    std::string var(ir::VarId v) const;
    /// Declares every non-parameter variable (value-initialised).
    void declarations(int depth);
    void block(const ir::Block& b, int depth);
    void instr(const ir::Instr& in, int depth);
    /// `args[from, to)` as a comma-separated list of variable names.
    std::string args(const ir::Instr& in, size_t from = 0, size_t to = (size_t)-1) const;
    void indent(int depth);
    void line_directive(int line);
    /// Forgets the last #line so the next statement prints one again.
    void reset_line() { m_line = -1; }

private:
    std::string check_site(const ir::Instr& in) const;
    std::string element_address(const ir::Instr& in, size_t n) const;
    /// A View with a slice spec (`text`) as nested wp::select_dim / wp::slice_dim calls.
    std::string slice_view(const ir::Instr& in) const;
    // One printer per instruction group; instr() dispatches every kind to one of them.
    /// Const, Copy, Assign, Construct, Field, WithField, Cast, Compare, Logical, Select.
    void value(const ir::Instr& in, const std::string& dst);
    void construct(const ir::Instr& in, const std::string& dst);
    /// A builtin Call (atomics on an element, several results, replays of both).
    void call(const ir::Instr& in, const std::string& dst);
    /// tile_map(f, a, ...): a loop over the thread's slots calling f on the elements.
    void tile_map(const ir::Instr& in, const std::string& dst);
    /// tile_reduce(f, a[, axis]): wp::tile_reduce_with with a lambda calling f.
    void tile_reduce(const ir::Instr& in, const std::string& dst);
    /// The function a tile_map / tile_reduce applies to elements (a builtin's wp:: name, or a
    /// user function's, its replay in replays).
    std::string element_callee(const ir::Instr& in) const;
    /// A CallFunc of a user function (its replay variant in a replay).
    void call_function(const ir::Instr& in, const std::string& dst);
    /// A Grad: the callee's adjoint called with the result's adjoint `value`, forward code too.
    void gradient(const ir::Instr& in, int depth);
    void tid(const ir::Instr& in, const std::string& dst);
    /// Load, Store, StoreField, View, Shape: array elements and views.
    void memory(const ir::Instr& in, const std::string& dst, int depth);
    /// Print, Printf.
    void print(const ir::Instr& in);
    /// If, Break, Continue, Return (loops are printed by loop()).
    void control(const ir::Instr& in, int depth);
    /// verify_fp: checks `value`, just stored at element args[0][args[1..n)].
    void verify_store(const ir::Instr& in, size_t n, const std::string& value, int depth);
    void loop(const ir::Instr& in, int depth);

    const ir::Function& m_f;
    Text& m_out;
    bool m_checked;
    ReplayHooks* m_replay;
    bool m_verify_fp = false;
    bool m_guard_effects = false;
    int m_line = -1;
};

/// Prints user function `f`: the forward version, or with `replay` its replay variant.
/// With `det_guards`, its stores and prints are guarded as guard_effects() says.
void emit_function(const ir::Function& f, const Backend& backend, Text& out, bool checked,
                   ReplayHooks* replay, bool verify_fp = false, bool det_guards = false);
/// The opening of a kernel body function `body` up to the parameter copies.
std::string kernel_body_header(const ir::Function& k, const Backend& backend,
                               const std::string& params, const std::string& body);

// --- native_function.cpp ---
/// Prints @wp.func_native function `f`: its snippet as the body of the forward function, or
/// with `replay` of its replay variant (the replay snippet when there is one).
void emit_native_function(const ir::Function& f, const Backend& backend, Text& out, bool replay);
/// Prints the adjoint `adj_<c_name>` of the @wp.func_native function `plan` was made from: its
/// adjoint snippet (an empty body when it has none).
void emit_native_adjoint(const passes::AdjointPlan& plan, const Backend& backend, Text& out);

// --- adjoint.cpp ---
/// wp::add and wp::grad_accumulate for struct `t` (field by field; array fields are kept /
/// skipped), which adjoint code uses on struct values and gradients.
void emit_struct_gradient_ops(const types::Type* t, Text& out);
/// Prints the replay variant and, unless it is a func_grad/func_replay helper, the adjoint
/// `adj_<c_name>` of the user function `plan` was made from.
void emit_function_adjoint(const passes::AdjointPlan& plan, const Backend& backend, Text& out,
                           bool checked);
/// Prints the adjoint body `body` of the kernel `plan` was made from (same signature as the
/// forward body).
void emit_kernel_adjoint(const passes::AdjointPlan& plan, const Backend& backend, Text& out,
                         bool checked, const std::string& params, const std::string& body);

}  // namespace treadle::codegen
