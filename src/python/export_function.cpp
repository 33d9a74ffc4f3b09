// src/python/export_function.cpp -- _treadle.FunctionSource and the resolver of Python names
//
// Python describes every @wp.func and @wp.kernel to the compiler as a FunctionSource built
// with named fields (python/treadle/kernel.py, Function._function_source). Its `resolver` is a
// Python object (python/treadle/resolver.py, Resolver) whose named methods answer the
// compiler's questions about the function's globals; PyResolver forwards sema's Resolver
// calls to it and converts the answers (descriptor tuples, or a FunctionSource for a function).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <climits>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "exports.h"
#include "sema/resolver.h"
#include "sema/specialise.h"

namespace {

using treadle::sema::FunctionSource;
using treadle::sema::GlobalValue;

/// The Resolver of a Python function: forwards each query to the named method of the front
/// end's resolver object (lookup, attribute, annotation, static_value). Every call into Python
/// (and the release of the object) takes the GIL, so a build may run on any thread.
class PyResolver : public treadle::sema::Resolver {
public:
    explicit PyResolver(nb::object resolver) : m_resolver(std::move(resolver)) {}
    ~PyResolver() override {
        nb::gil_scoped_acquire gil;
        m_resolver.reset();
    }

    const void* identity() const override { return m_resolver.ptr(); }

    GlobalValue lookup(const std::string& name) override {
        nb::gil_scoped_acquire gil;
        return convert(m_resolver.attr("lookup")(name));
    }
    GlobalValue attribute(const std::string& module, const std::string& name) override {
        nb::gil_scoped_acquire gil;
        return convert(m_resolver.attr("attribute")(module, name));
    }
    GlobalValue annotation(const std::string& param) override {
        nb::gil_scoped_acquire gil;
        return convert(m_resolver.attr("annotation")(param));
    }
    GlobalValue static_value(const std::string& expression,
                             const std::vector<std::pair<std::string, int64_t>>& indices) override {
        nb::gil_scoped_acquire gil;
        nb::dict bound;
        for (const auto& [name, value] : indices) bound[name.c_str()] = value;
        return convert(m_resolver.attr("static_value")(expression, bound));
    }

    /// An answer of the Python resolver as sema sees it: None (not found), a FunctionSource,
    /// or a descriptor tuple ("module", handle), ("const", Type, value or components, weak),
    /// ("type", Type), ("builtin", name), ("error", message), ("unsupported", python type).
    static GlobalValue convert(nb::handle d) {
        GlobalValue g;
        if (d.is_none()) return g;
        if (nb::isinstance<FunctionSource>(d)) {
            g.kind = GlobalValue::Kind::Function;
            g.function = nb::cast<std::shared_ptr<FunctionSource>>(d);
            return g;
        }
        nb::tuple t = nb::cast<nb::tuple>(d);
        std::string kind = nb::cast<std::string>(t[0]);
        if (kind == "module") {
            g.kind = GlobalValue::Kind::Module;
            g.module = nb::cast<std::string>(t[1]);
        } else if (kind == "const") {
            convert_constant(nb::cast<const treadle::types::Type*>(t[1]), t[2],
                             nb::cast<bool>(t[3]), g);
        } else if (kind == "type") {
            g.kind = GlobalValue::Kind::Type;
            g.type = nb::cast<const treadle::types::Type*>(t[1]);
        } else if (kind == "builtin") {
            g.kind = GlobalValue::Kind::Builtin;
            g.what = nb::cast<std::string>(t[1]);
        } else if (kind == "error") {
            g.kind = GlobalValue::Kind::Error;
            g.what = nb::cast<std::string>(t[1]);
        } else {
            g.kind = GlobalValue::Kind::Unsupported;
            g.what = nb::cast<std::string>(t[1]);
        }
        return g;
    }

private:
    /// A constant of `type` with `value` (a number, or the row-major components of a
    /// vector-like value). `weak`: a Python int (int32) or float (float32), whose type the other
    /// operand decides, as for literals; a weak int outside int32's range is an int64.
    static void convert_constant(const treadle::types::Type* type, nb::handle value, bool weak,
                                 GlobalValue& g) {
        g.kind = GlobalValue::Kind::Constant;
        g.constant.type = type;
        g.constant.weak = weak;
        if (type->is_struct()) {  // one value per field, in order (resolver.describe)
            nb::tuple values = nb::cast<nb::tuple>(value);
            if (values.size() != type->fields.size()) {
                g.kind = GlobalValue::Kind::Unsupported, g.what = "constant of type " + type->name;
                return;
            }
            for (size_t i = 0; i < values.size(); ++i) {
                GlobalValue field;
                convert_constant(type->fields[i].type, values[i], false, field);
                if (field.kind != GlobalValue::Kind::Constant) {  // the innermost reason
                    g = std::move(field);
                    return;
                }
                g.fields.push_back(std::move(field));
            }
            return;
        }
        if (type->is_value() && !type->is_scalar()) {
            for (nb::handle c : nb::iter(value)) g.components.push_back(nb::cast<double>(c));
            if ((int)g.components.size() != type->components())
                g.kind = GlobalValue::Kind::Unsupported, g.what = "constant of type " + type->name;
            return;
        }
        if (!type->is_scalar()) {
            g.kind = GlobalValue::Kind::Unsupported;
            g.what = "constant of type " + type->name;
            return;
        }
        // Python ints have no bound: one that does not fit the constant's 64 bits is the
        // user's mistake, reported where the kernel names it.
        bool fits = true;
        if (type->is_float()) {
            fits = nb::try_cast<double>(value, g.constant.f);
        } else if (type->scalar == treadle::ScalarType::UInt64) {
            uint64_t u = 0;
            fits = nb::try_cast<uint64_t>(value, u);
            g.constant.i = (int64_t)u;
        } else {
            fits = nb::try_cast<int64_t>(value, g.constant.i);
        }
        if (!fits) {
            g.kind = GlobalValue::Kind::Error;
            g.what = "the constant " + nb::cast<std::string>(nb::repr(value)) + " does not fit " +
                     (type->is_float() ? std::string("a float64") : std::string("64 bits"));
            return;
        }
        if (weak && type->is_integer() && (g.constant.i > INT32_MAX || g.constant.i < INT32_MIN))
            g.constant.type = treadle::types::int64_type();
    }

