"""Cross-language parity: random Python values, fingerprinted here and by the
TypeScript SDK in ONE node subprocess for the whole batch; results must be
identical (value input, text input as str and as bytes, canonical text).

The values are sent to node in the tag format of the shared vectors. The
conversion to JavaScript values is written here independently of the SDK:
ints go through ``float(int)`` (correctly rounded by CPython), dates through
``datetime.isoformat``, float dict keys through ``json.dumps`` — D16's own
definitions. hashlib checks every Python digest as well.
"""
from __future__ import annotations

import base64
import hashlib
import json
import math
import random
import re
import shutil
import struct
import subprocess
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from _support import ROOT, WASM_SHA256, call_options, oracle_digest
from overturn.fingerprint import (
    FingerprintError, canonical_json, canonicalize_json, fingerprint, fingerprint_json,
)

CASES = 3000
SEED = 0x5EED_F00D

WS = ["\t", "\n", "\v", "\f", "\r", " ", "\u00a0", "\u1680", "\u2000", "\u2005", "\u200a", "\u2028", "\u2029",
      "\u202f", "\u205f", "\u3000", "\ufeff"]
NOT_WS = ["\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\u180e", "\u200b"]
PIECES = ["a", "b", "Z", "key", "0", "-", "$", "_", "é", "中", "\uff01", "\ue000", "\uffff", "\U0001F600",
          "\U00010000", "\U0010FFFF", '"', "\\", "/", "\x7f", "\x00", "\x01", "\x1b", "\ud83d\ude00",
          "\u00e9\u0301"] + NOT_WS
LONE = ["\ud800", "\udbff", "\udc00", "\udfff"]


def rand_str(r: random.Random, lone: bool = True) -> str:
    parts = [r.choice(PIECES + (LONE if lone else [])) for _ in range(r.randint(0, 6))]
    if r.random() < 0.4:
        parts.insert(0, "".join(r.choice(WS) for _ in range(r.randint(1, 3))))
    if r.random() < 0.4:
        parts.append("".join(r.choice(WS) for _ in range(r.randint(1, 3))))
    return "".join(parts)


def rand_float(r: random.Random) -> float:
    c = r.random()
    if c < 0.35:
        return struct.unpack("<d", struct.pack("<Q", r.getrandbits(64)))[0]
    if c < 0.55:
        return r.choice([0.0, -0.0, math.nan, math.inf, -math.inf, 5e-324, 2.2250738585072014e-308,
                         1.7976931348623157e308, 1e21, 1e-7, 1e-6, 0.1 + 0.2, 9007199254740993.0, 123e-20,
                         1e300 * 10, 4.35, 0.000001, 1.5e300])
    if c < 0.8:
        return float("%d.%se%d" % (r.randint(-999, 999), r.randint(0, 10**r.randint(0, 17)), r.randint(-30, 30)))
    return float(r.randint(-(2**60), 2**60)) * 2.0 ** r.randint(-80, 80)


def rand_int(r: random.Random) -> int:
    c = r.random()
    if c < 0.5:
        return r.randint(-1000, 1000)
    if c < 0.7:
        return 2**53 + r.randint(-3, 3)
    if c < 0.85:
        return r.getrandbits(r.randint(1, 200)) * r.choice([1, -1])
    return r.choice([10**30, 2**1024, -(2**1024), 2**1024 - 2**970, 2**1024 - 2**970 - 1, 10**400, 10**21])


def rand_datetime(r: random.Random):
    dt = datetime(r.randint(2, 9998), r.randint(1, 12), r.randint(1, 28), r.randint(0, 23), r.randint(0, 59),
                  r.randint(0, 59), r.choice([0, 999, 999999, r.randint(0, 999999)]))
    if r.random() < 0.3:
        return dt.date()
    if r.random() < 0.5:
        return dt
    return dt.replace(tzinfo=timezone(timedelta(minutes=r.randint(-23 * 60, 23 * 60))))


def rand_key(r: random.Random):
    c = r.random()
    if c < 0.8:
        return rand_str(r)
    return r.choice([r.randint(-50, 50), True, False, None, r.choice([1.5, 2.0, -0.0, 1e21, math.nan])])


