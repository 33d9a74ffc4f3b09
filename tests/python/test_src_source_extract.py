"""_src.codegen.Adjoint's source finders (Warp's compatibility layer): the linecache slice of a
function, its fallback to inspect when the slice does not parse, wrappers, lambdas, and a file
rewritten in the same process."""

import ast
import functools
import inspect
import os
import textwrap
from unittest import mock

from treadle._src import codegen


# fmt: off
def spans_lines():
    return (
        1
        + 2
    )
    # a trailing comment indented past the def
# fmt: on


def has_nested():
    def inner():
        return 1

    return inner


async def coroutine():
    return 42


def truncating():
    return """
column zero
def not_here(): pass
"""


def make_lambda():
    # fmt: off
    return lambda q, qd: (
        q[0] == 0.0
        and q[1] == 0.0
    )
    # fmt: on


def test_the_fast_slice_serves_plain_shapes_without_inspect():
    for fn in (spans_lines, has_nested, coroutine):
        with mock.patch.object(codegen.inspect, "getsourcelines",
                               side_effect=AssertionError("inspect must not run")):
            source, lineno, tree = codegen.Adjoint.extract_function_source(fn)
        assert lineno == fn.__code__.co_firstlineno
        assert tree.body[0].name == fn.__name__
        assert source == textwrap.dedent(inspect.getsource(fn))


def test_a_slice_that_does_not_parse_falls_back_to_inspect():
    fast = codegen.Adjoint._try_extract_function_source(truncating.__code__)
    try:
        ast.parse(fast[0])
        parsed = True
    except SyntaxError:
        parsed = False
    assert not parsed
    adj = codegen.Adjoint(truncating)
    assert adj.tree.body[0].name == "truncating"
    assert adj.source == textwrap.dedent(inspect.getsource(truncating))


def test_wrappers_are_followed_and_the_slow_path_used_when_there_is_no_slice():
    @functools.wraps(spans_lines)
    def wrapper():
        return spans_lines()

    source, lineno, tree = codegen.Adjoint.extract_function_source(wrapper)
    assert tree.body[0].name == "spans_lines" and lineno == spans_lines.__code__.co_firstlineno
    with mock.patch.object(codegen.Adjoint, "_try_extract_function_source", return_value=None):
        with mock.patch.object(codegen.inspect, "getsourcelines",
                               return_value=(["def made():\n", "    return 1\n"], 7)):
            source, lineno, tree = codegen.Adjoint.extract_function_source(lambda: None)
    assert (source, lineno, tree.body[0].name) == ("def made():\n    return 1\n", 7, "made")


def test_a_rewritten_file_is_read_again(tmp_path):
    path = os.path.join(tmp_path, "rewritten.py")
    found = []
    for body in ("1", "22"):
        source = f"def f():\n    return {body}\n"
        with open(path, "w", encoding="utf-8") as out:
            out.write(source)
        namespace = {}
        exec(compile(source, path, "exec"), namespace)
        found.append(codegen.Adjoint.extract_function_source(namespace["f"])[0])
    assert found == ["def f():\n    return 1\n", "def f():\n    return 22\n"]


def test_the_body_of_a_multiline_lambda():
    body = codegen.Adjoint.extract_lambda_source(make_lambda(), only_body=True)
    assert body.startswith("(") and body.endswith(")") and "q[1] == 0.0" in body
    ast.parse(f"def generated(q, qd):\n    return {body}\n")
    assert codegen.Adjoint.extract_lambda_source(make_lambda()).startswith("lambda q, qd:")
