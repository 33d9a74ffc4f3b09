// src/sema/infer_internal.h -- shared state of the inference files (infer_*.cpp), not public
//
// Key structures: `Builder` builds one ir::Function from one def; `Value` is what an
// expression evaluates to before it is materialised (a variable, a not-yet-typed constant,
// a module, a type, a function, a tuple...); `Scope` maps user names to variables.
// Start reading at build_program() and Builder::build in infer.cpp, then infer_stmt.cpp
// (statements by kind) and infer_expr.cpp (expressions by kind). Each infer_<area>.cpp holds
// one area, named in the sections of Builder below.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "builtins/builtins.h"
#include "ir/ir.h"
#include "sema/infer.h"
#include "sema/resolver_memo.h"

namespace treadle::sema {

// The builtin table's vocabulary, which every inference file speaks.
using builtins::ArgInfo;
using builtins::Builtin;
using builtins::BuiltinKind;
using builtins::describe_args;
using builtins::find_builtin;
using builtins::find_operator;
using builtins::find_syntax_operator;
using builtins::table_entry;
using builtins::unify_scalars;

/// The result of evaluating an expression.
struct Value {
    /// Grad: what wp.grad(f) returns, the gradient of the function `func` or builtin `builtin`.
    enum class Kind { Var, Const, Str, Module, Type, Func, Builtin, Grad, Tuple, Shape, None };
    Kind kind = Kind::None;
    ir::VarId var = 0;                     ///< Var, Shape (the array)
    types::ConstValue constant;            ///< Const (unmaterialised; weak or typed)
    std::string text;                      ///< Str, Module
    const types::Type* type = nullptr;     ///< Type
    std::shared_ptr<FunctionSource> func;  ///< Func, Grad (of a user function)
    const Builtin* builtin = nullptr;      ///< Builtin, Grad (of a builtin)
    std::vector<Value> elements;           ///< Tuple
};

/// A Value of kind Var holding `v`.
inline Value var_value(ir::VarId v) {
    Value r;
    r.kind = Value::Kind::Var;
    r.var = v;
    return r;
}

using Scope = std::map<std::string, ir::VarId>;

struct LenOfLocal;

struct ProgramBuilder;

/// Compile budget of one program: the most unrolled copies of loop bodies, over all loops.
constexpr int64_t k_unroll_copy_budget = 1 << 12;
/// Compile budget of one program: the most IR instructions (the generated source grows with
/// them), checked as loops unroll.
constexpr int64_t k_instruction_budget = 1 << 15;

/// Builds one ir::Function (a kernel, or a user function specialised to argument types).
class Builder {
public:
    Builder(ProgramBuilder& program, const FunctionSource& source, const ast::Stmt& def,
            ir::Function& out);

    /// Builds the kernel, or the function with the given parameter types.
    void build(const std::vector<const types::Type*>& param_types);
    /// The body of a @wp.func_grad function (FunctionSource::primal_params >= 0).
    void build_custom_grad();
    /// The tile parameters the body updates in place (ir::Function::inout_params).
    void find_inout_params();
    /// `t[i, j] += v` (or -=) on a tile local: every thread's v accumulated into the element;
    /// false when `written` is not an element of a tile.
    bool tile_element_accumulate(const ast::Stmt& s, const ast::Expr& written);
    /// The current values of the inout parameters (their names' bindings), in order.
    std::vector<ir::VarId> inout_values();
    /// The parameters and result of a @wp.func_native stub (its body is the native snippet).
    void build_native();
    /// The type of kernel parameter `i` annotated `annotated`: the specialisation's type
    /// (FunctionSource::param_types), which must fit a generic annotation, or the annotation.
    const types::Type* kernel_param_type(size_t i, const types::Type* annotated);
    /// A variable holding the zero value of value type `t`.
    ir::VarId zero_of(const types::Type* t, int line);
    /// For `wp.adjoint[name]` (in a func_grad function): the scope name of that gradient,
    /// "adjoint:<name>"; "" when `e` is not such an expression.
    std::string adjoint_slot(const ast::Expr& e);
    /// `e` with every `wp.adjoint[p.field...]` / `wp.adjoint[p.field][k]` (a part of the
    /// gradient of value parameter p, in a func_grad) spelled as that part of the local
    /// "adjoint:<p>", so reads and writes of it take the ordinary paths; null when `e` has none.
    ast::ExprPtr adjoint_parts(const ast::Expr& e);

    // --- errors ---
    [[noreturn]] void fail(const ast::Span& span, ErrorKind kind, const std::string& msg) const;
    [[noreturn]] void type_error(const ast::Span& span, const std::string& msg) const {
        fail(span, ErrorKind::Type, msg);
    }
    /// "name(): " prefix of messages about the function being built.
    std::string who() const { return m_fn.name + "(): "; }

    // --- emission (infer.cpp) ---
    ir::Instr& emit(ir::InstrKind kind, int line);
    ir::VarId emit_value(ir::InstrKind kind, int line, const types::Type* type,
                         std::vector<ir::VarId> args, std::string callee = "");
    /// A Call of builtin `b` with one result; codegen spells its C++ name from the entry.
    ir::VarId emit_call(int line, const types::Type* type, std::vector<ir::VarId> args,
                        const Builtin& b);
    ir::Block* current_block() { return m_block; }
    void set_block(ir::Block* block) { m_block = block; }

