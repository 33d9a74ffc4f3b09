"""scripts/long_functions.py -- lists C++ and Python functions longer than a line budget.

Usage: python3 scripts/long_functions.py LIMIT FILE...

Prints `file:line: function() is N lines (limit LIMIT)` for each function whose body spans
more than LIMIT lines and always exits 0: the file size check reports these as warnings.

C++ (.h, .hpp, .cpp, .cc, .cu) is scanned by matching braces after blanking comments, string
and character literals (raw strings included) and preprocessor lines. A `{` outside any function
body opens a function body when the text before it (back to the previous `;`, `{` or `}`) has a
parameter list followed only by qualifiers, a trailing return type or a constructor's
initialiser list; anything else (namespace, class, enum, initialiser) is a scope in which
functions are looked for again. Lambdas inside a function belong to that function. Python
files are measured with the ast module (from the `def` line to the last line of the body).
"""

import ast
import re
import sys

CXX_SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".cu")
CONTROL = {"if", "for", "while", "switch", "catch", "return", "sizeof", "decltype", "alignof"}
QUALIFIERS = re.compile(
    r"^\s*(const|noexcept(\s*\([^)]*\))?|override|final|mutable|volatile|&&|&|"
    r"->\s*[\w:<>,\s*&]+|=\s*0)*\s*$"
)


def blank_cxx(text):
    """The text with comments, literals and preprocessor lines replaced by spaces (newlines
    kept, so offsets map to the same lines)."""
    out = list(text)
    i, n = 0, len(text)
    line_start = True

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if line_start and c == "#":
            j = i
            while j < n and (text[j] != "\n" or text[j - 1] == "\\"):
                j += 1
            blank(i, j)
            i = j
            continue
        if c == "\n":
            line_start = True
            i += 1
            continue
        if c in " \t":
            i += 1
            continue
        line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
        elif c == "R" and i + 1 < n and text[i + 1] == '"' and not _ident_char(text, i - 1):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i + m.end())
            j = n if end < 0 else end + len(m.group(1)) + 2
            blank(i, j)
            i = j
        elif c in "\"'":
            if c == "'" and _ident_char(text, i - 1) and text[i - 1].isdigit():
                i += 1  # a digit separator: 1'000'000
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            blank(i, min(j + 1, n))
            i = j + 1
        else:
            i += 1
    return "".join(out)


def _ident_char(text, k):
    return k >= 0 and (text[k].isalnum() or text[k] == "_")


def _param_list_end(header):
    """The index after the `)` that closes the header's parameter list, or -1. The parameter
    list is the first top-level parenthesis group whose opening `(` follows a name."""
    depth = 0
    start = -1
    for k, c in enumerate(header):
        if c == "(":
            if depth == 0 and start < 0:
                start = k
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0 and start >= 0:
                return k + 1
    return -1


def function_name(header):
    """The function's name in a header ending in a body's `{`, or None when it is not one."""
    end = _param_list_end(header)
    if end < 0:
        return None
    before = header[: header.index("(")].rstrip()
    m = re.search(r"((?:[A-Za-z_]\w*::)*~?[A-Za-z_]\w*|\])\s*$", before)
    if not m:
        return None
    name = m.group(1)
    if name == "]":
        name = "<lambda>"
    if name.split("::")[-1] in CONTROL or re.search(r"\b(class|struct|union|enum)\b", before):
        return None
    rest = header[end:]
    if QUALIFIERS.match(rest):
        return name
    if re.match(r"^\s*(noexcept\s*)?:", rest):
        return name  # a constructor's initialiser list
    return None


def _matching_brace(text, k):
    """The index of the `}` that closes the `{` at `k` (or the end of the text)."""
    depth = 0
    for j in range(k, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(text) - 1


def cxx_functions(path):
    """(line, name, length in lines) of every function body in the C++ file `path`."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = blank_cxx(f.read())
    found = []
    scopes = []  # open scopes outside function bodies (namespaces, classes, initialisers)
    header_start = 0
    k = 0
    while k < len(text):
        c = text[k]
        if c == "{":
            header = text[header_start:k]
            name = function_name(header)
            if name and _in_initialiser_list(header):
                k = _matching_brace(text, k) + 1  # a member's brace initialiser: still header
                continue
            if name:
                offset = header_start + len(header) - len(header.lstrip())
                line = text.count("\n", 0, offset) + 1
                end = _matching_brace(text, k)
                found.append((line, name, text.count("\n", 0, end) + 1 - line + 1))
                k = end
            else:
                scopes.append(k)
        elif c == "}" and scopes:
            scopes.pop()
        if c in "{};":
            header_start = k + 1
        k += 1
    return found


def _in_initialiser_list(header):
    """Whether a function header stops inside a constructor's initialiser list, before a
    member's brace initialiser (`: m_a(1), m_b{`)."""
    rest = header[_param_list_end(header) :]
    rest = rest.rstrip()
    return bool(re.match(r"^\s*(noexcept\s*)?:", rest)) and _ident_char(rest, len(rest) - 1)


def python_functions(path):
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), filename=path)
    return [
        (node.lineno, node.name, node.end_lineno - node.lineno + 1)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]


def main(argv):
    limit = int(argv[1])
    for path in argv[2:]:
        if path.endswith(CXX_SUFFIXES):
            functions = cxx_functions(path)
        elif path.endswith(".py"):
            functions = python_functions(path)
        else:
            continue
        for line, name, length in sorted(functions):
            if length > limit:
                print(f"{path}:{line}: {name}() is {length} lines (limit {limit})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