def rand_value(r: random.Random, depth: int):
    c = r.random()
    if depth <= 0 or c < 0.45:
        s = r.random()
        if s < 0.08:
            return None
        if s < 0.16:
            return r.random() < 0.5
        if s < 0.36:
            return rand_int(r)
        if s < 0.6:
            return rand_float(r)
        if s < 0.93:
            return rand_str(r)
        return rand_datetime(r)
    n = r.randint(0, 5)
    if c < 0.65:
        items = [rand_value(r, depth - 1) for _ in range(n)]
        return tuple(items) if r.random() < 0.2 else items
    return {rand_key(r): rand_value(r, depth - 1) for _ in range(n)}


# --- Python values → tagged JS values (independent of the SDK) --------------

def iso(dt: datetime) -> str:
    if dt.utcoffset() is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def js_key(k) -> str:
    if isinstance(k, str):
        return k
    if isinstance(k, bool) or k is None:
        return json.dumps(k)
    if isinstance(k, int):
        return str(k)
    return json.dumps(k)  # D16: a float key is written as json.dumps writes it


def tag(v):
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        if -(2**53) <= v <= 2**53:
            return v
        try:
            return float(v)  # CPython rounds int → float correctly (nearest, ties to even)
        except OverflowError:
            return {"$ov": "Infinity" if v > 0 else "-Infinity"}
    if isinstance(v, float):
        if v != v:
            return {"$ov": "NaN"}
        if math.isinf(v):
            return {"$ov": "Infinity" if v > 0 else "-Infinity"}
        if v == 0 and math.copysign(1, v) < 0:
            return {"$ov": "-0"}
        return v
    if isinstance(v, datetime):
        return {"$ov": "date", "iso": iso(v)}
    if isinstance(v, date):
        return v.isoformat()
    if isinstance(v, (list, tuple)):
        return [tag(x) for x in v]
    return {"$ov": "object", "entries": [[js_key(k), tag(x)] for k, x in v.items()]}


def plain(v):
    """A json.dumps-able twin (str keys, dates as text) for the text-input path."""
    if isinstance(v, datetime):
        return iso(v)
    if isinstance(v, date):
        return v.isoformat()
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {js_key(k): plain(x) for k, x in v.items()}
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 10**300:
        return 0  # json.dumps would print 400 digits; the core reads them too, but keep texts short
    return v


def make_cases():
    r = random.Random(SEED)
    cases = []
    for i in range(CASES):
        if r.random() < 0.3:
            value = rand_value(r, 4)
        else:
            value = {rand_key(r): rand_value(r, 3) for _ in range(r.randint(0, 6))}
        case = {"py": value, "name": rand_str(r, lone=False).strip() or "tool"}
        if r.random() < 0.2:
            case["kind"] = r.choice(["agent", "tool_call", "retrieval \U0001F600"])
        names = [js_key(k) for k in value] if isinstance(value, dict) else []
        sel = r.random()
        if sel < 0.2:
            case["matchOn"] = r.sample(names, r.randint(0, len(names))) + ([rand_str(r)] if r.random() < 0.3 else [])
        elif sel < 0.35:
            case["ignoreArgs"] = r.sample(names, r.randint(0, len(names)))
        if sel < 0.05 and names:
            case["ignoreArgs"] = names[:1]  # both given: matchOn wins (D9)
        text = json.dumps(plain(value), ensure_ascii=r.random() < 0.5, indent=r.choice([None, None, 1, "\t"]))
        case["text"] = text
        data = text.encode("utf-8", "surrogatepass")
        case["bytes"] = (b"\xef\xbb\xbf" + data) if r.random() < 0.2 else data
        cases.append(case)
    return cases


# --- running both SDKs --------------------------------------------------------

def _embedded_wasm_sha(bundle: Path):
    m = re.search(r'WASM_BASE64\s*=\s*"([A-Za-z0-9+/=]+)"', bundle.read_text(encoding="utf-8"))
    return hashlib.sha256(base64.b64decode(m.group(1))).hexdigest() if m else None