    // --- values (infer_expr.cpp) ---
    /// The value of expression `e`: dispatches by kind to the functions below and to the
    /// subscript, operator and call files.
    Value eval(const ast::Expr& e);
    /// A literal: ints and floats are weak (int64 past int32, uint64 past int64).
    Value eval_constant(const ast::Expr& e);
    /// `a if c else b`: both sides in the branches of an If, merged into one variable.
    Value eval_if_exp(const ast::Expr& e);
    /// ArgInfo of a materialisable value; fails for modules, types, ...
    ArgInfo arg_info(const Value& v, const ast::Expr& e);
    /// The value as a variable of type `t` (constants are emitted with that type).
    ir::VarId coerce(const Value& v, const types::Type* t, const ast::Expr& e);
    /// The value as a variable of its natural type (weak int -> int32, weak float -> float32).
    ir::VarId materialize(const Value& v, const ast::Expr& e);
    /// A boolean variable for a condition (scalars compare against zero; an array is true
    /// unless it is None).
    ir::VarId condition(const ast::Expr& e);
    /// condition() of the already evaluated `v`.
    ir::VarId condition_of(const Value& v, const ast::Expr& e);
    /// The truth of a constant (a literal, a global constant, wp.static()): conditions on one
    /// are decided at compile time, as in Warp; nullopt for anything else.
    static std::optional<bool> constant_truth(const Value& v);
    /// A (strong) bool constant.
    static Value bool_constant(bool truth);
    Value resolve_name(const std::string& name, const ast::Expr& e);
    /// The value of a global (composite constants are emitted as a construction at `e`).
    Value global_value(const GlobalValue& g, const ast::Expr& e);
    Value resolve_attribute(const Value& base, const ast::Expr& e);
    /// The type an annotation names; a generic one (typing.Any, wp.Float, array(dtype=Any))
    /// is an error unless `allow_generic` (parameters).
    const types::Type* eval_annotation(const ast::Expr& e, bool allow_generic = false);
    const types::Type* eval_annotation_type(const ast::Expr& e);
    /// The type of parameter `name` annotated by `e` ("return" for the return annotation):
    /// the front end's evaluated annotation when it has one, else eval_annotation(e).
    const types::Type* param_annotation(const std::string& name, const ast::Expr& e);
    /// vector(length, dtype) / matrix(shape, dtype) in an annotation or type position.
    const types::Type* eval_math_type(const std::string& kind, const ast::Expr& e);
    /// The vector ("vector": `size` a constant length) or matrix (a constant (rows, cols)
    /// tuple) type of `scalar`; a type error for sizes out of range.
    const types::Type* sized_math_type(const std::string& kind, const ast::Expr& size,
                                       ScalarType scalar);
    ir::VarId emit_const(const types::ConstValue& c, const types::Type* t, int line);

    // --- subscripts (infer_index.cpp) ---
    /// `base[index]`: dispatches on what `base` evaluates to.
    Value eval_subscript(const ast::Expr& e);
    /// `a.shape[k]` with a constant k.
    Value index_shape(ir::VarId array, const ast::Expr& e);
    /// An element of a tuple value, by constant index.
    Value index_tuple(const Value& tuple, const ast::Expr& e);
    /// `v[i]`, `m[i]` (a row), `m[i, j]` of the vector, quaternion or matrix `base`.
    Value index_component(ir::VarId base, const std::vector<const ast::Expr*>& idx,
                          const ast::Expr& e);
    /// `a[i, ...]`: a Load with every index, a View with fewer.
    Value index_array(ir::VarId array, const std::vector<const ast::Expr*>& idx,
                      const ast::Expr& e);
    /// `a[i, j:k:s, ...]` of a plain array with at least one slice: a View whose `text` spells
    /// each index ('i' an integer; 's' and a digit, a slice with bits 1/2/4 for a given
    /// start/stop/step, taking three operands), of the dimensions the slices keep.
    Value slice_array(ir::VarId array, const std::vector<const ast::Expr*>& idx,
                      const ast::Expr& e);
    /// The indices of a subscript: the elements of `a[i, j]`'s tuple, or the one index.
    static std::vector<const ast::Expr*> index_exprs(const ast::Expr& index);
    /// One array index as an int32 variable (int64, uint64 and uint32 ones keep their type, so
    /// that checked mode sees their whole value); `what` starts the error message for a
    /// non-integer ("k(): array index ").
    ir::VarId index_operand(const ast::Expr& e, const std::string& what);
    /// An evaluated index as an int32 variable (keep_wide: as index_operand does).
    ir::VarId index_value(const Value& iv, const ast::Expr& e, const std::string& what,
                          bool keep_wide = false);
    /// An index into a component of a composite `t` of `bound` components (rows or columns):
    /// a constant one must be in [-bound, bound) and counts from the end when negative.
    ir::VarId component_operand(const ast::Expr& e, int64_t bound, const types::Type* t);

