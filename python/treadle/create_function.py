"""wp.utils.create_warp_function: a @wp.func made from a Python function, or from a lambda by
writing its expression out as a def."""

import ast
import hashlib
import inspect
import linecache
import textwrap

from .kernel import Function
from .module import get_module


def _module_tree(code):
    """The parsed source file of `code`, or None when it cannot be read or parsed."""
    lines = linecache.getlines(code.co_filename)
    try:
        return ast.parse("".join(lines)) if lines else None
    except SyntaxError:
        return None


def _snippet_tree(func):
    """The parsed text of the lines that hold `func` (inspect's cut), or None."""
    try:
        text = textwrap.dedent(inspect.getsource(func))
    except (OSError, TypeError):
        return None
    for candidate in (text, f"({text.strip()})"):
        try:
            return ast.parse(candidate)
        except SyntaxError:
            continue
    return None


def _lambda_node(func):
    """The ast.Lambda of lambda `func`: the first lambda on its line with its parameters."""
    code = func.__code__
    params = list(code.co_varnames[: code.co_argcount + code.co_kwonlyargcount])
    for tree, line in ((_module_tree(code), code.co_firstlineno), (_snippet_tree(func), None)):
        if tree is None:
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Lambda) or (line is not None and node.lineno != line):
                continue
            args = node.args
            if [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)] == params:
                return node
    raise ValueError(f"create_warp_function(): cannot find the source of {func!r}")


def _function_from_lambda(func):
    """A def returning the lambda's expression, compiled from text that the kernel compiler
    can read back (kept in linecache), with the lambda's globals and closure values."""
    node = _lambda_node(func)
    signature, body = ast.unparse(node.args), ast.unparse(node.body)
    digest = hashlib.sha256(f"({signature}): {body}".encode()).hexdigest()[:16]
    name = f"func_{digest}"
    text = f"def {name}({signature}):\n    return {body}\n"
    filename = f"<treadle create_warp_function {name}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    namespace = dict(func.__globals__)
    if func.__closure__:
        for var, cell in zip(func.__code__.co_freevars, func.__closure__):
            namespace[var] = cell.cell_contents
    exec(compile(text, filename, "exec"), namespace)  # noqa: S102 - our own generated text
    created = namespace[name]
    created.__module__ = func.__module__
    return created, name


def create_warp_function(func):
    """A function callable from kernels (and from Python) made from the Python function or
    lambda `func` (Warp's ``wp.utils.create_warp_function``), and the Module it belongs to.
    A lambda becomes a def of its expression, keyed ``func_<16 hex digits>`` by a hash of its
    text, so the key is the same in every run."""
    if getattr(func, "__name__", None) == "<lambda>":
        created, key = _function_from_lambda(func)
    else:
        source = inspect.getsource(func)
        created, key = func, "func_" + hashlib.sha256(source.encode()).hexdigest()[:16]
    return Function(created, key=key), get_module(func.__module__)
