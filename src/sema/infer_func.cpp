// src/sema/infer_func.cpp -- calls of user functions: overloads, generic parameters, wp.static
//
// A call binds its arguments to each definition of the function (several when @wp.func
// overloads a name by annotation), picks the best fit, fixes the type of every generic
// parameter (typing.Any, wp.Float, ...) to its argument's type, and calls the specialisation
// that ProgramBuilder::function_for builds once per list of parameter types.
#include <algorithm>

#include "sema/infer_internal.h"

namespace treadle::sema {

using ast::ExprKind;
using ir::InstrKind;
using ir::VarId;

/// A call `len(name)` on one line inside a wp.static() expression, and the constant length
/// that replaces its text (Warp's rule: the length of a local's vector, matrix, quaternion,
/// transform or tile type is known at compile time).
struct LenOfLocal {
    const ast::Expr* call;
    int64_t length;
};

namespace {

/// The arguments of one call bound to the parameters of one definition.
struct Binding {
    std::shared_ptr<FunctionSource> fn;
    std::vector<Value> args;                ///< per parameter (defaults filled in)
    std::vector<const ast::Expr*> exprs;    ///< where each came from (call or default)
    std::vector<bool> given;                ///< false: the parameter's default
    std::vector<const types::Type*> types;  ///< the concrete parameter types
    int cost = 0;  ///< 1 per literal converted to another type, 100 per generic parameter
};

const ast::Stmt* def_of(ProgramBuilder& program, const FunctionSource& fn) {
    auto cached = program.parsed.find(fn.key);
    if (cached == program.parsed.end()) {
        const ast::Stmt* def = nullptr;
        auto module = parse_function_source(fn, &def);
        cached = program.parsed.emplace(fn.key, std::make_pair(module, def)).first;
    }
    return cached->second.second;
}

std::string arg_type_name(const ArgInfo& ai) {
    if (!ai.weak) return ai.type->name;
    return ai.type->is_float() ? "float literal" : "int literal";
}

/// Binds the call `e` (argument values `pos`, keyword values `kw`) to `fn`'s parameters.
/// A mismatch throws a TypeError at the call when `why` is null; otherwise it returns false
/// and says why in *why.
bool bind_arguments(Builder& caller, const std::shared_ptr<FunctionSource>& fn,
                    const std::vector<Value>& pos, const std::vector<Value>& kw, const ast::Expr& e,
                    Binding& out, std::string* why) {
    auto reject = [&](const ast::Span& span, const std::string& msg) {
        if (!why) caller.type_error(span, msg);
        *why = msg;
        return false;
    };
    const ast::Stmt* def = def_of(caller.m_program, *fn);
    // The callee's annotations and defaults are evaluated in its own module's namespace.
    ir::Function scratch;
    ir::Block scratch_block;
    Builder callee(caller.m_program, *fn, *def, scratch);
    callee.set_block(&scratch_block);

    size_t n = def->params.size();
    out.fn = fn;
    out.args.assign(n, Value{});
    out.exprs.assign(n, nullptr);
    out.given.assign(n, false);
    out.types.assign(n, nullptr);
    size_t npos = pos.size();
    if (npos > n)
        return reject(e.span, fn->name + "(): takes " + std::to_string(n) + " arguments but " +
                                  std::to_string(npos) + " were given");
    for (size_t i = 0; i < npos; ++i) {
        out.args[i] = pos[i];
        out.exprs[i] = e.args[i + 1].get();
        out.given[i] = true;
    }
    for (size_t k = 0; k < e.keywords.size(); ++k) {
        const ast::Keyword& kwd = e.keywords[k];
        size_t p = 0;
        while (p < n && def->params[p].name != kwd.name) ++p;
        if (p == n)
            return reject(kwd.span,
                          fn->name + "(): got an unexpected keyword argument '" + kwd.name + "'");
        if (out.given[p])
            return reject(kwd.span,
                          fn->name + "(): got multiple values for argument '" + kwd.name + "'");
        out.args[p] = kw[k];
        out.exprs[p] = kwd.value.get();
        out.given[p] = true;
    }
    for (size_t p = 0; p < n; ++p) {
        const ast::Param& param = def->params[p];
        if (!out.given[p]) {
            if (!param.default_value)
                return reject(e.span, fn->name + "(): missing argument '" + param.name + "'");
            out.args[p] = callee.eval(*param.default_value);
            if (out.args[p].kind != Value::Kind::Const)
                callee.type_error(
                    param.default_value->span,
                    fn->name + "(): the default of '" + param.name + "' must be a constant");
            out.exprs[p] = param.default_value.get();
        }
        const ast::Expr& ae = *out.exprs[p];
        if (out.args[p].kind == Value::Kind::Tuple) {
            // a tuple argument: a tuple parameter of the same element types, or a generic one
            const types::Type* want =
                param.annotation ? callee.param_annotation(param.name, *param.annotation) : nullptr;
            const types::Type* t = caller.tuple_type_of(out.args[p], want);
            if (!t)
                return reject(ae.span, fn->name + "(): argument '" + param.name +
                                           "' is a tuple of something other than values");
            if (want && want->is_generic()) {
                if (want->name != "Any")
                    return reject(ae.span, fn->name + "(): argument '" + param.name +
                                               "' is a tuple but the parameter is " + want->name);
                out.cost += 100;
            } else if (want && want != t) {
                return reject(ae.span, fn->name + "(): argument '" + param.name + "' has type " +
                                           t->name + " but the parameter is " + want->name);
            }
            out.types[p] = t;
            continue;
        }
        ArgInfo ai =
            out.given[p] ? caller.arg_info(out.args[p], ae) : callee.arg_info(out.args[p], ae);
        if (!param.annotation) {
            out.types[p] = ai.type;
            continue;
        }
        const types::Type* want = callee.param_annotation(param.name, *param.annotation);
        const types::Type* t = ai.type;
        if (want->is_generic()) {
            // A literal takes its natural type (int32, float32), or float32 for wp.Float.
            if (ai.weak && want->kind == types::TypeKind::Generic && want->name == "Float" &&
                !t->is_float())
                t = types::float32_type();
            if (!types::generic_matches(want, t))
                return reject(ae.span, fn->name + "(): argument '" + param.name + "' has type " +
                                           arg_type_name(ai) + " but the parameter is " +
                                           want->name);
            out.cost += 100;
        } else {
            if (!(t == want ||
                  (ai.weak && want->is_scalar() && unify_scalars({{want, false}, ai}) == want)))
                return reject(ae.span, fn->name + "(): argument '" + param.name + "' has type " +
                                           arg_type_name(ai) + " but the parameter is " +
                                           want->name);
            if (t != want) out.cost += 1;
            t = want;
        }
        out.types[p] = t;
    }
    return true;
}

/// "f(x: float32, y: Any)": a definition's parameters as its annotations name them.
std::string signature_of(Builder& caller, const std::shared_ptr<FunctionSource>& fn) {
    const ast::Stmt* def = def_of(caller.m_program, *fn);
    ir::Function scratch;
    ir::Block scratch_block;
    Builder callee(caller.m_program, *fn, *def, scratch);
    callee.set_block(&scratch_block);
    std::string out = fn->name + "(";
    for (size_t p = 0; p < def->params.size(); ++p) {
        const ast::Param& param = def->params[p];
        out += (p ? ", " : "") + param.name;
        if (param.annotation)
            out += ": " + callee.param_annotation(param.name, *param.annotation)->name;
    }
    return out + ")";
}

void collect_names(const ast::Expr& e, std::vector<const ast::Expr*>& out) {
    if (e.kind == ExprKind::Name) out.push_back(&e);
    for (const auto& a : e.args)
        if (a) collect_names(*a, out);
    for (const auto& k : e.keywords)
        if (k.value) collect_names(*k.value, out);
}

bool inside(const ast::Span& s, const ast::Span& outer) {
    auto before = [](int l1, int c1, int l2, int c2) { return l1 < l2 || (l1 == l2 && c1 <= c2); };
    return before(outer.line, outer.col, s.line, s.col) &&
           before(s.end_line, s.end_col, outer.end_line, outer.end_col);
}

}  // namespace

Value Builder::call_function(const std::shared_ptr<FunctionSource>& fn, const ast::Expr& e) {
    std::vector<VarId> vars;
    std::vector<const ast::Expr*> given;
    ir::Function* f = bind_function_call(fn, e, vars, &given);
    ir::Instr& in = emit(InstrKind::CallFunc, e.span.line);
    in.func = f;
    in.args = vars;
    const types::Type* rt = f->return_type;
    if (!f->inout_params.empty()) {
        // tiles the function updated in place: its last results, given back to the arguments
        // that are places (a local, a field); a temporary argument's update is dropped
        std::vector<VarId> dsts;
        for (const types::Type* t : rt->elements) dsts.push_back(m_fn.new_var(t));
        in.dsts = dsts;
        const types::Type* own = f->own_return_type;
        const size_t n = own->is_void() ? 0 : own->is_tuple() ? own->elements.size() : 1;
        for (size_t k = 0; k < f->inout_params.size(); ++k) {
            const ast::Expr* place = given[f->inout_params[k]];
            if (place && (place->kind == ExprKind::Name || place->kind == ExprKind::Attribute ||
                          place->kind == ExprKind::Subscript))
                write_back(*place, dsts[n + k], e);
        }
        if (n == 0) return Value{};
        if (!own->is_tuple()) return Value{Value::Kind::Var, dsts[0]};
        Value r;
        r.kind = Value::Kind::Tuple;
        for (size_t k = 0; k < n; ++k) r.elements.push_back(Value{Value::Kind::Var, dsts[k]});
        return r;
    }
    if (rt->is_void()) return Value{};
    if (rt->is_tuple()) {
        Value r;
        r.kind = Value::Kind::Tuple;
        for (const types::Type* t : rt->elements) {
            VarId v = m_fn.new_var(t);
            in.dsts.push_back(v);
            r.elements.push_back(Value{Value::Kind::Var, v});
        }
        return r;
    }
    VarId v = m_fn.new_var(rt);
    in.dsts.push_back(v);
    return Value{Value::Kind::Var, v};
}

ir::Function* Builder::bind_function_call(const std::shared_ptr<FunctionSource>& fn,
                                          const ast::Expr& e, std::vector<VarId>& vars,
                                          std::vector<const ast::Expr*>* given) {
    if (fn->is_kernel)
        type_error(e.span,
                   who() + "cannot call kernel '" + fn->name +
                       "' from a kernel or function (only @wp.func functions can be called)");
    std::vector<Value> pos, kw;
    for (size_t i = 1; i < e.args.size(); ++i) pos.push_back(eval(*e.args[i]));
    for (const auto& k : e.keywords) kw.push_back(eval(*k.value));

    Binding chosen;
    if (fn->overloads.size() <= 1) {
        bind_arguments(*this, fn->overloads.empty() ? fn : fn->overloads[0], pos, kw, e, chosen,
                       nullptr);
    } else {
        bool found = false;
        std::string listed;
        for (const auto& candidate : fn->overloads) {
            Binding b;
            std::string why;
            if (bind_arguments(*this, candidate, pos, kw, e, b, &why) &&
                (!found || b.cost < chosen.cost)) {
                chosen = std::move(b);
                found = true;
            }
            listed += (listed.empty() ? "" : "; ") + signature_of(*this, candidate);
        }
        if (!found) {
            std::vector<ArgInfo> infos;
            for (size_t i = 0; i < pos.size(); ++i)
                infos.push_back(arg_info(pos[i], *e.args[i + 1]));
            for (size_t k = 0; k < kw.size(); ++k)
                infos.push_back(arg_info(kw[k], *e.keywords[k].value));
            type_error(e.span, fn->name + "(): no overload accepts " + describe_args(infos) +
                                   " (overloads: " + listed + ")");
        }
    }
    if (given)
        for (size_t p = 0; p < chosen.args.size(); ++p)
            given->push_back(chosen.given[p] ? chosen.exprs[p] : nullptr);
    for (size_t p = 0; p < chosen.args.size(); ++p) {
        if (chosen.types[p]->is_tuple()) {  // passed element by element (see Builder::build)
            const types::Type* tt = chosen.types[p];
            for (size_t k = 0; k < tt->elements.size(); ++k)
                vars.push_back(
                    coerce(chosen.args[p].elements[k], tt->elements[k], *chosen.exprs[p]));
            continue;
        }
        if (chosen.given[p])
            vars.push_back(coerce(chosen.args[p], chosen.types[p], *chosen.exprs[p]));
        else
            vars.push_back(emit_const(chosen.args[p].constant, chosen.types[p], e.span.line));
    }
    return m_program.function_for(chosen.fn, chosen.types, *this, e.span);
}

bool Builder::is_static_call(const ast::Expr& e) {
    if (e.kind != ExprKind::Call || e.args.empty()) return false;
    const ast::Expr& c = *e.args[0];
    if (c.kind == ExprKind::Attribute && c.name == "static" && c.args[0]->kind == ExprKind::Name &&
        !m_scope.count(c.args[0]->name)) {
        Value base = eval(*c.args[0]);
        return base.kind == Value::Kind::Module && base.text == "treadle";
    }
    if (c.kind == ExprKind::Name && c.name == "static" && !m_scope.count("static") &&
        m_source.resolver) {
        GlobalValue g = m_program.names.lookup(*m_source.resolver, "static");
        return g.kind == GlobalValue::Kind::Builtin && g.what == "static";
    }
    return false;
}

void Builder::find_len_of_locals(const ast::Expr& e, std::vector<LenOfLocal>& out) {
    if (e.kind == ExprKind::Call && e.args.size() == 2 && e.keywords.empty() &&
        e.args[0]->kind == ExprKind::Name && e.args[0]->name == "len" && !m_scope.count("len") &&
        e.args[1]->kind == ExprKind::Name && e.span.line == e.span.end_line) {
        auto it = m_scope.find(e.args[1]->name);
        const types::Type* t = it == m_scope.end() ? nullptr : m_fn.type_of(it->second);
        if (t && t->is_value() && !t->is_scalar()) {
            out.push_back(LenOfLocal{&e, t->rows});
            return;
        }
        if (t && t->is_tile()) {  // a tile's extents are part of its type
            out.push_back(LenOfLocal{&e, t->shape[0]});
            return;
        }
        if (const Value* tuple = tuple_local(*e.args[1])) {
            out.push_back(LenOfLocal{&e, (int64_t)tuple->elements.size()});
            return;
        }
    }
    for (const auto& a : e.args)
        if (a) find_len_of_locals(*a, out);
    for (const auto& k : e.keywords)
        if (k.value) find_len_of_locals(*k.value, out);
}

Value Builder::static_value(const ast::Expr& e) {
    if (e.args.size() != 2 || !e.keywords.empty())
        type_error(e.span, who() + "static() takes exactly one expression");
    const ast::Expr& x = *e.args[1];
    std::vector<LenOfLocal> lens;
    find_len_of_locals(x, lens);
    auto replaced = [&](const ast::Expr* n) {
        for (const LenOfLocal& l : lens)
            if (inside(n->span, l.call->span)) return true;
        return false;
    };
    // Locals have no value at compile time, except the indices of enclosing unrolled loops.
    std::vector<const ast::Expr*> names;
    collect_names(x, names);
    std::vector<std::pair<std::string, int64_t>> bound;
    for (const ast::Expr* n : names) {
        if (!m_scope.count(n->name) || replaced(n)) continue;
        const std::pair<std::string, int64_t>* index = nullptr;
        for (const auto& u : m_unrolled_indices)
            if (u.first == n->name) index = &u;
        // a local bound to an integer constant (`k = 3`) has its value at compile time too
        std::pair<std::string, int64_t> constant_local;
        auto known = m_int_consts.find(m_scope.at(n->name));
        if (known != m_int_consts.end()) {  // an unrolled loop's index is one as well
            constant_local = {n->name, known->second};
            index = &constant_local;
        }
        if (!index)
            fail(n->span, ErrorKind::Codegen,
                 who() + "Error evaluating static expression: name '" + n->name +
                     "' is not defined. Make sure all variables used in the static expression "
                     "are constant. ('" +
                     n->name +
                     "' is a local variable; wp.static() "
                     "evaluates its expression at compile time, in the function's globals and "
                     "closure)");
        if (std::find(bound.begin(), bound.end(), *index) == bound.end()) bound.push_back(*index);
    }
    std::string text;
    for (int line = x.span.line; line <= x.span.end_line; ++line) {
        const std::string& l = m_file.line_text(line);
        size_t from = line == x.span.line ? (size_t)x.span.col - 1 : 0;
        size_t to = line == x.span.end_line ? (size_t)x.span.end_col - 1 : l.size();
        if (line > x.span.line) text += "\n";
        to = std::min(to, l.size());
        for (const LenOfLocal& len : lens) {  // in source order, each on one line
            if (len.call->span.line != line) continue;
            const size_t at = (size_t)len.call->span.col - 1;
            if (at > from && at <= to) text += l.substr(from, at - from);
            text += std::to_string(len.length);
            from = (size_t)len.call->span.end_col - 1;
        }
        if (from < l.size() && to > from) text += l.substr(from, to - from);
    }
    GlobalValue g = m_source.resolver
                        ? m_program.names.static_value(*m_source.resolver, text, bound)
                        : GlobalValue{};
    switch (g.kind) {
        case GlobalValue::Kind::None:
            type_error(e.span, who() +
                                   "wp.static() cannot be evaluated: the front end that "
                                   "resolves this function's names has no static values");
        case GlobalValue::Kind::Error: {
            // g.what is "ExceptionType: message" (both front ends' resolvers)
            const size_t colon = g.what.find(": ");
            const std::string type = colon == std::string::npos ? "" : g.what.substr(0, colon);
            const std::string message =
                colon == std::string::npos ? g.what : g.what.substr(colon + 2);
            fail(x.span, ErrorKind::Codegen,
                 who() + "Error evaluating static expression: " + message + " (" +
                     (type.empty() ? "" : type + ", ") + "evaluating '" + text + "')");
        }
        case GlobalValue::Kind::Unsupported:
            type_error(x.span, who() + "wp.static(): '" + text + "' is a Python " + g.what +
                                   ", which kernels cannot use");
        case GlobalValue::Kind::Builtin:
            if (!find_builtin(g.what))
                type_error(x.span, who() + "wp.static(): treadle." + g.what +
                                       " cannot be used inside kernels");
            break;
        default:
            break;
    }
    return global_value(g, x);
}

}  // namespace treadle::sema