    nb::object m_resolver;
};

/// A list of Type objects and None (null) from Python.
std::vector<const treadle::types::Type*> types_of_list(nb::handle list) {
    std::vector<const treadle::types::Type*> out;
    for (nb::handle item : nb::iter(list))
        out.push_back(item.is_none() ? nullptr : nb::cast<const treadle::types::Type*>(item));
    return out;
}

/// A list of Type objects and None (for null) for Python.
nb::list list_of_types(const std::vector<const treadle::types::Type*>& types) {
    nb::list out;
    for (const treadle::types::Type* t : types)
        out.append(t ? nb::cast(t, nb::rv_policy::reference) : nb::none());
    return out;
}

/// The concrete parameter types of a specialisation (null: the parameter's own annotation,
/// which must then be concrete).
std::vector<const treadle::types::Type*> param_types_of(const std::string& name, nb::handle list) {
    std::vector<const treadle::types::Type*> out = types_of_list(list);
    for (const treadle::types::Type* t : out)
        if (t && t->is_generic())
            throw treadle::Error(treadle::ErrorKind::Type,
                                 name + "(): cannot specialise for type '" + t->name + "'");
    return out;
}

/// (name, annotation Type or None, generic) of every parameter of a kernel.
nb::list kernel_parameters(const FunctionSource& kernel) {
    treadle::sema::KernelParams params = treadle::sema::kernel_params(kernel);
    nb::list out;
    for (size_t i = 0; i < params.names.size(); ++i) {
        const treadle::types::Type* t = params.annotations[i];
        out.append(nb::make_tuple(params.names[i],
                                  t ? nb::cast(t, nb::rv_policy::reference) : nb::none(),
                                  params.generic(i)));
    }
    return out;
}

/// The specialisation of a generic kernel for launch arguments, each described by
/// (Type, weak) (weak: a Python int or float, whose type the compiler decides) or None (a
/// value whose type Python cannot name).
nb::list specialise(const FunctionSource& kernel, nb::handle arg_types) {
    std::vector<treadle::builtins::ArgInfo> args;
    for (nb::handle item : nb::iter(arg_types)) {
        treadle::builtins::ArgInfo a;
        if (!item.is_none()) {
            nb::tuple t = nb::cast<nb::tuple>(item);
            a.type = nb::cast<const treadle::types::Type*>(t[0]);
            a.weak = nb::cast<bool>(t[1]);
        }
        args.push_back(a);
    }
    return list_of_types(treadle::sema::specialise_for_arguments(kernel, args));
}

/// The specialisation wp.overload declares: a Type (or None: not given) per parameter.
nb::list specialise_declared(const FunctionSource& kernel, nb::handle types,
                             const std::string& who) {
    return list_of_types(treadle::sema::specialise_declared(kernel, types_of_list(types), who));
}

}  // namespace

