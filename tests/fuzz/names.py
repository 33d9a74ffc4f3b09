"""Identifiers that collide with something in the generated C++ or in treadle's own runtime: C++
keywords and alternative tokens, macros of the C library and of treadle's headers, the names of
treadle's native types and functions, and the names its generated code uses for itself. The name
fuzzer (tests/python/test_name_fuzz.py) builds one module that uses every one of them as a struct
field, a @wp.func, a function parameter, a kernel local, a kernel parameter and a struct name,
and checks that it compiles (g++ and NVRTC) and computes what Python computes."""

import keyword

CPP_KEYWORDS = """
alignas alignof asm auto bool break case catch char char8_t char16_t char32_t class concept
const consteval constexpr constinit const_cast continue co_await co_return co_yield decltype
default delete do double dynamic_cast else enum explicit export extern false float for friend
goto if inline int long mutable namespace new noexcept nullptr operator private protected public
register reinterpret_cast requires return short signed sizeof static static_assert static_cast
struct switch template this thread_local throw true try typedef typeid typename union unsigned
using virtual void volatile wchar_t while final override
""".split()

ALTERNATIVE_TOKENS = "and and_eq bitand bitor compl not not_eq or or_eq xor xor_eq".split()

MACROS = """
NULL EOF INFINITY NAN HUGE_VAL FLT_MAX DBL_MAX INT_MAX assert errno stdin stdout stderr
CUDA_CALLABLE WP_DEVICE_CODE __device__ __host__ __global__ __forceinline__ __shared__
__CUDACC__ __restrict__ M_PI offsetof min max abs printf malloc free exit main
""".split()

TREADLE_NATIVE = """
wp std params index bounds tid dim adj adj_ args ret result out tmp grad data shape strides
ndim float16 float32 float64 int8 int16 int32 int64 uint8 uint16 uint32 uint64 half bfloat16
vec_t mat_t quat_t transform_t array_t launch_bounds_t vec2 vec3 vec4 mat22 mat33 mat44 quat
transform spatial_vector load store address view atomic_add extract cast select where length
dot cross normalize sqrt sin cos exp log pow floor min_ max_ dummy bounds_error fp_error
treadle_cuda_entry threadIdx blockIdx blockDim gridDim warpSize
""".split()

GENERATED = """
v0 v1 v2 v10 a0 s0 f0 arg_x arg_0 adj_v0 adj_x var_0 label_0 loop_0 _0 __0 _ __ ___ x_ x__
""".split()


def hazardous_names():
    """Every name above that Python accepts as an identifier, once, in a fixed order."""
    seen, out = set(), []
    for name in CPP_KEYWORDS + ALTERNATIVE_TOKENS + MACROS + TREADLE_NATIVE + GENERATED:
        if name.isidentifier() and not keyword.iskeyword(name) and name not in seen:
            seen.add(name)
            out.append(name)
    return out


# Names the generated module itself needs at module level (imports and decorators).
_MODULE_LEVEL_RESERVED = {"wp", "np", "float", "int", "bool", "range", "print", "len", "min",
                          "max", "abs", "type", "object", "len", "exit", "main"}


def field_names(names):
    """The names usable as struct fields: Python mangles `__x` inside a class body."""
    return [n for n in names if not (n.startswith("__") and not n.endswith("__"))]


def _roles(names):
    """(function names, struct names): module-level names, each used once."""
    usable = [n for n in names if n not in _MODULE_LEVEL_RESERVED]
    structs = usable[::8]  # drawn from every group of names
    return [n for n in usable if n not in structs], structs


def module_source(names):
    """A Python module using each of `names` in every role (expected() gives its results)."""
    fn_names, struct_names = _roles(names)
    lines = ["import treadle as wp", "", ""]
    # a struct whose fields carry every name, and structs named after them
    fields = field_names(names)
    lines += ["@wp.struct", "class Fields:"] + [f"    {n}: float" for n in fields] + ["", ""]
    for j, n in enumerate(struct_names):
        lines += ["@wp.struct", f"class {n}:", f"    {fields[j]}: int", "", ""]
    # functions named after them, each with a parameter named after the next
    for j, n in enumerate(fn_names):
        p = names[(j + 1) % len(names)]
        lines += ["@wp.func", f"def {n}({p}: float) -> float:", f"    return {p} * 2.0 + {j}.0",
                  "", ""]
    # a kernel whose locals carry every name: each depends on the one before
    lines += ["@wp.kernel", "def locals_kernel(zz_out: wp.array(dtype=float)):"]
    lines += ["    zz_i = wp.tid()", "    zz_acc = 0.0"]
    prev = "1.0"
    for j, n in enumerate(names):
        lines += [f"    {n} = {prev} + {j % 7}.0", f"    zz_acc = zz_acc + {n}"]
        prev = n
    lines += ["    zz_out[zz_i] = zz_acc", "", ""]
    # a kernel whose parameters carry the names and that reads every struct field
    params = ", ".join(f"{n}: float" for n in names[:40])
    lines += ["@wp.kernel", f"def params_kernel(zz_s: Fields, zz_out: wp.array(dtype=float), {params}):"]
    lines += ["    zz_acc = 0.0"]
    for n in names[:40]:
        lines += [f"    zz_acc = zz_acc + {n}"]
    for n in fields:
        lines += [f"    zz_acc = zz_acc + zz_s.{n}"]
    lines += ["    zz_out[0] = zz_acc", "", ""]
    # a kernel that calls every function and builds every named struct
    lines += ["@wp.kernel", "def calls_kernel(zz_out: wp.array(dtype=float)):", "    zz_acc = 0.0"]
    for j, n in enumerate(fn_names):
        lines += [f"    zz_acc = zz_acc + {n}({float(j)})"]
    for j, n in enumerate(struct_names):
        field = fields[j]
        lines += [f"    zz_t{j} = {n}()", f"    zz_t{j}.{field} = {j}",
                  f"    zz_acc = zz_acc + float(zz_t{j}.{field})"]
    lines += ["    zz_out[0] = zz_acc", ""]
    return "\n".join(lines) + "\n"


def expected(names):
    """What the three kernels of module_source(names) write (Python arithmetic)."""
    fn_names, struct_names = _roles(names)
    acc, prev = 0.0, 1.0
    for j in range(len(names)):
        prev = prev + (j % 7)
        acc += prev
    calls = sum(j * 2.0 + j for j in range(len(fn_names))) + sum(range(len(struct_names)))
    return {"locals": acc, "calls": calls}