    // --- slices of composites (infer_slice.cpp) ---
    /// One axis of a composite subscript: the constant positions a slice selects (an axis a
    /// subscript leaves out selects all), or the index variable of a plain index.
    struct SliceAxis {
        bool sliced = false;
        std::vector<int64_t> positions;
        ir::VarId index = 0;
    };
    /// Whether any of the indices is a slice.
    static bool has_slice(const std::vector<const ast::Expr*>& idx);
    /// The positions the constant slice `slice` selects of `n` components (Python's rules).
    std::vector<int64_t> slice_positions(const ast::Expr& slice, int64_t n);
    /// The axes of the subscript `idx` of the composite `base` (a vector's one, a matrix's two).
    std::vector<SliceAxis> slice_axes(ir::VarId base, const std::vector<const ast::Expr*>& idx,
                                      const ast::Expr& e);
    /// The type a slice of `t` has: a vector for one sliced axis, else a matrix (0x0 if empty).
    static const types::Type* slice_type(const types::Type* t, const std::vector<SliceAxis>& axes);
    /// Calls `f` with the index variables of each selected element, in row-major order.
    void for_each_slice_element(const std::vector<SliceAxis>& axes, int line,
                                const std::function<void(const std::vector<ir::VarId>&)>& f);
    /// `v[a:b]`, `m[a:b, c]`, ...: the selected components as a new vector or matrix.
    Value index_slice(ir::VarId base, const std::vector<const ast::Expr*>& idx, const ast::Expr& e);
    /// `v[a:b] = w`: each selected component of `base` replaced by the next of `v` (which must
    /// have the slice's shape and scalar), then written back.
    void assign_slice(const ast::Expr& target, ir::VarId base, const Value& v,
                      const ast::Expr& value_expr);

    // --- operators (infer_operator.cpp) ---
    /// The operator builtin `op_name` ("add") applied to `a` and `b`, spelled `op_text` ("+")
    /// in errors; two weak constants fold into one.
    Value binary(const std::string& op_name, const char* op_text, const Value& a, const Value& b,
                 const ast::Expr& ea, const ast::Expr& eb, const ast::Expr& at);
    Value eval_binary(const ast::Expr& e);
    /// `-x`, `+x`, `~x` (constants fold, except `~`) and `not x`.
    Value eval_unary(const ast::Expr& e);
    /// `a and b`, `a or b`: a bool; each operand is evaluated, as a condition, only when the
    /// ones before it leave the result open (Python's short circuit; constant operands decide
    /// at compile time).
    Value eval_bool_op(const ast::Expr& e);
    /// A comparison chain `a < b <= c`: each pair compared, the results and-ed.
    Value eval_compare(const ast::Expr& e);

    // --- calls (infer_call.cpp) ---
    Value call(const ast::Expr& e);
    // --- starred call arguments (infer_starred.cpp) ---
    /// The call `e` with every `*x` positional argument replaced by the elements of x (a
    /// vector, quaternion, matrix's rows, tuple, or a constant slice of one or of an array), as
    /// a new node that lives as long as the builder; null when `e` has no starred argument.
    /// Names it binds for the expansion are appended to `hidden` (the caller unbinds them).
    const ast::Expr* expand_starred(const ast::Expr& e, std::vector<std::string>& hidden);
    void expand_starred_arg(const ast::Expr& arg, std::vector<ast::ExprPtr>& out,
                            std::vector<std::string>& hidden);
    /// The constant integer of slice bound `e` (null: `fallback`).
    int64_t slice_bound(const ast::Expr* e, int64_t fallback);
    /// The call `e` of builtin `b` with its keyword arguments moved to the positions of the
    /// signature's parameters of those names (a node that lives as long as the builder); fails
    /// for an unknown or repeated name and for a parameter left out before a given one.
    const ast::Expr& keywords_as_positional(const Builtin& b, const ast::Expr& e);
    /// A call of builtin `b`: dispatches on its kind to the lowering below or to call_by_rule.
    Value call_builtin(const Builtin& b, const ast::Expr& e);
    /// wp.add(a, b), wp.neg(x): an operator called by name.
    Value call_operator(const Builtin& b, const ast::Expr& e);
    /// identity(n, dtype), quat_identity(dtype), transform_identity(dtype).
    Value call_identity(const Builtin& b, const ast::Expr& e);
    /// print(...) (composites as their components) and printf(fmt, ...): one Printf.
    void check_printf(const ast::Expr& e, const std::vector<ir::VarId>& args);
    Value call_print(const Builtin& b, const ast::Expr& e);
    /// A Random builtin: advances the local uint32 state named by its first argument.
    Value call_random(const Builtin& b, const ast::Expr& e);
    /// A QueryNext builtin: advances the local query and index its first two arguments name
    /// (infer_query.cpp).
    Value call_query_next(const Builtin& b, const ast::Expr& e);
    /// `for i in <query>`: a loop over a geometry query's results (infer_query.cpp); false
    /// when the loop iterates over range(...) or reversed(...), which are not queries.
    bool query_loop(const ast::Stmt& s);
    Value call_where(const ast::Expr& e);
    Value call_len(const ast::Expr& e);
    /// atomic_add(a, i..., value) and the other atomics on an array element.
    Value call_atomic(const Builtin& b, const ast::Expr& e);
    void check_atomic_scalar(const Builtin& b, const types::Type* dtype,
                             const ast::Span& span) const;
    Value emit_tid(int arity, const ast::Expr& e);
    /// Appends the printf format of variable `v` to `fmt` and its scalars to `args`: vectors,
    /// matrices and quaternions as [..] lists, transforms as transform(p=.., q=..), structs as
    /// Name(field=..) (array fields as "array").
    void format_value(ir::VarId v, std::string& fmt, std::vector<ir::VarId>& args, int line);

