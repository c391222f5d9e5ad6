"""The SDK in child processes (multiprocessing's fork, spawn and forkserver), after the
parent has used the core: a forked child inherits the parent's wasmtime engine, store and
instance (``_wasmtime.py``), and must go on computing the same fingerprints with them.
Expected digests come from ``hashlib`` over the contract's preimage."""
from __future__ import annotations

import subprocess
import sys

PROGRAM = r"""
import hashlib, json, multiprocessing as mp, sys
from overturn.fingerprint import explain_call, fingerprint, fingerprint_batch_json, fingerprint_json

WANT = hashlib.sha256(b'tool_call\nt\n{"a":1}').hexdigest()

def work(i):
    return [fingerprint("t", {"a": 1}), fingerprint_json("t", '{"a": 1}'),
            *fingerprint_batch_json(["t"] * 5, ['{"a":1}'] * 5), explain_call({"name": "t", "args": {"a": 1}})["fingerprint"]]

if __name__ == "__main__":
    assert work(0) == [WANT] * 8  # the parent's instances exist before the children start
    out = {}
    for method in sys.argv[1:]:
        with mp.get_context(method).Pool(2) as pool:
            out[method] = all(r == [WANT] * 8 for r in pool.map(work, range(6)))
    print(json.dumps(out))
"""


def test_children_of_fork_spawn_and_forkserver_fingerprint_like_the_parent(tmp_path):
    import json
    import multiprocessing

    methods = [m for m in ("fork", "spawn", "forkserver") if m in multiprocessing.get_all_start_methods()]
    script = tmp_path / "children.py"
    script.write_text(PROGRAM, encoding="utf-8")
    r = subprocess.run([sys.executable, str(script), *methods], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {m: True for m in methods}
