// src/builtins/builtins.h -- the builtin table: the single source of truth for every builtin
//
// A layer of its own under the IR: it depends on `common` and `types` only, so that ir::Instr
// can point at its entry and every later layer (sema, passes, codegen, the bindings) read the
// same traits. The entries are data (entries_*.cpp), with their type rules (rules.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "types/types.h"

namespace treadle::builtins {

/// The type of one call argument as overload resolution sees it. `weak` marks literals and
/// Python-number constants, which adopt the type of the other operands.
struct ArgInfo {
    const types::Type* type = nullptr;
    bool weak = false;
    /// A type given as an argument (`dtype=wp.vec3`) to a builtin with TemplateArgs::Dtype:
    /// `type` is that type. Type arguments come after the values and are not passed to the call.
    bool is_type = false;
};

/// A resolved overload: the types the arguments are converted to, and the result.
struct Signature {
    std::vector<const types::Type*> params;
    const types::Type* ret = nullptr;
    /// Warp's out-argument forms of Regular builtins (mesh_query_point(id, p, d, inside, face,
    /// u, v) -> bool): the `outputs` arguments from index `outputs_from` are local variables of
    /// exactly their parameter's type, passed to the native function by reference and re-bound
    /// to what it writes (it may leave them unchanged). SIZE_MAX: none.
    size_t outputs_from = SIZE_MAX;
    size_t outputs = 0;
};

/// How inference handles a builtin. Regular builtins become one `Call` of `wp::<native>`;
/// the others are lowered by dedicated code in inference (src/sema/infer_call.cpp).
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
    /// The next result of a geometry query (hash_grid_query_next(query, index) -> bool): the
    /// first two arguments, a local query state and a local int32, are advanced by the call
    /// (Rebinds::Query); the rule sees every argument. A for loop over a query
    /// (`for i in wp.hash_grid_query(...)`) calls the QueryNext builtin of the query's type.
    QueryNext,
    /// A tile builtin whose result type depends on constant arguments (a shape, a dtype) or
    /// whose offsets and indices are tuples (tile_load(a, shape=(16, 16), offset=(i, j))):
    /// lowered by src/sema/infer_tile.cpp into a Call of its entry (or of an internal one).
    Tile,
    /// Spelled by inference itself (vector fills and casts, component access and updates,
    /// transform_from); not reachable by name from kernels. In the table for their traits.
    Internal,
};

/// Resolves argument types to a signature, or nullopt when no overload accepts them.
using TypeRule = std::optional<Signature> (*)(const std::vector<ArgInfo>& args);

/// The atomic read-modify-write a builtin performs on an array element (None: not an atomic).
enum class AtomicOp : uint8_t { None, Add, Sub, Min, Max, Exch, Cas, And, Or, Xor };

/// What the backward pass does for the value operand of an atomic.
enum class AtomicAdjoint : uint8_t {
    None,      ///< not an atomic
    Add,       ///< atomic_add: the value's adjoint gains the element's gradient
    Subtract,  ///< atomic_sub: the value's adjoint loses the element's gradient
    MinMax,    ///< atomic_min/max: the gradient goes to the value when it was the one stored
    Store,     ///< atomic_exch: a store; the value's adjoint gains the element's gradient
    Refused,   ///< atomic_cas, and/or/xor: not differentiable (float arrays are refused)
};

/// In which operands a builtin's adjoint is linear (needs no primal value of them), which lets
/// the backward pass skip recomputing those operands.
enum class Linearity : uint8_t {
    None,
    All,           ///< add, sub, neg, transpose, vec_fill, ...
    First,         ///< extract(a, i...): linear in a, not in the indices
    FirstAndLast,  ///< with_component(a, i..., s), with_row(m, i, r): in a and the value
};

