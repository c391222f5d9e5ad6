"""The replay index at scale in the Python SDK (not a test): load N
recorded calls (default 1,000,000) into one Recording, then answer live calls.
Reports load time, answers per second (hits as JSON text, hits as mappings)
and the memory a recorded call costs: the growth of the process's resident
set while loading, per call (the recorded line's bytes, kept by the core,
included; load time includes making the lines). The TypeScript twin is
``bench/replay.mjs`` (same recording, same calls).

    python python/bench/replay.py [N] [--json FILE]
"""
from __future__ import annotations

import gc
import json
import sys
import time

from overturn.fingerprint import Recording

TOOLS = ["search_docs", "create_ticket", "get_weather", "list_files"]


def call(i: int) -> dict:
    return {"name": TOOLS[i & 3], "args": {"q": "query %d" % i, "page": i % 7, "tags": ["a", "b"]}}


def line_of(i: int) -> str:
    return json.dumps(dict(call(i), result={"id": i}), separators=(",", ":"))


def rss() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def rate(label: str, n: int, f) -> dict:
    t0 = time.perf_counter()
    for i in range(n):
        f(i)
    return {"label": label, "n": n, "perSecond": round(n / (time.perf_counter() - t0))}


def main() -> None:
    args = sys.argv[1:]
    n = int(next((a for a in args if a.isdigit()), "1000000"))
    out = args[args.index("--json") + 1] if "--json" in args else None
    size = 0

    def chunks():
        # Made on the fly, as a stream hands them over: the resident set grows by the index alone.
        nonlocal size
        for i in range(0, n, 10_000):
            b = "".join(line_of(k) + "\n" for k in range(i, min(n, i + 10_000))).encode("utf-8")
            size += len(b)
            yield b

    gc.collect()
    before = rss()
    t = time.perf_counter()
    rec = Recording.load(chunks())
    load_s = time.perf_counter() - t
    gc.collect()
    after = rss()
    wasm_bytes = rec.memory_bytes
    assert rec.size == n and not rec.bad_lines, (rec.size, rec.bad_lines[:3])
    m = min(n, 100_000)
    step = max(1, n // m)
    texts = [json.dumps(call(i * step), separators=(",", ":")) for i in range(m)]

    def hit(i: int) -> None:
        assert rec.answer(texts[i])["hit"]

    results = [
        rate("hit, call as JSON text", m, hit),
        rate("call as mapping (again: exhausted, so a miss with no nearest scan)", m, lambda i: rec.answer(call(i * step))),
        rate("miss, nearest of N/4 same-tool calls", 3, lambda i: rec.answer({"name": "search_docs", "args": {"q": "nope %d" % i}})),
    ]
    report = {
        "python": sys.version.split()[0], "calls": n, "recordingBytes": size, "loadSeconds": round(load_s, 2),
        "loadCallsPerSecond": round(n / load_s), "wasmMemoryBytes": wasm_bytes,
        "wasmBytesPerCall": round(wasm_bytes / n), "rssGrowthBytes": after - before,
        "rssBytesPerCall": round((after - before) / n), "lineBytesPerCall": round(size / n), "answers": results,
    }
    print(json.dumps(report, indent=1))
    if out:
        with open(out, "w") as f:
            f.write(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
