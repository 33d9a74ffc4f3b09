"""ModuleHasher, treadle._src.context.ModuleBuilder, Kernel.hash, kernel.adj.build() and
called_user_functions, codegen_func_forward and Module._write_meta."""

import itertools
import json

import pytest

import treadle as wp
from treadle._src.codegen import codegen_func_forward
from treadle._src.context import ModuleBuilder, ModuleHasher


@wp.kernel(module="treadle_builder_a")
def writes_one(out: wp.array(dtype=float)):
    out[wp.tid()] = 1.0


@wp.kernel(module="treadle_builder_a")
def writes_two(out: wp.array(dtype=float)):
    out[wp.tid()] = 2.0


def _same_key(value):
    @wp.kernel(module="treadle_builder_a")
    def same_key(out: wp.array(dtype=float)):
        out[wp.tid()] = value

    return same_key


first, second = _same_key(3.0), _same_key(4.0)


@wp.func
def helper_b(x: float):
    return x + 2.0


@wp.func
def helper_a(x: float):
    return x + 1.0


@wp.kernel
def calls_helpers(out: wp.array(dtype=float)):
    out[wp.tid()] = helper_b(1.0) + helper_a(2.0) + helper_b(3.0)


def test_hash_ignores_kernel_order_and_follows_content_and_options():
    module = writes_one.module
    options = module.resolve_options(wp.config, 256)
    kernels = (writes_one, writes_two, first, second)
    hashes = {ModuleHasher(order, options).get_hash() for order in itertools.permutations(kernels)}
    assert len(hashes) == 1
    assert ModuleHasher(kernels[:3], options).get_hash() not in hashes
    other = dict(options, verify_fp=not options["verify_fp"])
    assert ModuleHasher(kernels, other).get_hash() not in hashes
    assert first.key == second.key and first.hash != second.hash
    assert len(first.hash) == 32


def test_builder_source_and_meta_do_not_depend_on_order():
    module = writes_one.module
    options = module.resolve_options(wp.config, 256)
    results = set()
    for order in itertools.permutations((writes_one, writes_two, first, second)):
        builder = ModuleBuilder(module, options, hasher=ModuleHasher(order, options))
        results.add((builder.codegen("cpu"), builder.codegen("cuda"),
                     json.dumps(builder.build_meta(), sort_keys=True)))
    assert len(results) == 1
    cpu, cuda, meta = results.pop()
    assert cpu.count("treadle_cpu_entry") == 4 and "__global__" not in cpu
    assert cuda.count("__global__") == 4
    assert cpu.index("kernel writes_one") < cpu.index("kernel writes_two")
    meta = json.loads(meta)
    assert sorted(v["key"] for v in meta.values()) == sorted(
        k.key for k in (writes_one, writes_two, first, second))
    assert {v["hash"] for v in meta.values()} >= {first.hash.hex(), second.hash.hex()}


def test_builder_lists_link_inputs_by_symbol():
    module = writes_one.module
    options = module.resolve_options(wp.config, 256)
    builder = ModuleBuilder(module, options, hasher=ModuleHasher((writes_one,), options))
    builder.ltoirs_decl["zz"] = "void decl_zz();"
    builder.ltoirs_decl["aa"] = "void decl_aa();"
    source = builder.codegen("cuda")
    assert source.index("decl_aa") < source.index("decl_zz") < source.index("__global__")
    assert "decl_aa" not in builder.codegen("cpu")
    builder.ltoirs.update(zz=b"z", aa=b"a")
    builder.fatbins.update(zz=b"Z", aa=b"A")
    assert builder.get_link_inputs() == ([b"a", b"z"], [b"A", b"Z"])


def test_called_user_functions_in_order_first_named():
    calls = calls_helpers.adj.called_user_functions
    assert tuple(calls) == (helper_b, helper_a)


def test_adj_build_reports_source_errors():
    @wp.kernel
    def broken(out: wp.array(dtype=float)):
        out[0] = undefined_name  # noqa: F821

    with pytest.raises(KeyError, match="Referencing undefined symbol: undefined_name"):
        broken.adj.build(builder=None)
    writes_one.adj.build(builder=None)


def test_codegen_func_forward_has_negative_literals():
    @wp.kernel
    def negatives(f: wp.array(dtype=wp.float64), i: wp.array(dtype=wp.int64)):
        f[0] = wp.float64(-1.5)
        i[0] = wp.int64(-42)

    for device in ("cpu", "cuda"):
        source = codegen_func_forward(negatives.adj, func_type="kernel", device=device)
        assert "-1.5" in source and "-42ll" in source and "neg(" not in source
    with pytest.raises(NotImplementedError, match="func_type='kernel'"):
        codegen_func_forward(negatives.adj, func_type="function")


def test_write_meta_sorts_keys(tmp_path):
    path = tmp_path / "m.meta"
    writes_one.module._write_meta(str(path), {"zulu": 0, "alpha": 1})
    assert path.read_text() == '{"alpha": 1, "zulu": 0}'
