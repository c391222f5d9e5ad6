"""One answer everywhere: the JavaScript API, the Python API and both
CLIs read the same recording lines through the core and give the same
explain / nearest / diff / why answers.

Oracles: docs/diagnostics.md's worked example (line 1 is nearest to
examples/unseen-call.json, with one change, priority "P0" → "P1") and hashlib
for a call nested 100,000 levels deep. Needs node and the built dist/
(``npx tsup``); skipped without them.
"""
from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from _support import ROOT
from overturn.fingerprint import FingerprintError, diff, explain_call, nearest

NODE = shutil.which("node")
DIST = ROOT / "dist"
RECORDING = ROOT / "examples" / "recording.jsonl"
UNSEEN = ROOT / "examples" / "unseen-call.json"

needs_node = pytest.mark.skipif(NODE is None or not (DIST / "cli.js").exists(),
                                reason="node and the built dist/ are needed")

# The JavaScript API over the same lines, printed as JSON (dist/index.js).
JS = r"""
import { readFileSync } from "node:fs";
import { diff, explainCall, nearest } from "%s";
const lines = readFileSync(process.argv[2], "utf8").split("\n").filter((l) => l.trim());
const call = explainCall(readFileSync(process.argv[3], "utf8"));
const recorded = lines.map((l) => explainCall(l));
const n = nearest(call, recorded);
process.stdout.write(JSON.stringify({
  explained: recorded, nearest: n && { index: n.index, diff: n.diff }, diff01: diff(recorded[0], recorded[1]),
}));
"""


def _py_answers():
    lines = [ln for ln in RECORDING.read_text("utf-8").split("\n") if ln.strip()]
    recorded = [explain_call(ln) for ln in lines]
    n = nearest(explain_call(UNSEEN.read_bytes()), recorded)
    return {"explained": recorded, "nearest": n and {"index": n["index"], "diff": n["diff"]},
            "diff01": diff(recorded[0], recorded[1])}


def _cli(cmd, args, stdin=b""):
    r = subprocess.run(cmd + [str(a) for a in args], input=stdin, cwd=ROOT, capture_output=True, timeout=300)
    return r.returncode, r.stdout, r.stderr


PY_CLI = [sys.executable, "-m", "overturn.fingerprint"]


def test_readme_example_python_api():
    a = _py_answers()
    assert a["nearest"]["index"] == 0  # line 1, as docs/diagnostics.md shows
    assert a["nearest"]["diff"] == {"same": False, "changes": [
        {"path": "priority", "kind": "changed", "before": '"P0"', "after": '"P1"'}]}
    assert a["diff01"] == {"same": True, "changes": []}  # lines 1–2: the same call written differently


@needs_node
def test_js_api_python_api_and_both_clis_agree(tmp_path: Path):
    script = tmp_path / "answers.mjs"
    script.write_text(JS % (DIST / "index.js").as_uri(), encoding="utf-8")
    js = json.loads(subprocess.run([NODE, str(script), str(RECORDING), str(UNSEEN)], capture_output=True,
                                   check=True, timeout=120).stdout)
    py = _py_answers()
    assert js == json.loads(json.dumps(py))
    ts_cli = [NODE, str(DIST / "cli.js")]
    for args in (["explain", "--json", RECORDING], ["why", "--json", UNSEEN, "--in", RECORDING],
                 ["why", UNSEEN, "--in", RECORDING]):
        a, b = _cli(PY_CLI, args), _cli(ts_cli, args)
        assert a == b, args
    why = json.loads(_cli(PY_CLI, ["why", "--json", UNSEEN, "--in", RECORDING])[1])
    assert why["nearest"]["line"] == py["nearest"]["index"] + 1
    assert why["nearest"]["diff"] == py["nearest"]["diff"]
    explained = [json.loads(ln) for ln in _cli(PY_CLI, ["explain", "--json", RECORDING])[1].splitlines()]
    assert [{k: v for k, v in e.items() if k not in ("file", "line")} for e in explained] == py["explained"]


@needs_node
def test_both_clis_read_a_line_nested_100000_levels(tmp_path: Path):
    depth = 100_000
    args = "[" * depth + "]" * depth
    line = ('{"name":"deep","args":%s}\n' % args).encode("ascii")
    want = hashlib.sha256(("tool_call\ndeep\n" + args).encode("ascii")).hexdigest()
    py = _cli(PY_CLI, ["-"], line)
    ts = _cli([NODE, str(DIST / "cli.js")], ["-"], line)
    assert py == ts
    assert py == (0, ("%s  deep\n" % want).encode("ascii"), b"")


@pytest.mark.parametrize("key,right", [("args_json", "argsJSON"), ("match_on", "matchOn"),
                                       ("ignore_args", "ignoreArgs"), ("MatchOn", "matchOn"), ("Name", "name")])
def test_near_miss_keys_are_errors_naming_the_key(key, right):
    with pytest.raises(FingerprintError) as e:
        explain_call({"name": "t", "args": {}, key: ["x"]})
    assert e.value.code == "bad-call"
    assert str(e.value) == '"%s" should be "%s" (call keys are camelCase)' % (key, right)
    with pytest.raises(FingerprintError):
        diff({"name": "t", "args_json": '{"a":1}'}, {"name": "t", "argsJSON": '{"a":2}'})


@needs_node
def test_cli_manners_alike_in_both_clis(tmp_path: Path):
    """A mistyped command is a usage error naming the commands (exit 2); verify that finds nothing to verify says so
    (exit 1). Same bytes in both CLIs, apart from the program name."""
    ts_cli = [NODE, str(DIST / "cli.js")]
    want = b'error: unknown command "verfy" (commands: explain, verify, why, replay, help; or a FILE) (see --help)\n'
    assert _cli(ts_cli, ["verfy", RECORDING]) == (2, b"", want)
    assert _cli(PY_CLI, ["verfy", RECORDING]) == (2, b"", want)
    nothing = tmp_path / "nothing.jsonl"
    nothing.write_text('{"name":"t","args":1}\n', encoding="utf-8")
    a, b = _cli(ts_cli, ["verify", nothing]), _cli(PY_CLI, ["verify", nothing])
    assert a == b
    assert a[0] == 1 and b'nothing to verify' in a[2]


def test_diff_of_recording_lines_with_argsjson():
    """The old bug: diff of two recording lines whose argsJSON differ said same=True."""
    a = json.loads('{"name": "search_docs", "argsJSON": "{\\"query\\": \\"refund\\", \\"limit\\": 10}"}')
    b = json.loads('{"name": "search_docs", "argsJSON": "{\\"query\\": \\"refunds\\", \\"limit\\": 10}"}')
    d = diff(a, b)
    assert d == {"same": False, "changes": [
        {"path": "query", "kind": "changed", "before": '"refund"', "after": '"refunds"'}]}
    lines = [ln for ln in RECORDING.read_text("utf-8").split("\n") if ln.strip()]
    assert diff(json.loads(lines[2]), json.loads(lines[3]))["same"] is True  # same call, written differently
