"""The compiled-module cache as an attacker sees it (docs/security.md).

A cache entry is native code: the cache must load nothing another user could
have written (files planted by another uid, foreign or group/world-writable
folders, links, FIFOs, huge files, a relative folder), must never write
through a link, must keep its folders 0700 and entries 0600 whatever the
umask, prunes its stale entries, and every module it hands out, cached or
compiled, must pass the known-answer self-test: a module that answers wrong
(here: the real core with SHA-256's initial hash value changed, serialized
and planted under the real entry's name) is dropped and rebuilt.

Planting files of another uid needs root (CI runs as root); elsewhere those
tests skip. Anything that could hang or read without bound runs in a
subprocess with a timeout.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, List

import pytest

from _support import oracle_digest
from overturn.fingerprint import FingerprintError, _core, _engine, _module_cache, _selftest, _wasmtime
from overturn.fingerprint._module_cache import MAGIC, load_module
from overturn.fingerprint._selftest_vectors import VECTORS

TAG = _core.ENGINE_TAG
OTHER_UID = 65534  # nobody
CATS = oracle_digest("tool_call", "search", '{"q":"cats"}')
needs_root = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                                reason="planting files of another uid needs root (CI runs the suite as root)")
posix_only = pytest.mark.skipif(not getattr(_module_cache, "_SUPPORTED", True), reason="the cache is POSIX-only")
pytestmark = posix_only


class Spy:
    """Counts compiles and deserializes: the only two ways load_module gets a module."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.compiles = self.deserializes = 0
        compile_ = _wasmtime.Module.compile.__func__  # type: ignore[attr-defined]
        deserialize = _wasmtime.Module.deserialize.__func__  # type: ignore[attr-defined]

        def counting_compile(cls: Any, eng: int, wasm: bytes) -> Any:
            self.compiles += 1
            return compile_(cls, eng, wasm)

        def counting_deserialize(cls: Any, eng: int, data: bytes) -> Any:
            self.deserializes += 1
            return deserialize(cls, eng, data)

        monkeypatch.setattr(_wasmtime.Module, "compile", classmethod(counting_compile))
        monkeypatch.setattr(_wasmtime.Module, "deserialize", classmethod(counting_deserialize))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    monkeypatch.setenv("OVERTURN_FINGERPRINT_CACHE_DIR", str(folder))
    monkeypatch.delenv("OVERTURN_FINGERPRINT_NO_CACHE", raising=False)
    return folder


def wasm(name: str = "fingerprint.wasm") -> bytes:
    return _core.package_bytes(name)


def name_of(data: bytes, label: str = "fingerprint") -> str:
    key = hashlib.sha256(data).hexdigest()
    return _module_cache.entry_name(key, TAG, label) if label != "fingerprint" else _module_cache.entry_name(key, TAG)


def entry_bytes(data: bytes) -> bytes:
    """A whole, intact entry (valid header) for the module compiled from ``data``."""
    payload = _wasmtime.Module.compile(_wasmtime.engine(), data).serialize()
    return MAGIC + hashlib.sha256(payload).digest() + payload


def wrong_sha256(data: bytes) -> bytes:
    """The same module with SHA-256's first initial hash word changed: valid wasm, same exports,
    every digest wrong (the word is in the data segment exactly once)."""
    iv = struct.pack("<I", 0x6A09E667)
    assert data.count(iv) == 1
    return data.replace(iv, struct.pack("<I", 0x6A09E668))


def plant(path: Path, content: bytes, uid: int = -1, mode: int = 0o600) -> None:
    path.write_bytes(content)
    os.chmod(path, mode)
    if uid >= 0:
        os.chown(path, uid, -1)


def correct(module: Any) -> bool:
    return _selftest.failure(module) is None


def names(folder: Path) -> List[str]:
    return sorted(p.name for p in folder.iterdir())


# --- ownership and modes ------------------------------------------------------------------


