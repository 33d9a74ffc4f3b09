// src/api/module_resolver.h -- the Resolver of a module file read by the C++ loader
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sema/resolver.h"

namespace treadle {

/// Names defined at the top level of a module file: imports of treadle/warp/math (and
/// typing.Any), constants (literals, wp.constant(...), typed scalars such as wp.float64(2.0),
/// arithmetic on earlier constants), @wp.func / @wp.kernel definitions (several @wp.func of one
/// name with other annotations are overloads, as in Python), @wp.func_grad(f) and
/// @wp.func_replay(f) functions of a @wp.func, @wp.overload declarations of a
/// generic kernel's types, and @wp.struct classes (named "<file stem>.<class>" in their type
/// spec). wp.static() expressions evaluate over these constants, the indices of enclosing
/// unrolled loops, and elements of module-level lists and tuples at constant indices.
class ModuleResolver : public sema::Resolver {
public:
    /// Walks `module`'s top-level statements; unsupported globals are reported when a kernel
    /// uses them. The functions it defines point back at this resolver without owning it, so
    /// the resolver must outlive their compilation (Module keeps it).
    explicit ModuleResolver(std::shared_ptr<const ast::Module> module);

    sema::GlobalValue lookup(const std::string& name) override;
    sema::GlobalValue attribute(const std::string& module, const std::string& attribute) override;
    sema::GlobalValue static_value(
        const std::string& expression,
        const std::vector<std::pair<std::string, int64_t>>& indices) override;

    /// The function (kernel or func) defined as `name`, or null.
    std::shared_ptr<sema::FunctionSource> function(const std::string& name) const;
    /// Kernel names in file order.
    const std::vector<std::string>& kernels() const { return m_kernels; }

    /// The argument types of every @wp.overload declaration of `kernel`, in file order: the
    /// annotation text of each parameter ("" for none), as Module::kernel(name, types) takes.
    const std::vector<std::vector<std::string>>& declared_overloads(
        const std::string& kernel) const;

private:
    /// A def decorated with @wp.kernel, @wp.func, @wp.func_grad, @wp.func_replay or
    /// @wp.overload (others are unsupported).
    void define_function(const ast::Stmt& def, const std::shared_ptr<Resolver>& self);
    /// Binds `name` to the @wp.func in `g`, as an overload of earlier definitions of the name
    /// when its annotations differ from theirs.
    void add_overload(const std::string& name, sema::GlobalValue& g);
    /// The value of a wp.static() expression over `names`.
    sema::GlobalValue static_eval(const ast::Expr& e,
                                  const std::map<std::string, sema::GlobalValue>& names) const;

    std::shared_ptr<const ast::Module> m_module;
    std::map<std::string, sema::GlobalValue> m_names;
    std::vector<std::string> m_kernels;
    /// Module-level lists and tuples by name (their elements are read by wp.static).
    std::map<std::string, const ast::Expr*> m_sequences;
    std::map<std::string, std::vector<std::vector<std::string>>> m_declared;
};

}  // namespace treadle
