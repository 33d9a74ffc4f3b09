"""scripts/gen_reference.py -- generates python/treadle/__init__.pyi and docs/builtins.md from the
builtin table (read through the built extension) and the package's public names.

    PYTHONPATH=python python3 scripts/gen_reference.py          # rewrite both files
    PYTHONPATH=python python3 scripts/gen_reference.py --check  # fail when they are stale
"""

import argparse
import ast
import os
import re
import sys
import textwrap
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUB = os.path.join(ROOT, "python", "treadle", "__init__.pyi")
REFERENCE = os.path.join(ROOT, "docs", "builtins.md")
REGENERATE = "PYTHONPATH=python python3 scripts/gen_reference.py"

# Documented type words that are not public names of the package: kinds of types.
TYPE_ALIASES = {
    "Vector": "a vector type (vec3, vec4d, spatial_vector, ...)",
    "Matrix": "a matrix type (mat33, mat44d, spatial_matrix, ...)",
    "Tile": "a tile type (wp.tile[float32, 16, 16], ...)",
    "Callable": "a builtin or @wp.func",
    "BvhQueryTiled": "a block's BVH query (tile_bvh_query_aabb, tile_bvh_query_ray)",
    "MeshQueryAABBTiled": "a block's mesh query (tile_mesh_query_aabb)",
    "TileStack": "a block's stack (tile_stack)",
}


# The type variables of treadle.types (Float, Int, Scalar) as signatures use them.
TYPE_VARIABLES = ("Float", "Int", "Scalar")


def annotation(text):
    """A documented type ("array(dtype=float32)", "tuple(mat33, vec3)") as a stub annotation."""
    text = re.sub(r"\barray\([^()]*\)", "array", text)
    while "tuple(" in text:  # innermost first
        text = re.sub(r"\btuple\(([^()]*)\)", r"tuple[\1]", text)
    return text


def stub_params(params):
    """The parameter list of a stub: defaults as `...`; once a variadic parameter appears, it
    takes the rest (Python has no positional parameters after *args)."""
    out = []
    for k, p in enumerate(params):
        if p["variadic"]:
            rest = [q["name"] for q in params[k + 1:] if q["name"]]
            name = "_and_".join([p["name"] or "more"] + rest)  # atomics: *i_and_value
            typ = annotation(p["type"]) if not rest and p["type"] else "Any"
            out.append(f"*{name}: {typ}")
            break
        text = p["name"]
        if p["type"]:
            text += f": {annotation(p['type'])}"
        if p["default"]:
            text += " = ..."
        out.append(text)
    return ", ".join(out)


def docstring(text, indent):
    """`text` as a docstring at `indent`, each paragraph wrapped to 100 columns."""
    pad = " " * indent
    paragraphs = [textwrap.fill(p, 97 - indent, break_long_words=False, break_on_hyphens=False)
                  for p in text.replace("\\", "\\\\").split("\n\n")]
    lines = "\n\n".join(paragraphs).split("\n")
    body = "\n".join([lines[0]] + [(pad + ln) if ln else "" for ln in lines[1:]])
    return f'{pad}"""{body}"""'


def builtin_stub(entry, doc):
    params = stub_params(entry["params"])
    returns = annotation(entry["returns"]) if entry["returns"] else "Any"
    for var in TYPE_VARIABLES:  # a result's type variable must be bound by a parameter
        if re.search(rf"\b{var}\b", returns) and not re.search(rf"\b{var}\b", params):
            returns = re.sub(rf"\b{var}\b", "Any", returns)
    name = entry["name"]
    body = docstring(doc, 4)
    tuple_result = re.match(r"tuple\[(.*)\]$", returns)
    if entry["rebinds"] != "outputs" or not tuple_result:
        # (Multi builtins documented in Warp's out-argument form, volume_sample_grad(..., grad)
        # -> value, and the mesh queries' output-local forms: one form, described in the doc)
        return f"def {name}({params}) -> {returns}:\n{body}\n"
    # Multi builtins: the tuple form and Warp's out-argument form f(inputs..., outputs...)
    outs = tuple_result.group(1).split(", ")
    out_params = ", ".join(f"out_{k}: {t}" for k, t in enumerate(outs))
    return (f"@_typing.overload\ndef {name}({params}) -> {returns}:\n{body}\n"
            f"@_typing.overload\ndef {name}({params}, {out_params}) -> None:\n{body}\n")


def reexported_modules():
    """The submodules __init__.py re-exports by name (`from . import config as config`); other
    submodules are attributes of the package only because they were imported."""
    with open(os.path.join(ROOT, "python", "treadle", "__init__.py")) as f:
        tree = ast.parse(f.read())
    names = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module is None and node.level == 1:
            names.update(a.name for a in node.names if a.asname == a.name)
    return names


