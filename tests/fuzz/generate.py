"""Random plausible kernels: typed expressions and statements over scalars, vectors, matrices,
quaternions and a struct, with loops, branches, user functions, generics, wp.static, atomics,
printf and casts; a fraction of the builtin calls get wrong argument types on purpose."""

HEADER = """import numpy as np
import treadle as wp
from typing import Any


@wp.struct
class Body:
    x: float
    v: wp.vec3
    n: int


@wp.func
def helper(a: float, b: wp.vec3) -> float:
    return a * wp.length(b)


@wp.func
def generic_add(a: Any, b: Any):
    return a + b


SCALE = wp.constant(2.5)
COUNT = 3
"""

from . import fuzz_device  # noqa: E402 -- after HEADER, the case text

SCALARS = ("float", "wp.float64", "int", "wp.int64", "wp.uint32", "wp.int8")
VALUES = ("float", "int", "wp.vec3", "wp.mat33", "wp.quat", "wp.vec2d", "bool", "wp.float64")
ARRAYS = ("float", "int", "wp.vec3", "wp.mat33", "wp.float64", "Body", "wp.quat")


class KernelGen:
    """One random kernel: `text()` gives the case source, ending with a FUZZ call."""

    def __init__(self, rng, wrong_rate=0.05, launch=False):
        self.rng = rng
        self.wrong = wrong_rate
        self.launch = launch
        self.lines = []
        self.locals = {}  # name -> type spelling
        self.params = {}
        self.n = 0

    # ---- helpers -------------------------------------------------------------------------
    def pick(self, seq):
        return seq[self.rng.randrange(len(seq))]

    def chance(self, p):
        return self.rng.random() < p

    def fresh(self):
        self.n += 1
        return f"v{self.n}"

    def lit(self, t):
        r = self.rng
        if t in ("int", "wp.int64", "wp.uint32", "wp.int8"):
            v = self.pick([0, 1, 2, 7, -3, 255, 2**31 - 1, 2**31, 2**63 - 1, -(2**63), 2**64])
            if v >= 2**31 or v < -(2**31):
                v = v if self.chance(0.2) else r.randrange(10)
            return f"{t}({v})" if t != "int" else str(v)
        if t in ("float", "wp.float64"):
            v = self.pick(["0.0", "1.5", "-2.0", "1e-30", "1e30", "3.0", "0.5"])
            if self.chance(0.03):
                v = self.pick(["1e400", "float('inf')", "-0.0"])
            return v if t == "float" else f"wp.float64({v})"
        if t == "bool":
            return self.pick(["True", "False"])
        if t == "wp.vec3":
            return f"wp.vec3({self.lit('float')}, {self.lit('float')}, {self.lit('float')})"
        if t == "wp.vec2d":
            return "wp.vec2d(1.0, 2.0)"
        if t == "wp.mat33":
            return self.pick(["wp.identity(n=3, dtype=float)", "wp.mat33(0.0)",
                              "wp.mat33(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0)"])
        if t == "wp.quat":
            return self.pick(["wp.quat_identity()", "wp.quat(0.0, 0.0, 0.0, 1.0)"])
        return "0"

    def var_of(self, t):
        names = [n for n, tt in self.locals.items() if tt == t]
        return self.pick(names) if names else None

    # ---- expressions ---------------------------------------------------------------------
    def expr(self, t, depth=0):
        if self.chance(self.wrong / 4):
            t = self.pick(VALUES)  # an ill-typed expression on purpose
        v = self.var_of(t)
        if depth > 2 or self.chance(0.25):
            return v if v and self.chance(0.7) else self.lit(t)
        d = depth + 1
        f = self.pick(range(10))
        if t in ("float", "wp.float64"):
            opts = [
                lambda: f"({self.expr(t, d)} {self.pick('+-*/')} {self.expr(t, d)})",
                lambda: f"wp.{self.pick(['sin', 'cos', 'sqrt', 'abs', 'exp', 'log', 'floor'])}({self.expr(t, d)})",
                lambda: f"wp.{self.pick(['min', 'max', 'pow', 'atan2'])}({self.expr(t, d)}, {self.expr(t, d)})",
                lambda: f"{t}({self.expr(self.pick(['int', 'float', 'wp.float64']), d)})",
                lambda: f"wp.clamp({self.expr(t, d)}, {self.lit(t)}, {self.lit(t)})",
                lambda: f"wp.dot({self.expr('wp.vec3', d)}, {self.expr('wp.vec3', d)})" if t == "float" else self.lit(t),
                lambda: f"wp.length({self.expr('wp.vec3', d)})" if t == "float" else self.lit(t),
                lambda: f"helper({self.expr('float', d)}, {self.expr('wp.vec3', d)})" if t == "float" else self.lit(t),
                lambda: f"generic_add({self.expr(t, d)}, {self.expr(t, d)})",
                lambda: f"({self.expr(t, d)} if {self.expr('bool', d)} else {self.expr(t, d)})",
            ]
            if t == "float" and "Body" in self.params.values():
                opts.append(lambda: f"{self.pick([n for n, p in self.params.items() if p == 'Body'])}.x")
            if t == "float" and self.chance(0.1):
                return "SCALE"
            return self.pick(opts)()
        if t == "int":
            opts = [
                lambda: f"({self.expr(t, d)} {self.pick(['+', '-', '*', '//', '%', '&', '|', '^', '<<', '>>'])} {self.expr(t, d)})",
                lambda: f"int({self.expr('float', d)})",
                lambda: "wp.tid()" if "tid" not in self.locals else "tid",
                lambda: f"wp.min({self.expr(t, d)}, {self.expr(t, d)})",
                lambda: "COUNT",
                lambda: "a0.shape[0]" if "a0" in self.params else "1",
            ]
            return self.pick(opts)()
        if t == "bool":
            return self.pick([
                lambda: f"({self.expr('float', d)} {self.pick(['<', '>', '==', '!=', '<=', '>='])} {self.expr('float', d)})",
                lambda: f"({self.expr('bool', d)} {self.pick(['and', 'or'])} {self.expr('bool', d)})",
                lambda: f"(not {self.expr('bool', d)})",
                lambda: f"wp.isnan({self.expr('float', d)})",
            ])()
        if t == "wp.vec3":
            return self.pick([
                lambda: f"({self.expr(t, d)} {self.pick('+-')} {self.expr(t, d)})",
                lambda: f"({self.expr(t, d)} * {self.expr('float', d)})",
                lambda: f"wp.cross({self.expr(t, d)}, {self.expr(t, d)})",
                lambda: f"wp.normalize({self.expr(t, d)})",
                lambda: f"({self.expr('wp.mat33', d)} * {self.expr(t, d)})",
                lambda: f"wp.quat_rotate({self.expr('wp.quat', d)}, {self.expr(t, d)})",
                lambda: f"wp.vec3({self.expr('float', d)})",
            ])()
        if t == "wp.mat33":
            return self.pick([
                lambda: f"wp.transpose({self.expr(t, d)})",
                lambda: f"({self.expr(t, d)} * {self.expr(t, d)})",
                lambda: f"wp.outer({self.expr('wp.vec3', d)}, {self.expr('wp.vec3', d)})",
                lambda: f"wp.inverse({self.expr(t, d)})",
            ])()
        if t == "wp.quat":
            return self.pick([
                lambda: f"wp.normalize({self.expr(t, d)})",
                lambda: f"({self.expr(t, d)} * {self.expr(t, d)})",
                lambda: f"wp.quat_from_axis_angle({self.expr('wp.vec3', d)}, {self.expr('float', d)})",
            ])()
        return v or self.lit(t)

    # ---- statements ----------------------------------------------------------------------
    def emit(self, indent, text):
        self.lines.append("    " * indent + text)

    def stmt(self, indent, depth):
        k = self.rng.randrange(14)
        arrays = [n for n in self.params if n.startswith("a")]
        if k <= 3 or depth > 2:
            t = self.pick(VALUES)
            name = self.var_of(t) if self.chance(0.3) else None
            name = name or self.fresh()
            self.emit(indent, f"{name} = {self.expr(t)}")
            if indent == 1:
                self.locals[name] = t
        elif k == 4 and arrays:
            a = self.pick(arrays)
            t = self.params[a]
            if t == "Body":
                self.emit(indent, f"{a}[tid].x = {self.expr('float')}")
            else:
                self.emit(indent, f"{a}[{self.index(a)}] = {self.expr(t)}")
        elif k == 5 and arrays:
            a = self.pick(arrays)
            t = self.params[a]
            if t in ("float", "int", "wp.vec3", "wp.float64"):
                op = self.pick(["atomic_add", "atomic_sub", "atomic_min", "atomic_max"])
                self.emit(indent, f"wp.{op}({a}, {self.index(a)}, {self.expr(t)})")
        elif k == 6:
            self.emit(indent, f"if {self.expr('bool')}:")
            self.block(indent + 1, depth + 1)
            if self.chance(0.5):
                self.emit(indent, "else:")
                self.block(indent + 1, depth + 1)
        elif k == 7:
            n = self.pick(["3", "COUNT", "tid", "wp.static(COUNT)", "0", "-2", "a0.shape[0]"
                           if "a0" in self.params else "4"])
            self.emit(indent, f"for i{depth} in range({n}):")
            self.block(indent + 1, depth + 1)
        elif k == 8:
            self.emit(indent, f"for j{depth} in range({self.pick(['2', '3', 'COUNT'])}):")
            self.emit(indent + 1, f"acc = acc + float(wp.static(j{depth}))")
            if self.chance(0.3):
                self.block(indent + 1, depth + 1)
        elif k == 9:
            c = self.fresh()
            self.emit(indent, f"{c} = int(0)")
            self.emit(indent, f"while {c} < {self.pick(['3', 'COUNT', 'tid'])}:")
            self.emit(indent + 1, f"{c} = {c} + 1")
            if self.chance(0.5):
                self.emit(indent + 1, self.pick(["break", "continue", f"acc = acc + float({c})"]))
        elif k == 10:
            self.emit(indent, self.pick([
                f'wp.printf("%d %f\\n", tid, {self.expr("float")})',
                f"print({self.expr(self.pick(VALUES))})",
                'wp.printf("%s\\n", tid)',
            ]))
        elif k == 11:
            self.emit(indent, f"acc = acc + {self.expr('float')}")
        elif k == 12:
            self.emit(indent, self.pick(["return", "pass", "acc += 1.0", "acc = wp.static(SCALE)"]))
        else:
            self.emit(indent, f"{self.fresh()} = {self.call_any()}")

    def call_any(self):
        name = self.pick(["wp.sin", "wp.dot", "wp.cross", "wp.length", "wp.min", "wp.atomic_add",
                          "wp.quat_rotate", "wp.transpose", "wp.clamp", "wp.select", "helper",
                          "generic_add", "wp.vec3", "wp.mat33", "wp.float16", "wp.uint8"])
        args = ", ".join(self.expr(self.pick(VALUES)) for _ in range(self.rng.randrange(4)))
        return f"{name}({args})"

    def index(self, a):
        return self.pick(["tid", "0", "tid % 2", "COUNT", "-1"]) if self.chance(0.3) else "tid"

    def block(self, indent, depth):
        for _ in range(self.rng.randrange(1, 4)):
            self.stmt(indent, depth)

    # ---- the case ------------------------------------------------------------------------
    def text(self):
        n_params = self.rng.randrange(1, 5)
        sig = []
        for i in range(n_params):
            if self.chance(0.7):
                t = self.pick(ARRAYS)
                name = f"a{i}"
                ann = f"wp.array(dtype={t})"
            else:
                t = self.pick(SCALARS + ("wp.vec3", "Body"))
                name = f"s{i}"
                ann = t
            self.params[name] = t
            sig.append(f"{name}: {ann}")
        generic = self.chance(0.1)
        if generic:
            sig.append("g: wp.array(dtype=Any)")
        for n, t in self.params.items():
            if not n.startswith("a") and t in VALUES:
                self.locals[n] = t
        body_start = len(self.lines)
        self.emit(1, "tid = wp.tid()")
        self.emit(1, "acc = float(0.0)")
        self.locals["tid"] = "int"
        self.locals["acc"] = "float"
        self.block(1, 0)
        for _ in range(self.rng.randrange(4)):
            self.stmt(1, 0)
        body = self.lines[body_start:]
        out = [HEADER, "", "@wp.kernel(module=\"unique\")", f"def k({', '.join(sig)}):"] + body
        if generic:
            types = [f"wp.array(dtype={self.params[n]})" if n.startswith("a") else self.params[n]
                     for n in self.params] + ["wp.array(dtype=float)"]
            out.append(f"\n\nwp.overload(k, [{', '.join(types)}])")
        out.append("")
        out.append("")
        if self.launch and not generic:
            out.append(f"FUZZ.launch(k, dim=4, inputs=[{', '.join(self.arg(n) for n in self.params)}])")
        else:
            out.append("FUZZ.source(k)")
        return "\n".join(out) + "\n"

    def arg(self, name):
        t = self.params[name]
        if name.startswith("a"):
            return f"wp.zeros(4, dtype={t}, device={fuzz_device()!r})"
        if t == "Body":
            return "Body()"
        if t == "wp.vec3":
            return "wp.vec3(1.0, 2.0, 3.0)"
        return "1" if "int" in t else "1.0"


def generated(rng, launch_rate=0.1):
    """One generated case's text."""
    return KernelGen(rng, launch=rng.random() < launch_rate).text()
