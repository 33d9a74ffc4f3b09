// src/sema/specialise.cpp -- which parameters of a kernel are generic, and its specialisations
#include "sema/specialise.h"

#include "frontend/parser.h"
#include "sema/infer.h"
#include "sema/infer_internal.h"

namespace treadle::sema {

namespace {

/// What a Builder needs to evaluate annotations in `fn`'s namespace outside a build.
struct AnnotationScope {
    std::shared_ptr<const ast::Module> module;
    const ast::Stmt* def = nullptr;
    ir::Program program;
    ProgramBuilder builder{program};
    ir::Function scratch;
    ir::Block block;

    explicit AnnotationScope(const FunctionSource& fn) {
        module = parse_function_source(fn, &def);
        builder.max_unroll = fn.max_unroll;
        scratch.name = def->name;
    }
    /// A Builder of `source` (which must outlive it) writing into the scratch function.
    Builder make(const FunctionSource& source) {
        Builder b(builder, source, *def, scratch);
        b.set_block(&block);
        return b;
    }
};

[[noreturn]] void param_error(const FunctionSource& kernel, const ast::Stmt& def, size_t i,
                              const std::string& msg) {
    throw Error(ErrorKind::Type, msg, ast::location(*kernel.source, def.params[i].span));
}

}  // namespace

bool KernelParams::any_generic() const {
    for (size_t i = 0; i < annotations.size(); ++i)
        if (generic(i)) return true;
    return false;
}

namespace {

/// kernel_params(), and the parsed def in `scope` (for error locations).
KernelParams read_params(const FunctionSource& kernel, AnnotationScope& scope) {
    Builder b = scope.make(kernel);
    KernelParams out;
    for (const ast::Param& p : scope.def->params) {
        out.names.push_back(p.name);
        out.annotations.push_back(p.annotation ? b.param_annotation(p.name, *p.annotation)
                                               : nullptr);
    }
    return out;
}

}  // namespace

KernelParams kernel_params(const FunctionSource& kernel) {
    AnnotationScope scope(kernel);
    return read_params(kernel, scope);
}

std::vector<const types::Type*> specialise_for_arguments(
    const FunctionSource& kernel, const std::vector<builtins::ArgInfo>& args) {
    AnnotationScope scope(kernel);
    KernelParams params = read_params(kernel, scope);
    const ast::Stmt* def = scope.def;
    size_t n = params.names.size();
    if (args.size() != n)
        throw Error(ErrorKind::Type, kernel.name + "(): takes " + std::to_string(n) +
                                         " arguments but " + std::to_string(args.size()) +
                                         " were given");
    std::vector<const types::Type*> out(n, nullptr);
    for (size_t i = 0; i < n; ++i) {
        if (!params.generic(i)) continue;
        const types::Type* t = args[i].type;
        if (!t)
            param_error(kernel, *def, i,
                        kernel.name + "(): cannot infer the type of generic argument '" +
                            params.names[i] + "'");
        // Warp's rule: a Python number is int32 or float32, whatever the placeholder.
        if (args[i].weak) t = t->is_float() ? types::float32_type() : types::int32_type();
        if (!types::generic_matches(params.annotations[i], t))
            param_error(kernel, *def, i,
                        kernel.name + "(): argument '" + params.names[i] + "' has type " + t->name +
                            " but the parameter is " + params.annotations[i]->name);
        out[i] = t;
    }
    return out;
}

std::vector<const types::Type*> specialise_declared(const FunctionSource& kernel,
                                                    const std::vector<const types::Type*>& given,
                                                    const std::string& who) {
    KernelParams params = kernel_params(kernel);
    size_t n = params.names.size();
    if (!params.any_generic())
        throw Error(ErrorKind::Type, who + ": kernel '" + kernel.name + "' is not generic");
    if (given.size() != n)
        throw Error(ErrorKind::Type, who + ": kernel '" + kernel.name + "' takes " +
                                         std::to_string(n) + " arguments but " +
                                         std::to_string(given.size()) + " types were given");
    std::vector<const types::Type*> out(n, nullptr);
    for (size_t i = 0; i < n; ++i) {
        if (!params.generic(i)) continue;
        if (!given[i])
            throw Error(ErrorKind::Type,
                        who + ": no type given for generic parameter '" + params.names[i] + "'");
        if (given[i]->is_generic())
            throw Error(ErrorKind::Type, who + ": parameter '" + params.names[i] +
                                             "' needs a concrete type, got " + given[i]->name);
        out[i] = given[i];
    }
    return out;
}

const types::Type* annotation_type(const FunctionSource& scope, const std::string& text) {
    FunctionSource where = scope;
    where.source = ast::make_source("<annotation>", text, 1);
    std::shared_ptr<const ast::Module> parsed = frontend::parse_module(where.source);
    if (parsed->body.size() != 1 || parsed->body[0]->kind != ast::StmtKind::ExprStmt)
        throw Error(ErrorKind::Type, scope.name + "(): '" + text + "' is not a type annotation");
    AnnotationScope annotations(scope);
    Builder b = annotations.make(where);
    return b.eval_annotation(*parsed->body[0]->value, true);
}

}  // namespace treadle::sema