    // --- tiles (infer_tile.cpp) ---
    /// A BuiltinKind::Tile builtin (tile_load(a, shape=..., offset=...), tile_zeros, ...):
    /// arguments matched to its parameters, constants made into the result type.
    Value call_tile(const Builtin& b, const ast::Expr& e);
    /// The argument named `param` of builtin `fn`'s call `e`; fails when it was not given.
    const ast::Expr& tile_needed(const std::map<std::string, const ast::Expr*>& named,
                                 const std::string& fn, const char* param,
                                 const ast::Expr& e) const;
    /// tile_reshape(t, shape) and tile_squeeze(t[, axis]): the same elements in another shape.
    Value tile_reshape(const Builtin& b, const std::map<std::string, const ast::Expr*>& named,
                       const ast::Expr& e);
    /// tile_zeros, tile_empty, tile_ones and tile_full: a tile of one value.
    Value tile_filled(const Builtin& b, const std::map<std::string, const ast::Expr*>& named,
                      const ast::Expr& e);
    /// tile_load(a, shape, offset), tile_store(a, t, offset) and tile_atomic_add(a, t, offset).
    Value tile_memory(const Builtin& b, const std::map<std::string, const ast::Expr*>& named,
                      const ast::Expr& e);
    /// tile(x): one value a thread as a tile of the block; untile(t): the reverse.
    Value tile_of_thread(const Builtin& b, const std::map<std::string, const ast::Expr*>& named,
                         const ast::Expr& e);
    /// tile_dot(a, b) (one element) and tile_axpy(alpha, src, dest) (re-binds dest).
    Value tile_dot_axpy(const Builtin& b, const std::map<std::string, const ast::Expr*>& named,
                        const ast::Expr& e);
    /// tile_view(t, offset[, shape]): a window of t (offsets may be slices).
    Value tile_view(const Builtin& b, const std::map<std::string, const ast::Expr*>& named,
                    const ast::Expr& e);
    /// A tile shape: a constant int or tuple of 1 to 4 constant ints, each at least 1.
    std::vector<int> tile_shape(const ast::Expr& x, const std::string& fn);
    /// The vector of `ndim` int32 coordinates `x` gives (an int or a tuple; null: all zero).
    ir::VarId tile_coordinates(const ast::Expr* x, int ndim, const char* what,
                               const std::string& fn, int line);
    /// Fails unless atomics can add the elements of tile type `tt` (not bool, 8- or 16-bit
    /// integers).
    void check_tile_atomic(const types::Type* tt, const ast::Expr& x, const std::string& fn);
    /// A plain array of values (what tiles load from and store to).
    ir::VarId tile_array(const ast::Expr& x, const std::string& fn);
    /// A tile operand.
    ir::VarId tile_operand(const ast::Expr& x, const std::string& fn);
    /// tile_arange(stop), (start, stop), (start, stop, step): constants.
    Value tile_arange(const Builtin& b, const std::vector<const ast::Expr*>& range,
                      const ast::Expr* dtype, const ast::Expr& e);
    /// tile_matmul(a, b[, alpha]) and the form tile_matmul(a, b, out, alpha, beta) that
    /// re-binds `out`.
    Value tile_matmul(const Builtin& b, const std::map<std::string, const ast::Expr*>& named,
                      const ast::Expr& e);
    /// The function a tile_map or tile_reduce applies to elements of `types`: a builtin
    /// whose rule takes exactly those types, or a user function specialised to them.
    struct TileOp {
        const Builtin* builtin = nullptr;
        ir::Function* func = nullptr;
        const types::Type* ret = nullptr;
    };
    TileOp tile_element_op(const ast::Expr& op_expr, const std::vector<const types::Type*>& types,
                           const std::vector<const ast::Expr*>& exprs, const std::string& fn);
    /// tile_map(f, a, ...): f (a builtin, in the Call's `text`, or a user function, its
    /// `func`) applied to the elements of tiles of one shape (and to values every element sees).
    Value tile_map(const Builtin& b, const ast::Expr& e);
    /// tile_sum(a[, axis]) (`op_expr` null) and tile_reduce(op, a[, axis]): the whole tile
    /// into one element, or along a constant axis.
    Value tile_reduce(const Builtin& b, const ast::Expr* op_expr, const ast::Expr& tile_expr,
                      const ast::Expr* axis_expr, const ast::Expr& e);
    /// What a subscript of a tile selects: per dimension a base (a run-time index, or a slice's
    /// constant start) and a step (0 for an index, which drops the dimension); `shape` holds
    /// the extents of the dimensions that stay (empty: one element).
    struct TileSelection {
        ir::VarId base = 0, step = 0;
        std::vector<int> shape;
        bool strided = false;  ///< a slice steps by other than 1 (t[::2], t[::-1])
    };
    /// `values` (when given) holds the already evaluated entries of `idx` that are not slices.
    TileSelection tile_selection(ir::VarId tile, const std::vector<const ast::Expr*>& idx,
                                 const ast::Expr& e, const std::vector<Value>* values = nullptr);
    /// `t[i, j] = v`: the tile local re-bound to the tile with that element replaced.
    void assign_tile_element(const ast::Expr& target, ir::VarId tile, const Value& v,
                             const ast::Expr& value_expr);
    /// tile_cholesky[_inplace], tile_cholesky_solve[_inplace], tile_lower/upper_solve[_inplace],
    /// tile_diag_add: square float matrices and (N,) or (N, M) right-hand sides.
    Value tile_linalg(const Builtin& b, const std::map<std::string, const ast::Expr*>& named,
                      const ast::Expr& e);
    /// tile_stack and its operations, tile_sort, tile_randi / tile_randf, tile_from_thread and
    /// the scatters (infer_tile_block.cpp); `rest` holds the positional arguments past a
    /// variadic parameter.
    Value tile_block_call(const Builtin& b, const std::map<std::string, const ast::Expr*>& named,
                          const std::vector<const ast::Expr*>& rest, const ast::Expr& e);
    /// A tile stack operand (a local from tile_stack, or a parameter of that type).
    ir::VarId tile_stack_operand(const ast::Expr& x, const std::string& fn);
    /// tile_view(t, offset=(slice(0, -1, 1), ...)): the view the subscript with those slices
    /// would give, or nullopt when `offset` holds no slice() call.
    std::optional<Value> tile_view_of_slices(ir::VarId t, const ast::Expr& parent,
                                             const ast::Expr& offset, const ast::Expr* shape,
                                             const ast::Expr& e);
    /// Records that `view` is a view of the local tile `parent` names (see m_tile_views).
    void note_tile_view(ir::VarId view, const ast::Expr& parent, ir::VarId base, ir::VarId step);
    /// `t[i, j]`: one element of a tile, in every thread; `t[i]`, `t[1:3, :]`: a view;
    /// `t[indices, :]` with a tile of indices: a gather (gather_tile).
    Value index_tile(ir::VarId tile, const std::vector<const ast::Expr*>& idx, const ast::Expr& e);

