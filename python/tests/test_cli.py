"""``python -m overturn.fingerprint`` (issue 6), run as users run it: a subprocess on
files in a temporary directory and on standard input.

Oracles: hashlib (sha256 of hand-written preimages) and hand-written expected
output; the worked example of docs/diagnostics.md is pinned here. When node and
the built TypeScript CLI (dist/cli.js) are present, both CLIs must print the
same bytes and exit with the same status on the same recordings.
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


# The bad-call detail that lists the call shapes (assembly/shapes.ts).
ACCEPTED = ('accepted: a recording line {"name", "args" | "argsJSON"}, or a tool call of OpenAI Chat Completions, '
            "OpenAI Responses, Anthropic Messages, Bedrock Converse, Gemini, MCP tools/call, Vercel AI SDK or LangChain")


def sha(s: str) -> str:
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


def run(args, stdin: bytes = b"", cmd=None):
    r = subprocess.run((cmd or PY) + [str(a) for a in args], input=stdin, cwd=ROOT, capture_output=True,
                       timeout=120)
    return r.returncode, r.stdout.decode("utf-8"), r.stderr.decode("utf-8")


def json_lines(s: str):
    return [json.loads(line) for line in s.strip().split("\n")]


TICKET = 'tool_call\ncreate_ticket\n{"priority":"P0","title":"Login page returns 500"}'
DOCS = 'tool_call\nsearch_docs\n{"limit":10,"query":"refund policy"}'


# --- the main job ---------------------------------------------------------------------------

def test_stdin():
    # The fingerprint lines and --json records of a file: vectors/cli.vectors.json.
    assert run(["-"], b'{"name":"t","args":{"a":" 1 "}}\n')[1] == "%s  t\n" % sha('tool_call\nt\n{"a":"1"}')


def test_bom_crlf_blank_and_last_line(tmp_path: Path):
    p = tmp_path / "crlf.jsonl"
    p.write_bytes(b'\xef\xbb\xbf{"name":"a","args":1}\r\n\r\n  \t\n{"name":"b","argsJSON":"[1.0]"}')
    assert run([p]) == (0, "%s  a\n%s  b\n" % (sha("tool_call\na\n1"), sha("tool_call\nb\n[1]")), "")


def test_bad_lines(tmp_path: Path):
    p = tmp_path / "bad.jsonl"
    p.write_bytes(b"".join([
        b'{"name":"ok1","args":1}\n',
        b'{"name":"x","args":[1,}\n',
        b'[1]\n',
        b'{"args":1}\n',
        b'{"name":"x","argsJSON":"{\\"a\\" 1}"}\n',
        b'{"name":"x","args":NaN}\n',
        b'{"name":"x","matchOn":"a"}\n',
        b'{"name":"","args":1}\n',
        b'{\xff}\n',
        b'{"name":"ok2","args":2}\n',
    ]))
    code, out, err = run([p])
    assert code == 1
    # Line 6: the core reads recording lines with the one JSON reader, so a
    # bare NaN is null there as in any JSON text (D12).
    assert out == "%s  ok1\n%s  x\n%s  ok2\n" % (sha("tool_call\nok1\n1"), sha("tool_call\nx\nnull"),
                                                 sha("tool_call\nok2\n2"))
    assert err.split("\n") == [
        "%s:2: invalid JSON: unexpected character at byte 22" % p,
        "%s:3: a call must be a JSON object" % p,
        '%s:4: missing "name"; %s' % (p, ACCEPTED),
        "%s:5: argsJSON: invalid JSON: unexpected character at byte 5" % p,
        '%s:7: "matchOn" must be an array of strings' % p,
        "%s:8: invalid name: name must be a non-empty string without lone surrogates" % p,
        "%s:9: invalid UTF-8" % p,
        "7 of 10 lines failed",
        "",
    ]
    j = json_lines(run(["--json", p])[1])
    assert j[1] == {"file": str(p), "line": 2, "error": "invalid JSON: unexpected character at byte 22",
                    "code": "unexpected-character"}
    assert j[8] == {"file": str(p), "line": 9, "error": "invalid UTF-8", "code": "invalid-utf8"}


def test_missing_file(tmp_path: Path):
    code, out, err = run([tmp_path / "nope.jsonl", "examples/recording.jsonl"])
    assert code == 1
    assert err == "%s: no such file\n" % (tmp_path / "nope.jsonl")
    assert len(out.split("\n")) == 7


def test_huge_integer_literal_is_infinity_then_null(tmp_path: Path):
    p = tmp_path / "big-int.jsonl"
    p.write_text('{"name":"t","args":{"a":%s,"b":1}}\n' % ("9" * 5000))
    assert run([p])[1] == "%s  t\n" % sha('tool_call\nt\n{"b":1}')


# --- explain, verify --------------------------------------------------------------------------

def test_explain():
    code, out, _ = run(["explain", "examples/recording.jsonl"])
    assert code == 0
    assert out.split("\n")[:4] == [
        "examples/recording.jsonl:1  create_ticket  %s" % sha(TICKET),
        "  kind       tool_call",
        '  selection  matchOn ["title","priority"]: kept ["priority","title"], dropped ["requestId","tags"]',
        '  canonical  {"priority":"P0","title":"Login page returns 500"}',
    ]
    first = json_lines(run(["explain", "--json", "examples/recording.jsonl"])[1])[0]
    assert first == {
        "file": "examples/recording.jsonl", "line": 1, "version": 1, "kind": "tool_call", "name": "create_ticket",
        "selected": {"kept": ["priority", "title"], "dropped": ["requestId", "tags"], "missing": []},
        "canonical": '{"priority":"P0","title":"Login page returns 500"}', "preimage": TICKET,
        "fingerprint": sha(TICKET),
    }


GOOD = sha('tool_call\nt\n{"a":"x"}')
VERIFY_LINES = [
    json.dumps({"name": "t", "args": {"a": " x "}, "fingerprint": GOOD}),
    json.dumps({"name": "t", "args": {"a": "y"}, "fingerprint": GOOD}),
    json.dumps({"name": "t", "args": {"a": "z"}}),
]


def test_verify_passes(tmp_path: Path):
    p = tmp_path / "ok.jsonl"
    p.write_text(VERIFY_LINES[0] + "\n" + VERIFY_LINES[2] + "\n")
    assert run(["verify", p]) == (0, 'verify: 1 match, 0 differ, 1 without "fingerprint", 0 failed\n', "")


def test_verify_reports_drift(tmp_path: Path):
    p = tmp_path / "drift.jsonl"
    p.write_text("\n".join(VERIFY_LINES) + "\n")
    now = sha('tool_call\nt\n{"a":"y"}')
    code, out, _ = run(["verify", p])
    assert code == 1
    assert out == ('%s:2  t  recorded %s  computed %s\n  canonical  {"a":"y"}\n'
                   'verify: 1 match, 1 differ, 1 without "fingerprint", 0 failed\n' % (p, GOOD, now))
    assert json_lines(run(["verify", "--json", p])[1]) == [
        {"file": str(p), "line": 2, "name": "t", "recorded": GOOD, "fingerprint": now, "canonical": '{"a":"y"}'},
        {"summary": {"match": 1, "differ": 1, "unrecorded": 1, "failed": 0}},
    ]


# --- why ------------------------------------------------------------------------------------------

def test_why_worked_example():
    code, out, err = run(["why", "examples/unseen-call.json", "--in", "examples/recording.jsonl"])
    assert (code, err) == (0, "")
    unseen = 'tool_call\ncreate_ticket\n{"priority":"P1","title":"Login page returns 500"}'
    assert out == "\n".join([
        "call       create_ticket  %s" % sha(unseen),
        '           {"priority":"P1","title":"Login page returns 500"}',
        "unseen     no recorded call has this fingerprint (recorded calls of create_ticket: 2)",
        "nearest    examples/recording.jsonl:1  %s" % sha(TICKET),
        '           {"priority":"P0","title":"Login page returns 500"}',
        "changes    1 (before: the recording, after: this call)",
        '  changed  priority: "P0" → "P1"',
        "",
    ])


def test_why_seen_noise_and_none(tmp_path: Path):
    out = run(["why", "-", "--in", "examples/recording.jsonl"],
              b'{"name":"search_docs","args":{"query":"refund policy ","limit":10.0}}')[1]
    assert "seen       examples/recording.jsonl:3 has this fingerprint\n" in out
    c = tmp_path / "noisy.json"
    c.write_text(json.dumps({"name": "get_weather", "args": {"city": "Zürich", "units": "metric", "ts": 1,
                                                             "lang": "de"}}, indent=2), encoding="utf-8")
    assert run(["why", c, "--in=examples/recording.jsonl"])[1].split("\n")[5:] == [
        "changes    2 (before: the recording, after: this call)",
        '  added    lang: "de"',
        "  added    ts: 1",
        'note       selection differs: this call has no selection, the recording ignoreArgs ["ts"]',
        "hint       if a changed key is noise (a request id, a timestamp, a cursor), leave it out with ignoreArgs "
        "or matchOn",
        "",
    ]
    assert 'unseen     no recorded call of "nope" (kind tool_call)\n' in \
        run(["why", "-", "--in", "examples/recording.jsonl"], b'{"name":"nope"}')[1]
    j = json_lines(run(["why", "--json", "examples/unseen-call.json", "--in", "examples/recording.jsonl"])[1])[0]
    assert (j["seen"], j["candidates"]) == (False, 2)
    assert j["nearest"]["diff"] == {"same": False, "changes": [{"path": "priority", "kind": "changed",
                                                                 "before": '"P0"', "after": '"P1"'}]}


def test_usage_errors_and_help():
    assert run(["why", "examples/unseen-call.json"])[0] == 2
    assert run(["why", "-", "--in", "-"], b"{}")[0] == 2
    assert run(["explain", "--in", "x"])[0] == 2
    assert run(["why", "-", "--in", "examples/recording.jsonl"], b"{nope")[::2] == \
        (1, "-: invalid JSON: unexpected character at byte 1\n")
    # Help texts, --version and the plain fingerprint lines: vectors/cli.vectors.json.
    assert run(["--bogus"]) == (2, "", "error: unknown option --bogus (see --help)\n")
    assert run(["--", "explain"])[::2] == (1, "explain: no such file\n")


# --- streaming ----------------------------------------------------------------------------------

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
    r = subprocess.run([sys.executable, "-c", HWM.replace("HOLD", hold)] + [str(a) for a in args], cwd=ROOT,
                       env=dict(os.environ, HWM_OUT=str(out)), stdout=subprocess.DEVNULL, timeout=120)
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
    base = min(_peak_kb(tmp_path, [small]) for _ in range(2))
    peak = min(_peak_kb(tmp_path, [big]) for _ in range(2))
    # Control: the same run holding the file's text shows what a reader that
    # loads it whole would add (at least its 4 MB str); streaming adds ~0.3 MB.
    held = _peak_kb(tmp_path, [big], "_held = open(sys.argv[-1], 'rb').read().decode('utf-8')")
    assert held - base > 3584
    assert peak - base < 2048, "peak RSS grew by %d KB for a 4 MB file" % (peak - base)


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
