#!/usr/bin/env python3
# scripts/check_layers.py -- fails when a folder of src/ includes a folder above it in the layers
"""Checks that the C++ includes of src/ point down the layers.

The layers, lowest first, are written once below (LAYERS) and match docs/architecture.md
("Layers"). A file in src/<folder>/ may include its own folder and any folder of a lower
layer; folders of one layer never include each other. `treadle/...` headers are allowed
everywhere: include/treadle/ is the public API and native/treadle/ the kernel headers. An
include that names no known folder is an error too, so a new folder must be placed in the
layers before it is used. The layers must also read the same in docs/architecture.md, as
doc_spelling() writes them.

Usage: check_layers.py [ROOT]  (ROOT defaults to the repository holding this script)
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

# The layers, lowest first; folders on one line are peers that must not include each other.
LAYERS: list[tuple[str, ...]] = [
    ("common",),
    ("types",),
    ("frontend", "builtins", "runtime"),
    ("ir",),
    ("passes", "sema"),
    ("codegen",),
    ("compile",),
    ("api",),
    ("python",),
]

# Include prefixes every layer may use: the public API and the native kernel headers.
ALLOWED_EVERYWHERE = ("treadle",)

_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of() -> dict[str, int]:
    """The layer index of each folder."""
    out: dict[str, int] = {}
    for level, folders in enumerate(LAYERS):
        for folder in folders:
            out[folder] = level
    return out


def doc_spelling() -> str:
    """The layers as docs/architecture.md writes them: `common` ← `types` ← ..."""
    return " ← ".join(", ".join(f"`{f}`" for f in level) for level in LAYERS)


def check_docs(root: Path) -> list[str]:
    """A problem when docs/architecture.md does not spell the layers as LAYERS does."""
    doc = root / "docs" / "architecture.md"
    if not doc.is_file():
        return []
    text = " ".join(doc.read_text(encoding="utf-8").split())
    if doc_spelling() in text:
        return []
    return [f"docs/architecture.md: the Layers paragraph does not say {doc_spelling()}"]


def check(root: Path) -> list[str]:
    """Every include in src/ that points up or sideways, or at an unknown folder."""
    levels = layer_of()
    src = root / "src"
    problems: list[str] = []
    for folder in sorted(p.name for p in src.iterdir() if p.is_dir()):
        if folder not in levels:
            problems.append(f"src/{folder}/: not in the layers (add it to LAYERS)")
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".h", ".hpp", ".cpp", ".cc", ".cu") or not path.is_file():
            continue
        rel = path.relative_to(root)
        folder = path.relative_to(src).parts[0]
        if folder not in levels:
            continue
        own = levels[folder]
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = _INCLUDE.match(line)
            if not m:
                continue
            target = m.group(1)
            if "/" not in target:
                # A file of the same folder, included by its bare name (src/python does this).
                if not (path.parent / target).is_file():
                    problems.append(f"{rel}:{number}: includes \"{target}\", not in {folder}/")
                continue
            top = target.split("/", 1)[0]
            if top in ALLOWED_EVERYWHERE:
                continue
            if top not in levels:
                problems.append(f"{rel}:{number}: includes \"{target}\": no layer named {top}")
                continue
            if top == folder or levels[top] < own:
                continue
            where = "a peer" if levels[top] == own else "a layer above it"
            problems.append(f"{rel}:{number}: {folder} includes {top} ({where}): \"{target}\"")
    return problems


def main(argv: list[str]) -> int:
    root = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent
    problems = check(root) + check_docs(root)
    if problems:
        print("includes that break the layers (" + " <- ".join(map("/".join, LAYERS)) + "):")
        for p in problems:
            print("  " + p)
        return 1
    print("includes point down the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
