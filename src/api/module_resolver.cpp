// src/api/module_resolver.cpp -- reads a module file's top level for the C++ loader
#include "api/module_resolver.h"

#include <algorithm>
#include <cmath>

#include "frontend/parser.h"
#include "types/type_names.h"

namespace treadle {

using ast::ExprKind;
using sema::GlobalValue;

namespace {

bool is_treadle_module(const std::string& name) { return name == "treadle" || name == "warp"; }

/// `wp.kernel`, `kernel`, `wp.kernel(...)` -> "kernel"; likewise "func"; else "".
std::string decorator_kind(const ast::Expr& d, const std::map<std::string, GlobalValue>& names) {
    const ast::Expr* e = &d;
    if (e->kind == ExprKind::Call) e = e->args[0].get();
    if (e->kind == ExprKind::Attribute && e->args[0]->kind == ExprKind::Name) {
        auto it = names.find(e->args[0]->name);
        if (it != names.end() && it->second.kind == GlobalValue::Kind::Module &&
            it->second.module == "treadle")
            return e->name;
    }
    if (e->kind == ExprKind::Name) {
        auto it = names.find(e->name);
        if (it != names.end() && it->second.kind == GlobalValue::Kind::Builtin)
            return it->second.what;
    }
    return "";
}

/// The snippets of `@wp.func_native(snippet, adj_snippet=None, replay_snippet=None)`: string
/// literals, by position or keyword.
std::shared_ptr<ir::NativeSnippets> native_snippets(const ast::Expr& d,
                                                    const ast::SourceFile& src) {
    if (d.kind != ExprKind::Call)
        throw Error(ErrorKind::Type, "func_native(): expects the C++/CUDA snippet of the body",
                    ast::location(src, d.span));
    static const char* const names[] = {"snippet", "adj_snippet", "replay_snippet"};
    std::string texts[3];
    bool have[3] = {false, false, false};
    auto take = [&](int slot, const ast::Expr& e) {
        const bool none = e.kind == ExprKind::Constant && e.const_kind == ast::ConstKind::None;
        if (none && slot > 0) return;
        if (e.kind != ExprKind::Constant || e.const_kind != ast::ConstKind::Str)
            throw Error(ErrorKind::Type,
                        std::string("func_native(): ") + names[slot] + " must be a string literal",
                        ast::location(src, e.span));
        texts[slot] = e.str_value;
        have[slot] = true;
    };
    for (size_t i = 1; i < d.args.size(); ++i) {
        if (i > 3)
            throw Error(ErrorKind::Type, "func_native(): takes at most three snippets",
                        ast::location(src, d.args[i]->span));
        take(static_cast<int>(i) - 1, *d.args[i]);
    }
    for (const auto& kw : d.keywords) {
        int slot = -1;
        for (int k = 0; k < 3; ++k)
            if (kw.name == names[k]) slot = k;
        if (slot < 0)
            throw Error(ErrorKind::Type, "func_native(): unexpected keyword '" + kw.name + "'",
                        ast::location(src, kw.value->span));
        take(slot, *kw.value);
    }
    if (!have[0])
        throw Error(ErrorKind::Type, "func_native(): expects the C++/CUDA snippet of the body",
                    ast::location(src, d.span));
    auto out = std::make_shared<ir::NativeSnippets>();
    out->forward = texts[0];
    if (have[1]) out->adjoint = texts[1];
    if (have[2]) out->replay = texts[2];
    return out;
}

/// Evaluates a constant expression of the module's top level; false when it is not one.
bool eval_constant(const ast::Expr& e, const std::map<std::string, GlobalValue>& names,
                   types::ConstValue& out) {
    switch (e.kind) {
        case ExprKind::Constant:
            if (e.const_kind == ast::ConstKind::Int) {
                out = {e.int_value > 0x7fffffffull ? types::int64_type() : types::int32_type(),
                       true, (int64_t)e.int_value, 0};
                return true;
            }
            if (e.const_kind == ast::ConstKind::Float) {
                out = {types::float32_type(), true, 0, e.float_value};
                return true;
            }
            if (e.const_kind == ast::ConstKind::Bool) {
                out = {types::bool_type(), false, (int64_t)e.int_value, 0};
                return true;
            }
            return false;
        case ExprKind::Name: {
            auto it = names.find(e.name);
            if (it == names.end() || it->second.kind != GlobalValue::Kind::Constant) return false;
            out = it->second.constant;
            return true;
        }
        case ExprKind::UnaryOp:
            if (e.unary_op != ast::UnaryOpKind::Neg && e.unary_op != ast::UnaryOpKind::Pos)
                return false;
            if (!eval_constant(*e.args[0], names, out)) return false;
            if (e.unary_op == ast::UnaryOpKind::Neg) {
                out.i = -out.i;
                out.f = -out.f;
            }
            return true;
        case ExprKind::BinOp: {
            types::ConstValue a, b;
            if (!eval_constant(*e.args[0], names, a) || !eval_constant(*e.args[1], names, b))
                return false;
            bool fl = a.type->is_float() || b.type->is_float();
            double x = a.type->is_float() ? a.f : (double)a.i;
            double y = b.type->is_float() ? b.f : (double)b.i;
            out = a.weak ? b : a;
            out.weak = a.weak && b.weak;
            if (fl && !out.type->is_float()) out.type = types::float32_type();
            switch (e.bin_op) {
                case ast::BinOpKind::Add:
                    out.f = x + y;
                    out.i = a.i + b.i;
                    break;
                case ast::BinOpKind::Sub:
                    out.f = x - y;
                    out.i = a.i - b.i;
                    break;
                case ast::BinOpKind::Mul:
                    out.f = x * y;
                    out.i = a.i * b.i;
                    break;
                case ast::BinOpKind::Div:
                    if (y == 0) return false;
                    out.f = x / y;
                    if (!fl) out.type = types::float32_type();
                    break;
                case ast::BinOpKind::Pow:
                    out.f = std::pow(x, y);
                    if (!fl) return false;
                    break;
                default:
                    return false;
            }
            return true;
        }
        case ExprKind::Call: {
            // wp.constant(x) and typed scalars wp.float64(x).
            const ast::Expr& callee = *e.args[0];
            if (e.args.size() != 2 || callee.kind != ExprKind::Attribute ||
                callee.args[0]->kind != ExprKind::Name)
                return false;
            auto mod = names.find(callee.args[0]->name);
            if (mod == names.end() || mod->second.kind != GlobalValue::Kind::Module ||
                mod->second.module != "treadle")
                return false;
            if (!eval_constant(*e.args[1], names, out)) return false;
            if (callee.name == "constant") return true;
            const types::Type* t = types::type_by_name(callee.name);
            if (!t || !t->is_scalar()) return false;
            if (t->is_float() && !out.type->is_float()) out.f = (double)out.i;
            if (!t->is_float() && out.type->is_float()) out.i = (int64_t)out.f;
            out.type = t;
            out.weak = false;
            return true;
        }
        default:
            return false;
    }
}

/// The type an annotation in a @wp.struct class body names: float/int/bool, wp.<type>, a name
/// bound to a type (an earlier struct, an imported type) or wp.array*(dtype=..., ndim=...).
/// Null when it names none of these.
const types::Type* annotation_type(const ast::Expr& e,
                                   const std::map<std::string, GlobalValue>& names) {
    auto treadle_attribute = [&](const ast::Expr& x) {
        if (x.kind != ExprKind::Attribute || x.args[0]->kind != ExprKind::Name) return false;
        auto it = names.find(x.args[0]->name);
        return it != names.end() && it->second.kind == GlobalValue::Kind::Module &&
               it->second.module == "treadle";
    };
    if (e.kind == ExprKind::Name) {
        if (e.name == "float") return types::float32_type();
        if (e.name == "int") return types::int32_type();
        if (e.name == "bool") return types::bool_type();
        auto it = names.find(e.name);
        if (it != names.end() && it->second.kind == GlobalValue::Kind::Type) return it->second.type;
        return nullptr;
    }
    if (treadle_attribute(e)) {
        return types::type_by_name(e.name);
    }
    if (e.kind != ExprKind::Call || !treadle_attribute(*e.args[0])) return nullptr;
    const std::string& ctor = e.args[0]->name;
    int ndim = ctor == "array" ? 1
               : ctor.size() == 7 && ctor.compare(0, 5, "array") == 0 && ctor[6] == 'd'
                   ? ctor[5] - '0'
                   : 0;
    if (ndim < 1 || ndim > 4) return nullptr;
    const types::Type* dtype = e.args.size() > 1 ? annotation_type(*e.args[1], names) : nullptr;
    for (const auto& k : e.keywords) {
        if (k.name == "dtype") {
            dtype = annotation_type(*k.value, names);
        } else if (k.name == "ndim" && k.value->kind == ExprKind::Constant &&
                   k.value->const_kind == ast::ConstKind::Int && k.value->int_value >= 1 &&
                   k.value->int_value <= 4) {
            ndim = (int)k.value->int_value;
        } else {
            return nullptr;
        }
    }
    return dtype && dtype->is_element() ? types::array_type(dtype, ndim) : nullptr;
}

/// The struct type of a @wp.struct class body (its annotated fields), or an Unsupported value
/// that says which field could not be read.
GlobalValue struct_value(const ast::Stmt& cls, const std::string& path,
                         const std::map<std::string, GlobalValue>& names) {
    GlobalValue g;
    g.kind = GlobalValue::Kind::Unsupported;
    std::vector<std::pair<std::string, const types::Type*>> fields;
    for (const auto& s : cls.body) {
        if (s->kind != ast::StmtKind::AnnAssign || s->targets[0]->kind != ExprKind::Name) continue;
        const types::Type* t = annotation_type(*s->annotation, names);
        if (!t) {
            g.what = "struct whose field '" + s->targets[0]->name + "' has an unsupported type";
            return g;
        }
        fields.emplace_back(s->targets[0]->name, t);
    }
    // The module's name (the file name without folder and extension) qualifies the struct.
    std::string module = path.substr(path.find_last_of('/') + 1);
    if (module.size() > 3 && module.compare(module.size() - 3, 3, ".py") == 0)
        module.resize(module.size() - 3);
    std::string error;
    const types::Type* t = types::struct_type(module + "." + cls.name, fields, &error);
    if (!t) {
        g.what = "struct (" + error + ")";
        return g;
    }
    g.kind = GlobalValue::Kind::Type;
    g.type = t;
    return g;
}

/// The source text of `span` (which may cover several lines).
std::string span_text(const ast::SourceFile& file, const ast::Span& span) {
    std::string text;
    for (int line = span.line; line <= span.end_line; ++line) {
        const std::string& l = file.line_text(line);
        size_t from = line == span.line ? (size_t)span.col - 1 : 0;
        size_t to = line == span.end_line ? (size_t)span.end_col - 1 : l.size();
        if (line > span.line) text += "\n";
        if (from < l.size() && to > from) text += l.substr(from, std::min(to, l.size()) - from);
    }
    return text;
}

}  // namespace

ModuleResolver::ModuleResolver(std::shared_ptr<const ast::Module> module)
    : m_module(std::move(module)) {
    // Non-owning (aliasing, empty control block): an owning pointer would be a cycle.
    std::shared_ptr<sema::Resolver> self(std::shared_ptr<void>(), this);
    for (const auto& s : m_module->body) {
        switch (s->kind) {
            case ast::StmtKind::Import:
                for (const auto& n : s->imports) {
                    std::string alias = n.asname.empty() ? n.name : n.asname;
                    GlobalValue g;
                    g.kind = GlobalValue::Kind::Module;
                    g.module = is_treadle_module(n.name) ? "treadle"
                               : n.name == "math"        ? "math"
                                                         : "py:" + n.name;
                    if (n.asname.empty() && n.name.find('.') != std::string::npos) continue;
                    m_names[alias] = g;
                }
                break;
            case ast::StmtKind::ImportFrom:
                for (const auto& n : s->imports) {
                    std::string alias = n.asname.empty() ? n.name : n.asname;
                    GlobalValue g;
                    if (is_treadle_module(s->module) || s->module == "treadle.types" ||
                        s->module == "warp.types") {
                        if (const types::Type* t = types::type_by_name(n.name)) {
                            g.kind = GlobalValue::Kind::Type;
                            g.type = t;
                        } else {
                            g.kind = GlobalValue::Kind::Builtin;
                            g.what = n.name;
                        }
                    } else if (s->module == "typing" && n.name == "Any") {
                        g.kind = GlobalValue::Kind::Type;
                        g.type = types::generic_type("Any");
                    } else {
                        g.kind = GlobalValue::Kind::Unsupported;
                        g.what = "object imported from " + s->module;
                    }
                    m_names[alias] = g;
                }
                break;
            case ast::StmtKind::Assign:
            case ast::StmtKind::AnnAssign: {
                if (s->targets.size() != 1 || s->targets[0]->kind != ExprKind::Name || !s->value)
                    break;
                GlobalValue g;
                if (eval_constant(*s->value, m_names, g.constant)) {
                    g.kind = GlobalValue::Kind::Constant;
                } else {
                    g.kind = GlobalValue::Kind::Unsupported;
                    g.what = "value that is not a compile-time constant";
                }
                const std::string& name = s->targets[0]->name;
                m_names[name] = g;
                m_sequences.erase(name);
                if (s->value->kind == ExprKind::List || s->value->kind == ExprKind::Tuple)
                    m_sequences[name] = s->value.get();
                break;
            }
            case ast::StmtKind::FunctionDef:
                define_function(*s, self);
                break;
            case ast::StmtKind::ClassDef: {
                bool is_struct = false;
                for (const auto& d : s->decorators)
                    is_struct |= decorator_kind(*d, m_names) == "struct";
                GlobalValue g;
                g.kind = GlobalValue::Kind::Unsupported;
                g.what = "class (not decorated with @wp.struct)";
                if (is_struct) g = struct_value(*s, m_module->source->path, m_names);
                m_names[s->name] = g;
                m_sequences.erase(s->name);
                break;
            }
            default:
                break;
        }
    }
}

void ModuleResolver::define_function(const ast::Stmt& s, const std::shared_ptr<Resolver>& self) {
    std::string kind;
    const ast::Expr* forward = nullptr;  // the function a func_grad / func_replay is for
    std::shared_ptr<ir::NativeSnippets> native;
    // innermost first, as Python applies decorators
    for (auto it = s.decorators.rbegin(); it != s.decorators.rend(); ++it) {
        const auto& d = *it;
        std::string k = decorator_kind(*d, m_names);
        if (k == "func_native") {
            native = native_snippets(*d, *m_module->source);
            k = "func";
        }
        if ((k == "kernel" && kind == "func") || (k == "func" && kind == "kernel"))
            throw Error(ErrorKind::Type,
                        "@wp." + k + ": '" + s.name +
                            "' is already a treadle function; apply only one of @wp.func and "
                            "@wp.kernel",
                        ast::location(*m_module->source, d->span));
        if (k == "kernel" || k == "func" || k == "overload") kind = k;
        if (k == "func_grad" || k == "func_replay") {
            kind = k;
            forward = d->kind == ExprKind::Call && d->args.size() == 2 ? d->args[1].get() : nullptr;
        }
    }
    if (kind == "overload") {
        // A declared specialisation of a generic kernel: the name keeps naming the kernel.
        auto it = m_names.find(s.name);
        if (it == m_names.end() || it->second.kind != GlobalValue::Kind::Function ||
            !it->second.function->is_kernel)
            throw Error(ErrorKind::Type, "overload(): no kernel named '" + s.name + "' to overload",
                        ast::location(*m_module->source, s.span));
        std::vector<std::string> types;
        for (const auto& p : s.params)
            types.push_back(p.annotation ? span_text(*m_module->source, p.annotation->span) : "");
        m_declared[s.name].push_back(types);
        return;
    }
    GlobalValue g;
    m_sequences.erase(s.name);
    if (kind.empty()) {
        g.kind = GlobalValue::Kind::Unsupported;
        g.what = "function (not decorated with @wp.func)";
        m_names[s.name] = g;
        return;
    }
    auto fn = std::make_shared<sema::FunctionSource>();
    fn->key = m_module->source->path + ":" + s.name + ":" + std::to_string(s.span.line);
    fn->name = s.name;
    fn->source = m_module->source;
    fn->resolver = self;
    fn->is_kernel = kind == "kernel";
    fn->parsed = m_module;
    fn->def = &s;
    fn->native = native;
    g.kind = GlobalValue::Kind::Function;
    g.function = fn;
    if (kind == "func_grad" || kind == "func_replay") {
        // As Python's decorators: the forward function (the first definition of an
        // overloaded name) gets this one as its custom gradient or replay.
        std::shared_ptr<sema::FunctionSource> target =
            forward && forward->kind == ExprKind::Name ? function(forward->name) : nullptr;
        if (!target || target->is_kernel)
            throw Error(ErrorKind::Type, kind + "(): expects a @wp.func function",
                        ast::location(*m_module->source, s.span));
        auto slot = kind == "func_grad" ? &sema::FunctionSource::custom_grad
                                        : &sema::FunctionSource::custom_replay;
        (*target).*slot = fn;
        if (!target->overloads.empty()) (*target->overloads[0]).*slot = fn;
        m_names[s.name] = g;
        return;
    }
    if (fn->is_kernel) {
        m_kernels.push_back(s.name);
        m_names[s.name] = g;
        return;
    }
    add_overload(s.name, g);
}

void ModuleResolver::add_overload(const std::string& name, GlobalValue& g) {
    // As Python's @wp.func: a definition whose parameter annotations differ from those of the
    // earlier ones of its name adds an overload, one with the same annotations replaces its
    // namesake, and one with an unannotated parameter (or after one) starts again.
    const std::vector<std::string> unannotated{"<unannotated>"};
    auto signature = [&](const sema::FunctionSource& f) {
        std::vector<std::string> out;
        for (const auto& p : f.def->params) {
            if (!p.annotation) return unannotated;
            out.push_back(span_text(*m_module->source, p.annotation->span));
        }
        return out;
    };
    auto previous = m_names.find(name);
    std::vector<std::shared_ptr<sema::FunctionSource>> group;
    if (previous != m_names.end() && previous->second.kind == GlobalValue::Kind::Function &&
        !previous->second.function->is_kernel) {
        const auto& earlier = previous->second.function;
        group = earlier->overloads;
        if (group.empty()) group.push_back(earlier);
    }
    std::vector<std::string> sig = signature(*g.function);
    if (group.empty() || sig == unannotated || signature(*group[0]) == unannotated) {
        m_names[name] = g;
        return;
    }
    bool replaced = false;
    for (auto& member : group) {
        if (signature(*member) == sig) {
            member = g.function;
            replaced = true;
        }
    }
    if (!replaced) group.push_back(g.function);
    // The name dispatches through a copy of the first definition that lists them all (the
    // definitions themselves list none, so nothing owns itself).
    auto holder = std::make_shared<sema::FunctionSource>(*group[0]);
    holder->overloads = group;
    g.function = holder;
    m_names[name] = g;
}

GlobalValue ModuleResolver::static_value(
    const std::string& expression, const std::vector<std::pair<std::string, int64_t>>& indices) {
    std::shared_ptr<const ast::Module> parsed;
    try {
        parsed = frontend::parse_module(
            ast::make_source(m_module->source->path, "(" + expression + "\n)", 1));
    } catch (const Error& e) {
        GlobalValue g;
        g.kind = GlobalValue::Kind::Error;
        g.what = std::string("SyntaxError: ") + e.what();
        return g;
    }
    std::map<std::string, GlobalValue> names = m_names;
    for (const auto& [name, value] : indices) {
        GlobalValue g;
        g.kind = GlobalValue::Kind::Constant;
        g.constant = types::ConstValue{types::int32_type(), true, value, 0.0};
        names[name] = g;
    }
    return static_eval(*parsed->body[0]->value, names);
}

GlobalValue ModuleResolver::static_eval(const ast::Expr& e,
                                        const std::map<std::string, GlobalValue>& names) const {
    GlobalValue g;
    if (e.kind == ExprKind::Name) {
        auto it = names.find(e.name);
        if (it != names.end() && !m_sequences.count(e.name)) return it->second;
        g.kind = GlobalValue::Kind::Error;
        g.what = it == names.end() ? "NameError: name '" + e.name + "' is not defined"
                                   : "TypeError: '" + e.name + "' is a list or tuple";
        return g;
    }
    if (e.kind == ExprKind::Subscript && e.args[0]->kind == ExprKind::Name &&
        m_sequences.count(e.args[0]->name)) {
        // An element of a module-level list or tuple (of functions, say) at a constant index.
        const ast::Expr& seq = *m_sequences.at(e.args[0]->name);
        types::ConstValue index;
        if (eval_constant(*e.args[1], names, index) && index.type->is_integer()) {
            int64_t i = index.i < 0 ? index.i + (int64_t)seq.args.size() : index.i;
            if (i >= 0 && i < (int64_t)seq.args.size()) return static_eval(*seq.args[i], names);
            g.kind = GlobalValue::Kind::Error;
            g.what = "IndexError: index " + std::to_string(index.i) + " is out of range";
            return g;
        }
    }
    if (eval_constant(e, names, g.constant)) {
        g.kind = GlobalValue::Kind::Constant;
        return g;
    }
    g.kind = GlobalValue::Kind::Unsupported;
    g.what = "value that is not a compile-time constant of the module";
    return g;
}

const std::vector<std::vector<std::string>>& ModuleResolver::declared_overloads(
    const std::string& kernel) const {
    static const std::vector<std::vector<std::string>> none;
    auto it = m_declared.find(kernel);
    return it == m_declared.end() ? none : it->second;
}

GlobalValue ModuleResolver::lookup(const std::string& name) {
    auto it = m_names.find(name);
    return it == m_names.end() ? GlobalValue{} : it->second;
}

GlobalValue ModuleResolver::attribute(const std::string& module, const std::string& attribute) {
    GlobalValue g;
    if (module == "py:typing" && attribute == "Any") {
        g.kind = GlobalValue::Kind::Type;
        g.type = types::generic_type("Any");
        return g;
    }
    // wp.Volume.CLOSEST / LINEAR: the sampling modes (python/treadle/volume.py's constants)
    if (module == "py:treadle" && attribute == "Volume") {
        g.kind = GlobalValue::Kind::Module;
        g.module = "py:treadle.Volume";
        return g;
    }
    if (module == "py:treadle.Volume" && (attribute == "CLOSEST" || attribute == "LINEAR")) {
        g.kind = GlobalValue::Kind::Constant;
        g.constant = types::ConstValue{types::int32_type(), true, attribute == "LINEAR", 0.0};
        return g;
    }
    g.kind = GlobalValue::Kind::Unsupported;
    g.what = "attribute of module '" + module.substr(3) + "' (" + attribute + ")";
    return g;
}

std::shared_ptr<sema::FunctionSource> ModuleResolver::function(const std::string& name) const {
    auto it = m_names.find(name);
    if (it == m_names.end() || it->second.kind != GlobalValue::Kind::Function) return nullptr;
    return it->second.function;
}

}  // namespace treadle