    // --- tiles addressed through index tiles (infer_tile_indexed.cpp) ---
    /// tile_load_indexed, tile_store_indexed, tile_atomic_add_indexed: an array, a 1-D integer
    /// tile of indices along a constant axis, offsets (and the stored tile).
    Value tile_indexed_access(const Builtin& b,
                              const std::map<std::string, const ast::Expr*>& named,
                              const ast::Expr& e);
    /// tile_slice_indexed(t, indices): `indices` an index tile or a tuple holding one.
    Value tile_slice_indexed(const Builtin& b, const std::map<std::string, const ast::Expr*>& named,
                             const ast::Expr& e);
    /// The gather of `tile` along the one axis whose entry of the subscript `idx` is an integer
    /// tile (`values`: the evaluated entries that are not slices); every other entry must be a
    /// full slice (Warp's rules and messages).
    Value gather_tile(ir::VarId tile, const std::vector<const ast::Expr*>& idx,
                      const std::vector<Value>& values, const ast::Expr& e);

    // --- builtins resolved by their type rule (infer_overload.cpp) ---
    /// A Regular or Multi builtin: the overload its rule selects for the argument types.
    Value call_by_rule(const Builtin& b, const ast::Expr& e);
    /// Appends the documented numeric defaults of the parameters after the given arguments
    /// (`expect_near(a, b)`: tolerance = 1e-6) as weak literals; false (nothing appended) when
    /// a missing parameter has none.
    bool fill_numeric_defaults(const Builtin& b, std::vector<Value>& vals,
                               std::vector<ArgInfo>& infos);
    /// One Call of a Multi builtin: a fresh result variable per member of the tuple `results`.
    std::vector<ir::VarId> emit_multi_call(const Builtin& b, const types::Type* results,
                                           std::vector<ir::VarId> args, int line);
    /// A Regular builtin whose overload takes output locals (Signature::outputs_from).
    Value call_with_output_locals(const Builtin& b, const builtins::Signature& sig,
                                  const std::vector<Value>& vals,
                                  const std::vector<const ast::Expr*>& exprs, const ast::Expr& e);
    /// A Multi builtin in Warp's out-argument form f(inputs..., outputs...): re-binds the
    /// local variables named as outputs (`exprs`: the expression of each value); the type
    /// arguments follow the inputs for the rule. Fails when no split of the arguments fits.
    Value call_with_out_arguments(const Builtin& b, const std::vector<Value>& vals,
                                  const std::vector<ArgInfo>& infos,
                                  const std::vector<const ast::Expr*>& exprs,
                                  const std::vector<ArgInfo>& type_args, const ast::Expr& e);

    // --- constructions (infer_construct.cpp) ---
    /// int(x), float(x), wp.float64(x): a scalar conversion (constants convert at once).
    Value cast(const types::Type* to, const ast::Expr& e);
    /// vec3(...), mat33(...): construction of vector and matrix values.
    Value construct(const types::Type* to, const ast::Expr& e);
    /// The vector or matrix `to` from the already evaluated arguments `vals` of `e`.
    Value construct_composite(const types::Type* to, const ast::Expr& e,
                              const std::vector<Value>& vals, const std::vector<ArgInfo>& infos);
    /// Warp's wp.vector(*args, length=, dtype=) and wp.matrix(*args, shape=, dtype=) in a
    /// kernel (`kind` says which): the size defaults to the number of components or rows
    /// given, the dtype to their common scalar type.
    Value construct_anonymous(const std::string& kind, const ast::Expr& e);
    /// quat(...), transform(...): construction of quaternions and transforms
    /// (infer_construct_rigid.cpp).
    Value construct_rigid(const types::Type* to, const ast::Expr& e);
    /// Warp's wp.quaternion(*args, dtype=) and wp.transformation(*args, p=, q=, dtype=): the
    /// dtype defaults to the arguments' scalar type.
    Value construct_anonymous_rigid(const std::string& kind, const ast::Expr& e);
    /// The quaternion or transform `to` from evaluated positional arguments (`anonymous`: the
    /// type was inferred, so a copy may convert the scalar type).
    Value construct_rigid_from(const types::Type* to, const ast::Expr& e,
                               const std::vector<Value>& vals, const std::vector<ArgInfo>& infos,
                               const std::vector<const ast::Expr*>& exprs, bool anonymous);
    /// The quaternion `q` converted to scalar type `s` component by component.
    ir::VarId cast_quat(ir::VarId q, ScalarType s, int line);

