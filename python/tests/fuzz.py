"""Seeded mutation fuzzer: the SDK against the independent pure-Python oracle.

Internal test tool. Two kinds of case, each fully determined by
its seed:

* ``text``: a random JSON document, written with random spacing, escapes and
  number spellings, then mutated 0-4 times (bytes dropped, duplicated,
  inserted or swapped; tokens such as ``NaN``, ``1e400``, 400-digit
  integers, lone and paired surrogates, encoded surrogates, a BOM and deep
  nesting spliced in), given as ``bytes`` or ``str``. Oracle:
  ``reference.parse_json`` (the standard library's ``json`` under D11-D14)
  then ``reference.canonical_json``/``reference.fingerprint``.
* ``value``: a random Python host value (subclasses, datetimes with offsets,
  huge ints, NaN, trim and non-trim spaces, surrogates, non-str keys, dicts
  whose ``items()`` makes a nested SDK call that is checked too), then
  mutated: an unsupported value, a cycle, or a dict whose ``items()`` does
  not yield pairs spliced in somewhere; random ``match_on``/``ignore_args``
  and ``kind``. Oracle: ``reference.fingerprint``.

A case passes when the SDK returns the oracle's text and digest, or raises
FingerprintError exactly when the oracle rejects. Any other outcome — another
exception, a different digest, a rejection on one side only — fails, and the
one-line reproduction is::

    python python/tests/fuzz.py --kind text --seed N

which prints the input and both outcomes. ``run(kind, seconds, base)`` is what
``test_fuzz.py`` calls; ``OVERTURN_FUZZ_SECONDS`` lengthens its budget.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import OrderedDict
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _support import load_reference  # noqa: E402
from overturn.fingerprint import (  # noqa: E402
    FingerprintError, canonical_json, canonicalize_json, fingerprint, fingerprint_json,
)

ref = load_reference()

#: Characters that exercise D3-D6 and D14: the trim set, near misses, escapes, surrogates, astral.
CHARS = ["a", "Z", "0", " ", "\t", "\n", "\r", "\x0b", "\x0c", "\x00", "\x1f", "\x1c", "\x7f", "\x85", "\xa0",
         "\u1680", "\u2000", "\u200a", "\u200b", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff",
         "\ufffe", '"', "\\", "/", "é", "東", "\U0001F600", "\ud83d", "\ude00", "\ud800", "\udfff", "\uff01"]
TOKENS = [b"NaN", b"Infinity", b"-Infinity", b"true", b"false", b"null", b"1e400", b"-1e400", b"1e-400", b"-0",
          b"0.1", b"1E+2", b"01", b"1.", b".5", b"+1", b"1e", b"--1", b'"\\ud800"', b'"\\udc00\\ud800"',
          b'"\\ud83d\\ude00"', b'"\\ud83d"', b"\xed\xa0\xbd\xed\xb8\x80", b"\xed\xa0\x80", b"\xef\xbb\xbf",
          b"\xc0\xaf", b"\xf4\x90\x80\x80", b"\xe2\x82", b"//", b"/*x*/", b"'a'", b",", b":", b"{", b"}", b"[",
          b"]", b'"', b"\\", b"\\u00", b"\\x41", b"\t", b"\x0b", b"\x00", b"\xa0", b" "]

Outcome = Tuple[str, Any]  # ("ok", (canonical, digest)) | ("reject", reason) | ("skip", reason)


class Case:
    """One generated input and the call that checks it."""

    def __init__(self, kind: str, seed: int) -> None:
        self.kind = kind
        self.seed = seed
        self.options: Dict[str, Any] = {}
        self.input: Any = None


# --- generators -----------------------------------------------------------------

def rand_str(r: random.Random, n: int = 6) -> str:
    return "".join(r.choice(CHARS) if r.random() < 0.5 else r.choice("abcxyz_") for _ in range(r.randint(0, n)))


def rand_float(r: random.Random) -> float:
    pick = r.random()
    if pick < 0.1:
        return r.choice([0.0, -0.0, math.nan, math.inf, -math.inf, 5e-324, 1.7976931348623157e308, 1e21, 1e-7,
                         0.1 + 0.2, 2.0 ** 53, 123456789012345680000.0])
    if pick < 0.5:
        return r.uniform(-1e6, 1e6)
    return r.choice([1, -1]) * r.random() * 10.0 ** r.randint(-330, 308)


def rand_int(r: random.Random) -> int:
    pick = r.random()
    if pick < 0.1:
        return r.choice([0, -1, 2 ** 53 + 1, 2 ** 64, 2 ** 1024, -(2 ** 1024) + 1, 10 ** 400, 10 ** 5000])
    return r.randint(-10 ** r.randint(1, 25), 10 ** r.randint(1, 25))


class SubStr(str):
    def __eq__(self, o):  # never consulted by either side
        return isinstance(o, str) and self.lower() == o.lower()

    def __hash__(self):
        return hash(self.lower())

    def __str__(self):
        return "lie"


class SubInt(int):
    def __repr__(self):
        return "lie"

    def __float__(self):
        return 0.5


class SubFloat(float):
    def __repr__(self):
        return "lie"


class SubDict(dict):
    def keys(self):
        return ["lie"]


class SubList(list):
    pass


class PairsDict(dict):
    """items() yields whatever it was given: pairs or not."""

    def __init__(self, items: List[Any]) -> None:
        super().__init__(x=1)  # non-empty storage, so items() is called (the C encoder's rule)
        self._items = items

    def items(self):  # type: ignore[override]
        return list(self._items)

    def __repr__(self) -> str:
        return "PairsDict(%r)" % (self._items,)


#: Disagreements found by nested calls (ReentrantDict); check() reports and clears them.
NESTED_PROBLEMS: List[str] = []


class ReentrantDict(dict):
    """items() first fingerprints another value (a nested call) and checks it against the oracle."""

    def __init__(self, data: Dict[Any, Any], inner: Any) -> None:
        super().__init__(data)
        self._inner = inner

    def items(self):  # type: ignore[override]
        if _IN_SDK:
            try:
                got: Any = canonical_json(self._inner)
            except FingerprintError:
                got = "reject"
            try:
                want: Any = ref.canonical_json(self._inner)
            except (ValueError, ref.ReferenceError_):
                want = "reject"
            except RecursionError:
                want = got
            if got != want:
                NESTED_PROBLEMS.append("nested call gave %r, oracle %r" % (got, want))
        return dict.items(self)

    def __repr__(self) -> str:
        return "ReentrantDict(%r, inner=%r)" % (dict(self), self._inner)


_IN_SDK: List[bool] = []  # truthy while the SDK (not the oracle) reads the value


def rand_tz(r: random.Random) -> Optional[timezone]:
    if r.random() < 0.3:
        return None
    return timezone(timedelta(minutes=r.randint(-1439, 1439), microseconds=r.choice([0, 0, r.randint(0, 999999)])))


def rand_key(r: random.Random, nested: bool) -> Any:
    pick = r.random()
    if pick < 0.06:
        return str(r.randint(-3, 3)) if r.random() < 0.8 else r.choice(["true", "false", "null", "1.5"])
    if pick < 0.6:
        return rand_str(r, 4)
    if pick < 0.7:
        return SubStr(rand_str(r, 4))
    if pick < 0.8:
        return r.randint(-3, 3) if r.random() < 0.5 else r.randint(-50, 50)
    if pick < 0.85:
        return r.choice([True, False, None])
    if pick < 0.9:
        return rand_float(r)
    if nested and pick < 0.93:
        return r.choice([(1,), b"k", frozenset()])  # unsupported key types, kept below the top level
    return r.choice(["a", "b", "c"])


def rand_value(r: random.Random, depth: int = 0) -> Any:
    pick = r.random() if depth < 4 else r.random() * 0.7
    if pick < 0.1:
        return None
    if pick < 0.15:
        return r.random() < 0.5
    if pick < 0.3:
        s = rand_str(r)
        return SubStr(s) if r.random() < 0.1 else s
    if pick < 0.4:
        i = rand_int(r)
        return SubInt(i) if r.random() < 0.1 else i
    if pick < 0.5:
        x = rand_float(r)
        return SubFloat(x) if r.random() < 0.1 else x
    if pick < 0.55:
        return datetime(r.randint(1, 9999), r.randint(1, 12), r.randint(1, 28), r.randint(0, 23), r.randint(0, 59),
                        r.randint(0, 59), r.randint(0, 999999), tzinfo=rand_tz(r))
    if pick < 0.6:
        return date(r.randint(1, 9999), r.randint(1, 12), r.randint(1, 28))
    if pick < 0.67:
        return rand_value(r, depth + 1)
    if pick < 0.7:
        return ReentrantDict({rand_key(r, False): rand_value(r, depth + 1)}, rand_value(r, depth + 2))
    if pick < 0.85:
        items = [rand_value(r, depth + 1) for _ in range(r.randint(0, 4))]
        return r.choice([list, tuple, SubList])(items)
    d = r.choice([dict, OrderedDict, SubDict])()
    for _ in range(r.randint(0, 5)):
        d[rand_key(r, depth > 0)] = rand_value(r, depth + 1)
    return d


def splice(r: random.Random, v: Any, bad: Any) -> Any:
    """v with ``bad`` put somewhere inside (or instead of it)."""
    if isinstance(v, dict) and v and r.random() < 0.7:
        k = r.choice(list(dict.keys(v)))
        d = dict(v)
        d[k] = splice(r, dict.__getitem__(v, k), bad)
        return d
    if isinstance(v, (list, tuple)) and v and r.random() < 0.7:
        items = list(list.__iter__(v)) if isinstance(v, list) else list(tuple.__iter__(v))
        i = r.randrange(len(items))
        items[i] = splice(r, items[i], bad)
        return items
    return [v, bad] if r.random() < 0.5 else {"bad": bad, "v": v}


def value_case(seed: int) -> Case:
    r = random.Random(seed)
    c = Case("value", seed)
    v = rand_value(r)
    if r.random() < 0.3:
        v = {rand_key(r, False): rand_value(r, 1) for _ in range(r.randint(1, 6))}
    m = r.random()
    if m < 0.08:
        v = splice(r, v, r.choice([{1, 2}, b"x", Decimal("1"), object(), timedelta(1), 1j, frozenset()]))
    elif m < 0.12:
        cyc: List[Any] = [1]
        cyc.append({"c": cyc})
        v = splice(r, v, cyc)
    elif m < 0.16:
        v = splice(r, v, PairsDict(r.choice([[("a", 1, 2)], ["ab"], [("a", 1), 5], [("k", 2)]])))
    elif m < 0.2:
        deep: Any = rand_value(r, 3)
        for _ in range(r.randint(50, 1500)):
            deep = [deep] if r.random() < 0.5 else {"d": deep}
        v = splice(r, v, deep)
    c.input = v
    _options(r, c, list(dict.keys(v)) if isinstance(v, dict) else [])
    return c


def _options(r: random.Random, c: Case, keys: List[Any]) -> None:
    names = [k for k in keys if type(k) is str] + ["zz", "a", "\U0001F600"]
    if r.random() < 0.3:
        c.options["match_on"] = r.sample(names, r.randint(0, len(names)))
    elif r.random() < 0.3:
        c.options["ignore_args"] = r.sample(names, r.randint(0, len(names)))
    if r.random() < 0.2:
        c.options["kind"] = r.choice(["agent", "tool_call", "k\u00e9", SubStr("Tool")])


# --- JSON text ------------------------------------------------------------------

def write_json(r: random.Random, v: Any, out: List[str]) -> None:
    """Valid JSON text of a generated value, spelled randomly (spacing, escapes, numbers)."""
    ws = lambda: r.choice(["", "", "", " ", "\n", "\t ", "\r\n"])  # noqa: E731
    if v is None or v is True or v is False:
        out.append({None: "null", True: "true", False: "false"}[v])
    elif isinstance(v, str):
        out.append('"')
        for ch in v:
            c = ord(ch)
            if ch in '"\\' or c < 0x20 or (r.random() < 0.2 and c < 0x10000):
                out.append(r.choice(["\\u%04x", "\\u%04X"]) % c if ch not in '"\\' or r.random() < 0.5
                           else "\\" + ch)
            elif c >= 0x10000 and r.random() < 0.3:
                hi, lo = 0xD800 + ((c - 0x10000) >> 10), 0xDC00 + ((c - 0x10000) & 0x3FF)
                out.append("\\u%04x\\u%04x" % (hi, lo))
            else:
                out.append(ch)
        out.append('"')
    elif isinstance(v, bool):
        out.append("true" if v else "false")
    elif isinstance(v, int):
        digits = "%d" % v if abs(v) < 10 ** 400 else "1" + "0" * 400
        out.append(digits + r.choice(["", "", "", "e0", ".0", "E+00"]))
    elif isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            out.append(r.choice(["NaN", "Infinity", "-Infinity", "1e400"]))
        else:
            out.append(r.choice([repr(v), "%.17g" % v, "%.3e" % v, "%.25f" % v]).replace("inf", "1e400"))
    elif isinstance(v, (list, tuple)):
        out.append("[" + ws())
        for i, x in enumerate(v):
            if i:
                out.append(ws() + "," + ws())
            write_json(r, x, out)
        out.append(ws() + "]")
    elif isinstance(v, dict):
        out.append("{" + ws())
        for i, (k, x) in enumerate(dict.items(v)):
            if i:
                out.append(ws() + "," + ws())
            write_json(r, str.__str__(k) if isinstance(k, str) else "k%r" % (k,), out)
            out.append(ws() + ":" + ws())
            write_json(r, x, out)
        out.append(ws() + "}")
    else:  # datetimes and dates appear as strings
        out.append('"%s"' % v.isoformat())


def mutate(r: random.Random, b: bytearray) -> None:
    op = r.randrange(7)
    i = r.randint(0, len(b))
    if op == 0 and b:
        del b[min(i, len(b) - 1)]
    elif op == 1 and b:
        j = r.randint(i, min(len(b), i + 8))
        b[i:i] = b[i:j]
    elif op == 2:
        b[i:i] = bytes([r.randrange(256)])
    elif op == 3:
        b[i:i] = r.choice(TOKENS)
    elif op == 4 and b:
        j = r.randint(0, len(b))
        i, j = min(i, j), max(i, j)
        k = r.randint(0, len(b) - (j - i))
        chunk = bytes(b[i:j])
        del b[i:j]
        b[k:k] = chunk
    elif op == 5:
        n = r.randint(1, 300)
        b[i:i] = b"[" * n + b"1" + b"]" * (n if r.random() < 0.8 else n - 1)
    else:
        b[i:i] = r.choice([b"1" * r.randint(300, 400), b"0." + b"0" * 350 + b"1", b"1e" + b"9" * 30,
                           b"-" + b"9" * 330 + b".5e-20"])


def text_case(seed: int) -> Case:
    r = random.Random(seed)
    c = Case("text", seed)
    v = rand_value(r)
    if r.random() < 0.4:
        v = {rand_str(r, 3): rand_value(r, 1) for _ in range(r.randint(1, 6))}
    v = _jsonable(v)
    parts: List[str] = []
    write_json(r, v, parts)
    b = bytearray("".join(parts).encode("utf-8", "surrogatepass"))
    if r.random() < 0.1:
        b[0:0] = b"\xef\xbb\xbf"
    for _ in range(r.choice([0, 0, 1, 1, 2, 3, 4])):
        mutate(r, b)
    if r.random() < 0.5:
        c.input = bytes(b)
    else:
        try:
            c.input = bytes(b).decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            c.input = bytes(b)
    _options(r, c, list(v.keys()) if isinstance(v, dict) else [])
    return c


def _jsonable(v: Any) -> Any:
    """A generated value with keys made str and non-JSON leaves dropped (for write_json)."""
    if isinstance(v, dict):
        return {(str.__str__(k) if isinstance(k, str) else "k%r" % (k,)): _jsonable(x) for k, x in dict.items(v)}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in (list.__iter__(v) if isinstance(v, list) else tuple.__iter__(v))]
    return v


# --- running and comparing -------------------------------------------------------

def sdk_outcome(c: Case) -> Outcome:
    _IN_SDK.append(True)
    try:
        return _sdk_outcome(c)
    finally:
        _IN_SDK.pop()


def _sdk_outcome(c: Case) -> Outcome:
    try:
        if c.kind == "text":
            canon = canonicalize_json(c.input)
            digest = fingerprint_json("fz", c.input, **c.options)
        else:
            canon = canonical_json(c.input)
            digest = fingerprint("fz", c.input, **c.options)
        return ("ok", (canon, digest))
    except FingerprintError as e:
        return ("reject", e.code)


def oracle_outcome(c: Case) -> Outcome:
    opts = dict(c.options)
    kind = opts.pop("kind", "tool_call")
    kind = str.__str__(kind)
    try:
        value = ref.parse_json(c.input) if c.kind == "text" else c.input
        canon = ref.canonical_json(value)
        selected = ref.canonical_json(ref.select(value, opts.get("match_on"), opts.get("ignore_args")))
    except RecursionError:
        return ("skip", "the oracle is recursive")
    except (ValueError, ref.ReferenceError_) as e:  # JSONDecodeError, UnicodeDecodeError, rejected values
        return ("reject", type(e).__name__)
    return ("ok", (canon, _digest(kind, selected)))


def _digest(kind: str, canonical: str) -> str:
    import hashlib
    text = (kind + "\nfz\n" + canonical).encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def check(c: Case) -> Optional[str]:
    """None when the SDK agrees with the oracle, else a description of the disagreement."""
    want = oracle_outcome(c)
    if want[0] == "skip":
        return None
    try:
        got = sdk_outcome(c)
    except BaseException as e:  # anything but FingerprintError is a defect
        return "SDK raised %s: %s" % (type(e).__name__, e)
    if got[0] != want[0] or (got[0] == "ok" and got[1] != want[1]):
        return "SDK %r, oracle %r" % (got, want)
    if NESTED_PROBLEMS:
        problem = NESTED_PROBLEMS[0]
        NESTED_PROBLEMS.clear()
        return problem
    return None


MAKERS: Dict[str, Callable[[int], Case]] = {"text": text_case, "value": value_case}


def run(kind: str, seconds: float, base: int, max_cases: Optional[int] = None) -> Dict[str, Any]:
    """Checks seeds base, base+1, ... for ``seconds``; returns counts and the first failures."""
    make = MAKERS[kind]
    stats: Dict[str, Any] = {"cases": 0, "ok": 0, "reject": 0, "skip": 0, "failures": []}
    end = time.monotonic() + seconds
    seed = base
    while time.monotonic() < end and (max_cases is None or stats["cases"] < max_cases):
        c = make(seed)
        problem = check(c)
        stats["cases"] += 1
        stats[oracle_outcome(c)[0]] += 1
        if problem is not None:
            stats["failures"].append("%s -- reproduce: python python/tests/fuzz.py --kind %s --seed %d"
                                     % (problem[:300], kind, seed))
            if len(stats["failures"]) >= 5:
                break
        seed += 1
    return stats


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kind", choices=sorted(MAKERS), default="text")
    ap.add_argument("--seed", type=int, help="check this one seed and print its input and outcomes")
    ap.add_argument("--seconds", type=float, default=10.0, help="budget when no --seed is given")
    ap.add_argument("--base", type=int, default=1, help="first seed when no --seed is given")
    opt = ap.parse_args(argv)
    if opt.seed is not None:
        c = MAKERS[opt.kind](opt.seed)
        print("input:   %r" % (c.input,))
        print("options: %r" % (c.options,))
        print("oracle:  %r" % (oracle_outcome(c),))
        problem = check(c)
        print("SDK:     %r" % (sdk_outcome(c),) if problem is None or not problem.startswith("SDK raised")
              else problem)
        print("PASS" if problem is None else "FAIL: " + problem)
        return 0 if problem is None else 1
    stats = run(opt.kind, opt.seconds, opt.base)
    print({k: v for k, v in stats.items() if k != "failures"})
    for f in stats["failures"]:
        print(f)
    return 1 if stats["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