@pytest.fixture(scope="module")
def ts_bundle(tmp_path_factory) -> Path:
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the TypeScript side of the parity test cannot run")
    want = WASM_SHA256.read_text(encoding="ascii").split()[0]
    dist = ROOT / "dist" / "index.js"
    if dist.exists() and _embedded_wasm_sha(dist) == want:
        return dist
    # No built bundle, or one built from another wasm: bundle the sources.
    out = tmp_path_factory.mktemp("ts") / "index.js"
    esbuild = ROOT / "node_modules" / ".bin" / "esbuild"
    cmd = [str(esbuild)] if esbuild.exists() else ["npx", "--no-install", "esbuild"]
    subprocess.run(cmd + ["src/index.ts", "--bundle", "--format=esm", "--platform=neutral",
                          "--outfile=%s" % out, "--log-level=warning"], cwd=ROOT, check=True, timeout=300)
    assert _embedded_wasm_sha(out) == want, "src/_wasm.gen.ts does not embed build/fingerprint.wasm"
    return out


def _py(fn):
    try:
        return fn()
    except FingerprintError as e:
        return {"error": e.code}


def test_random_values_match_typescript(ts_bundle):
    cases = make_cases()
    payload = []
    for c in cases:
        p = {"name": c["name"], "args": tag(c["py"]), "text": c["text"], "hex": c["bytes"].hex()}
        for k in ("kind", "matchOn", "ignoreArgs"):
            if k in c:
                p[k] = c[k]
        payload.append(p)
    proc = subprocess.run(["node", str(Path(__file__).with_name("parity.mjs")), str(ts_bundle)],
                          input=json.dumps(payload).encode("ascii"), capture_output=True, timeout=600)
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")[-3000:]
    ts = json.loads(proc.stdout)
    assert len(ts) == len(cases)

    mismatches = []
    kinds = set()
    for i, (c, t) in enumerate(zip(cases, ts)):
        o = call_options(c)
        mine = {
            "fp": _py(lambda: fingerprint(c["name"], c["py"], **o)),
            "canon": _py(lambda: canonical_json(c["py"])),
            "fpText": _py(lambda: fingerprint_json(c["name"], c["text"], **o)),
            "canonText": _py(lambda: canonicalize_json(c["text"])),
            "fpBytes": _py(lambda: fingerprint_json(c["name"], c["bytes"], **o)),
        }
        kinds.update(type(v).__name__ for v in mine.values())
        if mine != t and len(mismatches) < 5:
            mismatches.append({"case": i, "value": repr(c["py"])[:300], "python": mine, "typescript": t})
        if isinstance(mine["canon"], str) and "matchOn" not in c and "ignoreArgs" not in c:
            assert mine["fp"] == oracle_digest(c.get("kind", "tool_call"), c["name"], mine["canon"])
    assert not mismatches, json.dumps(mismatches, indent=1, ensure_ascii=True)
    assert kinds == {"str"}, "random cases should all be valid"


def test_generator_covers_the_hard_parts():
    seen = set()

    def walk(v):
        seen.add(type(v).__name__)
        if isinstance(v, float) and (v != v or math.isinf(v) or (v == 0 and math.copysign(1, v) < 0)):
            seen.add(repr(v))
        if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 2**1023:
            seen.add("huge-int")
        if isinstance(v, datetime) and v.tzinfo is not None:
            seen.add("aware")
        if isinstance(v, (list, tuple)):
            for x in v:
                walk(x)
        if isinstance(v, dict):
            for k, x in v.items():
                seen.add("key-" + type(k).__name__)
                walk(k)
                walk(x)

    cases = make_cases()
    for c in cases:
        walk(c["py"])
    assert {"dict", "list", "tuple", "str", "int", "float", "bool", "NoneType", "datetime", "date", "nan", "inf",
            "-inf", "-0.0", "huge-int", "aware", "key-int", "key-bool", "key-NoneType", "key-float"} <= seen
    blob = repr([c["py"] for c in cases])
    for needle in ["\\ud800", "\\udfff", "\\ufeff", "\\x1c", "\\x85", "\\ud83d\\ude00", "\U0001F600"]:
        assert needle in blob, needle
    assert sum("matchOn" in c for c in cases) > CASES // 10
    assert sum("ignoreArgs" in c for c in cases) > CASES // 20
