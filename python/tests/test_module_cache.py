"""The on-disk cache of the compiled core (``_module_cache.py``): what it stores and when.
Attacks on it (planted files, links, modes, wrong modules) are in test_module_cache_attacks.py.

Runs ``load_module`` with the real wasmtime, counting compiles: a hit must not compile, and every bad
entry (corrupt, truncated, foreign, from another engine configuration) must
be ignored and rewritten, never trusted and never an error. Two fresh
processes check the hook in ``_core.py`` end to end.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, List

import pytest

from overturn.fingerprint import _core, _module_cache, _wasmtime
from overturn.fingerprint._module_cache import MAGIC, load_module

TAG = "memory_may_move=False"


class Counting:
    """Counts compiles: load_module's one way to compile is ``_wasmtime.Module.compile``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.compiles = 0
        real = _wasmtime.Module.compile.__func__  # type: ignore[attr-defined]

        def compile(cls: Any, eng: int, wasm: bytes) -> Any:
            self.compiles += 1
            return real(cls, eng, wasm)

        monkeypatch.setattr(_wasmtime.Module, "compile", classmethod(compile))


def engine(memory_may_move: bool = False) -> int:
    return _wasmtime.new_engine(memory_may_move)


def works(module: Any, eng: int) -> bool:
    assert module.engine.value == eng
    w = _wasmtime.Instance(module)
    return w.call(w.func("version")) == 1


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("OVERTURN_FINGERPRINT_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("OVERTURN_FINGERPRINT_NO_CACHE", raising=False)
    return tmp_path


def entries(folder: Path) -> List[Path]:
    return sorted(folder.iterdir())


def test_a_miss_compiles_and_stores_then_a_hit_does_not_compile(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    w, eng, wasm = Counting(monkeypatch), engine(), _core.wasm_bytes()
    assert works(load_module(eng, wasm, TAG), eng) and w.compiles == 1
    [entry] = entries(cache)
    assert entry.name.startswith("fingerprint-" + hashlib.sha256(wasm).hexdigest()[:16]) and entry.suffix == ".cwasm"
    assert entry.stat().st_mode & 0o777 == 0o600
    data = entry.read_bytes()
    assert data.startswith(MAGIC)
    assert hashlib.sha256(data[len(MAGIC) + 32:]).digest() == data[len(MAGIC):len(MAGIC) + 32]
    for _ in range(2):
        assert works(load_module(eng, wasm, TAG), eng)
    assert w.compiles == 1
    assert entry.read_bytes() == data


@pytest.mark.parametrize("damage", ["flip a payload byte", "truncate", "flip the digest", "empty", "wrong magic"])
def test_a_damaged_entry_is_ignored_and_rewritten(cache: Path, damage: str, monkeypatch: pytest.MonkeyPatch) -> None:
    w, eng, wasm = Counting(monkeypatch), engine(), _core.wasm_bytes()
    load_module(eng, wasm, TAG)
    [entry] = entries(cache)
    good = entry.read_bytes()
    bad = bytearray(good)
    if damage == "flip a payload byte":
        bad[len(bad) // 2] ^= 0x40
    elif damage == "truncate":
        bad = bad[:len(bad) - 100]
    elif damage == "flip the digest":
        bad[len(MAGIC)] ^= 1
    elif damage == "empty":
        bad = bytearray()
    else:
        bad[0] ^= 1
    entry.write_bytes(bytes(bad))
    assert works(load_module(eng, wasm, TAG), eng)
    assert w.compiles == 2
    assert entry.read_bytes() == good


def test_an_intact_but_foreign_entry_is_refused_by_wasmtime_and_rebuilt(cache: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry with a valid digest that this engine cannot use (another configuration)."""
    wasm = _core.wasm_bytes()
    foreign = _wasmtime.Module.compile(engine(memory_may_move=True), wasm).serialize()
    w, eng = Counting(monkeypatch), engine()
    load_module(eng, wasm, TAG)
    [entry] = entries(cache)
    entry.write_bytes(MAGIC + hashlib.sha256(foreign).digest() + foreign)
    assert works(load_module(eng, wasm, TAG), eng)
    assert w.compiles == 2
    payload = entry.read_bytes()[len(MAGIC) + 32:]
    assert payload != foreign
    # Garbage with a valid digest: never executed, wasmtime's header check refuses it.
    junk = b"\x00" * 4096
    entry.write_bytes(MAGIC + hashlib.sha256(junk).digest() + junk)
    assert works(load_module(eng, wasm, TAG), eng)
    assert w.compiles == 3


def test_the_key_covers_wasm_engine_settings_and_host() -> None:
    a = _module_cache.entry_name("ab" * 32, TAG)
    assert a == _module_cache.entry_name("ab" * 32, TAG)
    assert a != _module_cache.entry_name("cd" * 32, TAG)
    assert a != _module_cache.entry_name("ab" * 32, "memory_may_move=True")
    assert a != _module_cache.entry_name("ab" * 32, TAG, "diagnostics")


def test_no_cache_env_var_reads_and_writes_nothing(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OVERTURN_FINGERPRINT_NO_CACHE", "1")
    w, eng = Counting(monkeypatch), engine()
    for _ in range(2):
        assert works(load_module(eng, _core.wasm_bytes(), TAG), eng)
    assert w.compiles == 2 and entries(cache) == []


def test_an_unwritable_cache_is_not_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("OVERTURN_FINGERPRINT_CACHE_DIR", str(blocker / "cache"))
    w, eng = Counting(monkeypatch), engine()
    assert works(load_module(eng, _core.wasm_bytes(), TAG), eng)
    assert [p.name for p in tmp_path.iterdir()] == ["a-file"]


@pytest.mark.parametrize("platform, env, want", [
    ("linux", {"XDG_CACHE_HOME": "/x/cache"}, "/x/cache/overturn-fingerprint"),
    ("linux", {"HOME": "/home/u"}, "/home/u/.cache/overturn-fingerprint"),
    ("linux", {"HOME": "/home/u", "XDG_CACHE_HOME": "relative"}, None),
    ("darwin", {"HOME": "/Users/u"}, "/Users/u/Library/Caches/overturn-fingerprint"),
    # No O_NOFOLLOW or owner check on Windows: no cache there.
    ("win32", {"LOCALAPPDATA": "C:\\Users\\u\\AppData\\Local"}, None),
    ("win32", {}, None),
    ("linux", {"HOME": "/home/u", "OVERTURN_FINGERPRINT_CACHE_DIR": "/elsewhere"}, "/elsewhere"),
    # Relative or empty: no cache (a checkout must not be able to ship an entry), never the default.
    ("linux", {"HOME": "/home/u", "OVERTURN_FINGERPRINT_CACHE_DIR": "cache"}, None),
    ("linux", {"HOME": "/home/u", "OVERTURN_FINGERPRINT_CACHE_DIR": "./cache"}, None),
    ("linux", {"HOME": "/home/u", "OVERTURN_FINGERPRINT_CACHE_DIR": "~/cache"}, None),
    ("linux", {"HOME": "/home/u", "OVERTURN_FINGERPRINT_CACHE_DIR": ""}, None),
    ("linux", {"HOME": "/home/u", "OVERTURN_FINGERPRINT_NO_CACHE": "1", "OVERTURN_FINGERPRINT_CACHE_DIR": "/e"}, None),
    ("linux", {"HOME": "/home/u", "OVERTURN_FINGERPRINT_NO_CACHE": "0"}, "/home/u/.cache/overturn-fingerprint"),
])
def test_cache_dir_follows_the_platform_convention(monkeypatch: pytest.MonkeyPatch, platform: str, env: dict,
                                                   want: Any) -> None:
    for k in ("XDG_CACHE_HOME", "LOCALAPPDATA", "OVERTURN_FINGERPRINT_CACHE_DIR", "OVERTURN_FINGERPRINT_NO_CACHE"):
        monkeypatch.delenv(k, raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setattr(sys, "platform", platform)
    assert _module_cache.cache_dir() == want


PROGRAM = """
import json
from overturn.fingerprint import fingerprint, _core
print(json.dumps({"fp": fingerprint("search", {"q": " cats "})}))
"""


def test_fresh_processes_share_one_entry(tmp_path: Path) -> None:
    env = {**os.environ, "OVERTURN_FINGERPRINT_CACHE_DIR": str(tmp_path)}
    env.pop("OVERTURN_FINGERPRINT_NO_CACHE", None)
    want = hashlib.sha256(b'tool_call\nsearch\n{"q":"cats"}').hexdigest()
    runs = []
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True, text=True, check=True)
        assert out.stderr == ""
        runs.append((json.loads(out.stdout)["fp"], [(p.name, p.stat().st_mtime_ns) for p in entries(tmp_path)]))
    assert runs[0][0] == runs[1][0] == want
    assert len(runs[0][1]) == 1 and runs[0][1] == runs[1][1]  # the second process read, did not rewrite
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
