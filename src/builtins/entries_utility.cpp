// src/builtins/entries_utility.cpp -- the builtin table's thread index, printing, len and atomics
#include "builtins/entries.h"

namespace treadle::builtins::entries {

/// Builtins lowered by dedicated inference code: tid, print, printf, len, atomics.
std::vector<Builtin> utility() {
    return {
        {"tid", "tid_unravel", BuiltinKind::Tid, "Utility", "tid() -> int | tuple(int, ...)",
         "The index of the current thread in the launch; with a multi-dimensional launch, unpack "
         "one index per dimension (i, j = wp.tid()). Kernels only.",
         false, nullptr},
        {"print", "print", BuiltinKind::Print, "Utility", "print(value)",
         "Prints its arguments (scalars, vectors, matrices, quaternions, transforms, structs and "
         "strings), separated by spaces, and a newline. On the host, Python's print.",
         false, nullptr, with().host().python_builtin()},
        {"printf", "printf", BuiltinKind::Printf, "Utility", "printf(fmt: str, *args)",
         "C-style formatted printing of scalars: fmt is a constant format string with one "
         "conversion (%d, %f, %g, ...) per argument.",
         false, nullptr},
        {"len", "len", BuiltinKind::Len, "Utility", "len(a: array) -> int",
         "The size of the first dimension of array a, an int32; of a vector, quaternion or "
         "transform its number of components, of a matrix its number of rows (constants).",
         false, nullptr, with().python_builtin()},
        {"atomic_add", "atomic_add", BuiltinKind::Atomic, "Utility",
         "atomic_add(a: array, i..., value) -> Scalar",
         "Atomically adds value to the array element a[i...] (one index per dimension of a) and "
         "returns the element's old value; also what a[i] += value does.",
         true, nullptr, with().value_operands(1).atomic(AtomicOp::Add)},
        {"atomic_sub", "atomic_sub", BuiltinKind::Atomic, "Utility",
         "atomic_sub(a: array, i..., value) -> Scalar",
         "Atomically subtracts value from the array element a[i...] (one index per dimension of a) "
         "and returns the element's old value; also what a[i] -= value does.",
         true, nullptr, with().value_operands(1).atomic(AtomicOp::Sub)},
        {"atomic_min", "atomic_min", BuiltinKind::Atomic, "Utility",
         "atomic_min(a: array, i..., value) -> Scalar",
         "Atomically stores min(a[i...], value) in the array element a[i...] and returns the "
         "element's old value.",
         true, nullptr, with().value_operands(1).atomic(AtomicOp::Min)},
        {"atomic_max", "atomic_max", BuiltinKind::Atomic, "Utility",
         "atomic_max(a: array, i..., value) -> Scalar",
         "Atomically stores max(a[i...], value) in the array element a[i...] and returns the "
         "element's old value.",
         true, nullptr, with().value_operands(1).atomic(AtomicOp::Max)},
        {"atomic_exch", "atomic_exch", BuiltinKind::Atomic, "Utility",
         "atomic_exch(a: array, i..., value) -> Scalar",
         "Atomically stores value in the array element a[i...] and returns the element's old value "
         "(arrays of 4- and 8-byte scalars).",
         true, nullptr, with().value_operands(1).atomic(AtomicOp::Exch)},
        {"atomic_cas", "atomic_cas", BuiltinKind::Atomic, "Utility",
         "atomic_cas(a: array, i..., compare, value) -> Scalar",
         "Compare and swap: atomically stores value in a[i...] if the element equals compare (bit "
         "for bit), and returns the element's old value either way (arrays of 4- and 8-byte "
         "scalars).",
         false, nullptr, with().value_operands(2).atomic(AtomicOp::Cas)},
    };
}

}  // namespace treadle::builtins::entries
