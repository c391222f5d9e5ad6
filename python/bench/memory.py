"""Memory benchmark of the Python SDK (not a test): the extra peak of
one call, and what the process keeps afterwards.

Each measurement runs in a fresh interpreter (``--one``), so one case's pages
never hide another's. Per case: build the input (a value of ~SIZE MB as
compact JSON, or that JSON text as ``str``), let the first small call compile
the module, then reset the kernel's peak-RSS mark (``/proc/self/clear_refs``
``5``) and read ``VmRSS``; make the one call; read ``VmHWM`` (the peak since
the reset) and, after 1,000 small calls and ``gc.collect()``, ``VmRSS`` again.

    extra peak = VmHWM during the call - VmRSS before it   (ratio: / input bytes)
    kept       = VmRSS after            - VmRSS before it

Linux only (``/proc``). ``ru_maxrss`` cannot be reset, so it would report the
input's own construction; the clear_refs mark can.

    python python/bench/memory.py [--sizes 50,200] [--paths text,value] [--shape records|rows] [--json FILE]

``--shape rows`` builds the document of ``bench/memory.mjs`` (the TypeScript
benchmark: ~100-byte rows of five fields), for comparing the two SDKs.
"""
from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
from typing import Any, Dict, List

MB = 1_000_000


def _status(field: str) -> int:
    """A /proc/self/status field in bytes (the kernel reports kB)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no %s in /proc/self/status" % field)


def _reset_peak() -> None:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def document(size: int) -> Dict[str, Any]:
    """A value whose compact JSON is about ``size`` bytes: records as servers see them.

    2,000 distinct records are repeated by reference, so building a 200 MB
    document costs little Python memory; the encoder and the core still see
    every byte.
    """
    pool = [{"id": i, "sku": "SKU-%06d" % (i * 7919 % 1000003), "qty": i % 500,
             "name": " Zürich item %d " % i, "score": i * 0.37, "active": i % 2 == 0,
             "tags": ["alpha", "beta", "東京"][: i % 4], "geo": {"lat": i / 1000.0, "lon": -i / 500.0},
             "note": None if i % 3 else "ok"} for i in range(2000)]
    per = len(json.dumps(pool, separators=(",", ":"), ensure_ascii=False).encode()) / len(pool)
    n = max(1, int(size / per))
    return {"requestId": "req-1", "records": [pool[i % len(pool)] for i in range(n)]}


def rows_document(size: int) -> Dict[str, Any]:
    """bench/memory.mjs's document: ``{rows: [{id, value, tag, ok, x}]}``, ~100 bytes a row (MiB-sized)."""
    n = round(size / MB * 2 ** 20 / 100)
    return {"rows": [{"id": "row-%d" % i, "value": i / 7, "tag": " t ", "ok": i % 2 == 0, "x": None}
                     for i in range(n)]}


def one(path: str, size_mb: float, shape: str = "records") -> Dict[str, Any]:
    from overturn import fingerprint as sdk

    value = (rows_document if shape == "rows" else document)(int(size_mb * MB))
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    nbytes = len(text.encode("utf-8"))
    if path == "text":
        del value
        args: Any = text
    else:
        del text
        args = value
    gc.collect()
    sdk.fingerprint("warm", {"a": 1})
    before = _status("VmRSS")
    _reset_peak()
    if path == "text":
        digest = sdk.fingerprint_json("big", args)
    else:
        digest = sdk.fingerprint("big", args)
    peak = _status("VmHWM")
    after_call = _status("VmRSS")
    for i in range(1000):
        sdk.fingerprint("small", {"i": i, "q": " x "})
    gc.collect()
    after = _status("VmRSS")
    return {"path": path, "input_bytes": nbytes, "digest": digest, "rss_before": before,
            "extra_peak": peak - before, "peak_ratio": (peak - before) / nbytes,
            "kept_after_call": after_call - before, "kept": after - before}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="50,200", help="input sizes in MB, comma-separated")
    ap.add_argument("--paths", default="text,value", help="text, value or both")
    ap.add_argument("--shape", default="records", choices=["records", "rows"], help="the document (see above)")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    ap.add_argument("--one", nargs=3, metavar=("PATH", "MB", "SHAPE"), help=argparse.SUPPRESS)
    opt = ap.parse_args()
    if opt.one:
        print(json.dumps(one(opt.one[0], float(opt.one[1]), opt.one[2])))
        return
    results: List[Dict[str, Any]] = []
    print("| path | input | extra peak | peak / input | kept after 1,000 small calls |")
    print("|---|---:|---:|---:|---:|")
    for size in opt.sizes.split(","):
        for path in opt.paths.split(","):
            out = subprocess.run([sys.executable, __file__, "--one", path, size, opt.shape],
                                 capture_output=True, text=True, check=True).stdout
            r = json.loads(out)
            results.append(r)
            print("| %s | %.1f MB | %.1f MB | %.2f× | %.1f MB |" % (
                path, r["input_bytes"] / MB, r["extra_peak"] / MB, r["peak_ratio"], r["kept"] / MB), flush=True)
    if opt.json:
        with open(opt.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
