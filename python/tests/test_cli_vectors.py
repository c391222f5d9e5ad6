"""vectors/cli.vectors.json run against both CLIs: ``python -m overturn.fingerprint``
and, when node and the built dist/ are there, ``node dist/cli.js``. Expected
bytes come from the oracle (test/reference/cli.mjs); the twin runner is
test/cli-vectors.test.ts.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from _support import ROOT
from overturn.fingerprint import __version__

CASES = json.loads((ROOT / "vectors" / "cli.vectors.json").read_text("utf-8"))["cases"]
NODE = shutil.which("node")
CLIS = [("python -m overturn.fingerprint", [sys.executable, "-m", "overturn.fingerprint"])]
if NODE and (ROOT / "dist" / "cli.js").exists():
    CLIS.append(("overturn-fingerprint", [NODE, str(ROOT / "dist" / "cli.js")]))


def _fill(s: str, prog: str) -> bytes:
    return s.replace("{prog}", prog).replace("{pkg}", __version__).encode("utf-8")


@pytest.mark.parametrize("prog,cmd", CLIS, ids=[p for p, _ in CLIS])
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_cli_vector(prog, cmd, case):
    r = subprocess.run(cmd + case["args"], cwd=ROOT, capture_output=True, timeout=120)
    assert (r.stdout, r.stderr, r.returncode) == (_fill(case["stdout"], prog), _fill(case["stderr"], prog), case["exit"])


# Inputs too large for the vectors file, made here; expected bytes from hashlib over hand-written preimages.

def _sha(s: str) -> str:
    import hashlib
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


@pytest.mark.parametrize("prog,cmd", CLIS, ids=[p for p, _ in CLIS])
def test_nested_100000_levels(prog, cmd, tmp_path):
    n = 100_000
    p = tmp_path / "deep.jsonl"
    p.write_text('{"name":"deep","args":%s1%s}\n' % ("[" * n, "]" * n), encoding="utf-8")
    r = subprocess.run(cmd + [str(p)], cwd=ROOT, capture_output=True, timeout=120)
    assert (r.stdout, r.stderr, r.returncode) == (
        ("%s  deep\n" % _sha("tool_call\ndeep\n%s1%s" % ("[" * n, "]" * n))).encode(), b"", 0)


@pytest.mark.parametrize("prog,cmd", CLIS, ids=[p for p, _ in CLIS])
def test_bom_crlf_blank_and_last_line(prog, cmd, tmp_path):
    p = tmp_path / "crlf.jsonl"
    p.write_bytes(b'\xef\xbb\xbf{"name":"a","args":1}\r\n\r\n  \t\n{"name":"b","argsJSON":"[1.0]"}')
    r = subprocess.run(cmd + [str(p)], cwd=ROOT, capture_output=True, timeout=120)
    assert r.stdout.decode() == "%s  a\n%s  b\n" % (_sha("tool_call\na\n1"), _sha("tool_call\nb\n[1]"))


# Tests only (src/cli.ts, python/overturn/fingerprint/_cli.py): workers whatever the size, chunks dealt in turn
# (main, worker 1, ...) once all have started, and each job's chunk count written to a file at the end.
def _jobs_env(trace, min_bytes="0"):
    env = dict(os.environ, OVERTURN_FINGERPRINT_JOBS_DEAL="1", OVERTURN_FINGERPRINT_JOBS_TRACE=str(trace))
    if min_bytes is not None:
        env["OVERTURN_FINGERPRINT_JOBS_MIN_BYTES"] = min_bytes
    else:
        env.pop("OVERTURN_FINGERPRINT_JOBS_MIN_BYTES", None)
    return env


def _big(n, bad, name="t"):
    lines = ["{bad\n" if i == bad else '{"name":"%s%d","args":{"i":%d,"pad":"%s","rid":"r%d"},"ignoreArgs":["rid"]}\n'
             % (name, i % 3, i, "x" * 40, i) for i in range(n)]
    want = "".join("" if i == bad else "%s  %s%d\n" % (_sha('tool_call\n%s%d\n{"i":%d,"pad":"%s"}' % (name, i % 3, i, "x" * 40)),
                                                       name, i % 3) for i in range(n))
    return "".join(lines), want


def _trace(p):
    return json.loads(p.read_text("utf-8"))


@pytest.mark.parametrize("prog,cmd", CLIS, ids=[p for p, _ in CLIS])
def test_jobs_keep_input_order_and_merge_counts(prog, cmd, tmp_path):
    text, want = _big(40_000, 12_345)  # ~3.5 MB: four 1 MiB chunks
    p, t = tmp_path / "big.jsonl", tmp_path / "trace.json"
    p.write_text(text, encoding="utf-8")
    chunks = 0
    for jobs in (1, 2, 3):
        r = subprocess.run(cmd + ["--jobs", str(jobs), str(p)], cwd=ROOT, capture_output=True, timeout=300, env=_jobs_env(t))
        assert r.stdout.decode() == want, "--jobs %d" % jobs
        assert r.stderr.decode() == ('%s:%d: invalid JSON: unexpected character at byte 1 (line 1, column 2, "b")\n'
                                     "1 of 40000 lines failed\n" % (p, 12_346))
        assert r.returncode == 1
        if jobs == 1:
            chunks = _trace(t)["chunks"][0]
        # Dealt in turn: chunk i to job i mod jobs, job 0 the main one.
        assert _trace(t) == {"workers": jobs - 1, "chunks": [len(range(k, chunks, jobs)) for k in range(jobs)]}
    assert chunks >= 3


@pytest.mark.parametrize("prog,cmd", CLIS, ids=[p for p, _ in CLIS])
def test_jobs_over_files_and_a_missing_one(prog, cmd, tmp_path):
    (a_text, a_want), (b_text, b_want) = _big(30_000, -1, "a"), _big(30_000, 20_000, "b")
    a, b, missing, t = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "missing.jsonl", tmp_path / "trace.json"
    a.write_text(a_text, encoding="utf-8")
    b.write_text(b_text, encoding="utf-8")
    r = subprocess.run(cmd + ["--jobs", "3", str(a), str(missing), str(b)], cwd=ROOT, capture_output=True, timeout=300,
                       env=_jobs_env(t))
    assert r.stdout.decode() == a_want + b_want
    assert r.stderr.decode() == ('%s: no such file\n%s:20001: invalid JSON: unexpected character at byte 1 (line 1, column 2, "b")\n'
                                 "1 of 60000 lines failed\n" % (missing, b))
    assert r.returncode == 1
    assert _trace(t)["workers"] == 2 and all(c > 0 for c in _trace(t)["chunks"])


TAKE_BACK = r"""
import sys
from overturn.fingerprint import _cli
def idle(k, argv, tools, tasks, inbox):  # a worker that starts and then never takes a chunk (as if busy to the end)
    inbox.put((str(k), b"", None))
