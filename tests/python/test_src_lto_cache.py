"""treadle._src.build's LTO cache: entries named by the symbol's hash, sidecar validation,
publication of a build and healing of an invalid entry."""

import json
import os

import pytest

import treadle as wp
from treadle._src import build


@pytest.fixture
def cache_dir(tmp_path):
    saved = wp.config.kernel_cache_dir
    wp.config.kernel_cache_dir = str(tmp_path)
    yield tmp_path
    wp.config.kernel_cache_dir = saved


def _paths(symbol, *suffixes):
    key = build.hash_symbol(symbol)[: build.LTO_CACHE_KEY_LENGTH]
    return [os.path.join(build.get_lto_cache_dir(), key + s) for s in suffixes]


def test_hash_symbol_is_sha256_hex():
    assert build.hash_symbol("abc") == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    assert build.LTO_CACHE_KEY_LENGTH > 7


@pytest.mark.parametrize("text", ['{"other": 1}', "{", '{"sym": "x"}', '{"sym": true}', "[1]"])
def test_meta_sidecar_invalid_is_a_miss(tmp_path, text):
    path = tmp_path / "m.meta"
    path.write_text(text)
    assert build.get_cached_lto_meta(str(path), "sym") is None


def test_meta_sidecar_bad_encoding_and_missing(tmp_path):
    path = tmp_path / "m.meta"
    path.write_bytes(b"\xff")
    assert build.get_cached_lto_meta(str(path), "sym") is None
    assert build.get_cached_lto_meta(str(tmp_path / "none.meta"), "sym") is None
    path.write_text('{"sym": 96}')
    assert build.get_cached_lto_meta(str(path), "sym") == 96


def test_build_publishes_then_hits(cache_dir):
    calls = []

    def compile_func(temp_paths):
        calls.append(sorted(temp_paths))
        with open(temp_paths[".lto"], "wb") as f:
            f.write(b"object")
        with open(temp_paths[".meta"], "w") as f:
            json.dump({"sym": 64}, f)
        return True, {".lto": b"object", ".meta": 64}

    meta = {".meta": lambda p: build.get_cached_lto_meta(p, "sym")}
    assert build._build_lto_base("sym", compile_func, None, meta) == (True, b"object", 64)
    assert build._build_lto_base("sym", compile_func, None, meta) == (True, b"object", 64)
    assert calls == [[".lto", ".meta"]]  # the second call read the cache
    lto, meta_path = _paths("sym", ".lto", ".meta")
    assert open(lto, "rb").read() == b"object"
    assert json.load(open(meta_path)) == {"sym": 64}
    assert len(os.listdir(build.get_lto_cache_dir())) == 2  # no temporary folder left


def test_failed_build_publishes_nothing(cache_dir):
    result = build._build_lto_base("sym", lambda paths: (False, {}), None, {".meta": None})
    assert result == (False, None, None)
    assert os.listdir(build.get_lto_cache_dir()) == []


def test_invalid_entry_is_rebuilt_and_healed(cache_dir):
    lto, meta_path = _paths("sym", ".lto", ".meta")
    os.makedirs(build.get_lto_cache_dir())
    open(lto, "wb").write(b"stale")
    open(meta_path, "w").write('{"other": 1}')

    def compile_func(temp_paths):
        open(temp_paths[".lto"], "wb").write(b"fresh")
        open(temp_paths[".meta"], "w").write('{"sym": 8}')
        return True, {".lto": b"fresh", ".meta": 8}

    meta = {".meta": lambda p: build.get_cached_lto_meta(p, "sym")}
    assert build._build_lto_base("sym", compile_func, None, meta) == (True, b"fresh", 8)
    assert open(lto, "rb").read() == b"fresh"
    assert json.load(open(meta_path)) == {"sym": 8}


def test_builder_is_refused(cache_dir):
    with pytest.raises(NotImplementedError, match="builder=None"):
        build._build_lto_base("sym", lambda paths: (True, {}), object())
