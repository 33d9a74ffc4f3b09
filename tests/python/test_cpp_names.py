"""Python names that mean something to C++ (keywords, alternative tokens, macros of the native
headers and the C library) compile as struct fields, locals, parameters and function names."""

import importlib.util
import keyword

import numpy as np

import treadle as wp

NAMES = [
    "xor", "bitand", "bitor", "compl", "not_eq", "and_eq", "or_eq", "xor_eq", "EOF", "NULL",
    "CUDA_CALLABLE", "WP_PRINTF", "WP_CMATH", "WP_DEVICE_CODE", "INFINITY", "NAN", "M_PI",
    "int", "float", "double", "char", "auto", "bool", "case", "catch", "const", "constexpr",
    "default", "delete", "do", "enum", "explicit", "export", "extern", "friend", "goto",
    "inline", "long", "mutable", "namespace", "new", "noexcept", "nullptr", "operator",
    "private", "protected", "public", "register", "short", "signed", "sizeof", "static",
    "struct", "switch", "template", "this", "throw", "typedef", "typeid", "typename", "union",
    "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "true", "false",
    "errno", "stdin", "stdout", "stderr", "offsetof", "main", "printf", "std", "alignas",
    "decltype", "requires", "concept", "unix", "linux", "major", "minor", "X", "xor_", "_x",
]


def _module_source():
    lines = ["import treadle as wp", "", "", "@wp.struct", "class Names:"]
    lines += [f"    {n}: wp.float32" for n in NAMES]
    for k, n in enumerate(NAMES):
        lines += ["", "", "@wp.func", f"def {n}({n}: wp.float32) -> wp.float32:",
                  f"    return {n} + wp.float32({k})"]
    lines += ["", "", "@wp.kernel", "def use_names(out: wp.array(dtype=wp.float32), s_in: Names):",
              "    s = Names()"]
    lines += [f"    s.{n} = {n}(s_in.{n})" for n in NAMES]  # calls before the locals shadow them
    lines += [f"    {n} = s.{n} * wp.float32(2.0)" for n in NAMES]
    lines += ["    acc = wp.float32(0.0)"]
    lines += [f"    acc = acc + {n}" for n in NAMES]
    lines += ["    out[0] = acc"]
    return "\n".join(lines) + "\n"


def test_names_are_valid_python_and_many():
    assert len(NAMES) >= 60 and len(set(NAMES)) == len(NAMES)
    assert not any(keyword.iskeyword(n) for n in NAMES)


def test_cpp_meaningful_names_compile_everywhere(tmp_path):
    path = tmp_path / "cpp_names_module.py"
    path.write_text(_module_source())
    spec = importlib.util.spec_from_file_location("cpp_names_module", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    s = module.Names()
    for k, n in enumerate(NAMES):
        setattr(s, n, float(k % 3))
    out = wp.zeros(1, dtype=wp.float32)
    wp.launch(module.use_names, 1, [out, s], device="cpu")
    want = sum(2.0 * (k % 3 + k) for k in range(len(NAMES)))
    np.testing.assert_allclose(out.numpy(), [want])