_cli._work = idle
sys.exit(_cli.main(["--jobs", "2", sys.argv[1]]))
"""


def test_chunks_a_worker_has_not_started_are_run_by_the_main_thread_at_the_end(tmp_path):
    # Python: at the end of input the main thread takes back the queued chunks; without
    # that, this run would wait for the idle worker forever (the timeout).
    text, want = _big(40_000, 12_345)
    p, t = tmp_path / "big.jsonl", tmp_path / "trace.json"
    p.write_text(text, encoding="utf-8")
    env = dict(os.environ, OVERTURN_FINGERPRINT_JOBS_TRACE=str(t), OVERTURN_FINGERPRINT_JOBS_MIN_BYTES="0")
    r = subprocess.run([sys.executable, "-c", TAKE_BACK, str(p)], cwd=ROOT, capture_output=True, timeout=120, env=env)
    assert r.stdout.decode() == want and r.returncode == 1
    assert r.stderr.decode().endswith("1 of 40000 lines failed\n")
    chunks = _trace(t)["chunks"]
    assert chunks[1] == 0 and chunks[0] >= 4  # every chunk ran here, the queued ones at the end


VECTORS = json.loads((ROOT / "vectors" / "cli.vectors.json").read_text("utf-8"))


def _argv(argv):
    return b"".join(b"%s:%s\0" % (b"-" if n is None else b"%d" % n, a.encode()) for a, n in argv)


def _facts(facts):
    return b"".join(b"%s=%s\0" % (k.encode(), str(v).encode()) for k, v in facts.items())


def _planned():
    from overturn.fingerprint._engine import cli_step
    cli_step("plan", _argv([["f", 1]]), "p", "1", _facts({"cores": 1, "worker": "thread"}))
    return cli_step


def test_cli_vectors_pin_the_contract_version():
    from overturn.fingerprint import FINGERPRINT_VERSION
    assert VECTORS["FINGERPRINT_VERSION"] == FINGERPRINT_VERSION


@pytest.mark.parametrize("case", VECTORS["plans"], ids=[c["id"] for c in VECTORS["plans"]])
def test_plan(case):
    """The core's plan (assembly/cli/plan.ts), asked as the CLI asks it; the same vectors as the TypeScript SDK's."""
    from overturn.fingerprint._engine import cli_step
    _out, _err, state, _lines, code = cli_step("plan", _argv(case["argv"]), "p", "1", _facts(case["facts"]))[:5]
    assert (code, bytes(state).decode().split("\0")[:-1]) == (-1, case["plan"])


@pytest.mark.parametrize("case", VECTORS["progress"], ids=[c["id"] for c in VECTORS["progress"]])
def test_progress(case):
    cli_step = _planned()
    for numbers, want in case["steps"]:
        assert bytes(cli_step("progress", "f", b"", numbers or "")[1]).decode() == want


@pytest.mark.parametrize("case", VECTORS["errno"], ids=[c["name"] for c in VECTORS["errno"]])
def test_read_error_words(case):
    cli_step = _planned()
    assert bytes(cli_step("unreadable", "f", b"", case["name"])[1]).decode() == "f: %s\n" % case["words"]


def test_json_error_positions():
    """Where a JSON error is, as the SDKs' error path asks the core (assembly/cli/message.ts); expected by hand."""
    from overturn.fingerprint._engine import cli_step
    for p in json.loads((ROOT / "vectors" / "cli.vectors.json").read_text("utf-8"))["positions"]:
        text = bytes.fromhex(p["hex"]) if "hex" in p else p["text"].encode("utf-8", "surrogatepass")
        assert bytes(cli_step("position", text, b"", str(p["offset"]))[0]).decode("utf-8") == p["want"]


def test_the_core_counts_a_chunks_lines_as_the_chunk_step_numbers_them():
    """The "lines" step (a chunk dealt to a worker needs the next one's first line number),
    against a count by hand: newlines at every offset around the 16-byte steps, a last line without one."""
    import random
    from overturn.fingerprint._engine import cli_step
    rnd = random.Random(7)
    for n in range(71):
        for _ in range(6):
            b = bytes(10 if rnd.randrange(4) == 0 else rnd.choice(b"abc") for _ in range(n))
            assert cli_step("lines", b"", b"", b"", b)[3] == b.count(b"\n") + (1 if b and not b.endswith(b"\n") else 0)
    big = ('{"name":"t","args":{"é":1}}\n' * 5000 + "{last").encode()
    assert cli_step("lines", b"", b"", b"", big)[3] == 5001
