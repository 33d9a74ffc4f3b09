// src/api/module_resolver.h -- the Resolver of a module file read by the C++ loader
#pragma once

#include <map>
#include <memory>
#include <string>

#include "sema/resolver.h"

namespace treadle {

/// Names defined at the top level of a module file: imports of treadle/warp/math, constants
/// (literals, wp.constant(...), typed scalars such as wp.float64(2.0), arithmetic on earlier
/// constants), @wp.func / @wp.kernel definitions and @wp.struct classes (named
/// "<file stem>.<class>" in their type spec).
class ModuleResolver : public sema::Resolver {
public:
    /// Walks `module`'s top-level statements; unsupported globals are reported when a kernel
    /// uses them. The functions it defines point back at this resolver without owning it, so
    /// the resolver must outlive their compilation (Module keeps it).
    explicit ModuleResolver(std::shared_ptr<const ast::Module> module);

    sema::GlobalValue lookup(const std::string& name) override;
    sema::GlobalValue attribute(const std::string& module, const std::string& attribute) override;

    /// The function (kernel or func) defined as `name`, or null.
    std::shared_ptr<sema::FunctionSource> function(const std::string& name) const;
    /// Kernel names in file order.
    const std::vector<std::string>& kernels() const { return m_kernels; }

private:
    std::shared_ptr<const ast::Module> m_module;
    std::map<std::string, sema::GlobalValue> m_names;
    std::vector<std::string> m_kernels;
};

}  // namespace treadle
