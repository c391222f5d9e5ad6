"""Benchmark of the batch API (not a test): a batch against a loop of single calls.

Side by side in one process, interleaved rounds, medians per call and the
ratio loop / batch (target: ≥ 3× at the small payload). Rows:

  loop  fingerprint_json(name, text)           one crossing into the core per call
  batch fingerprint_batch_json(names, texts)   lists in, one crossing per chunk
  batch Arrow arrays in (pyarrow, when installed): no Python object per row
  loop  fingerprint(name, value)
  batch fingerprint_batch(calls)               call mappings, read by the core's call reader

    python python/bench/batch.py [--quick] [--json FILE]     (bench.py runs it too)
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Callable, Dict, List

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from overturn import fingerprint as sdk  # noqa: E402

ITEMS = 4096
TARGET = 3.0


def run(quick: bool = False) -> List[Dict[str, Any]]:
    import bench

    try:
        import pyarrow as pa
    except ImportError:
        pa = None
    results = []
    for label, value in (("small", bench.small()), ("medium", bench.records(29, 1))):
        text = json.dumps(value, ensure_ascii=False)
        names = ["search"] * ITEMS
        texts = [text] * ITEMS
        calls = [{"name": "search", "args": value}] * ITEMS
        want = sdk.fingerprint_json("search", text)
        assert sdk.fingerprint_batch_json(names, texts) == [want] * ITEMS
        assert sdk.fingerprint_batch(calls) == [want] * ITEMS
        rows: Dict[str, Callable[[], Any]] = {
            "loop_json": lambda: [sdk.fingerprint_json(n, t) for n, t in zip(names, texts)],
            "batch_json": lambda: sdk.fingerprint_batch_json(names, texts),
            "loop_value": lambda: [sdk.fingerprint(c["name"], c["args"]) for c in calls],
            "batch_calls": lambda: sdk.fingerprint_batch(calls),
        }
        if pa is not None:
            an, at = pa.array(names), pa.array(texts)
            assert sdk.fingerprint_batch_json(an, at).to_pylist() == [want] * ITEMS
            rows["batch_arrow"] = lambda: sdk.fingerprint_batch_json(an, at)
        rounds = 3 if quick else (15 if label == "small" else 7)
        med = {k: v / ITEMS for k, v in bench.measure(rows, rounds, 1).items()}
        results.append({"payload": label, "bytes": len(text.encode("utf-8")), "items": ITEMS, "seconds": med,
                        "ratio_json": med["loop_json"] / med["batch_json"],
                        "ratio_arrow": med["loop_json"] / med["batch_arrow"] if "batch_arrow" in med else None,
                        "ratio_calls": med["loop_value"] / med["batch_calls"]})
    return results


def report(results: List[Dict[str, Any]]) -> None:
    print("\nBatch API: per call, medians of interleaved rounds of %d calls; ratio = loop / batch" % ITEMS)
    head = ("payload", "loop json", "batch json", "ratio", "batch Arrow", "ratio", "loop value", "batch calls", "ratio")
    rows = [head]
    for r in results:
        s = r["seconds"]
        arrow = r["ratio_arrow"]
        rows.append((r["payload"] + " %d B" % r["bytes"], fmt(s["loop_json"]), fmt(s["batch_json"]), "%.2f×" % r["ratio_json"],
                     fmt(s["batch_arrow"]) if arrow else "-", "%.2f×" % arrow if arrow else "-",
                     fmt(s["loop_value"]), fmt(s["batch_calls"]), "%.2f×" % r["ratio_calls"]))
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    for j, row in enumerate(rows):
        print("| " + " | ".join(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(row)) + " |")
        if j == 0:
            print("|" + "|".join("-" * (w + 1) + ("-" if i == 0 else ":") for i, w in enumerate(widths)) + "|")
    small = results[0]
    for key, what in (("ratio_json", "lists"), ("ratio_arrow", "Arrow")):
        if small[key] is not None:
            print("target: batch (%s) ≥ %.0f× a loop of fingerprint_json at small: %.2f× %s"
                  % (what, TARGET, small[key], "PASS" if small[key] >= TARGET else "MISS"))


def fmt(s: float) -> str:
    return "%.2f µs" % (s * 1e6)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", metavar="FILE")
    ap.add_argument("--quick", action="store_true")
    opt = ap.parse_args()
    results = run(opt.quick)
    report(results)
    if opt.json:
        with open(opt.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
