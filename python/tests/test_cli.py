"""``python -m overturn.fingerprint``, run as users run it: a subprocess on
files in a temporary directory and on standard input.

Only what needs the host: standard input, a closed pipe, constant memory;
every output format is a case of vectors/cli.vectors.json (test_cli_vectors.py).
Oracles: hashlib (sha256 of hand-written preimages). When node and the built
TypeScript CLI (dist/cli.js) are present, both CLIs must print the same bytes
and exit with the same status on odd recordings.
"""
from __future__ import annotations

import hashlib
import json
import os
import select
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from _support import ROOT

PY = [sys.executable, "-m", "overturn.fingerprint"]
NODE = shutil.which("node")
TS_CLI = ROOT / "dist" / "cli.js"


def sha(s: str) -> str:
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


def run(args, stdin: bytes = b"", cmd=None):
    r = subprocess.run((cmd or PY) + [str(a) for a in args], input=stdin, cwd=ROOT, capture_output=True,
                       timeout=120)
    return r.returncode, r.stdout.decode("utf-8"), r.stderr.decode("utf-8")


# --- what the vectors (vectors/cli.vectors.json, both CLIs: test_cli_vectors.py) cannot show -------

def test_stdin():
    assert run(["-"], b'{"name":"t","args":{"a":" 1 "}}\n')[1] == "%s  t\n" % sha('tool_call\nt\n{"a":"1"}')


def test_why_call_on_stdin_that_is_not_json():
    code, _out, err = run(["why", "-", "--in", "examples/recording.jsonl"], b"{nope")
    assert (code, err) == (1, '-: invalid JSON: unexpected character at byte 1 (line 1, column 2, "n")\n')


