"""One line or message holding many tool calls: every operation is linear in
its size (the core parses a message once for all its calls). Work is timed at
n and 4n calls, the best of three runs: linear work grows ~4x, quadratic 16x;
the bound (8x) leaves room for a loaded machine. Digests from hashlib of the
preimage, never the core. (The TypeScript twin: test/many-calls.test.ts.)"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time

from overturn.fingerprint import Recording, explain_calls

N = 2000


def message(n: int, v: int = 1) -> str:
    calls = [{"id": "call_%d" % i, "type": "function",
              "function": {"name": "t%d" % (i % 7), "arguments": json.dumps({"x": i, "v": v})}} for i in range(n)]
    return json.dumps({"role": "assistant", "tool_calls": calls})


def digest(i: int, v: int = 1) -> str:
    return hashlib.sha256(('tool_call\nt%d\n{"v":%d,"x":%d}' % (i % 7, v, i)).encode()).hexdigest()


def best(f, runs: int = 3) -> float:
    t = float("inf")
    for _ in range(runs):
        s = time.perf_counter()
        f()
        t = min(t, time.perf_counter() - s)
    return t


def assert_linear(work) -> None:
    a, b = work(N), work(4 * N)
    b()  # warm before either is timed
    assert best(b) / max(best(a), 1e-4) < 8


def test_explain_calls_every_call_with_its_digest():
    got = explain_calls(message(3 * N))
    assert len(got) == 3 * N
    for i in (0, 1, N, 3 * N - 1):
        assert got[i]["fingerprint"] == digest(i)


def test_explain_calls_is_linear():
    assert_linear(lambda n: (lambda m=message(n): explain_calls(m)))
    assert_linear(lambda n: (lambda m=json.loads(message(n)): explain_calls(m)))


def test_recording_load_nearest_and_unused_are_linear():
    assert_linear(lambda n: (lambda m=message(n) + "\n": Recording.loads(m)))
    assert_linear(lambda n: (lambda r=Recording.loads(message(n) + "\n"): r.answer({"name": "t1", "args": {"x": 1, "v": 2}})))
    assert_linear(lambda n: (lambda m=message(n) + "\n": Recording.loads(m).unused()))
    u = Recording.loads(message(50) + "\n").unused()
    assert len(u) == 50 and u[49]["value"] is u[0]["value"] and u[49]["fingerprint"] == digest(49)


def test_the_cli_is_linear_in_one_lines_calls(tmp_path):
    files = {}
    for n in (2 * N, 8 * N):
        files[n] = tmp_path / ("%d.jsonl" % n)
        files[n].write_text(message(n) + "\n")

    def cli(*args: str) -> str:
        r = subprocess.run([sys.executable, "-m", "overturn.fingerprint", *args], capture_output=True, text=True,
                           env=dict(os.environ, PYTHONIOENCODING="utf-8"))
        assert r.returncode == 0, r.stderr
        return r.stdout

    assert cli(str(files[2 * N])).split("\n")[7] == "%s  t0" % digest(7)
    for args in (lambda f: [f], lambda f: ["explain", f], lambda f: ["replay", f, "--in", f]):
        small = best(lambda: cli(*args(str(files[2 * N]))), 2)
        large = best(lambda: cli(*args(str(files[8 * N]))), 2)
        assert large / small < 8
