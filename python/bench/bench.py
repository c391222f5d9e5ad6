"""Benchmark of the Python SDK (not a test): overturn.fingerprint against a
pure-Python implementation of the contract (reference.py), against the
Python peers a user would pick instead (``canonicaljson`` and ``rfc8785``,
each + hashlib) and against non-canonical floors, ``json.dumps(sort_keys=True)``
and ``orjson`` (OPT_SORT_KEYS), each + hashlib.

Payloads: small (~130 B tool call), medium (~6.3 KB of nested records with
unicode and floats), large (~1.1 MB, 5,000 records), and each again with
shared containers, as data built in code has them (``+shared``: the small
call's two lists are one list; every record holds the same ``tags`` list and
the same nested ``geo`` dict, which marshal writes once and refers back to).
A reference bomb (``[x, x]`` nested 30 times, 2^30 leaves) under limits
closes the run: the time to refuse it. Each is canonicalized
once first (json.loads of its canonical text: no padding to trim), so that
every canonical row produces the very same bytes — checked before timing.
Contenders run in interleaved rounds in one process (so machine load hits
all alike), timed in thread CPU time (``--wall``: wall clock); the tables
give per-call medians and ratios.

The peers are benchmark-only packages, never dependencies of the SDK; rows
whose package is missing are skipped:

    python -m pip install -r python/bench/requirements.txt
    python python/bench/bench.py [--quick] [--json FILE]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from typing import Any, Callable, Dict, List, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import reference  # noqa: E402
from overturn import fingerprint as sdk  # noqa: E402

WORDS = ["alpha", "beta", "gamma", "delta", "status", "open", "pending", "Zürich", "São Paulo", "東京",
         "naïve café", "Ωmega", "emoji 😀", "  padded  ", "İstanbul", "Kraków"]


def small() -> Dict[str, Any]:
    return {"ticketId": "T-1042", "priority": "P1", "query": "  open tickets assigned to me  ",
            "limit": 25, "includeClosed": False, "since": "2024-05-01"}


def record(r: random.Random, i: int) -> Dict[str, Any]:
    return {
        "id": i,
        "sku": "SKU-%06d-%s" % (r.randint(0, 999999), r.choice("ABCXYZ")),
        "qty": r.randint(0, 500),
        "name": " %s %s " % (r.choice(WORDS), r.choice(WORDS)),
        "score": r.random() * 1000,
        "ratio": round(r.uniform(-1, 1), r.randint(1, 6)),
        "active": r.random() < 0.5,
        "tags": [r.choice(WORDS) for _ in range(r.randint(0, 3))],
        "geo": {"lat": r.uniform(-90, 90), "lon": r.uniform(-180, 180)},
        "note": None if r.random() < 0.3 else r.choice(WORDS),
    }


def records(n: int, seed: int) -> Dict[str, Any]:
    r = random.Random(seed)
    return {"requestId": "req-%d" % seed, "page": 1, "records": [record(r, i) for i in range(n)]}


SHARED_TAGS = ["alpha", "Zürich", "東京"]
SHARED_GEO = {"lat": 47.376887, "lon": 8.541694, "area": {"code": "CH-ZH", "zips": [8001, 8002, 8003]}}


def small_shared() -> Dict[str, Any]:
    """The small call with one list under two keys (built in code: the same object twice)."""
    v = small()
    v.pop("since")
    v["labels"] = v["watch"] = ["bug", "p1"]
    return v


def shared_records(n: int, seed: int) -> Dict[str, Any]:
    """records(n) where every record holds the same tags list and the same nested geo dict."""
    v = records(n, seed)
    tags, geo = list(SHARED_TAGS), json.loads(json.dumps(SHARED_GEO))
    for row in v["records"]:
        row["tags"], row["geo"] = tags, geo
    return v


def reshare(v: Any) -> Any:
    """A canonicalized copy of a +shared payload, with its sharing made again (json.loads copies)."""
    if "records" in v and v["records"]:
        first = v["records"][0]
        for row in v["records"]:
            row["tags"], row["geo"] = first["tags"], first["geo"]
    elif "labels" in v:
        v["watch"] = v["labels"]
    return v


def bomb(levels: int) -> Any:
    x: Any = [1]
    for _ in range(levels):
        x = [x, x]
    return x


def floor(name: str, args: Any) -> str:
    text = json.dumps(args, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(("tool_call\n" + name + "\n" + text).encode("utf-8")).hexdigest()


def _peers() -> Dict[str, Callable[[str, Any], str]]:
    """The installed peers: name -> fingerprint-like function (same preimage as the contract)."""
    out: Dict[str, Callable[[str, Any], str]] = {}

    def digest(name: str, body: bytes) -> str:
        return hashlib.sha256(b"tool_call\n" + name.encode("utf-8") + b"\n" + body).hexdigest()

    try:
        import canonicaljson
        out["canonicaljson"] = lambda name, args: digest(name, canonicaljson.encode_canonical_json(args))
    except ImportError:
        pass
    try:
        import rfc8785
        out["rfc8785"] = lambda name, args: digest(name, rfc8785.dumps(args))
    except ImportError:
        pass
    try:
        import orjson
        opt = orjson.OPT_SORT_KEYS
        out["orjson_floor"] = lambda name, args: digest(name, orjson.dumps(args, option=opt))
    except ImportError:
        pass
    return out


def measure(contenders: Dict[str, Callable[[], Any]], rounds: int, batch: int,
            clock: Callable[[], float] = time.thread_time) -> Dict[str, float]:
    """Median seconds per call over interleaved rounds.

    The default clock is this thread's CPU time, as the Node benchmark uses
    process CPU time: on a shared machine wall time also counts the time the
    thread waited for a core, which hits long batches more than short ones
    (ratios moved by up to 2× between wall-clock runs under load).
    """
    samples: Dict[str, List[float]] = {k: [] for k in contenders}
    order = list(contenders)
    for i in range(rounds):
        for k in order[i % len(order):] + order[:i % len(order)]:  # rotate who goes first
            fn = contenders[k]
            t0 = clock()
            for _ in range(batch):
                fn()
            samples[k].append((clock() - t0) / batch)
    return {k: statistics.median(v) for k, v in samples.items()}


def cold_start() -> Tuple[float, float]:
    """Median (import, first call) seconds in fresh interpreters."""
    code = ("import time; t0=time.perf_counter(); import overturn.fingerprint as f; t1=time.perf_counter(); "
            "f.fingerprint('a', {'b': 1}); t2=time.perf_counter(); print(t1-t0, t2-t1)")
    runs = []
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        a, b = out.split()
        runs.append((float(a), float(b)))
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def fmt(s: float) -> str:
    if s < 1e-3:
        return "%.2f µs" % (s * 1e6)
    return "%.2f ms" % (s * 1e3) if s < 1 else "%.2f s" % s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    ap.add_argument("--quick", action="store_true", help="fewer rounds (a smoke run)")
    ap.add_argument("--wall", action="store_true", help="time with the wall clock instead of thread CPU time")
    opt = ap.parse_args()

    payloads = [("small", small(), 2000, 31), ("small+shared", small_shared(), 2000, 31),
                ("medium", records(29, 1), 100, 31), ("medium+shared", shared_records(30, 1), 100, 31),
                ("large", records(5000, 2), 2, 11), ("large+shared", shared_records(5000, 2), 2, 11)]
    peers = _peers()
    results = []
    for label, args, batch, rounds in payloads:
        if opt.quick:
            rounds = 3
        args = json.loads(sdk.canonical_json(args))  # every canonical row then writes the same bytes
        if label.endswith("+shared"):
            args = reshare(args)
        text = json.dumps(args, ensure_ascii=False)
        size = len(json.dumps(args, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))
        want = reference.fingerprint("search", args)
        assert sdk.fingerprint("search", args) == want, label
        assert sdk.fingerprint_json("search", text) == want, label
        for peer, fn in peers.items():
            assert peer.endswith("_floor") or fn("search", args) == want, (peer, label)
        contenders: Dict[str, Callable[[], Any]] = {
            "sdk": lambda: sdk.fingerprint("search", args),
            "sdk_json_text": lambda: sdk.fingerprint_json("search", text),
            "reference": lambda: reference.fingerprint("search", args),
            "floor": lambda: floor("search", args),
        }
        for peer, fn in peers.items():
            contenders[peer] = (lambda f: lambda: f("search", args))(fn)
        med = measure(contenders, rounds, batch, time.perf_counter if opt.wall else time.thread_time)
        results.append({"payload": label, "bytes": size, "rounds": rounds, "batch": batch,
                        "seconds": med, "speedup_vs_reference": med["reference"] / med["sdk"],
                        "sdk_vs_floor": med["sdk"] / med["floor"]})

    bomb_result = bomb_case(3 if opt.quick else 11)
    imp, first = cold_start()
    print("overturn.fingerprint %s, Python %s, wasmtime %s, %s" % (
        sdk.__version__, platform.python_version(), _version("wasmtime"), platform.machine()))
    print("cold start: import %s, first call (compile + instantiate) %s\n" % (fmt(imp), fmt(first)))
    head = ("payload", "JSON size", "SDK", "SDK (text)", "reference", "floor", "ref/SDK", "SDK/floor")
    rows = [head] + [(r["payload"], "%d B" % r["bytes"], fmt(r["seconds"]["sdk"]), fmt(r["seconds"]["sdk_json_text"]),
                      fmt(r["seconds"]["reference"]), fmt(r["seconds"]["floor"]),
                      "%.1f×" % r["speedup_vs_reference"], "%.2f×" % r["sdk_vs_floor"]) for r in results]
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    for j, row in enumerate(rows):
        print("| " + " | ".join(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(row)) + " |")
        if j == 0:
            print("|" + "|".join("-" * (w + 1) + ("-" if i == 0 else ":") for i, w in enumerate(widths)) + "|")
    print("\nSDK: fingerprint(value); SDK (text): fingerprint_json(json text); reference: python/bench/"
          "reference.py; floor: json.dumps(sort_keys=True) + hashlib (not canonical). Medians of interleaved rounds, "
          + ("wall clock." if opt.wall else "thread CPU time."))
    if peers:
        _print_peers(results, list(peers))
    print("\nreference bomb ([x, x] nested 30 times: 2^30 leaves, a %d-byte marshal stream) under "
          "Limits(max_depth=64): refused (%s) in %s, median of %d" % (
              bomb_result["stream_bytes"], bomb_result["code"], fmt(bomb_result["seconds"]), bomb_result["rounds"]))
    import batch  # The batch API against a loop of single calls

    batch_results = batch.run(opt.quick)
    batch.report(batch_results)
    if opt.json:
        with open(opt.json, "w", encoding="utf-8") as f:
            json.dump({"python": platform.python_version(), "wasmtime": _version("wasmtime"),
                   "clock": "wall" if opt.wall else "thread_time",
                       "cold_start_seconds": {"import": imp, "first_call": first}, "results": results,
                       "bomb": bomb_result, "batch": batch_results}, f, indent=2)


def bomb_case(rounds: int) -> Dict[str, Any]:
    """Seconds to refuse the reference bomb under a depth limit it is within (median of rounds)."""
    import marshal

    v, lim = bomb(30), sdk.Limits(max_depth=64)
    times, code = [], ""
    for _ in range(rounds):
        t0 = time.perf_counter()
        try:
            sdk.fingerprint("search", v, limits=lim)
            code = "computed?!"
        except sdk.FingerprintError as e:
            code = e.code
        times.append(time.perf_counter() - t0)
    return {"rounds": rounds, "seconds": statistics.median(times), "code": code,
            "stream_bytes": len(marshal.dumps(v, 4))}


def _print_peers(results: List[Dict[str, Any]], peers: List[str]) -> None:
    """The peers table (median per call) and its ratios, from this one run."""
    label = {"sdk": "SDK `fingerprint(value)`", "sdk_json_text": "SDK `fingerprint_json(text)`",
             "canonicaljson": "`canonicaljson` + hashlib", "rfc8785": "`rfc8785` + hashlib",
             "orjson_floor": "floor: `orjson` (sort keys) + hashlib, not canonical"}
    print("\n| | " + " | ".join("%s %d B" % (r["payload"], r["bytes"]) for r in results) + " |")
    print("|---|" + "---:|" * len(results))
    for key in ["sdk", "sdk_json_text"] + peers:
        print("| %s | " % label[key] + " | ".join(fmt(r["seconds"][key]) for r in results) + " |")
    if "canonicaljson" in peers:
        for r in results:
            s = r["seconds"]
            line = "%s: canonicaljson / fingerprint %.2f× (target ≥ 1), canonicaljson / fingerprint_json %.2f×" % (
                r["payload"], s["canonicaljson"] / s["sdk"], s["canonicaljson"] / s["sdk_json_text"])
            if "orjson_floor" in peers:
                line += ", fingerprint_json / orjson floor %.2f×" % (s["sdk_json_text"] / s["orjson_floor"])
            print(line)
        print("targets: fingerprint ≥ 1× canonicaljson everywhere; fingerprint_json ≥ 2× canonicaljson and "
              "≤ 3× the orjson floor at medium and large")


def _version(dist: str) -> str:
    try:
        from importlib.metadata import version
        return version(dist)
    except Exception:  # pragma: no cover
        return "?"


if __name__ == "__main__":
    main()