@needs_root
def test_an_entry_planted_by_another_uid_is_never_deserialized(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    entry = cache / name_of(wasm())
    plant(entry, entry_bytes(wasm()), uid=OTHER_UID)  # even a whole, correct-looking entry
    spy = Spy(monkeypatch)
    assert correct(load_module(_wasmtime.engine(), wasm(), TAG))
    assert (spy.deserializes, spy.compiles) == (0, 1)
    st = entry.lstat()  # replaced by our own (the folder is ours alone)
    assert st.st_uid == os.geteuid() and stat.S_IMODE(st.st_mode) == 0o600


@needs_root
def test_a_folder_owned_by_another_uid_is_neither_read_nor_written(cache: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    entry = cache / name_of(wasm())
    planted = entry_bytes(wasm())
    plant(entry, planted)
    os.chown(cache, OTHER_UID, -1)
    spy = Spy(monkeypatch)
    for _ in range(2):
        assert correct(load_module(_wasmtime.engine(), wasm(), TAG))
    assert (spy.deserializes, spy.compiles) == (0, 2)
    assert names(cache) == [entry.name] and entry.read_bytes() == planted


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o702, 0o1777])
def test_a_group_or_world_writable_folder_is_neither_read_nor_written(cache: Path, mode: int,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    entry = cache / name_of(wasm())
    planted = entry_bytes(wasm())
    plant(entry, planted)
    os.chmod(cache, mode)
    spy = Spy(monkeypatch)
    assert correct(load_module(_wasmtime.engine(), wasm(), TAG))
    assert (spy.deserializes, spy.compiles) == (0, 1)
    assert names(cache) == [entry.name] and entry.read_bytes() == planted


def test_a_cache_folder_that_is_a_symlink_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    plant(real / name_of(wasm()), entry_bytes(wasm()))
    before = names(real)
    (tmp_path / "link").symlink_to(real)  # whoever could make the link could point it anywhere
    monkeypatch.setenv("OVERTURN_FINGERPRINT_CACHE_DIR", str(tmp_path / "link"))
    monkeypatch.delenv("OVERTURN_FINGERPRINT_NO_CACHE", raising=False)
    spy = Spy(monkeypatch)
    assert correct(load_module(_wasmtime.engine(), wasm(), TAG))
    assert (spy.deserializes, spy.compiles) == (0, 1) and names(real) == before


@pytest.mark.parametrize("mode", [0o666, 0o620, 0o602])
def test_a_group_or_world_writable_entry_is_not_read(cache: Path, mode: int, monkeypatch: pytest.MonkeyPatch) -> None:
    entry = cache / name_of(wasm())
    plant(entry, entry_bytes(wasm()), mode=mode)
    spy = Spy(monkeypatch)
    assert correct(load_module(_wasmtime.engine(), wasm(), TAG))
    assert (spy.deserializes, spy.compiles) == (0, 1)
    assert stat.S_IMODE(entry.lstat().st_mode) == 0o600  # rewritten as ours alone


def test_a_hard_linked_entry_is_not_read(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    outside = tmp_path / "elsewhere.cwasm"
    plant(outside, entry_bytes(wasm()))
    os.link(outside, cache / name_of(wasm()))
    spy = Spy(monkeypatch)
    assert correct(load_module(_wasmtime.engine(), wasm(), TAG))
    assert (spy.deserializes, spy.compiles) == (0, 1)


UMASK_PROGRAM = """
import os, sys
os.umask(0)
from overturn.fingerprint import fingerprint, explain
print(fingerprint("search", {"q": " cats "}))
explain("search", {"q": 1})  # the diagnostics module, cached the same way
"""


def test_under_umask_0_folders_are_0700_and_entries_0600(tmp_path: Path) -> None:
    folder = tmp_path / "a" / "b" / "cache"  # its parents do not exist yet
    env = {**os.environ, "OVERTURN_FINGERPRINT_CACHE_DIR": str(folder)}
    env.pop("OVERTURN_FINGERPRINT_NO_CACHE", None)
    out = subprocess.run([sys.executable, "-c", UMASK_PROGRAM], env=env, capture_output=True, text=True,
                         timeout=120, check=True)
    assert out.stdout.split() == [CATS]
    for d in (tmp_path / "a", tmp_path / "a" / "b", folder):
        assert stat.S_IMODE(d.stat().st_mode) == 0o700, d
    found = names(folder)
    assert [n.split("-")[0] for n in found] == ["engine", "fingerprint"]
    for n in found:
        assert stat.S_IMODE((folder / n).stat().st_mode) == 0o600, n


# --- links, FIFOs, devices, huge files ---------------------------------------------------


def test_a_symlink_at_the_entry_name_is_not_followed(cache: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "target.cwasm"
    original = entry_bytes(wasm())
    plant(target, original)  # a valid entry of ours, reached only through the link
    entry = cache / name_of(wasm())
    entry.symlink_to(target)
    spy = Spy(monkeypatch)
    assert correct(load_module(_wasmtime.engine(), wasm(), TAG))
    assert (spy.deserializes, spy.compiles) == (0, 1)
    assert target.read_bytes() == original  # never written through
    assert not entry.is_symlink() and stat.S_ISREG(entry.lstat().st_mode)  # the link itself replaced


def test_a_symlink_at_the_old_temporary_name_is_not_written_through(cache: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "victim"
    target.write_bytes(b"precious")
    entry = name_of(wasm())
    (cache / ("%s.%d.tmp" % (entry, os.getpid()))).symlink_to(target)  # the once predictable name
    assert correct(load_module(_wasmtime.engine(), wasm(), TAG))
    assert target.read_bytes() == b"precious"
    assert (cache / entry).read_bytes().startswith(MAGIC)


def test_a_symlink_at_the_temporary_name_is_never_written_through(cache: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Even a link at the very name chosen (its random part forced here) is refused (O_EXCL)."""
    monkeypatch.setattr(_module_cache, "_token", lambda: "0123456789abcdef")
    target = tmp_path / "victim"
    target.write_bytes(b"precious")
    dangling = tmp_path / "not-yet"
    entry = name_of(wasm())
    (cache / (entry + ".0123456789abcdef.tmp")).symlink_to(target)
    spy = Spy(monkeypatch)
    assert correct(load_module(_wasmtime.engine(), wasm(), TAG))
    assert target.read_bytes() == b"precious" and not (cache / entry).exists()  # no entry: no error either
    (cache / (entry + ".0123456789abcdef.tmp")).unlink()
    (cache / (entry + ".0123456789abcdef.tmp")).symlink_to(dangling)  # O_CREAT alone would make it
    assert correct(load_module(_wasmtime.engine(), wasm(), TAG))
    assert not dangling.exists() and not (cache / entry).exists()
    assert spy.compiles == 2


# Peak memory from /proc's VmHWM where there is one: ru_maxrss survives execve on Linux, so a child of a
# large test process would report its parent's peak.
HOSTILE_PROGRAM = """
import json, resource, sys, time
t0 = time.perf_counter()
from overturn.fingerprint import fingerprint
fp = fingerprint("search", {"q": " cats "})
s = time.perf_counter() - t0
try:
    with open("/proc/self/status") as f:
        kb = next(int(l.split()[1]) for l in f if l.startswith("VmHWM:"))
except (OSError, StopIteration):
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"fp": fp, "s": s, "rss_mb": kb / 1024}))
"""


def run_hostile(cache: Path) -> Any:
    env = {**os.environ, "OVERTURN_FINGERPRINT_CACHE_DIR": str(cache)}
    env.pop("OVERTURN_FINGERPRINT_NO_CACHE", None)
    try:
        out = subprocess.run([sys.executable, "-c", HOSTILE_PROGRAM], env=env, capture_output=True, text=True,
                             timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("the first fingerprint hung on the planted entry")
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stderr == ""
    return json.loads(out.stdout)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_at_the_entry_name_does_not_hang_the_first_call(cache: Path) -> None:
    entry = cache / name_of(wasm())
    os.mkfifo(entry, 0o600)
    got = run_hostile(cache)
    assert got["fp"] == CATS
    assert stat.S_ISREG(entry.lstat().st_mode)  # replaced by a real entry


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_a_symlink_to_dev_zero_at_the_entry_name_is_not_read(cache: Path) -> None:
    (cache / name_of(wasm())).symlink_to("/dev/zero")
    got = run_hostile(cache)
    assert got["fp"] == CATS
    assert got["s"] < 10 and got["rss_mb"] < 400, got


def test_a_huge_sparse_file_at_the_entry_name_is_not_read(cache: Path) -> None:
    entry = cache / name_of(wasm())
    with open(entry, "wb") as f:
        f.truncate(1 << 30)  # 1 GB of zeros, no disk
    os.chmod(entry, 0o600)
    got = run_hostile(cache)
    assert got["fp"] == CATS
    assert got["s"] < 10 and got["rss_mb"] < 400, got  # read whole, it would hold 1 GB
    assert entry.stat().st_size < 1 << 20  # replaced by a real entry


# --- where ---------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["rel/cache", ""])
def test_a_relative_or_empty_cache_dir_means_no_cache(tmp_path: Path, where: str) -> None:
    """A checkout that sets a relative folder (and ships an entry in it) gets no cache at all."""
    home = tmp_path / "home"
    home.mkdir()
    shipped = tmp_path / "rel" / "cache"
    shipped.mkdir(parents=True, mode=0o700)
    plant(shipped / name_of(wasm()), entry_bytes(wrong_sha256(wasm())))  # would answer wrong
    before = names(shipped)
    env = {**os.environ, "OVERTURN_FINGERPRINT_CACHE_DIR": where, "HOME": str(home), "XDG_CACHE_HOME": ""}
    env.pop("OVERTURN_FINGERPRINT_NO_CACHE", None)
    out = subprocess.run([sys.executable, "-c", "from overturn.fingerprint import fingerprint\n"
                          "print(fingerprint('search', {'q': ' cats '}))"],
                         env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split() == [CATS]
    assert names(shipped) == before and list(home.iterdir()) == []  # nothing written anywhere


# --- pruning --------------------------------------------------------------------------------


def test_stale_entries_of_this_module_are_pruned_and_nothing_else(cache: Path, tmp_path: Path) -> None:
    old = time.time() - 86400
    stale = ["fingerprint-%016x-%032x.cwasm" % (i, i) for i in range(5)]
    for i, n in enumerate(stale):
        plant(cache / n, b"old entry")
        os.utime(cache / n, (old + i, old + i))  # stale[4] the newest of them
    legacy = "%016x-%032x.cwasm" % (7, 7)  # the earlier naming
    plant(cache / legacy, b"legacy")
    dead_tmp, live_tmp = "fingerprint-x.cwasm.dead.tmp", "fingerprint-x.cwasm.live.tmp"
    plant(cache / dead_tmp, b"left by a writer that died")
    os.utime(cache / dead_tmp, (old, old))
    plant(cache / live_tmp, b"another process is writing")
    keep = {"diagnostics-%016x-%032x.cwasm" % (1, 1): b"the other module's", "notes.txt": b"not ours to judge"}
    for n, b in keep.items():
        plant(cache / n, b)
        os.utime(cache / n, (old, old))
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    (cache / "fingerprint-link.cwasm").symlink_to(victim)
    os.utime(cache / "fingerprint-link.cwasm", (old, old), follow_symlinks=False)
    assert correct(load_module(_wasmtime.engine(), wasm(), TAG))
    want = sorted([name_of(wasm()), stale[4], stale[3], live_tmp, "fingerprint-link.cwasm", *keep])
    assert names(cache) == want
    assert victim.read_bytes() == b"precious" and (cache / "fingerprint-link.cwasm").is_symlink()
    for n, b in keep.items():
        assert (cache / n).read_bytes() == b


@needs_root
def test_pruning_leaves_files_of_another_uid_alone(cache: Path) -> None:
    foreign = "fingerprint-%016x-%032x.cwasm" % (9, 9)
    plant(cache / foreign, b"someone else's", uid=OTHER_UID)
    old = time.time() - 86400
    for i in range(4):
        n = "fingerprint-%016x-%032x.cwasm" % (i, i)
        plant(cache / n, b"ours")
        os.utime(cache / n, (old, old))
    os.utime(cache / foreign, (old - 10, old - 10))
    load_module(_wasmtime.engine(), wasm(), TAG)
    assert foreign in names(cache) and len(names(cache)) == 4  # ours: the new one and the two newest old


# --- wrong modules: the self-test -------------------------------------------------------------


def test_a_same_uid_planted_module_that_answers_wrong_is_dropped_and_rebuilt(cache: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    bad = wrong_sha256(wasm())
    assert not correct(_wasmtime.Module.compile(_wasmtime.engine(), bad))  # the mutant really answers wrong
    entry = cache / name_of(wasm())
    plant(entry, entry_bytes(bad))  # ours, 0600, in our 0700 folder, a valid header: only its answers betray it
    right = entry_bytes(wasm())
    spy = Spy(monkeypatch)
    module = load_module(_wasmtime.engine(), wasm(), TAG)
    assert correct(module) and (spy.deserializes, spy.compiles) == (1, 1)
    assert entry.read_bytes() == right  # the planted entry replaced by the right one
    assert correct(load_module(_wasmtime.engine(), wasm(), TAG)) and (spy.deserializes, spy.compiles) == (2, 1)


def test_a_planted_wrong_module_is_dropped_even_when_it_cannot_be_rewritten(cache: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    entry = cache / name_of(wasm())
    plant(entry, entry_bytes(wrong_sha256(wasm())))
    monkeypatch.setattr(_module_cache, "_write", lambda dfd, name, payload: False)
    assert correct(load_module(_wasmtime.engine(), wasm(), TAG))
    assert not entry.exists()  # deleted, not left to be deserialized by every later process


WRONG_PROGRAM = """
from overturn.fingerprint import fingerprint, fingerprint_json, explain
print(fingerprint("search", {"q": " cats "}))
print(fingerprint_json("search", '{"q": " cats "}'))
print(explain("search", {"q": " cats "})["fingerprint"])
"""


def test_every_later_process_gets_right_fingerprints_despite_a_planted_wrong_module(cache: Path) -> None:
    for label, file in (("fingerprint", "fingerprint.wasm"), ("engine", "engine.wasm")):
        plant(cache / name_of(wasm(file), label), entry_bytes(wrong_sha256(wasm(file))))
    env = {**os.environ, "OVERTURN_FINGERPRINT_CACHE_DIR": str(cache)}
    env.pop("OVERTURN_FINGERPRINT_NO_CACHE", None)
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", WRONG_PROGRAM], env=env, capture_output=True, text=True,
                             timeout=120, check=True)
        assert out.stdout.split() == [CATS] * 3 and out.stderr == ""


ROOT = Path(__file__).resolve().parents[2]


def no_trim_core(tmp_path: Path) -> bytes:
    """The fingerprint core rebuilt from a copy of assembly/ with trimming (D3) switched off:
    right in everything else, so only the self-test's trimming vector can tell."""
    import re
    import shutil

    asc = ROOT / "node_modules" / ".bin" / "asc"
    if not asc.exists() or not (ROOT / "assembly").is_dir() or shutil.which("node") is None:
        pytest.skip("needs the repository's assembly/ and node_modules (npm ci)")
    work = tmp_path / "mutant"
    shutil.copytree(ROOT / "assembly", work / "assembly")
    shutil.copy(ROOT / "asconfig.json", work / "asconfig.json")
    utf8 = work / "assembly" / "text" / "utf8.ts"
    text, n = re.subn(r"(export function trimLength(?:At|Before)\([^)]*\): i32 \{\n)",
                      r"\1  return 0; // trimming switched off\n", utf8.read_text())
    assert n == 2, "assembly/text/utf8.ts no longer has trimLengthAt/trimLengthBefore: update this test"
    utf8.write_text(text)
    out = work / "no-trim.wasm"
    subprocess.run([str(asc), "assembly/entry/fingerprint.ts", "--config", "asconfig.json", "--target", "release", "-O0",
                    "--outFile", str(out)], cwd=work, check=True, capture_output=True, timeout=300)
    return out.read_bytes()


def test_a_planted_core_with_trimming_switched_off_is_caught(cache: Path, tmp_path: Path) -> None:
    """The attack as seen: a rebuilt core that does not trim, planted under the expected name."""
    bad = no_trim_core(tmp_path)
    module = _wasmtime.Module.compile(_wasmtime.engine(), bad)
    st = _core._Instance(module)  # used directly, it answers wrong without any error
    untrimmed = _core._call(st, _core._limits.active, _core.F_DIGEST, b"", b'"search"', b"", b"", b'{"q":" cats "}')
    assert untrimmed == oracle_digest("tool_call", "search", '{"q":" cats "}') != CATS
    assert _selftest.failure(module) is not None
    plant(cache / name_of(wasm()), entry_bytes(bad))
    env = {**os.environ, "OVERTURN_FINGERPRINT_CACHE_DIR": str(cache)}
    env.pop("OVERTURN_FINGERPRINT_NO_CACHE", None)
    out = subprocess.run([sys.executable, "-c", WRONG_PROGRAM], env=env, capture_output=True, text=True,
                         timeout=120, check=True)
    assert out.stdout.split() == [CATS] * 3 and out.stderr == ""


def test_a_compiled_module_that_fails_the_self_test_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OVERTURN_FINGERPRINT_NO_CACHE", "1")
    with pytest.raises(FingerprintError) as e:
        load_module(_wasmtime.engine(), wrong_sha256(wasm()), TAG)
    assert e.value.code == "internal-error" and "wrong answers" in str(e.value)
    with pytest.raises(FingerprintError):  # not this SDK's core at all: an error, never a wasmtime exception
        load_module(_wasmtime.engine(), b"\0asm\1\0\0\0", TAG)


def test_the_self_test_vectors_are_the_oracles_and_the_core_gives_them() -> None:
    """Each digest is hashlib's SHA-256 of its preimage; the public API answers each as written."""
    from overturn.fingerprint import canonicalize_json, fingerprint_json

    assert len(VECTORS) >= 8
    for flags, kind, name, match, ignore, args, preimage, digest in VECTORS:
        k = json.loads(kind) if kind else "tool_call"
        n = json.loads(name)
        assert hashlib.sha256(preimage).hexdigest().encode() == digest
        head = b"%s\n%s\n" % (k.encode(), n.encode())
        assert preimage.startswith(head)
        canonical = preimage[len(head):]
        opts = {"match_on": json.loads(match)} if match else {"ignore_args": json.loads(ignore)} if ignore else {}
        assert fingerprint_json(n, args.decode(), kind=k, **opts) == digest.decode()
        if not opts:
            assert canonicalize_json(args.decode()).encode() == canonical


def test_the_self_test_vectors_are_fresh() -> None:
    root = Path(__file__).resolve().parents[2]
    script = root / "scripts" / "gen-selftest.mjs"
    if not script.exists() or not any(os.access(os.path.join(p, "node"), os.X_OK)
                                      for p in os.environ.get("PATH", "").split(os.pathsep)):
        pytest.skip("needs node and the repository's scripts (test/selftest-fresh.test.ts checks it too)")
    out = subprocess.run(["node", str(script), "--check"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr


# --- every fingerprint handed out is 64 lowercase hex digits ----------------------------------


def test_a_digest_that_is_not_hex_is_an_error_never_a_fingerprint(monkeypatch: pytest.MonkeyPatch) -> None:
    from overturn.fingerprint import fingerprint, fingerprint_json

    # The core's digest path (not the host's hashlib): read the digest from where a broken
    # module would leave it, here the status words (NULs).
    monkeypatch.setattr(_core, "_host_sha256", None)
    monkeypatch.setattr(_core, "_HOST_HASH_AFTER", 1 << 40)
    monkeypatch.setattr(_core, "_DIGEST_AT", 0)
    for bound in ("plain", "value"):  # this thread's call functions bind the hash at first use: make them anew
        monkeypatch.delitem(_core._local.__dict__, bound, raising=False)
    for call in (lambda: fingerprint("search", {"q": "x"}), lambda: fingerprint_json("search", '{"q":"x"}'),
                 lambda: fingerprint_json("search", '{"q":"x"}', match_on=["q"])):
        with pytest.raises(FingerprintError) as e:
            call()
        assert e.value.code == "internal-error"


def test_an_explain_digest_that_is_not_hex_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from overturn.fingerprint import explain

    # A module that writes an Explanation whose fingerprint is not 64 hex digits.
    ask = _engine._ask

    def not_hex(*a: Any, **k: Any) -> Any:
        out, words = ask(*a, **k)
        return out.replace(b'"fingerprint":"', b'"fingerprint":"\\u0000'), words
    monkeypatch.setattr(_engine, "_ask", not_hex)
    with pytest.raises(FingerprintError) as e:
        explain("search", {"q": 1})
    assert e.value.code == "internal-error"


@pytest.mark.parametrize("stride", [64, 65])
def test_a_batch_block_of_digests_is_checked(stride: int) -> None:
    good = hashlib.sha256(b"x").hexdigest().encode() + (b"\n" if stride == 65 else b"")
    _core.check_digests(good * 3, stride)
    _core.check_digests(good * 40000, stride)
    for bad in (good.upper(), b"\0" * stride, good[:-1] + (b"g" if stride == 64 else b"0"),
                (good * 2)[:-1], good.replace(b"a", b"\n", 1)):
        with pytest.raises(FingerprintError):
            _core.check_digests(good * 2 + bad, stride)
