"""scripts/long_functions.py: the function-length warnings of the file size check."""

import os
import subprocess
import sys

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "long_functions.py")


def report(tmp_path, name, text, limit):
    path = tmp_path / name
    path.write_text(text)
    out = subprocess.run(
        [sys.executable, SCRIPT, str(limit), str(path)], capture_output=True, text=True, check=True
    )
    return [line.split(": ", 1)[1] for line in out.stdout.splitlines()], str(path)


def body(n):
    return "".join(f"    x += {i};\n" for i in range(n))


def test_cxx_functions_are_measured_from_their_header_to_the_closing_brace(tmp_path):
    text = (
        "// braces in comments { and strings do not count\n"
        "namespace a {\n"
        'const char* k_src = R"(def f():\n    return {1: 2}\n)";\n'
        "struct S {\n"
        "    int m() const { return 1; }\n"
        "};\n"
        "int S2::long_one(int x) {\n" + body(5) + '    const char* s = "}";\n'
        "    char c = '{';\n"
        "    if (x) { x = 1; }\n"
        "    return x;\n"
        "}\n"
        "Foo::Foo(int v) : m_a{v}, m_b(v) {\n" + body(4) + "}\n"
        "Foo::~Foo() {\n}\n"
        "}  // namespace a\n"
    )
    lines, path = report(tmp_path, "x.cpp", text, 3)
    assert lines == [
        "S2::long_one() is 11 lines (limit 3)",
        "Foo::Foo() is 6 lines (limit 3)",
    ]
    # The line printed is the header's.
    out = subprocess.run(
        [sys.executable, SCRIPT, "3", path], capture_output=True, text=True, check=True
    ).stdout
    assert f"{path}:9: S2::long_one()" in out
    assert f"{path}:20: Foo::Foo()" in out


def test_control_statements_and_lambdas_belong_to_their_function(tmp_path):
    text = (
        "void outer() {\n"
        "    auto f = [](int a) {\n" + body(3) + "    };\n"
        "    for (int i = 0; i < 3; ++i) {\n" + body(3) + "    }\n"
        "}\n"
    )
    lines, _ = report(tmp_path, "y.h", text, 5)
    assert lines == ["outer() is 12 lines (limit 5)"]
    assert report(tmp_path, "y.h", text, 12)[0] == []


def test_python_functions_are_measured_with_ast(tmp_path):
    text = "def short():\n    return 1\n\n\nclass C:\n    def long(self):\n" + "".join(
        f"        a = {i}\n" for i in range(6)
    )
    lines, _ = report(tmp_path, "z.py", text, 5)
    assert lines == ["long() is 7 lines (limit 5)"]
