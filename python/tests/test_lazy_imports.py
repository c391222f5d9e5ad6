"""Start-up: importing the package loads none of
its modules, the first fingerprint none of the batch, diagnostics and replay
modules, and the CLI none of the value path's (nor json, typing, datetime,
re); public names still resolve, on first use (PEP 562 ``__getattr__``).
Each check runs in a fresh interpreter, whose ``sys.modules`` is the evidence.
"""
from __future__ import annotations

import json
import subprocess
import sys

LAZY = ["overturn.fingerprint._batch_api", "overturn.fingerprint._batch", "overturn.fingerprint._explain",
        "overturn.fingerprint._engine", "overturn.fingerprint._replay",
        "overturn.fingerprint._tools"]


def _fresh(code: str) -> object:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_the_first_fingerprint_loads_no_diagnostics_batch_or_replay_module():
    loaded = _fresh("import json, sys\nfrom overturn.fingerprint import fingerprint\nfingerprint('search', {'q': 1})\n"
                    "print(json.dumps(sorted(m for m in sys.modules if m.startswith('overturn.'))))")
    assert isinstance(loaded, list)
    assert "overturn.fingerprint._core" in loaded
    assert [m for m in LAZY if m in loaded] == []


def test_importing_the_package_loads_none_of_its_modules():
    loaded = _fresh("import json, sys\nbefore = set(sys.modules)\nimport overturn.fingerprint\n"
                    "print(json.dumps(sorted(set(sys.modules) - before)))")
    assert loaded == ["__future__", "overturn", "overturn.fingerprint"]  # __future__: its annotations import


def test_the_cli_loads_no_value_path_module_nor_json_typing_or_datetime(tmp_path):
    line = '{"name": "search", "args": {"q": " cats "}}\n'
    (tmp_path / "r.jsonl").write_text(line, encoding="utf-8")
    # Only what the CLI loads counts: runpy itself (as `python -m` runs it)
    # imports typing and re on Python 3.9 (importlib.util → importlib.abc).
    code = ("import sys, runpy\nbefore = set(sys.modules)\nsys.argv = ['overturn-fingerprint', %r]\ntry:\n"
            "    runpy.run_module('overturn.fingerprint', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "sys.stderr.write(' '.join(sorted(set(sys.modules) - before)))\n" % str(tmp_path / "r.jsonl"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    import hashlib
    assert out.stdout.split() == [hashlib.sha256(b'tool_call\nsearch\n{"q":"cats"}').hexdigest(), "search"]
    loaded = set(out.stderr.split())
    assert "overturn.fingerprint._cli" in loaded
    unwanted = {"json", "json.decoder", "typing", "datetime", "re", "overturn.fingerprint._api",
                "overturn.fingerprint._encode", "overturn.fingerprint._stream", "wasmtime"}
    assert sorted(unwanted & loaded) == []


def test_lazy_names_resolve_and_are_the_modules_own_objects():
    got = _fresh("""import json
import overturn.fingerprint as fp
from overturn.fingerprint import _batch_api, _explain, _replay
names = ["explain", "explain_json", "explain_call", "explain_calls", "fingerprint_call", "diff", "nearest"]
same = [getattr(fp, n) is getattr(_explain, n) for n in names]
same += [fp.Recording is _replay.Recording, fp.fingerprint_batch is _batch_api.fingerprint_batch,
         fp.fingerprint_batch_json is _batch_api.fingerprint_batch_json]
star = {}
exec("from overturn.fingerprint import *", star)
print(json.dumps({"same": same, "star": sorted(n for n in star if not n.startswith("__")), "all": sorted(fp.__all__),
                  "dir": all(n in dir(fp) for n in fp.__all__), "e": fp.explain("search", {"q": 1})["canonical"]}))
""")
    assert isinstance(got, dict)
    assert got["same"] == [True] * 10
    assert got["star"] == got["all"]
    assert got["dir"] is True
    assert got["e"] == '{"q":1}'


def test_an_unknown_attribute_is_still_an_attribute_error():
    got = _fresh("""import json
import overturn.fingerprint as fp
try:
    fp.no_such_name
    print(json.dumps("no error"))
except AttributeError as e:
    print(json.dumps(str(e)))
""")
    assert got == "module 'overturn.fingerprint' has no attribute 'no_such_name'"
