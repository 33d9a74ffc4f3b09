// src/sema/infer.cpp -- type inference driver: builds the IR of a kernel and its callees
//
// build_program() parses the kernel's def (unless the module loader already did), builds it
// with a Builder, and builds each user function it calls on demand, once per distinct list of
// parameter types (ProgramBuilder::function_for). Statements are handled in infer_stmt.cpp,
// expressions in infer_expr.cpp, operators and calls in infer_call.cpp.
#include "sema/infer.h"

#include <algorithm>

#include "common/assert.h"
#include "frontend/parser.h"
#include "sema/infer_internal.h"

namespace treadle::sema {

std::shared_ptr<const ast::Module> parse_function_source(const FunctionSource& fn,
                                                         const ast::Stmt** def) {
    if (fn.parsed && fn.def) {
        *def = fn.def;
        return fn.parsed;
    }
    std::shared_ptr<const ast::Module> module = frontend::parse_function(fn.source);
    *def = nullptr;
    for (const auto& s : module->body)
        if (s->kind == ast::StmtKind::FunctionDef) *def = s.get();
    if (!*def)
        throw Error(ErrorKind::Syntax, fn.name + "(): no function definition found in its source",
                    SourceLocation{fn.source->path, fn.source->first_line, 1,
                                   fn.source->line_text(fn.source->first_line)});
    return module;
}

Builder::Builder(ProgramBuilder& program, const FunctionSource& source, const ast::Stmt& def,
                 ir::Function& out)
    : m_program(program), m_source(source), m_file(*source.source), m_def(def), m_fn(out) {}

void Builder::fail(const ast::Span& span, ErrorKind kind, const std::string& msg) const {
    throw Error(kind, msg, ast::location(m_file, span));
}

ir::Instr& Builder::emit(ir::InstrKind kind, int line) {
    m_block->emplace_back(kind, line);
    ++m_program.instructions;
    m_block->back().col = m_col;
    return m_block->back();
}

ir::VarId Builder::emit_value(ir::InstrKind kind, int line, const types::Type* type,
                              std::vector<ir::VarId> args, std::string callee) {
    ir::VarId dst = m_fn.new_var(type);
    ir::Instr& in = emit(kind, line);
    in.dsts.push_back(dst);
    in.args = std::move(args);
    in.callee = std::move(callee);
    return dst;
}

ir::VarId Builder::emit_call(int line, const types::Type* type, std::vector<ir::VarId> args,
                             const Builtin& b) {
    ir::VarId dst = m_fn.new_var(type);
    ir::Instr& in = emit(ir::InstrKind::Call, line);
    in.dsts.push_back(dst);
    in.args = std::move(args);
    in.builtin = &b;
    return dst;
}

void Builder::build(const std::vector<const types::Type*>& param_types) {
    m_fn.name = m_def.name;
    m_fn.source = m_source.source;
    m_block = &m_fn.body;
    TREADLE_ASSERT(param_types.empty() || param_types.size() == m_def.params.size());
    if (m_source.native)
        for (const ast::Param& p : m_def.params)
            if (!p.annotation)
                fail(p.span, ErrorKind::Type,
                     who() + "parameter '" + p.name +
                         "' of a func_native function needs a type annotation");
    for (size_t i = 0; i < m_def.params.size(); ++i) {
        const ast::Param& p = m_def.params[i];
        const types::Type* t = nullptr;
        if (!param_types.empty()) {
            t = param_types[i];
        } else {
            if (!p.annotation)
                fail(p.span, ErrorKind::Type,
                     who() + "kernel parameter '" + p.name + "' needs a type annotation");
            t = param_annotation(p.name, *p.annotation);
            t = kernel_param_type(i, t);
        }
        if (m_scope.count(p.name) || m_function_locals.count(p.name))
            fail(p.span, ErrorKind::Syntax, who() + "duplicate parameter '" + p.name + "'");
        if (t->is_tuple()) {
            // A tuple parameter is one parameter per element; the name is the tuple of them.
            if (m_fn.is_kernel)
                fail(p.span, ErrorKind::Type,
                     who() + "kernel parameter '" + p.name + "' cannot be a tuple");
            Value tuple;
            tuple.kind = Value::Kind::Tuple;
            for (size_t k = 0; k < t->elements.size(); ++k) {
                const std::string name = p.name + "_" + std::to_string(k);
                ir::VarId v = m_fn.new_var(t->elements[k], name);
                m_fn.vars[v].param = true;
                m_fn.params.push_back(v);
                m_fn.param_names.push_back(name);
                tuple.elements.push_back(var_value(v));
            }
            m_function_locals[p.name] = tuple;
            m_tuple_blocks[p.name] = m_block;
            continue;
        }
        ir::VarId v = m_fn.new_var(t, p.name);
        m_fn.vars[v].param = true;
        m_fn.params.push_back(v);
        m_fn.param_names.push_back(p.name);
        m_scope[p.name] = v;
    }
    if (m_def.returns && m_fn.is_kernel) {
        // `-> None` (or types.NoneType) says what every kernel does: it returns nothing
        if (!param_annotation("return", *m_def.returns)->is_void())
            fail(m_def.returns->span, ErrorKind::Type, who() + "kernels cannot return a value");
    } else if (m_def.returns) {
        m_return_type = param_annotation("return", *m_def.returns);
        m_return_annotated = true;
        if (m_return_type->is_generic()) {  // -> Any, -> Float: inferred, then checked
            m_return_pattern = m_return_type;
            m_return_type = nullptr;
            m_return_annotated = false;
        }
    }
    if (m_source.primal_params >= 0) return build_custom_grad();
    if (m_source.native) return build_native();
    if (!m_fn.is_kernel) find_inout_params();
    block(m_def.body);
    m_fn.return_type = m_return_type ? m_return_type : types::void_type();
    if (!m_fn.inout_params.empty()) {
        if (!m_terminated) emit(ir::InstrKind::Return, m_def.span.line).args = inout_values();
        std::vector<const types::Type*> all;
        if (m_fn.return_type->is_tuple())
            all = m_fn.return_type->elements;
        else if (!m_fn.return_type->is_void())
            all.push_back(m_fn.return_type);
        m_fn.own_return_type = m_fn.return_type;
        for (int p : m_fn.inout_params) all.push_back(m_fn.type_of(m_fn.params[p]));
        m_fn.return_type = types::tuple_type(all);
    }
    if (m_return_pattern && !types::generic_matches(m_return_pattern, m_fn.return_type))
        fail(m_def.returns->span, ErrorKind::Type,
             who() + "returns " + m_fn.return_type->name + ", which is not " +
                 m_return_pattern->name);
}

const types::Type* Builder::kernel_param_type(size_t i, const types::Type* annotated) {
    const ast::Param& p = m_def.params[i];
    const std::vector<const types::Type*>& given = m_source.param_types;
    if (given.empty() || (i < given.size() && !given[i])) {
        if (annotated->is_generic())
            fail(p.span, ErrorKind::Type,
                 who() + "kernel parameter '" + p.name + "' is generic (" + annotated->name +
                     "); launch the kernel with arguments or declare its types with "
                     "wp.overload()");
        return annotated;
    }
    if (given.size() != m_def.params.size())
        fail(m_def.span, ErrorKind::Type,
             who() + "the kernel takes " + std::to_string(m_def.params.size()) +
                 " arguments but its specialisation gives " + std::to_string(given.size()) +
                 " types");
    if (!types::generic_matches(annotated, given[i]))
        fail(p.span, ErrorKind::Type,
             who() + "argument '" + p.name + "' has type " + given[i]->name +
                 " but the parameter is " + annotated->name);
    return given[i];
}

namespace {

/// Names `stmts` updates in place: targets of augmented assignments, the roots of assigned
/// elements and fields (t[i] = v), locals builtins re-bind (tile_assign(t, x)), and the tiles
/// those names view.
void collect_updated(const std::vector<ast::StmtPtr>& stmts, std::vector<std::string>& out) {
    for (const auto& s : stmts) {
        for (const auto& t : s->targets) {
            const ast::Expr* root = t.get();
            while (root->kind == ast::ExprKind::Attribute || root->kind == ast::ExprKind::Subscript)
                root = root->args[0].get();
            const bool in_place = s->kind == ast::StmtKind::AugAssign || root != t.get();
            if (in_place && root->kind == ast::ExprKind::Name &&
                (s->kind == ast::StmtKind::Assign || s->kind == ast::StmtKind::AugAssign))
                out.push_back(root->name);
        }
        for (const ast::Expr* e : {s->value.get(), s->test.get()})
            if (e) collect_call_writes(*e, out);
        collect_updated(s->body, out);
        collect_updated(s->orelse, out);
    }
}

}  // namespace

void Builder::find_inout_params() {
    std::vector<std::string> updated;
    collect_updated(m_def.body, updated);
    std::vector<std::pair<std::string, std::string>> views;
    collect_view_aliases(m_def.body, views);
    for (size_t i = 0; i < updated.size(); ++i)
        for (const auto& [view, parent] : views)
            if (view == updated[i] &&
                std::find(updated.begin(), updated.end(), parent) == updated.end())
                updated.push_back(parent);
    for (size_t p = 0; p < m_fn.params.size(); ++p)
        if (m_fn.type_of(m_fn.params[p])->is_tile() &&
            std::find(updated.begin(), updated.end(), m_fn.param_names[p]) != updated.end())
            m_fn.inout_params.push_back((int)p);
}

std::vector<ir::VarId> Builder::inout_values() {
    std::vector<ir::VarId> out;
    for (int p : m_fn.inout_params) {
        auto it = m_scope.find(m_fn.param_names[p]);
        const bool same =
            it != m_scope.end() && m_fn.type_of(it->second) == m_fn.type_of(m_fn.params[p]);
        out.push_back(same ? it->second : m_fn.params[p]);
    }
    return out;
}

void Builder::build_custom_grad() {
    // wp.adjoint[p] names a local gradient per value- or struct-typed primal parameter, zero;
    // the function returns them all (see ir::Function::custom_grad). For an array parameter
    // it names the array's gradient, which wp.adjoint[a][i] += v updates in place.
    std::vector<std::string> names;
    for (int i = 0; i < m_source.primal_params; ++i) {
        ir::VarId p = m_fn.params[i];
        const types::Type* t = m_fn.type_of(p);
        if (t->is_array() && !t->indexed) {
            bind("adjoint:" + m_fn.param_names[i],
                 emit_call(m_def.span.line, t, {p}, table_entry("grad_view")), m_def.span);
            continue;
        }
        if (!t->is_value() && !t->is_struct()) continue;
        names.push_back("adjoint:" + m_fn.param_names[i]);
        bind(names.back(), zero_of(t, m_def.span.line), m_def.span);
    }
    block(m_def.body);
    if (m_return_type)
        fail(m_def.span, ErrorKind::Type,
             who() + "a func_grad function returns nothing; add to wp.adjoint[param] instead");
    ir::Instr& ret = emit(ir::InstrKind::Return, m_def.span.line);
    std::vector<const types::Type*> types;
    for (const std::string& n : names) {
        ir::VarId v = m_scope.at(n);
        ret.args.push_back(v);
        types.push_back(m_fn.type_of(v));
    }
    m_fn.return_type = types.empty() ? types::void_type() : types::tuple_type(types);
}

void Builder::build_native() {
    const types::Type* rt = m_return_type ? m_return_type : types::void_type();
    if (m_return_pattern || rt->is_struct() || rt->is_tuple())
        fail(m_def.returns->span, ErrorKind::Compile,
             who() + "unsupported return type " +
                 (m_return_pattern ? m_return_pattern->name : rt->name) +
                 " for a func_native function (it may return a scalar, vector, matrix, "
                 "quaternion, transform or array)");
    m_fn.return_type = rt;
    m_fn.native = m_source.native;
}

ir::VarId Builder::zero_of(const types::Type* t, int line) {
    if (t->is_scalar()) return emit_const(types::ConstValue{t, false, 0, 0.0}, t, line);
    if (t->is_struct()) return emit_value(ir::InstrKind::Construct, line, t, {});
    if (t->is_tile()) return emit_call(line, t, {}, table_entry("tile_zeros"));
    const types::Type* s = types::scalar_type(t->scalar);
    std::vector<ir::VarId> zeros;
    int n = t->is_transform() ? 0 : t->components();
    for (int k = 0; k < n; ++k)
        zeros.push_back(emit_const(types::ConstValue{s, false, 0, 0.0}, s, line));
    if (!t->is_transform()) return emit_value(ir::InstrKind::Construct, line, t, zeros);
    ir::VarId p = zero_of(types::vector_type(3, t->scalar), line);
    ir::VarId q = zero_of(types::quat_type(t->scalar), line);
    return emit_call(line, t, {p, q}, table_entry("transform_from"));
}

ir::Function* ProgramBuilder::function_for(const std::shared_ptr<FunctionSource>& fn,
                                           const std::vector<const types::Type*>& param_types,
                                           const Builder& caller, const ast::Span& call_span) {
    std::string key = fn->key + "(";
    for (const types::Type* t : param_types)
        key += types::type_key(t) + ",";  // names may repeat (structs)
    key += ")";
    auto found = specialised.find(key);
    if (found != specialised.end()) return found->second;
    if (in_progress.count(fn->key))
        caller.type_error(call_span, caller.who() + "recursion is not supported (" + fn->name +
                                         "() calls itself, directly or through other functions)");
    const ast::Stmt* def = nullptr;
    auto cached = parsed.find(fn->key);
    if (cached == parsed.end()) {
        auto module = parse_function_source(*fn, &def);
        cached = parsed.emplace(fn->key, std::make_pair(module, def)).first;
    }
    def = cached->second.second;
    if (!param_types.empty() && def->params.size() != param_types.size())
        caller.type_error(
            call_span, fn->name + "() must take " + std::to_string(param_types.size()) +
                           " parameters (" +
                           (fn->primal_params >= 0 ? "the function's parameters, then adj_ret for "
                                                     "its result"
                                                   : "those of the function it replays") +
                           "), not " + std::to_string(def->params.size()));

    auto owned = std::make_unique<ir::Function>();
    ir::Function* f = owned.get();
    f->c_name = "fn_" + def->name + "_" + std::to_string(next_id++);
    in_progress.insert(fn->key);
    Builder builder(*this, *fn, *def, *f);
    builder.build(param_types);
    in_progress.erase(fn->key);
    // Callees are complete before their callers, so this order is a valid C++ order.
    program.functions.push_back(std::move(owned));
    specialised[key] = f;
    std::vector<const types::Type*> types;
    for (ir::VarId p : f->params) types.push_back(f->type_of(p));
    if (fn->custom_replay) {
        ir::Function* r = function_for(fn->custom_replay, types, caller, call_span);
        if (r->return_type != f->return_type)
            caller.type_error(call_span, fn->name + "(): its func_replay returns " +
                                             r->return_type->name + " but the function returns " +
                                             f->return_type->name);
        r->grad_helper = true;
        f->custom_replay = r;
    }
    if (fn->custom_grad) {
        // the func_grad takes the function's parameters, then adj_ret (adj_ret0, adj_ret1...
        // for each value of a function that returns several)
        if (f->return_type->is_tuple())
            for (const types::Type* e : f->return_type->elements) types.push_back(e);
        else if (!f->return_type->is_void())
            types.push_back(f->return_type);
        fn->custom_grad->primal_params = (int)f->params.size();
        ir::Function* g = function_for(fn->custom_grad, types, caller, call_span);
        g->grad_helper = true;
        f->custom_grad = g;
    }
    return f;
}

std::unique_ptr<ir::Program> build_program(const FunctionSource& kernel) {
    auto program = std::make_unique<ir::Program>();
    ProgramBuilder pb{*program, {}, {}, {}, 0, kernel.max_unroll};
    pb.debug = kernel.debug;
    pb.tile_block_dim = kernel.tile_block_dim;
    pb.enable_backward = kernel.enable_backward;
    program->tile_block_dim = kernel.tile_block_dim;
    const ast::Stmt* def = nullptr;
    auto module = parse_function_source(kernel, &def);
    auto owned = std::make_unique<ir::Function>();
    ir::Function* f = owned.get();
    f->is_kernel = true;
    f->c_name = "kernel_" + def->name;
    pb.in_progress.insert(kernel.key);
    Builder builder(pb, kernel, *def, *f);
    builder.build({});
    program->functions.push_back(std::move(owned));
    program->kernel = f;
    return program;
}

namespace {
/// For a part of a gradient in a func_grad (wp.adjoint[p.a], wp.adjoint[p.v][k]): p.
const ast::Expr* adjoint_part_root(const ast::Expr& t) {
    using ast::ExprKind;
    for (const ast::Expr* e = &t; e->kind == ExprKind::Attribute || e->kind == ExprKind::Subscript;
         e = e->args[0].get()) {
        if (e->kind != ExprKind::Subscript || e->args[0]->kind != ExprKind::Attribute ||
            e->args[0]->name != "adjoint")
            continue;
        const ast::Expr* r = e->args[1].get();
        while (r->kind == ExprKind::Attribute || r->kind == ExprKind::Subscript)
            r = r->args[0].get();
        return r->kind == ExprKind::Name ? r : nullptr;
    }
    return nullptr;
}

void collect_target(const ast::Expr& t, std::vector<std::string>& out,
                    std::vector<std::string>* roots) {
    if (t.kind == ast::ExprKind::Name) {
        out.push_back(t.name);
    } else if (t.kind == ast::ExprKind::Subscript && t.args[0]->kind == ast::ExprKind::Attribute &&
               t.args[0]->name == "adjoint" && t.args[1]->kind == ast::ExprKind::Name) {
        out.push_back("adjoint:" + t.args[1]->name);  // wp.adjoint[p] in a func_grad
    } else if (const ast::Expr* p = adjoint_part_root(t)) {
        out.push_back("adjoint:" + p->name);  // wp.adjoint[p.field] in a func_grad
    } else if (t.kind == ast::ExprKind::Tuple || t.kind == ast::ExprKind::List) {
        for (const auto& e : t.args) collect_target(*e, out, roots);
    } else if (roots &&
               (t.kind == ast::ExprKind::Attribute || t.kind == ast::ExprKind::Subscript)) {
        const ast::Expr* root = &t;
        while (root->kind == ast::ExprKind::Attribute || root->kind == ast::ExprKind::Subscript)
            root = root->args[0].get();
        if (root->kind == ast::ExprKind::Name) roots->push_back(root->name);
    }
}

}  // namespace

/// Names that calls inside `e` may re-bind: the generator state of a Random builtin
/// (`wp.randf(state)`), the first argument of a setter (`wp.transform_set_rotation(t, q)`),
/// the out-arguments of a Multi builtin (`wp.svd3(A, U, s, V)`).
/// Judged by the callee's name alone, so a user function of the same name only costs an
/// unneeded loop-carried variable.
void collect_call_writes(const ast::Expr& e, std::vector<std::string>& out) {
    if (e.kind == ast::ExprKind::Call && !e.args.empty() &&
        (e.args[0]->kind == ast::ExprKind::Name || e.args[0]->kind == ast::ExprKind::Attribute)) {
        const Builtin* b = find_builtin(e.args[0]->name);
        if (b && builtins::builtin_writes_arguments(*b)) {
            bool state = b->traits.rebinds == builtins::Rebinds::State ||
                         b->traits.rebinds == builtins::Rebinds::First;
            bool query = b->traits.rebinds == builtins::Rebinds::Query ||
                         b->traits.rebinds == builtins::Rebinds::FirstTwo;
            const bool last_only = b->traits.rebinds == builtins::Rebinds::Last;
            size_t first = last_only        ? std::max<size_t>(e.args.size() - 1, 1)
                           : state || query ? 1
                                            : 2;
            size_t last = state ? 2 : query ? 3 : e.args.size();
            for (size_t i = first; i < last && i < e.args.size(); ++i)
                if (e.args[i]->kind == ast::ExprKind::Name) out.push_back(e.args[i]->name);
        }
    }
    for (const auto& a : e.args)
        if (a) collect_call_writes(*a, out);
    for (const auto& k : e.keywords)
        if (k.value) collect_call_writes(*k.value, out);
}

void collect_assigned(const std::vector<ast::StmtPtr>& stmts, std::vector<std::string>& out,
                      std::vector<std::string>* roots) {
    for (const auto& s : stmts) {
        switch (s->kind) {
            case ast::StmtKind::Assign:
            case ast::StmtKind::AugAssign:
            case ast::StmtKind::AnnAssign:
            case ast::StmtKind::For:
                for (const auto& t : s->targets) collect_target(*t, out, roots);
                break;
            default:
                break;
        }
        for (const ast::Expr* e : {s->value.get(), s->test.get()})
            if (e) collect_call_writes(*e, out);
        for (const auto& t : s->targets) collect_call_writes(*t, out);
        collect_assigned(s->body, out, roots);
        collect_assigned(s->orelse, out, roots);
    }
}

void collect_view_aliases(const std::vector<ast::StmtPtr>& stmts,
                          std::vector<std::pair<std::string, std::string>>& out) {
    for (const auto& s : stmts) {
        if (s->kind == ast::StmtKind::Assign && s->targets.size() == 1 &&
            s->targets[0]->kind == ast::ExprKind::Name && s->value) {
            const ast::Expr& v = *s->value;
            const ast::Expr* parent = nullptr;
            if (v.kind == ast::ExprKind::Subscript)
                parent = v.args[0].get();  // row = t[i]
            else if (v.kind == ast::ExprKind::Call && v.args.size() >= 2 &&
                     (v.args[0]->kind == ast::ExprKind::Name ||
                      v.args[0]->kind == ast::ExprKind::Attribute) &&
                     v.args[0]->name == "tile_view")
                parent = v.args[1].get();  // row = wp.tile_view(t, ...)
            if (parent && parent->kind == ast::ExprKind::Name)
                out.emplace_back(s->targets[0]->name, parent->name);
        }
        collect_view_aliases(s->body, out);
        collect_view_aliases(s->orelse, out);
    }
}

}  // namespace treadle::sema
