// src/sema/infer_struct.cpp -- inference of structs: field reads, construction, field updates
//
// Structs are values, like vectors: `s.x = v` on a local re-binds `s` to an updated copy
// (WithField), so the IR stays single-assignment. The one place a field is written in memory
// is an element of an array of structs (`a[i].x = v`, `a[i].inner.v = w`): StoreField writes
// just that field, so threads updating different fields of one element do not race.
#include "sema/infer_internal.h"

namespace treadle::sema {

using ast::ExprKind;
using ir::InstrKind;
using ir::VarId;

namespace {

std::string type_text(const ArgInfo& a) {
    if (a.weak) return a.type->is_float() ? "float literal" : "int literal";
    return a.type->name;
}

}  // namespace

VarId Builder::coerce_assigned(const Value& v, const types::Type* t, const ast::Expr& e,
                               const std::string& what) {
    ArgInfo ai = arg_info(v, e);
    if (!(ai.type == t || (ai.weak && t->is_scalar() && unify_scalars({{t, false}, ai}) == t)))
        type_error(e.span, who() + "cannot assign a value of type " + type_text(ai) + " to " +
                               what + ", which has type " + t->name);
    return coerce(v, t, e);
}

Value Builder::struct_field(VarId base, const ast::Expr& e) {
    const types::Type* st = m_fn.type_of(base);
    const types::StructField* f = st->field(e.name);
    if (!f) {
        // Warp's AttributeError: "`x` is not an attribute of 'foo' (module.Foo)"
        const ast::Expr& object = *e.args[0];
        const std::string held =
            object.kind == ast::ExprKind::Name ? object.name : std::string("value");
        std::string qualname = st->name;
        if (st->key.rfind("struct:", 0) == 0) qualname = st->key.substr(7, st->key.find('{') - 7);
        fail(e.span, ErrorKind::Attribute,
             "`" + e.name + "` is not an attribute of '" + held + "' (" + qualname + ")");
    }
    VarId dst = emit_value(InstrKind::Field, e.span.line, f->type, {base});
    m_block->back().text = f->name;
    return Value{Value::Kind::Var, dst};
}

Value Builder::construct_struct(const types::Type* to, const ast::Expr& e) {
    int line = e.span.line;
    size_t npos = e.args.size() - 1;
    if (npos > to->fields.size())
        type_error(e.span, to->name + "(): takes at most " + std::to_string(to->fields.size()) +
                               " field values, got " + std::to_string(npos));
    std::vector<VarId> given(to->fields.size(), 0);
    std::vector<bool> is_given(to->fields.size(), false);
    auto set = [&](size_t i, const ast::Expr& value) {
        const types::StructField& f = to->fields[i];
        given[i] = coerce_assigned(eval(value), f.type, value,
                                   "field '" + f.name + "' of '" + to->name + "'");
        is_given[i] = true;
    };
    for (size_t i = 0; i < npos; ++i) set(i, *e.args[i + 1]);
    for (const auto& k : e.keywords) {
        size_t i = 0;
        while (i < to->fields.size() && to->fields[i].name != k.name) ++i;
        if (i == to->fields.size())
            type_error(k.span, to->name + "(): '" + to->name + "' has no field '" + k.name + "'");
        if (is_given[i]) type_error(k.span, to->name + "(): field '" + k.name + "' is given twice");
        set(i, *k.value);
    }
    bool all = true;
    for (bool g : is_given) all = all && g;
    if (all) return Value{Value::Kind::Var, emit_value(InstrKind::Construct, line, to, given)};
    // Zeroed, then the given fields set one by one.
    VarId s = emit_value(InstrKind::Construct, line, to, {});
    for (size_t i = 0; i < given.size(); ++i) {
        if (!is_given[i]) continue;
        s = emit_value(InstrKind::WithField, line, to, {s, given[i]});
        m_block->back().text = to->fields[i].name;
    }
    return Value{Value::Kind::Var, s};
}

void Builder::assign_field(const ast::Expr& target, VarId base, const Value& v,
                           const ast::Expr& value_expr) {
    const types::Type* st = m_fn.type_of(base);
    int line = target.span.line;
    const types::StructField* f = st->field(target.name);
    if (!f)
        type_error(target.span, who() + "'" + st->name + "' has no field '" + target.name + "'");
    VarId value =
        coerce_assigned(v, f->type, value_expr, "field '" + f->name + "' of '" + st->name + "'");

    // a[i].x = v, a[i].inner.x = v: the root is a fully indexed array of structs.
    std::string path = f->name;
    const ast::Expr* root = target.args[0].get();
    while (root->kind == ExprKind::Attribute) {
        path = root->name + "." + path;
        root = root->args[0].get();
    }
    if (root->kind == ExprKind::Subscript) {
        Value arr = eval(*root->args[0]);
        std::vector<const ast::Expr*> idx = index_exprs(*root->args[1]);
        if (arr.kind == Value::Kind::Var && m_fn.type_of(arr.var)->is_array() &&
            (int)idx.size() == m_fn.type_of(arr.var)->ndim) {
            std::vector<VarId> args{arr.var};
            for (const ast::Expr* i : idx)
                args.push_back(index_operand(*i, who() + "array index "));
            args.push_back(value);
            ir::Instr& in = emit(InstrKind::StoreField, line);
            in.col = root->span.col;
            in.args = std::move(args);
            in.text = path;
            return;
        }
    }
    VarId updated = emit_value(InstrKind::WithField, line, st, {base, value});
    m_block->back().text = f->name;
    write_back(*target.args[0], updated, value_expr);
}

void Builder::write_back(const ast::Expr& place, VarId updated, const ast::Expr& value_expr) {
    switch (place.kind) {
        case ExprKind::Name: {
            if (!m_scope.count(place.name)) break;
            auto view = m_tile_views.find(m_scope.at(place.name));
            bind(place.name, updated, place.span);
            if (view != m_tile_views.end() && m_scope.count(view->second.parent)) {
                // a view written in place: its parent tile takes the new elements too
                TileViewOf of = view->second;
                VarId parent = m_scope.at(of.parent);
                VarId merged =
                    emit_call(place.span.line, m_fn.type_of(parent),
                              {parent, of.base, of.step, updated}, table_entry("tile_view_assign"));
                bind(of.parent, merged, place.span);
                m_tile_views[updated] = of;
            }
            return;
        }
        case ExprKind::Attribute:
        case ExprKind::Subscript:
            assign_to(place, Value{Value::Kind::Var, updated}, value_expr);
            return;
        default:
            break;
    }
    type_error(place.span, who() + "only components of local variables can be assigned");
}

}  // namespace treadle::sema
