"""One line or message holding many tool calls (the TypeScript twin:
test/many-calls.test.ts). At 40,000 calls, every operation that reads the
line gives each call's digest (hashlib of the preimage, never the core);
quadratic work took minutes there. The growth itself is timed only with
OVERTURN_SLOW=1 (npm run test:slow: timing needs a quiet machine): n and 4n
calls, best of five; linear work grows ~4x, quadratic 16x, the bound is 10x."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time

import pytest

from overturn.fingerprint import Recording, explain_calls

N = 40_000
slow = pytest.mark.skipif(not os.environ.get("OVERTURN_SLOW"), reason="timing: OVERTURN_SLOW=1 (npm run test:slow)")


def message(n: int, v: int = 1) -> str:
    calls = [{"id": "call_%d" % i, "type": "function",
              "function": {"name": "t%d" % (i % 7), "arguments": json.dumps({"x": i, "v": v})}} for i in range(n)]
    return json.dumps({"role": "assistant", "tool_calls": calls})


def digest(i: int, v: int = 1) -> str:
    return hashlib.sha256(('tool_call\nt%d\n{"v":%d,"x":%d}' % (i % 7, v, i)).encode()).hexdigest()


def cli(*args: str) -> str:
    r = subprocess.run([sys.executable, "-m", "overturn.fingerprint", *args], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONIOENCODING="utf-8"))
    assert r.returncode == 0, r.stderr
    return r.stdout


LINE = message(N)


def test_explain_calls_every_call_in_order_from_text_and_dict():
    for got in (explain_calls(LINE), explain_calls(json.loads(LINE))):
        assert len(got) == N
        for i in (0, 1, N // 2, N - 1):
            assert got[i]["fingerprint"] == digest(i)


def test_recording_hits_nearest_and_unused_sharing_the_line():
    r = Recording.loads(LINE + "\n")
    for i in (0, 5, N - 1):
        a = r.answer({"name": "t%d" % (i % 7), "args": {"x": i, "v": 1}})
        assert a["hit"] and a["call"] == i
    miss = r.answer({"name": "t1", "args": {"x": 1, "v": 2}})
    assert miss["hit"] is False and miss["nearest"]["call"] == 1
    u = r.unused()
    assert len(u) == N - 3
    assert u[-1]["value"] is u[0]["value"] and u[-1]["text"] == LINE and u[-1]["fingerprint"] == digest(N - 2)


def test_every_call_of_the_line_answered_sharing_its_text_and_value():
    r = Recording.loads(LINE + "\n")
    calls = json.loads(LINE)["tool_calls"]
    first = r.answer(calls[0])
    for i in range(1, N):
        a = r.answer(calls[i])
        assert a["hit"] and a["call"] == i
    assert a["value"] is first["value"] and a["text"] == LINE and a["value"] == json.loads(LINE)
    assert r.unused() == []


def test_the_cli_runs_explains_and_replays_the_line(tmp_path):
    f = tmp_path / "one-line.jsonl"
    f.write_text(LINE + "\n")
    out = cli(str(f)).split("\n")
    assert len(out) == N + 1 and out[N - 1] == "%s  t%d" % (digest(N - 1), (N - 1) % 7)
    assert len(cli("explain", "--json", str(f)).split("\n")) == N + 1
    assert cli("replay", str(f), "--in", str(f)).rstrip("\n").split("\n")[-1] == \
        "replay: %d calls, %d hits, 0 misses, 0 unused" % (N, N)


def best(f, runs: int = 5) -> float:
    t = float("inf")
    for _ in range(runs):
        s = time.perf_counter()
        f()
        t = min(t, time.perf_counter() - s)
    return t


def assert_linear(work, n: int = 8000) -> None:
    a, b = work(n), work(4 * n)
    b()  # warm before either is timed
    assert best(b) / max(best(a), 1e-4) < 10


@slow
def test_many_calls_explain_and_recording_grow_linearly():
    assert_linear(lambda n: (lambda m=message(n): explain_calls(m)))
    assert_linear(lambda n: (lambda m=json.loads(message(n)): explain_calls(m)))
    assert_linear(lambda n: (lambda m=message(n) + "\n": Recording.loads(m)))
    assert_linear(lambda n: (lambda r=Recording.loads(message(n) + "\n"): r.answer({"name": "t1", "args": {"x": 1, "v": 2}})))
    assert_linear(lambda n: (lambda r=Recording.loads(message(n) + "\n"): r.unused()))

    def answer_all(m: str) -> None:
        r = Recording.loads(m)
        for c in json.loads(m)["tool_calls"]:
            r.answer(c)
    assert_linear(lambda n: (lambda m=message(n) + "\n": answer_all(m)))


@slow
def test_many_calls_cli_grows_linearly(tmp_path):
    files = {}
    for n in (4000, 16000):
        files[n] = tmp_path / ("%d.jsonl" % n)
        files[n].write_text(message(n) + "\n")
    for args in (lambda f: [f], lambda f: ["explain", f], lambda f: ["replay", f, "--in", f]):
        small = best(lambda: cli(*args(str(files[4000]))), 2)
        large = best(lambda: cli(*args(str(files[16000]))), 2)
        assert large / small < 10