void export_function(nb::module_& m) {
    m.def("kernel_parameters", &kernel_parameters, nb::arg("kernel"),
          "(name, annotation Type or None, generic) of every parameter of a kernel, as the "
          "compiler reads its annotations.");
    m.def("specialise", &specialise, nb::arg("kernel"), nb::arg("arg_types"),
          "The specialisation of a generic kernel for launch arguments, each (Type, weak) (weak: "
          "a Python int or float) or None: a Type per parameter, None where the annotation is "
          "concrete. Raises TypeError when an argument does not fit.");
    m.def("specialise_declared", &specialise_declared, nb::arg("kernel"), nb::arg("types"),
          nb::arg("who"),
          "The specialisation wp.overload declares from a Type (or None) per parameter.");
    nb::class_<FunctionSource>(m, "FunctionSource",
                               "A @wp.func or @wp.kernel as the compiler sees it: its source "
                               "text, where it is defined and how its globals resolve.")
        .def(
            "__init__",
            [](FunctionSource* self, const std::string& key, const std::string& name,
               const std::string& source, const std::string& file, int line, bool is_kernel,
               nb::object resolver, std::shared_ptr<FunctionSource> custom_grad,
               std::shared_ptr<FunctionSource> custom_replay,
               std::vector<std::shared_ptr<FunctionSource>> overloads, nb::list arg_types,
               int max_unroll, std::optional<std::string> native,
               std::optional<std::string> native_adjoint, std::optional<std::string> native_replay,
               bool enable_backward) {
                FunctionSource* fn = new (self) FunctionSource();
                fn->enable_backward = enable_backward;
                fn->key = key;
                fn->name = name;
                fn->source = treadle::ast::make_source(file, source, line);
                fn->is_kernel = is_kernel;
                if (!resolver.is_none()) fn->resolver = std::make_shared<PyResolver>(resolver);
                fn->custom_grad = std::move(custom_grad);
                fn->custom_replay = std::move(custom_replay);
                fn->overloads = std::move(overloads);
                fn->param_types = param_types_of(name, arg_types);
                fn->max_unroll = max_unroll;
                if (native) {
                    auto snippets = std::make_shared<treadle::ir::NativeSnippets>();
                    snippets->forward = std::move(*native);
                    snippets->adjoint = std::move(native_adjoint);
                    snippets->replay = std::move(native_replay);
                    fn->native = std::move(snippets);
                }
            },
            nb::kw_only(), nb::arg("key"), nb::arg("name"), nb::arg("source"), nb::arg("file"),
            nb::arg("line"), nb::arg("is_kernel") = false, nb::arg("resolver").none() = nb::none(),
            nb::arg("custom_grad").none() = nullptr, nb::arg("custom_replay").none() = nullptr,
            nb::arg("overloads") = std::vector<std::shared_ptr<FunctionSource>>(),
            nb::arg("arg_types") = nb::list(), nb::arg("max_unroll") = 16,
            nb::arg("native").none() = nb::none(), nb::arg("native_adjoint").none() = nb::none(),
            nb::arg("native_replay").none() = nb::none(), nb::arg("enable_backward") = true,
            "key: identifies the function across lookups; source: the text of its def (first "
            "line `line` of `file`); resolver: an object answering lookup(name), "
            "attribute(module, name), annotation(param) and static_value(expression, indices); "
            "custom_grad/custom_replay: the @wp.func_grad / @wp.func_replay functions; "
            "overloads: every definition of an overloaded name, this one included; arg_types: "
            "a generic kernel's specialisation (a Type per parameter, None for one whose "
            "annotation is concrete); max_unroll: the trip count limit of unrolled loops; "
            "native/native_adjoint/native_replay: a @wp.func_native function's C++/CUDA "
            "snippets (its forward body, its adjoint's body, its replay's body); enable_backward: "
            "whether a backward pass may be built (kernels).")
        .def_ro("key", &FunctionSource::key)
        .def_ro("name", &FunctionSource::name)
        .def_ro("is_kernel", &FunctionSource::is_kernel)
        .def_ro("max_unroll", &FunctionSource::max_unroll)
        .def_prop_ro("is_native", [](const FunctionSource& f) { return f.native != nullptr; })
        .def_prop_ro(
            "source", [](const FunctionSource& f) { return f.source->text; },
            "The Python source text of the function (the def, as given).")
        .def_prop_ro("file", [](const FunctionSource& f) { return f.source->path; })
        .def_prop_ro("line", [](const FunctionSource& f) { return f.source->first_line; })
        .def("__repr__", [](const FunctionSource& f) {
            return "<FunctionSource " + f.name + (f.is_kernel ? " (kernel)>" : ">");
        });
}