    // --- user functions (infer_func.cpp) ---
    /// A call of a user function: picks the overload that fits the arguments, specialises
    /// generic parameters to the arguments' types, and emits the CallFunc.
    Value call_function(const std::shared_ptr<FunctionSource>& fn, const ast::Expr& e);
    /// What call_function() calls for the call `e` of `fn`: the specialisation that fits the
    /// arguments, whose variables (coerced to its parameter types) are appended to `args`;
    /// `given`, when not null, receives per parameter the argument expression (null for a
    /// default).
    ir::Function* bind_function_call(const std::shared_ptr<FunctionSource>& fn, const ast::Expr& e,
                                     std::vector<ir::VarId>& args,
                                     std::vector<const ast::Expr*>* given = nullptr);

    // --- gradients in forward code (infer_grad.cpp) ---
    /// wp.grad(f): a Grad value naming the user function or builtin f.
    Value grad_of(const ast::Expr& e);
    /// wp.grad(f)(args...): a Grad instruction, whose results (one per argument with a
    /// gradient; a tuple when several) are the gradients of f's float result at the arguments.
    Value call_gradient(const Value& grad, const ast::Expr& e);
    /// The error for assigning to `target`, a local that names a function, type or gradient
    /// (`held`); `v` is the value assigned (null: an augmented assignment).
    [[noreturn]] void rebind_error(const ast::Expr& target, const Value& held, const Value* v);
    /// Whether the call `e` is wp.static(expr) (by module attribute or imported name).
    bool is_static_call(const ast::Expr& e);
    /// The compile-time value of wp.static(expr), evaluated by the front end.
    Value static_value(const ast::Expr& e);
    /// The calls len(local) in a wp.static() expression whose local has a vector, matrix,
    /// quaternion or transform type (their text is replaced by the length).
    void find_len_of_locals(const ast::Expr& e, std::vector<LenOfLocal>& out);

    // --- tuples (infer_type_values.cpp) ---
    /// The tuple type of the tuple value `v` (literal elements take `want`'s element type
    /// when given and compatible, else their natural type); null if an element is no value.
    const types::Type* tuple_type_of(const Value& v, const types::Type* want);
    /// Binds the local `name` to the tuple `v` (mutable elements snapshotted).
    void bind_tuple(const ast::Expr& target, const Value& v);
    /// The tuple local `e` names (a Name bound by bind_tuple), or null.
    const Value* tuple_local(const ast::Expr& e) const;

    // --- types as values (infer_type_values.cpp) ---
    /// type(x): the type of the value x (a Python literal: int32, float32 or bool).
    Value call_type_of(const ast::Expr& e);
    /// wp.cast(x, T): the bits of x read as a T (sizes must match); not differentiable.
    Value call_bit_cast(const ast::Expr& e);
    /// The type a weak literal of type `t` materialises as (int32, float32).
    static const types::Type* materialize_type(const types::Type* t);
    /// `T.dtype` (an array's element type, a composite's scalar type), `T.length` (vectors,
    /// quaternions, transforms), `T.shape` (matrices), `T.ndim` (arrays) of the type `t`.
    Value type_attribute(const types::Type* t, const ast::Expr& e);

    // --- structs (infer_struct.cpp) ---
    /// `base.name` of a struct value.
    Value struct_field(ir::VarId base, const ast::Expr& e);
    /// S(), S(a, b, ...) with every field in order, S(x=..., ...): the others are zero.
    Value construct_struct(const types::Type* to, const ast::Expr& e);
    /// Assigns `v` to field target.name of the struct `base` (the value of target.args[0]):
    /// in place for an element of an array of structs (a[i].x = v), else by re-binding.
    void assign_field(const ast::Expr& target, ir::VarId base, const Value& v,
                      const ast::Expr& value_expr);
    /// Makes `updated` the new value of the place `place` names: a local is re-bound, a
    /// field or component is updated in its parent (recursively), an array element stored.
    void write_back(const ast::Expr& place, ir::VarId updated, const ast::Expr& value_expr);
    /// `v` as a variable of type `t` for an assignment to `what` ("field 'x' of 'S'"); a type
    /// error names both types when `v` does not fit (weak literals adopt a scalar `t`).
    ir::VarId coerce_assigned(const Value& v, const types::Type* t, const ast::Expr& e,
                              const std::string& what);

    // --- statements (infer_stmt.cpp) ---
    void block(const std::vector<ast::StmtPtr>& stmts);
    /// One statement: dispatches by kind to the functions below (and fails for statements
    /// kernels do not support).
    void stmt(const ast::Stmt& s);
    void bind(const std::string& name, ir::VarId var, const ast::Span& span);
    /// `if`: each branch in its own scope; names bound in both become mutable variables
    /// assigned at the end of each branch (merge_branches).
    void if_stmt(const ast::Stmt& s);
    /// The scope after an `if` whose branches both fall through: the names both branches bind.
    Scope merge_branches(const ast::Stmt& s, ir::Instr& ifi, const Scope& then_scope,
                         const Scope& else_scope);
    void return_stmt(const ast::Stmt& s);
    /// `assert test[, msg]` in a debug build: when the test fails, the statement and its place
    /// go to stderr and the process aborts (a Printf with callee "assert").
    void assert_stmt(const ast::Stmt& s);
    /// The variables `return value` returns, checked against the return type so far (or
    /// setting it at the first return).
    std::vector<ir::VarId> return_values(const ast::Expr& value);

