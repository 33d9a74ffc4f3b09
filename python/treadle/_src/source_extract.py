"""Finding a Python function's source the way Warp's ``codegen.Adjoint`` does (a compatibility
layer, not treadle's API; treadle's own source capture is in kernel.py).

The fast path slices the function out of ``linecache`` from its code object: from
``co_firstlineno`` to the last line its code runs, then on over blank lines and lines indented
past the ``def``, without trailing blanks. A slice that does not parse as that one function
(say it ends inside a multi-line string at column 0) is taken again with
``inspect.getsourcelines``."""

import ast
import inspect
import linecache
import textwrap


def _indent(line):
    return len(line) - len(line.lstrip(" \t"))


def try_extract_function_source(code):
    """(source lines as one string, first line number) of the function compiled to `code`,
    from linecache; None when the file's lines are not available."""
    filename = code.co_filename
    linecache.checkcache(filename)  # a file rewritten since it was cached is read again
    lines = linecache.getlines(filename)
    first = code.co_firstlineno
    if not lines or not 1 <= first <= len(lines):
        return None
    ran = [line for _start, _end, line in code.co_lines() if line is not None]
    last = max([first, *ran])
    base = _indent(lines[first - 1])
    end = min(last, len(lines))
    i = end
    while i < len(lines):
        text = lines[i]
        if text.strip() and _indent(text) <= base:
            break
        i += 1
    end = i
    while end > first and not lines[end - 1].strip():
        end -= 1
    return "".join(lines[first - 1 : end]), first


def parsed_function(source, name):
    """The module AST of `source` when it holds the function `name` first, else None."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    if not tree.body or not isinstance(tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    return tree if tree.body[0].name == name else None


def lambda_source(func, only_body=False):
    """The source of the lambda `func` (only what follows its ``:`` with `only_body`), or None
    when it cannot be found."""
    try:
        lines, _lineno = inspect.getsourcelines(func)
    except (OSError, TypeError):
        return None
    text = textwrap.dedent("".join(lines))
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    code = func.__code__
    names = list(code.co_varnames[: code.co_argcount])
    for node in ast.walk(tree):
        if isinstance(node, ast.Lambda) and [a.arg for a in node.args.args] == names:
            segment = ast.get_source_segment(text, node)
            if segment is None:
                return None
            if not only_body:
                return segment
            depth = 0
            for i, ch in enumerate(segment):
                if ch in "([{":
                    depth += 1
                elif ch in ")]}":
                    depth -= 1
                elif ch == ":" and depth == 0:
                    return segment[i + 1 :].strip()
    return None
