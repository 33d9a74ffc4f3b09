"""Mutations of the project's own test kernels: deleted, duplicated and swapped tokens and
lines, changed literals, names and types."""

import ast
import functools
import glob
import io
import os
import tokenize

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PREAMBLE = "import math\nimport numpy as np\nimport treadle as wp\nfrom typing import Any\n\n"
NAMES = ("tid", "i", "x", "a", "out", "wp", "float", "int", "n", "acc", "v")
TYPES = ("float", "int", "wp.float64", "wp.vec3", "wp.mat33", "wp.quat", "wp.int8", "Any",
         "wp.array(dtype=float)", "wp.indexedarray(dtype=float)", "wp.transform", "bool",
         "wp.types.Float", "wp.vec(length=3, dtype=float)", "wp.array2d(dtype=wp.vec3)")
LITERALS = ("0", "-1", "2**31", "2**63", "2**64", "10**400", "1e400", "0.5", "True", "None",
            "'s'", "(1, 2)", "[1]", "-0.0", "3")


def _decorated(node):
    for d in node.decorator_list:
        text = ast.unparse(d)
        if text.startswith(("wp.kernel", "wp.func", "wp.struct")):
            return True
    return False


@functools.lru_cache(maxsize=None)
def seeds():
    """(file, source of the module's simple constants, structs and funcs, [kernel sources])."""
    files = sorted(glob.glob(os.path.join(ROOT, "tests/python/*.py")))
    files.append(os.path.join(ROOT, "tests/python/golden/kernels.py"))
    out = []
    for path in files:
        try:
            text = open(path).read()
            tree = ast.parse(text)
        except (OSError, SyntaxError):
            continue
        context, kernels = [], []
        for node in tree.body:
            seg = ast.get_source_segment(text, node, padded=True)
            if seg is None:
                continue
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and _decorated(node):
                start = min(d.lineno for d in node.decorator_list)
                full = "\n".join(text.splitlines()[start - 1 : node.end_lineno])
                is_kernel = any(ast.unparse(d).startswith("wp.kernel") for d in node.decorator_list)
                (kernels if is_kernel else context).append((node.name, full))
            elif isinstance(node, ast.Assign) and len(seg) < 400 and isinstance(
                    node.value, (ast.Constant, ast.Call, ast.Tuple)) and "wp." in seg or (
                    isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)):
                context.append(("", seg))
        if kernels:
            out.append((path, "\n\n".join(c for _, c in context), kernels))
    return out


def _tokens(text):
    try:
        return [t for t in tokenize.generate_tokens(io.StringIO(text).readline)]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None


def mutate_text(rng, text):
    """One random mutation of a kernel's source (its decorator line stays)."""
    lines = text.splitlines()
    head = next(i for i, l in enumerate(lines) if l.lstrip().startswith("def ")) + 1
    kind = rng.randrange(8)
    if kind <= 2 and len(lines) > head + 1:
        i = rng.randrange(head, len(lines))
        if kind == 0:
            del lines[i]
        elif kind == 1:
            lines.insert(i, lines[i])
        else:
            j = rng.randrange(head, len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines) + "\n"
    toks = _tokens(text)
    if not toks:
        return text
    body = [k for k, t in enumerate(toks) if t.start[0] > head and
            t.type in (tokenize.NAME, tokenize.NUMBER, tokenize.OP, tokenize.STRING)]
    if not body:
        return text
    k = rng.choice(body)
    t = toks[k]
    if kind == 3:
        new = ""
    elif kind == 4:
        new = t.string + " " + t.string
    elif kind == 5:
        new = rng.choice(LITERALS) if t.type == tokenize.NUMBER or rng.random() < 0.3 else t.string
    elif kind == 6:
        new = rng.choice(NAMES) if t.type == tokenize.NAME else rng.choice(
            ["+", "-", "*", "/", "//", "%", "@", "<", "==", "(", ")", "[", "]", ",", ":", "."])
    else:
        new = rng.choice(TYPES)
    (r, c0), (_, c1) = t.start, t.end
    lines = text.splitlines()
    lines[r - 1] = lines[r - 1][:c0] + new + lines[r - 1][c1:]
    return "\n".join(lines) + "\n"


def mutated(rng):
    """One mutated test kernel as a case's text."""
    path, context, kernels = rng.choice(seeds())
    name, src = rng.choice(kernels)
    text = src
    for _ in range(rng.randrange(1, 4)):
        text = mutate_text(rng, text)
    lines = text.splitlines()
    i = next(i for i, l in enumerate(lines) if l.lstrip().startswith("@wp.kernel"))
    lines[i] = '@wp.kernel(module="unique")'
    text = "\n".join(lines)
    return f"{PREAMBLE}{context}\n\n\n{text}\n\n\nFUZZ.source({name})\n"
