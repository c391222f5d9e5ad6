"""The marshal fast path for host values: same text as the JSON
path and as the pure-Python reference, taken for plain values, refused (and
then answered by the text path) for everything D16 spells differently, and
never a trap on a damaged stream."""
from __future__ import annotations

import marshal
import random
import subprocess
import sys
from typing import Any, List

import pytest

from _support import load_reference
from overturn.fingerprint import FingerprintError, canonical_json, fingerprint
from overturn.fingerprint import _core, _stream
from overturn.fingerprint._encode import to_json_text

ref = load_reference()
F_TEXT = 2


def via_marshal(v: Any) -> str:
    return _core.call(F_TEXT | _stream.F_MARSHAL, b"", b"", b"", b"", marshal.dumps(v, 4))


def via_text(v: Any) -> str:
    return _core.call(F_TEXT, b"", b"", b"", b"", to_json_text(v))


def plain(r: random.Random, shared: List[Any], depth: int = 0) -> Any:
    """A random value of exact D16 types that marshal writes, with shared (repeated) scalars."""
    pick = r.random() if depth < 4 else r.random() * 0.6
    if pick < 0.05 and shared:
        return r.choice(shared)
    if pick < 0.1:
        return r.choice([None, True, False])
    if pick < 0.25:
        s = "".join(r.choice(["a", " ", "é", "😀", '"', "\\", "\n", "\x00", "東", "\u2028", "Z"])
                    for _ in range(r.randint(0, 8)))
        shared.append(s)
        return s
    if pick < 0.4:
        i = r.choice([r.randint(-300, 300), r.randint(-2**31, 2**31), r.randint(-2**60 + 1, 2**60 - 1),
                      r.randint(-2**53, 2**53), 2**31 - 1, -2**31, 2**31, -2**31 - 1])
        shared.append(i)
        return i
    if pick < 0.55:
        return r.choice([r.random(), r.uniform(-1e300, 1e300), 1e-7 * r.random(), -0.0, float(r.randint(-99, 99)),
                         float("nan"), float("inf"), 5e-324])
    if pick < 0.75:
        items = [plain(r, shared, depth + 1) for _ in range(r.randint(0, 5))]
        return tuple(items) if r.random() < 0.3 else items
    return {("k%d" % r.randint(0, 9)) + r.choice(["", "é", " "]): plain(r, shared, depth + 1)
            for _ in range(r.randint(0, 5))}


def test_plain_values_read_alike_on_both_paths_and_match_the_reference() -> None:
    r = random.Random(1414)
    for _ in range(2000):
        v = plain(r, [])
        want = ref.canonical_json(v)
        assert via_marshal(v) == want
        assert via_text(v) == want
        assert canonical_json(v) == want


@pytest.mark.parametrize("special", ['"', "\\", "\n", "\x1f", "é", "😀", "\u2028", " "])
def test_a_special_character_at_every_position_of_a_string(special: str) -> None:
    # The reader skips plain bytes a word at a time: a character
    # that needs escaping, or a multi-byte one, at any offset of a word.
    for n in range(0, 26):
        for i in range(n + 1):
            s = "a" * i + special + "b" * (n - i)
            v = {s: [s, "x" * n + special]}
            assert via_marshal(v) == ref.canonical_json(v), (n, i)


def test_a_surrogate_at_every_position_is_refused_then_answered_by_text() -> None:
    for n in range(0, 20):
        for i in range(n + 1):
            s = "a" * i + "\udc00" + "b" * (n - i)
            with pytest.raises(FingerprintError):
                via_marshal([s])
            assert canonical_json([s]) == ref.canonical_json([s])


@pytest.mark.parametrize("v", [
    2**60, -2**60, 10**30,  # beyond the reader's 4 digits: the text path rounds them (D11)
    {1: "a"}, {True: 1}, {None: 1}, {1.5: 2}, {(1, 2): 3},  # non-str keys have D16 spellings / errors
    "\ud83d\ude00", "x\ud800", ["\udfff"],  # surrogates: joined or kept by the text path (D14)
    [[1]] * 2, {"a": {"b": 1}, "c": None}, [(), (), [], {}],  # shared containers (the second has none)
    {1, 2}, frozenset([1]), b"x", bytearray(b"x"), 1j, ...,
])
def test_what_the_reader_refuses_gets_the_text_paths_answer(v: Any) -> None:
    try:
        want: Any = ref.canonical_json(v)
    except Exception:
        want = FingerprintError
    if want is FingerprintError:
        with pytest.raises(FingerprintError):
            canonical_json(v)
    else:
        assert canonical_json(v) == want
        assert fingerprint("t", v) == ref.fingerprint("t", v)