    // --- assignments (infer_assign.cpp) ---
    void assign_stmt(const ast::Stmt& s);
    void ann_assign_stmt(const ast::Stmt& s);
    /// A copy of the place `place` (a name, field, element or component chain) in which every
    /// index that contains a call is evaluated now and read through a hidden name (appended to
    /// `hidden`; the caller unbinds them), so reading and writing the place runs it once.
    ast::ExprPtr hoist_place(const ast::Expr& place, std::vector<std::string>& hidden);
    /// `x op= y`: `x = x op y`, except `a[i] += v` and `a[i] -= v` (atomic_aug_assign).
    void aug_assign_stmt(const ast::Stmt& s);
    /// `a[i] += v` / `a[i] -= v` on an array of values: an atomic add or subtract, as in Warp.
    /// False (after evaluating the array) when the target is no such element.
    bool atomic_aug_assign(const ast::Stmt& s);
    /// Assigns `v` to `target`: a name, a tuple to unpack, an element, a component, a field or
    /// a gradient slot (wp.adjoint[x]).
    void assign_to(const ast::Expr& target, const Value& v, const ast::Expr& value_expr);
    /// `wp.adjoint[x] = v` in a func_grad function: re-binds the gradient slot `slot`.
    void assign_gradient(const std::string& slot, const ast::Expr& target, const Value& v,
                         const ast::Expr& value_expr);
    /// `name = v`: binds a snapshot of `v` (a constant adopts the type the name has).
    void assign_name(const ast::Expr& target, const Value& v, const ast::Expr& value_expr);
    /// `a[i, j] = v` on the array variable `array` (the value of target.args[0]): a Store.
    void store_element(const ast::Expr& target, ir::VarId array, const Value& v,
                       const ast::Expr& value_expr);
    /// Assigns `v` to a component (v.x, v[i], m[i], m[i, j]) of the vector/matrix `base` (the
    /// value of target.args[0]), then writes the updated vector back (write_back).
    /// t.p = v / t.q = q on a local transform: a new transform with that part replaced.
    void assign_transform_part(const ast::Expr& target, ir::VarId base, const Value& v,
                               const ast::Expr& value_expr);
    /// a[i][k] = v, a[i].x = v, a[i].p = v: one constant component (or transform part) of an
    /// element of a fully indexed array of vectors, quaternions or transforms, written in memory
    /// alone (StoreField, so the array is not read); false when the target is not of that form.
    bool store_array_component(const ast::Expr& target, const Value& v,
                               const ast::Expr& value_expr);
    void assign_component(const ast::Expr& target, ir::VarId base, const Value& v,
                          const ast::Expr& value_expr);

    // --- loops (infer_loop.cpp) ---
    /// `for` over range() and `while`: unrolled when try_unroll() takes it, else a ForRange or
    /// Loop with the names the body assigns carried around it.
    void loop_stmt(const ast::Stmt& s);
    /// Unrolls a `for` over a constant range of at most max_unroll iterations (any number when
    /// the body uses wp.static()) without break/continue;
    /// false (nothing emitted) when the loop does not qualify.
    bool try_unroll(const ast::Stmt& s);
    /// Counts one more unrolled copy of the body of `s` and fails (Compile, naming the loop)
    /// past the compile budget: k_unroll_copy_budget copies or k_instruction_budget
    /// instructions over the whole program.
    void check_unroll_budget(const ast::Stmt& s);
    /// Makes each existing local that `body` assigns (or that calls in `test`, a while loop's
    /// condition evaluated each iteration, re-bind) a mutable variable, initialised before the
    /// loop and bound in the scope; returns them by name.
    std::map<std::string, ir::VarId> carry_loop_variables(const std::vector<ast::StmtPtr>& body,
                                                          int line,
                                                          const ast::Expr* test = nullptr);
    /// Emits the ForRange of `for i in range(...)`, enters its body and binds the loop variable.
    void for_range_header(const ast::Stmt& s, const std::map<std::string, ir::VarId>& carried);
    /// Replaces the (start, stop, step) variables of range() by those of reversed(range()),
    /// computed at run time.
    void reverse_range_bounds(std::vector<ir::VarId>& bounds, const types::Type* t,
                              const ast::Expr& at);
    /// Emits the Loop of `while test:`, enters its body and breaks when the test fails.
    void while_header(const ast::Stmt& s, const std::map<std::string, ir::VarId>& carried);
    /// Assigns the current value of each variable the innermost loop carries to it, and of each
    /// local first bound in its body to the variable that exports it (LoopExports).
    void write_back_carried(int line);
    /// Starts the exports of a dynamic loop whose body starts from `before` (`target`: a for
    /// loop's variable, not exported); pair with leave_loop_exports().
    void enter_loop_exports(const Scope& before, const std::string& target);
    /// After the loop, with the scope back to `before`: binds the exported locals.
    void leave_loop_exports();
    /// `break` / `continue`: writes the carried variables back, then jumps.
    void jump_stmt(const ast::Stmt& s);

