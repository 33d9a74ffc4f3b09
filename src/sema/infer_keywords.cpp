// src/sema/infer_keywords.cpp -- keyword arguments of builtin calls, by documented parameter name
//
// `wp.pow(y=4.0, x=2.0)` and `wp.expect_near(a, b, tolerance=t)` are rewritten before they are
// inferred into the positional call the table's signature orders (`wp.pow(2.0, 4.0)`), so every
// lowering of builtins sees positional arguments only.
#include "sema/infer_internal.h"

namespace treadle::sema {

const ast::Expr& Builder::keywords_as_positional(const Builtin& b, const ast::Expr& e) {
    const std::vector<builtins::Param>& params = builtins::builtin_params(b);
    const std::string name = b.name;
    std::vector<const ast::Expr*> slots(params.size(), nullptr);
    const size_t positional = e.args.size() - 1;
    for (size_t i = 0; i < positional; ++i) {
        if (i >= params.size() || params[i].variadic)
            type_error(e.keywords[0].span,
                       name + "(): keyword arguments cannot follow its variadic arguments");
        slots[i] = e.args[i + 1].get();
    }
    for (const ast::Keyword& k : e.keywords) {
        size_t at = params.size();
        for (size_t i = 0; i < params.size(); ++i)
            if (params[i].name == k.name && !params[i].variadic) at = i;
        if (at == params.size())
            type_error(k.span, name + "(): unexpected argument '" + k.name +
                                   "' (the signature is " + b.signature + ")");
        if (slots[at])
            type_error(k.span, name + "(): got multiple values for argument '" + k.name + "'");
        slots[at] = k.value.get();
    }
    size_t count = 0;
    for (size_t i = 0; i < slots.size(); ++i)
        if (slots[i]) count = i + 1;
    for (size_t i = 0; i < count; ++i)
        if (!slots[i])
            type_error(e.span, name + "(): missing argument '" + params[i].name +
                                   "' before the keyword arguments given");
    auto call = std::make_unique<ast::Expr>(ast::ExprKind::Call, e.span);
    call->args.push_back(ast::clone(*e.args[0]));
    for (size_t i = 0; i < count; ++i) call->args.push_back(ast::clone(*slots[i]));
    m_synthetic.push_back(std::move(call));
    return *m_synthetic.back();
}

}  // namespace treadle::sema