/// Local variables a call re-binds (loops treat those names as assigned in their body).
enum class Rebinds : uint8_t {
    None,
    State,    ///< the generator state, the first argument (randf(state), ...)
    Outputs,  ///< Warp's out-argument form: the arguments after the inputs (svd3(A, U, s, V))
    First,    ///< the first argument, given the call's result as if assigned to it
              ///< (transform_set_translation(t, p))
    Query,    ///< the first two: a query state and the index it yields (QueryNext builtins)
    /// The first two arguments, locals given the call's updates (tile_sort(keys, values)).
    FirstTwo,
    /// The last argument, a local given the call's update (tile_matmul(a, b, out),
    /// tile_axpy(alpha, src, dest)).
    Last,
    /// Regular builtins with overloads taking output locals (Signature::outputs_from: the
    /// mesh queries' older forms); loops count every local named after the first argument.
    OutputLocals,
};

/// The template arguments of a builtin's C++ function, spelled from the Call's result type.
enum class TemplateArgs : uint8_t {
    None,
    Scalar,  ///< <T>: the result's scalar type (vec_cast<double>, quat_identity<float>)
    Length,  ///< <N, T>: the result's rows and scalar type (vec_fill<3, float>, identity<3, float>)
    Shape,   ///< <R, C, T>: the result's rows, columns and scalar type (mat_fill<3, 3, float>)
    /// <T>: the C type of the (first) result, named in the call by a type argument
    /// (volume_lookup(id, i, j, k, dtype=wp.vec3) calls volume_lookup<vec3f>); the rule sees
    /// type arguments after the values, as ArgInfo with `is_type`.
    Dtype,
    /// <T, site>: as Dtype, and an integer that tells the call site from the others of the
    /// kernel (a hash of the function and the result variable): tile_stack_init, whose storage
    /// is static per call site.
    DtypeSite,
};

/// Devices a builtin runs on (a bit set).
enum Devices : uint8_t { k_cpu = 1, k_cuda = 2, k_all_devices = 3 };

/// The facts about a builtin besides its name, type rule and documentation. Written in the
/// table as `with().host().op("+")` (entries_*.cpp); every field not written keeps its default.
struct Traits {
    Linearity linear = Linearity::None;
    /// An array builtin that writes its last argument and reads its other arrays
    /// (spatial_jacobian, spatial_mass); its result is a dummy int32 and it is not replayed.
    bool writes_last_array = false;
    /// Tile loads and stores that write their first argument, an array (tile_store,
    /// tile_atomic_add and their _indexed forms): the access pass counts a write, a replay
    /// skips the call (its result reads as zero), and the backward pass calls the builtin's
    /// adjoint when the written tile, the second operand, has a gradient. Builtins that only read
    /// an array (tile_load) need no trait: an array argument counts as read.
    bool writes_first_array = false;
    /// A check that prints a message when it fails (expect_eq, ...): its result is a dummy
    /// int32 (None in kernels), and it is neither replayed nor differentiated.
    bool prints = false;
    /// Results of one call: 1, or the members of the tuple a Multi builtin gives (svd3: 3).
    int results = 1;
    /// Atomics: value operands after the indices (atomic_cas: compare and value).
    int value_operands = 0;
    Rebinds rebinds = Rebinds::None;
    /// A Multi builtin whose out-argument form returns its first result and writes the others
    /// to its out arguments (`v = volume_sample_grad_f(id, uvw, mode, grad)`).
    bool returns_first_result = false;
    /// Also callable on the host from Python (python/treadle/host_builtins.py has its
    /// implementation; a test checks the two agree).
    bool host = false;
    AtomicOp atomic = AtomicOp::None;
    /// Also reached in kernels by the bare Python builtin of the same name (min(a, b), len(a)).
    bool python_builtin = false;
    /// Operators (and pow, for `**`): the Python spelling ("+", "//", "~"); null otherwise.
    const char* op = nullptr;
    /// Whether `wp.<name>(...)` is callable (false for matmul and compare, reached only through
    /// operator syntax, and for builtins internal to inference).
    bool callable = true;
    Devices devices = k_all_devices;
    TemplateArgs template_args = TemplateArgs::None;
    /// The native header (below native/treadle/) that defines the builtin when the prologue
    /// does not: geometry builtins ("mesh.h"); a kernel source includes it only when it calls
    /// the builtin, so other kernels do not pay for compiling it. Null: in the prologue.
    const char* header = nullptr;
};

