// src/sema/specialise.h -- generic kernels: which parameters are generic, and specialisations
//
// A kernel whose annotations use placeholders (typing.Any, wp.Float, array(dtype=Any), ...)
// never compiles itself; each list of concrete parameter types is a kernel of its own
// (FunctionSource::param_types). These functions decide that list the same way for both front
// ends: from launch argument types (Python's wp.launch) or from declared types (wp.overload,
// Module::kernel(name, types)). Naming and caching the specialisations is the front end's.
#pragma once

#include <string>
#include <vector>

#include "builtins/builtins.h"
#include "sema/resolver.h"

namespace treadle::sema {

/// A kernel's parameters as its annotations declare them.
struct KernelParams {
    std::vector<std::string> names;
    /// The annotated type of each parameter (generic ones included); null when a parameter has
    /// no annotation (the build reports that).
    std::vector<const types::Type*> annotations;
    /// Whether parameter `i` is generic.
    bool generic(size_t i) const { return annotations[i] && annotations[i]->is_generic(); }
    /// Whether any parameter is generic: the kernel only compiles as a specialisation.
    bool any_generic() const;
};

/// Parses `kernel` and evaluates its parameter annotations through its resolver. Throws the
/// build's errors (Syntax, Type) for a def or annotation that is wrong.
KernelParams kernel_params(const FunctionSource& kernel);

/// The specialisation of generic `kernel` for launch arguments of types `args` (Warp's rules:
/// a weak int, a Python int, is int32 and a weak float float32; every other argument,
/// arrays included, has its own type): one type per parameter, null where the annotation is
/// concrete. A null ArgInfo::type is allowed for concrete parameters only. Throws
/// ErrorKind::Type for a wrong number of arguments or an argument that does not fit its
/// generic annotation.
std::vector<const types::Type*> specialise_for_arguments(
    const FunctionSource& kernel, const std::vector<builtins::ArgInfo>& args);

/// The specialisation wp.overload(kernel, types) declares: `given` holds one type per
/// parameter (null: not given); a generic parameter must be given a concrete type, a concrete
/// one's type is its annotation's. `who` starts error messages ("overload()"). Throws
/// ErrorKind::Type for a kernel that is not generic, a missing or generic type.
std::vector<const types::Type*> specialise_declared(const FunctionSource& kernel,
                                                    const std::vector<const types::Type*>& given,
                                                    const std::string& who);

/// The type an annotation written as source text (`float`, `wp.array(dtype=wp.vec3)`) names
/// in `scope`'s namespace (its resolver); generic types allowed. Throws ErrorKind::Type (or
/// Syntax) when it names no type, located in `text` (file "<annotation>").
const types::Type* annotation_type(const FunctionSource& scope, const std::string& text);

}  // namespace treadle::sema