def defining_module(wp, name, obj):
    """The treadle submodule that defines `obj` under `name`, or None (defined in __init__)."""
    candidates = [getattr(obj, "__module__", None)] + sorted(
        m for m in sys.modules if m.startswith("treadle.") and m.count(".") == 1)
    for module in candidates:
        if module and module.startswith("treadle.") and \
                getattr(sys.modules.get(module), name, None) is obj:
            return module
    return None


def public_names(wp, builtins):
    """Stub lines for every public name of the package that is not a builtin: re-exports
    first, then the values __init__.py defines itself."""
    imports, values = [], []
    modules = reexported_modules()
    for name in sorted(n for n in vars(wp) if not n.startswith("_")):
        obj = getattr(wp, name)
        if name in builtins and obj is builtins[name]:
            continue
        if isinstance(obj, types.ModuleType):
            if name in modules:
                imports.append(f"from . import {name} as {name}")
            continue
        module = defining_module(wp, name, obj)
        if module:
            imports.append(f"from {module[len('treadle'):]} import {name} as {name}")
        elif isinstance(obj, (int, float, str)) and not isinstance(obj, bool):
            values.append(f"{name}: {type(obj).__name__}")
        else:
            values.append(f"{name}: Any")
    return imports + [""] + values


def generate_stub(wp, bf):
    lines = [
        "# python/treadle/__init__.pyi -- type stubs of the treadle package, generated by",
        "# scripts/gen_reference.py from the builtin table and the package's public names.",
        f"# Do not edit; regenerate with: {REGENERATE}",
        "",
        "import typing as _typing",
        "from typing import Any",
        "",
    ]
    lines += public_names(wp, bf.BUILTINS)
    lines += ["", "# Kinds of types named in builtin signatures."]
    for alias, what in TYPE_ALIASES.items():
        lines.append(f"{alias} = Any  # {what}")
    lines += ["", "# --- kernel builtins (callable in kernels; on the host where they have a host "
              "version) ---", ""]
    for entry in bf.TABLE:
        if getattr(wp, entry["name"]) is not bf.BUILTINS[entry["name"]]:
            continue  # the name is a class too (wp.tile, the annotation): imported above
        lines.append(builtin_stub(entry, bf.BUILTINS[entry["name"]].__doc__))
    return "\n".join(lines).rstrip("\n") + "\n"


def generate_reference(bf):
    groups = {}
    for entry in bf._treadle.builtin_table():
        if entry["kind"] == "internal":  # spelled by inference, not by programs
            continue
        groups.setdefault(entry["group"], []).append(entry)
    lines = [
        "<!-- docs/builtins.md: generated by scripts/gen_reference.py from the builtin table.",
        f"     Do not edit; regenerate with: {REGENERATE} -->",
        "",
        "# Kernel builtins",
        "",
        "Every builtin that kernels can call, by group, as the builtin table declares it. "
        "*Differentiable* builtins have an adjoint, so gradients flow through them in the "
        "backward pass. *Host* builtins can also be called from Python outside kernels "
        "(`wp.dot(wp.vec3(1.0, 0.0, 0.0), v)`). Operators are listed with their Python syntax "
        "and, where they have one, their function form (`wp.add(a, b)`).",
        "",
        "Type words: `Float` is any floating-point scalar, `Int` any integer, `Scalar` any "
        "numeric scalar; `Vector` and `Matrix` any vector or matrix type. `array(T)` is an "
        "array of element type T.",
        "",
    ]
    for group in groups:
        lines.append(f"- [{group}](#{group.lower().replace(' ', '-')})")
    lines.append("")
    for group, entries in groups.items():
        lines += [f"## {group}", ""]
        for e in entries:
            lines += [f"### {e['name']}", "", "```python", e["signature"], "```", "", e["doc"], ""]
            facts = [
                f"differentiable: {'yes' if e['differentiable'] else 'no'}",
                f"devices: {', '.join(e['devices'])}",
                f"host: {'yes' if e['host'] else 'no'}",
                f"group: {e['group']}",
            ]
            if e["op"]:
                form = f"; function form: `wp.{e['name']}`" if e["callable"] else ""
                facts.insert(0, f"operator: `{e['op']}`{form}")
            lines += ["*" + "; ".join(facts) + "*", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with the committed files instead of writing them")
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import treadle as wp
    from treadle import builtin_functions as bf

    outputs = {STUB: generate_stub(wp, bf), REFERENCE: generate_reference(bf)}
    stale = []
    for path, text in outputs.items():
        old = open(path).read() if os.path.exists(path) else None
        if old == text:
            continue
        if args.check:
            stale.append(os.path.relpath(path, ROOT))
        else:
            with open(path, "w") as f:
                f.write(text)
            print(f"wrote {os.path.relpath(path, ROOT)}")
    if stale:
        print(f"stale generated files: {', '.join(stale)} (the builtin table or the package's "
              f"public names changed); regenerate them with\n    {REGENERATE}\nand commit them")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