def test_closed_pipe_stops_quietly(tmp_path: Path):
    p = tmp_path / "pipe.jsonl"
    p.write_text("".join('{"name":"t","args":%d}\n' % i for i in range(200_000)), encoding="utf-8")
    child = subprocess.Popen(PY + ["--jobs", "1", str(p)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stderr is not None
    child.stdout.readline()
    child.stdout.close()
    assert child.wait(60) == 0
    assert child.stderr.read() == b""


# Runs the CLI in a child and writes its peak RSS (VmHWM, KB) to $HWM_OUT at exit.
# Not ru_maxrss: on Linux that includes the parent's RSS at fork time.
HWM = ("import atexit, os, runpy, sys\n"
       "def hwm():\n"
       "    with open('/proc/self/status') as f:\n"
       "        kb = [line.split()[1] for line in f if line.startswith('VmHWM:')][0]\n"
       "    with open(os.environ['HWM_OUT'], 'w') as f:\n"
       "        f.write(kb)\n"
       "atexit.register(hwm)\n"
       "HOLD\n"
       "sys.argv[0] = 'overturn.fingerprint'\n"
       "runpy.run_module('overturn.fingerprint', run_name='__main__', alter_sys=True)\n")


def _peak_kb(tmp: Path, args, hold: str = "") -> int:
    out = tmp / "hwm"
    r = subprocess.run([sys.executable, "-c", HWM.replace("HOLD", hold), "--jobs", "1"] + [str(a) for a in args],
                       cwd=ROOT, env=dict(os.environ, HWM_OUT=str(out)), stdout=subprocess.DEVNULL, timeout=120)
    assert r.returncode == 0
    return int(out.read_text())


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="needs /proc for the child's peak RSS")
def test_large_file_streams_in_constant_memory(tmp_path: Path):
    big = tmp_path / "big.jsonl"
    n = 0
    with open(big, "w", encoding="utf-8") as f:
        while f.tell() < 4 * 1024 * 1024:
            f.write(json.dumps({"name": "tool_%d" % (n % 7), "args": {"q": " query %d " % n, "page": n % 13,
                                "tags": ["a", str(n % 5)], "requestId": "req-%d" % n},
                                "ignoreArgs": ["requestId"]}) + "\n")
            n += 1
    small = tmp_path / "small.jsonl"
    # 64 lines: past the first 32 digests, after which OpenSSL's hash module is loaded (_core), in both runs.
    small.write_text("".join(big.read_text(encoding="utf-8").splitlines(keepends=True)[:64]), encoding="utf-8")
    code, out, err = run([big])
    assert (code, err) == (0, "")
    lines = out.split("\n")
    assert len(lines) == n + 1
    k = n - 1
    assert lines[k] == "%s  tool_%d" % (sha('tool_call\ntool_%d\n{"page":%d,"q":"query %d","tags":["a","%d"]}'
                                            % (k % 7, k % 13, k, k % 5)), k % 7)
    # Lowest of two runs each: the peak of one process moves by a few hundred KB with machine load.
    # Constant memory: three times the lines, the same peak within the allocator's noise (the 1 MiB
    # chunks and their output set the peak; the first MB settle the allocator, so 8 MB is compared
    # with 24 MB): a CLI that kept its input or output would add more than 16 MB.
    double, six = tmp_path / "double.jsonl", tmp_path / "six.jsonl"
    double.write_bytes(big.read_bytes() * 2)
    six.write_bytes(big.read_bytes() * 6)
    base = min(_peak_kb(tmp_path, [small]) for _ in range(2))
    peak = min(_peak_kb(tmp_path, [double]) for _ in range(2))
    peak3 = min(_peak_kb(tmp_path, [six]) for _ in range(2))
    # Control: the same run holding the file's text shows what a reader that
    # loads it whole would add (at least its 4 MB str).
    held = _peak_kb(tmp_path, [big], "_held = open(sys.argv[-1], 'rb').read().decode('utf-8')")
    assert held - base > 3584
    assert peak3 - peak < 4096, "peak RSS grew by %d KB from 8 MB to 24 MB of lines" % (peak3 - peak)


def test_answers_while_stdin_is_open():
    p = subprocess.Popen(PY + ["-"], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert p.stdin is not None and p.stdout is not None
    try:
        for i in range(3):
            p.stdin.write(b'{"name":"t","args":%d}\n' % i)
            p.stdin.flush()
            ready, _, _ = select.select([p.stdout], [], [], 30)
            assert ready, "no output for line %d while stdin was open" % (i + 1)
            assert p.stdout.readline().decode() == "%s  t\n" % sha("tool_call\nt\n%d" % i)
        p.stdin.close()
        assert p.wait(30) == 0
    finally:
        if p.poll() is None:
            p.kill()


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_exits_130_without_a_traceback(jobs):
    import signal

    p = subprocess.Popen(PY + ["--jobs", jobs, "-"], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    assert p.stdin is not None and p.stdout is not None and p.stderr is not None
    try:
        p.stdin.write(b'{"name":"t","args":1}\n')
        p.stdin.flush()
        ready, _, _ = select.select([p.stdout], [], [], 30)
        assert ready and p.stdout.readline().decode() == "%s  t\n" % sha("tool_call\nt\n1")
        p.send_signal(signal.SIGINT)  # what Ctrl-C sends, while it waits for the next line
        assert p.wait(30) == 130
        err = p.stderr.read().decode()
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    finally:
        if p.poll() is None:
            p.kill()


# --- the same bytes as the TypeScript CLI ----------------------------------------------------------

CROSS_LINES = [
    '{"name":"create_ticket","args":{"title":"  Login ","priority":"P0","requestId":"r"},"matchOn":["title","priority","ticketId"],'
    '"fingerprint":"%s"}' % ("0" * 64),
    '{"name":"search_docs","argsJSON":"{\\"query\\": \\" refund \\", \\"limit\\": 10.0, \\"cursor\\": null}",'
    '"ignoreArgs":["cursor","page"]}',
    '{"name":"odd","args":{"\\ud800":1,"\\u2028k":" \\u00a0v\\u0085 ","é":[1e400,-0.0,1e21,5e-324,null],'
    '"__proto__":{"x":1},"a b":{"c-d":true}},"ignoreArgs":["\\ud800"]}',
    '{"name":"deep","args":%s}' % ("[" * 60 + "1" + "]" * 60),
    '{"name":"ints","args":{"big":12345678901234567890123,"huge":%s}}' % ("7" * 4400),
    '{"name":"t","kind":"resource","args":[{"a":1},null," x "],"matchOn":["a"]}',
    '{"name":"t","args":{"a":1},"fingerprint":"%s"}' % sha('tool_call\nt\n{"a":1}'),
    '{"name":"t","args":{"a":1},"fingerprint":"nothex"}',
    '{"name":"x","argsJSON":"[1,]"}',
    '{"name":"x","args":{"a":Infinity}}',
    '{"name":"x","kind":""}',
    '{"name":"x","kind":7}',
    'not json',
    '',
    '{"name":"create_ticket","args":{"title":"Login","priority":"P1","tags":["x"]}}',
    '{"name":"large","args":{"text":" %s ","n":[1.5]},"ignoreArgs":["n"]}' % ("x" * 3000),
]


@pytest.mark.skipif(NODE is None or not TS_CLI.is_file(), reason="needs node and dist/cli.js (npx tsup)")
def test_same_output_as_the_typescript_cli(tmp_path: Path):
    rec = tmp_path / "cross.jsonl"
    rec.write_bytes(("\n".join(CROSS_LINES) + "\n").encode("utf-8") + b'{"name":"\xc3"}\n')
    call = tmp_path / "call.json"
    call.write_text('{"name":"create_ticket","args":{"title":" Login","priority":"P2","requestId":"q"},'
                    '"matchOn":["title","priority"]}', encoding="utf-8")
    odd = tmp_path / "odd.json"
    odd.write_text(CROSS_LINES[2].replace('"\\u2028k":" \\u00a0v\\u0085 "', '"\\u2028k":"w"'), encoding="utf-8")
    runs = [[rec], ["--json", rec], ["explain", rec], ["explain", "--json", rec], ["verify", rec],
            ["verify", "--json", rec], ["why", call, "--in", rec], ["why", "--json", call, "--in", rec],
            ["why", odd, "--in", rec], ["why", "--json", odd, "--in", rec, "--in", "examples/recording.jsonl"],
            [tmp_path / "missing.jsonl", "--json", "examples/recording.jsonl"], ["explain", "examples/recording.jsonl"],
            ["why", "examples/unseen-call.json", "--in", "examples/recording.jsonl"], ["--bogus"]]
    for args in runs:
        py = run(args)
        ts = run(args, cmd=[NODE, str(TS_CLI)])
        assert py == ts, "python and node differ for %s" % args
    stdin = ("\n".join(CROSS_LINES) + "\n").encode("utf-8")
    assert run(["explain", "--json", "-"], stdin) == run(["explain", "--json", "-"], stdin, cmd=[NODE, str(TS_CLI)])


def test_deferred_digests_and_a_rolled_back_message(tmp_path: Path):
    """The engine hashes its lines' preimages four at a time (wasm SIMD,
    assembly/cli/digests.ts), here under wasmtime; and a message whose second call
    fails prints none of its calls without corrupting the output after it."""
    lines, want, errs = [], [], []
    for i in range(600):
        s = "x" * (4500 + i if i % 97 == 0 else (i * 37) % 300)  # 1 to 4 blocks, and some hashed at once
        if i % 11 == 5:
            lines.append('{"name":"x","args":[1,}')
            errs.append(i + 1)
            continue
        lines.append(json.dumps({"name": "t%d" % (i % 3), "args": {"s": s, "n": i}, "ignoreArgs": ["n"]}))
        want.append('%s  t%d\n' % (sha('tool_call\nt%d\n{"s":"%s"}' % (i % 3, s)), i % 3))
    rec = tmp_path / "deferred.jsonl"
    rec.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for jobs in ("1", "2"):
        code, out, err = run(["--jobs", jobs, rec])
        assert code == 1
        assert out == "".join(want)
        reported = [int(l.split(":")[1]) for l in err.splitlines() if l.startswith(str(rec) + ":")]
        assert reported == errs
        assert err.endswith("%d of %d lines failed\n" % (len(errs), len(lines)))

    # The first call's line was appended to stdout, then rolled back: the
    # stream's length must be rolled back with it (garbage before the fix).
    msg = {"role": "assistant", "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "b", "arguments": '{"x":1}'}},
        {"id": "c2", "type": "function", "function": {"name": "c", "arguments": '{"tz":'}}]}
    rb = tmp_path / "rollback.jsonl"
    rb.write_text("\n".join([json.dumps({"name": "a", "args": {"q": 1}}), json.dumps(msg), '{"name":"x","args":[1,}',
                             json.dumps({"name": "d", "args": {"q": 2}})]) + "\n", encoding="utf-8")
    code, out, err = run([rb])
    assert code == 1
    assert out == '%s  a\n%s  d\n' % (sha('tool_call\na\n{"q":1}'), sha('tool_call\nd\n{"q":2}'))
    assert [l.split(":")[1] for l in err.splitlines()[:2]] == ["2", "3"]
    assert err.splitlines()[2:] == ["2 of 4 lines failed"]