def test_plain_values_take_the_marshal_path(monkeypatch: pytest.MonkeyPatch) -> None:
    if not _stream.marshal_allowed():
        pytest.skip("this process's stack is too small for marshal's depth")

    from overturn.fingerprint import _api

    def no_text(v: Any) -> bytes:
        raise AssertionError("the JSON-text path ran")

    monkeypatch.setattr(_api, "to_json_args", no_text)
    v = {"b": [1, 2.5, None, True, "x"], "a": ("y", -7, 2**40)}
    assert canonical_json(v) == '{"a":["y",-7,1099511627776],"b":[1,2.5,true,"x"]}'
    assert fingerprint("t", v) == ref.fingerprint("t", v)


def test_a_cycle_still_names_its_path() -> None:
    a: List[Any] = [1]
    a.append({"x": a})
    with pytest.raises(FingerprintError) as e:
        fingerprint("t", a)
    assert e.value.code == "circular-value" and e.value.path == "args[1].x"


def test_damaged_streams_are_errors_or_values_never_traps() -> None:
    r = random.Random(14)
    base = [marshal.dumps(plain(r, []), 4) for _ in range(200)]
    for data in base:
        for _ in range(5):
            b = bytearray(data)
            how = r.random()
            if how < 0.4 and b:
                del b[r.randrange(len(b)):]
            elif how < 0.8 and b:
                b[r.randrange(len(b))] = r.randrange(256)
            else:
                b[r.randrange(len(b) + 1):r.randrange(len(b) + 1)] = bytes(r.randrange(256) for _ in range(4))
            try:
                # As a digest: damaged strings need not be UTF-8, and only the core's answer is tested.
                _core.call(1 | _stream.F_MARSHAL, b"", b"", b"", b"", bytes(b))
            except FingerprintError as e:
                assert e.code != "internal-error", e


def test_deeper_than_marshal_goes_by_text() -> None:
    v: Any = "end"
    for _ in range(2500):  # marshal's cap is 2,000 levels
        v = [v]
    assert canonical_json(v) == "[" * 2500 + '"end"' + "]" * 2500
    assert sys.getrecursionlimit() > 0


def test_asking_for_the_stack_size_keeps_the_callers_setting() -> None:
    # _thread.stack_size() with no argument sets 0 while answering: asked twice (the value call
    # binds twice), the second answer let marshal recurse 1,999 levels in a 256 KiB thread (SIGSEGV).
    code = (
        "import threading\n"
        "from overturn.fingerprint import fingerprint, fingerprint_batch\n"
        "threading.stack_size(256 * 1024)\n"
        "v = 0\n"
        "for _ in range(1999): v = [v]\n"
        "out = []\n"
        "t = threading.Thread(target=lambda: out.extend([fingerprint('t', v), fingerprint('t', v),\n"
        "                                                fingerprint_batch([{'name': 't', 'args': v}])[0]]))\n"
        "t.start(); t.join()\n"
        "print(len(set(out)), len(out[0]), threading.stack_size())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.split() == ["1", "64", str(256 * 1024)], (done.returncode, done.stderr[-2000:])


def test_a_thread_with_a_small_stack_takes_the_text_path() -> None:
    # marshal recurses up to 2,000 levels in C: in a 256 KiB thread that
    # killed the process (measured); the json encoder stops at the recursion
    # limit there and the walk finishes the value.
    code = (
        "import threading\n"
        "from overturn.fingerprint import canonical_json\n"
        "threading.stack_size(256 * 1024)\n"
        "v = 0\n"
        "for _ in range(1999): v = [v]\n"
        "out = []\n"
        "t = threading.Thread(target=lambda: out.append(canonical_json(v)))\n"
        "t.start(); t.join()\n"
        "assert out == ['[' * 1999 + '0' + ']' * 1999], out[:1]\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", (done.returncode, done.stderr[-2000:])