/// One documented parameter of a builtin, parsed from its signature.
struct Param {
    std::string name;           ///< "x"; "i" for the indices of atomics
    std::string type;           ///< documented type ("Float", "vec3 | vec4"), may be empty
    std::string default_value;  ///< "..." when optional without a fixed value; empty if required
    bool variadic = false;      ///< `*rows`, `i...`, or a trailing `...` (any number more)
};

/// One builtin. The table is ordered by group; lookup is by name.
struct Builtin {
    const char* name;    ///< name in kernels (`wp.<name>` or an operator's name)
    const char* native;  ///< C++ function in namespace wp (adjoint: adj_<native>)
    BuiltinKind kind;
    const char* group;      ///< documentation group
    const char* signature;  ///< documented signature, also quoted in errors
    const char* doc;        ///< what it computes, its arguments and result
    bool differentiable;
    TypeRule rule;  ///< null for kinds lowered by dedicated code
    Traits traits = {};
};

/// Whether a call of `b` can re-bind local variables passed as arguments (the generator state
/// of a Random builtin, the out-arguments of a Multi builtin): loops treat those names as
/// assigned in their body.
bool builtin_writes_arguments(const Builtin& b);

/// The QueryNext builtin that advances a query of native struct type `query` (for loops over
/// queries), or null.
const Builtin* find_query_next(const types::Type* query);

/// The whole table, in documentation order (internal builtins last).
const std::vector<Builtin>& builtin_table();
/// The builtin called `name` in kernel code (operators and internal builtins are not found
/// here), or null.
const Builtin* find_builtin(std::string_view name);
/// The operator builtin `name` ("add", "floordiv", "neg", ...), or any other builtin by name.
const Builtin* find_operator(std::string_view name);
/// The entry called `name` in the table, internal builtins included ("extract"), or null.
const Builtin* find_entry(std::string_view name);
/// The entry called `name`, which must exist (for the builtins inference spells itself).
const Builtin& table_entry(std::string_view name);
/// The builtin Python operator syntax `op` with `operands` operands reaches ("+" with two:
/// add, with one: pos; "**": pow), or null.
const Builtin* find_syntax_operator(std::string_view op, size_t operands);
/// The first entry whose native C++ name is `callee` without template arguments
/// ("vec_fill<3, float>" -> vec_fill), or null: for IR built by hand and for queries by
/// spelling. Calls built by inference carry their entry (ir::Instr::builtin).
const Builtin* find_callee(std::string_view callee);

/// The parameters documented in `b.signature`, in order (operators: their operands).
const std::vector<Param>& builtin_params(const Builtin& b);
/// The documented result type in `b.signature` ("Float", "tuple(mat33, vec3, mat33)"); empty
/// when the signature gives none.
std::string builtin_returns(const Builtin& b);

/// Whether the adjoint of `b` is linear in operand `i` of `nargs` (see Linearity).
bool linear_in_operand(const Builtin& b, size_t i, size_t nargs);
/// What the backward pass does for the value of atomic builtin `b`.
AtomicAdjoint atomic_adjoint(const Builtin& b);
/// Whether atomic `b` works on 4- and 8-byte scalars only (exch and cas, bit-for-bit ops).
bool atomic_needs_word_scalars(const Builtin& b);

/// The common type of `args` under the weak-literal rules, or nullptr when they conflict.
/// `want_float` turns all-weak integer arguments into float32 (for float-only builtins).
const types::Type* unify_scalars(const std::vector<ArgInfo>& args, bool want_float = false);

/// "(float32, int literal)" for error messages.
std::string describe_args(const std::vector<ArgInfo>& args);

}  // namespace treadle::builtins
