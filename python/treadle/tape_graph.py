"""Tape.visualize(): the steps a wp.Tape recorded as GraphViz dot code.

Each recorded launch is a box labelled with its kernel, each copy a box "copy", each custom
step a box "func"; every array a step reads or writes is an ellipse joined to it (reads point
into the step, writes out of it; a launch's inputs are read, its outputs written). Scopes
(Tape.record_scope_begin/end) become clusters. With ``simplify_graph``, consecutive launches of
one kernel with the same arguments inside one scope become one box "(repeated Nx)". Node names
are generated (k0, a0, ...), so a kernel's name appears once per box.

The tape is read through its ``launches`` entries (``kernel``, ``args``, ``n_inputs`` of a
launch; ``dest``, ``src`` of a copy; ``arrays()`` of any) and its ``scopes``; nothing here
imports the tape.
"""

from . import _treadle


def _quote(text):
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _step_io(entry):
    """(name, read arrays, written arrays) of a recorded step."""
    if hasattr(entry, "kernel"):
        reads, writes = [], []
        for i, a in enumerate(entry.args):
            if getattr(a, "_is_indexedarray", False):
                a = a.data
            if isinstance(a, _treadle.Array):
                (reads if i < entry.n_inputs else writes).append(a)
        return entry.kernel.key, reads, writes
    if hasattr(entry, "dest"):
        return "copy", [entry.src], [entry.dest]
    return "func", list(entry.arrays()), []


def _runs(tape, simplify):
    """[(first index, count)] of the launches, merging repeats when `simplify`. A run never
    spans a scope marker."""
    cuts = {index for index, _, _ in tape.scopes}
    runs = []
    for i, entry in enumerate(tape.launches):
        if simplify and runs and i not in cuts:
            first, count = runs[-1]
            prev = tape.launches[first]
            if (hasattr(entry, "kernel") and hasattr(prev, "kernel")
                    and entry.kernel is prev.kernel
                    and [id(a) for a in entry.args] == [id(a) for a in prev.args]):
                runs[-1] = (first, count + 1)
                continue
        runs.append((i, 1))
    return runs


def _array_text(a):
    return f"array: dtype={a.dtype.__name__}, shape={a.shape}"


def dot_code(tape, filename=None, simplify_graph=True, hide_readonly_arrays=False,
             array_labels=None, ignore_graph_scopes=False, track_inputs=(), track_outputs=(),
             graph_direction="LR"):
    """The dot code of `tape` (see the module's description); written to `filename` too."""
    labels = {id(a): name for a, name in (array_labels or {}).items()}
    for a, name in (*track_inputs, *track_outputs):
        labels[id(a)] = name
    steps = [_step_io(e) for e in tape.launches]
    written = {id(a) for _, _, writes in steps for a in writes}
    arrays = {}  # id -> (node name, array)

    def node(a):
        if id(a) not in arrays:
            arrays[id(a)] = (f"a{len(arrays)}", a)
        return arrays[id(a)][0]

    lines = ["digraph tape {", f"  rankdir={graph_direction};", '  node [fontname="Helvetica"];']
    edges = []
    markers = [] if ignore_graph_scopes else list(tape.scopes)
    depth = 1

    def close_markers(index):
        nonlocal depth
        while markers and markers[0][0] <= index:
            _, name, _ = markers.pop(0)
            if name is None:
                depth -= 1
                lines.append("  " * depth + "}")
            else:
                lines.append("  " * depth + f"subgraph cluster_{len(lines)} {{")
                depth += 1
                lines.append("  " * depth + f"label={_quote(name)};")

    for k, (first, count) in enumerate(_runs(tape, simplify_graph)):
        close_markers(first)
        name, reads, writes = steps[first]
        label = name if count == 1 else f"{name} (repeated {count}x)"
        lines.append("  " * depth + f"k{k} [shape=box, label={_quote(label)}];")
        for a in reads:
            if hide_readonly_arrays and id(a) not in written:
                continue
            edges.append(f"  {node(a)} -> k{k};")
        for a in writes:
            edges.append(f"  k{k} -> {node(a)};")
    close_markers(len(tape.launches))
    while depth > 1:  # scopes left open
        depth -= 1
        lines.append("  " * depth + "}")
    for n, (name, a) in enumerate(arrays.values()):
        label = labels.get(id(a), f"array {n}")
        lines.append(f"  {name} [shape=ellipse, label={_quote(label)}, "
                     f"tooltip={_quote(_array_text(a))}];")
    lines += edges
    lines.append("}")
    code = "\n".join(lines) + "\n"
    if filename is not None:
        with open(filename, "w", encoding="utf-8") as f:
            f.write(code)
    return code
