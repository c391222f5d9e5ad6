"""Both call paths of ``_core.py`` on every shared vector (issue 11).

The fast path calls wasmtime's C API through our own ctypes prototypes; when
those cannot be bound (a wasmtime-py whose private layout changed), the
checked public API is used. ``OVERTURN_FINGERPRINT_PUBLIC_API=1`` forces the
latter in a fresh process, which then runs all vectors (value and text input,
error vectors, a large input that grows memory) and must agree with the fast
path in this process.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

from _support import VECTORS
from overturn.fingerprint import _core

PROGRAM = r"""
import json, sys
from overturn.fingerprint import FingerprintError, fingerprint_json, canonicalize_json, _core
out = []
for v in json.load(open(sys.argv[1], encoding="utf-8"))["vectors"]:
    if "argsJSON" not in v:
        continue
    try:
        out.append(fingerprint_json(v["name"], v["argsJSON"], match_on=v.get("matchOn"),
                                    ignore_args=v.get("ignoreArgs"), kind=v.get("kind", "tool_call")))
    except FingerprintError as e:
        out.append("error " + e.code)
big = "[" + ",".join(['{"k":"%d"}' % i for i in range(200000)]) + "]"
out.append(canonicalize_json(big) == big)
print(json.dumps({"public": _core._compiled()[3] is None, "results": out}))
"""


def run(public: bool) -> dict:
    env = dict(os.environ)
    env.pop(_core.PUBLIC_API_ENV, None)
    if public:
        env[_core.PUBLIC_API_ENV] = "1"
    out = subprocess.run([sys.executable, "-c", PROGRAM, str(VECTORS)], env=env, capture_output=True, text=True,
                         check=True)
    assert out.stderr == ""
    return json.loads(out.stdout)


def test_the_public_api_path_agrees_with_the_fast_path_on_every_vector() -> None:
    public, fast = run(True), run(False)
    assert public["public"] is True and fast["public"] is False
    vectors = [v for v in json.loads(VECTORS.read_text("utf-8"))["vectors"] if "argsJSON" in v]
    assert len(public["results"]) == len(vectors) + 1 > 200
    assert public["results"] == fast["results"]
    assert public["results"][-1] is True
    want = [v["fingerprint"] for v in vectors if "fingerprint" in v]
    got = [r for r, v in zip(fast["results"], vectors) if "fingerprint" in v]
    assert got == want
