// src/codegen/native_function.cpp -- @wp.func_native functions: the user's C++/CUDA snippets
// wrapped in a forward function, its replay variant and its adjoint
//
// The snippets name parameters by their Python names, so these functions are printed here
// rather than by the statement walk (whose variables are "v12_x"). The forward function and
// the replay variant take the parameters by value; the adjoint takes them, then a reference
// `adj_<name>` for every parameter with a gradient (the convention of every user function's
// adjoint, see adjoint.cpp), then `adj_ret`, and declares `adj_<name>` for the others: an
// array's gradient as an array of its own, a zeroed local for anything else.
#include "codegen/function_emitter.h"
#include "codegen/type_spelling.h"
#include "common/assert.h"

namespace treadle::codegen {

namespace {

/// `#line` to the stub's def, so compiler messages about the snippet point at the Python
/// function.
void def_line(const ir::Function& f, Text& out) {
    if (!f.source) return;
    out << "#line " << f.source->first_line << " " << c_string(f.source->path) << "\n";
}

/// The parameter list "T a, wp::array_t<float> x" with the Python names.
std::string native_params(const ir::Function& f) {
    std::string s;
    for (size_t i = 0; i < f.params.size(); ++i)
        s += (i ? ", " : "") + c_type(f.type_of(f.params[i])) + " " + f.param_names[i];
    return s;
}

/// The snippet as a function body: its own lines, ending in a newline.
void body(const std::string& snippet, Text& out) {
    out << snippet;
    if (snippet.empty() || snippet.back() != '\n') out << "\n";
}

}  // namespace

void emit_native_function(const ir::Function& f, const Backend& backend, Text& out, bool replay) {
    TREADLE_ASSERT(f.native != nullptr);
    const types::Type* rt = f.return_type;
    def_line(f, out);
    out << backend.function_qualifier() << " " << (rt->is_void() ? "void" : c_type(rt)) << " "
        << (replay ? replay_name(f) : f.c_name) << "(" << native_params(f) << ") {\n";
    const std::string& text = replay && f.native->replay ? *f.native->replay : f.native->forward;
    body(text, out);
    out << "}\n\n";
}

void emit_native_adjoint(const passes::AdjointPlan& plan, const Backend& backend, Text& out) {
    const ir::Function& f = *plan.function;
    TREADLE_ASSERT(f.native != nullptr);
    def_line(f, out);
    out << backend.function_qualifier() << " void " << adjoint_name(f) << "(" << native_params(f);
    bool first = f.params.empty();
    for (size_t i = 0; i < f.params.size(); ++i) {
        if (!plan.gradient(f.params[i])) continue;
        out << (first ? "" : ", ") << c_type(f.type_of(f.params[i])) << "& adj_"
            << f.param_names[i];
        first = false;
    }
    if (!f.return_type->is_void())
        out << (first ? "" : ", ") << c_type(f.return_type) << " adj_ret";
    out << ") {\n";
    for (size_t i = 0; i < f.params.size(); ++i) {
        if (plan.gradient(f.params[i])) continue;
        const types::Type* t = f.type_of(f.params[i]);
        const std::string& name = f.param_names[i];
        if (t->is_array() && !t->indexed && !t->fabric)
            out << "    " << c_type(t) << " adj_" << name << " = wp::grad_view(" << name << ");\n";
        else
            out << "    " << c_type(t) << " adj_" << name << "{};\n";
        out << "    (void)adj_" << name << ";\n";
    }
    if (!f.return_type->is_void()) out << "    (void)adj_ret;\n";
    if (f.native->adjoint) body(*f.native->adjoint, out);
    out << "}\n\n";
}

}  // namespace treadle::codegen
