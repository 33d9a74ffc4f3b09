"""scripts/check_layers.py: includes in src/ point down the layers."""

import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
SCRIPT = os.path.join(ROOT, "scripts", "check_layers.py")


def run(root):
    out = subprocess.run([sys.executable, SCRIPT, str(root)], capture_output=True, text=True)
    return out.returncode, out.stdout


def tree(tmp_path, files):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_the_source_tree_keeps_its_layers():
    code, out = run(ROOT)
    assert code == 0, out


def test_downward_own_folder_and_public_includes_pass(tmp_path):
    root = tree(
        tmp_path,
        {
            "src/types/types.h": '#include "common/assert.h"\n',
            "src/ir/ir.h": '#include "builtins/builtins.h"\n#include "ir/instr_kinds.h"\n',
            "src/runtime/launch.h": '#include "types/abi.h"\n#include "treadle/array.h"\n',
            "src/python/main.cpp": '#include "exports.h"\n#include "api/kernel_source.h"\n',
            "src/python/exports.h": "#pragma once\n",
        },
    )
    for folder in ("common", "builtins", "api"):
        (root / "src" / folder).mkdir(exist_ok=True)
    code, out = run(root)
    assert code == 0, out


def test_upward_and_sideways_includes_fail(tmp_path):
    root = tree(
        tmp_path,
        {
            "src/ir/ir.h": '#include "sema/builtins.h"\n',
            "src/runtime/launch.h": '#include <vector>\n#include "compile/compile_kernel.h"\n',
            "src/passes/plan.cpp": '// x\n#include "sema/infer.h"\n',
            "src/sema/infer.h": "#pragma once\n",
            "src/compile/compile_kernel.h": "#pragma once\n",
        },
    )
    code, out = run(root)
    assert code == 1
    assert 'src/ir/ir.h:1: ir includes sema (a layer above it): "sema/builtins.h"' in out
    assert "src/runtime/launch.h:2: runtime includes compile (a layer above it)" in out
    assert "src/passes/plan.cpp:2: passes includes sema (a peer)" in out


def test_unknown_folders_fail(tmp_path):
    root = tree(
        tmp_path,
        {"src/gadgets/g.h": "#pragma once\n", "src/ir/ir.h": '#include "widgets/w.h"\n'},
    )
    code, out = run(root)
    assert code == 1
    assert "src/gadgets/: not in the layers" in out
    assert 'no layer named widgets' in out


def test_the_architecture_notes_must_spell_the_same_layers(tmp_path):
    root = tree(tmp_path, {"src/ir/ir.h": "#pragma once\n", "docs/architecture.md": "Layers.\n"})
    code, out = run(root)
    assert code == 1
    assert "docs/architecture.md: the Layers paragraph does not say `common`" in out