    ProgramBuilder& m_program;
    const FunctionSource& m_source;
    const ast::SourceFile& m_file;
    const ast::Stmt& m_def;
    ir::Function& m_fn;
    Scope m_scope;
    /// Locals bound to a function, builtin or type (`f = my_func`), or to a tuple
    /// (`t = (a, b)`, `t = f()` of a function with several results): the value each one names.
    std::map<std::string, Value> m_function_locals;
    /// Tiles that are views of a local tile (`row = t[i]`, tile_view(t, ...)): the parent's
    /// name and the selection, so that writing into the view (tile_assign(row, x), row[j] = v)
    /// writes into the parent too, as a Warp view aliases it.
    struct TileViewOf {
        std::string parent;
        ir::VarId base = 0, step = 0;
    };
    std::map<ir::VarId, TileViewOf> m_tile_views;
    /// Tiles that are strided views (t[::2, :]): Warp's tile_reshape refuses them.
    std::set<ir::VarId> m_strided_views;
    /// The value of every integer variable defined by a Const (an unrolled loop's index):
    /// what a tuple index needs at compile time.
    std::map<ir::VarId, int64_t> m_int_consts;
    /// The block where each tuple local was bound: it may be re-bound only there (a tuple
    /// re-bound in a branch or loop body cannot be merged).
    std::map<std::string, const ir::Block*> m_tuple_blocks;
    /// AST nodes sema made itself (expanded starred calls): they live for the build, since
    /// IR and errors keep their spans and memos may key on their addresses.
    std::vector<ast::ExprPtr> m_synthetic;
    ir::Block* m_block = nullptr;
    int m_col = 0;  ///< column of the expression being evaluated (see eval)
    /// Mutable variables carried around each enclosing loop (innermost last).
    std::vector<std::map<std::string, ir::VarId>> m_loop_carried;
    /// Locals first bound in the body of each enclosing dynamic loop (innermost last): each
    /// exit of the body (its end, break, continue) assigns their current values to mutable
    /// variables that stay visible after the loop, as in Python (zero when no iteration bound
    /// them). A name bound with different types at two exits is not exported.
    struct LoopExports {
        Scope before;        ///< the scope the body started from
        std::string target;  ///< a for loop's variable (not exported)
        std::map<std::string, ir::VarId> vars;
        std::set<std::string> conflicting;
    };
    std::vector<LoopExports> m_loop_exports;
    /// Set after a return/break/continue until the end of the current block.
    bool m_terminated = false;
    const types::Type* m_return_type = nullptr;  ///< from the annotation or the first return
    bool m_return_annotated = false;
    /// A generic return annotation (-> Float): the inferred return type must fit it.
    const types::Type* m_return_pattern = nullptr;
    /// Indices of the enclosing unrolled loops, by name: the constants wp.static() sees.
    std::vector<std::pair<std::string, int64_t>> m_unrolled_indices;
};

/// Builds a whole program: the kernel plus specialised user functions, with recursion checks.
struct ProgramBuilder {
    ir::Program& program;
    /// Specialisations already built, by function key + parameter types.
    std::map<std::string, ir::Function*> specialised;
    /// Functions being built (to report recursion).
    std::set<std::string> in_progress;
    /// Parsed user functions by key.
    std::map<std::string, std::pair<std::shared_ptr<const ast::Module>, const ast::Stmt*>> parsed;
    int next_id = 0;
    /// The kernel's limit on the trip count of unrolled loops (FunctionSource::max_unroll).
    int max_unroll = 16;
    /// A debug build: asserts are compiled (FunctionSource::debug).
    bool debug = false;
    /// The block size tiles are built for (FunctionSource::tile_block_dim).
    int tile_block_dim = 1;
    /// FunctionSource::enable_backward of the kernel.
    bool enable_backward = true;
    /// Compile budget: unrolled loop bodies built so far, over the whole program.
    int64_t unrolled_copies = 0;
    /// Compile budget: IR instructions emitted so far, over the whole program (a measure of
    /// the generated source's size).
    int64_t instructions = 0;
    /// Every resolver answer of this build (each question is asked once).
    ResolverMemo names;

    ir::Function* function_for(const std::shared_ptr<FunctionSource>& fn,
                               const std::vector<const types::Type*>& param_types,
                               const Builder& caller, const ast::Span& call_span);
};

/// The Python operator spelling of an operator builtin ("add" -> "+"), or null for other names.
const char* operator_text(const std::string& name);

/// Names assigned anywhere in `stmts` (targets of assignments and for loops, and locals that
/// builtin calls re-bind: see builtin_writes_arguments), in order. With `roots`, also the names
/// under assigned fields, components and elements (`s` of `s.v.x = 1`, `a` of `a[i] = 1`),
/// which such an assignment may re-bind.
void collect_assigned(const std::vector<ast::StmtPtr>& stmts, std::vector<std::string>& out,
                      std::vector<std::string>* roots = nullptr);
/// Pairs (view, parent) for each `view = parent[...]` and `view = wp.tile_view(parent, ...)`
/// in `stmts`: a tile view written in place writes its parent tile too (loops carry both).
void collect_view_aliases(const std::vector<ast::StmtPtr>& stmts,
                          std::vector<std::pair<std::string, std::string>>& out);
/// The local names calls inside `e` may re-bind (a Random builtin's state, a query and its
/// index, out-arguments), in order.
void collect_call_writes(const ast::Expr& e, std::vector<std::string>& out);

}  // namespace treadle::sema
